package emulator

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/gql"
	"github.com/partnertui/partnertui/emulator/internal/hooktest"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// The operations a client sends for webhooks; TestWebhookOperationsAreValid
// checks each against the public schema.
const (
	opAddSubscription = `mutation AddSubscription($input: AddWebhookSubscriptionInput!) {
  addWebhookSubscription(input: $input) {
    __typename
    ... on WebhookSubscriptionSuccessPayload { webhookSubscription { ...Sub } }
    ... on Rejection { message }
    ... on InvalidArgumentRejection { code fields { name errors } }
    ... on SubscriptionLimitsRejection { subscriptionLimits { eventType subscriptionCount } }
  }
}
fragment Sub on WebhookSubscription {
  id label endpoint secret eventTypes createdAt updatedAt
  statusInfo { __typename status
    ... on WebhookSubscriptionEnabledStatusInfo { enabledAt }
    ... on WebhookSubscriptionDisabledStatusInfo { disabledAt }
    ... on WebhookSubscriptionBrokenStatusInfo { brokenAt } }
}`
	opUpdateSubscription = `mutation UpdateSubscription($input: UpdateWebhookSubscriptionInput!) {
  updateWebhookSubscription(input: $input) {
    __typename
    ... on WebhookSubscriptionSuccessPayload { webhookSubscription { id label status: statusInfo { status } } }
    ... on Rejection { message }
  }
}`
	opRemoveSubscription = `mutation RemoveSubscription($id: ID!) {
  removeWebhookSubscription(input: { webhookSubscriptionId: $id }) {
    __typename
    ... on RemoveWebhookSubscriptionSuccessPayload { subscriptionRemovedSuccessfully }
    ... on Rejection { message }
  }
}`
	opReplay = `mutation Replay($event: ID!, $subscription: ID) {
  replayWebhookEvent(input: { webhookEventId: $event, subscriptionId: $subscription }) {
    __typename
    ... on ReplayWebhookEventSuccessPayload { webhookEventLogEntryId endpointStatus }
    ... on Rejection { message }
  }
}`
	opEventLogs = `query EventLogs($first: Int!, $after: String, $filters: WebhookEventLogFiltersInput) {
  webhookEventLogs(first: $first, after: $after, filters: $filters) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node {
      id createdAt eventId eventDate eventType resourceId duration requestPayload responsePayload
      statusCode statusText retryCount webhookSubscriptionLabel webhookSubscriptionEndpoint
      webhookSubscription { id }
    } }
  }
}`
	opEventLog      = `query EventLog($id: ID!) { webhookEventLog(id: $id) { id eventId statusCode statusText retryCount } }`
	opSubscriptions = `query Subscriptions($first: Int!, $after: String) {
  webhookSubscriptions(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node {
      id label
      kpi { totalHits errorRate }
      failures: webhookEventLogs(first: 10, filters: { statusText: Failure }) { totalCount edges { node { retryCount } } }
    } }
  }
}`
	opSubscription = `query Subscription($id: ID!) { webhookSubscription(id: $id) { id label } }`
	opEventTypes   = `query EventTypes { webhookEventTypes }`
	opSimulate     = `mutation Simulate($input: IncomingSepaCreditTransferInput!) {
  simulateIncomingSepaCreditTransferReception(input: $input) {
    __typename
    ... on SimulateIncomingSepaCreditTransferReceptionSuccessPayload { transactionId }
    ... on Rejection { message }
  }
}`
	opCreateUser = `mutation CreateUser($input: CreateSandboxUserInput!) {
  createSandboxUser(input: $input) {
    __typename
    ... on CreateSandboxUserSuccessPayload { sandboxUser { id } }
    ... on Rejection { message }
  }
}`
	opTransaction = `query Transaction($id: ID!) {
  account(accountId: $id) {
    balances { available { value } booked { value } pending { value } }
    transactions(first: 1) { edges { node { id statusInfo { status } } } }
  }
}`
)

// waitHubLogs waits, without polling, until the hub has n entries
// matching f.
func waitHubLogs(t *testing.T, hub *webhooks.Hub, f webhooks.LogFilter, n int) {
	t.Helper()
	guard := time.NewTimer(10 * time.Second)
	defer guard.Stop()
	for {
		changed := hub.Recorded()
		if p, err := hub.Logs(f, 1, ""); err != nil || p.TotalCount >= n {
			return
		}
		select {
		case <-changed:
		case <-guard.C:
			t.Fatalf("fewer than %d webhook log entries after 10s", n)
		}
	}
}

type payloadResult struct {
	Typename           string `json:"__typename"`
	Message            string
	Code               string
	Fields             []struct{ Name string }
	SubscriptionLimits []struct {
		EventType         string
		SubscriptionCount int
	}
	WebhookSubscription struct {
		ID, Label, Endpoint string
		Secret              *string
		EventTypes          []string
		StatusInfo          struct {
			Typename  string `json:"__typename"`
			Status    string
			EnabledAt string
		}
	}
	SubscriptionRemovedSuccessfully bool
	WebhookEventLogEntryID          string
	EndpointStatus                  *int
}

// mutate runs one webhook mutation and returns its payload.
func (e *testEnv) mutate(path, token, op, field string, vars map[string]any) payloadResult {
	e.t.Helper()
	var out map[string]payloadResult
	e.mustData(path, token, op, vars, &out)
	return out[field]
}

func (e *testEnv) addSubscription(path, endpoint, secret string, types ...string) payloadResult {
	e.t.Helper()
	in := map[string]any{"label": "test " + endpoint, "endpoint": endpoint, "eventTypes": types, "status": "Enabled"}
	if secret != "" {
		in["secret"] = secret
	}
	tok := tokSandboxProject
	if path == pathLive {
		tok = tokLiveProject
	}
	return e.mutate(path, tok, opAddSubscription, "addWebhookSubscription", map[string]any{"input": in})
}

// transferTarget is an open EUR account of the first demo user.
func (e *testEnv) transferTarget() *data.Account {
	e.t.Helper()
	users := e.sandbox.DemoUsers()
	for _, a := range e.sandbox.AllAccounts() {
		if _, ok := e.sandbox.Account(dataViewer(users[0].ID), a.ID); ok && a.Currency == "EUR" && a.Status == "Opened" {
			return a
		}
	}
	e.t.Fatal("no open EUR account for the first demo user")
	return nil
}

func (e *testEnv) simulate(iban string) string {
	e.t.Helper()
	in := map[string]any{"amount": map[string]any{"value": "42.00", "currency": "EUR"}, "creditorIban": iban, "creditorName": "Camille Martin",
		"debtorIban": "FR2730003000706315734174B93", "debtorName": "Acme SAS"}
	var out struct {
		Simulate struct {
			Typename      string `json:"__typename"`
			TransactionID string
		} `json:"simulateIncomingSepaCreditTransferReception"`
	}
	e.mustData(pathAdmin, tokSandboxUser0, opSimulate, map[string]any{"input": in}, &out)
	if out.Simulate.TransactionID == "" {
		e.t.Fatalf("simulate: %+v", out.Simulate)
	}
	return out.Simulate.TransactionID
}

type txState struct {
	Account struct {
		Balances struct {
			Available, Booked, Pending struct{ Value string }
		}
		Transactions struct {
			Edges []struct {
				Node struct {
					ID         string
					StatusInfo struct{ Status string }
				}
			}
		}
	}
}

func TestWebhookSimulatedTransferIsDelivered(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60})
	rc := hooktest.New(t, http.StatusOK)
	sub := e.addSubscription(pathSandbox, rc.URL, "0f6a1c2e-secret", "Transaction.Pending", "Transaction.Booked", "Account.Updated")
	if sub.Typename != "WebhookSubscriptionSuccessPayload" || sub.WebhookSubscription.Secret == nil ||
		sub.WebhookSubscription.StatusInfo.Typename != "WebhookSubscriptionEnabledStatusInfo" || sub.WebhookSubscription.StatusInfo.EnabledAt == "" {
		t.Fatalf("add: %+v", sub)
	}
	acc := e.transferTarget()
	txID := e.simulate(acc.IBAN)

	got := map[string]string{}
	for range 3 {
		r := rc.Next(t)
		p := r.Payload(t)
		if r.Header.Get("x-swan-secret") != "0f6a1c2e-secret" || p["projectId"] != e.sandbox.Project().ID || p["eventId"] == "" {
			t.Errorf("delivery %s %s", r.Header, r.Body)
		}
		got[p["eventType"]] = p["resourceId"]
	}
	want := map[string]string{"Transaction.Pending": txID, "Transaction.Booked": txID, "Account.Updated": acc.ID}
	if len(got) != 3 || got["Transaction.Pending"] != txID || got["Transaction.Booked"] != txID || got["Account.Updated"] != acc.ID {
		t.Fatalf("deliveries %v, want %v", got, want)
	}
	// With no booking delay the mutation answered after the booking.
	var st txState
	e.mustData(pathSandbox, tokSandboxUser0, opTransaction, map[string]any{"id": acc.ID}, &st)
	if n := st.Account.Transactions.Edges[0].Node; n.ID != txID || n.StatusInfo.Status != "Booked" {
		t.Fatalf("newest transaction %+v, want %s Booked", n, txID)
	}
	// Nothing else subscribed, so nothing else was sent.
	waitHubLogs(t, e.events.sandbox.Hub(), webhooks.LogFilter{}, 3)
	e.events.close()
	if n := rc.Count.Load(); n != 3 {
		t.Fatalf("%d deliveries, want 3", n)
	}
}

// The transfer stays Pending, with only its Transaction.Pending event,
// until the booking delay has passed.
func TestWebhookBookingDelay(t *testing.T) {
	t.Parallel()
	for name, delay := range map[string]time.Duration{"held": time.Hour, "short": time.Millisecond} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t, Options{Accounts: 60, BookingDelay: delay})
			rc := hooktest.New(t, http.StatusOK)
			e.addSubscription(pathSandbox, rc.URL, "", "Transaction.Pending", "Transaction.Booked", "Account.Updated")
			acc := e.transferTarget()
			var before, after txState
			e.mustData(pathSandbox, tokSandboxUser0, opTransaction, map[string]any{"id": acc.ID}, &before)
			txID := e.simulate(acc.IBAN)
			hub := e.events.sandbox.Hub()
			if delay == time.Hour {
				if p := rc.Next(t).Payload(t); p["eventType"] != "Transaction.Pending" {
					t.Fatalf("delivery %v, want Transaction.Pending", p)
				}
				e.mustData(pathSandbox, tokSandboxUser0, opTransaction, map[string]any{"id": acc.ID}, &after)
				if n := after.Account.Transactions.Edges[0].Node; n.ID != txID || n.StatusInfo.Status != "Pending" ||
					after.Account.Balances.Booked != before.Account.Balances.Booked ||
					cents(t, after.Account.Balances.Pending.Value)-cents(t, before.Account.Balances.Pending.Value) != 4200 ||
					cents(t, after.Account.Balances.Available.Value)-cents(t, before.Account.Balances.Available.Value) != 4200 {
					t.Fatalf("while pending: %+v, before %+v", after, before)
				}
				waitHubLogs(t, hub, webhooks.LogFilter{}, 1)
				e.events.close() // drops the pending booking
				if n := rc.Count.Load(); n != 1 {
					t.Fatalf("%d deliveries before the booking, want 1", n)
				}
				return
			}
			// Deliveries are unordered, like the platform's: all three come.
			var types []string
			for range 3 {
				types = append(types, rc.Next(t).Payload(t)["eventType"])
			}
			slices.Sort(types)
			if !slices.Equal(types, []string{"Account.Updated", "Transaction.Booked", "Transaction.Pending"}) {
				t.Fatalf("deliveries %v", types)
			}
			waitHubLogs(t, hub, webhooks.LogFilter{EventType: "Account.Updated"}, 1)
			e.mustData(pathSandbox, tokSandboxUser0, opTransaction, map[string]any{"id": acc.ID}, &after)
			if n := after.Account.Transactions.Edges[0].Node; n.ID != txID || n.StatusInfo.Status != "Booked" ||
				cents(t, after.Account.Balances.Booked.Value)-cents(t, before.Account.Balances.Booked.Value) != 4200 {
				t.Fatalf("after the booking: %+v", after)
			}
		})
	}
}

type logsResult struct {
	Logs struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage, HasPreviousPage bool
			EndCursor                    string
		}
		Edges []struct {
			Cursor string
			Node   struct {
				ID, EventID, EventType, ResourceID, RequestPayload, StatusText string
				WebhookSubscriptionEndpoint                                    string
				ResponsePayload                                                *string
				StatusCode, RetryCount                                         *int
				Duration                                                       int
				WebhookSubscription                                            *struct{ ID string }
			}
		}
	} `json:"webhookEventLogs"`
}

// A failing endpoint is retried up to the maximum; every attempt is in the
// log, the KPI counts them, and a replay delivers again once it recovers.
func TestWebhookRetriesLogAndReplay(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 20, WebhookRetryInterval: time.Millisecond})
	rc := hooktest.New(t, http.StatusInternalServerError)
	sub := e.addSubscription(pathSandbox, rc.URL, "", "User.Joined")
	var created struct {
		CreateSandboxUser struct{ SandboxUser struct{ ID string } }
	}
	e.mustData(pathAdmin, tokSandboxUser0, opCreateUser, map[string]any{"input": map[string]any{
		"firstName": "Ada", "lastName": "Lovelace", "birthDate": "1990-12-10", "nationalityCCA3": "GBR", "autoConsent": true}}, &created)
	userID := created.CreateSandboxUser.SandboxUser.ID
	attempts := 1 + webhooks.DefaultMaxRetries
	waitHubLogs(t, e.events.sandbox.Hub(), webhooks.LogFilter{}, attempts)

	var logs logsResult
	e.mustData(pathSandbox, tokSandboxProject, opEventLogs, map[string]any{"first": 100, "filters": map[string]any{"eventType": "User.Joined", "statusText": "Failure"}}, &logs)
	if logs.Logs.TotalCount != attempts || len(logs.Logs.Edges) != attempts {
		t.Fatalf("%d entries, want %d", logs.Logs.TotalCount, attempts)
	}
	eventID := logs.Logs.Edges[0].Node.EventID
	for i, edge := range logs.Logs.Edges {
		n := edge.Node
		if n.StatusCode == nil || *n.StatusCode != 500 || n.StatusText != "Failure" || n.RetryCount == nil || *n.RetryCount != attempts-1-i ||
			n.EventID != eventID || n.ResourceID != userID || n.WebhookSubscription == nil || n.WebhookSubscription.ID != sub.WebhookSubscription.ID ||
			!strings.Contains(n.RequestPayload, `"eventType":"User.Joined"`) {
			t.Errorf("entry %d: %+v", i, n)
		}
	}

	var subs struct {
		Subs struct {
			TotalCount int
			Edges      []struct {
				Node struct {
					Kpi struct {
						TotalHits int
						ErrorRate float64
					}
					Failures struct{ TotalCount int }
				}
			}
		} `json:"webhookSubscriptions"`
	}
	e.mustData(pathSandbox, tokSandboxProject, opSubscriptions, map[string]any{"first": 10}, &subs)
	if n := subs.Subs.Edges[0].Node; subs.Subs.TotalCount != 1 || n.Kpi.TotalHits != attempts || n.Kpi.ErrorRate != 100 || n.Failures.TotalCount != attempts {
		t.Fatalf("subscriptions %+v", subs.Subs)
	}

	rc.Status.Store(http.StatusOK)
	replay := e.mutate(pathSandbox, tokSandboxProject, opReplay, "replayWebhookEvent", map[string]any{"event": eventID})
	if replay.Typename != "ReplayWebhookEventSuccessPayload" || replay.EndpointStatus == nil || *replay.EndpointStatus != 200 {
		t.Fatalf("replay: %+v", replay)
	}
	var entry struct {
		Log *struct {
			ID, EventID, StatusText string
			StatusCode, RetryCount  *int
		} `json:"webhookEventLog"`
	}
	e.mustData(pathSandbox, tokSandboxProject, opEventLog, map[string]any{"id": replay.WebhookEventLogEntryID}, &entry)
	if entry.Log == nil || entry.Log.EventID != eventID || entry.Log.StatusText != "Success" || entry.Log.RetryCount != nil {
		t.Fatalf("replay entry %+v", entry.Log)
	}
	for name, vars := range map[string]map[string]any{
		"WebhookEventLogNotFoundRejection":     {"event": "00000000-0000-4000-8000-000000000000"},
		"WebhookSubscriptionNotFoundRejection": {"event": eventID, "subscription": "00000000-0000-4000-8000-000000000000"},
	} {
		if r := e.mutate(pathSandbox, tokSandboxProject, opReplay, "replayWebhookEvent", vars); r.Typename != name || r.Message == "" {
			t.Errorf("replay %v: %+v, want %s", vars, r, name)
		}
	}
	var missing struct {
		Log *struct{ ID string } `json:"webhookEventLog"`
	}
	e.mustData(pathSandbox, tokSandboxProject, opEventLog, map[string]any{"id": "nope"}, &missing)
	if missing.Log != nil {
		t.Errorf("unknown log entry: %+v", missing.Log)
	}
}

// The flow of `partnertui listen --create`: a placeholder endpoint that can
// never be reached, and the event log read newest first, filtered and paged.
func TestWebhookListenFlowWithPlaceholderEndpoint(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60, WebhookMaxRetries: -1})
	sub := e.addSubscription(pathSandbox, "https://partnertui.invalid/listen", "", "Transaction.Pending", "Transaction.Booked", "Account.Updated")
	acc := e.transferTarget()
	var txIDs []string
	for range 3 {
		txIDs = append(txIDs, e.simulate(acc.IBAN))
	}
	waitHubLogs(t, e.events.sandbox.Hub(), webhooks.LogFilter{}, 9)

	var seen []string
	var after any
	for page := 0; ; page++ {
		var logs logsResult
		e.mustData(pathSandbox, tokSandboxProject, opEventLogs, map[string]any{"first": 4, "after": after,
			"filters": map[string]any{"webhookSubscriptionId": sub.WebhookSubscription.ID, "startDate": "2026-11-22T00:00:00.000Z"}}, &logs)
		if logs.Logs.TotalCount != 9 || logs.Logs.PageInfo.HasPreviousPage != (page > 0) {
			t.Fatalf("page %d: %+v", page, logs.Logs.PageInfo)
		}
		for _, edge := range logs.Logs.Edges {
			n := edge.Node
			if n.StatusCode != nil || n.StatusText != "Failure" || n.ResponsePayload == nil || n.WebhookSubscriptionEndpoint != "https://partnertui.invalid/listen" {
				t.Errorf("entry %+v", n)
			}
			var p map[string]string
			if err := json.Unmarshal([]byte(n.RequestPayload), &p); err != nil || p["eventId"] != n.EventID || p["eventType"] != n.EventType {
				t.Errorf("requestPayload %q: %v", n.RequestPayload, err)
			}
			seen = append(seen, n.EventID)
		}
		if !logs.Logs.PageInfo.HasNextPage {
			break
		}
		after = logs.Logs.PageInfo.EndCursor
	}
	sorted := slices.Clone(seen)
	slices.Sort(sorted)
	if len(seen) != 9 || len(slices.Compact(sorted)) != 9 {
		t.Fatalf("paged %d entries with %d distinct events, want 9 and 9", len(seen), len(sorted))
	}
	// Later than every entry: nothing.
	var none logsResult
	e.mustData(pathSandbox, tokSandboxProject, opEventLogs, map[string]any{"first": 4, "filters": map[string]any{"startDate": "2027-01-01T00:00:00Z"}}, &none)
	if none.Logs.TotalCount != 0 {
		t.Errorf("startDate in the future: %d entries", none.Logs.TotalCount)
	}
	// Removing the subscription keeps its log; the entries lose their link.
	if r := e.mutate(pathSandbox, tokSandboxProject, opRemoveSubscription, "removeWebhookSubscription", map[string]any{"id": sub.WebhookSubscription.ID}); !r.SubscriptionRemovedSuccessfully {
		t.Fatalf("remove: %+v", r)
	}
	var kept logsResult
	e.mustData(pathSandbox, tokSandboxProject, opEventLogs, map[string]any{"first": 1, "filters": map[string]any{"resourceId": txIDs[0]}}, &kept)
	if kept.Logs.TotalCount != 2 || kept.Logs.Edges[0].Node.WebhookSubscription != nil {
		t.Fatalf("after removal: %+v", kept.Logs)
	}
}

func TestWebhookRejectionsAndAccess(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5})
	// Webhooks belong to the project: a user token gets an error.
	r := e.query(pathSandbox, tokSandboxUser0, opSubscriptions, map[string]any{"first": 5})
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "project access token") {
		t.Fatalf("user token: %+v", r.Errors)
	}
	// Event types are served on both environments, to any token.
	for path, tok := range map[string]string{pathSandbox: tokSandboxUser0, pathLive: tokLiveProject} {
		var types struct{ WebhookEventTypes []string }
		e.mustData(path, tok, opEventTypes, nil, &types)
		if !slices.Contains(types.WebhookEventTypes, "Transaction.Booked") || !slices.Contains(types.WebhookEventTypes, "Account.Updated") {
			t.Errorf("%s event types %v", path, types.WebhookEventTypes)
		}
	}

	bad := e.mutate(pathSandbox, tokSandboxProject, opAddSubscription, "addWebhookSubscription", map[string]any{"input": map[string]any{
		"label": "", "endpoint": "not a url", "secret": strings.Repeat("x", 40), "eventTypes": []string{"Nope.Never"}, "status": "Enabled"}})
	var names []string
	for _, f := range bad.Fields {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if bad.Typename != "InvalidArgumentRejection" || bad.Code != "INVALID_INPUT" || !slices.Equal(names, []string{"endpoint", "eventTypes", "label", "secret"}) {
		t.Fatalf("invalid input: %+v", bad)
	}

	// Sandbox: ten enabled subscriptions per event type; Live: five.
	for path, limit := range map[string]int{pathSandbox: webhooks.SandboxSubscriptionLimit, pathLive: webhooks.LiveSubscriptionLimit} {
		for range limit {
			if r := e.addSubscription(path, "https://example.com/hook", "", "Account.Updated"); r.Typename != "WebhookSubscriptionSuccessPayload" {
				t.Fatalf("%s: %+v", path, r)
			}
		}
		r := e.addSubscription(path, "https://example.com/hook", "", "Card.Created", "Account.Updated")
		if r.Typename != "SubscriptionLimitsRejection" || len(r.SubscriptionLimits) != 1 ||
			r.SubscriptionLimits[0].EventType != "Account.Updated" || r.SubscriptionLimits[0].SubscriptionCount != limit {
			t.Errorf("%s past the limit: %+v", path, r)
		}
	}

	unknown := "00000000-0000-4000-8000-000000000000"
	upd := e.mutate(pathSandbox, tokSandboxProject, opUpdateSubscription, "updateWebhookSubscription", map[string]any{"input": map[string]any{
		"id": unknown, "label": "x", "endpoint": "https://example.com", "eventTypes": []string{"Card.Created"}, "status": "Disabled"}})
	if upd.Typename != "WebhookSubscriptionNotFoundRejection" || upd.Message == "" {
		t.Errorf("update unknown: %+v", upd)
	}
	if rm := e.mutate(pathSandbox, tokSandboxProject, opRemoveSubscription, "removeWebhookSubscription", map[string]any{"id": unknown}); rm.Typename != "WebhookSubscriptionNotFoundRejection" {
		t.Errorf("remove unknown: %+v", rm)
	}
	var one struct {
		Sub *struct{ ID string } `json:"webhookSubscription"`
	}
	e.mustData(pathSandbox, tokSandboxProject, opSubscription, map[string]any{"id": unknown}, &one)
	if one.Sub != nil {
		t.Errorf("unknown subscription: %+v", one.Sub)
	}
	// The environments are separate: Live lists its own five.
	var subs struct {
		Subs struct{ TotalCount int } `json:"webhookSubscriptions"`
	}
	e.mustData(pathLive, tokLiveProject, opSubscriptions, map[string]any{"first": 2}, &subs)
	if subs.Subs.TotalCount != webhooks.LiveSubscriptionLimit {
		t.Errorf("live has %d subscriptions", subs.Subs.TotalCount)
	}
	for name, vars := range map[string]map[string]any{
		"bad cursor": {"first": 5, "after": "garbage"},
		"bad date":   {"first": 5, "filters": map[string]any{"endDate": "yesterday"}},
		"first":      {"first": 101},
	} {
		if r := e.query(pathSandbox, tokSandboxProject, opEventLogs, vars); len(r.Errors) == 0 {
			t.Errorf("%s: no error", name)
		}
	}
}

// Every webhook operation above is valid against the public schema, and
// every type webhooks.graphql defines is served exactly as the public schema has
// it: fields, arguments, defaults, nullability, interfaces, members.
func TestWebhookOperationsAndTypesMatchThePublicSchema(t *testing.T) {
	t.Parallel()
	partner := loadPublicSchema(t, "partner-schema.graphql")
	admin := loadPublicSchema(t, "partner-admin-schema.graphql")
	for _, op := range []string{opAddSubscription, opUpdateSubscription, opRemoveSubscription, opReplay, opEventLogs, opEventLog, opSubscriptions, opSubscription, opEventTypes, opTransaction} {
		if _, errs := gqlparser.LoadQueryWithRules(partner, op, nil); len(errs) > 0 {
			t.Errorf("not valid against the partner schema: %v\n%s", errs, op)
		}
	}
	for _, op := range []string{opSimulate, opCreateUser} {
		if _, errs := gqlparser.LoadQueryWithRules(admin, op, nil); len(errs) > 0 {
			t.Errorf("not valid against the admin schema: %v\n%s", errs, op)
		}
	}

	src, err := os.ReadFile(filepath.Join("internal", "gql", "schema", "partner", "webhooks.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := parser.ParseSchema(&ast.Source{Input: string(src)})
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, Options{Accounts: 5})
	served := introspect(t, e)
	var defs []*ast.Definition
	defs = append(defs, own.Definitions...)
	defs = append(defs, own.Extensions...)
	for _, d := range defs {
		pub := partner.Types[d.Name]
		got, ok := served[d.Name]
		if pub == nil || !ok {
			t.Errorf("%s: public %t, served %t", d.Name, pub != nil, ok)
			continue
		}
		want := describe(pub)
		for _, f := range d.Fields { // own fields only: Query and Mutation have others
			if got[f.Name] != want[f.Name] {
				t.Errorf("%s.%s: served %q, public %q", d.Name, f.Name, got[f.Name], want[f.Name])
			}
		}
		for _, k := range []string{"kind", "interfaces", "members", "values"} {
			if got[k] != want[k] {
				t.Errorf("%s %s: served %q, public %q", d.Name, k, got[k], want[k])
			}
		}
		if d.Kind != ast.Object || (d.Name != "Query" && d.Name != "Mutation") {
			if len(got) != len(want) {
				t.Errorf("%s: served %v, public %v", d.Name, got, want)
			}
		}
	}
}

var publicSchemas sync.Map // file name → *ast.Schema; the partner schema takes a while to load

func loadPublicSchema(t *testing.T, name string) *ast.Schema {
	t.Helper()
	if s, ok := publicSchemas.Load(name); ok {
		return s.(*ast.Schema)
	}
	s := referenceSchema(t, name)
	publicSchemas.Store(name, s)
	return s
}

// describe flattens a public type into comparable strings: one per field
// or input field (type and arguments with defaults), and its kind,
// interfaces, union members and enum values.
func describe(d *ast.Definition) map[string]string {
	out := map[string]string{"kind": string(d.Kind)}
	for _, f := range d.Fields {
		sig := f.Type.String()
		for _, a := range f.Arguments {
			sig += " " + a.Name + ":" + a.Type.String()
			if a.DefaultValue != nil {
				sig += "=" + a.DefaultValue.String()
			}
		}
		if f.DefaultValue != nil {
			sig += "=" + f.DefaultValue.String()
		}
		out[f.Name] = sig
	}
	ifaces := slices.Clone(d.Interfaces)
	slices.Sort(ifaces)
	members := slices.Clone(d.Types)
	slices.Sort(members)
	var values []string
	for _, v := range d.EnumValues {
		values = append(values, v.Name)
	}
	slices.Sort(values)
	out["interfaces"] = strings.Join(ifaces, ",")
	out["members"] = strings.Join(members, ",")
	out["values"] = strings.Join(values, ",")
	return out
}

// introspect reads the served partner schema in the same flattened form.
func introspect(t *testing.T, e *testEnv) map[string]map[string]string {
	t.Helper()
	const q = `query { __schema { types { kind name
  fields(includeDeprecated: true) { name type { ...T } args { name type { ...T } defaultValue } }
  inputFields { name type { ...T } defaultValue }
  interfaces { name } possibleTypes { name } enumValues(includeDeprecated: true) { name } } } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`
	type typeRef struct {
		Kind   string
		Name   *string
		OfType *typeRef
	}
	type value struct {
		Name         string
		Type         typeRef
		DefaultValue *string
		Args         []value
	}
	var out struct {
		Schema struct {
			Types []struct {
				Kind, Name                string
				Fields, InputFields       []value
				Interfaces, PossibleTypes []struct{ Name string }
				EnumValues                []struct{ Name string }
			}
		} `json:"__schema"`
	}
	e.mustData(pathSandbox, tokSandboxProject, q, nil, &out)
	var typeString func(r typeRef) string
	typeString = func(r typeRef) string {
		switch r.Kind {
		case "NON_NULL":
			return typeString(*r.OfType) + "!"
		case "LIST":
			return "[" + typeString(*r.OfType) + "]"
		}
		return *r.Name
	}
	kinds := map[string]string{"OBJECT": "OBJECT", "INTERFACE": "INTERFACE", "UNION": "UNION", "ENUM": "ENUM", "INPUT_OBJECT": "INPUT_OBJECT", "SCALAR": "SCALAR"}
	res := map[string]map[string]string{}
	for _, ty := range out.Schema.Types {
		m := map[string]string{"kind": kinds[ty.Kind]}
		for _, f := range append(ty.Fields, ty.InputFields...) {
			sig := typeString(f.Type)
			for _, a := range f.Args {
				sig += " " + a.Name + ":" + typeString(a.Type)
				if a.DefaultValue != nil {
					sig += "=" + *a.DefaultValue
				}
			}
			if f.DefaultValue != nil {
				sig += "=" + *f.DefaultValue
			}
			m[f.Name] = sig
		}
		var ifaces, members, values []string
		for _, i := range ty.Interfaces {
			ifaces = append(ifaces, i.Name)
		}
		if ty.Kind == "UNION" {
			for _, p := range ty.PossibleTypes {
				members = append(members, p.Name)
			}
		}
		for _, v := range ty.EnumValues {
			values = append(values, v.Name)
		}
		slices.Sort(ifaces)
		slices.Sort(members)
		slices.Sort(values)
		m["interfaces"] = strings.Join(ifaces, ",")
		m["members"] = strings.Join(members, ",")
		m["values"] = strings.Join(values, ",")
		res[ty.Name] = m
	}
	return res
}

// A subscription's secret sent as a variable is not written to the
// request log.
func TestWebhookSecretStaysOutOfTheRequestLog(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5})
	const secret = "9b3f2a1e-do-not-log"
	if r := e.addSubscription(pathSandbox, "https://example.com/hook", secret, "User.Joined"); r.Typename != "WebhookSubscriptionSuccessPayload" {
		t.Fatalf("add: %+v", r)
	}
	e.logMu.Lock()
	raw := e.log.String()
	e.logMu.Unlock()
	if strings.Contains(raw, secret) || !strings.Contains(raw, `"secret":"[redacted]"`) || !strings.Contains(raw, `"label":"test https://example.com/hook"`) {
		t.Fatalf("request log:\n%s", raw)
	}
}

// TestDemoSubscriptionFillsTheLog: with DemoSubscription each environment
// starts with one enabled subscription to every event type, so what happens
// in the emulator is logged (what partnertui --demo shows).
func TestDemoSubscriptionFillsTheLog(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 30, WebhookMaxRetries: -1, DemoSubscription: true})
	for _, ev := range []*gql.Events{e.events.sandbox, e.events.live} {
		page, err := ev.Hub().Subscriptions(10, "")
		if err != nil || len(page.Subscriptions) != 1 {
			t.Fatalf("subscriptions = %+v, %v", page, err)
		}
		s := page.Subscriptions[0]
		if s.Endpoint != DemoWebhookEndpoint || s.Status != webhooks.StatusEnabled || len(s.EventTypes) != len(webhooks.EventTypes()) {
			t.Errorf("demo subscription = %+v", s)
		}
	}
	e.simulate(e.transferTarget().IBAN)
	waitHubLogs(t, e.events.sandbox.Hub(), webhooks.LogFilter{}, 3)
}
