package api

import "context"

// The Testing API's SEPA credit transfer simulations after the reception
// (operations.go): an incoming transfer returned or recalled, an outgoing
// one (initiateCreditTransfers, payments.go) booked, rejected or returned.
// Each names the transaction it acts on and returns the transaction it
// made or changed.

// Operation names of the SEPA credit transfer simulations.
const (
	OpSimulateIncomingSepaCreditTransferReturn         = "SimulateIncomingSepaCreditTransferReturn"
	OpSimulateIncomingSepaCreditTransferAcceptedRecall = "SimulateIncomingSepaCreditTransferAcceptedRecall"
	OpSimulateOutgoingSepaCreditTransferBooking        = "SimulateOutgoingSepaCreditTransferBooking"
	OpSimulateOutgoingSepaCreditTransferRejection      = "SimulateOutgoingSepaCreditTransferRejection"
	OpSimulateOutgoingSepaCreditTransferReturn         = "SimulateOutgoingSepaCreditTransferReturn"
)

// TransferReasonInput names a transaction and the reason code of what
// happens to it. Its GraphQL type is each simulation's own input type,
// whose reasonCode enum differs: see the types below.
type TransferReasonInput struct {
	TransactionID string `json:"transactionId"`
	ReasonCode    string `json:"reasonCode"`
}

// IncomingTransferReturnInput is SimulateIncomingSepaCreditTransferReturnInput
// (reasonCode: NotSpecifiedByBeneficiary).
type IncomingTransferReturnInput TransferReasonInput

// GetGraphQLType names the variable's type in the query text.
func (IncomingTransferReturnInput) GetGraphQLType() string {
	return "SimulateIncomingSepaCreditTransferReturnInput"
}

// IncomingTransferRecallInput is
// SimulateIncomingSepaCreditTransferAcceptedRecallInput (reasonCode: a
// SepaCreditTransferRecallReasonCodeEnum).
type IncomingTransferRecallInput TransferReasonInput

// GetGraphQLType names the variable's type in the query text.
func (IncomingTransferRecallInput) GetGraphQLType() string {
	return "SimulateIncomingSepaCreditTransferAcceptedRecallInput"
}

// OutgoingTransferRejectionInput is
// SimulateOutgoingSepaCreditTransferRejectionInput (reasonCode: a
// SepaCreditTransferRejectionReasonCodeEnum).
type OutgoingTransferRejectionInput TransferReasonInput

// GetGraphQLType names the variable's type in the query text.
func (OutgoingTransferRejectionInput) GetGraphQLType() string {
	return "SimulateOutgoingSepaCreditTransferRejectionInput"
}

// OutgoingTransferReturnInput is SimulateOutgoingSepaCreditTransferReturnInput
// (reasonCode: a SepaCreditTransferReturnedReasonCodeEnum).
type OutgoingTransferReturnInput TransferReasonInput

// GetGraphQLType names the variable's type in the query text.
func (OutgoingTransferReturnInput) GetGraphQLType() string {
	return "SimulateOutgoingSepaCreditTransferReturnInput"
}

// OutgoingTransferBookingInput is SimulateOutgoingSepaCreditTransferBookingInput.
type OutgoingTransferBookingInput struct {
	TransactionID string `json:"transactionId"`
}

// GetGraphQLType names the variable's type in the query text.
func (OutgoingTransferBookingInput) GetGraphQLType() string {
	return "SimulateOutgoingSepaCreditTransferBookingInput"
}

type incomingTransferReturnMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateIncomingSepaCreditTransferReturnSuccessPayload"`
	} `graphql:"simulateIncomingSepaCreditTransferReturn(input: $input)"`
}

func (m *incomingTransferReturnMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *incomingTransferReturnMutation) txID() string { return m.P.Success.TransactionID }

// SimulateIncomingSepaCreditTransferReturn returns a received transfer to
// its sender and returns the return's transaction id.
func (c *Client) SimulateIncomingSepaCreditTransferReturn(ctx context.Context, in IncomingTransferReturnInput) (string, error) {
	return simulateTx[incomingTransferReturnMutation](ctx, c, OpSimulateIncomingSepaCreditTransferReturn,
		"SimulateIncomingSepaCreditTransferReturnSuccessPayload", in)
}

type incomingTransferRecallMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateIncomingSepaCreditTransferAcceptedRecallSuccessPayload"`
	} `graphql:"simulateIncomingSepaCreditTransferAcceptedRecall(input: $input)"`
}

func (m *incomingTransferRecallMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *incomingTransferRecallMutation) txID() string { return m.P.Success.TransactionID }

// SimulateIncomingSepaCreditTransferAcceptedRecall gives a received transfer back
// after its sender's recall was accepted and returns the recall's
// transaction id.
func (c *Client) SimulateIncomingSepaCreditTransferAcceptedRecall(ctx context.Context, in IncomingTransferRecallInput) (string, error) {
	return simulateTx[incomingTransferRecallMutation](ctx, c, OpSimulateIncomingSepaCreditTransferAcceptedRecall, "SimulateIncomingSepaCreditTransferAcceptedRecallSuccessPayload", in)
}

type outgoingTransferBookingMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaCreditTransferBookingSuccessPayload"`
	} `graphql:"simulateOutgoingSepaCreditTransferBooking(input: $input)"`
}

func (m *outgoingTransferBookingMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *outgoingTransferBookingMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingSepaCreditTransferBooking books an outgoing transfer that
// is Pending and returns its transaction id.
func (c *Client) SimulateOutgoingSepaCreditTransferBooking(ctx context.Context, in OutgoingTransferBookingInput) (string, error) {
	return simulateTx[outgoingTransferBookingMutation](ctx, c, OpSimulateOutgoingSepaCreditTransferBooking, "SimulateOutgoingSepaCreditTransferBookingSuccessPayload", in)
}

type outgoingTransferRejectionMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaCreditTransferRejectionSuccessPayload"`
	} `graphql:"simulateOutgoingSepaCreditTransferRejection(input: $input)"`
}

func (m *outgoingTransferRejectionMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *outgoingTransferRejectionMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingSepaCreditTransferRejection rejects an outgoing transfer that
// is Pending (its transaction becomes Rejected).
func (c *Client) SimulateOutgoingSepaCreditTransferRejection(ctx context.Context, in OutgoingTransferRejectionInput) (string, error) {
	return simulateTx[outgoingTransferRejectionMutation](ctx, c, OpSimulateOutgoingSepaCreditTransferRejection, "SimulateOutgoingSepaCreditTransferRejectionSuccessPayload", in)
}

type outgoingTransferReturnMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaCreditTransferReturnSuccessPayload"`
	} `graphql:"simulateOutgoingSepaCreditTransferReturn(input: $input)"`
}

func (m *outgoingTransferReturnMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.TransactionNotFound)
}
func (m *outgoingTransferReturnMutation) txID() string { return m.P.Success.TransactionID }

// SimulateOutgoingSepaCreditTransferReturn gives back a booked outgoing
// transfer, as the receiving bank returned it, and returns the return's
// transaction id.
func (c *Client) SimulateOutgoingSepaCreditTransferReturn(ctx context.Context, in OutgoingTransferReturnInput) (string, error) {
	return simulateTx[outgoingTransferReturnMutation](ctx, c, OpSimulateOutgoingSepaCreditTransferReturn, "SimulateOutgoingSepaCreditTransferReturnSuccessPayload", in)
}
