package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

func TestProgressLineOnATerminal(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	p := &progressLine{io: IO{Err: &errb}, tty: true, now: func() time.Time { return now }, tick: time.Hour}
	p.set("100 of 1000 accounts · page 1")
	p.wait("for the request budget", now.Add(39*time.Second))
	got := errb.String()
	if !strings.HasSuffix(got, "\r\x1b[K100 of 1000 accounts · page 1 · waiting 39s for the request budget") {
		t.Fatalf("line = %q", got)
	}
	p.waitDone()
	if !strings.HasSuffix(errb.String(), "\r\x1b[K100 of 1000 accounts · page 1") {
		t.Fatalf("after the wait: %q", errb.String())
	}
	p.clear()
	if !strings.HasSuffix(errb.String(), "\r\x1b[K") {
		t.Fatalf("not cleared: %q", errb.String())
	}
}

func TestProgressLineElsewhereSaysEachWaitOnce(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.Local)
	p := &progressLine{io: IO{Err: &errb}, tty: false, now: func() time.Time { return now }, tick: time.Hour}
	p.set("progress is for terminals only")
	p.wait("for the request budget", now.Add(60*time.Second))
	p.waitDone()
	p.clear()
	if want := "waiting 1m0s, until 10:01:00 " + now.Format("MST") + ", for the request budget\n"; errb.String() != want {
		t.Fatalf("stderr = %q", errb.String())
	}
	var nilLine *progressLine
	nilLine.set("x") // a command without progress passes nil
	nilLine.wait("x", now)
	nilLine.clear()
}

// TestProgressLineFitsTheTerminal: each draw of the line is cut to one
// cell less than the terminal's width, so "\r" rewrites all of it and a
// countdown leaves no line behind.
func TestProgressLineFitsTheTerminal(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	width := 40
	p := &progressLine{io: IO{Err: &errb}, tty: true, now: func() time.Time { return now }, tick: time.Hour, width: func() int { return width }}
	p.set("100 of 1000 accounts · page 1")
	p.wait(waitReason(api.WaitRetryAfter), now.Add(59*time.Second))
	width = 25 // the window shrinks during the wait
	p.wait(waitReason(api.WaitRetryAfter), now.Add(58*time.Second))
	draws := strings.Split(errb.String(), "\r\x1b[K")[1:]
	if len(draws) != 3 {
		t.Fatalf("draws = %q", draws)
	}
	for i, max := range []int{39, 39, 24} {
		if w := ansi.StringWidth(draws[i]); w > max || strings.Contains(draws[i], "\n") {
			t.Errorf("draw %d is %d cells wide, want at most %d: %q", i, w, max, draws[i])
		}
	}
	if !strings.HasPrefix(draws[1], "100 of 1000 accounts · p") || !strings.HasSuffix(draws[1], "…") {
		t.Errorf("a cut line does not say it is cut: %q", draws[1])
	}
}

// TestEveryWaitIsSaid: a 429's wait is said however short, a spent
// budget's from a second on, measured from when it began and not from
// when the line is written (a one-second wait heard 5 ms late was lost).
func TestEveryWaitIsSaid(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.Local)
	p := &progressLine{io: IO{Err: &errb}, now: func() time.Time { return now }, tick: time.Hour}
	p.onWait(api.Wait{Reason: api.WaitRetryAfter, Since: now.Add(-time.Millisecond), Until: now.Add(999 * time.Millisecond)})
	p.onWait(api.Wait{Reason: api.WaitBudget, Since: now.Add(-5 * time.Millisecond), Until: now.Add(995 * time.Millisecond)})
	p.onWait(api.Wait{Reason: api.WaitBudget, Since: now, Until: now.Add(300 * time.Millisecond)})
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "429") || !strings.Contains(lines[1], "for the request budget") {
		t.Errorf("stderr:\n%s", errb.String())
	}
}

// TestAWaitThatGoesOnIsSaidOnce: off a terminal, a wait whose end moves
// by less than a second while requests are held (several processes were
// answered 429 together, each recording its own Retry-After) is one wait,
// said once; one that moves a second or more, or changes reason, is said
// again; a wait after a gap is a new one.
func TestAWaitThatGoesOnIsSaidOnce(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.Local)
	p := &progressLine{io: IO{Err: &errb}, now: func() time.Time { return now }, tick: time.Hour}
	t0, until := now, now.Add(20*time.Second)
	say := func(w api.Wait) {
		p.onWait(w)
		w.Done = true
		p.onWait(w)
	}
	say(api.Wait{Reason: api.WaitRetryAfter, Since: t0, Until: until})
	now = until
	say(api.Wait{Reason: api.WaitRetryAfter, Since: t0, Until: until.Add(4 * time.Millisecond)})
	say(api.Wait{Reason: api.WaitRetryAfter, Since: t0, Until: until.Add(900 * time.Millisecond)})
	if got := strings.Count(errb.String(), "\n"); got != 1 || !strings.HasPrefix(errb.String(), "waiting 20s, until 10:00:20 ") {
		t.Fatalf("a wait moved by less than a second, said as:\n%s", errb.String())
	}
	say(api.Wait{Reason: api.WaitRetryAfter, Since: t0, Until: until.Add(5 * time.Second)})
	say(api.Wait{Reason: api.WaitBudget, Since: t0, Until: until.Add(6 * time.Second)})
	now = until.Add(7 * time.Second)
	say(api.Wait{Reason: api.WaitRetryAfter, Since: now, Until: now.Add(10 * time.Millisecond)})
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	want := []string{"waiting 20s, until 10:00:20 ", "waiting 5s, until 10:00:25 ", "waiting 6s, until 10:00:26 ", "waiting 1s, until 10:00:27 "}
	if len(lines) != len(want) {
		t.Fatalf("stderr:\n%s\nwant %d lines", errb.String(), len(want))
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, want[i]) {
			t.Errorf("line %d = %q, want it to begin %q", i, l, want[i])
		}
	}
}

// TestTwoClientsWaitsShareTheLine: on a terminal, the end of one API
// client's wait leaves the other's countdown on the line.
func TestTwoClientsWaitsShareTheLine(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	p := &progressLine{io: IO{Err: &errb}, tty: true, now: func() time.Time { return now }, tick: time.Hour}
	user := api.Wait{Reason: api.WaitBudget, Since: now, Until: now.Add(30 * time.Second)}
	project := api.Wait{Reason: api.WaitRetryAfter, Since: now, Until: now.Add(10 * time.Second)}
	p.onWait(user)
	p.onWait(project)
	project.Done = true
	p.onWait(project)
	if !strings.HasSuffix(errb.String(), "\r\x1b[Kwaiting 30s for the request budget (2000 requests per 5 minutes, shared by every partnertui on this machine)") {
		t.Fatalf("after one wait ended: %q", errb.String())
	}
	user.Done = true
	p.onWait(user)
	if !strings.HasSuffix(errb.String(), "\r\x1b[K") {
		t.Fatalf("after both ended: %q", errb.String())
	}
}

// TestSevenProcessesWaitingOutA429AllSaySo: the README's promise on waits.
// Seven clients share one budget file, as seven processes do; one is
// answered 429 with Retry-After: 1, and every one of them, held by it,
// says so, although each hears of its wait a few milliseconds after it
// began.
func TestSevenProcessesWaitingOutA429AllSaySo(t *testing.T) {
	t.Parallel()
	var answered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if answered.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"data":{"webhookEventTypes":["User.Joined"]}}`))
	}))
	defer srv.Close()
	// Each sleeper says it sleeps, then waits until released: every
	// process is caught in its wait before time moves on.
	clk := clock.New(time.Date(2026, 1, 1, 10, 0, 0, 0, time.Local))
	sleeping, release := make(chan struct{}, 7), make(chan struct{})
	clk.OnSleep(func(time.Duration) {
		sleeping <- struct{}{}
		<-release
	})
	dir := t.TempDir()
	const n = 7
	errs := make([]*syncBuffer, n)
	done := make(chan error, n)
	start := func(i int) {
		errs[i] = &syncBuffer{}
		p := &progressLine{io: IO{Err: errs[i]}, now: clk.Now, tick: time.Hour}
		c, err := api.New(api.Options{Env: "sandbox", GraphQLURL: srv.URL + "/sandbox-partner/graphql",
			TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "t"}), Now: clk.Now, Sleep: clk.Sleep, BudgetDir: dir,
			OnWait: func(w api.Wait) { clk.Advance(5 * time.Millisecond); p.onWait(w) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		go func() { _, err := c.WebhookEventTypes(context.Background()); done <- err }()
	}
	start(0)
	<-sleeping // the first one waits out its own 429
	for i := 1; i < n; i++ {
		start(i)
		<-sleeping
	}
	for i, e := range errs {
		if !strings.Contains(e.String(), "waiting 1s, until ") || !strings.Contains(e.String(), "429") {
			t.Errorf("process %d said %q while it waited out the 429", i, e.String())
		}
	}
	clk.Advance(time.Second)
	close(release)
	for range n {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
