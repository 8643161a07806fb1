package api

import "context"

// The Testing API's simulations of SEPA direct debits the account pays: a
// direct debit received (Upcoming until its execution date, else debited
// at once), then rejected by the debtor, canceled by the creditor or
// returned; and the booking of a direct debit the account collects.

// Operation names of the direct debit simulations.
const (
	OpSimulateOutgoingSepaDirectDebitReception = "SimulateOutgoingSepaDirectDebitReception"
	OpSimulateOutgoingSepaDirectDebitReject    = "SimulateOutgoingSepaDirectDebitReject"
	OpSimulateOutgoingSepaDirectDebitReturn    = "SimulateOutgoingSepaDirectDebitReturn"
	OpSimulateOutgoingSepaDirectDebitCancel    = "SimulateOutgoingSepaDirectDebitCancel"
	OpSimulateIncomingSepaDirectDebitBooking   = "SimulateIncomingSepaDirectDebitBooking"
)

// DirectDebitCreditor is the schema's SepaDirectDebitAccount: who collects.
type DirectDebitCreditor struct {
	IBAN       string `json:"iban"`
	Name       string `json:"name"`
	Identifier string `json:"identifier"` // the SEPA creditor identifier
}

// DirectDebitReceptionInput is SimulateOutgoingSepaDirectDebitReceptionInput
// (the fields partnertui sends).
type DirectDebitReceptionInput struct {
	Amount           Amount              `json:"amount"`
	Creditor         DirectDebitCreditor `json:"creditor"`
	DebtorIBAN       string              `json:"debtorIban"`
	EndToEndID       string              `json:"endToEndId,omitempty"`
	ExecutionDate    string              `json:"executionDate"`    // DateTime, not in the past
	MandateReference string              `json:"mandateReference"` // SepaReference
	MandateSequence  string              `json:"mandateSequence"`  // OneOff | Recurrent
	MandateType      string              `json:"mandateType"`      // Core | B2B
	Label            string              `json:"label,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (DirectDebitReceptionInput) GetGraphQLType() string {
	return "SimulateOutgoingSepaDirectDebitReceptionInput"
}

// DirectDebitRejectInput is SimulateOutgoingSepaDirectDebitRejectInput
// (reasonCode: NotSpecifiedByPayer).
type DirectDebitRejectInput TransferReasonInput

// GetGraphQLType names the variable's type in the query text.
func (DirectDebitRejectInput) GetGraphQLType() string {
	return "SimulateOutgoingSepaDirectDebitRejectInput"
}

// DirectDebitReturnInput is SimulateOutgoingSepaDirectDebitReturnInput
// (reasonCode: a SepaDirectDebitReturnReasonCodeEnum).
type DirectDebitReturnInput TransferReasonInput

// GetGraphQLType names the variable's type in the query text.
func (DirectDebitReturnInput) GetGraphQLType() string {
	return "SimulateOutgoingSepaDirectDebitReturnInput"
}

// DirectDebitCancelInput is SimulateOutgoingSepaDirectDebitCancelInput
// (reasonCode: a SepaDirectDebitCancelReasonCodeEnum).
type DirectDebitCancelInput TransferReasonInput

// GetGraphQLType names the variable's type in the query text.
func (DirectDebitCancelInput) GetGraphQLType() string {
	return "SimulateOutgoingSepaDirectDebitCancelInput"
}

type directDebitReceptionMutation struct {
	P struct {
		Typename  string      `graphql:"__typename"`
		Success   txIDQL      `graphql:"... on SimulateOutgoingSepaDirectDebitReceptionSuccessPayload"`
		Forbidden rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateOutgoingSepaDirectDebitReception(input: $input)"`
}

func (m *directDebitReceptionMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden)
}
func (m *directDebitReceptionMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingSepaDirectDebitReception has a creditor collect a direct
// debit from the account of in.DebtorIBAN and returns its transaction id.
func (c *Client) SimulateOutgoingSepaDirectDebitReception(ctx context.Context, in DirectDebitReceptionInput) (string, error) {
	return simulateTx[directDebitReceptionMutation](ctx, c, OpSimulateOutgoingSepaDirectDebitReception,
		"SimulateOutgoingSepaDirectDebitReceptionSuccessPayload", in)
}

type directDebitRejectMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaDirectDebitRejectSuccessPayload"`
	} `graphql:"simulateOutgoingSepaDirectDebitReject(input: $input)"`
}

func (m *directDebitRejectMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *directDebitRejectMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingSepaDirectDebitReject has the debtor reject an Upcoming
// direct debit (its transaction becomes Rejected).
func (c *Client) SimulateOutgoingSepaDirectDebitReject(ctx context.Context, in DirectDebitRejectInput) (string, error) {
	return simulateTx[directDebitRejectMutation](ctx, c, OpSimulateOutgoingSepaDirectDebitReject, "SimulateOutgoingSepaDirectDebitRejectSuccessPayload", in)
}

type directDebitReturnMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaDirectDebitReturnSuccessPayload"`
	} `graphql:"simulateOutgoingSepaDirectDebitReturn(input: $input)"`
}

func (m *directDebitReturnMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *directDebitReturnMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingSepaDirectDebitReturn gives back a booked direct debit
// and returns the return's transaction id.
func (c *Client) SimulateOutgoingSepaDirectDebitReturn(ctx context.Context, in DirectDebitReturnInput) (string, error) {
	return simulateTx[directDebitReturnMutation](ctx, c, OpSimulateOutgoingSepaDirectDebitReturn, "SimulateOutgoingSepaDirectDebitReturnSuccessPayload", in)
}

type directDebitCancelMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaDirectDebitCancelSuccessPayload"`
	} `graphql:"simulateOutgoingSepaDirectDebitCancel(input: $input)"`
}

func (m *directDebitCancelMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *directDebitCancelMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingSepaDirectDebitCancel has the creditor cancel an
// Upcoming direct debit (its transaction becomes Canceled).
func (c *Client) SimulateOutgoingSepaDirectDebitCancel(ctx context.Context, in DirectDebitCancelInput) (string, error) {
	return simulateTx[directDebitCancelMutation](ctx, c, OpSimulateOutgoingSepaDirectDebitCancel, "SimulateOutgoingSepaDirectDebitCancelSuccessPayload", in)
}

// IncomingDirectDebitBookingInput is
// SimulateIncomingSepaDirectDebitBookingInput.
type IncomingDirectDebitBookingInput struct {
	TransactionID string `json:"transactionId"`
}

// GetGraphQLType names the variable's type in the query text.
func (IncomingDirectDebitBookingInput) GetGraphQLType() string {
	return "SimulateIncomingSepaDirectDebitBookingInput"
}

type incomingDirectDebitBookingMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateIncomingSepaDirectDebitBookingSuccessPayload"`
	} `graphql:"simulateIncomingSepaDirectDebitBooking(input: $input)"`
}

func (m *incomingDirectDebitBookingMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *incomingDirectDebitBookingMutation) txID() string { return m.P.Success.TransactionID }

// SimulateIncomingSepaDirectDebitBooking books a Pending direct debit the
// account collects (SepaDirectDebitIn): the funds arrive.
func (c *Client) SimulateIncomingSepaDirectDebitBooking(ctx context.Context, in IncomingDirectDebitBookingInput) (string, error) {
	return simulateTx[incomingDirectDebitBookingMutation](ctx, c, OpSimulateIncomingSepaDirectDebitBooking, "SimulateIncomingSepaDirectDebitBookingSuccessPayload", in)
}
