package ui

import (
	"errors"
	"image/color"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
)

// An account costs one request to open, which brings every tab's first
// page and the Overview's balance chart (its bookings of the last 30 days
// fit a page): showing the tabs costs none.
func TestAccountTabsReadOnFirstShow(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 5)
	before := d.sbx.requests()
	d.press("enter")
	if n, chart := d.sbx.requests()-before, d.sbx.chartReads(); n != 1 || chart != 0 || d.sbx.viewCalls != 1 {
		t.Fatalf("opening the account sent %d requests, %d of them the chart's, want its one", n, chart)
	}
	if !d.overview().chart.complete() {
		t.Fatal("the chart is not drawn complete from the account's one request")
	}
	for _, tab := range []string{"2", "3", "4", "5"} {
		d.press(tab)
		if n := d.sbx.requests() - before; n != 1 {
			t.Fatalf("tab %s: %d requests in all", tab, n)
		}
	}
	d.wantScreen("Period")
	d.press("tab", "tab", "shift+tab", "1", "2")
	if n := d.sbx.requests() - before; n != 1 {
		t.Fatalf("tabs shown again sent requests: %d in all", n)
	}
	d.wantScreen(d.sbx.txs["acc-0"][0].Label)
	if a := d.account(); a.active != tabIndex(t, a, "Transactions") || a.title() != "Account 0 › Transactions" {
		t.Fatalf("active tab %d, title %q", a.active, a.title())
	}
	d.wantScreen("Accounts › Account 0 › Transactions")
}

// When the request that opens an account fails, each part is read on its
// own, as if it had never been sent, and each tab says what went wrong
// with its own read.
func TestAccountOpeningFallsBackToEachPart(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 5)
	d.sbx.viewErr = errors.New("the combined read failed")
	before := d.sbx.requests()
	d.press("enter")
	if n := d.sbx.requests() - before; n != 2+aloneChartReads || d.sbx.viewCalls != 1 || d.sbx.detailCalls != 1 || d.sbx.chartReads() != aloneChartReads {
		t.Fatalf("opening the account after a failed view: %d requests, %d views, %d details, %d the chart's", n, d.sbx.viewCalls, d.sbx.detailCalls, d.sbx.chartReads())
	}
	d.wantScreen("Your rights")
	d.press("2")
	if n := len(d.sbx.txParams) - d.sbx.chartReads(); n != 1 {
		t.Fatalf("the Transactions tab after a failed view read %d times", n)
	}
	d.wantScreen(d.sbx.txs["acc-0"][0].Label)
}

// The tab bar is drawn once and kept while keys move a tab's list; it is
// drawn again for another tab, another width and other styles.
func TestAccountTabBarRedrawnOnlyWhenItChanges(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, color: true, w: 120, h: 30})
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 50)
	d.press("enter", "2")
	a := d.account()
	bar := strings.Split(d.m.render(), "\n")[1]
	d.press("j", "j", "pgdown")
	if got := strings.Split(d.m.render(), "\n")[1]; got != bar || a.bar != bar {
		t.Fatalf("the tab bar changed with the cursor:\n%q\n%q", bar, got)
	}
	d.press("3")
	if got := strings.Split(d.m.render(), "\n")[1]; got == bar || !strings.Contains(ansi.Strip(got), "Members") {
		t.Fatalf("the tab bar did not follow the tab: %q", got)
	}
	d.send(tea.WindowSizeMsg{Width: 30, Height: 30})
	if got := ansi.Strip(strings.Split(d.m.render(), "\n")[1]); !strings.Contains(got, "3/"+strconv.Itoa(len(a.tabs))) {
		t.Fatalf("the narrow tab bar is %q", got)
	}
	d.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	dark := strings.Split(d.m.render(), "\n")[1]
	d.send(tea.BackgroundColorMsg{Color: color.White})
	if light := strings.Split(d.m.render(), "\n")[1]; light == dark || ansi.Strip(light) != ansi.Strip(dark) {
		t.Fatalf("the tab bar did not take the light styles:\n%q\n%q", dark, light)
	}
}

// The filter form checks what is typed and sends the schema's filters:
// statuses and types as the schema spells them, the end day included,
// the amounts as typed.
func TestTransactionFiltersAreCheckedAndSent(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 160, h: 40})
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 30)
	d.press("enter", "2", "f")
	d.typeText("booked,pend")
	d.press("tab") // completes Pending
	d.press("down")
	d.typeText("sepacredittransferi")
	d.press("tab") // the only type it begins
	d.press("down")
	d.typeText("2026-03-05")
	d.press("down")
	d.typeText("2026-03-01")
	calls := len(d.sbx.txParams)
	d.press("enter")
	d.wantScreen("To: 2026-03-01 is before the start of the range, 2026-03-05")
	if len(d.sbx.txParams) != calls || !d.account().capturing() {
		t.Fatal("a wrong range was sent")
	}
	for range 10 {
		d.press("backspace")
	}
	d.typeText("2026-03-10")
	d.press("down")
	d.typeText("12,5")
	d.press("down")
	d.typeText("abc")
	d.press("enter")
	d.wantScreen("Max: “abc” is not an amount")
	for range 3 {
		d.press("backspace")
	}
	d.typeText("20")
	d.press("down")
	d.typeText("Payment")
	d.press("enter")
	if d.account().capturing() || len(d.sbx.txParams) != calls+1 {
		t.Fatalf("the filters were not applied: %d requests", len(d.sbx.txParams)-calls)
	}
	p := d.sbx.txParams[calls]
	want := api.TransactionsParams{AccountID: "acc-0", First: p.First, OrderBy: api.TxOrderExecutionDate, Direction: api.DirectionDesc,
		Status: []string{"Booked", "Pending"}, Type: []string{"SepaCreditTransferIn"},
		IsAfterExecutionDate:  time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC),
		IsBeforeExecutionDate: time.Date(2026, 3, 11, 0, 0, 0, 0, time.UTC),
		IsAboveAmount:         "12.5", IsBelowAmount: "20", Search: "Payment"}
	if !sameParams(p, want) {
		t.Fatalf("sent %+v\nwant %+v", p, want)
	}
	// Executed 5 to 10 March, 14.00 to 19.00 EUR: Payments 4 to 9.
	if l := tabOf[*txListScreen](t, d.account(), "Transactions").list; l.Len() != 6 {
		t.Fatalf("%d rows match", l.Len())
	}
	d.wantScreen("status Booked,Pending · type SepaCreditTransferIn · from 2026-03-05 · to 2026-03-10 · ≥ 12.5 · ≤ 20 · “Payment”")
	// esc clears every filter at once; then it goes back.
	d.press("esc")
	if p := d.sbx.txParams[len(d.sbx.txParams)-1]; len(p.Status) != 0 || p.Search != "" || tabOf[*txListScreen](t, d.account(), "Transactions").list.Len() != 30 {
		t.Fatalf("esc kept filters: %+v", p)
	}
	d.press("esc")
	d.accounts()
}

func sameParams(a, b api.TransactionsParams) bool {
	return strings.Join(a.Status, ",") == strings.Join(b.Status, ",") && strings.Join(a.Type, ",") == strings.Join(b.Type, ",") &&
		a.IsAfterExecutionDate.Equal(b.IsAfterExecutionDate) && a.IsBeforeExecutionDate.Equal(b.IsBeforeExecutionDate) &&
		a.IsAboveAmount == b.IsAboveAmount && a.IsBelowAmount == b.IsBelowAmount && a.Search == b.Search &&
		a.AccountID == b.AccountID && a.OrderBy == b.OrderBy && a.Direction == b.Direction
}

// tab completes a status or type from what is typed: the whole of the
// only one it begins, else as far as they agree; then it moves on.
func TestFilterCompletion(t *testing.T) {
	t.Parallel()
	c := newDriver(t, fixture{rows: 1, signedIn: true}).m.c
	cases := []struct {
		field int
		typed string
		want  string
	}{
		{filterStatus, "bo", "Booked"},
		{filterStatus, "Booked,re", "Booked,Re"}, // Rejected, Released
		{filterStatus, "Booked, rel", "Booked, Released"},
		{filterType, "sepacredittransferin", "SepaCreditTransferIn"}, // In, InReturn, InRecall share it
		{filterType, "fees", "Fees"},
		{filterType, "CardOutDebitR", "CardOutDebitReversal"},
	}
	for _, tc := range cases {
		f := newTxFilterForm(c, txFilter{}, tc.field)
		f.fields[tc.field].in.SetValue(tc.typed)
		f.handleKey(keyMsg("tab"))
		if got := f.fields[tc.field].in.Value(); got != tc.want || f.focus != tc.field {
			t.Errorf("%q + tab = %q (field %d), want %q", tc.typed, got, f.focus, tc.want)
		}
	}
	// Nothing to complete: tab goes to the next field.
	f := newTxFilterForm(c, txFilter{}, filterStatus)
	f.handleKey(keyMsg("tab"))
	if f.focus != filterType {
		t.Fatalf("tab on an empty field stayed on field %d", f.focus)
	}
	f.fields[filterType].in.SetValue("nope")
	if _, out := f.handleKey(keyMsg("enter")); out != formKept || f.err == nil || !strings.Contains(f.err.Error(), "“nope” is not a transaction type") {
		t.Fatalf("an unknown type: outcome %d, error %v", out, f.err)
	}
}

// Across accounts with a user token, the list merges the accounts' lists:
// accounts with no transactions add nothing, pages span accounts, the rows
// come newest first with no row missed or repeated, five accounts are read
// per request, and the status line says how far it got.
func TestTransactionsAcrossAccountsWalk(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 130, signedIn: true, w: 100, h: 30}, func(d *driver) {
		for i, n := range map[int]int{1: 150, 4: 30, 5: 70, 128: 3} {
			id := d.sbx.accounts[i].ID
			// Each account's list newest first, as the platform serves it.
			d.sbx.txs[id] = mergedByDate(makeTxs(id, n))
		}
	})
	var want []api.TransactionDetail
	for _, a := range d.sbx.accounts {
		want = append(want, d.sbx.txs[a.ID]...)
	}
	want = mergedByDate(want)
	jump(d, "transactions")
	s := topAs[*txListScreen](d)
	if s.list.Loaded() != 100 {
		t.Fatalf("first page: %d rows", s.list.Loaded())
	}
	// The first page needs every account's first: 26 requests of five.
	if n := len(d.sbx.txPages); n != 26 {
		t.Errorf("the first page took %d requests of accounts' pages, want 26", n)
	}
	d.wantScreen("130 accounts merged")
	sameIDs(t, "transactions across accounts", walkList(d, s.list), want, txID)
	d.wantScreen("all 130 accounts read")
	// The root query, which a user token may not call, was never sent.
	for _, p := range d.sbx.txParams {
		if p.AccountID == "" {
			t.Fatal("the project's transactions were asked for with a user token")
		}
	}
	for _, ps := range d.sbx.txPages {
		for _, p := range ps {
			if p.AccountID == "" {
				t.Fatal("an account's page was asked for without the account")
			}
		}
	}
}

// A failure in the middle of a walk keeps the rows read and shows the
// error; r reads on from where they end.
func TestTransactionsAcrossAccountsWalkError(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 4, signedIn: true, w: 100, h: 30}, func(d *driver) {
		d.sbx.txs["acc-0"] = makeTxs("acc-0", 150)
		d.sbx.txs["acc-3"] = makeTxs("acc-3", 5)
	})
	jump(d, "transactions")
	s := topAs[*txListScreen](d)
	d.sbx.err = errors.New("connection reset")
	rows := 0
	for rows < 160 && s.list.Err() == nil {
		d.press("j")
		rows++
	}
	if s.list.Err() == nil || s.list.Loaded() != 100 {
		t.Fatalf("error %v with %d rows", s.list.Err(), s.list.Loaded())
	}
	d.wantScreen("Connection reset.")
	d.sbx.err = nil
	d.press("j")
	walkList(d, s.list)
	if s.list.Loaded() != 155 || s.list.Len() != 155 {
		t.Fatalf("after the error: %d of %d", s.list.Loaded(), s.list.Len())
	}
}

// With a project token, transactions across accounts are one list that
// reads from either end.
func TestTransactionsAcrossAccountsProjectToken(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 3, project: true}, func(d *driver) {
		for _, a := range d.sbx.accounts {
			d.sbx.txs[a.ID] = makeTxs(a.ID, 90)
		}
	})
	jump(d, "transactions")
	s := topAs[*txListScreen](d)
	if n := len(d.sbx.txParams); n != 1 || d.sbx.txParams[0].AccountID != "" {
		t.Fatalf("first rows: %+v", d.sbx.txParams)
	}
	d.press("G")
	last, _ := s.list.Selected()
	if p := d.sbx.txParams[len(d.sbx.txParams)-1]; p.Direction != api.DirectionAsc || last.ID != "tx-acc-2-89" || len(d.sbx.txParams) != 2 {
		t.Fatalf("G: row %s after %+v", last.ID, d.sbx.txParams)
	}
	d.wantScreen("Account 2")
}

// A resource opened by id: account, transaction (with the project's
// client), member, card; one already open is gone back to.
func TestOpenByID(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.sbx.txs["acc-2"] = makeTxs("acc-2", 3)
	open := func(k resourceKind, id string) { d.send(openMsg{envTag{config.Sandbox}, k, id}) }
	open(resourceAccount, "acc-2")
	d.wantScreen("Accounts › Account 2")
	d.wantScreen("Holder 2 (Individual)")
	open(resourceTransaction, "tx-acc-2-1")
	if d.sbxP.txCalls != 1 {
		t.Fatalf("the transaction was read %d times with the project's client", d.sbxP.txCalls)
	}
	d.wantScreen("Accounts › Account 2 › Payment 1")
	d.wantScreen("+11.00 EUR")
	d.wantScreen("DE89 3704 0044 0532 0130 00 · COBADEFFXXX")
	open(resourceMembership, "mem-acc-1-0")
	d.wantScreen("Jane Doe")
	d.wantScreen("Cards (2)")
	open(resourceCard, "card-mem-acc-1-0-1")
	d.wantScreen("5399 •••• •••• 1012 Card 1")
	d.wantScreen("2000.00 EUR Monthly (Partner)")
	stack := len(d.m.stack)
	d.press("m") // the membership is below: back to it
	if len(d.m.stack) != stack-1 {
		t.Fatalf("m stacked a copy: %d screens", len(d.m.stack))
	}
	open(resourceAccount, "acc-2")
	if len(d.m.stack) != 2 || d.account().overview.acct.ID != "acc-2" {
		t.Fatalf("reopening the account: %d screens", len(d.m.stack))
	}
	// A missing card says so, with the way out.
	open(resourceCard, "card-nope")
	d.wantScreen("✗ Could not load the card.")
	d.wantScreen("not found")
}

// Without a project-token client a transaction cannot be read by id: the
// screen says so instead of sending anything.
func TestTransactionByIDWithoutProjectClient(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 160, h: 40, noEvents: true})
	before := d.sbx.requests()
	d.send(openMsg{envTag{config.Sandbox}, resourceTransaction, "tx-1"})
	d.wantScreen("Looking a transaction up by its ID takes the project's token, and Sandbox has no project-token client.")
	if d.sbx.requests() != before {
		t.Fatal("a request was sent")
	}
}

// A member's cards are its own; a card's member and account open.
func TestMemberCardsAndLinks(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("enter", "3")
	d.wantScreen("✓ ✓ ✓ ✓ ✓ Enabled")
	d.wantScreen("✓ · ✓ · · InvitationSent")
	d.press("j", "enter")
	d.wantScreen("Invited   Max Roe · born 1990-04-01 · +33700000001")
	d.wantScreen("Cards (0)")
	d.wantScreen("This member has no cards.")
	if p := d.sbx.cardCalls[len(d.sbx.cardCalls)-1]; p.MembershipID != "mem-acc-0-1" {
		t.Fatalf("cards asked with %+v", p)
	}
	d.press("esc", "g", "enter", "enter")
	card := topAs[*cardScreen](d)
	d.wantScreen("✓ withdrawal  ✓ international  ✓ e-commerce")
	d.press("a")
	if d.account().overview.acct.ID != "acc-0" || len(d.m.stack) != 2 {
		t.Fatalf("a on the card did not go back to its account: %d screens", len(d.m.stack))
	}
	_ = card
}

// The Overview says each reason an IBAN is missing, and the tabs the
// platform empties for a member without canViewAccount say why.
func TestHiddenIBANReasons(t *testing.T) {
	t.Parallel()
	cases := []struct {
		level string
		view  bool
		want  []string
	}{
		{"Limited", true, []string{"IBAN        not shown: the account is Limited; only Unlimited ones get an IBAN"}},
		{"Unlimited", false, []string{"IBAN        not shown: your membership lacks canViewAccount"}},
		{"Limited", false, []string{"not shown: the account is Limited", "also: your membership lacks canViewAccount"}},
		{"Unlimited", true, []string{"IBAN        not shown: none is assigned to this account yet"}},
	}
	for _, tc := range cases {
		d := newDriverWith(t, fixture{rows: 1, signedIn: true, w: 120, h: 40}, func(d *driver) {
			d.sbx.accounts[0].IBAN, d.sbx.accounts[0].PaymentLevel = "", tc.level
			d.sbx.viewer = map[string]*api.AccountMembership{"acc-0": {CanViewAccount: tc.view, StatusInfo: api.MembershipStatusInfo{Status: "Enabled"}}}
		})
		d.press("enter")
		for _, w := range tc.want {
			d.wantScreen(w)
		}
		d.press("5")
		if tc.view {
			d.wantScreen("2026-10-01 2026-10-31")
		} else {
			d.wantScreen("No statements shown: your membership of this account lacks canViewAccount")
		}
	}
}

// A simulated transfer reads the Transactions tab again once it was shown.
func TestSimulatedTransferRefreshesTransactions(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	d.press("enter", "2", "1")
	calls, chart := len(d.sbx.txParams), d.sbx.chartReads()
	d.press("s", "5", "enter")
	// The tab's list once, and the chart on its own after the account
	// again.
	if lists, charts := len(d.sbx.txParams)-calls-(d.sbx.chartReads()-chart), d.sbx.chartReads()-chart; lists != 1 || charts != aloneChartReads {
		t.Fatalf("%d list and %d chart requests after the transfer", lists, charts)
	}
}

// The palette finds a target by its name or the start of it, fitting
// what follows it, and says what is wrong otherwise.
func TestPaletteResolve(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	p := newPaletteScreen(d.m.c, d.m.env, d.m.top())
	cases := []struct{ typed, target, arg, err string }{
		{"accounts", "accounts", "", ""},
		{"acc", "accounts", "", ""},
		{"account acc-1", "account", "acc-1", ""},
		{"acc acc-1", "account", "acc-1", ""},
		{"Transaction", "transactions", "", ""},
		{"tr tx-1", "transaction", "tx-1", ""},
		{"m", "members", "", ""},
		{"c", "cards", "", ""},
		{"", "", "", "Type where to go"},
		{"x", "", "", "Nothing is called “x”"},
		{"members foo", "", "", "members takes nothing after it"},
		{"card", "cards", "", ""},
		{"cards foo", "", "", "cards takes nothing after it"},
	}
	for _, tc := range cases {
		p.in.SetValue(tc.typed)
		tg, arg, err := p.resolve()
		if tc.err != "" {
			if !strings.Contains(err, tc.err) {
				t.Errorf("%q: error %q, want %q", tc.typed, err, tc.err)
			}
			continue
		}
		if err != "" || tg.name != tc.target || arg != tc.arg {
			t.Errorf("%q: %q %q (%s), want %q %q", tc.typed, tg.name, arg, err, tc.target, tc.arg)
		}
	}
	p.in.SetValue("member")
	if tg, _, err := p.resolve(); err != "" || tg.name != "members" {
		t.Errorf("member: %s %s", tg.name, err)
	}
	for typed, want := range map[string]string{"tra": "transaction", "car": "card", "acco": "account", "accounts": "accounts",
		"transactio": "transaction", "x": "x"} {
		p.in.SetValue(typed)
		p.complete()
		if p.in.Value() != want {
			t.Errorf("%s + tab = %q, want %q", typed, p.in.Value(), want)
		}
	}
}

// The palette is over the screen it was opened on, esc leaves it as it
// was, and a jump replaces what was above the account list.
func TestPaletteJumps(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("enter", "3", ":")
	if !d.m.top().capturing() {
		t.Fatal(": did not open the palette")
	}
	d.wantScreen("Accounts › Account 0 › Members\n") // no crumb of its own
	d.wantScreen("accounts  transactions  members  cards  events  insights  holders  onboardings")
	d.press("q", "e") // text, not quit or switch
	if d.quit || d.m.confirm {
		t.Fatal("a global key fired in the palette")
	}
	d.press("esc")
	if _, ok := d.m.top().(*accountScreen); !ok || len(d.m.stack) != 2 {
		t.Fatalf("esc: top %T, %d screens", d.m.top(), len(d.m.stack))
	}
	jump(d, "cards")
	if len(d.m.stack) != 2 || d.m.top().title() != "All cards" {
		t.Fatalf(":cards: %d screens, top %q", len(d.m.stack), d.m.top().title())
	}
	d.wantScreen("Accounts › All cards")
	jump(d, "nothing")
	d.wantScreen("✗ Nothing is called “nothing”")
	d.press("esc")
	jump(d, "accounts")
	d.accounts()
	if len(d.m.stack) != 1 {
		t.Fatalf(":accounts left %d screens", len(d.m.stack))
	}
	// Not before sign-in: nothing to jump to.
	s := newDriver(t, fixture{rows: 1})
	s.press(":")
	s.signin()
	if len(s.m.stack) != 1 {
		t.Fatal(": opened the palette on the sign-in screen")
	}
}

// Each new screen fits every terminal size, down to 40×10.
func TestWholeAccountScreensFitSmallTerminals(t *testing.T) {
	t.Parallel()
	steps := []struct {
		keys []string
		what string
	}{
		{[]string{"enter"}, "overview"},
		{[]string{"2"}, "transactions"},
		{[]string{"f"}, "filters"},
		{[]string{"esc", "enter"}, "transaction"},
		{[]string{"esc", "3"}, "members"},
		{[]string{"enter"}, "member"},
		{[]string{"enter"}, "card"},
		{[]string{"esc", "esc", "4"}, "cards"},
		{[]string{"5"}, "statements"},
		{[]string{"enter"}, "statement"},
		{[]string{"esc", ":"}, "palette"},
		{[]string{"t", "r", "a", "n", "s", "enter"}, "all transactions"},
		{[]string{"?"}, "help"},
	}
	for _, sz := range [][2]int{{40, 10}, {41, 11}, {50, 12}, {60, 15}, {80, 24}, {120, 40}, {200, 60}} {
		d := newDriverWith(t, fixture{rows: 5, signedIn: true, w: sz[0], h: sz[1]}, func(d *driver) {
			for _, a := range d.sbx.accounts {
				d.sbx.txs[a.ID] = makeTxs(a.ID, 40)
			}
		})
		for _, st := range steps {
			d.press(st.keys...)
			lines := strings.Split(d.screen(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d %s: %d lines", sz[0], sz[1], st.what, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > sz[0] {
					t.Fatalf("%dx%d %s: line %d is %d wide: %q", sz[0], sz[1], st.what, i, w, l)
				}
			}
		}
	}
}

// An account seen before opens at once with what it showed then, its age
// on screen, while one request reads it again; the new rows then replace
// the kept ones, in the Overview and in a tab shown meanwhile.
func TestRevisitShowsKeptRowsThenFreshOnes(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	clk := testclock.New(testNow)
	d.m.c.now = clk.Now
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 5)
	d.press("enter", "2")
	d.wantScreen("Payment 0")
	d.press("esc")

	// Meanwhile the account changed on the server.
	clk.Advance(40 * time.Second)
	d.sbx.mu.Lock()
	d.sbx.txs["acc-0"][0].Label = "Fresh payment"
	d.sbx.accounts[0].Name = "Renamed account"
	d.sbx.mu.Unlock()
	before := d.sbx.requests()

	// The key opens the screen; what opening it sends is kept back.
	revalidate := d.update(d.update(keyMsg("enter"))())
	if n := d.sbx.requests() - before; n != 0 {
		t.Fatalf("opening a seen account sent %d requests before showing it", n)
	}
	d.wantScreen("Account 0")
	d.wantScreen("updated 40s ago · ")
	d.run(d.update(keyMsg("2")))
	d.wantScreen("Payment 0")
	d.wantScreen("updated 40s ago")
	if n := d.sbx.requests() - before; n != 0 {
		t.Fatalf("the kept Transactions tab sent %d requests", n)
	}

	d.run(revalidate)
	d.wantScreen("Fresh payment")
	if strings.Contains(d.screen(), "Payment 0") || !strings.Contains(d.screen(), "updated 0s ago") {
		t.Fatalf("the kept rows stayed after the fresh ones came:\n%s", d.screen())
	}
	d.press("1")
	d.wantScreen("Renamed account")
	if strings.Contains(d.screen(), "ago") {
		t.Fatalf("the fresh Overview still shows an age:\n%s", d.screen())
	}
	// The view, the chart's reads in it, at the first visit as now.
	if n, chart := d.sbx.requests()-before, d.sbx.chartReads(); n != 1 || chart != 0 || d.sbx.viewCalls != 2 {
		t.Fatalf("the revisit cost %d requests (%d views, %d the chart's), want the one view", n, d.sbx.viewCalls, chart)
	}
	if ch := d.overview().chart; !ch.complete() || !ch.keptAt().IsZero() {
		t.Fatalf("the revisit's chart is not the fresh one: complete %v, kept at %v", ch.complete(), ch.keptAt())
	}
}

// A simulated transfer changes the account: it is not shown from memory
// when opened again.
func TestSimulationForgetsTheKeptAccount(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 5)
	d.press("enter", "s")
	d.typeText("12.00")
	d.press("enter", "esc")
	cmd := d.update(d.update(keyMsg("enter"))())
	if d.overview().detail.item != nil || strings.Contains(d.screen(), "ago") {
		t.Fatalf("the account changed by a simulation was shown from memory:\n%s", d.screen())
	}
	d.run(cmd)
	d.wantScreen("Your rights")
}

// Launch shows the last session's first screen at once, marked as such
// (it stays, marked, when the first answer fails), and the first fresh
// rows replace it and are kept for the next launch.
func TestLaunchShowsTheLastSessionsScreen(t *testing.T) {
	t.Parallel()
	kept := &api.Home{User: &api.User{ID: "user-1", FullName: "Jane Doe"}, Accounts: &api.Page[api.Account]{
		Items: makeAccounts(2), TotalCount: 2}}
	kept.Accounts.Items[0].Name, kept.Accounts.Items[1].Name = "Kept zero", "Kept one"
	d := newDriverWith(t, fixture{rows: 3, signedIn: true}, func(d *driver) {
		d.sbxSnap = &fakeSnapshot{home: kept, saved: testNow.Add(-3 * time.Hour)}
		d.sbx.err = errors.New("network down")
	})
	d.wantScreen("Kept zero")
	d.wantScreen("last session's")
	d.wantScreen("updated 3h00m ago")
	if len(d.sbxSnap.saves) != 0 {
		t.Fatal("a failed read was kept as the snapshot")
	}
	d.sbx.mu.Lock()
	d.sbx.err = nil
	d.sbx.mu.Unlock()
	d.press("r")
	d.wantScreen("Account 2")
	if s := d.screen(); strings.Contains(s, "Kept zero") || strings.Contains(s, "last session's") {
		t.Fatalf("the fresh rows kept the snapshot's or its mark:\n%s", s)
	}

	fresh := newDriverWith(t, fixture{rows: 3, signedIn: true}, func(d *driver) {
		d.sbxSnap = &fakeSnapshot{}
	})
	fresh.wantScreen("Account 2")
	if saves := fresh.sbxSnap.saves; len(saves) != 1 || len(saves[0].Accounts.Items) != 3 || saves[0].User == nil {
		t.Fatalf("the first screen was not kept for the next launch: %+v", saves)
	}
}
