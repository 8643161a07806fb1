package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// generatedKinds are the concrete Transaction types the emulator makes.
var generatedKinds = []string{data.KindSEPACreditTransfer, data.KindSEPADirectDebit, data.KindCard,
	data.KindOnlineCard, data.KindInPersonCard, data.KindInternalCredit, data.KindFee}

const accountsPageQuery = `query Page($first: Int!, $after: String, $filters: AccountFilterInput, $orderBy: AccountOrderByInput) {
  accounts(first: $first, after: $after, filters: $filters, orderBy: $orderBy) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id name IBAN createdAt updatedAt paymentLevel statusInfo { status } holder { info { name } } } }
  }
}`

type accountsData struct {
	Accounts struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage, HasPreviousPage bool
			StartCursor, EndCursor       *string
		}
		Edges []struct {
			Cursor string
			Node   struct {
				ID, Name, IBAN, CreatedAt, UpdatedAt, PaymentLevel string
				StatusInfo                                         struct{ Status string }
				Holder                                             struct{ Info struct{ Name string } }
			}
		}
	}
}

// walk pages through the whole connection and returns the ids in order.
func walk(t *testing.T, e *testEnv, path, token string, first int, extra map[string]any) ([]string, int) {
	t.Helper()
	var ids []string
	vars := map[string]any{"first": first}
	for k, v := range extra {
		vars[k] = v
	}
	total := -1
	for page := 0; ; page++ {
		var d accountsData
		e.mustData(path, token, accountsPageQuery, vars, &d)
		if total >= 0 && d.Accounts.TotalCount != total {
			t.Fatalf("totalCount changed between pages: %d then %d", total, d.Accounts.TotalCount)
		}
		total = d.Accounts.TotalCount
		if page > 0 && !d.Accounts.PageInfo.HasPreviousPage {
			t.Fatalf("page %d has no previous page", page)
		}
		if len(d.Accounts.Edges) > first {
			t.Fatalf("page of %d edges for first=%d", len(d.Accounts.Edges), first)
		}
		for _, ed := range d.Accounts.Edges {
			ids = append(ids, ed.Node.ID)
		}
		if n := len(d.Accounts.Edges); n > 0 && *d.Accounts.PageInfo.EndCursor != d.Accounts.Edges[n-1].Cursor {
			t.Fatal("endCursor is not the last edge's cursor")
		}
		if !d.Accounts.PageInfo.HasNextPage {
			break
		}
		vars["after"] = *d.Accounts.PageInfo.EndCursor
		if page > 1000 {
			t.Fatal("pagination does not end")
		}
	}
	return ids, total
}

func noDuplicates(t *testing.T, ids []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("account %s appears twice", id)
		}
		seen[id] = true
	}
}

func TestAccountsPaginationWalksAllPages(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 257})
	for _, tc := range []struct {
		name, token string
		first       int
		orderBy     map[string]any
	}{
		{"project default order", tokSandboxProject, 100, nil},
		{"project updatedAt desc", tokSandboxProject, 37, map[string]any{"field": "updatedAt", "direction": "Desc"}},
		{"user createdAt desc", tokSandboxUser0, 50, map[string]any{"field": "createdAt", "direction": "Desc"}},
		{"user with few accounts", tokSandboxUser1, 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			extra := map[string]any{}
			if tc.orderBy != nil {
				extra["orderBy"] = tc.orderBy
			}
			ids, total := walk(t, e, pathSandbox, tc.token, tc.first, extra)
			noDuplicates(t, ids)
			if len(ids) != total {
				t.Fatalf("walked %d accounts, totalCount is %d", len(ids), total)
			}
			if tc.token == tokSandboxProject && total != 257 {
				t.Fatalf("a project token must see all 257 accounts, totalCount %d", total)
			}
			if tc.token != tokSandboxProject && (total == 0 || total >= 257) {
				t.Fatalf("a user token must see only their accounts, totalCount %d", total)
			}
		})
	}
}

func TestAccountsOrder(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 80})
	for _, dir := range []string{"Asc", "Desc"} {
		var d accountsData
		e.mustData(pathSandbox, tokSandboxProject, accountsPageQuery, map[string]any{"first": 100, "orderBy": map[string]any{"field": "updatedAt", "direction": dir}}, &d)
		for i := 1; i < len(d.Accounts.Edges); i++ {
			a, b := d.Accounts.Edges[i-1].Node.UpdatedAt, d.Accounts.Edges[i].Node.UpdatedAt
			if (dir == "Asc" && b < a) || (dir == "Desc" && b > a) {
				t.Fatalf("%s order broken at %d: %s then %s", dir, i, a, b)
			}
		}
	}
}

func TestAccountsFilters(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 400})
	var d accountsData
	e.mustData(pathSandbox, tokSandboxProject, accountsPageQuery, map[string]any{"first": 100, "filters": map[string]any{"status": []string{"Closed", "Suspended"}}}, &d)
	if d.Accounts.TotalCount == 0 || d.Accounts.TotalCount == 400 {
		t.Fatalf("status filter total %d", d.Accounts.TotalCount)
	}
	for _, ed := range d.Accounts.Edges {
		if s := ed.Node.StatusInfo.Status; s != "Closed" && s != "Suspended" {
			t.Fatalf("status filter let %s through", s)
		}
	}
	ids, total := walk(t, e, pathSandbox, tokSandboxProject, 20, map[string]any{"filters": map[string]any{"paymentLevels": []string{"Limited"}}})
	noDuplicates(t, ids)
	if len(ids) != total || total == 0 {
		t.Fatalf("paymentLevels filter walked %d of %d", len(ids), total)
	}
	target := e.sandbox.AllAccounts()[222]
	term := strings.ToUpper(target.HolderName[:len(target.HolderName)-2])
	d = accountsData{}
	e.mustData(pathSandbox, tokSandboxProject, accountsPageQuery, map[string]any{"first": 100, "filters": map[string]any{"search": term}}, &d)
	found := false
	for _, ed := range d.Accounts.Edges {
		found = found || ed.Node.ID == target.ID
		if !strings.Contains(strings.ToLower(ed.Node.Holder.Info.Name+ed.Node.Name+ed.Node.ID), strings.ToLower(term)) {
			// Search also matches the number and holder id; check those too.
			a := findAccount(e, ed.Node.ID)
			if !strings.Contains(strings.ToLower(a.Number+a.HolderID), strings.ToLower(term)) {
				t.Fatalf("search %q matched %s (%s)", term, ed.Node.ID, ed.Node.Holder.Info.Name)
			}
		}
	}
	if !found {
		t.Fatalf("search %q did not find %s", term, target.HolderName)
	}
	d = accountsData{}
	e.mustData(pathSandbox, tokSandboxProject, accountsPageQuery, map[string]any{"first": 5, "filters": map[string]any{"mainIBAN": target.IBAN}}, &d)
	if d.Accounts.TotalCount != 1 || len(d.Accounts.Edges) != 1 || d.Accounts.Edges[0].Node.ID != target.ID {
		t.Fatalf("mainIBAN filter: %+v", d.Accounts)
	}
}

func findAccount(e *testEnv, id string) struct{ Number, HolderID string } {
	for _, a := range e.sandbox.AllAccounts() {
		if a.ID == id {
			return struct{ Number, HolderID string }{a.Number, a.HolderID}
		}
	}
	return struct{ Number, HolderID string }{}
}

func TestAccountsFirstBounds(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 120})
	var d accountsData
	e.mustData(pathSandbox, tokSandboxProject, `{ accounts { totalCount edges { node { id } } } }`, nil, &d)
	if len(d.Accounts.Edges) != 50 {
		t.Fatalf("default page size %d, want 50", len(d.Accounts.Edges))
	}
	r := e.query(pathSandbox, tokSandboxProject, `{ accounts(first: 101) { totalCount } }`, nil)
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "100") {
		t.Fatalf("first: 101 must be an error naming the maximum, got %d %+v", r.Status, r.Errors)
	}
	r = e.query(pathSandbox, tokSandboxProject, `{ accounts(first: 10, after: "bm90LWEtY3Vyc29y") { totalCount } }`, nil)
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "cursor") {
		t.Fatalf("a forged cursor must be an error, got %+v", r.Errors)
	}
}

func TestAccountAndVisibility(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 200})
	users := e.sandbox.DemoUsers()
	// An account the second user is not a member of.
	var hidden string
	for _, a := range e.sandbox.AllAccounts() {
		if _, ok := e.sandbox.Account(dataViewer(users[1].ID), a.ID); !ok {
			hidden = a.ID
			break
		}
	}
	q := `query($id: ID!) { account(accountId: $id) { id IBAN balances { available { value currency } } } }`
	var d struct{ Account *struct{ ID string } }
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": hidden}, &d)
	if d.Account == nil || d.Account.ID != hidden {
		t.Fatal("a project token must see every account")
	}
	d.Account = nil
	e.mustData(pathSandbox, tokSandboxUser1, q, map[string]any{"id": hidden}, &d)
	if d.Account != nil {
		t.Fatal("a user token must not see an account the user is not a member of")
	}
}

func TestUserAndProjectInfo(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{})
	users := e.sandbox.DemoUsers()
	q := `query($id: String) { user(id: $id) { id firstName lastName fullName mobilePhoneNumber birthDate status createdAt identificationLevels { PVID QES expert } } }`
	var d struct {
		User *struct {
			ID, FullName, MobilePhoneNumber, Status string
			IdentificationLevels                    struct{ PVID, QES, Expert bool }
		}
	}
	e.mustData(pathSandbox, tokSandboxUser0, q, map[string]any{"id": users[1].ID}, &d)
	if d.User == nil || d.User.ID != users[0].ID || d.User.MobilePhoneNumber != users[0].Phone || d.User.FullName != users[0].FirstName+" "+users[0].LastName {
		t.Fatalf("a user token must read the signed-in user, got %+v", d.User)
	}
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": users[1].ID}, &d)
	if d.User == nil || d.User.ID != users[1].ID {
		t.Fatalf("a project token reads the user it names, got %+v", d.User)
	}
	r := e.query(pathSandbox, tokSandboxProject, q, nil)
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "project token") {
		t.Fatalf("a project token without id must be an error, got %+v", r.Errors)
	}
	var p struct {
		ProjectInfo struct{ ID, Name, Type, Status, OAuthClientID string }
	}
	e.mustData(pathSandbox, tokSandboxUser0, `{ projectInfo { id name type status oAuthClientId } }`, nil, &p)
	if p.ProjectInfo.ID == "" || p.ProjectInfo.OAuthClientID != "SANDBOX_test" || p.ProjectInfo.Type != "CompanyAndCustomers" {
		t.Fatalf("projectInfo %+v", p.ProjectInfo)
	}
}

func TestTransactionsConnection(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 20})
	acc := e.sandbox.AllAccounts()[3]
	q := `query($id: ID!, $after: String, $f: TransactionsFiltersInput) { account(accountId: $id) { transactions(first: 7, after: $after, filters: $f, orderBy: {field: executionDate, direction: Asc}) {
	  totalCount pageInfo { hasNextPage endCursor }
	  edges { cursor node { __typename id reference side type amount { value currency } label counterparty executionDate paymentProduct
	    statusInfo { __typename status ... on BookedTransactionStatusInfo { balanceAfter { amount { value } sequenceNumber } } }
	    ... on FeeTransaction { feesType } } } } } }`
	type page struct {
		Account struct {
			Transactions struct {
				TotalCount int
				PageInfo   struct {
					HasNextPage bool
					EndCursor   *string
				}
				Edges []struct {
					Node struct {
						Typename      string `json:"__typename"`
						ID, Side      string
						ExecutionDate string
						StatusInfo    struct{ Status string }
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	vars := map[string]any{"id": acc.ID}
	var last string
	total := 0
	for {
		var d page
		e.mustData(pathSandbox, tokSandboxProject, q, vars, &d)
		tc := d.Account.Transactions
		total = tc.TotalCount
		for _, ed := range tc.Edges {
			if seen[ed.Node.ID] {
				t.Fatalf("transaction %s twice", ed.Node.ID)
			}
			seen[ed.Node.ID] = true
			if ed.Node.ExecutionDate < last {
				t.Fatal("transactions not in executionDate order")
			}
			last = ed.Node.ExecutionDate
			if !slices.Contains(generatedKinds, ed.Node.Typename) {
				t.Fatalf("unexpected type %s", ed.Node.Typename)
			}
		}
		if !tc.PageInfo.HasNextPage {
			break
		}
		vars["after"] = *tc.PageInfo.EndCursor
	}
	if len(seen) != total || total < 20 {
		t.Fatalf("walked %d transactions of %d", len(seen), total)
	}
	var d page
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.ID, "f": map[string]any{"status": []string{"Booked"}, "paymentProduct": []string{"Fees"}}}, &d)
	for _, ed := range d.Account.Transactions.Edges {
		if ed.Node.Typename != "FeeTransaction" || ed.Node.StatusInfo.Status != "Booked" {
			t.Fatalf("filter let %s/%s through", ed.Node.Typename, ed.Node.StatusInfo.Status)
		}
	}
}

// fragmentBomb doubles a fragment n times: 2^n fields after expansion
// from a query of a few hundred bytes.
func fragmentBomb(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{ accounts(first: 1) { edges { node { ...F%d } } } }\n", n)
	b.WriteString("fragment F0 on Account { id }\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "fragment F%d on Account { ...F%d ...F%d }\n", i, i-1, i-1)
	}
	return b.String()
}

// deepQuery nests account → transactions → account… to exactly depth
// levels (a root field has depth 1).
func deepQuery(depth int) string {
	// accounts, edges, node take 3 levels; each hop
	// transactions/edges/node/account takes 4; a leaf takes 1 to 4.
	rest := depth - 3
	hops := (rest - 1) / 4
	leaf := []string{"", "id", "holder { id }", "holder { info { name } }", "transactions(first: 1) { edges { node { id } } }"}[rest-4*hops]
	return "{ accounts(first: 1) { edges { node { " +
		strings.Repeat("transactions(first: 1) { edges { node { account { ", hops) + leaf +
		strings.Repeat(" } } } }", hops) + " } } } }"
}

func TestSandboxOperationLimits(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 10})
	for _, tc := range []struct {
		name, query string
		status      int
		code, words string
	}{
		{"fragment bomb of 1024+ fields", fragmentBomb(10), 400, "QUERY_TOO_COMPLEX", "1000 fields"},
		{"depth 16", deepQuery(16), 400, "QUERY_TOO_COMPLEX", "depth is 16"},
		{"six top-level fields", `{ a: projectInfo { id } b: projectInfo { id } c: projectInfo { id } d: projectInfo { id } e: projectInfo { id } f: projectInfo { id } }`, 400, "QUERY_TOO_COMPLEX", "6 top-level"},
		{"depth 15", deepQuery(15), 200, "", ""},
		{"five top-level fields", `{ a: projectInfo { id } b: projectInfo { id } c: projectInfo { id } d: projectInfo { id } e: projectInfo { id } }`, 200, "", ""},
		{"fragment of 512 fields", fragmentBomb(9), 200, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.query(pathSandbox, tokSandboxProject, tc.query, nil)
			if r.Status != tc.status || r.code() != tc.code {
				t.Fatalf("status %d code %q (errors %+v), want %d %q", r.Status, r.code(), r.Errors, tc.status, tc.code)
			}
			if tc.words != "" && !strings.Contains(r.Errors[0].Message, tc.words) {
				t.Fatalf("message %q does not name %q", r.Errors[0].Message, tc.words)
			}
		})
	}
	// Exactly 1001 fields: accounts, edges, node and 998 aliased ids.
	var b strings.Builder
	b.WriteString("{ accounts(first: 1) { edges { node { ")
	for i := range 998 {
		fmt.Fprintf(&b, "f%d: id ", i)
	}
	b.WriteString("} } } }")
	if r := e.query(pathSandbox, tokSandboxProject, b.String(), nil); r.Status != 400 || !strings.Contains(r.Errors[0].Message, "counted 1001") {
		t.Fatalf("1001 fields: %d %+v", r.Status, r.Errors)
	}
	// The Testing API has the same limits.
	if r := e.query(pathAdmin, tokSandboxUser0, `{ a: sandboxUser { id } b: sandboxUser { id } c: sandboxUser { id } d: sandboxUser { id } e: sandboxUser { id } f: sandboxUser { id } }`, nil); r.Status != 400 || r.code() != "QUERY_TOO_COMPLEX" {
		t.Fatalf("testing API six top-level: %d %+v", r.Status, r.Errors)
	}
}

func TestLiveHasNoOperationLimits(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 10})
	six := `{ a: projectInfo { id } b: projectInfo { id } c: projectInfo { id } d: projectInfo { id } e: projectInfo { id } f: projectInfo { id } }`
	for _, q := range []string{six, deepQuery(16), fragmentBomb(10)} {
		if r := e.query(pathLive, tokLiveProject, q, nil); r.Status != 200 || len(r.Errors) > 0 {
			t.Fatalf("live must run %.60q: %d %+v", q, r.Status, r.Errors)
		}
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 10})
	q := `{ projectInfo { id } }`
	for _, tc := range []struct{ name, path, token string }{
		{"no token", pathSandbox, ""},
		{"unknown token", pathSandbox, "not-a-token"},
		{"sandbox token on live", pathLive, tokSandboxProject},
		{"live token on sandbox", pathSandbox, tokLiveProject},
		{"live token on the testing API", pathAdmin, tokLiveProject},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.query(tc.path, tc.token, q, nil)
			if r.Status != http.StatusUnauthorized || r.code() != "UNAUTHENTICATED" {
				t.Fatalf("got %d %+v, want 401 UNAUTHENTICATED", r.Status, r.Errors)
			}
		})
	}
	// The schema itself is public, as on the platform.
	if r := e.query(pathSandbox, "", `{ __schema { queryType { name } } }`, nil); r.Status != 200 || len(r.Errors) > 0 {
		t.Fatalf("introspection without a token: %d %+v", r.Status, r.Errors)
	}
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 10})
	big := append([]byte(`{"query":"{ projectInfo { id } }","variables":{"pad":"`), bytes.Repeat([]byte("x"), maxBody)...)
	big = append(big, `"}}`...)
	for _, tc := range []struct {
		name        string
		contentType string
		body        []byte
		status      int
	}{
		{"malformed JSON", "application/json", []byte(`{"query": "{ projectInfo { id } }"`), 400},
		{"empty body", "application/json", nil, 400},
		{"two objects", "application/json", []byte(`{"query": "{ projectInfo { id } }"} {}`), 400},
		{"query not a string", "application/json", []byte(`{"query": 42}`), 400},
		{"not an object", "application/json", []byte(`["query"]`), 400},
		{"empty query", "application/json", []byte(`{"query": "  "}`), 400},
		{"no query", "application/json", []byte(`{"variables": {}}`), 400},
		{"variables not an object", "application/json", []byte(`{"query": "{ projectInfo { id } }", "variables": [1]}`), 400},
		{"unknown field", "application/json", []byte(`{"query": "{ projectInfo { nope } }"}`), 400},
		{"syntax error", "application/json", []byte(`{"query": "{ projectInfo { id "}`), 400},
		{"wrong variable type", "application/json", []byte(`{"query": "query($n: Int!) { accounts(first: $n) { totalCount } }", "variables": {"n": "ten"}}`), 400},
		{"unknown operation name", "application/json", []byte(`{"query": "query A { projectInfo { id } }", "operationName": "B"}`), 400},
		{"form body", "application/x-www-form-urlencoded", []byte(`query=x`), 415},
		{"over 1 MiB", "application/json", big, 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(pathSandbox, tokSandboxProject, tc.contentType, tc.body)
			if r.Status != tc.status || len(r.Errors) == 0 || r.Errors[0].Message == "" {
				t.Fatalf("got %d %+v, want %d with an error message", r.Status, r.Errors, tc.status)
			}
		})
	}
	resp, err := http.Get(e.srv.URL + pathSandbox)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d", resp.StatusCode)
	}
	resp, err = http.Get(e.srv.URL + "/live-partner-admin/graphql")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("Live has no Testing API, got %d", resp.StatusCode)
	}
}

func TestSimulateIncomingTransfer(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60})
	users := e.sandbox.DemoUsers()
	var iban, id string
	for _, a := range e.sandbox.AllAccounts() {
		if _, ok := e.sandbox.Account(dataViewer(users[0].ID), a.ID); ok && a.Currency == "EUR" && a.Status == "Opened" {
			iban, id = a.IBAN, a.ID
			break
		}
	}
	balQ := `query($id: ID!) { account(accountId: $id) { balances { available { value } booked { value } } transactions(first: 1) { edges { node { id amount { value } side counterparty statusInfo { status } } } } } }`
	type bal struct {
		Account struct {
			Balances struct {
				Available, Booked struct{ Value string }
			}
			Transactions struct {
				Edges []struct {
					Node struct {
						ID, Side, Counterparty string
						Amount                 struct{ Value string }
						StatusInfo             struct{ Status string }
					}
				}
			}
		}
	}
	var before, after bal
	e.mustData(pathSandbox, tokSandboxUser0, balQ, map[string]any{"id": id}, &before)
	mut := `mutation($in: IncomingSepaCreditTransferInput!) { simulateIncomingSepaCreditTransferReception(input: $in) {
	  __typename ... on SimulateIncomingSepaCreditTransferReceptionSuccessPayload { transactionId } ... on ForbiddenRejection { message } } }`
	in := map[string]any{"amount": map[string]any{"value": "100.25", "currency": "EUR"}, "creditorIban": iban, "creditorName": "Camille Martin",
		"debtorIban": "FR2730003000706315734174B93", "debtorName": "Acme SAS", "label": "Invoice 42", "endToEndId": "E2E-42"}
	var res struct {
		Simulate struct {
			Typename      string `json:"__typename"`
			TransactionID string
			Message       string
		} `json:"simulateIncomingSepaCreditTransferReception"`
	}
	e.mustData(pathAdmin, tokSandboxUser0, mut, map[string]any{"in": in}, &res)
	if res.Simulate.Typename != "SimulateIncomingSepaCreditTransferReceptionSuccessPayload" || res.Simulate.TransactionID == "" {
		t.Fatalf("simulate: %+v", res.Simulate)
	}
	e.mustData(pathSandbox, tokSandboxUser0, balQ, map[string]any{"id": id}, &after)
	if d := cents(t, after.Account.Balances.Booked.Value) - cents(t, before.Account.Balances.Booked.Value); d != 10025 {
		t.Fatalf("booked moved by %d cents, want 10025", d)
	}
	if d := cents(t, after.Account.Balances.Available.Value) - cents(t, before.Account.Balances.Available.Value); d != 10025 {
		t.Fatalf("available moved by %d cents, want 10025", d)
	}
	newest := after.Account.Transactions.Edges[0].Node
	if newest.ID != res.Simulate.TransactionID || newest.Side != "Credit" || newest.Amount.Value != "100.25" || newest.StatusInfo.Status != "Booked" || newest.Counterparty != "Acme SAS" {
		t.Fatalf("newest transaction %+v", newest)
	}
	// A user without the account gets a rejection, not a transfer.
	e.mustData(pathAdmin, tokSandboxNobody, mut, map[string]any{"in": in}, &res)
	if res.Simulate.Typename != "ForbiddenRejection" || res.Simulate.Message == "" {
		t.Fatalf("stranger: %+v", res.Simulate)
	}
	// A project token may simulate too.
	e.mustData(pathAdmin, tokSandboxProject, mut, map[string]any{"in": in}, &res)
	if res.Simulate.Typename != "SimulateIncomingSepaCreditTransferReceptionSuccessPayload" {
		t.Fatalf("project token: %+v", res.Simulate)
	}
	bad := map[string]any{}
	for k, v := range in {
		bad[k] = v
	}
	bad["debtorIban"] = "FR0000000000000000000000000"
	if r := e.query(pathAdmin, tokSandboxUser0, mut, map[string]any{"in": bad}); len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "IBAN") {
		t.Fatalf("invalid debtor IBAN: %+v", r.Errors)
	}
}

func cents(t *testing.T, v string) int64 {
	t.Helper()
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	whole, frac, _ := strings.Cut(v, ".")
	var w, f int64
	if _, err := fmt.Sscan(whole, &w); err != nil {
		t.Fatalf("amount %q: %v", v, err)
	}
	if _, err := fmt.Sscan(frac, &f); err != nil {
		t.Fatalf("amount %q: %v", v, err)
	}
	c := w*100 + f
	if neg {
		c = -c
	}
	return c
}

func TestSandboxUsers(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 100})
	users := e.sandbox.DemoUsers()
	var list struct {
		SandboxUsers struct {
			TotalCount int
			Edges      []struct {
				Node struct {
					ID       string
					IsActive bool
				}
			}
		}
	}
	e.mustData(pathAdmin, tokSandboxUser0, `{ sandboxUsers(first: 50) { totalCount edges { node { id firstName mobilePhoneNumber isActive identificationLevels { PVID } } } } }`, nil, &list)
	if list.SandboxUsers.TotalCount != len(users) {
		t.Fatalf("sandboxUsers total %d, want %d", list.SandboxUsers.TotalCount, len(users))
	}
	create := `mutation { createSandboxUser(input: {firstName: "Ada", lastName: "Lovelace", birthDate: "1990-12-10", nationalityCCA3: "GBR", autoConsent: true}) {
	  __typename ... on CreateSandboxUserSuccessPayload { sandboxUser { id firstName mobilePhoneNumber } } } }`
	var created struct {
		CreateSandboxUser struct {
			Typename    string `json:"__typename"`
			SandboxUser struct{ ID, FirstName, MobilePhoneNumber string }
		}
	}
	e.mustData(pathAdmin, tokSandboxUser0, create, nil, &created)
	newID := created.CreateSandboxUser.SandboxUser.ID
	if created.CreateSandboxUser.Typename != "CreateSandboxUserSuccessPayload" || newID == "" || created.CreateSandboxUser.SandboxUser.MobilePhoneNumber == "" {
		t.Fatalf("create: %+v", created)
	}
	for _, bad := range []string{"1990-2-10", "1990-02-30", "90-02-10", "1990-02-10T00:00:00Z"} {
		q := strings.Replace(create, "1990-12-10", bad, 1)
		if r := e.query(pathAdmin, tokSandboxUser0, q, nil); len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "is not a date") {
			t.Errorf("birthDate %q: %+v", bad, r.Errors)
		}
	}
	// Endorsing makes the same token act as the endorsed user.
	var endorsed struct {
		EndorseSandboxUser struct {
			Typename string `json:"__typename"`
		}
	}
	e.mustData(pathAdmin, tokSandboxUser0, `mutation($id: String!) { endorseSandboxUser(input: {id: $id}) { __typename } }`, map[string]any{"id": users[1].ID}, &endorsed)
	if endorsed.EndorseSandboxUser.Typename != "EndorseSandboxUserSuccessPayload" {
		t.Fatalf("endorse: %+v", endorsed)
	}
	var me struct{ User struct{ ID string } }
	e.mustData(pathSandbox, tokSandboxUser0, `{ user { id } }`, nil, &me)
	if me.User.ID != users[1].ID {
		t.Fatalf("after endorsing, user is %s, want %s", me.User.ID, users[1].ID)
	}
	var active struct{ SandboxUser struct{ ID string } }
	e.mustData(pathAdmin, tokSandboxUser0, `{ sandboxUser { id } }`, nil, &active)
	if active.SandboxUser.ID != users[1].ID {
		t.Fatal("sandboxUser must be the endorsed user")
	}
	e.mustData(pathAdmin, tokSandboxUser0, `mutation { endorseSandboxUser(input: {id: "no-such-user"}) { __typename } }`, nil, &endorsed)
	if endorsed.EndorseSandboxUser.Typename != "SandboxUserNotFoundRejection" {
		t.Fatalf("unknown user: %+v", endorsed)
	}
	if r := e.query(pathAdmin, tokSandboxProject, `{ sandboxUser { id } }`, nil); len(r.Errors) == 0 {
		t.Fatal("sandboxUser needs a user token")
	}
}

func TestResponsesAreJSON(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5})
	r := e.query(pathSandbox, tokSandboxProject, `{ projectInfo { id } }`, nil)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("content type %q", ct)
	}
	var v map[string]any
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatal(err)
	}
}

func TestSameSeedSameAnswers(t *testing.T) {
	t.Parallel()
	q := `{ accounts(first: 20) { edges { node { id IBAN name holder { info { name } } balances { booked { value } } } } } }`
	a := newTestEnv(t, Options{Accounts: 50, Seed: 5}).query(pathSandbox, tokSandboxProject, q, nil)
	b := newTestEnv(t, Options{Accounts: 50, Seed: 5}).query(pathSandbox, tokSandboxProject, q, nil)
	c := newTestEnv(t, Options{Accounts: 50, Seed: 6}).query(pathSandbox, tokSandboxProject, q, nil)
	if string(a.Data) != string(b.Data) {
		t.Fatal("one seed gave two data sets")
	}
	if string(a.Data) == string(c.Data) {
		t.Fatal("another seed gave the same data set")
	}
}

func TestConcurrentTransfersAndReads(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 30})
	var acc *struct{ id, iban string }
	for _, a := range e.sandbox.AllAccounts() {
		if a.Currency == "EUR" && a.Status == "Opened" {
			acc = &struct{ id, iban string }{a.ID, a.IBAN}
			break
		}
	}
	mut := `mutation($in: IncomingSepaCreditTransferInput!) { simulateIncomingSepaCreditTransferReception(input: $in) { __typename } }`
	in := map[string]any{"amount": map[string]any{"value": "1.00", "currency": "EUR"}, "creditorIban": acc.iban, "creditorName": "A", "debtorIban": "DE89370400440532013000", "debtorName": "B"}
	q := `query($id: ID!) { account(accountId: $id) { balances { booked { value } } transactions(first: 100) { totalCount } } }`
	var start struct {
		Account struct {
			Balances     struct{ Booked struct{ Value string } }
			Transactions struct{ TotalCount int }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.id}, &start)
	const workers, each = 4, 5
	done := make(chan struct{})
	for range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for range each {
				if r := e.query(pathAdmin, tokSandboxProject, mut, map[string]any{"in": in}); r.Status != 200 || len(r.Errors) > 0 {
					t.Errorf("simulate: %d %+v", r.Status, r.Errors)
				}
				if r := e.query(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.id}); r.Status != 200 {
					t.Errorf("read: %d", r.Status)
				}
			}
		}()
	}
	for range workers {
		<-done
	}
	end := start
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.id}, &end)
	if got := end.Account.Transactions.TotalCount - start.Account.Transactions.TotalCount; got != workers*each {
		t.Fatalf("%d transfers booked, want %d", got, workers*each)
	}
	if d := cents(t, end.Account.Balances.Booked.Value) - cents(t, start.Account.Balances.Booked.Value); d != workers*each*100 {
		t.Fatalf("balance moved by %d cents, want %d", d, workers*each*100)
	}
}

// spreadBomb doubles spreads n times over a leaf; with a leaf that adds no
// field (an unknown fragment) only a bound on visited nodes stops it.
func spreadBomb(n int, leaf string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{ accounts { edges { node { ...F%d } } } }\n", n)
	fmt.Fprintf(&b, "fragment F0 on Account { %s }\n", leaf)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "fragment F%d on Account { ...F%d ...F%d }\n", i, i-1, i-1)
	}
	return b.String()
}

func TestSpreadBombsAreRefused(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 5})
	for _, leaf := range []string{"...Missing", "id", "... on Account { id }"} {
		for path, tok := range map[string]string{pathSandbox: tokSandboxProject, pathLive: tokLiveProject} {
			// 2^40 expansions: finishing at all proves the walk is bounded.
			if r := e.query(path, tok, spreadBomb(40, leaf), nil); r.Status != http.StatusBadRequest || len(r.Errors) == 0 {
				t.Fatalf("%s with leaf %q: %d %+v", path, leaf, r.Status, r.Errors)
			}
		}
	}
}

func TestSandboxUsersPagingAndFields(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 10})
	users := e.sandbox.DemoUsers()
	q := `query($after: String, $offset: Int, $dir: OrderByDirection) { sandboxUsers(first: 2, after: $after, offset: $offset, orderBy: {field: createdAt, direction: $dir}) {
	  totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
	  edges { cursor node { id firstName lastName allFirstNames birthDate birthCity birthCountryCCA3 nationalityCCA3 autoConsent preferredNotificationChannel mobilePhoneNumber isActive identificationLevels { PVID QES expert } } } } }`
	type page struct {
		SandboxUsers struct {
			TotalCount int
			PageInfo   struct {
				HasNextPage, HasPreviousPage bool
				EndCursor                    *string
			}
			Edges []struct {
				Node struct {
					ID, FirstName, NationalityCCA3, BirthDate string
					IsActive                                  bool
				}
			}
		}
	}
	var ids []string
	vars := map[string]any{"dir": "Asc"}
	for {
		var p page
		e.mustData(pathAdmin, tokSandboxUser0, q, vars, &p)
		for _, ed := range p.SandboxUsers.Edges {
			ids = append(ids, ed.Node.ID)
			if ed.Node.IsActive != (ed.Node.ID == users[0].ID) {
				t.Fatalf("isActive of %s is %v", ed.Node.ID, ed.Node.IsActive)
			}
			if ed.Node.NationalityCCA3 == "" || ed.Node.BirthDate == "" {
				t.Fatalf("demo user without details: %+v", ed.Node)
			}
		}
		if !p.SandboxUsers.PageInfo.HasNextPage {
			break
		}
		vars["after"] = *p.SandboxUsers.PageInfo.EndCursor
	}
	if len(ids) != len(users) || ids[0] != users[0].ID {
		t.Fatalf("walked %v, want the %d demo users oldest first", ids, len(users))
	}
	var p page
	e.mustData(pathAdmin, tokSandboxUser0, q, map[string]any{"offset": 1, "dir": "Desc"}, &p)
	if p.SandboxUsers.Edges[0].Node.ID != ids[len(ids)-2] || !p.SandboxUsers.PageInfo.HasPreviousPage {
		t.Fatalf("offset 1 newest first starts with %s", p.SandboxUsers.Edges[0].Node.ID)
	}
	if r := e.query(pathAdmin, tokSandboxUser0, q, map[string]any{"after": "bad"}); len(r.Errors) == 0 {
		t.Fatal("a forged cursor must be an error")
	}
	var one struct {
		SandboxUserByID *struct{ ID, LastName string }
	}
	e.mustData(pathAdmin, tokSandboxUser0, `query($id: ID!) { sandboxUserById(id: $id) { id lastName } }`, map[string]any{"id": users[2].ID}, &one)
	if one.SandboxUserByID == nil || one.SandboxUserByID.LastName != users[2].LastName {
		t.Fatalf("sandboxUserById %+v", one.SandboxUserByID)
	}
	e.mustData(pathAdmin, tokSandboxUser0, `{ sandboxUserById(id: "nobody") { id } }`, nil, &one)
	if one.SandboxUserByID != nil {
		t.Fatal("an unknown id must give null")
	}

	create := `mutation($n: CCA3!, $b: Date!) { createSandboxUser(input: {firstName: "Jean Paul", lastName: "Sartre", birthDate: $b, nationalityCCA3: $n, autoConsent: false}) {
	  __typename ... on NationalityNotFoundRejection { message identifier } ... on ForbiddenRejection { message } } }`
	var res struct {
		CreateSandboxUser struct {
			Typename   string `json:"__typename"`
			Identifier string
			Message    string
		}
	}
	e.mustData(pathAdmin, tokSandboxUser0, create, map[string]any{"n": "france", "b": "1905-06-21"}, &res)
	if res.CreateSandboxUser.Typename != "NationalityNotFoundRejection" || res.CreateSandboxUser.Identifier != "france" {
		t.Fatalf("bad nationality: %+v", res)
	}
	if r := e.query(pathAdmin, tokSandboxUser0, create, map[string]any{"n": "FRA", "b": "21/06/1905"}); len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "YYYY-MM-DD") {
		t.Fatalf("bad birth date: %+v", r.Errors)
	}
	e.mustData(pathAdmin, tokSandboxProject, create, map[string]any{"n": "FRA", "b": "1905-06-21"}, &res)
	if res.CreateSandboxUser.Typename != "ForbiddenRejection" {
		t.Fatalf("a project token must be refused: %+v", res)
	}
}
