package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
)

// The footer says "retrying" only for a query that will be sent again;
// other waits say what holds the requests and when they go.
func TestFooterWordsEachWait(t *testing.T) {
	t.Parallel()
	at := func(d time.Duration) time.Time { return testNow.Add(d) }
	cases := []struct {
		name string
		st   api.Status
		want string
	}{
		{"nothing waits", api.Status{}, ""},
		{"a 429 retried", api.Status{Waiting: 1, WaitReason: api.WaitRetryAfter, Retrying: true, RetryAt: at(3 * time.Second)}, "429 · retrying in 3s"},
		{"first sends after a 429", api.Status{Waiting: 2, WaitReason: api.WaitRetryAfter, RetryAt: at(3 * time.Second)}, "429 · sending in 3s"},
		{"backoff", api.Status{Waiting: 1, WaitReason: api.WaitBackoff, Retrying: true, RetryAt: at(2 * time.Second)}, "429 · retrying in 2s"},
		{"spent budget", api.Status{Waiting: 4, WaitReason: api.WaitBudget, RetryAt: at(12 * time.Second)}, "budget · sending in 12s"},
		{"due", api.Status{Waiting: 1, WaitReason: api.WaitBudget, RetryAt: at(-time.Second)}, "budget · sending now"},
	}
	for _, c := range cases {
		if got := footerWait(c.st, testNow); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := waitText(cases[4].st, testNow); got != "waiting 12s for the request budget" {
		t.Errorf("wait text %q", got)
	}
	if got := waitText(cases[2].st, testNow); got != "waiting 3s after an HTTP 429 (too many requests)" {
		t.Errorf("wait text %q", got)
	}
}

// Updates only tells of this process's requests: the clock's poll of
// Status brings the machine's count, and a wait of the project client.
func TestFooterPollsTheMachinesCount(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.wantScreen("12/2000")
	d.sbx.mu.Lock()
	d.sbx.status.Used = 1540 // another process's requests
	d.sbx.mu.Unlock()
	if strings.Contains(d.screen(), "1540/2000") {
		t.Fatal("the footer changed before any poll")
	}
	var slow time.Duration
	for _, tk := range d.ticks {
		if _, ok := tk.fn(testNow).(clockMsg); ok {
			slow = tk.d
		}
	}
	if slow != clockSlow {
		t.Fatalf("the clock ticks every %s", slow)
	}
	fireClock := func() { d.fire(func(m tea.Msg) bool { _, ok := m.(clockMsg); return ok }) }
	fireClock()
	d.wantScreen("1540/2000")

	// The project client (the event log's) waits: the footer says so and
	// the clock speeds up for the countdown.
	d.sbxP.setStatus(budgetWait(2000, 40*time.Second))
	fireClock()
	d.wantScreen("2000/2000")
	d.wantScreen("budget · sending in 40s")
	if !d.m.clock.fast {
		t.Fatal("the clock stayed slow during the countdown")
	}
	d.sbxP.setStatus(api.Status{Used: 2000, Limit: 2000})
	fireClock()
	if strings.Contains(d.screen(), "sending in") {
		t.Fatal("the countdown outlived the wait")
	}
}

// A list whose first read waits shows the wait, not "Loading…" or an
// empty list.
func TestScreensShowTheWaitInsteadOfLoading(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.pushOnly("enter")
	st := d.sbx.Status()
	st.Waiting, st.WaitReason, st.RetryAt = 1, api.WaitBudget, testNow.Add(12*time.Second)
	d.send(statusMsg{envTag{config.Sandbox}, st})
	d.wantScreen("Account 0\n⠋ waiting 12s for the request budget")
	d.update(keyMsg("2")) // the tab's first read is left on the wire
	d.wantScreen("tab/" + d.account().keys.Pick.Help().Key + " to change\n⠋ waiting 12s for the request budget")

	// The account list before its first page, and while it pages.
	d.sbx.mu.Lock()
	d.sbx.status = st
	d.sbx.mu.Unlock()
	d.press("esc")
	a := d.accounts()
	a.list.Close()
	a2 := newAccountsScreen(d.m.c, d.m.env)
	d.m.stack[0] = a2
	a2.setSize(d.m.bodySize())
	a2.homeID = 1 // the home request is on the wire
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.wantScreen("waiting 12s for the request budget")
	if strings.Contains(d.screen(), "Loading") {
		t.Fatalf("the list says Loading while a wait holds it:\n%s", d.screen())
	}
}
