package api

import "context"

// The Testing API's card payment simulations: an authorization, then its
// debit or release; a debit with no authorization; a merchant's reversal
// or refund; a reservation released.

// Operation names of the card simulations.
const (
	OpSimulateOutgoingCardAuthorization             = "SimulateOutgoingCardAuthorization"
	OpSimulateOutgoingCardDebit                     = "SimulateOutgoingCardDebit"
	OpSimulateOutgoingCardDebitWithoutAuthorization = "SimulateOutgoingCardDebitWithoutAuthorization"
	OpSimulateOutgoingCardAuthorizationRelease      = "SimulateOutgoingCardAuthorizationRelease"
	OpSimulateOutgoingCardDebitReverse              = "SimulateOutgoingCardDebitReverse"
	OpSimulateOutgoingCardCredit                    = "SimulateOutgoingCardCredit"
	OpSimulateReleaseReservedBalance                = "SimulateReleaseReservedBalance"
)

// CardAuthorizationInput is SimulateOutgoingCardAuthorizationInput (the
// fields partnertui sends; the platform's defaults stand for the rest).
type CardAuthorizationInput struct {
	CardID                  string  `json:"cardId"`
	Amount                  *Amount `json:"amount,omitempty"`
	AuthorizationType       string  `json:"authorizationType,omitempty"`       // Classic | PreAuthorization | DataRequest
	CardTransactionCategory string  `json:"cardTransactionCategory,omitempty"` // InStore | eCommerce | …
	OperationType           string  `json:"operationType,omitempty"`           // Payment | AtmWithdrawal | …
	Outcome                 string  `json:"outcome,omitempty"`                 // Accepted, or why it is declined
	TerminalID              string  `json:"terminalId,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (CardAuthorizationInput) GetGraphQLType() string {
	return "SimulateOutgoingCardAuthorizationInput"
}

// CardDebitInput is SimulateOutgoingCardDebitInput: the debit of an
// authorization (its transaction), for its amount unless Amount is set.
type CardDebitInput struct {
	TransactionID string  `json:"transactionId"`
	Amount        *Amount `json:"amount,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (CardDebitInput) GetGraphQLType() string { return "SimulateOutgoingCardDebitInput" }

// CardDebitReverseInput is SimulateOutgoingCardDebitReverseInput: the
// merchant's reversal of a booked debit.
type CardDebitReverseInput CardDebitInput

// GetGraphQLType names the variable's type in the query text.
func (CardDebitReverseInput) GetGraphQLType() string { return "SimulateOutgoingCardDebitReverseInput" }

// CardDebitWithoutAuthorizationInput is
// SimulateOutgoingCardDebitWithoutAuthorizationInput.
type CardDebitWithoutAuthorizationInput struct {
	CardID string `json:"cardId"`
	Amount Amount `json:"amount"`
}

// GetGraphQLType names the variable's type in the query text.
func (CardDebitWithoutAuthorizationInput) GetGraphQLType() string {
	return "SimulateOutgoingCardDebitWithoutAuthorizationInput"
}

// CardCreditInput is SimulateOutgoingCardCreditInput: a merchant's refund.
type CardCreditInput struct {
	CardID              string `json:"cardId"`
	Amount              Amount `json:"amount"`
	OriginTransactionID string `json:"originTransactionId,omitempty"`
	MerchantName        string `json:"merchantName,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (CardCreditInput) GetGraphQLType() string { return "SimulateOutgoingCardCreditInput" }

// CardAuthorizationReleaseInput is
// SimulateOutgoingCardAuthorizationReleaseInput.
type CardAuthorizationReleaseInput struct {
	TransactionID string `json:"transactionId"`
	Reason        string `json:"reason,omitempty"` // Expired (the default) | ManuallyReleased | MerchantReleased
}

// GetGraphQLType names the variable's type in the query text.
func (CardAuthorizationReleaseInput) GetGraphQLType() string {
	return "SimulateOutgoingCardAuthorizationReleaseInput"
}

// ReleaseReservedBalanceInput is SimulateReleaseReservedBalanceInput.
type ReleaseReservedBalanceInput struct {
	TransactionID string `json:"transactionId"`
}

// GetGraphQLType names the variable's type in the query text.
func (ReleaseReservedBalanceInput) GetGraphQLType() string {
	return "SimulateReleaseReservedBalanceInput"
}

// CardAuthorization is what an authorization made: its transaction, and
// when the authorization was declined (the transaction Rejected) why.
type CardAuthorization struct {
	TransactionID  string `json:"transactionId"`
	RejectedReason string `json:"rejectedReason,omitempty"`
}

type cardAuthorizationMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  txIDQL `graphql:"... on SimulateOutgoingCardAuthorizationSuccessPayload"`
		Reject   struct {
			TransactionID  string `graphql:"transactionId"`
			RejectedReason string `graphql:"rejectedReason"`
		} `graphql:"... on SimulateOutgoingCardAuthorizationRejectPayload"`
		CardNotFound rejectionQL `graphql:"... on CardNotFoundRejection"`
		Forbidden    rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateOutgoingCardAuthorization(input: $input)"`
}

func (m *cardAuthorizationMutation) outcome() (string, string) {
	if m.P.Typename == "SimulateOutgoingCardAuthorizationRejectPayload" {
		// A declined authorization is the simulation's success too.
		return "SimulateOutgoingCardAuthorizationSuccessPayload", ""
	}
	return m.P.Typename, message(m.P.CardNotFound, m.P.Forbidden)
}

// SimulateOutgoingCardAuthorization authorizes a card payment: a Pending
// transaction, or a Rejected one when in.Outcome declines it.
func (c *Client) SimulateOutgoingCardAuthorization(ctx context.Context, in CardAuthorizationInput) (*CardAuthorization, error) {
	m, err := simulate[cardAuthorizationMutation](ctx, c, OpSimulateOutgoingCardAuthorization, "SimulateOutgoingCardAuthorizationSuccessPayload", in)
	if err != nil {
		return nil, err
	}
	if m.P.Typename == "SimulateOutgoingCardAuthorizationRejectPayload" {
		return &CardAuthorization{TransactionID: m.P.Reject.TransactionID, RejectedReason: m.P.Reject.RejectedReason}, nil
	}
	return &CardAuthorization{TransactionID: m.P.Success.TransactionID}, nil
}

type cardDebitMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingCardDebitSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		CardNotFound        rejectionQL `graphql:"... on CardNotFoundRejection"`
	} `graphql:"simulateOutgoingCardDebit(input: $input)"`
}

func (m *cardDebitMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound, m.P.CardNotFound)
}
func (m *cardDebitMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingCardDebit debits an authorized card payment and returns
// the debit's transaction id.
func (c *Client) SimulateOutgoingCardDebit(ctx context.Context, in CardDebitInput) (string, error) {
	return simulateTx[cardDebitMutation](ctx, c, OpSimulateOutgoingCardDebit, "SimulateOutgoingCardDebitSuccessPayload", in)
}

type cardDebitWithoutAuthorizationMutation struct {
	P struct {
		Typename     string      `graphql:"__typename"`
		Success      txIDQL      `graphql:"... on SimulateOutgoingCardDebitWithoutAuthorizationSuccessPayload"`
		CardNotFound rejectionQL `graphql:"... on CardNotFoundRejection"`
		Forbidden    rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateOutgoingCardDebitWithoutAuthorization(input: $input)"`
}

func (m *cardDebitWithoutAuthorizationMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.CardNotFound, m.P.Forbidden)
}
func (m *cardDebitWithoutAuthorizationMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingCardDebitWithoutAuthorization books a card debit that no
// authorization preceded and returns its transaction id.
func (c *Client) SimulateOutgoingCardDebitWithoutAuthorization(ctx context.Context, in CardDebitWithoutAuthorizationInput) (string, error) {
	return simulateTx[cardDebitWithoutAuthorizationMutation](ctx, c, OpSimulateOutgoingCardDebitWithoutAuthorization,
		"SimulateOutgoingCardDebitWithoutAuthorizationSuccessPayload", in)
}

type cardAuthorizationReleaseMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingCardAuthorizationReleaseSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
	} `graphql:"simulateOutgoingCardAuthorizationRelease(input: $input)"`
}

func (m *cardAuthorizationReleaseMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *cardAuthorizationReleaseMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingCardAuthorizationRelease releases an authorization
// without a debit (its transaction becomes Released).
func (c *Client) SimulateOutgoingCardAuthorizationRelease(ctx context.Context, in CardAuthorizationReleaseInput) (string, error) {
	return simulateTx[cardAuthorizationReleaseMutation](ctx, c, OpSimulateOutgoingCardAuthorizationRelease,
		"SimulateOutgoingCardAuthorizationReleaseSuccessPayload", in)
}

type cardDebitReverseMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingCardDebitReverseSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
	} `graphql:"simulateOutgoingCardDebitReverse(input: $input)"`
}

func (m *cardDebitReverseMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *cardDebitReverseMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingCardDebitReverse books the merchant's reversal of a
// booked card debit and returns the reversal's transaction id.
func (c *Client) SimulateOutgoingCardDebitReverse(ctx context.Context, in CardDebitReverseInput) (string, error) {
	return simulateTx[cardDebitReverseMutation](ctx, c, OpSimulateOutgoingCardDebitReverse, "SimulateOutgoingCardDebitReverseSuccessPayload", in)
}

type cardCreditMutation struct {
	P struct {
		Typename     string      `graphql:"__typename"`
		Success      txIDQL      `graphql:"... on SimulateOutgoingCardCreditSuccessPayload"`
		CardNotFound rejectionQL `graphql:"... on CardNotFoundRejection"`
		Forbidden    rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateOutgoingCardCredit(input: $input)"`
}

func (m *cardCreditMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.CardNotFound, m.P.Forbidden)
}
func (m *cardCreditMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingCardCredit books a merchant's refund to a card and
// returns its transaction id.
func (c *Client) SimulateOutgoingCardCredit(ctx context.Context, in CardCreditInput) (string, error) {
	return simulateTx[cardCreditMutation](ctx, c, OpSimulateOutgoingCardCredit, "SimulateOutgoingCardCreditSuccessPayload", in)
}

type releaseReservedBalanceMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on ReleaseReservedBalanceSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
	} `graphql:"simulateReleaseReservedBalance(input: $input)"`
}

func (m *releaseReservedBalanceMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *releaseReservedBalanceMutation) txID() string { return m.P.Success.TransactionID }

// SimulateReleaseReservedBalance releases the balance an authorization
// reserved.
func (c *Client) SimulateReleaseReservedBalance(ctx context.Context, in ReleaseReservedBalanceInput) (string, error) {
	return simulateTx[releaseReservedBalanceMutation](ctx, c, OpSimulateReleaseReservedBalance, "ReleaseReservedBalanceSuccessPayload", in)
}
