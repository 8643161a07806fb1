package api

import "context"

// The Testing API's SEPA credit transfer simulations: an incoming transfer
// received, then returned or recalled; an outgoing one
// (initiateCreditTransfers, payments.go) booked, rejected or returned.
// Each after the reception names the transaction it acts on; each returns
// the transaction it made or changed.

// IncomingSepaCreditTransferInput is the Testing API's input of
// simulateIncomingSepaCreditTransferReception, by the schema's names (a
// variable type). Optional fields are omitted when empty.
type IncomingSepaCreditTransferInput struct {
	Amount       Amount `json:"amount"`
	CreditorIBAN string `json:"creditorIban"`
	CreditorName string `json:"creditorName"`
	DebtorIBAN   string `json:"debtorIban"`
	DebtorName   string `json:"debtorName"`
	EndToEndID   string `json:"endToEndId,omitempty"`
	Label        string `json:"label,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (IncomingSepaCreditTransferInput) GetGraphQLType() string {
	return "IncomingSepaCreditTransferInput"
}

type incomingTransferMutation struct {
	Simulate struct {
		Typename  string      `graphql:"__typename"`
		Success   txIDQL      `graphql:"... on SimulateIncomingSepaCreditTransferReceptionSuccessPayload"`
		Forbidden rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateIncomingSepaCreditTransferReception(input: $input)"`
}

// SimulateIncomingSepaCreditTransferReception books an incoming SEPA
// credit transfer through the Sandbox Testing API and returns the new
// transaction's id.
var SimulateIncomingSepaCreditTransferReception = declareSimulation[IncomingSepaCreditTransferInput](
	func(_ string, m *incomingTransferMutation) (string, error) {
		return m.Simulate.Success.TransactionID, nil
	}, txOutputs,
	words{action: "simulate a transfer", failed: "the Testing API did not book the transfer"})

// SimulateIncomingTransfer books an incoming SEPA credit transfer through the
// Sandbox Testing API and returns the new transaction's id (the app's
// names for SimulateIncomingSepaCreditTransferReception). It is the one
// simulation every surface offers wherever the client is (the UI's API
// interface names it), so it stays a method of the client.
func (c *Client) SimulateIncomingTransfer(ctx context.Context, in IncomingTransfer) (string, error) {
	return SimulateIncomingSepaCreditTransferReception.Run(ctx, c.Testing(), IncomingSepaCreditTransferInput{
		Amount:       in.Amount,
		CreditorIBAN: in.CreditorIBAN,
		CreditorName: in.CreditorName,
		DebtorIBAN:   in.DebtorIBAN,
		DebtorName:   in.DebtorName,
		EndToEndID:   in.Reference,
		Label:        in.Label,
	})
}

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

// SimulateIncomingSepaCreditTransferReturn returns a received transfer to
// its sender and returns the return's transaction id.
var SimulateIncomingSepaCreditTransferReturn = txSimulation[IncomingTransferReturnInput, incomingTransferReturnMutation]()

type incomingTransferRecallMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateIncomingSepaCreditTransferAcceptedRecallSuccessPayload"`
	} `graphql:"simulateIncomingSepaCreditTransferAcceptedRecall(input: $input)"`
}

// SimulateIncomingSepaCreditTransferAcceptedRecall gives a received transfer back
// after its sender's recall was accepted and returns the recall's
// transaction id.
var SimulateIncomingSepaCreditTransferAcceptedRecall = txSimulation[IncomingTransferRecallInput, incomingTransferRecallMutation]()

type outgoingTransferBookingMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaCreditTransferBookingSuccessPayload"`
	} `graphql:"simulateOutgoingSepaCreditTransferBooking(input: $input)"`
}

// SimulateOutgoingSepaCreditTransferBooking books an outgoing transfer that
// is Pending and returns its transaction id.
var SimulateOutgoingSepaCreditTransferBooking = txSimulation[OutgoingTransferBookingInput, outgoingTransferBookingMutation]()

type outgoingTransferRejectionMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaCreditTransferRejectionSuccessPayload"`
	} `graphql:"simulateOutgoingSepaCreditTransferRejection(input: $input)"`
}

// SimulateOutgoingSepaCreditTransferRejection rejects an outgoing transfer that
// is Pending (its transaction becomes Rejected).
var SimulateOutgoingSepaCreditTransferRejection = txSimulation[OutgoingTransferRejectionInput, outgoingTransferRejectionMutation]()

type outgoingTransferReturnMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaCreditTransferReturnSuccessPayload"`
	} `graphql:"simulateOutgoingSepaCreditTransferReturn(input: $input)"`
}

// SimulateOutgoingSepaCreditTransferReturn gives back a booked outgoing
// transfer, as the receiving bank returned it, and returns the return's
// transaction id.
var SimulateOutgoingSepaCreditTransferReturn = txSimulation[OutgoingTransferReturnInput, outgoingTransferReturnMutation]()
