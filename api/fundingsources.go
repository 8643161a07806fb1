package api

import "context"

// OpAddDirectDebitFundingSource adds a funding source (partner API); its
// account verification is moved by UpdateAccountVerificationStatus, a
// simulation of the Testing API.
const OpAddDirectDebitFundingSource = "AddDirectDebitFundingSource"

var addDirectDebitFundingSourceOp = declareMutation[addDirectDebitFundingSourceMutation](OpAddDirectDebitFundingSource,
	input(DirectDebitFundingSourceInput{}))

// DirectDebitFundingSourceInput is AddDirectDebitFundingSourceInput.
type DirectDebitFundingSourceInput struct {
	Scheme             string `json:"scheme"` // a SEPADirectDebitScheme: SepaDirectDebitB2b or SepaDirectDebitCore
	AccountID          string `json:"accountId"`
	IBAN               string `json:"iban"` // the holder's external account, debited when funding
	ConsentRedirectURL string `json:"consentRedirectUrl"`
	Name               string `json:"name,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (DirectDebitFundingSourceInput) GetGraphQLType() string {
	return "AddDirectDebitFundingSourceInput"
}

// FundingSource is a direct debit funding source with its account
// verification and payment mandate.
type FundingSource struct {
	ID, Name, IBAN string
	Status         string // a FundingSourceStatus: Pending, Enabled, Rejected…
	Verification   AccountVerification
	MandateID      string
	MandateStatus  string // a PaymentMandateStatus: ConsentPending, Enabled…
}

// AccountVerification is the check that a funding source's IBAN is the
// account holder's.
type AccountVerification struct {
	ID        string
	Status    string // an AccountVerificationStatus
	UpdatedAt string // DateTime
}

type accountVerificationQL struct {
	ID         string `graphql:"id"`
	UpdatedAt  string `graphql:"updatedAt"`
	StatusInfo struct {
		Status string `graphql:"status"`
	} `graphql:"statusInfo"`
}

func (v accountVerificationQL) verification() AccountVerification {
	return AccountVerification{ID: v.ID, Status: v.StatusInfo.Status, UpdatedAt: v.UpdatedAt}
}

type addDirectDebitFundingSourceMutation struct {
	// The payload is nullable in the schema.
	P *struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			FundingSource struct {
				ID         string  `graphql:"id"`
				Name       *string `graphql:"name"`
				StatusInfo struct {
					Status string `graphql:"status"`
				} `graphql:"statusInfo"`
				DirectDebit struct {
					IBAN           string                `graphql:"iban"`
					Verification   accountVerificationQL `graphql:"accountVerification"`
					PaymentMandate struct {
						ID   string `graphql:"id"`
						SEPA struct {
							StatusInfo struct {
								Status string `graphql:"status"`
							} `graphql:"statusInfo"`
						} `graphql:"... on SEPAPaymentDirectDebitMandate"`
					} `graphql:"paymentMandate"`
				} `graphql:"... on DirectDebitFundingSource"`
			} `graphql:"fundingSource"`
		} `graphql:"... on AddDirectDebitFundingSourceSuccessPayload"`
		Forbidden       rejectionQL `graphql:"... on ForbiddenRejection"`
		NotFound        rejectionQL `graphql:"... on NotFoundRejection"`
		AlreadyRejected rejectionQL `graphql:"... on AccountVerificationAlreadyRejectedRejection"`
		Validation      rejectionQL `graphql:"... on ValidationRejection"`
	} `graphql:"addDirectDebitFundingSource(input: $input)"`
}

// AddDirectDebitFundingSource adds a direct debit funding source to an
// account, with the signed-in user's token (the user consents to its
// payment mandate; one who consents automatically has it Enabled at
// once). The source waits, Pending, for its account verification. It is a
// mutation: sent once.
func (c *Client) AddDirectDebitFundingSource(ctx context.Context, in DirectDebitFundingSourceInput) (*FundingSource, error) {
	m, err := addDirectDebitFundingSourceOp.mutate(ctx, c, map[string]any{"input": in}, "")
	if err != nil {
		return nil, err
	}
	if m.P == nil {
		return nil, &RejectionError{Env: c.env, Type: "null", Message: "the platform returned no payload"}
	}
	if m.P.Typename != "AddDirectDebitFundingSourceSuccessPayload" {
		msg := message(m.P.Forbidden, m.P.NotFound, m.P.AlreadyRejected, m.P.Validation)
		if msg == "" {
			msg = "the platform did not add the funding source"
		}
		return nil, &RejectionError{Env: c.env, Type: m.P.Typename, Message: msg}
	}
	f := m.P.Success.FundingSource
	dd := f.DirectDebit
	return &FundingSource{ID: f.ID, Name: deref(f.Name), IBAN: dd.IBAN, Status: f.StatusInfo.Status,
		Verification: dd.Verification.verification(), MandateID: dd.PaymentMandate.ID,
		MandateStatus: dd.PaymentMandate.SEPA.StatusInfo.Status}, nil
}

// AccountVerificationStatusInput is UpdateAccountVerificationStatusInput.
type AccountVerificationStatusInput struct {
	AccountVerificationID string `json:"accountVerificationId"`
	NewStatus             string `json:"newStatus"` // an AccountVerificationStatus
}

// GetGraphQLType names the variable's type in the query text.
func (AccountVerificationStatusInput) GetGraphQLType() string {
	return "UpdateAccountVerificationStatusInput"
}

type updateAccountVerificationStatusMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			Verification struct {
				DirectDebit accountVerificationQL `graphql:"... on DirectDebitAccountVerification"`
			} `graphql:"accountVerification"`
		} `graphql:"... on UpdateAccountVerificationStatusSuccessPayload"`
		Forbidden rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"updateAccountVerificationStatus(input: $input)"`
}

// UpdateAccountVerificationStatus moves an account verification to a
// status, as the platform's review would; its funding sources follow.
var UpdateAccountVerificationStatus = simulation[AccountVerificationStatusInput](
	func(_ string, m *updateAccountVerificationStatusMutation) (*AccountVerification, error) {
		v := m.P.Success.Verification.DirectDebit.verification()
		return &v, nil
	},
	named(func(v *AccountVerification) []string { return []string{v.ID, v.Status} }, "accountVerification.id", "accountVerification.status"))
