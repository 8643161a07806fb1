package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/hooktest"
)

// The whole schema, served: what a mutation the model does not answer
// creates can be read back, its verbs move statuses, fixtures set what a
// test needs, and generated simulations deliver their webhook events.

const opSchedule = `mutation($input: ScheduleStandingOrderInput!) { scheduleStandingOrder(input: $input) {
  __typename ... on ScheduleStandingOrderSuccessPayload { standingOrder { id label period amount { value currency } statusInfo { status } } } } }`

type standingOrder struct {
	ID, Label, Period string
	Amount            struct{ Value, Currency string }
	StatusInfo        struct {
		Typename string `json:"__typename"`
		Status   string
	}
}

// schedule creates a standing order on an account.
func (e *testEnv) schedule(accountID, label string) standingOrder {
	e.t.Helper()
	var out struct {
		S struct {
			Typename      string `json:"__typename"`
			StandingOrder standingOrder
		} `json:"scheduleStandingOrder"`
	}
	e.mustData(pathSandbox, tokSandboxProject, opSchedule, map[string]any{"input": map[string]any{
		"accountId": accountID, "period": "Monthly", "label": label, "amount": eur("12.50"),
		"consentRedirectUrl": "https://partner.example/done",
		"sepaBeneficiary":    map[string]any{"name": "Landlord SCI", "iban": "FR7630006000011234567890189", "save": false},
	}}, &out)
	if out.S.Typename != "ScheduleStandingOrderSuccessPayload" || out.S.StandingOrder.ID == "" {
		e.t.Fatalf("scheduleStandingOrder answered %+v", out.S)
	}
	return out.S.StandingOrder
}

// TestCreatedObjectIsReadBack: a standing order scheduled on an account
// (a mutation the model does not answer) carries its input, is read back
// by its id, and is the first of its account's standing orders.
func TestCreatedObjectIsReadBack(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, referenceOptions(t))
	acc := e.sandbox.AllAccounts()[0]
	created := e.schedule(acc.ID, "Office rent")
	if created.Label != "Office rent" || created.Period != "Monthly" || created.Amount.Value != "12.50" || created.Amount.Currency != "EUR" {
		t.Errorf("the input is not reflected: %+v", created)
	}
	var byID struct{ StandingOrder standingOrder }
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { standingOrder(standingOrderId: $id) { id label period amount { value currency } } }`,
		map[string]any{"id": created.ID}, &byID)
	if byID.StandingOrder.ID != created.ID || byID.StandingOrder.Label != "Office rent" || byID.StandingOrder.Amount != created.Amount {
		t.Errorf("read back by id: %+v, created %+v", byID.StandingOrder, created)
	}
	var parent struct {
		Account struct {
			ID, Name       string
			StandingOrders struct {
				TotalCount int
				Edges      []struct{ Node standingOrder }
			}
		}
	}
	q := `query($id: ID!) { account(accountId: $id) { id name standingOrders(first: 5) { totalCount edges { node { id label } } } } }`
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.ID}, &parent)
	a := parent.Account
	if a.ID != acc.ID || a.Name != acc.Name {
		t.Errorf("the account is not the model's: %s %q, want %s %q", a.ID, a.Name, acc.ID, acc.Name)
	}
	if len(a.StandingOrders.Edges) == 0 || a.StandingOrders.Edges[0].Node.ID != created.ID || a.StandingOrders.Edges[0].Node.Label != "Office rent" {
		t.Fatalf("the account's standing orders do not start with the new one: %+v", a.StandingOrders)
	}
	// A second one comes first, and the count grows by one.
	second := e.schedule(acc.ID, "Parking")
	before := a.StandingOrders.TotalCount
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.ID}, &parent)
	if got := parent.Account.StandingOrders; got.TotalCount != before+1 || got.Edges[0].Node.ID != second.ID || got.Edges[1].Node.ID != created.ID {
		t.Errorf("after a second order: total %d (was %d), first %+v", got.TotalCount, before, got.Edges[:2])
	}
	// Another account's list does not have them.
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": e.sandbox.AllAccounts()[1].ID}, &parent)
	for _, ed := range parent.Account.StandingOrders.Edges {
		if ed.Node.ID == created.ID || ed.Node.ID == second.ID {
			t.Errorf("another account lists %s", ed.Node.ID)
		}
	}
}

// TestStatusVerbs: cancel… moves a generated object's status to Canceled,
// suspend… a modelled one's to Suspended while the model still answers
// its other fields.
func TestStatusVerbs(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, referenceOptions(t))
	created := e.schedule(e.sandbox.AllAccounts()[0].ID, "Rent")
	var canceled struct {
		C struct {
			Typename      string `json:"__typename"`
			StandingOrder standingOrder
		} `json:"cancelStandingOrder"`
	}
	e.mustData(pathSandbox, tokSandboxProject, `mutation($id: String!) { cancelStandingOrder(input: {standingOrderId: $id}) {
	  __typename ... on CancelStandingOrderSuccessPayload { standingOrder { id label statusInfo { __typename status } } } } }`,
		map[string]any{"id": created.ID}, &canceled)
	so := canceled.C.StandingOrder
	if so.ID != created.ID || so.Label != "Rent" || so.StatusInfo.Status != "Canceled" || so.StatusInfo.Typename != "StandingOrderCanceledStatusInfo" {
		t.Errorf("cancelStandingOrder answered %+v", canceled.C)
	}
	var byID struct{ StandingOrder standingOrder }
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { standingOrder(standingOrderId: $id) { statusInfo { __typename status } } }`, map[string]any{"id": created.ID}, &byID)
	if byID.StandingOrder.StatusInfo.Status != "Canceled" {
		t.Errorf("read back, the order is %+v", byID.StandingOrder.StatusInfo)
	}

	acc := e.transferTarget()
	m := e.sandbox.LegalRepresentative(acc)
	var suspended struct {
		S struct {
			AccountMembership struct {
				ID, Email  string
				StatusInfo struct{ Status string }
			}
		} `json:"suspendAccountMembership"`
	}
	e.mustData(pathSandbox, tokSandboxProject, `mutation($id: ID!) { suspendAccountMembership(input: {accountMembershipId: $id}) {
	  ... on SuspendAccountMembershipSuccessPayload { accountMembership { id email statusInfo { status } } } } }`, map[string]any{"id": m.ID}, &suspended)
	got := suspended.S.AccountMembership
	if got.ID != m.ID || got.StatusInfo.Status != "Suspended" || got.Email != m.Email {
		t.Errorf("suspendAccountMembership answered %+v, want %s suspended with the model's email %q", got, m.ID, m.Email)
	}
	var read struct {
		AccountMembership struct {
			Email      string
			StatusInfo struct{ Status string }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { accountMembership(id: $id) { email statusInfo { status } } }`, map[string]any{"id": m.ID}, &read)
	if read.AccountMembership.StatusInfo.Status != "Suspended" || read.AccountMembership.Email != m.Email {
		t.Errorf("read back, the membership is %+v", read.AccountMembership)
	}
}

const testFixtures = `# What a partner's test needs: a refused account holder, a card that
# cannot be canceled.
[AccountHolder.holder-refused]
verificationStatus = "Refused"
info = { __typename = "AccountHolderCompanyInfo", name = "Refused SAS", type = "Company" }

[Mutation.cancelCard]
__typename = "CardNotFoundRejection"
message = "there is no card with this id"
`

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFixtures: a fixture's object is read by its id with the fields it
// sets, and a root field's fixture is its answer.
func TestFixtures(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"fixtures.toml": testFixtures,
		"fixtures.json": `{
  "AccountHolder": {"holder-refused": {"verificationStatus": "Refused", "info": {"__typename": "AccountHolderCompanyInfo", "name": "Refused SAS", "type": "Company"}}},
  "Mutation": {"cancelCard": {"__typename": "CardNotFoundRejection", "message": "there is no card with this id"}}
}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			opts := referenceOptions(t)
			opts.Fixtures = &Source{Path: writeFile(t, name, content)}
			e := newTestEnv(t, opts)
			var h struct {
				AccountHolder struct {
					ID, VerificationStatus string
					Info                   struct {
						Typename   string `json:"__typename"`
						Name, Type string
					}
					CreatedDate string
				}
			}
			e.mustData(pathSandbox, tokSandboxProject, `{ accountHolder(id: "holder-refused") { id verificationStatus info { __typename name type } createdDate } }`, nil, &h)
			ah := h.AccountHolder
			if ah.ID != "holder-refused" || ah.VerificationStatus != "Refused" || ah.Info.Name != "Refused SAS" || ah.Info.Typename != "AccountHolderCompanyInfo" || ah.CreatedDate == "" {
				t.Errorf("the fixture's holder reads %+v", ah)
			}
			var c struct {
				CancelCard struct {
					Typename string `json:"__typename"`
					Message  string
				}
			}
			e.mustData(pathSandbox, tokSandboxProject, `mutation { cancelCard(input: {cardId: "c1"}) { __typename ... on Rejection { message } } }`, nil, &c)
			if c.CancelCard.Typename != "CardNotFoundRejection" || c.CancelCard.Message != "there is no card with this id" {
				t.Errorf("cancelCard answered %+v, want the fixture's rejection", c.CancelCard)
			}
		})
	}
}

// TestGeneratedSimulationDeliversItsEvent: a Testing API simulation the
// model does not answer answers its success payload and delivers the
// event the docs name for it to a subscription, with its secret.
func TestGeneratedSimulationDeliversItsEvent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, referenceOptions(t))
	rc := hooktest.New(t, 200)
	if r := e.addSubscription(pathSandbox, rc.URL, "merchant-secret-1", "MerchantProfile.Updated"); r.Typename != "WebhookSubscriptionSuccessPayload" {
		t.Fatalf("addWebhookSubscription answered %+v", r)
	}
	var out struct {
		S struct {
			Typename        string `json:"__typename"`
			MerchantProfile struct {
				ID         string
				StatusInfo struct{ Status string }
			}
		} `json:"simulateMerchantProfileRequestOutcome"`
	}
	e.mustData(pathAdmin, tokSandboxUser0, `mutation { simulateMerchantProfileRequestOutcome(input: {merchantProfileId: "mp-1", merchantProfileStatus: Enabled}) {
	  __typename ... on SimulateMerchantProfileRequestOutcomeSuccessPayload { merchantProfile { id statusInfo { status } } } } }`, nil, &out)
	if out.S.Typename != "SimulateMerchantProfileRequestOutcomeSuccessPayload" || out.S.MerchantProfile.ID != "mp-1" || out.S.MerchantProfile.StatusInfo.Status != "Enabled" {
		t.Errorf("the simulation answered %+v", out.S)
	}
	req := rc.Next(t)
	p := req.Payload(t)
	if p["eventType"] != "MerchantProfile.Updated" || p["resourceId"] != "mp-1" || req.Header.Get("x-swan-secret") != "merchant-secret-1" {
		t.Errorf("delivered %v with secret %q", p, req.Header.Get("x-swan-secret"))
	}
}

// TestSameSeedSameGeneratedAnswers: two emulators with the same seed answer every
// root operation of the public schemas byte for byte the same.
func TestSameSeedSameGeneratedAnswers(t *testing.T) {
	t.Parallel()
	schemas, ops := referenceOperations(t)
	var runs [2][]byte
	for i := range runs {
		e := newTestEnv(t, referenceOptions(t))
		var all bytes.Buffer
		for _, op := range ops {
			_, r := runOperation(e, schemas[op.path], op, nil)
			all.WriteString(op.field.Name + " ")
			all.Write(r.Data)
			all.WriteByte('\n')
		}
		runs[i] = all.Bytes()
	}
	if !bytes.Equal(runs[0], runs[1]) {
		a, b := strings.Split(string(runs[0]), "\n"), strings.Split(string(runs[1]), "\n")
		for i := range a {
			if i < len(b) && a[i] != b[i] {
				t.Fatalf("the answers differ first at %.200s\nvs %.200s", a[i], b[i])
			}
		}
		t.Fatal("the answers differ")
	}
	if len(runs[0]) < 100_000 {
		t.Errorf("the answers are only %d bytes", len(runs[0]))
	}
}

// TestBadSchemaAndFixtures: a file that is not a schema, a schema without
// root types, fixtures naming an unknown type or field or giving a value
// of the wrong type: each refused at start with a message naming the file
// (and line).
func TestBadSchemaAndFixtures(t *testing.T) {
	t.Parallel()
	partner := referencePath(t, "partner-schema.graphql")
	for _, tc := range []struct {
		name     string
		schemas  []string // file contents; "" is the reference partner schema
		fixtures string
		want     []string
	}{
		{"not a schema", []string{"hello world"}, "", []string{"x0.graphql:1:1", "Unexpected Name", "SDL"}},
		{"JSON that is no introspection", []string{`{"data": {"user": 1}}`}, "", []string{"x0.graphql", "no __schema types"}},
		{"no root types", []string{"type Foo { id: ID }"}, "", []string{"x0.graphql", "neither a Query nor a Mutation"}},
		{"neither API", []string{"type Query { hello: String }"}, "", []string{"x0.graphql", "cannot tell whether it is the partner API or the Testing API"}},
		{"twice the partner API", []string{"", ""}, "", []string{"are both the partner API"}},
		{"fixtures of an unknown type", []string{""}, "[Nope.x]\na = 1\n", []string{"fixtures.toml:1: unknown type Nope"}},
		{"fixtures of an unknown field", []string{""}, "[AccountHolder.h]\n\nnope = 1\n", []string{"fixtures.toml:3: AccountHolder has no field nope"}},
		{"a value of the wrong type", []string{""}, "[AccountHolder.h]\nverificationStatus = \"Happy\"\ncreatedDate = 3\n", []string{
			"fixtures.toml:2: AccountHolder.h.verificationStatus must be one of the values of VerificationStatus",
			"fixtures.toml:3: AccountHolder.h.createdDate must be a string such as"}},
		{"an abstract value with no type", []string{""}, "[AccountHolder.h]\ninfo = { name = \"x\" }\n", []string{"fixtures.toml:2:", "say which of its types", "AccountHolderCompanyInfo"}},
		{"an unknown mutation", []string{""}, "[Mutation.nope]\nmessage = \"x\"\n", []string{"fixtures.toml:1: Mutation has no field nope"}},
		{"fixtures in JSON", []string{""}, "{\n  \"AccountHolder\": {\n    \"h\": {\n      \"nope\": 1\n    }\n  }\n}\n", []string{"fixtures.json:4: AccountHolder has no field nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var opts Options
			for i, content := range tc.schemas {
				if content == "" {
					opts.Schemas = append(opts.Schemas, Source{Path: partner})
					continue
				}
				opts.Schemas = append(opts.Schemas, Source{Path: "x" + string(rune('0'+i)) + ".graphql", Data: []byte(content)})
			}
			if tc.fixtures != "" {
				name := "fixtures.toml"
				if strings.HasPrefix(tc.fixtures, "{") {
					name = "fixtures.json"
				}
				opts.Fixtures = &Source{Path: name, Data: []byte(tc.fixtures)}
			}
			_, err := loadServed(opts)
			if err == nil || !errors.Is(err, ErrBadInput) || !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("got %v, want an ErrBadInput", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestIntrospectionJSONSchema: a schema given as an introspection answer
// serves as its SDL does.
func TestIntrospectionJSONSchema(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, referenceOptions(t))
	r := e.query(pathAdmin, "", introspectionQueryFull, nil)
	if r.Status != 200 || len(r.Errors) > 0 {
		t.Fatalf("introspection: %d %+v", r.Status, r.Errors)
	}
	answer, err := json.Marshal(map[string]json.RawMessage{"data": r.Data})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Accounts: 5, Schemas: []Source{{Path: "admin.json", Data: answer}}}
	e2 := newTestEnv(t, opts)
	var got introspected
	e2.mustData(pathAdmin, "", introspectionQueryFull, nil, &got)
	if diffs := compareSchema(got, referenceSchema(t, "partner-admin-schema.graphql")); len(diffs) > 0 {
		t.Errorf("%d differences:\n  %s", len(diffs), strings.Join(diffs, "\n  "))
	}
	var sim struct {
		SimulatePhysicalCardDelivery struct {
			Typename string `json:"__typename"`
		}
	}
	e2.mustData(pathAdmin, tokSandboxUser0, `mutation { simulatePhysicalCardDelivery(input: {cardId: "c1"}) { __typename } }`, nil, &sim)
	if sim.SimulatePhysicalCardDelivery.Typename == "" {
		t.Error("a generated operation of the JSON schema did not answer")
	}
}

// introspectionQueryFull is the standard introspection query, as clients
// send it to pull a schema, asking for deprecated arguments and input
// fields too (without includeDeprecated they are left out, and the
// schema rebuilt from the answer lacks them).
const introspectionQueryFull = `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`

// TestModelMismatchIsGenerated: where a brought schema types a modelled
// field differently, the mismatch is named at start and the field is
// generated as the schema says, while the model answers the rest.
func TestModelMismatchIsGenerated(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(referencePath(t, "partner-schema.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	at := strings.Index(text, "\ntype Account {")
	name := strings.Index(text[at:], "\n  name: String!")
	if at < 0 || name < 0 {
		t.Fatal("the reference has no Account.name: String!")
	}
	text = text[:at+name] + "\n  name: Int!" + text[at+name+len("\n  name: String!"):]
	opts := Options{Accounts: 5, Schemas: []Source{{Path: "changed.graphql", Data: []byte(text)}}}
	e := newTestEnv(t, opts)
	s, err := loadServed(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.mismatches["partner"]; len(got) != 1 || !strings.Contains(got[0], "Account.name: the schema's type is Int!, the model's String!") {
		t.Errorf("mismatches %q", got)
	}
	acc := e.sandbox.AllAccounts()[0]
	var out struct {
		Account struct {
			ID   string
			Name json.Number
			BIC  string
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { account(accountId: $id) { id name BIC } }`, map[string]any{"id": acc.ID}, &out)
	if out.Account.ID != acc.ID || out.Account.BIC != acc.BIC {
		t.Errorf("the model's fields: %+v, want %s %s", out.Account, acc.ID, acc.BIC)
	}
	if _, err := out.Account.Name.Int64(); err != nil {
		t.Errorf("name is %q, want a generated Int", out.Account.Name)
	}
}

// TestConcurrentMutationsAndReads: mutations the world answers and reads
// of what they created run at once without losing one (the race detector
// watches the store).
func TestConcurrentMutationsAndReads(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, referenceOptions(t))
	acc := e.sandbox.AllAccounts()[0].ID
	q := `query($id: ID!) { account(accountId: $id) { standingOrders(first: 100) { totalCount edges { node { id label } } } } }`
	var before struct {
		Account struct{ StandingOrders struct{ TotalCount int } }
	}
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc}, &before)
	const workers, each = 4, 5
	ids := make(chan string, workers*each)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range each {
				r := e.query(pathSandbox, tokSandboxProject, opSchedule, map[string]any{"input": map[string]any{
					"accountId": acc, "period": "Weekly", "label": fmt.Sprintf("w%d-%d", w, i), "consentRedirectUrl": "https://partner.example/done"}})
				var out struct {
					S struct{ StandingOrder struct{ ID string } } `json:"scheduleStandingOrder"`
				}
				if err := json.Unmarshal(r.Data, &out); err != nil || len(r.Errors) > 0 {
					t.Errorf("schedule: %v %+v", err, r.Errors)
					return
				}
				ids <- out.S.StandingOrder.ID
				e.query(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc})
			}
		}()
	}
	for range workers {
		<-done
	}
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("id %s given twice", id)
		}
		seen[id] = true
	}
	var after struct {
		Account struct {
			StandingOrders struct {
				TotalCount int
				Edges      []struct{ Node struct{ ID string } }
			}
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc}, &after)
	if got := after.Account.StandingOrders.TotalCount; got != before.Account.StandingOrders.TotalCount+workers*each || len(seen) != workers*each {
		t.Errorf("total %d, was %d, %d created", got, before.Account.StandingOrders.TotalCount, len(seen))
	}
	for _, ed := range after.Account.StandingOrders.Edges[:workers*each] {
		if !seen[ed.Node.ID] {
			t.Errorf("the list starts with %s, which no worker created", ed.Node.ID)
		}
	}
}
