package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/platform"
	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
	"github.com/partnertui/partnertui/internal/testkit/teacmd"
)

func (d *driver) events() *eventsScreen { d.t.Helper(); return topAs[*eventsScreen](d) }
func (d *driver) event() *eventScreen   { d.t.Helper(); return topAs[*eventScreen](d) }

// collect runs cmd without feeding its messages back, flattening batches,
// and returns what it produced (timers excepted).
func collect(cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	teacmd.Run(cmd, func(msg tea.Msg) tea.Cmd {
		if _, timer := msg.(pendingTick); !timer {
			out = append(out, msg)
		}
		return nil
	})
	return out
}

// firePoll delivers the live tail's timer once.
func (d *driver) firePoll() int {
	d.t.Helper()
	return d.fire(func(m tea.Msg) bool { _, ok := m.(eventsPollMsg); return ok })
}

// push sends the screen a key produced without running the screen's own
// first reads: what a screen shows while its requests are held.
func (d *driver) pushOnly(k string) {
	d.t.Helper()
	for _, msg := range collect(d.update(keyMsg(k))) {
		if p, ok := msg.(pushMsg); ok {
			d.update(p) // its init's reads are left on the wire
			return
		}
	}
	d.t.Fatalf("%s pushed no screen", k)
}

func budgetWait(used int, left time.Duration) api.Status {
	return api.Status{Env: "sandbox", Used: used, Limit: 2000, Waiting: 1, WaitReason: api.WaitBudget,
		RetryAt: testNow.Add(left)}
}

func TestEventsReachableFromAnywhereAndScopedToTheAccount(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E")
	s := d.events()
	if s.query.filtered() {
		t.Fatalf("opened from the list, the view is filtered: %+v", s.query)
	}
	d.wantScreen("Accounts › Events")
	d.wantScreen("Transaction.Booked")
	d.wantScreen("row 1 of 12/12")
	if d.m.keys.Events.Enabled() {
		t.Fatal("the Events key is offered on the Events view")
	}
	d.press("esc", "enter", "E")
	s = d.events()
	if s.query.resource != "acc-0" || s.query.scope != "Account 0" {
		t.Fatalf("opened from an account, the query is %+v", s.query)
	}
	d.sbxP.mu.Lock()
	last := d.sbxP.calls[len(d.sbxP.calls)-1]
	d.sbxP.mu.Unlock()
	if last.ResourceID != "acc-0" || last.First != eventsPageSize {
		t.Fatalf("the log was asked for %+v", last)
	}
	d.wantScreen("Account 0 › Events (Account 0)")
	d.wantScreen("account Account 0")
	// esc first drops the filter, then goes back.
	d.press("esc")
	if d.events().query.filtered() {
		t.Fatal("esc kept the account filter")
	}
	d.wantScreen("Transaction.Booked")
	d.press("esc")
	d.overview()
}

func TestEventsShowANewEventWithinOnePollInterval(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E")
	var interval time.Duration
	for _, tk := range d.ticks {
		if _, ok := tk.fn(testNow).(eventsPollMsg); ok {
			interval = tk.d
		}
	}
	if interval != eventsPollInterval {
		t.Fatalf("the tail polls every %s, want %s", interval, eventsPollInterval)
	}
	d.sbxP.add("Transaction.Booked", "tx-new")
	if strings.Contains(d.screen(), "tx-new") {
		t.Fatal("the event showed before any poll")
	}
	if d.firePoll() != 1 {
		t.Fatal("no poll timer was armed")
	}
	d.wantScreen("tx-new")
	// The new event comes in above; the cursor stays on the event it was on.
	s := d.events()
	if l, _ := s.list.Selected(); s.list.Cursor() != 1 || l.ID != "log-0" {
		t.Fatalf("cursor on row %d (%s) after the new event", s.list.Cursor(), l.ID)
	}
	d.wantScreen("row 2 of 13/13")
}

// The tail's spending: one request per poll interval at the top of the
// log, none while the user reads older rows, none while a read waits. Run
// with -v for the measured rate.
func TestEventsTailSpendsAtMostItsShareOfTheBudget(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("E")
	before := d.sbxP.requests()
	window := platform.BudgetWindow
	polls := int(window / eventsPollInterval)
	for range polls {
		d.firePoll()
	}
	spent := d.sbxP.requests() - before
	perMinute := float64(spent) / window.Minutes()
	share := float64(spent) / platform.RequestBudget
	t.Logf("Events view, idle at the top: %d requests per %s = %.0f per minute = %.1f%% of the %d-request budget",
		spent, window, perMinute, 100*share, platform.RequestBudget)
	if spent != polls || share > eventsBudgetShare {
		t.Fatalf("%d requests in %s (%d polls): %.1f%% of the budget", spent, window, polls, 100*share)
	}

	// Away from the newest rows the tail pauses.
	d.sbxP.mu.Lock()
	for i := range 200 {
		d.sbxP.logs = append(d.sbxP.logs, makeLog(100+i, testNow.Add(-time.Hour)))
	}
	d.sbxP.mu.Unlock()
	d.press("r", "G")
	before = d.sbxP.requests()
	for range 10 {
		d.firePoll()
	}
	if n := d.sbxP.requests() - before; n != 0 {
		t.Fatalf("the paused tail sent %d requests", n)
	}
	d.wantScreen("tail paused (g for the newest, G for older)")
	d.press("g")
	before = d.sbxP.requests()
	d.firePoll()
	if n := d.sbxP.requests() - before; n != 1 {
		t.Fatalf("back at the top, a poll sent %d requests", n)
	}

	// Under an event's screen the tail reads nothing; back on top, it does.
	d.press("enter")
	before = d.sbxP.requests()
	for range 10 {
		d.firePoll()
	}
	if n := d.sbxP.requests() - before; n != 0 {
		t.Fatalf("the covered tail sent %d requests", n)
	}
	d.press("esc")
	d.firePoll()
	if n := d.sbxP.requests() - before; n != 1 {
		t.Fatalf("uncovered, a poll sent %d requests", n)
	}
}

// A poll held back by the budget is not sent; while it waits no other
// poll goes, and the view says why and for how long.
func TestEventsTailPausesWhileTheBudgetIsSpent(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E")
	before := d.sbxP.requests()
	// The poll's read goes on the wire, where the client holds it: its
	// command is never run.
	d.update(eventsPollMsg{envTag{config.Sandbox}, d.events().pollSeq})
	if !d.events().list.Busy() || d.sbxP.requests() != before {
		t.Fatal("the poll did not start a read")
	}
	d.sbxP.setStatus(budgetWait(2000, 12*time.Second))
	d.fire(func(m tea.Msg) bool { _, ok := m.(clockMsg); return ok })
	d.wantScreen("tail paused, waiting 12s for the request budget")
	d.wantScreen("budget · sending in 12s")
	d.wantScreen("2000/2000")
	n := d.sbxP.requests()
	d.send(eventsPollMsg{envTag{config.Sandbox}, d.events().pollSeq})
	if d.sbxP.requests() != n || n != before {
		t.Fatal("a poll was sent while another waited")
	}
}

func TestEventsFiltersAreTheServers(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E")
	last := func() api.WebhookEventLogsParams {
		d.sbxP.mu.Lock()
		defer d.sbxP.mu.Unlock()
		return d.sbxP.calls[len(d.sbxP.calls)-1]
	}
	d.press("t")
	if !d.events().capturing() {
		t.Fatal("t opened no field")
	}
	d.wantScreen("type: ")
	d.press("C", "a", "r", "d", ".", "C", "r", "e", "a", "t", "e", "d", "enter")
	if p := last(); p.EventType != "Card.Created" || p.StatusText != "" || p.ResourceID != "" {
		t.Fatalf("type filter sent %+v", p)
	}
	d.wantScreen("type Card.Created")
	if strings.Contains(d.screen(), "Transaction.Booked") {
		t.Fatal("the type filter let other types through")
	}
	// The types to suggest are asked for once.
	d.press("t", "esc", "t", "esc")
	if d.sbxP.typeCalls != 1 {
		t.Fatalf("event types asked for %d times", d.sbxP.typeCalls)
	}
	d.press("s")
	if p := last(); p.StatusText != "Success" || p.EventType != "Card.Created" {
		t.Fatalf("status filter sent %+v", p)
	}
	d.wantScreen("s status: success")
	// The status line names the filter in plain English (not "successs").
	d.wantScreen("· successes")
	if strings.Contains(d.screen(), "successs") {
		t.Fatalf("the status filter's plural is misspelt:\n%s", d.screen())
	}
	d.press("s")
	if p := last(); p.StatusText != "Failure" {
		t.Fatalf("second s sent %+v", p)
	}
	d.press("s")
	if p := last(); p.StatusText != "" {
		t.Fatalf("third s sent %+v", p)
	}
	d.press("/")
	d.send(tea.PasteMsg{Content: "card-3\x1b[31m"})
	d.press("enter")
	if p := last(); p.ResourceID != "card-3" || p.EventType != "Card.Created" {
		t.Fatalf("resource filter sent %+v", p)
	}
	d.wantScreen("resource card-3")
	n := len(d.sbxP.calls)
	d.press("/", "enter")
	if len(d.sbxP.calls) != n {
		t.Fatal("an unchanged filter sent a request")
	}
	d.press("esc")
	if p := last(); p.EventType != "" || p.ResourceID != "" || p.StatusText != "" {
		t.Fatalf("esc left filters: %+v", p)
	}
	d.events()
}

func TestEventsFilteredToNothingSaySo(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E", "/", "n", "o", "n", "e", "enter")
	d.wantScreen("No events match these filters. Press esc to clear them.")
	d.sbxP.mu.Lock()
	d.sbxP.logs = nil
	d.sbxP.mu.Unlock()
	d.press("esc")
	d.wantScreen("No events logged in Sandbox yet")
}

// enter shows the payload pretty-printed and the resource it names; enter
// again asks the root to open that resource.
func TestEventDetailShowsThePayloadAndOpensTheResource(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E", "enter")
	s := d.event()
	if s.ev.EventType != "Transaction.Booked" || s.kind != resourceTransaction {
		t.Fatalf("opened %s (%v)", s.ev.EventType, s.kind)
	}
	d.wantScreen("Events › Transaction.Booked")
	d.wantScreen(`  "eventType": "Transaction.Booked",`)
	d.wantScreen(`  "resourceId": "tx-0"`)
	d.wantScreen("Transaction tx-0  (enter opens it)")
	d.wantScreen("200 Success · first attempt · 30 ms")
	d.wantScreen("my hook → https://hooks.example.com/swan")
	var opened []openMsg
	for _, m := range collect(d.update(keyMsg("enter"))) {
		if o, ok := m.(openMsg); ok {
			opened = append(opened, o)
		}
	}
	if len(opened) != 1 || opened[0].kind != resourceTransaction || opened[0].id != "tx-0" || opened[0].env != config.Sandbox {
		t.Fatalf("enter asked to open %+v", opened)
	}
	d.press("c")
	if len(d.copied) != 1 || !strings.HasPrefix(d.copied[0], `{"eventType":"Transaction.Booked"`) {
		t.Fatalf("copied %q", d.copied)
	}

	// An account event opens the account; a user event names nothing the
	// UI opens, and enter is not offered.
	cases := []struct {
		row  int
		kind resourceKind
		id   string
	}{{2, resourceAccount, "acc-1"}, {3, resourceCard, "card-3"}, {4, resourceMembership, "mem-4"}, {5, "", ""}}
	for _, c := range cases {
		d.press("esc", "g")
		for range c.row {
			d.press("j")
		}
		d.press("enter")
		s := d.event()
		if s.kind != c.kind || s.keys.OpenResource.Enabled() != (c.kind != "") {
			t.Fatalf("%s: kind %v, open enabled %v", s.ev.EventType, s.kind, s.keys.OpenResource.Enabled())
		}
		if c.kind == "" {
			if _, handled := d.m.key(keyMsg("enter")); handled {
				t.Fatalf("%s: enter is handled with nothing to open", s.ev.EventType)
			}
			continue
		}
		msgs := collect(d.update(keyMsg("enter")))
		if len(msgs) != 1 || msgs[0] != (openMsg{envTag{config.Sandbox}, c.kind, c.id}) {
			t.Fatalf("%s: enter produced %+v", s.ev.EventType, msgs)
		}
	}
}

func TestPrettyJSONLeavesOtherTextAlone(t *testing.T) {
	t.Parallel()
	if got := prettyJSON(`{"a":1,"b":[true]}`); got != "{\n  \"a\": 1,\n  \"b\": [\n    true\n  ]\n}" {
		t.Fatalf("pretty JSON:\n%s", got)
	}
	if got := prettyJSON("internal\terror"); got != "internal    error" {
		t.Fatalf("text: %q", got)
	}
}

// R asks first; only y replays, to the subscription the event was
// delivered to, and the replay's log entry is read at once.
func TestReplayAsksFirstAndReadsTheNewEntry(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E", "R")
	d.wantScreen("Replay Transaction.Booked evt-0 to my hook? y replays, any other key keeps it.")
	d.press("q") // any other key, even quit
	if d.quit || len(d.sbxP.replays) != 0 {
		t.Fatalf("quit %v, replays %q", d.quit, d.sbxP.replays)
	}
	d.wantScreen("Nothing replayed")
	calls := len(d.sbxP.calls)
	d.press("R", "y")
	if len(d.sbxP.replays) != 1 || d.sbxP.replays[0] != "evt-0→sub-1" {
		t.Fatalf("replays %q", d.sbxP.replays)
	}
	d.wantScreen("Replayed Transaction.Booked to my hook: the endpoint answered 200")
	if len(d.sbxP.calls) != calls+1 {
		t.Fatalf("the log was read %d times after the replay", len(d.sbxP.calls)-calls)
	}
	d.wantScreen("replay")
	// From the event itself too.
	d.press("enter", "R", "y")
	if len(d.sbxP.replays) != 2 {
		t.Fatalf("replays %q", d.sbxP.replays)
	}
	d.wantScreen("Replayed")
}

func TestReplayFailureIsWorded(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 160, h: 40})
	d.press("E")
	d.sbxP.err = &api.RejectionError{Env: "sandbox", Type: "WebhookEventLogNotFoundRejection", Message: "no such event"}
	d.press("R", "y")
	d.wantScreen("✗ The replay failed. The Sandbox API rejected the request (WebhookEventLogNotFoundRejection: no such event).")
}

// Live is read-only: R is not bound there, on the list or an event.
func TestReplayIsNotOfferedOnLive(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true})
	d.press("e", "y", "E")
	if _, handled := d.m.key(keyMsg("R")); handled || d.events().keys.Replay.Enabled() {
		t.Fatal("R is bound on Live's event log")
	}
	d.press("enter")
	if _, handled := d.m.key(keyMsg("R")); handled {
		t.Fatal("R is bound on a Live event")
	}
	if len(d.liveP.replays) != 0 {
		t.Fatal("Live was sent a replay")
	}
}

// The log is read with the project token: its refusal is a configuration
// matter on this screen, never a trip to the sign-in.
func TestEventsProjectTokenRefusalStaysOnScreen(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 160, h: 40})
	d.sbxP.err = &api.UnauthorizedError{Env: "sandbox", Status: 401, Message: "invalid client"}
	d.press("E")
	d.events()
	d.wantScreen("✗ Could not read the event log. The Sandbox API refused the access token (HTTP 401: invalid client).")
	d.wantScreen("the config file, then press r to try again.")
	d.wantScreen("tail stopped by the error (r reads again)")
	// A failing tail keeps its error on screen between polls.
	d.sbxP.err = nil
	d.press("r")
	d.wantScreen("Transaction.Booked")
	d.sbxP.err = &api.ServerError{Env: "sandbox", Status: 502}
	d.firePoll()
	d.wantScreen("The Sandbox API failed with HTTP 502.")
	d.wantScreen("Transaction.Booked")
}

func TestNoEventsKeyWithoutAProjectClient(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, noEvents: true})
	if _, handled := d.m.key(keyMsg("E")); handled {
		t.Fatal("E is handled with no project-token client")
	}
}

func TestEventColumnsAndAges(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{12 * time.Second: "12s", 4 * time.Minute: "4m", 5 * time.Hour: "5h", 72 * time.Hour: "3d"} {
		if got := age(d); got != want {
			t.Errorf("age(%s) = %q, want %q", d, got, want)
		}
	}
	code := 500
	for _, c := range []struct {
		l    api.WebhookEventLog
		want string
	}{
		{api.WebhookEventLog{StatusCode: &code, StatusText: "Failure"}, "✗ 500"},
		{api.WebhookEventLog{StatusText: "Failure"}, "✗ none"},
		{api.WebhookEventLog{StatusCode: new(int), StatusText: "Success"}, "0"},
	} {
		if got := deliveryCell(&c.l); got != c.want {
			t.Errorf("delivery cell %q, want %q", got, c.want)
		}
	}
	if retriesText(nil) != "replay" {
		t.Error("a manual replay is not marked")
	}
}

// TestGoldenEventsAndWaits snapshots the Events view, one event, the
// headless sign-in with its paste field, and the waits. Refresh with
// go test ./ui -run TestGoldenEventsAndWaits -update.
func TestGoldenEventsAndWaits(t *testing.T) {
	t.Parallel()
	refuse := func(string) error {
		return &auth.PasteError{Reason: "it carries neither an authorization code nor an error"}
	}
	scenes := []struct {
		name  string
		fx    fixture
		setup func(d *driver)
	}{
		{"events", fixture{rows: 3, signedIn: true}, func(d *driver) { d.press("E", "j") }},
		{"events_account", fixture{rows: 3, signedIn: true}, func(d *driver) { d.press("enter", "E") }},
		{"events_filter", fixture{rows: 3, signedIn: true}, func(d *driver) { d.press("E", "s", "t", "T") }},
		{"events_replay", fixture{rows: 3, signedIn: true}, func(d *driver) { d.press("E", "R") }},
		{"event", fixture{rows: 3, signedIn: true}, func(d *driver) { d.press("E", "enter") }},
		{"events_budget", fixture{rows: 3, signedIn: true}, func(d *driver) {
			d.pushOnly("E")
			d.sbxP.setStatus(budgetWait(2000, 12*time.Second))
			d.fire(func(m tea.Msg) bool { _, ok := m.(clockMsg); return ok })
		}},
		{"detail_429", fixture{rows: 3, signedIn: true}, func(d *driver) {
			d.pushOnly("enter")
			st := d.sbx.Status()
			st.Waiting, st.WaitReason, st.Retrying, st.RetryAt, st.LastStatus = 2, api.WaitRetryAfter, true, testNow.Add(3*time.Second), 429
			d.send(statusMsg{envTag{config.Sandbox}, st})
		}},
		{"signin_headless", fixture{rows: 3, headless: true}, func(d *driver) {}},
		{"signin_paste", fixture{rows: 3, headless: true}, func(d *driver) {
			blockLogin(d)
			s := d.signin()
			d.send(loginURLMsg{envTag{config.Sandbox}, s.id, fakePrompt(true, false), refuse})
			d.send(tea.PasteMsg{Content: "http://127.0.0.1:43123/callback?state=abc"})
			d.press("enter")
			d.send(tea.PasteMsg{Content: "http://127.0.0.1:43123/callback?code=x"})
		}},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				fx := sc.fx
				fx.w, fx.h, fx.color = sz[0], sz[1], true
				d := newDriver(t, fx)
				sc.setup(d)
				golden.RequireEqual(t, asciiView(t, d))
			})
		}
	}
}

// The Events view seen before opens at once with the rows of that visit,
// their age on the status line, while one request reads the first page
// again; the fresh rows then replace them.
func TestEventsRevisitShowsKeptRowsThenFreshOnes(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	clk := testclock.New(testNow)
	d.m.c.now = clk.Now
	d.press("E")
	d.wantScreen("row 1 of 12/12")
	d.press("esc")

	// Meanwhile an event came.
	clk.Advance(40 * time.Second)
	d.sbxP.add("Transaction.Booked", "tx-new")
	before := d.sbxP.requests()

	// The key opens the view; what opening it sends is kept back.
	revalidate := d.update(d.update(keyMsg("E"))())
	if n := d.sbxP.requests() - before; n != 0 {
		t.Fatalf("opening the Events view again sent %d requests before showing it", n)
	}
	d.wantScreen("row 1 of 12/12")
	d.wantScreen("updated 40s ago")
	if strings.Contains(d.screen(), "tx-new") {
		t.Fatalf("the kept rows show an event read after them:\n%s", d.screen())
	}

	d.run(revalidate)
	d.wantScreen("tx-new")
	// As when the tail reads a new event: it comes in above the cursor.
	d.wantScreen("row 2 of 13/13 · live · updated 0s ago")
	if n := d.sbxP.requests() - before; n != 1 {
		t.Fatalf("the revisit cost %d requests, want 1", n)
	}

	// Another filter has nothing kept: it reads as a first visit does,
	// never showing the rows of another query.
	before = d.sbxP.requests()
	d.press("esc")
	d.press("enter", "E")
	d.wantScreen("Events (Account 0)")
	if strings.Contains(d.screen(), "tx-new") {
		t.Fatalf("the account's events show the rows of the whole log:\n%s", d.screen())
	}
	if n := d.sbxP.requests() - before; n != 1 {
		t.Fatalf("the account's events cost %d requests, want 1", n)
	}
}
