package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// walkList moves the cursor over every row of l, as a user paging down
// would load them, and returns the rows.
func walkList[T any](d *driver, l *pagedlist.Model[T]) []T {
	d.t.Helper()
	var out []T
	for i := 0; i < l.Len(); i++ {
		d.run(l.SetCursor(i))
		row, ok := l.Selected()
		if !ok {
			d.t.Fatalf("row %d of %d did not load: %v", i, l.Len(), l.Err())
		}
		out = append(out, row)
	}
	return out
}

// every is every item of a connection, read with the API client.
func every[T any](t testing.TB, fetch api.Fetch[T]) []T {
	t.Helper()
	var out []T
	if err := api.Walk(context.Background(), fetch, func(p *api.Page[T]) error { out = append(out, p.Items...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameIDs fails unless got lists exactly want's ids, in order, once each.
func sameIDs[T any](t testing.TB, what string, got, want []T, id func(*T) string) {
	t.Helper()
	seen := map[string]bool{}
	for i := range got {
		if seen[id(&got[i])] {
			t.Fatalf("%s: %s is listed twice", what, id(&got[i]))
		}
		seen[id(&got[i])] = true
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, the API has %d", what, len(got), len(want))
	}
	for i := range got {
		if id(&got[i]) != id(&want[i]) {
			t.Fatalf("%s: row %d is %s, the API has %s", what, i, id(&got[i]), id(&want[i]))
		}
	}
}

// quietClient is an *api.Client whose status updates nobody listens to:
// the synchronous driver would wait on the channel forever.
type quietClient struct{ *api.Client }

func (quietClient) Updates() <-chan api.Status { return nil }

// emu is the UI on real clients against the in-process emulator, driven
// synchronously: every request is answered before the next key.
type emu struct {
	*driver
	emu    *testkit.Emulator
	client *api.Client   // the environment's own client, for the expected rows
	sess   *auth.Session // the environment's session
}

// newEmu opens the UI on the Sandbox environment built through
// internal/app, with the demo user signed in (or the project token).
func newEmu(t testing.TB, eo emulator.Options, project bool) *emu {
	t.Helper()
	e := testkit.StartEmulator(t, eo)
	opts := appOptions(t, e, project, config.Sandbox)
	env := opts.Envs[config.Sandbox]
	client, sess := env.API.(*api.Client), env.Session.(*auth.Session)
	if !project {
		signin.AsDemoUser(t, e, sess, config.Sandbox)
	}
	env.API, env.ProjectAPI = quietClient{client}, quietClient{env.ProjectAPI.(*api.Client)}
	d := &driver{t: t}
	opts.NoColor = true
	opts.Clipboard = func(s string) tea.Cmd { d.copied = append(d.copied, s); return nil }
	opts.tick = func(dur time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return pendingTick{dur, fn} }
	}
	d.m = New(opts)
	t.Cleanup(d.m.Close)
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.send(tea.BackgroundColorMsg{})
	return &emu{driver: d, emu: e, client: client, sess: sess}
}

// opCount is how many GraphQL operations the emulator has served.
func (e *emu) opCount() int { return len(e.emu.Log.Operations(e.t)) }

// opsSince are the GraphQL operations served after the first n.
func (e *emu) opsSince(n int) []string { return e.emu.Log.Operations(e.t)[n:] }

func txID(t *api.TransactionDetail) string     { return t.ID }
func memberID(m *api.AccountMembership) string { return m.ID }
func cardID(c *api.Card) string                { return c.ID }
func statementID(s *api.Statement) string      { return s.ID }

// typeText types s, one key a character.
func (d *driver) typeText(s string) {
	d.t.Helper()
	for _, r := range s {
		d.press(string(r))
	}
}

// Every tab of an account against the emulator: each list has the rows
// the API has, in its order, once each; each row opens its detail; an
// account costs one request to open, with every tab's first page: the
// tabs cost none.
func TestEmulatorAccountTabs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	acct, ok := e.accounts().list.Selected()
	if !ok {
		t.Fatal("no account")
	}
	ops := e.opCount()
	e.press("enter")
	s := e.account()
	// One request opens the account and brings its balance chart: a page
	// of the last 30 days' bookings, their last, and the booking before
	// them.
	if got := e.opsSince(ops); len(got) != 1 || got[0] != api.OpAccountViewUser {
		t.Fatalf("the Overview sent %q, want one %s", got, api.OpAccountViewUser)
	}
	e.wantScreen("✓ valid")
	e.wantScreen("Your rights")

	base, want := checkTransactionsTab(t, e, s, acct)
	checkTransactionFilters(t, e, s, base, want)
	checkMembersTab(t, e, s, acct)
	checkCardsAndStatements(t, e, s, acct)

	// Tabs already shown cost nothing again.
	ops = e.opCount()
	e.press("1", "2", "3", "4", "5")
	if got := e.opsSince(ops); len(got) != 0 {
		t.Fatalf("showing tabs again sent %q", got)
	}
}

// checkTransactionsTab shows the account's Transactions tab: no request (the
// opening brought its first page), the API's rows, a row's detail and back. It
// returns the tab's query and its rows.
func checkTransactionsTab(t *testing.T, e *emu, s *accountScreen, acct api.Account) (api.TransactionsParams, []api.TransactionDetail) {
	t.Helper()
	// Transactions.
	ops := e.opCount()
	e.press("2")
	if got := e.opsSince(ops); len(got) != 0 {
		t.Fatalf("the Transactions tab sent %q", got)
	}
	base := api.TransactionsParams{AccountID: acct.ID, OrderBy: api.TxOrderExecutionDate, Direction: api.DirectionDesc}
	want := every(t, api.Pages(e.client.TransactionList, base))
	if len(want) == 0 {
		t.Fatal("the demo account has no transactions")
	}
	t.Logf("%d transactions", len(want))
	sameIDs(t, "transactions", walkList(e.driver, tabOf[*txListScreen](t, s, "Transactions").list), want, txID)
	e.press("g", "enter")
	e.wantScreen(want[0].Type)
	e.wantScreen(signedAmount(want[0].Side, want[0].Amount))
	e.press("a")
	if e.account() != s {
		t.Fatal("a on a transaction of the account below did not go back to it")
	}

	return base, want
}

// checkTransactionFilters filters the Transactions tab by a status, then a
// search, then an amount range: each shows the rows the API has for it.
func checkTransactionFilters(t *testing.T, e *emu, s *accountScreen, base api.TransactionsParams, want []api.TransactionDetail) {
	t.Helper()
	// Filters: a status, then a search, then an amount range.
	ops := e.opCount()
	e.press("f")
	e.typeText("book")
	e.press("tab", "enter")
	if got := e.opsSince(ops); len(got) != 1 {
		t.Fatalf("applying a filter sent %d requests: %q", len(got), got)
	}
	booked := every(t, api.Pages(e.client.TransactionList, withStatus(base, "Booked")))
	sameIDs(t, "booked transactions", walkList(e.driver, tabOf[*txListScreen](t, s, "Transactions").list), booked, txID)
	e.wantScreen("status Booked")
	e.press("esc")
	sameIDs(t, "transactions once the filters are cleared", walkList(e.driver, tabOf[*txListScreen](t, s, "Transactions").list), want, txID)
	word := strings.Fields(want[0].Label)[0]
	e.press("/")
	e.typeText(word)
	e.press("enter")
	searched := base
	searched.Search = word
	sameIDs(t, "transactions found", walkList(e.driver, tabOf[*txListScreen](t, s, "Transactions").list), every(t, api.Pages(e.client.TransactionList, searched)), txID)
	e.press("esc", "f", "down", "down", "down", "down")
	e.typeText("10")
	e.press("down")
	e.typeText("500")
	e.press("enter")
	ranged := base
	ranged.IsAboveAmount, ranged.IsBelowAmount = "10", "500"
	sameIDs(t, "transactions from 10 to 500", walkList(e.driver, tabOf[*txListScreen](t, s, "Transactions").list), every(t, api.Pages(e.client.TransactionList, ranged)), txID)
	e.press("esc")

}

// checkMembersTab shows the account's members, a member and the member's
// cards.
func checkMembersTab(t *testing.T, e *emu, s *accountScreen, acct api.Account) {
	t.Helper()
	// Members, and a member's cards.
	ops := e.opCount()
	e.press("3")
	if got := e.opsSince(ops); len(got) != 0 {
		t.Fatalf("the Members tab sent %q", got)
	}
	members := every(t, api.Pages(e.client.AccountMemberships, api.MembershipsParams{AccountID: acct.ID, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}))
	sameIDs(t, "members", walkList(e.driver, tabOf[*membersScreen](t, s, "Members").list), members, memberID)
	e.press("g", "enter")
	m := topAs[*memberScreen](e.driver)
	e.wantScreen(members[0].Email)
	e.wantScreen("Rights")
	cards := every(t, api.Pages(e.client.Cards, api.CardsParams{MembershipID: members[0].ID, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}))
	sameIDs(t, "the member's cards", walkList(e.driver, m.cards.list), cards, cardID)
	if len(cards) > 0 {
		e.press("g", "enter")
		e.wantScreen(cards[0].CardMaskedNumber)
		e.press("m")
		if topAs[*memberScreen](e.driver) != m {
			t.Fatal("m on a card of the member below did not go back to it")
		}
	}
	e.press("esc")

}

// checkCardsAndStatements shows the account's cards and statements tabs,
// and the first statement.
func checkCardsAndStatements(t *testing.T, e *emu, s *accountScreen, acct api.Account) {
	t.Helper()
	// Cards and statements.
	e.press("4")
	sameIDs(t, "cards", walkList(e.driver, tabOf[*cardsScreen](t, s, "Cards").list),
		every(t, api.Pages(e.client.Cards, api.CardsParams{AccountID: acct.ID, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc})), cardID)
	e.press("5")
	statements := every(t, api.Pages(e.client.Statements, api.StatementsParams{AccountID: acct.ID, OrderBy: "openingDate", Direction: api.DirectionDesc}))
	sameIDs(t, "statements", walkList(e.driver, tabOf[*listScreen[api.Statement]](t, s, "Statements").list), statements, statementID)
	if len(statements) > 0 {
		e.press("g", "enter")
		e.wantScreen(dayText(statements[0].OpeningDate))
		e.press("esc")
	}

}

func withStatus(p api.TransactionsParams, s ...string) api.TransactionsParams {
	p.Status = s
	return p
}

// With a user token, the transactions across accounts are each account's
// in turn (the platform refuses the root query): the list has every
// account's rows, in order, once each, read a page at a time.
func TestEmulatorTransactionsAcrossAccountsUserToken(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 10}, false)
	accounts := every(t, api.Pages(e.client.Accounts, api.AccountsParams{OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}))
	var want []api.TransactionDetail
	for _, a := range accounts {
		want = append(want, every(t, api.Pages(e.client.TransactionList,
			api.TransactionsParams{AccountID: a.ID, OrderBy: api.TxOrderExecutionDate, Direction: api.DirectionDesc}))...)
	}
	if len(want) <= 100 {
		t.Fatalf("the demo user's %d accounts have %d transactions: too few to page", len(accounts), len(want))
	}
	// One list, newest first: the accounts' lists merged.
	want = mergedByDate(want)
	t.Logf("%d accounts, %d transactions", len(accounts), len(want))
	ops := e.opCount()
	jump(e.driver, "transactions")
	s := topAs[*txListScreen](e.driver)
	got := e.opsSince(ops)
	// The accounts come with their first ten rows; the five accounts
	// whose rows run out first are read on in one more request.
	if len(got) != 2 || got[0] != api.OpAccountsTransactionHeads || got[1] != api.OpAccountsTransactionPages {
		t.Fatalf("the first rows of %d accounts took %q, want the accounts with their first rows and one request of five accounts' pages", len(accounts), got)
	}
	e.wantScreen("Accounts › All transactions")
	// G reaches the list's true last row, though the list cannot be read
	// from its end.
	e.press("G")
	if row, ok := s.list.Selected(); !ok || row.ID != want[len(want)-1].ID || s.list.Len() != len(want) {
		t.Fatalf("G: row %v (%v) of %d, want the last of %d, %s", row.ID, ok, s.list.Len(), len(want), want[len(want)-1].ID)
	}
	e.wantScreen("all " + itoa(len(accounts)) + " accounts read")
	sameIDs(t, "transactions across accounts", walkList(e.driver, s.list), want, txID)

	// A filter applies to every account.
	e.press("f")
	e.typeText("Pending")
	e.press("enter")
	var pending []api.TransactionDetail
	for _, tx := range want {
		if tx.StatusInfo.Status == "Pending" {
			pending = append(pending, tx)
		}
	}
	sameIDs(t, "pending transactions across accounts", walkList(e.driver, s.list), pending, txID)
}

func itoa(n int) string { return strconv.Itoa(n) }

// mergedByDate is the accounts' lists (each newest execution first, one
// after another) merged into one, newest first; at the same date, the
// account listed first comes first, as the list across accounts merges
// them.
func mergedByDate(l []api.TransactionDetail) []api.TransactionDetail {
	out := slices.Clone(l)
	slices.SortStableFunc(out, func(a, b api.TransactionDetail) int { return b.ExecutionDate.Compare(a.ExecutionDate) })
	return out
}

// With a project token the : palette's views are the project's: one
// list of transactions (read from either end), every membership, every
// card; and any resource opens by id.
func TestEmulatorPaletteProjectToken(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 40}, true)
	base := api.TransactionsParams{OrderBy: api.TxOrderExecutionDate, Direction: api.DirectionDesc}

	ops := e.opCount()
	jump(e.driver, "tr")
	s := topAs[*txListScreen](e.driver)
	if got := e.opsSince(ops); len(got) != 1 || got[0] != api.OpProjectTransactions {
		t.Fatalf("the first rows took %q", got)
	}
	// The first 250 rows, as the API pages them.
	var want []api.TransactionDetail
	_ = api.Walk(context.Background(), api.Pages(e.client.TransactionList, base), func(p *api.Page[api.TransactionDetail]) error {
		want = append(want, p.Items...)
		if len(want) >= 250 {
			return errEnoughRows
		}
		return nil
	})
	var got []api.TransactionDetail
	for i := 0; i < 250; i++ {
		e.run(s.list.SetCursor(i))
		row, ok := s.list.Selected()
		if !ok {
			t.Fatalf("row %d did not load: %v", i, s.list.Err())
		}
		got = append(got, row)
	}
	sameIDs(t, "the project's first transactions", got, want[:250], txID)
	// G reads the end in one request: the oldest transaction.
	ops = e.opCount()
	e.press("G")
	gOps := e.opsSince(ops)
	last, _ := s.list.Selected()
	asc := base
	asc.Direction, asc.First = api.DirectionAsc, 1
	oldest, err := e.client.TransactionList(context.Background(), asc)
	if err != nil || len(oldest.Items) != 1 || last.ID != oldest.Items[0].ID || len(gOps) != 1 {
		t.Fatalf("G: row %s after %q, the oldest is %+v (%v)", last.ID, gOps, oldest.Items, err)
	}
	e.press("enter")
	e.wantScreen(last.ID)

	// Every membership, paged.
	jump(e.driver, "members")
	e.wantScreen("Accounts › All members")
	members := every(t, api.Pages(e.client.AccountMemberships, api.MembershipsParams{OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}))
	if len(members) <= 100 {
		t.Fatalf("%d memberships: too few to page", len(members))
	}
	sameIDs(t, "every membership", walkList(e.driver, topAs[*membersScreen](e.driver).list), members, memberID)

	// Every card.
	jump(e.driver, "cards")
	e.wantScreen("Accounts › All cards")
	cards := every(t, api.Pages(e.client.Cards, api.CardsParams{OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}))
	sameIDs(t, "every card", walkList(e.driver, topAs[*cardsScreen](e.driver).list), cards, cardID)

	// Resources by id, each in place of the trail above the account
	// list, and back to the list with :accounts.
	acct := members[0].Account
	jump(e.driver, "account "+acct.ID)
	e.wantScreen("Accounts › " + acct.Name)
	if len(e.m.stack) != 2 {
		t.Fatalf(":account left %d screens", len(e.m.stack))
	}
	jump(e.driver, "member "+members[0].ID)
	e.wantScreen(members[0].Email)
	jump(e.driver, "card "+cards[0].ID)
	e.wantScreen(cards[0].CardMaskedNumber)
	jump(e.driver, "transaction "+want[0].ID)
	e.wantScreen(want[0].ID)
	e.wantScreen(want[0].Type)
	jump(e.driver, "accounts")
	e.accounts()
	if len(e.m.stack) != 1 {
		t.Fatalf(":accounts left %d screens", len(e.m.stack))
	}
}

var errEnoughRows = errors.New("enough rows")

// The Overview says why an IBAN is missing: a Limited account has none,
// and a membership without canViewAccount shows none (nor the history).
func TestEmulatorHiddenIBANSaysWhy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	accounts := every(t, api.Pages(e.client.Accounts, api.AccountsParams{}))
	var limited, noView string
	for _, a := range accounts {
		d, err := e.client.AccountDetail(context.Background(), a.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		switch hidden := d.IBANHidden(); {
		case slices.Contains(hidden, api.IBANLimitedAccount) && limited == "":
			limited = a.ID
		case slices.Contains(hidden, api.IBANNoViewRight) && noView == "":
			noView = a.ID
		}
	}
	if limited == "" || noView == "" {
		t.Fatalf("the demo user has no Limited account (%q) or no account without canViewAccount (%q)", limited, noView)
	}
	e.send(openMsg{envTag{config.Sandbox}, resourceAccount, limited})
	e.wantScreen("IBAN        not shown: the account is Limited; only Unlimited ones get an IBAN")
	e.press("esc")
	e.send(openMsg{envTag{config.Sandbox}, resourceAccount, noView})
	e.wantScreen("your membership lacks canViewAccount")
	e.press("2")
	e.wantScreen("No transactions shown: your membership of this account lacks canViewAccount")
}

// G in the Events view reads the log no further than the user asks: the
// log reads newest first only, so each G goes to the oldest entry read so
// far and reads the page before it (one request), until the oldest
// delivery (issue 31, item 7).
func TestEmulatorEventsGReadsAPageAPress(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 10, WebhookMaxRetries: -1}, true)
	ctx := context.Background()
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(hook.Close)
	if _, err := e.client.AddWebhookSubscription(ctx, api.WebhookSubscriptionInput{Label: "bottom", Endpoint: hook.URL,
		EventTypes: []string{"Transaction.Pending"}}); err != nil {
		t.Fatalf("add a subscription: %v", err)
	}
	accounts, err := e.client.Accounts(ctx, api.AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	var acc *api.Account
	for i := range accounts.Items {
		if accounts.Items[i].IBAN != "" {
			acc = &accounts.Items[i]
			break
		}
	}
	if acc == nil {
		t.Fatal("no open account with an IBAN")
	}
	if _, err := e.client.SimulateIncomingTransfer(ctx, api.IncomingTransfer{Amount: api.Amount{Value: "1.00", Currency: acc.Currency},
		CreditorIBAN: acc.IBAN, CreditorName: acc.Holder.Info.Name, DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "Debtor"}); err != nil {
		t.Fatal(err)
	}
	// The delivery is logged once the endpoint has answered: wait for the
	// emulator's next log entry while the log is empty.
	var first *api.WebhookEventLog
	for first == nil {
		recorded := e.emu.Server.WebhookRecorded("sandbox")
		logs, err := e.client.WebhookEventLogs(ctx, api.WebhookEventLogsParams{First: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(logs.Items) > 0 {
			first = &logs.Items[0]
			break
		}
		select {
		case <-recorded:
		case <-time.After(10 * time.Second):
			t.Fatal("the transfer's Transaction.Pending delivery was not logged within 10s")
		}
	}
	// Each replay is one more entry, logged before the mutation answers:
	// 130 entries, two pages and a part beyond the first.
	const entries = 130
	for range entries - 1 {
		if _, err := e.client.ReplayWebhookEvent(ctx, first.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	want := every(t, api.Pages(e.client.WebhookEventLogs, api.WebhookEventLogsParams{}))
	if len(want) != entries || want[len(want)-1].ID != first.ID {
		t.Fatalf("the log has %d entries ending with %s, want %d ending with the first delivery %s", len(want), want[len(want)-1].ID, entries, first.ID)
	}

	e.press("E")
	s := e.events()
	if s.list.Len() != entries || s.list.Loaded() != eventsPageSize {
		t.Fatalf("the Events view opened with %d of %d entries", s.list.Loaded(), s.list.Len())
	}
	// Each G goes to the oldest entry read so far and reads the page
	// before it: one request, and nothing read behind the user's back.
	for i, want := range []struct{ row, ops int }{{eventsPageSize, 1}, {2 * eventsPageSize, 1}, {entries, 0}} {
		ops := e.opCount()
		e.press("G")
		if s.list.Cursor() != want.row-1 {
			t.Fatalf("G #%d: row %d, want %d", i+1, s.list.Cursor()+1, want.row)
		}
		if got := e.opsSince(ops); len(got) != want.ops || (want.ops == 1 && got[0] != api.OpWebhookEventLogs) {
			t.Errorf("G #%d took %q, want %d page(s) of the log", i+1, got, want.ops)
		}
	}
	last, ok := s.list.Selected()
	if !ok || last.ID != first.ID {
		t.Fatalf("the last G: %s (loaded %v), want the oldest entry %s", last.ID, ok, first.ID)
	}
	sameIDs(t, "the Events view after G", walkList(e.driver, s.list), want, func(l *api.WebhookEventLog) string { return l.ID })
	e.wantScreen(fmt.Sprintf("row %d of %d/%d", entries, entries, entries))
	e.wantScreen("tail paused on older events (g for the newest)")
}
