package emulator

// webhookSDL adds the platform's webhook operations to partnerSDL, on both
// environments: the public schema has them on the partner API itself, not
// on the Sandbox-only Testing API. Names, types, nullability and defaults
// are the public schema's. probeWebhookEndpoint is not served.
const webhookSDL = `
extend type Query {
  webhookEventTypes: [String!]!
  webhookEventLog(id: ID!): WebhookEventLog
  webhookEventLogs(first: Int! = 50, after: String, filters: WebhookEventLogFiltersInput): WebhookEventLogsConnection
  webhookSubscription(id: ID!): WebhookSubscription
  webhookSubscriptions(first: Int! = 50, after: String): WebhookSubscriptionsConnection!
}

type Mutation {
  replayWebhookEvent(input: ReplayWebhookEventInput!): ReplayWebhookEventPayload!
  addWebhookSubscription(input: AddWebhookSubscriptionInput!): WebhookSubscriptionPayload!
  updateWebhookSubscription(input: UpdateWebhookSubscriptionInput!): WebhookSubscriptionPayload!
  removeWebhookSubscription(input: WebhookSubscriptionIdInput!): RemoveWebhookSubscriptionPayload!
}

interface Rejection {
  message: String!
}
type InternalErrorRejection implements Rejection {
  message: String!
}
type InvalidArgumentRejection implements Rejection {
  message: String!
  code: InvalidArgumentRejectionCode!
  fields: [InvalidArgumentRejectionField!]!
}
enum InvalidArgumentRejectionCode { INVALID_INPUT }
type InvalidArgumentRejectionField {
  name: String!
  errors: [String!]!
}
type SubscriptionLimitsRejection implements Rejection {
  message: String!
  subscriptionLimits: [EventTypeHavingReachedSubscriptionLimits]!
}
type EventTypeHavingReachedSubscriptionLimits {
  eventType: String!
  subscriptionCount: Int!
}
type WebhookSubscriptionNotFoundRejection implements Rejection {
  message: String!
}
type WebhookEventLogNotFoundRejection implements Rejection {
  message: String!
}

enum StatusText { Success Failure }

type WebhookEventLog {
  id: ID!
  createdAt: DateTime!
  eventId: ID!
  eventDate: DateTime!
  eventType: String!
  resourceId: ID!
  duration: Int!
  requestPayload: String!
  responsePayload: String
  statusCode: Int
  statusText: StatusText
  webhookSubscription: WebhookSubscription
  retryCount: Int
  webhookSubscriptionLabel: String
  webhookSubscriptionEndpoint: String
}
input WebhookEventLogFiltersInput {
  statusCode: Int
  statusText: StatusText
  startDate: DateTime
  endDate: DateTime
  eventType: String
  eventId: ID
  resourceId: ID
  webhookSubscriptionId: ID
}
input NestedWebhookEventLogFiltersInput {
  statusCode: Int
  statusText: StatusText
  startDate: DateTime
  endDate: DateTime
  eventType: String
  eventId: ID
  resourceId: ID
}
type WebhookEventLogsConnection implements Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [WebhookEventLogsEdge!]!
}
type WebhookEventLogsEdge implements Edge {
  cursor: String!
  node: WebhookEventLog!
}

type WebhookSubscription {
  id: ID!
  label: String!
  endpoint: String!
  secret: String
  eventTypes: [String!]!
  createdAt: DateTime!
  updatedAt: DateTime!
  statusInfo: WebhookSubscriptionStatusInfo!
  kpi: WebhookSubscriptionKpi
  webhookEventLogs(first: Int! = 50, after: String, filters: NestedWebhookEventLogFiltersInput): WebhookEventLogsConnection
}
interface WebhookSubscriptionStatusInfo {
  status: WebhookSubscriptionStatus!
}
enum WebhookSubscriptionStatus { Enabled Disabled Broken }
type WebhookSubscriptionEnabledStatusInfo implements WebhookSubscriptionStatusInfo {
  status: WebhookSubscriptionStatus!
  enabledAt: DateTime!
}
type WebhookSubscriptionDisabledStatusInfo implements WebhookSubscriptionStatusInfo {
  status: WebhookSubscriptionStatus!
  disabledAt: DateTime!
}
type WebhookSubscriptionBrokenStatusInfo implements WebhookSubscriptionStatusInfo {
  status: WebhookSubscriptionStatus!
  brokenAt: DateTime!
}
enum WebhookSubscriptionCreationStatus { Enabled Disabled }
type WebhookSubscriptionKpi {
  totalHits: Int!
  errorRate: Float!
}
type WebhookSubscriptionsConnection implements Connection {
  totalCount: Int!
  pageInfo: PageInfo!
  edges: [WebhookSubscriptionsEdge!]!
}
type WebhookSubscriptionsEdge implements Edge {
  cursor: String!
  node: WebhookSubscription!
}

union WebhookSubscriptionPayload = WebhookSubscriptionSuccessPayload | WebhookSubscriptionNotFoundRejection | InternalErrorRejection | InvalidArgumentRejection | SubscriptionLimitsRejection
type WebhookSubscriptionSuccessPayload {
  webhookSubscription: WebhookSubscription!
}
union RemoveWebhookSubscriptionPayload = RemoveWebhookSubscriptionSuccessPayload | WebhookSubscriptionNotFoundRejection | InternalErrorRejection | InvalidArgumentRejection
type RemoveWebhookSubscriptionSuccessPayload {
  subscriptionRemovedSuccessfully: Boolean!
}
union ReplayWebhookEventPayload = ReplayWebhookEventSuccessPayload | WebhookEventLogNotFoundRejection | WebhookSubscriptionNotFoundRejection | InternalErrorRejection | InvalidArgumentRejection
type ReplayWebhookEventSuccessPayload {
  webhookEventLogEntryId: ID!
  endpointStatus: Int
}

input AddWebhookSubscriptionInput {
  label: String!
  endpoint: String!
  secret: String
  eventTypes: [ID!]!
  status: WebhookSubscriptionCreationStatus!
}
input UpdateWebhookSubscriptionInput {
  id: ID!
  label: String!
  endpoint: String!
  secret: String
  eventTypes: [ID!]!
  status: WebhookSubscriptionCreationStatus!
}
input WebhookSubscriptionIdInput {
  webhookSubscriptionId: ID!
}
input ReplayWebhookEventInput {
  webhookEventId: ID!
  subscriptionId: ID
}
`
