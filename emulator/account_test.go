package emulator

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// node is a decoded JSON object of a response.
type node = map[string]any

// dig follows keys through nested objects.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(node)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func str(v any, keys ...string) string {
	s, _ := dig(v, keys...).(string)
	return s
}

// conn is a decoded connection.
type conn struct {
	TotalCount int
	PageInfo   struct {
		HasNextPage, HasPreviousPage bool
		StartCursor, EndCursor       *string
	}
	Edges []struct {
		Cursor string
		Node   node
	}
}

// connAt runs a query and decodes the connection at a path of its data.
func (e *testEnv) connAt(path, token, query string, vars map[string]any, at ...string) conn {
	e.t.Helper()
	var d node
	e.mustData(path, token, query, vars, &d)
	raw, err := json.Marshal(dig(d, at...))
	if err != nil {
		e.t.Fatal(err)
	}
	var c conn
	if err := json.Unmarshal(raw, &c); err != nil {
		e.t.Fatalf("decode %v: %v: %s", at, err, raw)
	}
	return c
}

// walkConn pages a connection with after cursors to its end and returns
// its nodes, checking cursors, counts and hasPreviousPage on the way.
func (e *testEnv) walkConn(path, token, query string, vars map[string]any, at ...string) []node {
	e.t.Helper()
	v := map[string]any{}
	for k, x := range vars {
		v[k] = x
	}
	var out []node
	total := -1
	for page := 0; ; page++ {
		c := e.connAt(path, token, query, v, at...)
		if total >= 0 && c.TotalCount != total {
			e.t.Fatalf("totalCount changed between pages: %d then %d", total, c.TotalCount)
		}
		total = c.TotalCount
		if page > 0 && !c.PageInfo.HasPreviousPage {
			e.t.Fatalf("page %d has no previous page", page)
		}
		for _, ed := range c.Edges {
			if ed.Cursor == "" {
				e.t.Fatal("an edge has no cursor")
			}
			out = append(out, ed.Node)
		}
		if n := len(c.Edges); n > 0 && (c.PageInfo.EndCursor == nil || *c.PageInfo.EndCursor != c.Edges[n-1].Cursor) {
			e.t.Fatal("endCursor is not the last edge's cursor")
		}
		if !c.PageInfo.HasNextPage {
			break
		}
		v["after"] = *c.PageInfo.EndCursor
		if page > 2000 {
			e.t.Fatal("pagination does not end")
		}
	}
	if len(out) != total {
		e.t.Fatalf("walked %d items, totalCount is %d", len(out), total)
	}
	ids := map[string]bool{}
	for _, n := range out {
		id := str(n, "id")
		if id == "" || ids[id] {
			e.t.Fatalf("item %q missing or twice", id)
		}
		ids[id] = true
	}
	return out
}

func idsOf(nodes []node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = str(n, "id")
	}
	return out
}

// TestIBANAndHistoryFollowRights checks the schema's rule: IBAN only for
// Unlimited accounts seen through canViewAccount, balances and history
// only with canViewAccount; a project token has every right.
func TestIBANAndHistoryFollowRights(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 120})
	q := `query($after: String) { user { accountMemberships(first: 100, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
	  edges { cursor node { id canViewAccount account { id paymentLevel IBAN BIC balances { booked { value } } transactions(first: 1) { totalCount } statements(first: 1) { totalCount } } } } } } }`
	for _, tok := range []string{tokSandboxUser0, tokSandboxUser1} {
		ms := e.walkConn(pathSandbox, tok, q, nil, "user", "accountMemberships")
		var full, limited, hidden int
		for _, m := range ms {
			acc := dig(m, "account").(node)
			view := m["canViewAccount"] == true
			unlimited := acc["paymentLevel"] == "Unlimited"
			if (acc["IBAN"] != nil) != (view && unlimited) {
				t.Fatalf("%s: IBAN %v with canViewAccount %v on a %s account", tok, acc["IBAN"], view, acc["paymentLevel"])
			}
			if str(acc, "BIC") == "" {
				t.Fatal("BIC is non-null in the schema")
			}
			if (acc["balances"] != nil) != view || (acc["transactions"] != nil) != view || (acc["statements"] != nil) != view {
				t.Fatalf("%s: balances, transactions and statements must follow canViewAccount %v: %v", tok, view, acc)
			}
			switch {
			case !view:
				hidden++
			case unlimited:
				full++
			default:
				limited++
			}
		}
		if full < 2 || limited < 1 || hidden < 1 {
			t.Fatalf("%s: %d viewable Unlimited, %d viewable Limited, %d without view: the demo mix is incomplete", tok, full, limited, hidden)
		}
	}
	// A project token sees the IBAN of every Unlimited account.
	accs := e.walkConn(pathSandbox, tokSandboxProject, `query($after: String) { accounts(first: 100, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id paymentLevel IBAN balances { booked { value } } } } } }`, nil, "accounts")
	for _, a := range accs {
		if (a["IBAN"] != nil) != (a["paymentLevel"] == "Unlimited") || a["balances"] == nil {
			t.Fatalf("project token: %v", a)
		}
	}
}

// TestAccountsMainIBANAndLastPage covers the lenient IBAN search and
// reading the last page of a long list by flipping the direction.
func TestAccountsMainIBANAndLastPage(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 300})
	target := e.sandbox.AllAccounts()[177]
	grouped := ""
	for i, r := range strings.ToLower(target.IBAN) {
		if i > 0 && i%4 == 0 {
			grouped += " "
		}
		grouped += string(r)
	}
	for _, iban := range []string{target.IBAN, grouped, "  " + strings.ToLower(target.IBAN) + " "} {
		var d accountsData
		e.mustData(pathSandbox, tokSandboxProject, accountsPageQuery, map[string]any{"first": 10, "filters": map[string]any{"mainIBAN": iban}}, &d)
		if d.Accounts.TotalCount != 1 || len(d.Accounts.Edges) != 1 || d.Accounts.Edges[0].Node.ID != target.ID {
			t.Fatalf("mainIBAN %q: %+v", iban, d.Accounts)
		}
	}
	for _, field := range []string{"createdAt", "updatedAt"} {
		asc, total := walk(t, e, pathSandbox, tokSandboxProject, 100, map[string]any{"orderBy": map[string]any{"field": field, "direction": "Asc"}})
		var d accountsData
		e.mustData(pathSandbox, tokSandboxProject, accountsPageQuery, map[string]any{"first": 100, "orderBy": map[string]any{"field": field, "direction": "Desc"}}, &d)
		if d.Accounts.TotalCount != total || len(d.Accounts.Edges) != 100 {
			t.Fatalf("%s desc: total %d, page %d", field, d.Accounts.TotalCount, len(d.Accounts.Edges))
		}
		for i, ed := range d.Accounts.Edges {
			if want := asc[len(asc)-1-i]; ed.Node.ID != want {
				t.Fatalf("%s: the first Desc page is not the last Asc page reversed at %d", field, i)
			}
		}
	}
}

const membershipsQuery = `query($first: Int!, $after: String, $before: String, $filters: AccountMembershipsFilterInput, $orderBy: AccountMembershipOrderByInput) {
  accountMemberships(first: $first, after: $after, before: $before, filters: $filters, orderBy: $orderBy) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id email createdAt updatedAt canViewAccount canInitiatePayments legalRepresentative
      statusInfo { status } user { id firstName lastName } account { id } } } } }`

func TestAccountMembershipsPagingFiltersAndVisibility(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 50})
	for _, order := range []string{"createdAt", "updatedAt"} {
		asc := e.walkConn(pathSandbox, tokSandboxProject, membershipsQuery, map[string]any{"first": 41, "orderBy": map[string]any{"field": order, "direction": "Asc"}}, "accountMemberships")
		desc := e.walkConn(pathSandbox, tokSandboxProject, membershipsQuery, map[string]any{"first": 41, "orderBy": map[string]any{"field": order, "direction": "Desc"}}, "accountMemberships")
		a, d := idsOf(asc), idsOf(desc)
		slices.Reverse(d)
		if !slices.Equal(a, d) {
			t.Fatalf("%s: the Desc walk is not the Asc walk reversed", order)
		}
		for i := 1; i < len(asc); i++ {
			if str(asc[i-1], order) > str(asc[i], order) {
				t.Fatalf("%s order broken at %d", order, i)
			}
		}
		// before: the items preceding a cursor, in order.
		c := e.connAt(pathSandbox, tokSandboxProject, membershipsQuery, map[string]any{"first": 30, "orderBy": map[string]any{"field": order}}, "accountMemberships")
		b := e.connAt(pathSandbox, tokSandboxProject, membershipsQuery, map[string]any{"first": 30, "before": c.Edges[20].Cursor, "orderBy": map[string]any{"field": order}}, "accountMemberships")
		if len(b.Edges) != 20 || b.Edges[19].Node["id"] != c.Edges[19].Node["id"] || b.PageInfo.HasPreviousPage {
			t.Fatalf("%s before: %d edges", order, len(b.Edges))
		}
	}
	// Filters match what they say, and totalCount counts them.
	for _, f := range []map[string]any{
		{"canViewAccount": false},
		{"status": []string{"Disabled", "Suspended"}},
		{"canInitiatePayments": true, "status": []string{"Enabled"}},
	} {
		got := e.walkConn(pathSandbox, tokSandboxProject, membershipsQuery, map[string]any{"first": 100, "filters": f}, "accountMemberships")
		if len(got) == 0 {
			t.Fatalf("filter %v matched nothing", f)
		}
		for _, m := range got {
			if v, ok := f["canViewAccount"]; ok && m["canViewAccount"] != v {
				t.Fatalf("filter %v let %v through", f, m)
			}
			if v, ok := f["canInitiatePayments"]; ok && m["canInitiatePayments"] != v {
				t.Fatalf("filter %v let %v through", f, m)
			}
			if st, ok := f["status"].([]string); ok && !slices.Contains(st, str(m, "statusInfo", "status")) {
				t.Fatalf("filter %v let %v through", f, m)
			}
		}
	}
	one := e.connAt(pathSandbox, tokSandboxProject, membershipsQuery, map[string]any{"first": 100}, "accountMemberships").Edges[7].Node
	for _, f := range []map[string]any{{"email": strings.ToUpper(str(one, "email"))}, {"search": str(one, "id")}, {"accountId": str(one, "account", "id")}} {
		got := e.walkConn(pathSandbox, tokSandboxProject, membershipsQuery, map[string]any{"first": 100, "filters": f}, "accountMemberships")
		if !slices.Contains(idsOf(got), str(one, "id")) {
			t.Fatalf("filter %v does not find %s", f, str(one, "id"))
		}
	}
	// A user token lists the user's own memberships: one per account.
	own := e.walkConn(pathSandbox, tokSandboxUser1, membershipsQuery, map[string]any{"first": 50}, "accountMemberships")
	var accs accountsData
	e.mustData(pathSandbox, tokSandboxUser1, accountsPageQuery, map[string]any{"first": 1}, &accs)
	users := e.sandbox.DemoUsers()
	for _, m := range own {
		if str(m, "user", "id") != users[1].ID {
			t.Fatalf("a user token listed someone else's membership: %v", m)
		}
	}
	if len(own) != accs.Accounts.TotalCount {
		t.Fatalf("the user has %d memberships and %d accounts", len(own), accs.Accounts.TotalCount)
	}
	if c := e.connAt(pathSandbox, tokSandboxNobody, membershipsQuery, map[string]any{"first": 10}, "accountMemberships"); c.TotalCount != 0 {
		t.Fatalf("a user without accounts has %d memberships", c.TotalCount)
	}
}

func TestMembershipDetailBothWays(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60})
	users := e.sandbox.DemoUsers()
	q := `query($id: ID!, $account: ID) { accountMembership(id: $id) { id email version legalRepresentative canViewAccount canManageBeneficiaries canInitiatePayments
	  canManageAccountMembership canManageCards accountId accountCountry accountHolderType language createdAt updatedAt disabledAt
	  acceptedIdentificationLevels hasRequiredIdentificationLevel residencyAddress { city country } spendingLimits { type period amount { value currency } }
	  statusInfo { __typename status ... on AccountMembershipDisabledStatusInfo { reason } ... on AccountMembershipSuspendedStatusInfo { reason }
	    ... on AccountMembershipInvitationSentStatusInfo { restrictedTo { firstName lastName phoneNumber } }
	    ... on AccountMembershipBindingUserErrorStatusInfo { firstNameMatchError lastNameMatchError birthDateMatchError phoneNumberMatchError restrictedTo { firstName } } }
	  user { id fullName accountMemberships(first: 5, filters: {accountId: $account}) { totalCount edges { node { id } } } }
	  account { id memberships(first: 10) { totalCount edges { node { id legalRepresentative } } } legalRepresentativeMembership { id } }
	  cards(first: 5) { totalCount edges { node { id accountMembership { id } } } } } }`
	// Every membership of a few accounts resolves both ways.
	statuses := map[string]bool{}
	for _, a := range e.sandbox.AllAccounts()[:16] {
		ms := e.connAt(pathSandbox, tokSandboxProject, `query($id: ID!) { account(accountId: $id) { memberships(first: 20) { totalCount pageInfo { hasNextPage } edges { cursor node { id } } } } }`, map[string]any{"id": a.ID}, "account", "memberships")
		for i, ed := range ms.Edges {
			var d node
			e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": ed.Node["id"], "account": a.ID}, &d)
			m := dig(d, "accountMembership").(node)
			statuses[str(m, "statusInfo", "__typename")] = true
			if str(m, "account", "id") != a.ID || str(m, "accountId") != a.ID {
				t.Fatalf("membership %s belongs to %s, listed under %s", m["id"], str(m, "account", "id"), a.ID)
			}
			if (i == 0) != (m["legalRepresentative"] == true) || str(m, "account", "legalRepresentativeMembership", "id") != str(ms.Edges[0].Node, "id") {
				t.Fatalf("the legal representative must come first: %v", m)
			}
			if u, ok := m["user"].(node); ok {
				found := false
				for _, um := range dig(u, "accountMemberships", "edges").([]any) {
					found = found || str(um, "node", "id") == str(m, "id")
				}
				if !found {
					t.Fatalf("user %s does not list membership %s", str(u, "id"), str(m, "id"))
				}
			}
			for _, c := range dig(m, "cards", "edges").([]any) {
				if str(c, "node", "accountMembership", "id") != str(m, "id") {
					t.Fatalf("card %s is not the membership's", str(c, "node", "id"))
				}
			}
		}
	}
	for _, want := range []string{"AccountMembershipEnabledStatusInfo", "AccountMembershipDisabledStatusInfo"} {
		if !statuses[want] {
			t.Errorf("no %s among %v", want, statuses)
		}
	}
	// A user token reads memberships only on accounts the user sees.
	var hidden string
	for _, a := range e.sandbox.AllAccounts() {
		if _, ok := e.sandbox.Account(dataViewer(users[1].ID), a.ID); !ok {
			hidden = e.sandbox.LegalRepresentative(a).ID
			break
		}
	}
	var d node
	e.mustData(pathSandbox, tokSandboxUser1, q, map[string]any{"id": hidden}, &d)
	if d["accountMembership"] != nil {
		t.Fatal("a user token read a membership of an account it does not see")
	}
	e.mustData(pathSandbox, tokSandboxProject, q, map[string]any{"id": "not-a-membership"}, &d)
	if d["accountMembership"] != nil {
		t.Fatal("an unknown id must give null")
	}
}

const cardsQuery = `query($first: Int!, $after: String, $orderBy: CardOrderByInput, $filters: CardFiltersInput) {
  cards(first: $first, after: $after, orderBy: $orderBy, filters: $filters) {
    totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node { id type name cardMaskedNumber expiryDate createdAt updatedAt withdrawal international eCommerce mainCurrency issuingCountry
      statusInfo { __typename status ... on CardCanceledStatusInfo { reason } } spendingLimits { period amount { value } }
      accountMembership { id user { id } account { id } } } } } }`

func TestCardsPagingFiltersAndVisibility(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 40})
	for _, order := range []string{"createdAt", "updatedAt", "id"} {
		asc := e.walkConn(pathSandbox, tokSandboxProject, cardsQuery, map[string]any{"first": 33, "orderBy": map[string]any{"field": order, "direction": "Asc"}}, "cards")
		desc := e.walkConn(pathSandbox, tokSandboxProject, cardsQuery, map[string]any{"first": 33, "orderBy": map[string]any{"field": order, "direction": "Desc"}}, "cards")
		a, d := idsOf(asc), idsOf(desc)
		slices.Reverse(d)
		if !slices.Equal(a, d) || len(a) == 0 {
			t.Fatalf("%s: %d cards; the Desc walk is not the Asc walk reversed", order, len(a))
		}
		for i := 1; i < len(asc); i++ {
			if str(asc[i-1], order) > str(asc[i], order) {
				t.Fatalf("%s order broken at %d: %s then %s", order, i, str(asc[i-1], order), str(asc[i], order))
			}
		}
	}
	all := e.walkConn(pathSandbox, tokSandboxProject, cardsQuery, map[string]any{"first": 100}, "cards")
	statuses := map[string]int{}
	for _, c := range all {
		statuses[str(c, "statusInfo", "status")]++
		if len(str(c, "expiryDate")) != 5 || !strings.HasPrefix(str(c, "cardMaskedNumber"), "517943") {
			t.Fatalf("card %v", c)
		}
	}
	if statuses["Enabled"] == 0 || statuses["Canceled"] == 0 {
		t.Fatalf("card statuses %v", statuses)
	}
	target := all[len(all)/2]
	for _, f := range []map[string]any{
		{"statuses": []string{"Canceled"}}, {"status": "Enabled"}, {"types": []string{str(target, "type")}},
		{"search": str(target, "cardMaskedNumber")[12:]}, {"accountId": str(target, "accountMembership", "account", "id")},
	} {
		got := e.walkConn(pathSandbox, tokSandboxProject, cardsQuery, map[string]any{"first": 100, "filters": f}, "cards")
		for _, c := range got {
			if st, ok := f["statuses"].([]string); ok && !slices.Contains(st, str(c, "statusInfo", "status")) {
				t.Fatalf("filter %v let %v through", f, c)
			}
			if st, ok := f["status"].(string); ok && str(c, "statusInfo", "status") != st {
				t.Fatalf("filter %v let %v through", f, c)
			}
		}
		if _, narrow := f["statuses"]; !narrow && !slices.Contains(idsOf(got), str(target, "id")) && f["status"] == nil {
			t.Fatalf("filter %v does not find card %s", f, str(target, "id"))
		}
	}
	// A user token lists the user's own cards; card(cardId) hides the
	// cards of accounts the user does not see.
	users := e.sandbox.DemoUsers()
	own := e.walkConn(pathSandbox, tokSandboxUser0, cardsQuery, map[string]any{"first": 100}, "cards")
	if len(own) == 0 {
		t.Fatal("the first demo user has no card")
	}
	for _, c := range own {
		if str(c, "accountMembership", "user", "id") != users[0].ID {
			t.Fatalf("a user token listed someone else's card: %v", c)
		}
	}
	detail := `query($id: ID!) { card(cardId: $id) { id cardMaskedNumber accountMembership { id cards(first: 5) { edges { node { id } } } } } }`
	for i, c := range all {
		if i%4 != 0 {
			continue
		}
		var d node
		e.mustData(pathSandbox, tokSandboxProject, detail, map[string]any{"id": str(c, "id")}, &d)
		if str(d, "card", "id") != str(c, "id") {
			t.Fatalf("card(%s) = %v", str(c, "id"), d)
		}
		if _, seen := e.sandbox.Account(dataViewer(users[1].ID), str(c, "accountMembership", "account", "id")); !seen {
			e.mustData(pathSandbox, tokSandboxUser1, detail, map[string]any{"id": str(c, "id")}, &d)
			if d["card"] != nil {
				t.Fatal("a user token read a card of an account it does not see")
			}
		}
	}
}

const rootTxQuery = `query($first: Int!, $after: String, $orderBy: TransactionsOrderByInput, $filters: TransactionsFiltersInput) {
  transactions(first: $first, after: $after, orderBy: $orderBy, filters: $filters) {
    totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node { __typename id type side paymentProduct label reference counterparty createdAt updatedAt executionDate
      amount { value currency } account { id }
      statusInfo { __typename status ... on RejectedTransactionStatusInfo { rejected: reason hasFallback } } } } } }`

func TestRootTransactions(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 12})
	// The platform refuses user tokens on the transactions queries.
	for _, q := range []string{`{ transactions { totalCount } }`, `{ transaction(id: "bosci_x") { id } }`} {
		r := e.query(pathSandbox, tokSandboxUser0, q, nil)
		if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "user tokens can't call transactions queries") {
			t.Fatalf("%s with a user token: %d %+v", q, r.Status, r.Errors)
		}
	}
	// A simulated transfer is the newest transaction of the project.
	acc := openEURAccount(t, e)
	mut := `mutation($in: IncomingSepaCreditTransferInput!) { simulateIncomingSepaCreditTransferReception(input: $in) { ... on SimulateIncomingSepaCreditTransferReceptionSuccessPayload { transactionId } } }`
	var sim struct {
		S struct{ TransactionID string } `json:"simulateIncomingSepaCreditTransferReception"`
	}
	e.mustData(pathAdmin, tokSandboxProject, mut, map[string]any{"in": map[string]any{"amount": map[string]any{"value": "12.34", "currency": "EUR"},
		"creditorIban": acc.IBAN, "creditorName": acc.HolderName, "debtorIban": "DE89370400440532013000", "debtorName": "Jane Doe"}}, &sim)
	newest := e.connAt(pathSandbox, tokSandboxProject, rootTxQuery, map[string]any{"first": 1}, "transactions")
	if str(newest.Edges[0].Node, "id") != sim.S.TransactionID || str(newest.Edges[0].Node, "account", "id") != acc.ID {
		t.Fatalf("the newest transaction is %v, want the simulated %s", newest.Edges[0].Node, sim.S.TransactionID)
	}
	// Walks: default order is updatedAt desc; every order both ways.
	all := e.walkConn(pathSandbox, tokSandboxProject, rootTxQuery, map[string]any{"first": 100}, "transactions")
	for i := 1; i < len(all); i++ {
		if str(all[i-1], "updatedAt") < str(all[i], "updatedAt") {
			t.Fatalf("the default order is not updatedAt desc at %d", i)
		}
	}
	sum := 0
	for _, a := range e.sandbox.AllAccounts() {
		var d struct {
			Account struct{ Transactions struct{ TotalCount int } }
		}
		e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { account(accountId: $id) { transactions { totalCount } } }`, map[string]any{"id": a.ID}, &d)
		sum += d.Account.Transactions.TotalCount
	}
	if sum != len(all) {
		t.Fatalf("the project has %d transactions, its accounts %d", len(all), sum)
	}
	// The other orders (the data tests walk them all): executionDate,
	// where scheduled transfers come last.
	asc := e.walkConn(pathSandbox, tokSandboxProject, rootTxQuery, map[string]any{"first": 100, "orderBy": map[string]any{"field": "executionDate", "direction": "Asc"}}, "transactions")
	desc := e.walkConn(pathSandbox, tokSandboxProject, rootTxQuery, map[string]any{"first": 77, "orderBy": map[string]any{"field": "executionDate"}}, "transactions")
	a, d := idsOf(asc), idsOf(desc)
	slices.Reverse(d)
	if !slices.Equal(a, d) || len(a) != len(all) {
		t.Fatalf("executionDate: %d and %d transactions, want %d, one the other reversed", len(a), len(d), len(all))
	}
	for i := 1; i < len(asc); i++ {
		if str(asc[i-1], "executionDate") > str(asc[i], "executionDate") {
			t.Fatalf("executionDate order broken at %d", i)
		}
	}
	// Every status comes with its own status type (the data tests check
	// that the generator makes them all).
	for _, n := range all {
		if !slices.Contains(generatedKinds, str(n, "__typename")) || str(n, "statusInfo", "__typename") != str(n, "statusInfo", "status")+"TransactionStatusInfo" {
			t.Fatalf("transaction %v", n)
		}
	}
	checkRootTransactionFilters(t, e, all)
}

// checkRootTransactionFilters checks that each filter of the transactions
// query keeps exactly the transactions of all it names, and that bad
// filters and forged cursors are errors.
func checkRootTransactionFilters(t *testing.T, e *testEnv, all []node) {
	t.Helper()
	pick := all[len(all)/3]
	cents := func(n node) int64 { c, _ := data.ParseAmount(str(n, "amount", "value")); return c }
	for name, tc := range map[string]struct {
		filters map[string]any
		keep    func(node) bool
	}{
		"status":      {map[string]any{"status": []string{"Pending", "Upcoming"}}, func(n node) bool { s := str(n, "statusInfo", "status"); return s == "Pending" || s == "Upcoming" }},
		"product":     {map[string]any{"paymentProduct": []string{"Card", "Fees"}}, func(n node) bool { p := str(n, "paymentProduct"); return p == "Card" || p == "Fees" }},
		"type":        {map[string]any{"type": []string{"SepaDirectDebitOut"}}, func(n node) bool { return str(n, "type") == "SepaDirectDebitOut" }},
		"search":      {map[string]any{"search": strings.ToUpper(str(pick, "reference"))}, func(n node) bool { return str(n, "reference") == str(pick, "reference") }},
		"amount":      {map[string]any{"amount": str(pick, "amount", "value")}, func(n node) bool { return cents(n) == cents(pick) }},
		"above/below": {map[string]any{"isAboveAmount": "50", "isBelowAmount": "100.5"}, func(n node) bool { return cents(n) >= 5000 && cents(n) <= 10050 }},
		"updatedAt": {map[string]any{"isAfterUpdatedAt": str(pick, "updatedAt"), "isBeforeUpdatedAt": "2026-10-20T00:00:00.000Z"}, func(n node) bool {
			u := str(n, "updatedAt")
			return u >= str(pick, "updatedAt") && u < "2026-10-20T00:00:00.000Z"
		}},
		"execution": {map[string]any{"isAfterExecutionDate": "2026-10-25T00:00:00Z"}, func(n node) bool { return str(n, "executionDate") >= "2026-10-25T00:00:00.000Z" }},
		"no fallbacks": {map[string]any{"status": []string{"Rejected"}, "includeRejectedWithFallback": false}, func(n node) bool {
			return str(n, "statusInfo", "status") == "Rejected" && dig(n, "statusInfo", "hasFallback") == false
		}},
	} {
		got := e.walkConn(pathSandbox, tokSandboxProject, rootTxQuery, map[string]any{"first": 100, "filters": tc.filters}, "transactions")
		var want []string
		for _, n := range all {
			if tc.keep(n) {
				want = append(want, str(n, "id"))
			}
		}
		if !slices.Equal(idsOf(got), want) || len(want) == 0 {
			t.Errorf("filter %s: %d transactions, %d expected", name, len(got), len(want))
		}
	}
	for _, bad := range []map[string]any{{"amount": "-3"}, {"isAfterUpdatedAt": "yesterday"}} {
		if r := e.query(pathSandbox, tokSandboxProject, rootTxQuery, map[string]any{"first": 5, "filters": bad}); len(r.Errors) == 0 {
			t.Errorf("filter %v must be an error", bad)
		}
	}
	if r := e.query(pathSandbox, tokSandboxProject, rootTxQuery, map[string]any{"first": 5, "after": "bm90LWEtY3Vyc29y"}); len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "cursor") {
		t.Fatalf("a forged cursor: %+v", r.Errors)
	}
}

func openEURAccount(t *testing.T, e *testEnv) *data.Account {
	t.Helper()
	for _, a := range e.sandbox.AllAccounts() {
		if a.Currency == "EUR" && a.Status == "Opened" && a.PaymentLevel == "Unlimited" {
			return a
		}
	}
	t.Fatal("no open EUR account")
	return nil
}

// opTransactionDetail reads every field of a transaction the emulator fills.
const opTransactionDetail = `query($id: ID!) { transaction(id: $id) { __typename id type side label reference counterparty paymentMethodIdentifier createdAt executionDate isCancelable projectId
	  amount { value currency } account { id }
	  statusInfo { __typename status ... on BookedTransactionStatusInfo { bookingDate valueDate balanceAfter { amount { value } sequenceNumber } }
	    ... on RejectedTransactionStatusInfo { rejected: reason hasFallback } ... on ReleasedTransactionStatusInfo { released: reason releaseDate }
	    ... on CanceledTransactionStatusInfo { canceledDate } ... on UpcomingTransactionStatusInfo { executionDate } ... on PendingTransactionStatusInfo { pendingEndDate }
	    ... on DeferredTransactionStatusInfo { deferredEndDate repaymentCycleId } ... on SettledTransactionStatusInfo { settledAt settlementTransactionId } }
	  ... on SEPACreditTransferTransaction { creditor { __typename name IBAN maskedIBAN BIC } debtor { __typename name IBAN maskedIBAN } }
	  ... on SEPADirectDebitTransaction { creditor { __typename name IBAN } debtor { __typename name IBAN } }
	  ... on InternalCreditTransfer { creditor { __typename name accountNumber } debtor { __typename name accountNumber } }
	  ... on FeeTransaction { feesType creditor { __typename name } debtor { __typename accountNumber } }
	  ... on CardTransaction { merchant { ... on CardOutMerchant { merchantName merchantCity merchantCategoryCode } } cardDetails { ... on CardOutDetails { maskedPan card { id } } } } } }`

func TestTransactionDetail(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 30})
	acc := openEURAccount(t, e)
	txs := e.walkConn(pathSandbox, tokSandboxProject, `query($id: ID!, $after: String) { account(accountId: $id) { transactions(first: 9, after: $after, orderBy: {field: createdAt, direction: Asc}) {
	  totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id label createdAt } } } } }`, map[string]any{"id": acc.ID}, "account", "transactions")
	if len(txs) < 3 {
		t.Fatalf("the account has %d transactions", len(txs))
	}
	for i, listed := range txs {
		if i > 0 && str(txs[i-1], "createdAt") > str(listed, "createdAt") {
			t.Fatal("Account.transactions is not in createdAt order")
		}
		var d node
		e.mustData(pathSandbox, tokSandboxProject, opTransactionDetail, map[string]any{"id": str(listed, "id")}, &d)
		tx := dig(d, "transaction").(node)
		if str(tx, "label") != str(listed, "label") || str(tx, "account", "id") != acc.ID || str(tx, "projectId") == "" {
			t.Fatalf("transaction(%s) = %v, listed %v", str(listed, "id"), tx, listed)
		}
		switch str(tx, "__typename") {
		case data.KindSEPACreditTransfer:
			own, other := "creditor", "debtor"
			if str(tx, "side") == "Debit" {
				own, other = other, own
			}
			if str(tx, own, "IBAN") != acc.IBAN || str(tx, other, "IBAN") == "" || !strings.HasSuffix(str(tx, other, "maskedIBAN"), str(tx, other, "IBAN")[len(str(tx, other, "IBAN"))-4:]) {
				t.Fatalf("transfer parties: %v", tx)
			}
		case data.KindCard:
			if str(tx, "merchant", "merchantName") == "" || str(tx, "cardDetails", "maskedPan") == "" {
				t.Fatalf("card payment without merchant or card: %v", tx)
			}
		}
		if str(tx, "statusInfo", "status") == "Booked" && str(tx, "statusInfo", "bookingDate") == "" {
			t.Fatalf("booked without a booking date: %v", tx)
		}
	}
	r := e.query(pathSandbox, tokSandboxProject, opTransactionDetail, map[string]any{"id": "bosci_00000000000000000000000000000000"})
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "no transaction") {
		t.Fatalf("an unknown transaction id: %+v", r.Errors)
	}
}

func TestStatements(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 30})
	acc := e.sandbox.AllAccounts()[2]
	q := `query($id: ID!, $after: String, $orderBy: StatementsOrderByInput, $filters: StatementFiltersInput) { account(accountId: $id) {
	  statements(first: 7, after: $after, orderBy: $orderBy, filters: $filters) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
	    edges { cursor node { id period format status openingDate closingDate createdAt updatedAt account { id }
	      openingBalance { value currency } closingBalance { value } totalCredits { value } totalDebits { value } fees { value } feeCredits { value } feeDebits { value }
	      statusInfo { __typename status ... on GeneratedStatusInfo { url } } } } } } }`
	desc := e.walkConn(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.ID}, "account", "statements")
	asc := e.walkConn(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.ID, "orderBy": map[string]any{"field": "closingDate", "direction": "Asc"}}, "account", "statements")
	if len(desc) < 12 || len(desc) > 37 {
		t.Fatalf("%d statements for an account created %s", len(desc), acc.CreatedAt)
	}
	a, d := idsOf(asc), idsOf(desc)
	slices.Reverse(d)
	if !slices.Equal(a, d) {
		t.Fatal("the default order is not newest first")
	}
	cents := func(n node, k string) int64 {
		c, _ := data.ParseAmount(strings.TrimPrefix(str(n, k, "value"), "-"))
		return c
	}
	for i, st := range asc {
		if str(st, "account", "id") != acc.ID || str(st, "period") != "Monthly" || str(st, "format") != "PDF" {
			t.Fatalf("statement %v", st)
		}
		if cents(st, "closingBalance")-cents(st, "openingBalance") != cents(st, "totalCredits")-cents(st, "totalDebits") {
			t.Fatalf("statement %s does not add up: %v", str(st, "id"), st)
		}
		if i > 0 && str(asc[i-1], "closingBalance", "value") != str(st, "openingBalance", "value") {
			t.Fatalf("statement %s does not open at the previous closing balance", str(st, "id"))
		}
		if str(st, "statusInfo", "status") == "Generated" && !strings.HasSuffix(str(st, "statusInfo", "url"), ".pdf") {
			t.Fatalf("a generated statement has no URL: %v", st)
		}
	}
	if got := e.connAt(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.ID, "filters": map[string]any{"period": "Custom"}}, "account", "statements"); got.TotalCount != 0 {
		t.Fatalf("%d custom statements", got.TotalCount)
	}
	mid := str(asc[len(asc)/2], "updatedAt")
	after := e.walkConn(pathSandbox, tokSandboxProject, q, map[string]any{"id": acc.ID, "filters": map[string]any{"isAfterUpdatedAt": mid}}, "account", "statements")
	if len(after) != len(asc)-len(asc)/2 {
		t.Fatalf("isAfterUpdatedAt %s kept %d of %d", mid, len(after), len(asc))
	}
}
