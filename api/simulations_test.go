package api

import (
	"context"
	"errors"
	"testing"
)

// simulationOperations runs the Testing API's simulations on the
// emulator, as a partner's Sandbox tests would, and checks what each
// returns; a rejection comes back as a *RejectionError naming its type.
func simulationOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	u, err := user.CreateSandboxUser(ctx, SandboxUserInput{FirstName: "Ada", LastName: "Ops", BirthDate: "1990-04-12", NationalityCCA3: "FRA", AutoConsent: true})
	cov.ok(t, OpCreateSandboxUser, err)
	if u.ID == "" || u.FirstName != "Ada" || u.LastName != "Ops" || !u.AutoConsent {
		t.Errorf("%s = %+v", OpCreateSandboxUser, u)
	}
	_, err = user.CreateSandboxUser(ctx, SandboxUserInput{FirstName: "Ada", LastName: "Ops", BirthDate: "1990-04-12", NationalityCCA3: "XX1"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "NationalityNotFoundRejection" || rej.Message == "" {
		t.Errorf("%s with nationality XX1: %v, want a NationalityNotFoundRejection", OpCreateSandboxUser, err)
	}
	cardOperations(t, cov, user)
	transferOperations(t, cov, user)
}

// transferOperations returns one received transfer and recalls another.
func transferOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	accounts, err := user.Accounts(ctx, AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	var acc *Account
	for i := range accounts.Items {
		if accounts.Items[i].IBAN != "" {
			acc = &accounts.Items[i]
			break
		}
	}
	if acc == nil {
		t.Fatal("the demo user has no Opened account with an IBAN")
	}
	receive := func() string {
		t.Helper()
		id, err := user.SimulateIncomingTransfer(ctx, IncomingTransfer{Amount: Amount{Value: "6.00", Currency: acc.Currency},
			CreditorIBAN: acc.IBAN, CreditorName: acc.Holder.Info.Name, DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "Ops Test Debtor"})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	returned, err := user.SimulateIncomingSepaCreditTransferReturn(ctx, IncomingTransferReturnInput{TransactionID: receive(), ReasonCode: "NotSpecifiedByBeneficiary"})
	cov.ok(t, OpSimulateIncomingSepaCreditTransferReturn, err)
	recalled, err := user.SimulateIncomingSepaCreditTransferAcceptedRecall(ctx, IncomingTransferRecallInput{TransactionID: receive(), ReasonCode: "TransactionDuplicated"})
	cov.ok(t, OpSimulateIncomingSepaCreditTransferAcceptedRecall, err)
	if returned == "" || recalled == "" || returned == recalled {
		t.Errorf("return %q, recall %q: want two new transactions", returned, recalled)
	}
	_, err = user.SimulateIncomingSepaCreditTransferReturn(ctx, IncomingTransferReturnInput{TransactionID: "no-such-transaction", ReasonCode: "NotSpecifiedByBeneficiary"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "TransactionNotFoundRejection" {
		t.Errorf("return of no transaction: %v, want a TransactionNotFoundRejection", err)
	}
}

// payingCard is an Enabled card of an Opened account the client sees,
// with its account's currency.
func payingCard(t *testing.T, c *Client) (string, string) {
	t.Helper()
	ctx := context.Background()
	cards, err := c.Cards(ctx, CardsParams{Statuses: []string{"Enabled"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, card := range cards.Items {
		if card.AccountMembership == nil {
			continue
		}
		if a, err := c.Account(ctx, card.AccountMembership.AccountID); err == nil && a.StatusInfo.Status == "Opened" {
			return card.ID, a.Currency
		}
	}
	t.Fatal("no Enabled card of an Opened account")
	return "", ""
}

func cardOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	cardID, cur := payingCard(t, user)
	amount := &Amount{Value: "4.20", Currency: cur}
	authorize := func() string {
		t.Helper()
		a, err := user.SimulateOutgoingCardAuthorization(ctx, CardAuthorizationInput{CardID: cardID, Amount: amount})
		cov.ok(t, OpSimulateOutgoingCardAuthorization, err)
		if a.TransactionID == "" || a.RejectedReason != "" {
			t.Fatalf("%s = %+v", OpSimulateOutgoingCardAuthorization, a)
		}
		return a.TransactionID
	}
	debit, err := user.SimulateOutgoingCardDebit(ctx, CardDebitInput{TransactionID: authorize()})
	cov.ok(t, OpSimulateOutgoingCardDebit, err)
	reversal, err := user.SimulateOutgoingCardDebitReverse(ctx, CardDebitReverseInput{TransactionID: debit})
	cov.ok(t, OpSimulateOutgoingCardDebitReverse, err)
	released, err := user.SimulateOutgoingCardAuthorizationRelease(ctx, CardAuthorizationReleaseInput{TransactionID: authorize(), Reason: "MerchantReleased"})
	cov.ok(t, OpSimulateOutgoingCardAuthorizationRelease, err)
	reserved, err := user.SimulateReleaseReservedBalance(ctx, ReleaseReservedBalanceInput{TransactionID: authorize()})
	cov.ok(t, OpSimulateReleaseReservedBalance, err)
	direct, err := user.SimulateOutgoingCardDebitWithoutAuthorization(ctx, CardDebitWithoutAuthorizationInput{CardID: cardID, Amount: *amount})
	cov.ok(t, OpSimulateOutgoingCardDebitWithoutAuthorization, err)
	refund, err := user.SimulateOutgoingCardCredit(ctx, CardCreditInput{CardID: cardID, Amount: *amount, MerchantName: "Ops refund"})
	cov.ok(t, OpSimulateOutgoingCardCredit, err)
	for name, id := range map[string]string{"debit": debit, "reversal": reversal, "release": released, "reserved": reserved, "direct": direct, "refund": refund} {
		if id == "" {
			t.Errorf("%s: no transaction id", name)
		}
	}
	declined, err := user.SimulateOutgoingCardAuthorization(ctx, CardAuthorizationInput{CardID: cardID, Amount: amount, Outcome: "DoNotHonor"})
	if err != nil || declined.TransactionID == "" || declined.RejectedReason == "" {
		t.Errorf("a declined authorization: %+v, %v; want its transaction and reason", declined, err)
	}
	_, err = user.SimulateOutgoingCardDebit(ctx, CardDebitInput{TransactionID: "no-such-transaction"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "TransactionNotFoundRejection" {
		t.Errorf("debit of no transaction: %v, want a TransactionNotFoundRejection", err)
	}
	_, err = user.SimulateOutgoingCardCredit(ctx, CardCreditInput{CardID: "no-such-card", Amount: *amount})
	if !errors.As(err, &rej) || rej.Type != "CardNotFoundRejection" {
		t.Errorf("credit to no card: %v, want a CardNotFoundRejection", err)
	}
}
