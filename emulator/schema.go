package emulator

// partnerSDL is the subset of the platform's partner schema the emulator
// serves. Names, types and nullability are the real schema's, so a query
// that works here works against the platform.
const partnerSDL = `
schema { query: Query mutation: Mutation }

scalar AccountNumber
scalar AmountValue
scalar BIC
scalar CCA3
scalar Currency
scalar Date
scalar DateTime
scalar IBAN
scalar PhoneNumber

type Query {
  account(accountId: ID!): Account
  accounts(first: Int! = 50, before: String, after: String, filters: AccountFilterInput, orderBy: AccountOrderByInput): AccountConnection!
  user(id: String): User
  projectInfo: ProjectInfo!
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

enum AccountOrderByFieldInput { createdAt updatedAt }
enum OrderByDirection { Asc Desc }

type AccountConnection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [AccountEdge!]!
}

type AccountEdge {
  cursor: String!
  node: Account!
}

type PageInfo {
  hasNextPage: Boolean
  hasPreviousPage: Boolean
  startCursor: String
  endCursor: String
}

type Account {
  id: ID!
  number: AccountNumber!
  name: String!
  holder: AccountHolder!
  country: AccountCountry!
  paymentLevel: PaymentLevel!
  currency: Currency!
  statusInfo: AccountStatusInfo!
  createdAt: DateTime!
  updatedAt: DateTime!
  language: AccountLanguage!
  paymentAccountType: PaymentAccountType!
  BIC: BIC!
  IBAN: IBAN
  balances: AccountBalances
  transactions(first: Int! = 50, after: String, orderBy: TransactionsOrderByInput, filters: TransactionsFiltersInput): TransactionConnection
}

enum AccountCountry { FRA DEU ESP NLD ITA BEL }
enum AccountLanguage { de en fr it nl es pt fi }
enum PaymentLevel { Limited Unlimited }
enum PaymentAccountType { EMoney PaymentService }
enum AccountStatus { Opened Suspended Closing Closed }

interface AccountStatusInfo {
  status: AccountStatus!
}
type AccountOpenedStatus implements AccountStatusInfo {
  status: AccountStatus!
}
type AccountSuspendedStatus implements AccountStatusInfo {
  status: AccountStatus!
}
type AccountClosingStatus implements AccountStatusInfo {
  status: AccountStatus!
  closingAt: DateTime!
}
type AccountClosedStatus implements AccountStatusInfo {
  status: AccountStatus!
  closedAt: DateTime!
  closingAt: DateTime!
}

type AccountHolder {
  id: ID!
  verificationStatus: VerificationStatus!
  info: AccountHolderInfo!
  createdDate: DateTime!
  updatedDate: DateTime!
}
enum VerificationStatus { NotStarted WaitingForInformation Pending Verified Refused }
enum AccountHolderType { Individual Company }

interface AccountHolderInfo {
  type: AccountHolderType!
  name: String!
}
type AccountHolderIndividualInfo implements AccountHolderInfo {
  type: AccountHolderType!
  name: String!
}
type AccountHolderCompanyInfo implements AccountHolderInfo {
  type: AccountHolderType!
  name: String!
  registrationNumber: String
  vatNumber: String
  tradeName: String
}

type AccountBalances {
  available: Amount!
  pending: Amount!
  booked: Amount!
  reserved: Amount!
}

type Amount {
  currency: Currency!
  value: AmountValue!
}

input TransactionsOrderByInput {
  field: TransactionsOrderByField
  direction: OrderByDirection
}
enum TransactionsOrderByField { id createdAt updatedAt executionDate }

input TransactionsFiltersInput {
  status: [TransactionStatus!]
  paymentProduct: [PaymentProduct!]
  search: String
  type: [TransactionTypeEnum!]
}

type TransactionConnection {
  pageInfo: PageInfo!
  totalCount: Int!
  edges: [TransactionEdge!]!
}
type TransactionEdge {
  node: Transaction!
  cursor: String!
}

interface Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  projectId: ID!
  isCancelable: Boolean!
}

type SEPACreditTransferTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  projectId: ID!
  isCancelable: Boolean!
}

type FeeTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  feesType: FeesTypeEnum!
  statusInfo: TransactionStatusInfo!
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  projectId: ID!
  isCancelable: Boolean!
}

enum TransactionSide { Debit Credit }
enum TransactionStatus { Booked Deferred Rejected Pending Canceled Upcoming Released Settled }
enum PaymentProduct { SEPACreditTransfer SEPADirectDebit Card Fees InternalDirectDebit Check InternationalCreditTransfer InPersonCard OnlineCard }
enum FeesTypeEnum { BankingFee BusinessAccountSubscription IndividualAccountSubscription SepaTransfer }
enum RejectedReasonCode { AccountClosed BeneficiaryMissingOrIncorrect InsufficientFunds }
enum TransactionTypeEnum {
  InternalCreditTransferOut InternalCreditTransferOutReturn InternalCreditTransferOutRecall
  InternalCreditTransferIn InternalCreditTransferInReturn InternalCreditTransferInRecall
  SepaCreditTransferOut SepaInstantCreditTransferOut SepaInstantCreditTransferIn
  SepaCreditTransferOutReturn SepaInstantCreditTransferOutRecall SepaInstantCreditTransferInRecall
  SepaCreditTransferOutRecall SepaCreditTransferIn SepaCreditTransferInReturn SepaCreditTransferInRecall
  FeesOut FeesIn
  SepaDirectDebitIn SepaDirectDebitInReturn SepaDirectDebitInReversal
  SepaDirectDebitOut SepaDirectDebitOutReturn SepaDirectDebitOutReversal
  CardOutAuthorization CardOutDebit CardOutDebitReversal CardOutCredit CardOutCreditReversal
  InternalDirectDebitIn InternalDirectDebitInReturn InternalDirectDebitOut InternalDirectDebitOutReturn
  CheckIn CheckInReturn
  InternationalCreditTransferIn InternationalCreditTransferOut
  InternationalCreditTransferInReturn InternationalCreditTransferOutReturn
  CardInCredit CardInChargeback CardInChargebackReversal
}

interface TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
}
type BookedTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
  bookingDate: DateTime!
  valueDate: DateTime!
  balanceAfter: BookedBalanceAfter!
}
type BookedBalanceAfter {
  amount: Amount
  sequenceNumber: Int
}
type PendingTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
  pendingEndDate: DateTime
}
type UpcomingTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
  executionDate: DateTime!
}
type RejectedTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
  reason: RejectedReasonCode!
  hasFallback: Boolean!
}

type User {
  id: ID!
  firstName: String
  lastName: String
  fullName: String
  mobilePhoneNumber: PhoneNumber
  birthDate: Date
  nationalityCCA3: CCA3
  birthCity: String
  birthCountry: CCA3
  identificationLevels: IdentificationLevels
  preferredNotificationChannel: PreferredNotificationChannel
  status: UserStatus
  createdAt: DateTime!
  updatedAt: DateTime!
}
type IdentificationLevels {
  PVID: Boolean!
  QES: Boolean!
  expert: Boolean!
}
enum UserStatus { Active Blocked Deactivated }
enum PreferredNotificationChannel { App Sms }

type ProjectInfo {
  id: ID!
  name: String!
  type: ProjectType!
  logoUri: String
  accentColor: String
  oAuthClientId: String
  status: ProjectStatus!
  allowsDesktopAuthentication: Boolean!
  projectSettingsId: ID!
}
enum ProjectType { Individual Company CompanyAndCustomers }
enum ProjectStatus { Initiated MeetingScheduled PendingCompliance LimitedLiveAccess BetaLiveAccess FullLiveAccess Disabled Suspended Rejected PendingLiveReview }
`

// adminSDL is the subset of the platform's Testing API (partner-admin)
// schema the emulator serves on the Sandbox only.
const adminSDL = `
schema { query: Query mutation: Mutation }

scalar AmountValue
scalar CCA3
scalar Currency
scalar Date
scalar IBAN
scalar PhoneNumber
scalar SepaReference

type Query {
  sandboxUser: SandboxUser!
  sandboxUserById(id: ID!): SandboxUser
  sandboxUsers(first: Int! = 50, after: String, offset: Int, orderBy: SandboxUsersOrderByInput): SandboxUserConnection
}

type Mutation {
  createSandboxUser(input: CreateSandboxUserInput!): CreateSandboxUserPayload!
  endorseSandboxUser(input: EndorseSandboxUserInput!): EndorseSandboxUserPayload!
  simulateIncomingSepaCreditTransferReception(input: IncomingSepaCreditTransferInput!): SimulateIncomingSepaCreditTransferReceptionPayload!
}

type SandboxUser {
  id: ID!
  mobilePhoneNumber: PhoneNumber
  lastName: String
  firstName: String
  allFirstNames: [String!]
  birthDate: Date
  birthCity: String
  birthCountryCCA3: CCA3
  nationalityCCA3: CCA3
  autoConsent: Boolean!
  preferredNotificationChannel: PreferredNotificationChannel
  identificationLevels: IdentificationLevels
  isActive: Boolean
}
type IdentificationLevels {
  PVID: Boolean!
  QES: Boolean!
  expert: Boolean!
}
enum PreferredNotificationChannel { Sms App }

type SandboxUserConnection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [SandboxUserEdge!]!
}
type SandboxUserEdge {
  cursor: String!
  node: SandboxUser!
}
type PageInfo {
  hasNextPage: Boolean
  hasPreviousPage: Boolean
  startCursor: String
  endCursor: String
}
input SandboxUsersOrderByInput {
  field: SandboxUsersOrderByFieldInput
  direction: OrderByDirection
}
enum SandboxUsersOrderByFieldInput { createdAt updatedAt }
enum OrderByDirection { Asc Desc }

input CreateSandboxUserInput {
  firstName: String!
  lastName: String!
  allFirstNames: [String!]
  birthDate: Date!
  birthCountryCCA3: CCA3
  nationalityCCA3: CCA3!
  autoConsent: Boolean!
}
input EndorseSandboxUserInput {
  id: String!
}
input IncomingSepaCreditTransferInput {
  amount: AmountInput!
  creditorAddress: AddressInput
  creditorIban: IBAN!
  creditorName: String!
  debtorAddress: AddressInput
  debtorIban: IBAN!
  debtorName: String!
  endToEndId: SepaReference
  label: String
  isInstant: Boolean
}
input AmountInput {
  value: AmountValue!
  currency: Currency!
}
input AddressInput {
  addressLine1: String
  addressLine2: String
  city: String
  postalCode: String
  state: String
  country: CCA3!
}

interface Rejection {
  message: String!
}
type ForbiddenRejection implements Rejection {
  message: String!
}
type NationalityNotFoundRejection implements Rejection {
  message: String!
  identifier: CCA3!
}
type SandboxUserNotFoundRejection implements Rejection {
  message: String!
  userId: String!
}

union CreateSandboxUserPayload = CreateSandboxUserSuccessPayload | NationalityNotFoundRejection | ForbiddenRejection
type CreateSandboxUserSuccessPayload {
  sandboxUser: SandboxUser!
}
union EndorseSandboxUserPayload = EndorseSandboxUserSuccessPayload | ForbiddenRejection | SandboxUserNotFoundRejection
type EndorseSandboxUserSuccessPayload {
  sandboxUser: SandboxUser!
}
union SimulateIncomingSepaCreditTransferReceptionPayload = SimulateIncomingSepaCreditTransferReceptionSuccessPayload | ForbiddenRejection
type SimulateIncomingSepaCreditTransferReceptionSuccessPayload {
  transactionId: ID!
}
`
