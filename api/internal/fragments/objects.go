package fragments

// The fragments of the account's other objects: virtual IBANs, standing
// orders, trusted beneficiaries, account holders, onboardings, capital
// deposits and merchants. A query's answer is decoded by encoding/json,
// which fills an inline fragment's fields only through an embedded
// struct, and drops a JSON name two of them at one level declare: those
// are aliased per type.

// ---- StandingOrderStatusInfo implementations ----

// StandingOrderCanceledStatusInfo is the Canceled status's own fields.
type StandingOrderCanceledStatusInfo struct {
	CanceledAt string `graphql:"canceledAt"`
}

// StandingOrderConsentPendingStatusInfo is the ConsentPending status's
// own fields.
type StandingOrderConsentPendingStatusInfo struct {
	Consent *Consent `graphql:"consent"`
}

// ---- TrustedBeneficiary ----

// TrustedBeneficiaryEnabledStatusInfo is the Enabled status's own fields.
type TrustedBeneficiaryEnabledStatusInfo struct {
	EnabledAt string `graphql:"enabledAt"`
}

// TrustedBeneficiaryCanceledStatusInfo is the Canceled status's own
// fields.
type TrustedBeneficiaryCanceledStatusInfo struct {
	CanceledAt string `graphql:"canceledAt"`
}

// TrustedBeneficiaryConsentPendingStatusInfo is the ConsentPending
// status's own fields.
type TrustedBeneficiaryConsentPendingStatusInfo struct {
	Consent *Consent `graphql:"consent"`
}

// Address is the schema's Address (and AddressInfo: the same fields).
type Address struct {
	AddressLine1 *string `graphql:"addressLine1"`
	AddressLine2 *string `graphql:"addressLine2"`
	City         *string `graphql:"city"`
	PostalCode   *string `graphql:"postalCode"`
	State        *string `graphql:"state"`
	Country      *string `graphql:"country"`
}

// TrustedSepaBeneficiary is a SEPA beneficiary's own fields.
type TrustedSepaBeneficiary struct {
	IBAN    string   `graphql:"iban" json:"iban"`
	Address *Address `graphql:"address"`
}

// TrustedInternationalBeneficiary is an international beneficiary's own
// fields.
type TrustedInternationalBeneficiary struct {
	Currency string `graphql:"currency"`
	Route    string `graphql:"route"`
}

// VerifyBeneficiaryCloseMatch is a close match's own field: the name the
// verification service knows.
type VerifyBeneficiaryCloseMatch struct {
	NameSuggestion string `graphql:"nameSuggestion"`
}

// VerifyBeneficiaryResult is the result of a payee verification.
type VerifyBeneficiaryResult struct {
	Status                      string `graphql:"status"`
	VerifyBeneficiaryCloseMatch `graphql:"... on VerifyBeneficiaryCloseMatch"`
}

// SEPACreditTransferVerification is the payee verification a SEPA credit
// transfer carries.
type SEPACreditTransferVerification struct {
	BeneficiaryVerificationResult *VerifyBeneficiaryResult `graphql:"beneficiaryVerificationResult"`
}

// ---- AccountHolderVerificationStatusInfo implementations ----

// AccountHolderPendingVerificationStatusInfo is the Pending status's own
// fields.
type AccountHolderPendingVerificationStatusInfo struct {
	PendingAt string `graphql:"pendingAt"`
}

// AccountHolderRefusedVerificationStatusInfo is the Refused status's own
// fields.
type AccountHolderRefusedVerificationStatusInfo struct {
	RefusedAt     string `graphql:"refusedAt"`
	RefusedReason string `graphql:"refusedReason: reason" json:"refusedReason"`
}

// AccountHolderVerifiedVerificationStatusInfo is the Verified status's own
// fields.
type AccountHolderVerifiedVerificationStatusInfo struct {
	VerifiedAt string `graphql:"verifiedAt"`
}

// VerificationRequirement is what a holder waiting for information must
// still provide.
type VerificationRequirement struct {
	Type string `graphql:"type"`
}

// AccountHolderWaitingForInformationVerificationStatusInfo is the
// WaitingForInformation status's own fields.
type AccountHolderWaitingForInformationVerificationStatusInfo struct {
	VerificationRequirements []VerificationRequirement `graphql:"verificationRequirements"`
	WaitingForInformationAt  string                    `graphql:"waitingForInformationAt"`
}

// ---- AccountHolderOnboarding ----

// ValidationError is one field of an Invalid onboarding at fault.
type ValidationError struct {
	Field   string   `graphql:"field"`
	Errors  []string `graphql:"errors"`
	Details *string  `graphql:"details"`
}

// OnboardingInvalidStatusInfo is the Invalid status's own fields.
type OnboardingInvalidStatusInfo struct {
	Errors []ValidationError `graphql:"errors"`
}

// SupportingDocumentPurpose names what a document is for.
type SupportingDocumentPurpose struct {
	Name string `graphql:"name"`
}

// SupportingDocument is one document of a collection.
type SupportingDocument struct {
	Purpose    SupportingDocumentPurpose `graphql:"purpose"`
	StatusInfo struct {
		Status string `graphql:"status"`
	} `graphql:"statusInfo"`
}

// SupportingDocumentCollection is an onboarding's documents: what it
// requires and what it holds.
type SupportingDocumentCollection struct {
	ID         string `graphql:"id"`
	StatusInfo struct {
		Status string `graphql:"status"`
	} `graphql:"statusInfo"`
	RequiredSupportingDocumentPurposes []SupportingDocumentPurpose `graphql:"requiredSupportingDocumentPurposes"`
	SupportingDocuments                []SupportingDocument        `graphql:"supportingDocuments"`
}

// OnboardingAccountRef is the account an onboarding opened.
type OnboardingAccountRef struct {
	ID   string `graphql:"id"`
	Name string `graphql:"name"`
}

// AccountHolderOnboardingBase is what every onboarding has (the
// interface both members of the AccountHolderOnboarding union implement).
type AccountHolderOnboardingBase struct {
	ID         string `graphql:"id"`
	StatusInfo struct {
		Status                      string `graphql:"status"`
		OnboardingInvalidStatusInfo `graphql:"... on OnboardingInvalidStatusInfo"`
	} `graphql:"statusInfo"`
	OnboardingURL                *string                       `graphql:"onboardingUrl" json:"onboardingUrl"`
	Account                      *OnboardingAccountRef         `graphql:"account"`
	SupportingDocumentCollection *SupportingDocumentCollection `graphql:"supportingDocumentCollection"`
	CreatedAt                    string                        `graphql:"createdAt"`
	UpdatedAt                    string                        `graphql:"updatedAt"`
}

// OnboardingAccountInfo is the account an onboarding will open.
type OnboardingAccountInfo struct {
	Name *string `graphql:"name"`
}

// OnboardingAccountAdmin is who will administer that account.
type OnboardingAccountAdmin struct {
	Email     *string `graphql:"email"`
	FirstName *string `graphql:"firstName"`
	LastName  *string `graphql:"lastName"`
}

// IndividualAccountHolderOnboarding is an individual's onboarding's own
// fields, aliased apart from a company's (their types differ).
type IndividualAccountHolderOnboarding struct {
	IndividualAccountInfo  *OnboardingAccountInfo  `graphql:"individualAccountInfo: accountInfo" json:"individualAccountInfo"`
	IndividualAccountAdmin *OnboardingAccountAdmin `graphql:"individualAccountAdmin: accountAdmin" json:"individualAccountAdmin"`
}

// CompanyAccountHolderOnboarding is a company's onboarding's own fields.
type CompanyAccountHolderOnboarding struct {
	CompanyAccountInfo  *OnboardingAccountInfo  `graphql:"companyAccountInfo: accountInfo" json:"companyAccountInfo"`
	CompanyAccountAdmin *OnboardingAccountAdmin `graphql:"companyAccountAdmin: accountAdmin" json:"companyAccountAdmin"`
	Company             *struct {
		Name *string `graphql:"name"`
	} `graphql:"company"`
}

// ---- CapitalDepositCase ----

// CapitalDepositCaseCanceledStatusInfo is a canceled case's own fields.
type CapitalDepositCaseCanceledStatusInfo struct {
	ReasonType *string `graphql:"reasonType"`
}

// CapitalDepositDocumentRefusedStatusInfo is a refused document's own
// fields.
type CapitalDepositDocumentRefusedStatusInfo struct {
	ReasonCode string  `graphql:"reasonCode"`
	Reason     *string `graphql:"reason"`
}

// IndividualShareholder is a shareholder who is a person.
type IndividualShareholder struct {
	FirstName string `graphql:"firstName"`
	LastName  string `graphql:"lastName"`
}

// CompanyShareholder is a shareholder that is a company.
type CompanyShareholder struct {
	Name string `graphql:"name"`
}

// ---- MerchantPaymentLinkStatusInfo implementations ----

// ActiveMerchantPaymentLinkStatusInfo is an active link's own field.
type ActiveMerchantPaymentLinkStatusInfo struct {
	ExpiresAt string `graphql:"expiresAt"`
}

// CompletedMerchantPaymentLinkStatusInfo is a paid link's own field.
type CompletedMerchantPaymentLinkStatusInfo struct {
	CompletedAt string `graphql:"completedAt"`
}

// ExpiredMerchantPaymentLinkStatusInfo is an expired link's own field.
type ExpiredMerchantPaymentLinkStatusInfo struct {
	ExpiredAt string `graphql:"expiredAt"`
}
