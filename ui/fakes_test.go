package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testkit/teacmd"
)

// testNow is the fixed clock of the Update-level tests and goldens.
var testNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// fakeAPI serves accounts from memory with cursor paging, like the real
// connection: the list order is newest first (accounts[0] first), a cursor
// names an account, and Asc reads the same list from its end.
type fakeAPI struct {
	mu       sync.Mutex
	accounts []api.Account
	err      error // returned by every call when set
	calls    []api.AccountsParams
	homes    []bool // the project argument of each Home call
	onHome   func() // called as Home begins, when set
	user     *api.User
	project  *api.ProjectInfo
	txs      map[string][]api.TransactionDetail
	fakeWhole
	fakeObjects
	simulated []api.IncomingTransfer
	status    api.Status
	updates   chan api.Status
	// pos caches positions(); posLen and posFirst tell a replaced slice.
	pos      map[string]int
	posLen   int
	posFirst *api.Account
	// pageSize is the configuration's page_size (0: unset).
	pageSize int
}

func newFakeAPI(n int) *fakeAPI {
	f := &fakeAPI{txs: map[string][]api.TransactionDetail{},
		user:    &api.User{ID: "user-1", FullName: "Jane Doe", MobilePhoneNumber: "+33612345678"},
		project: &api.ProjectInfo{ID: "project-1", Name: "Acme Payments", Type: "Partner", Status: "Enabled"},
		status:  api.Status{Env: "sandbox", Used: 12, Limit: 2000, LastStatus: 200, LastLatency: 38 * time.Millisecond}}
	f.accounts = makeAccounts(n)
	return f
}

func makeAccounts(n int) []api.Account {
	out := make([]api.Account, n)
	balances := make([]api.Balances, n)
	for i := range out {
		num := strconv.Itoa(i)
		balances[i].Available = api.Amount{Value: strconv.Itoa(100+i) + ".50", Currency: "EUR"}
		out[i] = api.Account{
			ID:         "acc-" + num,
			Name:       "Account " + num,
			IBAN:       "FR7630006000011234567890189",
			BIC:        "SWNBFR22",
			Currency:   "EUR",
			StatusInfo: api.StatusInfo{Status: "Opened"},
			Holder:     api.Holder{Info: api.HolderInfo{Type: "Individual", Name: "Holder " + num}},
			Balances:   &balances[i],
		}
	}
	return out
}

// requests is every request the UI sent.
func (f *fakeAPI) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls) + len(f.homes) + f.fakeWhole.calls() + f.objCalls + len(f.simulated)
}

func (f *fakeAPI) Accounts(ctx context.Context, p api.AccountsParams) (*api.Page[api.Account], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, p)
	return f.page(ctx, p)
}

func (f *fakeAPI) page(ctx context.Context, p api.AccountsParams) (*api.Page[api.Account], error) {
	if f.err != nil {
		return nil, f.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows := f.accounts
	filtered := p.MainIBAN != "" || p.Search != "" || p.IBANPart != ""
	if filtered {
		rows = nil
		for _, a := range f.accounts {
			switch {
			case p.MainIBAN != "" && iban.Compact(a.IBAN) != p.MainIBAN:
			case p.IBANPart != "" && !iban.HasPart(a.IBAN, p.IBANPart):
			case p.Search != "" && !strings.Contains(strings.ToLower(a.Name), strings.ToLower(p.Search)):
			default:
				rows = append(rows, a)
			}
		}
	}
	n := len(rows)
	// at is the i-th row in the order read: the list order, or from its
	// end for Asc.
	at := func(i int) *api.Account { return &rows[i] }
	if p.Direction == api.DirectionAsc {
		at = func(i int) *api.Account { return &rows[n-1-i] }
	}
	start := 0
	if p.After != "" {
		pos := -1
		if filtered {
			pos = slices.IndexFunc(rows, func(a api.Account) bool { return a.ID == p.After })
		} else if i, ok := f.positions()[p.After]; ok {
			pos = i
		}
		if pos < 0 {
			return nil, fmt.Errorf("bad cursor %q", p.After)
		}
		start = pos + 1
		if p.Direction == api.DirectionAsc {
			start = n - pos
		}
	}
	first := p.First
	if first <= 0 {
		first = platform.PageMax
	}
	end := min(start+first, n)
	page := &api.Page[api.Account]{TotalCount: n}
	for i := start; i < end; i++ {
		page.Items = append(page.Items, *at(i))
	}
	page.PageInfo.HasNextPage = end < n
	if end > start {
		page.PageInfo.StartCursor, page.PageInfo.EndCursor = at(start).ID, at(end-1).ID
	}
	return page, nil
}

// positions maps account ids to their rows, rebuilt when a test replaced
// the accounts (so a cursor costs a lookup, not a scan of 80,000 rows).
func (f *fakeAPI) positions() map[string]int {
	if f.pos == nil || f.posLen != len(f.accounts) || (len(f.accounts) > 0 && f.posFirst != &f.accounts[0]) {
		f.pos = make(map[string]int, len(f.accounts))
		for i := range f.accounts {
			f.pos[f.accounts[i].ID] = i
		}
		f.posLen = len(f.accounts)
		if len(f.accounts) > 0 {
			f.posFirst = &f.accounts[0]
		}
	}
	return f.pos
}

func (f *fakeAPI) Home(ctx context.Context, p api.AccountsParams, project bool) (*api.Home, error) {
	if f.onHome != nil {
		f.onHome()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.homes = append(f.homes, project)
	page, err := f.page(ctx, p)
	if err != nil {
		return nil, err
	}
	h := &api.Home{Accounts: page}
	if project {
		h.Project = f.project
	} else {
		h.User = f.user
	}
	return h, nil
}

func (f *fakeAPI) SimulateIncomingTransfer(ctx context.Context, in api.IncomingTransfer) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return "", f.err
	}
	f.simulated = append(f.simulated, in)
	// The balance goes up, as on the emulator.
	for i := range f.accounts {
		if iban.Compact(f.accounts[i].IBAN) == in.CreditorIBAN && f.accounts[i].Balances != nil {
			f.accounts[i].Balances.Available.Value = "999.99"
			break
		}
	}
	return "tx-sim", nil
}

func (f *fakeAPI) Status() api.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

func (f *fakeAPI) Updates() <-chan api.Status { return f.updates }

// PageSize is as a client's: page_size, else the platform's maximum.
func (f *fakeAPI) PageSize() int {
	if f.pageSize > 0 {
		return f.pageSize
	}
	return platform.PageMax
}

// makeTxs are n booked incoming transfers to accountID, one a day.
func makeTxs(accountID string, n int) []api.TransactionDetail {
	out := make([]api.TransactionDetail, n)
	for i := range out {
		day := time.Date(2026, 3, 1+i%28, 0, 0, 0, 0, time.UTC)
		out[i] = api.TransactionDetail{ID: fmt.Sprintf("tx-%s-%d", accountID, i), Side: "Credit", Type: "SepaCreditTransferIn",
			Amount: api.Amount{Value: fmt.Sprintf("%d.00", 10+i), Currency: "EUR"}, Label: fmt.Sprintf("Payment %d", i),
			Counterparty: "ACME", PaymentProduct: "SEPACreditTransfer", Reference: fmt.Sprintf("REF-%d", i),
			ExecutionDate: day, CreatedAt: day, UpdatedAt: day,
			StatusInfo: api.TransactionStatusInfo{Status: "Booked", BookingDate: day, ValueDate: day},
			Debtor:     &api.TransactionParty{Name: "ACME", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX"},
			Account:    &api.AccountRef{ID: accountID, Name: "Account " + strings.TrimPrefix(accountID, "acc-")}}
	}
	return out
}

// fakeSession signs in through login (or succeeds when it is nil). Its
// store reads fail the test when they happen on the event loop: onLoop is
// the driver's flag, set while Update runs.
type fakeSession struct {
	mu       sync.Mutex
	t        testing.TB
	onLoop   *atomic.Bool
	headless bool // the prompt Login shows is a headless one
	signedIn bool
	login    func(ctx context.Context, opts auth.LoginOptions) (*auth.Identity, error)
	logins   int
	logouts  int
	reads    int
	expiry   time.Time
}

func (s *fakeSession) Login(ctx context.Context, opts auth.LoginOptions) (*auth.Identity, error) {
	s.mu.Lock()
	s.logins++
	fn := s.login
	s.mu.Unlock()
	if opts.ShowURL != nil {
		opts.ShowURL(fakePrompt(s.headless, opts.Open != nil))
	}
	if fn != nil {
		id, err := fn(ctx, opts)
		if err == nil {
			s.mu.Lock()
			s.signedIn = true
			s.mu.Unlock()
		}
		return id, err
	}
	s.mu.Lock()
	s.signedIn = true
	s.mu.Unlock()
	return &auth.Identity{Subject: "user-1"}, nil
}

// fakePrompt is the prompt a Login shows; its Paste answers
// ErrSignInFinished (tests that paste hand the screen their own paste).
func fakePrompt(headless, opening bool) auth.SignInPrompt {
	p := auth.SignInPrompt{Env: "sandbox", URL: "http://127.0.0.1:9999/oauth2/auth?client_id=SANDBOX_test&state=abc",
		CallbackPort: 43123, Headless: headless, Opening: opening || !headless}
	if headless {
		p.SSHForward = "ssh -N -L 43123:127.0.0.1:43123 dev.example.com"
	}
	return p
}

// read is one read of the token store.
func (s *fakeSession) read(what string) {
	if s.onLoop != nil && s.onLoop.Load() {
		s.t.Errorf("Session.%s read the token store on the event loop", what)
	}
	s.reads++
}

func (s *fakeSession) Logout(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.onLoop != nil && s.onLoop.Load() {
		s.t.Error("Session.Logout ran on the event loop")
	}
	s.logouts++
	s.signedIn = false
	return nil
}

func (s *fakeSession) SignedIn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.read("SignedIn")
	return s.signedIn
}

func (s *fakeSession) Status() (*auth.StatusInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.read("Status")
	return &auth.StatusInfo{SignedIn: s.signedIn, AccessExpiry: s.expiry}, nil
}

// pendingTick is what the test tick returns instead of sleeping.
type pendingTick struct {
	d  time.Duration
	fn func(time.Time) tea.Msg
}

// driver runs a Model synchronously: it executes commands in order, feeds
// their messages back, and parks timers until the test fires them.
type driver struct {
	t      testing.TB
	onLoop atomic.Bool
	m      *Model
	ticks  []pendingTick
	copied []string
	// opened are the pages the UI asked the browser to open.
	opened []string
	quit   bool
	// requests is the request log setup may give the UI (L); nil: none.
	requests RequestLog
	// demo is Options.Demo, when a setup gives one.
	demo  *DemoPlace
	sbx   *fakeAPI
	live  *fakeAPI
	sbxS  *fakeSession
	liveS *fakeSession
	sbxP  *fakeProjectAPI // the environments' event logs
	liveP *fakeProjectAPI
	// sbxSnap, when a setup sets it, is the Sandbox's launch snapshot.
	sbxSnap *fakeSnapshot
}

// fakeSnapshot is a launch snapshot kept in memory.
type fakeSnapshot struct {
	mu    sync.Mutex
	home  *api.Home
	saved time.Time
	saves []*api.Home
}

func (f *fakeSnapshot) Load() (*api.Home, time.Time, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.home, f.saved, nil
}

func (f *fakeSnapshot) Save(h *api.Home) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saves = append(f.saves, h)
	return nil
}

type fixture struct {
	rows       int
	signedIn   bool
	liveSigned bool
	noLive     bool
	w, h       int
	demo       bool
	color      bool
	project    bool // both environments use a project token
	noEvents   bool // no project-token client: no event log, no transaction by id
	headless   bool // an SSH session: no browser opens
	// noDisplay: a desktop-less machine (no DISPLAY), not over SSH.
	noDisplay bool
	// browser is $BROWSER; "" for none.
	browser string
	// prefetch: the first screen's request is sent before the program
	// starts (Prefetch).
	prefetch bool
}

func newDriver(t testing.TB, fx fixture) *driver {
	t.Helper()
	return newDriverWith(t, fx, nil)
}

// newDriverWith lets setup change the fakes before the program starts.
func newDriverWith(t testing.TB, fx fixture, setup func(*driver)) *driver {
	t.Helper()
	d := &driver{t: t, sbx: newFakeAPI(fx.rows), live: newFakeAPI(3), sbxP: newFakeProjectAPI(12), liveP: newFakeProjectAPI(3)}
	d.sbxS = &fakeSession{t: t, onLoop: &d.onLoop, signedIn: fx.signedIn, expiry: testNow.Add(58 * time.Minute), headless: fx.headless}
	d.liveS = &fakeSession{t: t, onLoop: &d.onLoop, signedIn: fx.liveSigned, expiry: testNow.Add(30 * time.Minute), headless: fx.headless}
	d.live.status.Env = "live"
	for i := range d.live.accounts {
		d.live.accounts[i].Name = fmt.Sprintf("Live account %d", i)
	}
	envs := map[config.EnvName]*Environment{
		config.Sandbox: {Name: config.Sandbox, ClientID: "SANDBOX_test", API: d.sbx, Session: d.sbxS, PrefilledPhone: "+33612345678"},
	}
	if fx.demo {
		envs[config.Sandbox].DemoApprove = func(ctx context.Context, url string) error { return nil }
	}
	if !fx.noLive {
		envs[config.Live] = &Environment{Name: config.Live, ClientID: "LIVE_test", API: d.live, Session: d.liveS, ReadOnly: true}
	}
	for _, e := range envs {
		e.Project = fx.project
	}
	d.sbx.projectToken, d.live.projectToken = fx.project, fx.project
	d.sbxP.txsOf, d.liveP.txsOf = d.sbx, d.live
	if !fx.noEvents {
		envs[config.Sandbox].ProjectAPI = d.sbxP
		if e := envs[config.Live]; e != nil {
			e.ProjectAPI = d.liveP
		}
	}
	// A desktop session unless the test says SSH.
	getenv := func(k string) string {
		switch {
		case fx.headless && k == "SSH_CONNECTION":
			return "203.0.113.9 50000 198.51.100.7 22"
		case !fx.headless && !fx.noDisplay && k == "DISPLAY":
			return ":0"
		case k == "BROWSER":
			return fx.browser
		}
		return ""
	}
	if setup != nil {
		setup(d)
	}
	if d.sbxSnap != nil {
		envs[config.Sandbox].Snapshot = d.sbxSnap
	}
	var first *FirstScreen
	if fx.prefetch {
		first = d.prefetch(envs[config.Sandbox])
	}
	d.onLoop.Store(true) // New and Init run on the event loop too
	d.m = New(Options{
		Envs: envs, Start: config.Sandbox, FirstScreen: first, NoColor: !fx.color, Getenv: getenv, Requests: d.requests, Demo: d.demo,
		Now:       func() time.Time { return testNow },
		Clipboard: func(s string) tea.Cmd { d.copied = append(d.copied, s); return nil },
		OpenURL:   func(_ context.Context, u string) error { d.opened = append(d.opened, u); return nil },
		tick: func(dur time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
			return func() tea.Msg { return pendingTick{dur, fn} }
		},
	})
	w, h := fx.w, fx.h
	if w == 0 {
		w, h = 80, 24
	}
	cmd := d.m.Init()
	d.onLoop.Store(false)
	d.run(cmd)
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	d.send(tea.BackgroundColorMsg{}) // black: dark
	return d
}

// prefetch sends e's first request as the command line does before the
// program starts, and waits for its answer (which it puts back for the
// account list), so the program starts after it as a fast network's would.
func (d *driver) prefetch(e *Environment) *FirstScreen {
	f := Prefetch(context.Background(), e)
	ans := <-f.answer
	kept := make(chan homeAnswer, 1)
	kept <- ans
	f.answer = kept
	return f
}

func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	d.run(d.update(msg))
	d.noCrash()
}

func (d *driver) noCrash() {
	d.t.Helper()
	if d.m.crashed != nil {
		d.t.Fatalf("the model crashed: %v", d.m.crashed)
	}
}

// update sends msg without running the resulting command. onLoop is set
// meanwhile: the fake session fails the test if Update reads its store.
func (d *driver) update(msg tea.Msg) tea.Cmd {
	d.onLoop.Store(true)
	defer d.onLoop.Store(false)
	_, cmd := d.m.Update(msg)
	return cmd
}

// run runs cmd and what follows from it on the test's goroutine: timers
// are parked for fire, a quit is noted, every other message is delivered.
func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	settled := teacmd.Run(cmd, func(msg tea.Msg) tea.Cmd {
		switch msg := msg.(type) {
		case pendingTick:
			d.ticks = append(d.ticks, msg)
		case tea.QuitMsg:
			d.quit = true
		default:
			return d.update(msg)
		}
		return nil
	})
	if !settled {
		d.t.Fatal("command loop did not settle")
	}
}

// fire delivers every parked timer whose message satisfies keep.
func (d *driver) fire(keep func(tea.Msg) bool) int {
	d.t.Helper()
	ticks := d.ticks
	d.ticks = nil
	n := 0
	for _, tk := range ticks {
		msg := tk.fn(testNow)
		if keep(msg) {
			n++
			d.send(msg)
		} else {
			d.ticks = append(d.ticks, tk)
		}
	}
	return n
}

func (d *driver) press(keys ...string) {
	d.t.Helper()
	for _, k := range keys {
		d.send(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// screen is what the terminal shows, without styling or the spaces that
// pad lines to the terminal's width.
func (d *driver) screen() string {
	lines := strings.Split(ansi.Strip(d.m.render()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// topAs is the top screen, which must be an S.
func topAs[S screen](d *driver) S {
	d.t.Helper()
	s, ok := d.m.top().(S)
	if !ok {
		var want S
		d.t.Fatalf("top screen is %T, want %T", d.m.top(), want)
	}
	return s
}

func (d *driver) accounts() *accountsScreen { d.t.Helper(); return topAs[*accountsScreen](d) }
func (d *driver) account() *accountScreen   { d.t.Helper(); return topAs[*accountScreen](d) }
func (d *driver) overview() *overviewScreen { d.t.Helper(); return d.account().overview }
func (d *driver) signin() *signinScreen     { d.t.Helper(); return topAs[*signinScreen](d) }

// tabIndex is the place of account a's tab titled title.
func tabIndex(t testing.TB, a *accountScreen, title string) int {
	t.Helper()
	for i, p := range a.tabs {
		if p.title == title {
			return i
		}
	}
	t.Fatalf("the account has no %s tab", title)
	return -1
}

// tabOf is account a's tab titled title, as the screen it is.
func tabOf[S screen](t testing.TB, a *accountScreen, title string) S {
	t.Helper()
	s, ok := a.tabs[tabIndex(t, a, title)].screen.(S)
	if !ok {
		t.Fatalf("the %s tab is a %T", title, a.tabs[tabIndex(t, a, title)].screen)
	}
	return s
}

func (d *driver) wantScreen(sub string) {
	d.t.Helper()
	if s := d.screen(); !strings.Contains(s, sub) {
		d.t.Fatalf("screen lacks %q:\n%s", sub, s)
	}
}
