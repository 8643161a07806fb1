// Package fragments holds selections that api's query shapes embed: the
// inline fragments (`... on Type { … }`), one struct per concrete schema
// type, and field sets that several operations share.
//
// They are exported for two reasons: encoding/json promotes the fields of an
// embedded exported struct into the embedding one, which is exactly how a
// GraphQL response merges a fragment's fields into its object; and
// safetext.StripFields (and the tests' hostile servers) reach only exported
// fields. The package is internal, so none of this is part of api's API.
//
// Two fragments embedded side by side must not declare the same Go field
// (encoding/json would silently drop both), and GraphQL refuses one response
// name with two different leaf types: a field that several concrete types
// share is therefore aliased per type ("rejectedReason: reason").
package fragments

// Amount is the schema's Amount.
type Amount struct {
	Value    string `graphql:"value"`
	Currency string `graphql:"currency"`
}

// AccountFields is the selection of an account's own fields and balances
// that Account(id) and the account detail share.
type AccountFields struct {
	ID                 string  `graphql:"id"`
	Number             string  `graphql:"number"`
	Name               string  `graphql:"name"`
	IBAN               *string `graphql:"IBAN" json:"IBAN"`
	BIC                string  `graphql:"BIC" json:"BIC"`
	Currency           string  `graphql:"currency"`
	Country            string  `graphql:"country"`
	Language           string  `graphql:"language"`
	PaymentLevel       string  `graphql:"paymentLevel"`
	PaymentAccountType string  `graphql:"paymentAccountType"`
	Balances           *struct {
		Available Amount `graphql:"available"`
		Booked    Amount `graphql:"booked"`
		Pending   Amount `graphql:"pending"`
		Reserved  Amount `graphql:"reserved"`
	} `graphql:"balances"`
	CreatedAt string `graphql:"createdAt"`
	UpdatedAt string `graphql:"updatedAt"`
}

// ---- TransactionStatusInfo implementations ----

// BookedTransactionStatusInfo is the Booked status's own fields.
type BookedTransactionStatusInfo struct {
	BookingDate  string `graphql:"bookingDate"`
	ValueDate    string `graphql:"valueDate"`
	BalanceAfter *struct {
		Amount         *Amount `graphql:"amount"`
		SequenceNumber *int    `graphql:"sequenceNumber"`
	} `graphql:"balanceAfter"`
}

// PendingTransactionStatusInfo is the Pending status's own fields.
type PendingTransactionStatusInfo struct {
	PendingEndDate *string `graphql:"pendingEndDate"`
}

// UpcomingTransactionStatusInfo is the Upcoming status's own fields.
type UpcomingTransactionStatusInfo struct {
	ExecutionDate string `graphql:"executionDate"`
}

// RejectedTransactionStatusInfo is the Rejected status's own fields.
type RejectedTransactionStatusInfo struct {
	RejectedReason string `graphql:"rejectedReason: reason" json:"rejectedReason"`
	HasFallback    *bool  `graphql:"hasFallback"`
}

// CanceledTransactionStatusInfo is the Canceled status's own fields.
type CanceledTransactionStatusInfo struct {
	CanceledDate *string `graphql:"canceledDate"`
}

// DeferredTransactionStatusInfo is the Deferred status's own fields.
type DeferredTransactionStatusInfo struct {
	DeferredEndDate *string `graphql:"deferredEndDate"`
}

// ReleasedTransactionStatusInfo is the Released status's own fields.
type ReleasedTransactionStatusInfo struct {
	ReleaseDate    string `graphql:"releaseDate"`
	ReleasedReason string `graphql:"releasedReason: reason" json:"releasedReason"`
}

// SettledTransactionStatusInfo is the Settled status's own fields.
type SettledTransactionStatusInfo struct {
	SettlementTransactionID string `graphql:"settlementTransactionId" json:"settlementTransactionId"`
	SettledAt               string `graphql:"settledAt"`
}

// ---- Transaction implementations: their counterparties ----

// SEPAParty is a SEPA creditor or debtor (the SEPACreditTransfer… and
// SEPADirectDebit… creditor/debtor interfaces share these fields).
type SEPAParty struct {
	Name       string  `graphql:"name"`
	MaskedIBAN string  `graphql:"maskedIBAN" json:"maskedIBAN"`
	IBAN       *string `graphql:"IBAN" json:"IBAN"`
	BIC        *string `graphql:"BIC" json:"BIC"`
}

// InternalParty is an internal credit transfer's creditor or debtor.
type InternalParty struct {
	Name          string `graphql:"name"`
	AccountNumber string `graphql:"accountNumber"`
}

// SEPACreditTransferTransaction is a SEPA credit transfer's own fields.
type SEPACreditTransferTransaction struct {
	Creditor *SEPAParty `graphql:"creditor"`
	Debtor   *SEPAParty `graphql:"debtor"`
}

// SEPADirectDebitTransaction is a SEPA direct debit's own fields.
type SEPADirectDebitTransaction struct {
	DirectDebitCreditor *SEPAParty `graphql:"directDebitCreditor: creditor" json:"directDebitCreditor"`
	DirectDebitDebtor   *SEPAParty `graphql:"directDebitDebtor: debtor" json:"directDebitDebtor"`
}

// InternalCreditTransfer is an internal credit transfer's own fields.
type InternalCreditTransfer struct {
	InternalCreditor *InternalParty `graphql:"internalCreditor: creditor" json:"internalCreditor"`
	InternalDebtor   *InternalParty `graphql:"internalDebtor: debtor" json:"internalDebtor"`
}

// FeeTransaction is a fee's own fields.
type FeeTransaction struct {
	FeesType string `graphql:"feesType"`
}

// ---- AccountMembershipStatusInfo implementations ----

// RestrictedTo is the schema's RestrictedTo: who may bind a membership.
type RestrictedTo struct {
	FirstName   string  `graphql:"firstName"`
	LastName    string  `graphql:"lastName"`
	BirthDate   *string `graphql:"birthDate"`
	PhoneNumber *string `graphql:"phoneNumber"`
}

// Consent is the part of the schema's Consent a pending status shows.
type Consent struct {
	ID         string `graphql:"id"`
	Status     string `graphql:"status"`
	ConsentURL string `graphql:"consentUrl" json:"consentUrl"`
}

// AccountMembershipBindingUserErrorStatusInfo says which facts of the
// signed-in user did not match the invitation.
type AccountMembershipBindingUserErrorStatusInfo struct {
	FirstNameMatchError     bool          `graphql:"firstNameMatchError"`
	LastNameMatchError      bool          `graphql:"lastNameMatchError"`
	BirthDateMatchError     bool          `graphql:"birthDateMatchError"`
	PhoneNumberMatchError   bool          `graphql:"phoneNumberMatchError"`
	EmailVerifiedMatchError bool          `graphql:"emailVerifiedMatchError"`
	IDVerifiedMatchError    bool          `graphql:"idVerifiedMatchError" json:"idVerifiedMatchError"`
	RestrictedTo            *RestrictedTo `graphql:"restrictedTo"`
}

// AccountMembershipConsentPendingStatusInfo is the ConsentPending status's
// own fields.
type AccountMembershipConsentPendingStatusInfo struct {
	Consent             *Consent      `graphql:"consent"`
	ConsentRestrictedTo *RestrictedTo `graphql:"consentRestrictedTo: restrictedTo" json:"consentRestrictedTo"`
}

// AccountMembershipInvitationSentStatusInfo is the InvitationSent status's
// own fields.
type AccountMembershipInvitationSentStatusInfo struct {
	InvitationRestrictedTo *RestrictedTo `graphql:"invitationRestrictedTo: restrictedTo" json:"invitationRestrictedTo"`
}

// AccountMembershipDisabledStatusInfo is the Disabled status's own fields.
type AccountMembershipDisabledStatusInfo struct {
	DisabledReason string `graphql:"disabledReason: reason" json:"disabledReason"`
}

// AccountMembershipSuspendedStatusInfo is the Suspended status's own fields.
type AccountMembershipSuspendedStatusInfo struct {
	SuspendedReason string `graphql:"suspendedReason: reason" json:"suspendedReason"`
}

// ---- CardStatusInfo implementations ----

// CardCanceledStatusInfo is the Canceled status's own fields.
type CardCanceledStatusInfo struct {
	CanceledReason string `graphql:"canceledReason: reason" json:"canceledReason"`
}

// CardCancelingStatusInfo is the Canceling status's own fields.
type CardCancelingStatusInfo struct {
	CancelingReason string `graphql:"cancelingReason: reason" json:"cancelingReason"`
}

// CardConsentPendingStatusInfo is the ConsentPending status's own fields.
type CardConsentPendingStatusInfo struct {
	Consent *Consent `graphql:"consent"`
}

// ---- Account, holder and statement statuses ----

// SuspendAccountReason is the SuspendAccountStatusReason union's member.
type SuspendAccountReason struct {
	Type    string  `graphql:"type"`
	Message *string `graphql:"message"`
}

// CloseAccountReason is the CloseAccountStatusReason union's member.
type CloseAccountReason struct {
	Type    string  `graphql:"type"`
	Message *string `graphql:"message"`
}

// SuspendReason is the selection of a SuspendAccountStatusReason.
type SuspendReason struct {
	SuspendAccountReason `graphql:"... on SuspendAccountReason"`
}

// CloseReason is the selection of a CloseAccountStatusReason.
type CloseReason struct {
	CloseAccountReason `graphql:"... on CloseAccountReason"`
}

// AccountSuspendedStatus is the Suspended account status's own fields.
type AccountSuspendedStatus struct {
	SuspendedReason *SuspendReason `graphql:"suspendedReason: reasonInfo" json:"suspendedReason"`
}

// AccountClosingStatus is the Closing account status's own fields.
type AccountClosingStatus struct {
	ClosingReason *CloseReason `graphql:"closingReason: reasonInfo" json:"closingReason"`
	ClosingAt     string       `graphql:"closingAt"`
}

// AccountClosedStatus is the Closed account status's own fields.
type AccountClosedStatus struct {
	ClosedReason *CloseReason `graphql:"closedReason: reasonInfo" json:"closedReason"`
	ClosedAt     string       `graphql:"closedAt"`
}

// AccountHolderCompanyInfo is a company holder's own fields.
type AccountHolderCompanyInfo struct {
	RegistrationNumber *string `graphql:"registrationNumber"`
	VatNumber          *string `graphql:"vatNumber"`
	TradeName          *string `graphql:"tradeName"`
}

// AccountHolderCanceledStatusInfo is the Canceled holder status's own fields.
type AccountHolderCanceledStatusInfo struct {
	CanceledReason string `graphql:"canceledReason: reason" json:"canceledReason"`
}

// AccountHolderSuspendedStatusInfo is the Suspended holder status's own
// fields.
type AccountHolderSuspendedStatusInfo struct {
	SuspendedReason string `graphql:"suspendedReason: reason" json:"suspendedReason"`
}

// GeneratedStatusInfo is a generated statement's own fields.
type GeneratedStatusInfo struct {
	URL string `graphql:"url" json:"url"`
}

// VoidedStatusInfo is a voided statement's own fields.
type VoidedStatusInfo struct {
	VoidedURL string `graphql:"voidedUrl: url" json:"voidedUrl"`
}

// WebhookSubscriptionFields is the selection of a webhook subscription
// that every operation reading one shares; only the ones that need the
// secret add it.
type WebhookSubscriptionFields struct {
	ID         string   `graphql:"id"`
	Label      string   `graphql:"label"`
	Endpoint   string   `graphql:"endpoint"`
	EventTypes []string `graphql:"eventTypes"`
	StatusInfo struct {
		Status                                string `graphql:"status"`
		WebhookSubscriptionEnabledStatusInfo  `graphql:"... on WebhookSubscriptionEnabledStatusInfo"`
		WebhookSubscriptionDisabledStatusInfo `graphql:"... on WebhookSubscriptionDisabledStatusInfo"`
		WebhookSubscriptionBrokenStatusInfo   `graphql:"... on WebhookSubscriptionBrokenStatusInfo"`
	} `graphql:"statusInfo"`
	CreatedAt string `graphql:"createdAt"`
	UpdatedAt string `graphql:"updatedAt"`
}

// ---- WebhookSubscriptionStatusInfo implementations ----

// WebhookSubscriptionEnabledStatusInfo is the Enabled status's own fields.
type WebhookSubscriptionEnabledStatusInfo struct {
	EnabledAt string `graphql:"enabledAt"`
}

// WebhookSubscriptionDisabledStatusInfo is the Disabled status's own fields.
type WebhookSubscriptionDisabledStatusInfo struct {
	DisabledAt string `graphql:"disabledAt"`
}

// WebhookSubscriptionBrokenStatusInfo is the Broken status's own fields.
type WebhookSubscriptionBrokenStatusInfo struct {
	BrokenAt string `graphql:"brokenAt"`
}
