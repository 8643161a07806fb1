package api

import (
	"context"
	"errors"
	"testing"
)

// fundingOperations adds a funding source to the first account whose
// memberships the user manages, then verifies its IBAN.
func fundingOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	accounts, err := user.Accounts(ctx, AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	in := DirectDebitFundingSourceInput{Scheme: "SepaDirectDebitB2b", IBAN: "FR2730003000706315734174B93",
		ConsentRedirectURL: "https://partner.example/after-consent", Name: "Ops bank"}
	var src *FundingSource
	for _, a := range accounts.Items {
		in.AccountID = a.ID
		src, err = user.AddDirectDebitFundingSource(ctx, in)
		// An account the user only views or pays from refuses it.
		if rej := (*RejectionError)(nil); errors.As(err, &rej) && rej.Type == "ForbiddenRejection" {
			continue
		}
		break
	}
	cov.ok(t, OpAddDirectDebitFundingSource, err)
	if src.ID == "" || src.Name != "Ops bank" || src.IBAN != in.IBAN || src.Status != "Pending" ||
		src.Verification.ID == "" || src.Verification.Status != "PendingVerification" || src.MandateID == "" || src.MandateStatus == "" {
		t.Fatalf("%s = %+v", OpAddDirectDebitFundingSource, src)
	}
	v, err := UpdateAccountVerificationStatus.Run(ctx, user.Testing(), AccountVerificationStatusInput{AccountVerificationID: src.Verification.ID, NewStatus: "Verified"})
	cov.ok(t, UpdateAccountVerificationStatus.Name(), err)
	if v.ID != src.Verification.ID || v.Status != "Verified" || v.UpdatedAt == "" {
		t.Errorf("%s = %+v", UpdateAccountVerificationStatus.Name(), v)
	}
	_, err = UpdateAccountVerificationStatus.Run(ctx, user.Testing(), AccountVerificationStatusInput{AccountVerificationID: "no-such-verification", NewStatus: "Verified"})
	if rej := (*RejectionError)(nil); !errors.As(err, &rej) || rej.Type != "ForbiddenRejection" || rej.Message == "" {
		t.Errorf("%s of an unknown verification: %v, want a ForbiddenRejection", UpdateAccountVerificationStatus.Name(), err)
	}
	in.IBAN = "FR0030003000706315734174B93"
	_, err = user.AddDirectDebitFundingSource(ctx, in)
	if rej := (*RejectionError)(nil); !errors.As(err, &rej) || rej.Type != "ValidationRejection" || rej.Message == "" {
		t.Errorf("%s with a bad IBAN: %v, want a ValidationRejection", OpAddDirectDebitFundingSource, err)
	}
}
