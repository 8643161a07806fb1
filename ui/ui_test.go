package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/iban"
)

// The grouping and checksum are internal/iban's (and tested there); ui adds
// the placeholder for a missing IBAN. Server strings reach the UI already
// stripped by the API client (api's TestEveryDecodedStringIsStripped).
func TestIBANCell(t *testing.T) {
	cases := []struct{ in, want string }{
		{"fr76 3000 6000 0112 3456 7890 189", "FR76 3000 6000 0112 3456 7890 189"},
		{"FR76\t30006000011234567890189", "FR76 3000 6000 0112 3456 7890 189"},
		{"", "—"},
	}
	for _, c := range cases {
		if got := ibanCell(c.in); got != c.want {
			t.Errorf("ibanCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStartsOnSignInWithoutSession(t *testing.T) {
	d := newDriver(t, fixture{rows: 5})
	d.signin()
	d.wantScreen("Sign in to Sandbox")
	d.wantScreen("SANDBOX_test")
	d.wantScreen("SANDBOX")
}

func TestSignInFlowShowsURLAndGoesToAccounts(t *testing.T) {
	d := newDriver(t, fixture{rows: 5})
	cmd := d.update(keyMsg("enter"))
	if s := d.signin(); s.state != signinWaiting {
		t.Fatalf("state %v after enter", s.state)
	}
	d.run(cmd)
	d.accounts()
	if u := d.m.c.env.user; u == nil || u.name != "Jane Doe" {
		t.Fatalf("user after sign-in = %+v", u)
	}
	d.wantScreen("Signed in to Sandbox as Jane Doe")
	d.wantScreen("Jane Doe")
	d.wantScreen("row 1 of 5/5")
}

func TestSignInWaitingShowsURLCopyAndEscCancels(t *testing.T) {
	d := newDriver(t, fixture{rows: 5})
	started := make(chan struct{}, 1)
	d.sbxS.login = func(ctx context.Context, opts auth.LoginOptions) (*auth.Identity, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	cmd := d.update(keyMsg("enter"))
	s := d.signin()
	// The URL arrives while Login still runs.
	s.update(loginURLMsg{envTag{config.Sandbox}, s.id, "http://127.0.0.1:1/oauth2/auth?x=1"})
	d.wantScreen("http://127.0.0.1:1/oauth2/auth?x=1")
	d.press("c")
	if len(d.copied) != 1 || d.copied[0] != "http://127.0.0.1:1/oauth2/auth?x=1" {
		t.Fatalf("copied %q", d.copied)
	}
	d.press("esc")
	if s.state != signinIdle {
		t.Fatalf("state %v after esc", s.state)
	}
	d.run(cmd) // Login sees the cancelled context and returns; its answer is stale
	<-started
	if s.state != signinIdle || s.err != nil {
		t.Fatalf("a cancelled login changed the screen: state %v err %v", s.state, s.err)
	}
	d.wantScreen("Sign-in cancelled")
}

func TestSignInErrorsComeWithRemedy(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{auth.ErrAccessDenied, "You pressed Deny"},
		{auth.ErrCodeRejected, "new code"},
		{auth.ErrInvalidClient, "Generate a new secret"},
		{auth.ErrLoginTimeout, "10 minutes"},
		{errors.New("dial tcp: refused"), "Check the network"},
	}
	for _, c := range cases {
		d := newDriver(t, fixture{rows: 1, w: 120, h: 40})
		err := c.err
		d.sbxS.login = func(context.Context, auth.LoginOptions) (*auth.Identity, error) {
			return nil, fmt.Errorf("sign-in: %w", err)
		}
		d.press("enter")
		if d.signin().state != signinFailed {
			t.Fatalf("%v: not failed", c.err)
		}
		d.wantScreen(c.want)
		d.wantScreen("enter try again")
	}
}

func TestDemoApproveUsesDemoApprover(t *testing.T) {
	d := newDriver(t, fixture{rows: 2, demo: true})
	d.wantScreen("approve as the demo user")
	var opened bool
	d.sbxS.login = func(ctx context.Context, opts auth.LoginOptions) (*auth.Identity, error) {
		if opts.Open == nil {
			return nil, errors.New("no approver")
		}
		opened = opts.Open(ctx, "http://x") == nil
		return &auth.Identity{Subject: "user-1"}, nil
	}
	d.press("a")
	if !opened {
		t.Fatal("a did not pass DemoApprove as LoginOptions.Open")
	}
	d.accounts()
}

func TestSignInWarnsOnPhoneMismatch(t *testing.T) {
	d := newDriver(t, fixture{rows: 2, w: 120, h: 40})
	d.sbx.user = &api.User{FullName: "John Roe", MobilePhoneNumber: "+33700000000"}
	d.press("enter")
	s := d.signin()
	if s.state != signinDone || len(s.warnings) != 1 {
		t.Fatalf("state %v warnings %q", s.state, s.warnings)
	}
	d.wantScreen("Signed in as John Roe")
	d.wantScreen("+33700000000")
	d.press("enter")
	d.accounts()
}

func TestAccountsListPagingAndStatusLine(t *testing.T) {
	d := newDriver(t, fixture{rows: 250, signedIn: true})
	a := d.accounts()
	if len(a.rows) != 100 || a.total != 250 {
		t.Fatalf("loaded %d of %d", len(a.rows), a.total)
	}
	d.wantScreen("row 1 of 100/250")
	d.wantScreen("FR76 3000 6000 0112 3456 7890 189")
	d.wantScreen("100.50 EUR")
	// Far from the end: no request.
	calls := len(d.sbx.calls)
	d.press("j", "j", "down")
	if len(d.sbx.calls) != calls || a.cursor != 3 {
		t.Fatalf("cursor %d, %d extra calls", a.cursor, len(d.sbx.calls)-calls)
	}
	d.wantScreen("row 4 of 100/250")
	// About one screen before the end, the next page is requested once.
	cmd := d.update(keyMsg("G"))
	if !a.inFlight {
		t.Fatal("no page requested near the end")
	}
	if d.update(keyMsg("k")) != nil && len(d.sbx.calls) != calls {
		t.Fatal("a second page request went out while one was in flight")
	}
	d.run(cmd)
	if len(a.rows) != 200 || d.sbx.calls[len(d.sbx.calls)-1].After != "100" {
		t.Fatalf("after paging: %d rows, last call %+v", len(a.rows), d.sbx.calls[len(d.sbx.calls)-1])
	}
	d.press("G")
	if len(a.rows) != 250 || a.hasNext {
		t.Fatalf("after the last page: %d rows, hasNext %v", len(a.rows), a.hasNext)
	}
	d.press("G")
	d.wantScreen("row 250 of 250/250")
	d.press("g")
	if a.cursor != 0 {
		t.Fatalf("g: cursor %d", a.cursor)
	}
	d.press("pgdown")
	if a.cursor != a.visible() {
		t.Fatalf("pgdown: cursor %d, visible %d", a.cursor, a.visible())
	}
	d.press("pgup", "up")
	if a.cursor != 0 {
		t.Fatalf("pgup: cursor %d", a.cursor)
	}
}

func TestAccountsRefreshKeepsRows(t *testing.T) {
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	a := d.accounts()
	d.press("j", "j")
	cmd := d.update(keyMsg("r"))
	if len(a.rows) != 30 || !a.refreshing {
		t.Fatalf("rows dropped during refresh: %d, refreshing %v", len(a.rows), a.refreshing)
	}
	d.wantScreen("Account 2")
	d.wantScreen("refreshing")
	d.sbx.accounts[2].Name = "Renamed"
	d.run(cmd)
	if a.cursor != 2 || a.rows[2].Name != "Renamed" {
		t.Fatalf("after refresh: cursor %d, row %q", a.cursor, a.rows[2].Name)
	}
}

// A space typed after the search changes the field but not the search: the
// debounce tick must not send the same query again.
func TestAccountsFilterTrailingSpaceSendsNoRequest(t *testing.T) {
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	isTick := func(m tea.Msg) bool { _, ok := m.(filterTickMsg); return ok }
	d.press("/", "2")
	d.fire(isTick)
	calls := len(d.sbx.calls)
	d.press(" ")
	if n := d.fire(isTick); n != 1 {
		t.Fatalf("%d debounce ticks", n)
	}
	if len(d.sbx.calls) != calls {
		t.Fatalf("a trailing space sent the query again: %+v", d.sbx.calls[calls:])
	}
}

func TestAccountsFilterIsDebouncedAndServerSide(t *testing.T) {
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	a := d.accounts()
	d.press("/")
	if !a.capturing() {
		t.Fatal("/ did not focus the filter")
	}
	calls := len(d.sbx.calls)
	d.press("2", "q", "e") // q and e are text here, not quit or switch
	if d.quit || d.m.confirm {
		t.Fatal("a global key fired while typing")
	}
	d.press("backspace", "backspace")
	if len(d.sbx.calls) != calls {
		t.Fatal("a request went out before the debounce delay")
	}
	if n := d.fire(func(m tea.Msg) bool { _, ok := m.(filterTickMsg); return ok }); n != 5 {
		t.Fatalf("%d debounce ticks", n)
	}
	if len(d.sbx.calls) != calls+1 || d.sbx.calls[calls].Search != "2" {
		t.Fatalf("calls after debounce: %+v", d.sbx.calls[calls:])
	}
	// 2, 12, 20..29 → 12 rows.
	if a.total != 12 {
		t.Fatalf("filtered total %d", a.total)
	}
	d.press("enter")
	if a.capturing() {
		t.Fatal("enter did not leave the filter")
	}
	d.wantScreen("filter “2”")
	d.press("esc")
	if a.search != "" || a.total != 30 {
		t.Fatalf("esc kept the filter: %q, total %d", a.search, a.total)
	}
}

func TestAccountsSortToggle(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("o")
	last := d.sbx.calls[len(d.sbx.calls)-1]
	if last.OrderBy != api.OrderUpdatedAt {
		t.Fatalf("sort: %+v", last)
	}
	d.wantScreen("by updated")
	d.press("o")
	if d.sbx.calls[len(d.sbx.calls)-1].OrderBy != api.OrderCreatedAt {
		t.Fatal("second o did not go back to created")
	}
}

func TestStaleResponsesDropped(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	a := d.accounts()
	old := a.gen
	d.update(keyMsg("r")) // new generation; its answer is never delivered
	d.send(accountsMsg{envTag{config.Sandbox}, old, "", &api.AccountsPage{Accounts: makeAccounts(1), TotalCount: 1}, nil})
	if a.total != 3 {
		t.Fatal("an answer to an older request was applied")
	}
	d.send(accountsMsg{envTag{config.Live}, a.gen, "", &api.AccountsPage{Accounts: makeAccounts(1), TotalCount: 1}, nil})
	if a.total != 3 {
		t.Fatal("an answer from the other environment was applied")
	}
}

// pgdown in the detail moves by the transaction rows on screen, as in the
// account list: from the first row it lands on the first row below the
// screen, not one further.
func TestDetailPageDownMovesByTheRowsDrawn(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 100, h: 30})
	d.sbx.txs["acc-0"] = makeTxs(45)
	d.press("enter")
	before := d.screen()
	d.press("pgdown")
	c := d.detail().txCursor
	if !strings.Contains(before, fmt.Sprintf("Payment %d\n", c-1)) || strings.Contains(before, fmt.Sprintf("Payment %d\n", c)) {
		t.Fatalf("pgdown put the cursor on transaction %d; the screen was:\n%s", c, before)
	}
}

func TestDetailShowsFieldsCopyQRAndBack(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.sbx.txs["acc-1"] = makeTxs(45)
	d.press("j", "enter")
	det := d.detail()
	// 40 rows fit: the second page is fetched at once.
	if !det.full || len(det.txs) != 40 || det.txTotal != 45 {
		t.Fatalf("detail: full %v, %d of %d transactions", det.full, len(det.txs), det.txTotal)
	}
	for _, want := range []string{"IBAN", "FR76 3000 6000 0112 3456 7890 189", "✓ valid", "SWNBFR22", "12345678901",
		"Holder 1 (Individual)", "Opened", "Unlimited", "EUR", "101.50 EUR", "0.00 EUR", "2026-01-02 09:30 UTC",
		"2026-03-04 11:15 UTC", "Transactions (40 of 45)", "+10.00 EUR", "Accounts › Account 1"} {
		d.wantScreen(want)
	}
	d.press("y")
	if len(d.copied) != 1 || d.copied[0] != "FR7630006000011234567890189" {
		t.Fatalf("copied %q", d.copied)
	}
	d.wantScreen("IBAN copied")
	d.fire(func(m tea.Msg) bool { _, ok := m.(flashClearMsg); return ok })
	if strings.Contains(d.screen(), "IBAN copied") {
		t.Fatal("the flash did not clear")
	}
	// Scrolling loads more transactions near the end.
	d.press("G")
	if len(det.txs) != 45 {
		t.Fatalf("after G: %d transactions", len(det.txs))
	}
	d.press("Q")
	d.wantScreen("EPC payment QR")
	d.wantScreen("█")
	d.press("esc")
	if det.showQR {
		t.Fatal("esc did not close the QR")
	}
	d.press("esc")
	d.accounts()
}

func TestDetailQRTooSmall(t *testing.T) {
	d := newDriver(t, fixture{rows: 1, signedIn: true, w: 40, h: 10})
	d.press("enter", "Q")
	d.wantScreen("too small")
}

func TestDetailInvalidIBANMarked(t *testing.T) {
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	d.sbx.accounts[0].IBAN = "FR7630006000011234567890188"
	d.press("enter")
	d.wantScreen("✗ check digits wrong")
}

func TestSimulateTransferSandboxOnly(t *testing.T) {
	d := newDriver(t, fixture{rows: 2, signedIn: true, liveSigned: true})
	d.press("enter", "s")
	det := d.detail()
	if !det.prompting {
		t.Fatal("s did not open the amount prompt")
	}
	d.press("a", "b", "enter")
	if det.simErr == nil || !det.prompting {
		t.Fatal("an invalid amount was accepted")
	}
	d.wantScreen("positive amount")
	d.press("backspace", "backspace", "1", "2", ".", "5", "enter")
	if len(d.sbx.simulated) != 1 {
		t.Fatalf("%d transfers simulated", len(d.sbx.simulated))
	}
	in := d.sbx.simulated[0]
	if in.Amount.Value != "12.5" || in.Amount.Currency != "EUR" || in.CreditorIBAN != "FR7630006000011234567890189" || !iban.Valid(in.DebtorIBAN) {
		t.Fatalf("transfer %+v", in)
	}
	d.wantScreen("Received 12.5 EUR")
	d.wantScreen("999.99 EUR") // the account was reloaded
	// Live: the key does nothing and is not in the help.
	d.press("esc", "e", "y", "enter", "s")
	if d.m.c.env.Name != config.Live {
		t.Fatal("not on Live")
	}
	if d.detail().prompting {
		t.Fatal("s opened the prompt on Live")
	}
	for _, b := range d.detail().ShortHelp() {
		if b.Help().Key == "s" {
			t.Fatal("simulate is offered on Live")
		}
	}
}

func TestEnvSwitchConfirmCancelAndBack(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true})
	d.press("enter") // a detail screen: history to be cleared
	d.press("e")
	d.wantScreen("Switch to LIVE?")
	d.press("n")
	if d.m.c.env.Name != config.Sandbox || d.m.confirm {
		t.Fatal("n switched")
	}
	d.wantScreen("Stayed in Sandbox")
	detCtx := d.detail().ctx
	d.press("e", "y")
	if d.m.c.env.Name != config.Live || len(d.m.stack) != 1 {
		t.Fatalf("env %s, stack %d", d.m.c.env.Name, len(d.m.stack))
	}
	if detCtx.Err() == nil {
		t.Fatal("the Sandbox requests were not cancelled")
	}
	if a := d.accounts(); len(a.rows) != 3 || a.rows[0].Name != "Live account 0" {
		t.Fatalf("Live rows: %+v", a.rows)
	}
	d.wantScreen("LIVE")
	d.wantScreen("Live acco")
	d.press("e") // back to Sandbox needs no confirmation
	if d.m.c.env.Name != config.Sandbox {
		t.Fatal("e did not go back to Sandbox")
	}
	d.wantScreen("Account 0")
}

func TestEnvSwitchToSignedOutLiveOpensSignIn(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("e", "y")
	d.signin()
	d.wantScreen("Sign in to Live")
	if d.sbxS.logins != 0 || !d.sbxS.SignedIn() {
		t.Fatal("the Sandbox session was touched")
	}
}

func TestEnvSwitchUnconfigured(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true, noLive: true})
	d.press("e")
	if d.m.confirm {
		t.Fatal("asked to confirm a switch to an unconfigured environment")
	}
	d.wantScreen("Live is not configured")
}

func TestUnauthorizedGoesToSignIn(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("enter")
	d.sbx.err = fmt.Errorf("sandbox API: %w", api.ErrUnauthorized)
	d.press("r")
	s := d.signin()
	if len(d.m.stack) != 1 || !strings.Contains(s.reason, "401") {
		t.Fatalf("stack %d, reason %q", len(d.m.stack), s.reason)
	}
	d.wantScreen("no longer valid")
}

func TestFooterCountdownAndToken(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.wantScreen("12/2000")
	d.wantScreen("200 38ms")
	d.wantScreen("token 58m")
	d.wantScreen("? help")
	st := d.sbx.Status()
	st.LastStatus = 429
	st.RetryAt = testNow.Add(12 * time.Second)
	d.send(statusMsg{envTag{config.Sandbox}, st})
	if !d.m.clockFast {
		t.Fatal("the clock did not speed up for the countdown")
	}
	d.wantScreen("429 · retrying in 12s")
	// It stays while RetryAt is set, even once due.
	st.RetryAt = testNow.Add(-time.Second)
	d.send(statusMsg{envTag{config.Sandbox}, st})
	d.wantScreen("429 · retrying now")
	st.RetryAt, st.LastStatus = time.Time{}, 200
	d.send(statusMsg{envTag{config.Sandbox}, st})
	if strings.Contains(d.screen(), "retrying") {
		t.Fatal("the countdown outlived the retry")
	}
	d.fire(func(m tea.Msg) bool { _, ok := m.(clockMsg); return ok })
	if d.m.clockFast {
		t.Fatal("the clock stayed fast without a countdown")
	}
}

func TestFooterKeepsCountdownWhenNarrow(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 40, h: 10})
	st := d.sbx.Status()
	st.RetryAt = testNow.Add(12 * time.Second)
	d.send(statusMsg{envTag{config.Sandbox}, st})
	lines := strings.Split(d.screen(), "\n")
	footer := lines[len(lines)-1]
	if !strings.HasPrefix(strings.TrimSpace(footer), BadgeSandbox) || !strings.Contains(footer, "429 · retrying in 12s") {
		t.Fatalf("narrow footer lost the badge or the countdown: %q", footer)
	}
	if ansi.StringWidth(footer) > 40 {
		t.Fatalf("footer is %d wide", ansi.StringWidth(footer))
	}
}

func TestStatusListenerRearms(t *testing.T) {
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	ch := make(chan api.Status, 1)
	d.sbx.updates = ch
	ch <- api.Status{Used: 77, Limit: 2000}
	msg := d.m.listen(d.m.envs[config.Sandbox])()
	d.update(msg)
	if d.m.envs[config.Sandbox].status.Used != 77 {
		t.Fatal("status not applied")
	}
	d.m.Close()
	if d.m.listen(d.m.envs[config.Sandbox])() != nil {
		t.Fatal("the listener did not stop with the model")
	}
}

func TestHelpListsScreenBindings(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("?")
	for _, want := range []string{"Help · Accounts", "filter", "refresh", "sort created/updated", "switch sandbox/live", "quit"} {
		d.wantScreen(want)
	}
	d.press("j") // ignored while help is shown
	if d.accounts().cursor != 0 {
		t.Fatal("a key went through the help")
	}
	d.press("?")
	if d.m.showHelp {
		t.Fatal("? did not close the help")
	}
	d.press("enter", "?")
	d.wantScreen("copy IBAN")
	d.wantScreen("simulate transfer")
	d.press("esc")
	if d.m.showHelp {
		t.Fatal("esc did not close the help")
	}
}

func TestQuitKeys(t *testing.T) {
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	d.press("q")
	if !d.quit {
		t.Fatal("q did not quit")
	}
	d = newDriver(t, fixture{rows: 1, signedIn: true})
	d.press("/", "ctrl+c")
	if !d.quit {
		t.Fatal("ctrl+c did not quit from a text input")
	}
}

func TestSmallTerminalsDoNotGarble(t *testing.T) {
	sizes := [][2]int{{40, 10}, {41, 11}, {50, 12}, {60, 15}, {80, 24}, {120, 40}, {200, 60}}
	for _, sz := range sizes {
		d := newDriver(t, fixture{rows: 300, signedIn: true, w: sz[0], h: sz[1]})
		d.sbx.txs["acc-0"] = makeTxs(30)
		check := func(what string) {
			t.Helper()
			lines := strings.Split(d.screen(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d %s: %d lines", sz[0], sz[1], what, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > sz[0] {
					t.Fatalf("%dx%d %s: line %d is %d wide: %q", sz[0], sz[1], what, i, w, l)
				}
			}
		}
		check("list")
		for _, step := range []struct {
			keys []string
			what string
		}{
			{[]string{"j", "G"}, "list end"},
			{[]string{"g", "enter"}, "detail"},
			{[]string{"Q"}, "qr"},
			{[]string{"esc", "?"}, "help"},
			{[]string{"?", "e"}, "confirm"},
			{[]string{"y"}, "live"},
		} {
			d.press(step.keys...)
			check(step.what)
		}
	}
}

func TestNoColorHasNoColourCodes(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	if s := d.screen(); strings.Contains(s, "38;") || strings.Contains(s, "48;") {
		t.Fatalf("colour codes with NoColor: %q", s)
	}
}

func TestLightBackgroundRestyles(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true, color: true})
	dark := d.m.render()
	d.send(tea.BackgroundColorMsg{Color: color.White})
	if d.m.c.isDark {
		t.Fatal("a white background was taken for dark")
	}
	if d.m.render() == dark {
		t.Fatal("the light theme renders like the dark one")
	}
}

func TestHelpWithoutColour(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("?")
	if s := d.m.render(); strings.Contains(s, "38;") {
		t.Fatalf("colour codes in the help with NoColor: %q", s)
	}
}

func TestPanicInViewIsContained(t *testing.T) {
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.m.stack = append(d.m.stack, nil) // a broken stack makes rendering panic
	v := d.m.View()
	if d.m.crashed == nil || !strings.Contains(v.Content, "internal error") {
		t.Fatalf("view panic not contained: %q", v.Content)
	}
	_, cmd := d.m.Update(keyMsg("j"))
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("the next update did not quit")
	}
}

func TestPanicInTaskBecomesCrash(t *testing.T) {
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	cmd := d.m.c.task(func() tea.Msg { panic("boom") })
	_, next := d.m.Update(cmd())
	d.run(next)
	if !d.quit || d.m.crashed == nil {
		t.Fatal("a panicking task did not end the program cleanly")
	}
}

func TestAmountPromptPasteAndCancel(t *testing.T) {
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	d.press("enter", "s")
	det := d.detail()
	d.press("q", "e") // text here, not quit or switch
	if d.quit || d.m.confirm || det.prompt.Value() != "qe" {
		t.Fatalf("global keys were not swallowed: quit %v, confirm %v, value %q", d.quit, d.m.confirm, det.prompt.Value())
	}
	d.press("esc")
	if det.prompting || len(d.sbx.simulated) != 0 {
		t.Fatal("esc did not cancel the prompt")
	}
	d.press("s")
	if det.prompt.Value() != "" {
		t.Fatalf("the prompt reopened with %q", det.prompt.Value())
	}
	d.send(tea.PasteMsg{Content: "\x1b[1m42,50\x1b[0m"})
	d.press("enter")
	if len(d.sbx.simulated) != 1 || d.sbx.simulated[0].Amount.Value != "42.50" {
		t.Fatalf("pasted amount: %+v", d.sbx.simulated)
	}
}

func TestAccountsFilterPasteIsDebounced(t *testing.T) {
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	a := d.accounts()
	d.press("/")
	calls := len(d.sbx.calls)
	d.send(tea.PasteMsg{Content: "2\n"})
	if len(d.sbx.calls) != calls {
		t.Fatal("a paste sent a request before the debounce delay")
	}
	if n := d.fire(func(m tea.Msg) bool { _, ok := m.(filterTickMsg); return ok }); n != 1 {
		t.Fatalf("%d debounce ticks", n)
	}
	if a.search != "2" || len(d.sbx.calls) != calls+1 {
		t.Fatalf("search %q after %d calls", a.search, len(d.sbx.calls)-calls)
	}
}

func TestTextInputEditing(t *testing.T) {
	in := newTextInput("> ", "", 5)
	in.Focus()
	for _, k := range []string{"a", "b", "c"} {
		if changed, _ := editInput(&in, keyMsg(k)); !changed {
			t.Fatalf("typing %q reported no change", k)
		}
	}
	// The escape sequence goes whole, the line break becomes a space and
	// the limit cuts the rest.
	editInput(&in, tea.PasteMsg{Content: "d\x1b[31me\nfg"})
	if in.Value() != "abcde" {
		t.Fatalf("value %q", in.Value())
	}
	if changed, _ := editInput(&in, keyMsg("x")); changed {
		t.Fatal("typing past the limit reported a change")
	}
	editInput(&in, keyMsg("backspace"))
	editInput(&in, tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	if in.Value() != "" {
		t.Fatalf("after ctrl+u %q", in.Value())
	}
	// ctrl+v would read the OS clipboard; terminal pastes arrive as PasteMsg.
	if _, cmd := editInput(&in, tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}); cmd != nil || in.Value() != "" {
		t.Fatalf("ctrl+v: value %q, command %v", in.Value(), cmd != nil)
	}
}
