package emulator

// partnerSDL is the part of the platform's partner schema the emulator
// serves. Every type, field, argument, default, enum value and input
// field it names is the real schema's, to the letter (TestSchemaMatches
// checks it against the public schema), so a query that works here works
// against the platform. It is split in three for reading: accounts and
// the rest, transactions, and the enums and inputs.
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
scalar URL

type Query {
  accountMembership(id: ID!): AccountMembership
  accountMemberships(first: Int! = 50, before: String, after: String, filters: AccountMembershipsFilterInput, orderBy: AccountMembershipOrderByInput): AccountMembershipConnection!
  account(accountId: ID!): Account
  accounts(first: Int! = 50, before: String, after: String, filters: AccountFilterInput, orderBy: AccountOrderByInput): AccountConnection!
  transaction(id: ID!): Transaction!
  transactions(first: Int! = 50, after: String, orderBy: TransactionsOrderByInput, filters: TransactionsFiltersInput): TransactionConnection!
  card(cardId: ID!): Card
  cards(first: Int! = 50, before: String, after: String, orderBy: CardOrderByInput, filters: CardFiltersInput): CardConnection!
  projectInfo: ProjectInfo!
  user(id: String): User
}

interface Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [Edge!]!
}

interface Edge {
  cursor: String!
}

type PageInfo {
  hasNextPage: Boolean
  hasPreviousPage: Boolean
  startCursor: String
  endCursor: String
}

type Amount {
  currency: Currency!
  value: AmountValue!
}

type AddressInfo {
  addressLine1: String
  addressLine2: String
  city: String
  postalCode: String
  state: String
  country: CCA3
}

# Accounts

type AccountConnection implements Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [AccountEdge!]!
}

type AccountEdge implements Edge {
  cursor: String!
  node: Account!
}

type Account {
  id: ID!
  number: AccountNumber!
  name: String!
  holder: AccountHolder!
  cashAccountType: CashAccountType!
  country: AccountCountry!
  paymentLevel: PaymentLevel!
  currency: Currency!
  statusInfo: AccountStatusInfo!
  createdAt: DateTime!
  updatedAt: DateTime!
  memberships(first: Int! = 50, before: String, after: String, filters: MembershipsFilterInput, orderBy: AccountMembershipOrderByInput): AccountMembershipConnection!
  requiredConsentToFetchNewTransactions: Boolean!
  language: AccountLanguage!
  legalRepresentativeMembership: AccountMembership!
  paymentAccountType: PaymentAccountType!
  upgradedAt: DateTime
  BIC: BIC!
  IBAN: IBAN
  blockSDD: Boolean
  balances: AccountBalances
  statements(first: Int! = 50, after: String, filters: StatementFiltersInput, orderBy: StatementsOrderByInput): StatementConnection
  transactions(first: Int! = 50, after: String, orderBy: TransactionsOrderByInput, filters: TransactionsFiltersInput): TransactionConnection
}

interface AccountStatusInfo {
  status: AccountStatus!
}
type AccountOpenedStatus implements AccountStatusInfo {
  status: AccountStatus!
}
type AccountSuspendedStatus implements AccountStatusInfo {
  status: AccountStatus!
  reason: String! @deprecated(reason: "Use ` + "`" + `reasonInfo` + "`" + ` instead.")
  reasonInfo: SuspendAccountStatusReason!
}
type AccountClosingStatus implements AccountStatusInfo {
  status: AccountStatus!
  reason: String! @deprecated(reason: "Use ` + "`" + `reasonInfo` + "`" + ` instead.")
  reasonInfo: CloseAccountStatusReason!
  closingAt: DateTime!
}
type AccountClosedStatus implements AccountStatusInfo {
  status: AccountStatus!
  reason: String! @deprecated(reason: "Use ` + "`" + `reasonInfo` + "`" + ` instead.")
  reasonInfo: CloseAccountStatusReason!
  closedAt: DateTime!
  closingAt: DateTime!
}

interface Reason {
  message: String
}
union CloseAccountStatusReason = CloseAccountReason
type CloseAccountReason implements Reason {
  type: CloseAccountReasonType!
  message: String
}
union SuspendAccountStatusReason = SuspendAccountReason
type SuspendAccountReason implements Reason {
  type: SuspendAccountReasonType!
  message: String
}

type AccountHolder {
  id: ID!
  verificationStatus: VerificationStatus!
  info: AccountHolderInfo!
  statusInfo: AccountHolderStatusInfo
  residencyAddress: AddressInfo!
  createdDate: DateTime!
  updatedDate: DateTime!
}

interface AccountHolderInfo {
  type: AccountHolderType!
  name: String!
}
type AccountHolderIndividualInfo implements AccountHolderInfo {
  type: AccountHolderType!
  name: String!
  user: User!
  taxIdentificationNumber: String
}
type AccountHolderCompanyInfo implements AccountHolderInfo {
  type: AccountHolderType!
  name: String!
  registrationNumber: String
  vatNumber: String
  taxIdentificationNumber: String
  tradeName: String
}

interface AccountHolderStatusInfo {
  status: AccountHolderStatus!
}
type AccountHolderEnabledStatusInfo implements AccountHolderStatusInfo {
  status: AccountHolderStatus!
}
type AccountHolderSuspendedStatusInfo implements AccountHolderStatusInfo {
  status: AccountHolderStatus!
  reason: String!
}
type AccountHolderCanceledStatusInfo implements AccountHolderStatusInfo {
  status: AccountHolderStatus!
  reason: String!
}

type AccountBalances {
  available: Amount!
  pending: Amount!
  booked: Amount!
  reserved: Amount!
}

# Memberships

type AccountMembershipConnection implements Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [AccountMembershipEdge!]!
}

type AccountMembershipEdge implements Edge {
  cursor: String!
  node: AccountMembership!
}

type AccountMembership {
  id: ID!
  email: String!
  user: User
  legalRepresentative: Boolean!
  canViewAccount: Boolean!
  canManageBeneficiaries: Boolean!
  canInitiatePayments: Boolean!
  canManageAccountMembership: Boolean!
  canManageCards: Boolean!
  statusInfo: AccountMembershipStatusInfo!
  accountId: ID!
  account: Account
  spendingLimits: [SpendingLimit!]
  createdAt: DateTime!
  updatedAt: DateTime!
  version: String!
  residencyAddress: AddressInfo
  acceptedIdentificationLevels: [IdentificationLevel]!
  hasRequiredIdentificationLevel: Boolean
  disabledAt: DateTime
  language: AccountLanguage
  accountCountry: AccountCountry!
  accountHolderType: AccountHolderType!
  cards(first: Int! = 50, before: String, after: String, orderBy: CardOrderByInput, filters: CardFiltersInput): CardConnection!
}

interface AccountMembershipStatusInfo {
  status: AccountMembershipStatus!
}
type AccountMembershipEnabledStatusInfo implements AccountMembershipStatusInfo {
  status: AccountMembershipStatus!
}
type AccountMembershipInvitationSentStatusInfo implements AccountMembershipStatusInfo {
  status: AccountMembershipStatus!
  restrictedTo: RestrictedTo!
}
type AccountMembershipConsentPendingStatusInfo implements AccountMembershipStatusInfo {
  status: AccountMembershipStatus!
  consent: Consent!
  restrictedTo: RestrictedTo!
}
type AccountMembershipBindingUserErrorStatusInfo implements AccountMembershipStatusInfo {
  status: AccountMembershipStatus!
  firstNameMatchError: Boolean!
  emailVerifiedMatchError: Boolean!
  idVerifiedMatchError: Boolean!
  lastNameMatchError: Boolean!
  phoneNumberMatchError: Boolean!
  birthDateMatchError: Boolean!
  restrictedTo: RestrictedTo!
}
type AccountMembershipSuspendedStatusInfo implements AccountMembershipStatusInfo {
  status: AccountMembershipStatus!
  reason: String!
}
type AccountMembershipDisabledStatusInfo implements AccountMembershipStatusInfo {
  status: AccountMembershipStatus!
  reason: String!
}

type RestrictedTo {
  firstName: String!
  lastName: String!
  birthDate: Date
  phoneNumber: String
}

type Consent {
  id: ID!
  requireSCA: Boolean!
  status: ConsentStatus!
  createdAt: DateTime!
  updatedAt: DateTime
  startedAt: DateTime
  expiredAt: DateTime
  purpose: ConsentPurpose!
  consentUrl: String!
  redirectUrl: String!
  userId: String!
  user: User
  challenge: String
  acceptedAt: DateTime
  refusedAt: DateTime
  canceledAt: DateTime
}

type SpendingLimit {
  type: SpendingLimitType!
  period: SpendingLimitPeriod!
  amount: Amount!
}

# Cards

type CardConnection implements Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [CardEdge!]!
}

type CardEdge implements Edge {
  cursor: String!
  node: Card!
}

type Card {
  id: ID!
  transactions(first: Int! = 50, after: String, orderBy: TransactionsOrderByInput, filters: TransactionsFiltersInput): TransactionConnection
  type: CardType!
  createdAt: DateTime!
  updatedAt: DateTime!
  accountMembership: AccountMembership!
  mainCurrency: Currency!
  cardContractExpiryDate: DateTime
  cardDesignUrl: String!
  statusInfo: CardStatusInfo!
  withdrawal: Boolean!
  international: Boolean!
  nonMainCurrencyTransactions: Boolean!
  eCommerce: Boolean!
  cardMaskedNumber: String!
  expiryDate: String
  name: String
  issuingCountry: CCA3!
  spendingLimits: [SpendingLimit!]
}

interface CardStatusInfo {
  status: CardStatus!
}
type CardConsentPendingStatusInfo implements CardStatusInfo {
  status: CardStatus!
  consent: Consent!
}
type CardProcessingStatusInfo implements CardStatusInfo {
  status: CardStatus!
}
type CardEnabledStatusInfo implements CardStatusInfo {
  status: CardStatus!
}
type CardCancelingStatusInfo implements CardStatusInfo {
  status: CardStatus!
  reason: String!
}
type CardCanceledStatusInfo implements CardStatusInfo {
  status: CardStatus!
  reason: String!
}

# Statements

type StatementConnection implements Connection {
  pageInfo: PageInfo!
  totalCount: Int!
  edges: [StatementEdge!]!
}

type StatementEdge implements Edge {
  node: Statement!
  cursor: String!
}

type Statement {
  id: ID!
  account: Account!
  openingBalance: Amount!
  closingBalance: Amount!
  openingDate: DateTime!
  closingDate: DateTime!
  status: StatementStatus! @deprecated(reason: "Use statusInfo instead")
  statusInfo: AccountStatementStatusInfo!
  period: StatementPeriod
  totalCredits: Amount!
  totalDebits: Amount!
  fees: Amount! @deprecated(reason: "Use feeCredits and feeDebits instead")
  feeCredits: Amount!
  feeDebits: Amount!
  format: AccountStatementFormat!
  createdAt: DateTime!
  updatedAt: DateTime!
}

interface AccountStatementStatusInfo {
  status: AccountStatementStatus!
}
type GeneratedStatusInfo implements AccountStatementStatusInfo {
  status: AccountStatementStatus!
  url: URL!
}
type PendingStatusInfo implements AccountStatementStatusInfo {
  status: AccountStatementStatus!
}
type FailedStatusInfo implements AccountStatementStatusInfo {
  status: AccountStatementStatus!
}
type VoidedStatusInfo implements AccountStatementStatusInfo {
  status: AccountStatementStatus!
  url: URL!
}

# Users and the project

type User {
  id: ID!
  accountMemberships(first: Int! = 50, before: String, after: String, filters: AccountMembershipsFilterInput): AccountMembershipConnection!
  mobilePhoneNumber: PhoneNumber
  firstName: String
  lastName: String
  allFirstNames: [String!]
  fullName: String
  birthDate: Date
  nationalityCCA3: CCA3
  birthCity: String
  birthCountry: CCA3
  identificationLevels: IdentificationLevels
  preferredNotificationChannel: PreferredNotificationChannel
  status: UserStatus
  createdAt: DateTime!
  updatedAt: DateTime!
  joinedAt: DateTime!
  verifiedEmails: [String!]!
}
type IdentificationLevels {
  PVID: Boolean!
  QES: Boolean!
  expert: Boolean!
}

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
` + transactionSDL + enumSDL

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

interface Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [Edge!]!
}
interface Edge {
  cursor: String!
}
type SandboxUserConnection implements Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [SandboxUserEdge!]!
}
type SandboxUserEdge implements Edge {
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
