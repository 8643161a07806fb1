package emulator

// enumSDL holds the enums and input types of partnerSDL. They are whole:
// a client may send or receive any of their values.
const enumSDL = `
# Enums and inputs, value for value and field for field the platform's

input TransactionsFiltersInput {
  status: [TransactionStatus!]
  paymentProduct: [PaymentProduct!]
  isAfterUpdatedAt: DateTime
  isBeforeUpdatedAt: DateTime
  search: String
  type: [TransactionTypeEnum!]
  includeRejectedWithFallback: Boolean
  amount: AmountValue
  isAboveAmount: AmountValue
  isBelowAmount: AmountValue
  isAfterExecutionDate: DateTime
  isBeforeExecutionDate: DateTime
}
input TransactionsOrderByInput {
  field: TransactionsOrderByField
  direction: OrderByDirection
}
input AccountFilterInput {
  status: [AccountStatus!]
  paymentLevels: [PaymentLevel!]
  mainIBAN: String
  search: String
}
input AccountOrderByInput {
  field: AccountOrderByFieldInput
  direction: OrderByDirection
}
input AccountMembershipsFilterInput {
  canManageCards: Boolean
  canInitiatePayments: Boolean
  canManageAccountMembership: Boolean
  canManageBeneficiaries: Boolean
  canViewAccount: Boolean
  status: [AccountMembershipStatus!]
  email: String
  firstName: String
  lastName: String
  search: String
  accountId: ID
}
input MembershipsFilterInput {
  canManageCards: Boolean
  canInitiatePayments: Boolean
  canManageAccountMembership: Boolean
  canManageBeneficiaries: Boolean
  canViewAccount: Boolean
  status: [AccountMembershipStatus!]
  email: String
  firstName: String
  lastName: String
  search: String
  userId: String
}
input AccountMembershipOrderByInput {
  field: AccountMembershipOrderByFieldInput
  direction: OrderByDirection
}
input CardOrderByInput {
  field: CardOrderByFieldInput
  direction: OrderByDirection
}
input CardFiltersInput {
  status: CardStatus
  statuses: [CardStatus!]
  type: CardType
  types: [CardType!]
  search: String
  accountId: String
  userId: String
}
input StatementFiltersInput {
  isAfterUpdatedAt: DateTime
  isBeforeUpdatedAt: DateTime
  period: StatementPeriod
}
input StatementsOrderByInput {
  field: StatementsOrderByField
  direction: OrderByDirection
}
enum CashAccountType {
  Current CashPayment Charges CashIncome Commission ClearingParticipantSettlementAccount
  LimitedLiquiditySavingsAccount Loan MarginalLending MoneyMarket NonResidentExternal Overdraft
  OverNightDeposit OtherAccount Settlement Salary Savings Tax TransactingAccount CashTrading
}
enum CloseAccountReasonType {
  BusinessInactiveOrNotRegistered
  CapitalDepositWithdrawn
  CapitalDepositCompleted
  CapitalDepositRefusedByNotary
  CapitalDepositReason
  ComplianceReason
  DeathClosure
  DeniedCountryResidency
  DormantAccount @deprecated(reason: "use ` + "`" + `Inactivity` + "`" + ` instead")
  DuplicateOnboarding
  ForbiddenActivity
  Inactivity
  KYCIssue
  Other
  PartnerChurn
  PartnerReason
  CompanyRegistrationCountryNotSupported
  RefusedIbanCountry
  RegulatoryRequirement
  ReKYCNoReply
  RemediationPlan
  RequestedByHolder
  RequestedByPartner
  TCViolation
  UnsupportedLegalForm
  CapitalDepositCanceled @deprecated(reason: "Use CapitalDepositWithdrawn")
}
enum SuspendAccountReasonType { SuspendRequested }
enum AccountHolderStatus { Enabled Suspended Canceled }
enum ConsentStatus {
  Accepted
  CustomerRefused
  OperationCommitting
  CredentialRefused @deprecated(reason: "this status has never been used and will be removed in the following months")
  Created
  Started
  Expired
  Failed
  Canceled
}
enum ConsentPurpose {
  RequestCreditLimit AcceptPartnershipConditions AddAccountMembership AddAccountMemberships AddBeneficiary
  AddCard AddCards AddDigitalCard AddDigitalCards ActivatePhysicalCard ActivateDigitalCard CloseAccount
  InitPayment PrintPhysicalCard ResumeAccountMembership ResumePhysicalCard ScheduleStandingOrder
  UpdateAccountMembership UpdateCard UpdateServerConsentProjectSettings ViewCardNumbers ViewPhysicalCardPin
  EnableMandate AddDirectDebitPaymentMandate InitiateFundingRequest InitiateInstantFundingRequest
  InitiateInternationalCreditTransfer ConsentToMultipleConsents ReturnTransactionForDirectDebit
  ReturnTransactionForInternationalCreditTransfer ThreeDsPayment
  UpdateAccountSettings @deprecated(reason: "use OptOutBulkVerificationOfPayee")
  OptOutBulkVerificationOfPayee
}
enum AccountMembershipStatus { ConsentPending InvitationSent BindingUserError Enabled Suspended Disabled }
enum IdentificationLevel { Expert QES PVID }
enum SpendingLimitType { AccountHolder Partner }
enum SpendingLimitPeriod { Monthly Weekly Daily Always }
enum CardType { Virtual VirtualAndPhysical SingleUseVirtual }
enum CardStatus { ConsentPending Processing Enabled Canceled Canceling }
enum CardOrderByFieldInput { id createdAt updatedAt }
enum AccountStatementStatus { Failed Pending Voided Generated }
enum StatementStatus { Available Failed Pending }
enum StatementPeriod { Monthly Custom }
enum AccountStatementFormat { PDF CSV }
enum StatementsOrderByField { openingDate closingDate }
enum AuthorizationType { Classic PreAuthorization DataRequest }
enum ReleasedReason { Captured Expired AdviceReceived MerchantReleased ManuallyReleased Other }
enum PaymentProduct {
  SEPACreditTransfer SEPADirectDebit Card Fees InternalDirectDebit Check InternationalCreditTransfer
  InPersonCard OnlineCard
}
enum TransactionSide { Debit Credit }
enum TransactionTypeEnum {
  InternalCreditTransferOut InternalCreditTransferOutReturn InternalCreditTransferOutRecall
  InternalCreditTransferIn InternalCreditTransferInReturn InternalCreditTransferInRecall
  SepaCreditTransferOut SepaInstantCreditTransferOut SepaInstantCreditTransferIn SepaCreditTransferOutReturn
  SepaInstantCreditTransferOutRecall SepaInstantCreditTransferInRecall SepaCreditTransferOutRecall
  SepaCreditTransferIn SepaCreditTransferInReturn SepaCreditTransferInRecall FeesOut FeesIn SepaDirectDebitIn
  SepaDirectDebitInReturn SepaDirectDebitInReversal SepaDirectDebitOut SepaDirectDebitOutReturn
  SepaDirectDebitOutReversal CardOutAuthorization CardOutDebit CardOutDebitReversal CardOutCredit
  CardOutCreditReversal InternalDirectDebitIn InternalDirectDebitInReturn InternalDirectDebitOut
  InternalDirectDebitOutReturn CheckIn CheckInReturn InternationalCreditTransferIn
  InternationalCreditTransferOut InternationalCreditTransferInReturn InternationalCreditTransferOutReturn
  CardInCredit CardInChargeback CardInChargebackReversal
}
enum AccountMembershipOrderByFieldInput { createdAt updatedAt }
enum UserStatus { Active Blocked Deactivated }
enum PreferredNotificationChannel { App Sms }
enum AccountCountry { FRA DEU ESP NLD ITA BEL }
enum AccountLanguage { de en fr it nl es pt fi }
enum PaymentLevel { Limited Unlimited }
enum PaymentAccountType { EMoney PaymentService }
enum AccountStatus { Opened Suspended Closing Closed }
enum VerificationStatus { NotStarted WaitingForInformation Pending Verified Refused }
enum AccountHolderType { Individual Company }
enum OrderByDirection { Asc Desc }
enum AccountOrderByFieldInput { createdAt updatedAt }
enum TransactionsOrderByField { id createdAt updatedAt executionDate }
enum RejectedReasonCode {
  AccountClosed
  CardNotActivated
  CardExpired
  CardPermanentlyBlocked
  CardSuspended
  CardOutOfOrder
  CardUnknown
  CanceledByCardHolder
  DigitalCardDeactivated
  DigitalCardEnrollmentInvalid
  DigitalCardRefusal
  DigitalCardSuspended
  DigitalCardTokenInvalid
  DoNotHonor
  InvalidExpirationDate
  InvalidPinAttemptsExceeded
  InPersonTransactionsNotAuthorized
  MagstripeNotSupported
  MerchantNotFound
  MerchantShouldResubmitAuthorization
  PinInvalid
  PinRequired
  PinRequiredForFurtherTransaction
  PeriodTransactionNumberLimitExceeded
  SwanTechnicalErrorOccurred
  TransactionAmountLimitExceeded
  TransactionTypeNotAllowed
  ThreeDsError
  TransactionCurrencyIncorrect
  AccountHolderDeceased
  AccountMembershipRefused
  AccountSuspended
  AccountUnknown
  AmountMismatch
  BankRefused
  BeneficiaryBankNotReachable
  BeneficiaryMismatch
  BeneficiaryMissingOrIncorrect
  CheckReceivedLate
  CheckNotReceived
  CreditorBankOffline
  CreditorBankTechnicalErrorOccurred
  CreditorBankTimeout
  DateMissing
  DateInvalid
  DebtorAccountClosed
  DebtorAccountConsumer
  DebtorAccountUnknown
  DebtorBankOffline
  DebtorBankTechnicalErrorOccurred
  DebtorBankTimeout
  DebtorDeceased
  DebtorNameMissing
  EndorsementMissing
  FraudSuspected
  IbanInvalid
  IbanSuspended
  InsufficientFunds
  InvalidTransferDate
  InvalidOrMissingAmount
  InvalidSecurityNumber
  MandateInvalid
  NoMandate
  PartnerRefused
  PartnerTechnicalErrorOccurred
  PeriodAmountLimitExceeded
  PeriodNbTransactionLimitExceeded
  ReasonNotSpecifiedByBank
  ReasonNotSpecifiedByDebtor
  RegulatoryReason
  SignatureMissing
  SuspiciousCheck
  SwanOffline
  SwanRefused
  SwanTimeout
  TermsAndConditionsLimitExceeded @deprecated
  TransactionDuplicated
  TransactionOnAccountTypeNotAllowed
  InvalidPin @deprecated
  RetryWithChipAndPin @deprecated
  InvalidAmount @deprecated
  CardholderCancellation @deprecated
  CardNumberInvalid @deprecated
  DigitalWalletEnrolmentInvalid @deprecated
  DigitalWalletTokenInvalid @deprecated
  DigitalWalletRefusal @deprecated
  MissingPin @deprecated
  MissingExpirationDate @deprecated
  DigitalWalletDeactivated @deprecated
  DigitalWalletSuspended @deprecated
}
enum FeesTypeEnum {
  BankingFee CardAcquiringAmex CardAcquiringChargeback CardAcquiringConsumerCB CardAcquiringCommercialCB
  CardAcquiringCommercialWithinEEA CardAcquiringConsumerWithinEEA CardAcquiringConsumerVisaMcWithinEEA
  CardAcquiringCommercialVisaMcWithinEEA CardAcquiringConsumerVisaMcOutsideEEA
  CardAcquiringCommercialVisaMcOutsideEEA CardAcquiringOutsideEEA CardPaymentsOutsideSEPA
  CashWithdrawalsOutsideSEPA CashWithdrawalsWithinSEPA CheckDeposit CheckIncident CheckReturn
  CirculationLetterDraftingFee CompanyAccountHolderVerified ConfirmationLetterDraftingFee
  DirectDebitRejection DocumentIssuance SepaTransfer InactiveAccount InternationalCreditTransferInGroup1
  InternationalCreditTransferInGroup2 InternationalCreditTransferInGroup3 InternationalCreditTransferInGroup4
  InternationalCreditTransferOutGroup1 InternationalCreditTransferOutGroup2
  InternationalCreditTransferOutGroup3 InternationalCreditTransferOutGroup4
  InternationalCreditTransferOutSwiftGroup1 ImproperUseOfAccount PhysicalCardDeliveryExpress
  PhysicalCardDeliveryFrance PhysicalCardDeliveryIntl PhysicalCardDeliverySpain PhysicalCardPrinting
  ProcessingJudicialOrAdministrativeSeizure SddInCoreMerchant SddInB2bMerchant SddInCoreDispute
  SddInCoreFailure SddInB2bDispute SddInB2bFailure SepaDirectDebitInB2bLevel1 SepaDirectDebitInB2bLevel2
  SepaDirectDebitInCoreLevel1 SepaDirectDebitInCoreLevel2 SepaDirectDebitInCoreReturn UnauthorizedOverdraft
  BusinessAccountSubscription IndividualAccountSubscription AccountMembershipSubscription
  VirtualCardSubscription SepaCreditTransferIn SepaCreditTransferOut SepaCreditorIdentifierRequest
  InstantSepaCreditTransferIn InstantSepaCreditTransferOut SepaDirectDebitIn SepaDirectDebitOut
  SingleUseVirtualCard CardTransaction TapToPayChargeback TapToPayTransactionAmexEeaCommercial
  TapToPayTransactionAmexEeaConsumer TapToPayTransactionAmexIntlCommercial
  TapToPayTransactionAmexIntlConsumer TapToPayTransactionCbEeaCommercial TapToPayTransactionCbEeaConsumer
  TapToPayTransactionFallback TapToPayTransactionVisaMastercardEeaCommercial
  TapToPayTransactionVisaMastercardEeaConsumer TapToPayTransactionVisaMastercardIntlCommercial
  TapToPayTransactionVisaMastercardIntlConsumer
}
enum ProjectType {
  INDIVIDUAL @deprecated(reason: "replaced by ` + "`" + `Individual` + "`" + `")
  COMPANY @deprecated(reason: "replaced by ` + "`" + `Company` + "`" + `")
  COMPANY_AND_CUSTOMERS @deprecated(reason: "replaced by ` + "`" + `CompanyAndCustomers` + "`" + `")
  Individual
  Company
  CompanyAndCustomers
}
enum ProjectStatus {
  Initiated
  MeetingScheduled
  ToReview @deprecated(reason: "replaced by ` + "`" + `PendingCompliance` + "`" + `")
  PendingCompliance
  LimitedLiveAccess
  BetaLiveAccess
  Enabled @deprecated(reason: "replaced by ` + "`" + `LimitedLiveAccess` + "`" + `")
  FullLiveAccess
  Disabled
  Suspended
  Rejected
  PendingLiveReview
}
enum TransactionStatus { Booked Deferred Rejected Pending Canceled Upcoming Released Settled }
`
