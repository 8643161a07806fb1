package server

// The operations this service sends, as Go strings.

const accountQuery = `query AccountName($id: ID!) {
  account(accountId: $id) {
    name
    ibann
  }
}`

// An interpreted string: its escapes move nothing.
var holderQuery = "query Holder($id: ID!) {\n  account(accountId: $id) {\n    holder { onboarding { id } }\n  }\n}"

// A fragment of operations.graphql, found across files.
var projectQuery = /* GraphQL */ `{ projectInfo { ...ProjectFields } }`

const missing = `query Missing { projectInfo { ...ProjectNoSuchFields } }`

const six = `query SixGo {
  a: projectInfo { id }
  b: projectInfo { id }
  c: projectInfo { id }
  d: projectInfo { id }
  e: projectInfo { id }
  f: projectInfo { id }
}`

// Only the Testing API serves this one.
const credit = `mutation Credit($input: SimulateOutgoingCardCreditInput!) {
  simulateOutgoingCardCredit(input: $input) { __typename }
}`

var quote = '`'

var prose = "query failed: retry later"
