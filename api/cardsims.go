package api

// The Testing API's card payment simulations: an authorization, then its
// debit or release; a debit with no authorization; a merchant's reversal
// or refund; a reservation released.

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

// SimulateOutgoingCardAuthorization authorizes a card payment: a Pending
// transaction, or a Rejected one when in.Outcome declines it (a declined
// authorization is the simulation's success too).
var SimulateOutgoingCardAuthorization = simulation[CardAuthorizationInput](
	func(_ string, m *cardAuthorizationMutation) (*CardAuthorization, error) {
		if m.P.Typename == "SimulateOutgoingCardAuthorizationRejectPayload" {
			return &CardAuthorization{TransactionID: m.P.Reject.TransactionID, RejectedReason: m.P.Reject.RejectedReason}, nil
		}
		return &CardAuthorization{TransactionID: m.P.Success.TransactionID}, nil
	},
	named(func(a *CardAuthorization) []string { return []string{a.TransactionID, a.RejectedReason} }, "transactionId", "rejectedReason"))

type cardDebitMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingCardDebitSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
		CardNotFound        rejectionQL `graphql:"... on CardNotFoundRejection"`
	} `graphql:"simulateOutgoingCardDebit(input: $input)"`
}

// SimulateOutgoingCardDebit debits an authorized card payment and returns
// the debit's transaction id.
var SimulateOutgoingCardDebit = txSimulation[CardDebitInput, cardDebitMutation]()

type cardDebitWithoutAuthorizationMutation struct {
	P struct {
		Typename     string      `graphql:"__typename"`
		Success      txIDQL      `graphql:"... on SimulateOutgoingCardDebitWithoutAuthorizationSuccessPayload"`
		CardNotFound rejectionQL `graphql:"... on CardNotFoundRejection"`
		Forbidden    rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateOutgoingCardDebitWithoutAuthorization(input: $input)"`
}

// SimulateOutgoingCardDebitWithoutAuthorization books a card debit that no
// authorization preceded and returns its transaction id.
var SimulateOutgoingCardDebitWithoutAuthorization = txSimulation[CardDebitWithoutAuthorizationInput, cardDebitWithoutAuthorizationMutation]()

type cardAuthorizationReleaseMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingCardAuthorizationReleaseSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
	} `graphql:"simulateOutgoingCardAuthorizationRelease(input: $input)"`
}

// SimulateOutgoingCardAuthorizationRelease releases an authorization
// without a debit (its transaction becomes Released).
var SimulateOutgoingCardAuthorizationRelease = txSimulation[CardAuthorizationReleaseInput, cardAuthorizationReleaseMutation]()

type cardDebitReverseMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on SimulateOutgoingCardDebitReverseSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
	} `graphql:"simulateOutgoingCardDebitReverse(input: $input)"`
}

// SimulateOutgoingCardDebitReverse books the merchant's reversal of a
// booked card debit and returns the reversal's transaction id.
var SimulateOutgoingCardDebitReverse = txSimulation[CardDebitReverseInput, cardDebitReverseMutation]()

type cardCreditMutation struct {
	P struct {
		Typename     string      `graphql:"__typename"`
		Success      txIDQL      `graphql:"... on SimulateOutgoingCardCreditSuccessPayload"`
		CardNotFound rejectionQL `graphql:"... on CardNotFoundRejection"`
		Forbidden    rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateOutgoingCardCredit(input: $input)"`
}

// SimulateOutgoingCardCredit books a merchant's refund to a card and
// returns its transaction id.
var SimulateOutgoingCardCredit = txSimulation[CardCreditInput, cardCreditMutation]()

type releaseReservedBalanceMutation struct {
	P struct {
		Typename            string      `graphql:"__typename"`
		Success             txIDQL      `graphql:"... on ReleaseReservedBalanceSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		TransactionNotFound rejectionQL `graphql:"... on TransactionNotFoundRejection"`
	} `graphql:"simulateReleaseReservedBalance(input: $input)"`
}

// SimulateReleaseReservedBalance releases the balance an authorization
// reserved.
var SimulateReleaseReservedBalance = txSimulation[ReleaseReservedBalanceInput, releaseReservedBalanceMutation]()
