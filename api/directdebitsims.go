package api

// The Testing API's simulations of SEPA direct debits the account pays: a
// direct debit received (Upcoming until its execution date, else debited
// at once), then rejected by the debtor, canceled by the creditor or
// returned; and the booking of a direct debit the account collects.

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

// SimulateOutgoingSepaDirectDebitReception has a creditor collect a direct
// debit from the account of in.DebtorIBAN and returns its transaction id.
var SimulateOutgoingSepaDirectDebitReception = txSimulation[DirectDebitReceptionInput, directDebitReceptionMutation]()

type directDebitRejectMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaDirectDebitRejectSuccessPayload"`
	} `graphql:"simulateOutgoingSepaDirectDebitReject(input: $input)"`
}

// SimulateOutgoingSepaDirectDebitReject has the debtor reject an Upcoming
// direct debit (its transaction becomes Rejected).
var SimulateOutgoingSepaDirectDebitReject = txSimulation[DirectDebitRejectInput, directDebitRejectMutation]()

type directDebitReturnMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaDirectDebitReturnSuccessPayload"`
	} `graphql:"simulateOutgoingSepaDirectDebitReturn(input: $input)"`
}

// SimulateOutgoingSepaDirectDebitReturn gives back a booked direct debit
// and returns the return's transaction id.
var SimulateOutgoingSepaDirectDebitReturn = txSimulation[DirectDebitReturnInput, directDebitReturnMutation]()

type directDebitCancelMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingSepaDirectDebitCancelSuccessPayload"`
	} `graphql:"simulateOutgoingSepaDirectDebitCancel(input: $input)"`
}

// SimulateOutgoingSepaDirectDebitCancel has the creditor cancel an
// Upcoming direct debit (its transaction becomes Canceled).
var SimulateOutgoingSepaDirectDebitCancel = txSimulation[DirectDebitCancelInput, directDebitCancelMutation]()

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

// SimulateIncomingSepaDirectDebitBooking books a Pending direct debit the
// account collects (SepaDirectDebitIn): the funds arrive.
var SimulateIncomingSepaDirectDebitBooking = txSimulation[IncomingDirectDebitBookingInput, incomingDirectDebitBookingMutation]()
