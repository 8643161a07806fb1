package api

import "context"

// The Testing API's SEPA credit transfer simulations after the reception
// (operations.go): an incoming transfer returned or recalled. Each names
// the transaction it acts on and returns the transaction it made.

// Operation names of the SEPA credit transfer simulations.
const (
	OpSimulateIncomingSepaCreditTransferReturn         = "SimulateIncomingSepaCreditTransferReturn"
	OpSimulateIncomingSepaCreditTransferAcceptedRecall = "SimulateIncomingSepaCreditTransferAcceptedRecall"
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
