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
	t.Parallel()
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
	t.Parallel()
	d := newDriver(t, fixture{rows: 5})
	d.signin()
	d.wantScreen("Sign in to Sandbox")
	d.wantScreen("SANDBOX_test")
	d.wantScreen("SANDBOX")
}

func TestSignInFlowShowsURLAndGoesToAccounts(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 5})
	cmd := d.update(keyMsg("enter"))
	if s := d.signin(); s.state != signinWaiting {
		t.Fatalf("state %v after enter", s.state)
	}
	d.run(cmd)
	d.accounts()
	if u := d.m.env.owner; u == nil || u.name != "Jane Doe" {
		t.Fatalf("user after sign-in = %+v", u)
	}
	d.wantScreen("Signed in to Sandbox as Jane Doe")
	d.wantScreen("Jane Doe")
	d.wantScreen("row 1 of 5/5")
}

func TestSignInWaitingShowsURLCopyAndEscCancels(t *testing.T) {
	t.Parallel()
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
	s.update(loginURLMsg{envTag{config.Sandbox}, s.id, auth.SignInPrompt{URL: "http://127.0.0.1:1/oauth2/auth?x=1", Opening: true}, nil})
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
	t.Parallel()
	cases := []struct {
		err  error
		want string
	}{
		{&auth.SignInError{Env: "sandbox", Reason: "the authorization server ended the sign-in", Code: "access_denied"}, "(access_denied). Press enter to start again and approve access."},
		{&auth.TokenEndpointError{Env: "sandbox", Grant: "authorization_code", Status: 400, Code: "invalid_grant"}, "new code"},
		{&auth.TokenEndpointError{Env: "sandbox", Grant: "authorization_code", Status: 401, Code: "invalid_client"}, "Generate a new secret"},
		{&auth.SignInError{Env: "sandbox", Reason: "no answer from the browser within 10m0s, after which the authorization code would have expired", Timeout: 10 * time.Minute}, "within 10m0s"},
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	d := newDriver(t, fixture{rows: 250, signedIn: true})
	a := d.accounts()
	if a.list.Loaded() != 100 || a.list.Len() != 250 {
		t.Fatalf("loaded %d of %d", a.list.Loaded(), a.list.Len())
	}
	d.wantScreen("row 1 of 100/250")
	d.wantScreen("FR76 3000 6000 0112 3456 7890 189")
	d.wantScreen("100.50 EUR")
	// Far from the end: no request.
	calls := len(d.sbx.calls)
	d.press("j", "j", "down")
	if len(d.sbx.calls) != calls || a.list.Cursor() != 3 {
		t.Fatalf("cursor %d, %d extra calls", a.list.Cursor(), len(d.sbx.calls)-calls)
	}
	d.wantScreen("row 4 of 100/250")
	// About one screen before the end, the next page is requested once.
	for a.list.Cursor() < 100-a.list.Rows()-2 {
		d.press("j")
	}
	if len(d.sbx.calls) != calls {
		t.Fatalf("a page was requested at row %d, more than a screen before the end", a.list.Cursor())
	}
	cmd := d.update(keyMsg("j"))
	if !a.list.Busy() {
		t.Fatal("no page requested near the end")
	}
	if d.update(keyMsg("k")) != nil && len(d.sbx.calls) != calls {
		t.Fatal("a second page request went out while one was in flight")
	}
	d.run(cmd)
	if a.list.Loaded() != 200 || d.sbx.calls[len(d.sbx.calls)-1].After != "acc-99" {
		t.Fatalf("after paging: %d rows, last call %+v", a.list.Loaded(), d.sbx.calls[len(d.sbx.calls)-1])
	}
	// G reads the last page as the first of the ascending order: the true
	// last row at once.
	d.press("G")
	last := d.sbx.calls[len(d.sbx.calls)-1]
	if a.list.Loaded() != 250 || last.Direction != api.DirectionAsc || last.After != "" {
		t.Fatalf("after G: %d rows, last call %+v", a.list.Loaded(), last)
	}
	d.wantScreen("row 250 of 250/250")
	d.wantScreen("Account 249")
	d.press("g")
	if a.list.Cursor() != 0 {
		t.Fatalf("g: cursor %d", a.list.Cursor())
	}
	d.press("pgdown")
	if a.list.Cursor() != a.list.Rows() {
		t.Fatalf("pgdown: cursor %d, rows on screen %d", a.list.Cursor(), a.list.Rows())
	}
	d.press("pgup", "up")
	if a.list.Cursor() != 0 {
		t.Fatalf("pgup: cursor %d", a.list.Cursor())
	}
}

func TestAccountsRefreshKeepsRows(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	a := d.accounts()
	d.press("j", "j")
	cmd := d.update(keyMsg("r"))
	if a.list.Loaded() != 30 || !a.list.Refreshing() {
		t.Fatalf("rows dropped during refresh: %d, refreshing %v", a.list.Loaded(), a.list.Refreshing())
	}
	d.wantScreen("Account 2")
	d.wantScreen("refreshing")
	d.sbx.accounts[2].Name = "Renamed"
	d.run(cmd)
	if sel, _ := a.list.Selected(); a.list.Cursor() != 2 || sel.Name != "Renamed" {
		t.Fatalf("after refresh: cursor %d, row %q", a.list.Cursor(), sel.Name)
	}
}

// A space typed after the search changes the field but not the search: the
// debounce tick must not send the same query again.
func TestAccountsFilterTrailingSpaceSendsNoRequest(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	if a.list.Len() != 12 {
		t.Fatalf("filtered total %d", a.list.Len())
	}
	d.press("enter")
	if a.capturing() {
		t.Fatal("enter did not leave the filter")
	}
	d.wantScreen("filter “2”")
	d.press("esc")
	if a.query.search != "" || a.list.Len() != 30 {
		t.Fatalf("esc kept the filter: %q, total %d", a.query.search, a.list.Len())
	}
}

func TestAccountsSortToggle(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("o")
	last := d.sbx.calls[len(d.sbx.calls)-1]
	if last.OrderBy != api.OrderUpdatedAt {
		t.Fatalf("sort: %+v", last)
	}
	d.wantScreen("by updated")
	// Then the orders of this side (name, balance, status: every row is
	// loaded, so no request), and back to created.
	calls := len(d.sbx.calls)
	for _, order := range []string{sortName, sortBalance, sortStatus, sortCreated} {
		d.press("o")
		if o := d.accounts().query.order; o != order {
			t.Fatalf("o went to %q, want %q", o, order)
		}
	}
	if n := len(d.sbx.calls) - calls; n != 1 || d.sbx.calls[len(d.sbx.calls)-1].OrderBy != api.OrderCreatedAt {
		t.Fatalf("%d requests, want created's only", n)
	}
}

func TestStaleResponsesDropped(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true})
	a := d.accounts()
	// A refresh whose answer comes after a newer query's.
	old := d.update(keyMsg("r"))
	d.sbx.accounts = makeAccounts(1)
	d.press("o")
	d.sbx.accounts = makeAccounts(5)
	d.run(old)
	if a.list.Len() != 1 {
		t.Fatalf("an answer to an older request was applied: %d rows", a.list.Len())
	}
	// A Sandbox answer that arrives once Live is on screen.
	old = d.update(keyMsg("r"))
	d.press("e", "y")
	d.run(old)
	if l := d.accounts(); l.list.Len() != 3 || d.m.env.Name != config.Live {
		t.Fatalf("an answer from the other environment was applied: %d rows", l.list.Len())
	}
}

// pgdown in the Transactions tab moves by the rows on screen, as in the
// account list: from the first row it lands on the first row below the
// screen, not one further.
func TestTransactionsPageDownMovesByTheRowsDrawn(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 100, h: 30})
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 145)
	d.press("enter", "2")
	before := d.screen()
	d.press("pgdown")
	c := tabOf[*txListScreen](t, d.account(), "Transactions").list.Cursor()
	if !strings.Contains(before, fmt.Sprintf("Payment %d ", c-1)) || strings.Contains(before, fmt.Sprintf("Payment %d ", c)) {
		t.Fatalf("pgdown put the cursor on transaction %d; the screen was:\n%s", c, before)
	}
}

func TestDetailShowsFieldsCopyQRAndBack(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.sbx.txs["acc-1"] = makeTxs("acc-1", 45)
	calls := d.sbx.requests()
	d.press("j", "enter")
	det := d.overview()
	// The Overview and its chart are one request; the tabs read nothing
	// until shown.
	if det.detail.item == nil || d.sbx.requests() != calls+1 || d.sbx.chartReads() != 0 || !det.chart.complete() {
		t.Fatalf("overview: detail %v after %d requests, %d the chart's", det.detail.item != nil, d.sbx.requests()-calls, d.sbx.chartReads())
	}
	for _, want := range []string{"IBAN", "FR76 3000 6000 0112 3456 7890 189", "✓ valid", "SWNBFR22", "12345678901",
		"Holder 1 (Individual)", "Opened", "Unlimited", "EUR", "101.50 EUR", "0.00 EUR", "2026-01-02 09:30 UTC",
		"2026-03-04 11:15 UTC", "Accounts › Account 1", "Verified", "1 rue de la Paix, 75002 Paris, FRA",
		"Enabled member, legal representative: yes", "✓ view account", "Overview", "Statements"} {
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
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, signedIn: true, w: 40, h: 10})
	d.press("enter", "Q")
	d.wantScreen("too small")
}

func TestDetailInvalidIBANMarked(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	d.sbx.accounts[0].IBAN = "FR7630006000011234567890188"
	d.press("enter")
	d.wantScreen("✗ check digits wrong")
}

func TestSimulateTransferSandboxOnly(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 2, signedIn: true, liveSigned: true})
	d.press("enter", "s")
	det := d.overview()
	if !det.prompting() {
		t.Fatal("s did not open the amount prompt")
	}
	d.press("a", "b", "enter")
	if det.sim.panel.err == nil || !det.prompting() {
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
	if d.m.env.Name != config.Live {
		t.Fatal("not on Live")
	}
	if d.overview().prompting() {
		t.Fatal("s opened the prompt on Live")
	}
	for _, b := range d.overview().ShortHelp() {
		if b.Enabled() && b.Help().Key == "s" {
			t.Fatal("simulate is offered on Live")
		}
	}
	if strings.Contains(d.screen(), "simulate") {
		t.Fatalf("simulate is on the Live screen:\n%s", d.screen())
	}
}

func TestEnvSwitchConfirmCancelAndBack(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true})
	d.press("enter") // a detail screen: history to be cleared
	d.press("e")
	d.wantScreen("Switch to LIVE?")
	d.press("n")
	if d.m.env.Name != config.Sandbox || d.m.confirm {
		t.Fatal("n switched")
	}
	d.wantScreen("Stayed in Sandbox")
	detCtx := d.overview().ctx
	d.press("e", "y")
	if d.m.env.Name != config.Live || len(d.m.stack) != 1 {
		t.Fatalf("env %s, stack %d", d.m.env.Name, len(d.m.stack))
	}
	if detCtx.Err() == nil {
		t.Fatal("the Sandbox requests were not cancelled")
	}
	if a := d.accounts(); a.list.Loaded() != 3 {
		t.Fatalf("Live rows: %d", a.list.Loaded())
	} else if sel, _ := a.list.Selected(); sel.Name != "Live account 0" {
		t.Fatalf("Live row: %+v", sel)
	}
	d.wantScreen("LIVE")
	d.wantScreen("Live acco")
	d.press("e") // back to Sandbox needs no confirmation
	if d.m.env.Name != config.Sandbox {
		t.Fatal("e did not go back to Sandbox")
	}
	d.wantScreen("Account 0")
}

func TestEnvSwitchToSignedOutLiveOpensSignIn(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("e", "y")
	d.signin()
	d.wantScreen("Sign in to Live")
	if d.sbxS.logins != 0 || !d.sbxS.SignedIn() {
		t.Fatal("the Sandbox session was touched")
	}
}

func TestEnvSwitchUnconfigured(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, noLive: true})
	d.press("e")
	if d.m.confirm {
		t.Fatal("asked to confirm a switch to an unconfigured environment")
	}
	d.wantScreen("Live is not configured")
}

func TestUnauthorizedGoesToSignIn(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("enter")
	d.sbx.err = &api.UnauthorizedError{Env: "sandbox", Status: 401, Message: "token revoked"}
	d.press("r")
	s := d.signin()
	if len(d.m.stack) != 1 || s.reason == nil {
		t.Fatalf("stack %d, reason %v", len(d.m.stack), s.reason)
	}
	d.wantScreen("The Sandbox API refused the access token (HTTP 401: token revoked). Press enter to sign in again.")
}

// A session that ended before any request was sent says so in one
// sentence, with no HTTP status, and names the key.
func TestEndedSessionGoesToSignInInOneSentence(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 160, h: 40})
	ended := &auth.SessionEndedError{Env: "sandbox", Reason: "the refresh token was already used or revoked"}
	d.sbx.err = &api.UnauthorizedError{Env: "sandbox", Err: ended}
	d.press("r")
	d.signin()
	want := "No usable sandbox session: the refresh token was already used or revoked. Press enter to sign in again."
	d.wantScreen(want)
	screen := d.screen()
	if strings.Contains(screen, "401") || strings.Count(strings.ToLower(screen), "sign in again") != 1 {
		t.Fatalf("the reason repeats itself or names a status no request got:\n%s", screen)
	}
}

func TestFooterCountdownAndToken(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.wantScreen("12/2000")
	d.wantScreen("200 38ms")
	d.wantScreen("token 58m")
	d.wantScreen("? help")
	st := d.sbx.Status()
	st.LastStatus = 429
	st.Waiting, st.WaitReason, st.Retrying, st.RetryAt = 1, api.WaitRetryAfter, true, testNow.Add(12*time.Second)
	d.send(statusMsg{envTag{config.Sandbox}, st})
	if !d.m.clock.fast {
		t.Fatal("the clock did not speed up for the countdown")
	}
	d.wantScreen("429 · retrying in 12s")
	// It stays while RetryAt is set, even once due.
	st.RetryAt = testNow.Add(-time.Second)
	d.send(statusMsg{envTag{config.Sandbox}, st})
	d.wantScreen("429 · retrying now")
	st.Waiting, st.WaitReason, st.Retrying, st.RetryAt, st.LastStatus = 0, "", false, time.Time{}, 200
	d.send(statusMsg{envTag{config.Sandbox}, st})
	if strings.Contains(d.screen(), "retrying") {
		t.Fatal("the countdown outlived the retry")
	}
	d.fire(func(m tea.Msg) bool { _, ok := m.(clockMsg); return ok })
	if d.m.clock.fast {
		t.Fatal("the clock stayed fast without a countdown")
	}
}

func TestFooterKeepsCountdownWhenNarrow(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 40, h: 10})
	st := d.sbx.Status()
	st.Waiting, st.WaitReason, st.Retrying, st.RetryAt = 1, api.WaitRetryAfter, true, testNow.Add(12*time.Second)
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
	t.Parallel()
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
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("?")
	for _, want := range []string{"Help · Accounts", "filter", "refresh", "sort by updated", "reverse order", "switch sandbox/live", "quit"} {
		d.wantScreen(want)
	}
	d.press("j") // ignored while help is shown
	if d.accounts().list.Cursor() != 0 {
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
	t.Parallel()
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
	t.Parallel()
	sizes := [][2]int{{40, 10}, {41, 11}, {50, 12}, {60, 15}, {80, 24}, {120, 40}, {200, 60}}
	for _, sz := range sizes {
		d := newDriver(t, fixture{rows: 300, signedIn: true, w: sz[0], h: sz[1]})
		d.sbx.txs["acc-0"] = makeTxs("acc-0", 30)
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
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	if s := d.screen(); strings.Contains(s, "38;") || strings.Contains(s, "48;") {
		t.Fatalf("colour codes with NoColor: %q", s)
	}
}

func TestLightBackgroundRestyles(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("?")
	if s := d.m.render(); strings.Contains(s, "38;") {
		t.Fatalf("colour codes in the help with NoColor: %q", s)
	}
}

func TestPanicInViewIsContained(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	cmd := d.m.c.task(func() tea.Msg { panic("boom") })
	_, next := d.m.Update(cmd())
	d.run(next)
	if !d.quit || d.m.crashed == nil {
		t.Fatal("a panicking task did not end the program cleanly")
	}
}

func TestAmountPromptPasteAndCancel(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 1, signedIn: true})
	d.press("enter", "s")
	det := d.overview()
	d.press("q", "e") // text here, not quit or switch
	if d.quit || d.m.confirm || det.sim.panel.value(0) != "qe" {
		t.Fatalf("global keys were not swallowed: quit %v, confirm %v, value %q", d.quit, d.m.confirm, det.sim.panel.value(0))
	}
	d.press("esc")
	if det.prompting() || len(d.sbx.simulated) != 0 {
		t.Fatal("esc did not cancel the prompt")
	}
	d.press("s")
	if det.sim.panel.value(0) != "" {
		t.Fatalf("the prompt reopened with %q", det.sim.panel.value(0))
	}
	d.send(tea.PasteMsg{Content: "\x1b[1m42,50\x1b[0m"})
	d.press("enter")
	if len(d.sbx.simulated) != 1 || d.sbx.simulated[0].Amount.Value != "42.50" {
		t.Fatalf("pasted amount: %+v", d.sbx.simulated)
	}
}

func TestAccountsFilterPasteIsDebounced(t *testing.T) {
	t.Parallel()
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
	if a.query.search != "2" || len(d.sbx.calls) != calls+1 {
		t.Fatalf("search %q after %d calls", a.query.search, len(d.sbx.calls)-calls)
	}
}

func TestTextInputEditing(t *testing.T) {
	t.Parallel()
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

// TestAFailureStaysUntilTheNextKey: a failure on the hint line outlives
// the flash delay and goes with the next key; a success goes by itself.
func TestAFailureStaysUntilTheNextKey(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	d.accounts()
	d.send(flashMsg{text: "The simulated transfer failed", bad: true})
	d.fire(func(tea.Msg) bool { return true })
	d.fire(func(tea.Msg) bool { return true })
	d.wantScreen("✗ The simulated transfer failed")
	d.press("j")
	if strings.Contains(d.screen(), "The simulated transfer failed") {
		t.Fatal("the failure outlived the next key")
	}
	d.send(flashMsg{text: "ID copied"})
	d.wantScreen("✓ ID copied")
	d.fire(func(m tea.Msg) bool { _, ok := m.(flashClearMsg); return ok })
	if strings.Contains(d.screen(), "ID copied") {
		t.Fatal("a success stayed after the flash delay")
	}
}
