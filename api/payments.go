package api

import (
	"context"
	"fmt"

	graphql "github.com/hasura/go-graphql-client"
)

// Operations of payments (partner API): outgoing credit transfers started,
// and a payment read again (while it waits for its consent).
const (
	OpInitiateCreditTransfers = "InitiateCreditTransfers"
	OpPayment                 = "Payment"
)

var (
	initiateCreditTransfersOp = declareMutation[initiateCreditTransfersMutation](OpInitiateCreditTransfers, func() map[string]any {
		return map[string]any{"input": initiateCreditTransfersInputQL{}, "first": maxPaymentTransfers}
	})
	paymentOp = declareQuery[paymentQuery](OpPayment, func() map[string]any {
		return map[string]any{"id": graphql.ID(""), "first": maxPaymentTransfers}
	})
)

// maxPaymentTransfers is how many of a payment's transactions are read
// back: partnertui initiates one transfer at a time.
const maxPaymentTransfers = 10

// CreditTransferInput is the schema's CreditTransferInput, to a SEPA
// beneficiary (the fields partnertui sends).
type CreditTransferInput struct {
	Amount          Amount               `json:"amount"`
	SepaBeneficiary SepaBeneficiaryInput `json:"sepaBeneficiary"`
	Label           string               `json:"label,omitempty"`
	Reference       string               `json:"reference,omitempty"`
	Mode            string               `json:"mode,omitempty"` // Regular | InstantWithoutFallback | InstantWithFallback
}

// SepaBeneficiaryInput is the schema's SepaBeneficiaryInput.
type SepaBeneficiaryInput struct {
	IBAN string `json:"iban"`
	Name string `json:"name"`
}

// InitiateCreditTransfersInput is the schema's InitiateCreditTransfersInput
// for one transfer from an account.
type InitiateCreditTransfersInput struct {
	AccountID string `json:"accountId"`
	// ConsentRedirectURL is where the user's browser goes once the
	// consent is given (when the user does not consent automatically).
	ConsentRedirectURL string `json:"consentRedirectUrl"`
	// CreditTransfer is the one transfer of creditTransfers.
	CreditTransfer CreditTransferInput `json:"creditTransfers"`
}

type initiateCreditTransfersInputQL struct {
	AccountID          string                `json:"accountId"`
	ConsentRedirectURL string                `json:"consentRedirectUrl"`
	CreditTransfers    []CreditTransferInput `json:"creditTransfers"`
}

// GetGraphQLType names the variable's type in the query text.
func (initiateCreditTransfersInputQL) GetGraphQLType() string { return "InitiateCreditTransfersInput" }

// Payment is what initiateCreditTransfers made: the payment, its status,
// the consent URL while it waits for the user's consent, and the
// transactions of its transfers once sent.
type Payment struct {
	ID             string   `json:"id"`
	Status         string   `json:"status"` // ConsentPending | Initiated | Rejected
	ConsentURL     string   `json:"consentUrl,omitempty"`
	RejectedReason string   `json:"reason,omitempty"`
	TransactionIDs []string `json:"transactionIds"`
}

// paymentQL is a Payment's fields partnertui reads.
type paymentQL struct {
	ID         string `graphql:"id"`
	StatusInfo struct {
		Status         string `graphql:"status"`
		ConsentPending struct {
			Consent struct {
				ConsentURL string `graphql:"consentUrl"`
			} `graphql:"consent"`
		} `graphql:"... on PaymentConsentPending"`
		Rejected struct {
			Reason string `graphql:"reason"`
		} `graphql:"... on PaymentRejected"`
	} `graphql:"statusInfo"`
	Transactions *struct {
		Edges []struct {
			Node struct {
				ID string `graphql:"id"`
			} `graphql:"node"`
		} `graphql:"edges"`
	} `graphql:"transactions(first: $first)"`
}

func (q *paymentQL) payment() (*Payment, error) {
	p := &Payment{ID: q.ID, Status: q.StatusInfo.Status, ConsentURL: q.StatusInfo.ConsentPending.Consent.ConsentURL,
		RejectedReason: q.StatusInfo.Rejected.Reason, TransactionIDs: []string{}}
	if q.Transactions != nil {
		for _, e := range q.Transactions.Edges {
			p.TransactionIDs = append(p.TransactionIDs, e.Node.ID)
		}
	}
	if p.ID == "" {
		return nil, fmt.Errorf("the platform answered a payment without an id: %w", ErrRejected)
	}
	return p, nil
}

type paymentQuery struct {
	Payment paymentQL `graphql:"payment(id: $id)"`
}

// Payment reads a payment again: while it is ConsentPending the user has
// not answered its consent yet; Initiated, its transfers were sent.
func (c *Client) Payment(ctx context.Context, id string) (*Payment, error) {
	q, err := paymentOp.query(ctx, c, map[string]any{"id": graphql.ID(id), "first": maxPaymentTransfers})
	if err != nil {
		return nil, err
	}
	return q.Payment.payment()
}

type initiateCreditTransfersMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			Payment paymentQL `graphql:"payment"`
		} `graphql:"... on InitiateCreditTransfersSuccessPayload"`
		AccountNotFound rejectionQL `graphql:"... on AccountNotFoundRejection"`
		Forbidden       rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"initiateCreditTransfers(input: $input)"`
}

// InitiateCreditTransfers starts one outgoing SEPA credit transfer from an
// account, with the signed-in user's token (the platform wants the user's
// consent). A user who consents automatically sends it at once: the
// payment is Initiated with the transfer's transaction. Otherwise it waits
// for the consent, at its ConsentURL. It is a mutation: sent once.
func (c *Client) InitiateCreditTransfers(ctx context.Context, in InitiateCreditTransfersInput) (*Payment, error) {
	vars := map[string]any{
		"input": initiateCreditTransfersInputQL{AccountID: in.AccountID, ConsentRedirectURL: in.ConsentRedirectURL,
			CreditTransfers: []CreditTransferInput{in.CreditTransfer}},
		"first": maxPaymentTransfers,
	}
	m, err := initiateCreditTransfersOp.mutate(ctx, c, vars, "")
	if err != nil {
		return nil, err
	}
	switch m.P.Typename {
	case "InitiateCreditTransfersSuccessPayload":
	case "AccountNotFoundRejection", "ForbiddenRejection":
		return nil, &RejectionError{Env: c.env, Type: m.P.Typename, Message: message(m.P.AccountNotFound, m.P.Forbidden)}
	default:
		return nil, &RejectionError{Env: c.env, Type: m.P.Typename, Message: "the platform did not initiate the transfer"}
	}
	return m.P.Success.Payment.payment()
}
