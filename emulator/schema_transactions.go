package emulator

// transactionSDL is the Transaction interface, its ten implementations
// (the kinds the emulator generates and the others, so fragments on any
// of them validate), their parties and status types.
const transactionSDL = `
# Transactions

type TransactionConnection implements Connection {
  pageInfo: PageInfo!
  totalCount: Int!
  edges: [TransactionEdge!]!
}

type TransactionEdge implements Edge {
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
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
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
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  creditor: SEPACreditTransferCreditor!
  debtor: SEPACreditTransferDebtor!
}
type SEPADirectDebitTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  creditor: SEPADirectDebitCreditor!
  debtor: SEPADirectDebitDebtor!
  reservedAmount: Amount
  reservedAmountReleasedAt: DateTime
}
type CardTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  terminalId: String
  originalAmount: Amount!
  merchant: CardMerchant
  cardDetails: CardDetails
  authorizationType: AuthorizationType
  reservedAmount: Amount
  reservedAmountReleasedAt: DateTime
}
type OnlineCardTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  terminalId: String
  originalAmount: Amount!
  merchant: CardMerchant
  cardDetails: CardDetails
  authorizationType: AuthorizationType
  reservedAmount: Amount
  reservedAmountReleasedAt: DateTime
}
type InPersonCardTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  terminalId: String
  originalAmount: Amount!
  merchant: CardMerchant
  cardDetails: CardDetails
  authorizationType: AuthorizationType
  reservedAmount: Amount
  reservedAmountReleasedAt: DateTime
}
type InternalCreditTransfer implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  creditor: InternalCreditTransferCreditor!
  debtor: InternalCreditTransferDebtor!
}
type FeeTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  feesType: FeesTypeEnum!
  creditor: FeeCreditor!
  debtor: FeeDebtor!
}
type CheckTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  cmc7: String!
  rlmcKey: String!
  reservedAmount: Amount
  reservedAmountReleasedAt: DateTime
}
type InternalDirectDebitTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
  reservedAmount: Amount
  reservedAmountReleasedAt: DateTime
}
type InternationalCreditTransferTransaction implements Transaction {
  id: ID!
  reference: String!
  paymentMethodIdentifier: String!
  side: TransactionSide!
  type: TransactionTypeEnum!
  amount: Amount!
  label: String!
  statusInfo: TransactionStatusInfo!
  paymentId: String
  createdAt: DateTime!
  updatedAt: DateTime!
  counterparty: String!
  bookedBalanceAfter: Amount @deprecated(reason: "Use statusInfo.balance.amount on BookedTransactionStatusInfo instead")
  paymentProduct: PaymentProduct!
  account: Account
  externalReference: String
  executionDate: DateTime!
  requestedExecutionAt: DateTime
  originTransactionId: String
  statementCanBeGenerated: Boolean
  projectId: ID!
  isCancelable: Boolean!
}

interface SEPACreditTransferCreditor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
interface SEPACreditTransferDebtor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
type SEPACreditTransferInCreditor implements SEPACreditTransferCreditor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
  accountNumber: AccountNumber! @deprecated(reason: "because it is not already implemented (a default value is set).")
}
type SEPACreditTransferInDebtor implements SEPACreditTransferDebtor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
type SEPACreditTransferOutCreditor implements SEPACreditTransferCreditor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
type SEPACreditTransferOutDebtor implements SEPACreditTransferDebtor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
  accountNumber: AccountNumber! @deprecated(reason: "because it is not already implemented (a default value is set).")
}

interface SEPADirectDebitCreditor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
interface SEPADirectDebitDebtor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
type SEPADirectDebitInCreditor implements SEPADirectDebitCreditor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
  accountNumber: AccountNumber!
}
type SEPADirectDebitInDebtor implements SEPADirectDebitDebtor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
type SEPADirectDebitOutCreditor implements SEPADirectDebitCreditor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
}
type SEPADirectDebitOutDebtor implements SEPADirectDebitDebtor {
  name: String!
  maskedIBAN: String!
  IBAN: String
  BIC: String
  accountNumber: AccountNumber! @deprecated(reason: "because it is not already implemented (a default value is set).")
}

interface InternalCreditTransferCreditor {
  name: String!
  accountNumber: AccountNumber!
}
interface InternalCreditTransferDebtor {
  name: String!
  accountNumber: AccountNumber!
}
type InternalCreditTransferInCreditor implements InternalCreditTransferCreditor {
  name: String!
  accountNumber: AccountNumber!
}
type InternalCreditTransferInDebtor implements InternalCreditTransferDebtor {
  name: String!
  accountNumber: AccountNumber!
}
type InternalCreditTransferOutCreditor implements InternalCreditTransferCreditor {
  name: String!
  accountNumber: AccountNumber!
}
type InternalCreditTransferOutDebtor implements InternalCreditTransferDebtor {
  name: String!
  accountNumber: AccountNumber!
}

interface FeeCreditor {
  name: String!
  accountNumber: AccountNumber!
}
interface FeeDebtor {
  name: String!
  accountNumber: AccountNumber!
}
type FeeInCreditor implements FeeCreditor {
  name: String!
  accountNumber: AccountNumber!
}
type FeeInDebtor implements FeeDebtor {
  name: String!
  accountNumber: AccountNumber!
}
type FeeOutCreditor implements FeeCreditor {
  name: String!
  accountNumber: AccountNumber!
}
type FeeOutDebtor implements FeeDebtor {
  name: String!
  accountNumber: AccountNumber!
}

union CardMerchant = CardOutMerchant
type CardOutMerchant {
  merchantId: String!
  merchantName: String!
  merchantCity: String!
  merchantCountry: CCA3
  merchantPostalCode: String
  merchantCategoryCode: String!
}
union CardDetails = CardOutDetails
type CardOutDetails {
  card: Card
  maskedPan: String!
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
type CanceledTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
  canceledDate: DateTime
}
type ReleasedTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
  releaseDate: DateTime!
  reason: ReleasedReason!
}
type DeferredTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  deferredEndDate: DateTime
  status: TransactionStatus!
  repaymentCycleId: ID!
}
type SettledTransactionStatusInfo implements TransactionStatusInfo {
  id: ID!
  status: TransactionStatus!
  settlementTransactionId: String!
  settledAt: Date!
}
`
