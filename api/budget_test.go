package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

func TestParseReset(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		parse func(string, time.Time) (time.Time, bool)
		in    string
		want  time.Time
		ok    bool
	}{
		{parseReset, "120", now.Add(2 * time.Minute), true},
		{parseReset, "1767225900", time.Unix(1767225900, 0), true}, // a timestamp, not seconds
		{parseReset, now.Add(time.Minute).Format(http.TimeFormat), now.Add(time.Minute), true},
		{parseReset, "", time.Time{}, false},
		{parseReset, "later", time.Time{}, false},
	}
	for i, tc := range cases {
		got, ok := tc.parse(tc.in, now)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("case %d: parse(%q) = %v, %v; want %v, %v", i, tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestJunkRateLimitHeadersAreIgnored(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "500")
		w.Header().Set("X-RateLimit-Remaining", "lots")
		okAccounts(w)
	}), nil)
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	if s := c.Status(); s.Used != 1 || s.Limit != platform.RequestBudget {
		t.Errorf("status = %+v, want the client's own count", s)
	}
}

// waitLog collects what Options.OnWait hears.
type waitLog struct {
	mu    sync.Mutex
	waits []Wait
}

func (l *waitLog) add(w Wait) {
	l.mu.Lock()
	l.waits = append(l.waits, w)
	l.mu.Unlock()
}

func (l *waitLog) get() []Wait {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.waits)
}

// heard reports whether the log is want, times compared as instants.
func (l *waitLog) heard(want ...Wait) bool {
	return slices.EqualFunc(l.get(), want, func(a, b Wait) bool {
		return a.Reason == b.Reason && a.Until.Equal(b.Until) && a.Done == b.Done
	})
}

// TestRetryAfterHoldsEveryClient: a mutation's 429 is an error at once and
// leaves no countdown, yet its Retry-After holds every client sharing the
// budget: their queries wait, and nothing reaches the server before it.
func TestRetryAfterHoldsEveryClient(t *testing.T) {
	t.Parallel()
	var clk *clock.Fake
	var mu sync.Mutex
	var arrivals []time.Time
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, clk.Now())
		first := len(arrivals) == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		if strings.HasSuffix(r.URL.Path, "-admin/graphql") {
			writeJSON200(w, map[string]any{"data": map[string]any{"simulateIncomingSepaCreditTransferReception": map[string]any{
				"__typename": "SimulateIncomingSepaCreditTransferReceptionSuccessPayload", "transactionId": "tx-1"}}})
			return
		}
		okAccounts(w)
	})
	dir := t.TempDir()
	a, clk, srv := newTestClient(t, h, func(o *Options) { o.BudgetDir = dir })
	t0 := clk.Now()
	_, err := a.SimulateIncomingTransfer(context.Background(), IncomingTransfer{Amount: Amount{Value: "1", Currency: "EUR"}})
	var rl *RateLimitedError
	if !errors.As(err, &rl) || !rl.RetryAt.Equal(t0.Add(7*time.Second)) {
		t.Fatalf("mutation: err = %v, want a 429 until %v", err, t0.Add(7*time.Second))
	}
	if s := a.Status(); s.Waiting != 0 || s.Retrying || !s.RetryAt.IsZero() {
		t.Errorf("after a mutation's 429 the status claims a wait or a retry: %+v", s)
	}

	// Another client of the same host and directory (another process, as
	// far as the budget can tell), on the same clock.
	var log waitLog
	b, err := New(Options{Env: "sandbox", GraphQLURL: srv.URL + "/sandbox-partner/graphql", TokenSource: staticToken(),
		Now: clk.Now, Sleep: clk.Sleep, BudgetDir: dir, OnWait: log.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	var during Status
	clk.OnSleep(func(time.Duration) { during = b.Status() })
	if _, err := b.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	if during.Waiting != 1 || during.WaitReason != WaitRetryAfter || !during.RetryAt.Equal(t0.Add(7*time.Second)) || during.Retrying {
		t.Errorf("the other client's status while held = %+v, want one first send waiting for the Retry-After", during)
	}
	want := []Wait{{Reason: WaitRetryAfter, Until: t0.Add(7 * time.Second), Done: false}, {Reason: WaitRetryAfter, Until: t0.Add(7 * time.Second), Done: true}}
	if !log.heard(want...) {
		t.Errorf("OnWait heard %v, want %v", log.get(), want)
	}
	// The mutation is not retried: sending it again is the caller's call.
	if _, err := a.SimulateIncomingTransfer(context.Background(), IncomingTransfer{Amount: Amount{Value: "1", Currency: "EUR"}}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second) // past the budget's read cache
	mu.Lock()
	defer mu.Unlock()
	if len(arrivals) != 3 {
		t.Fatalf("the server saw %d requests, want 3", len(arrivals))
	}
	for _, at := range arrivals[1:] {
		if at.Before(t0.Add(7 * time.Second)) {
			t.Errorf("a request reached the server at +%v, during the Retry-After", at.Sub(t0))
		}
	}
	if s := b.Status(); s.Used != 3 {
		t.Errorf("the other client counts %d requests, want the machine's 3", s.Used)
	}
}

// TestOneNotificationPerWait: requests held back together make one wait,
// reported once when it starts and once when it ends.
func TestOneNotificationPerWait(t *testing.T) {
	t.Parallel()
	var log waitLog
	sleeping := make(chan time.Duration, 8)
	release := make(chan struct{})
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }), func(o *Options) {
		o.Budget, o.Window, o.BudgetDir, o.OnWait = 5, time.Minute, t.TempDir(), log.add
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			sleeping <- d
			select {
			case <-release:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	})
	t0 := clk.Now()
	for range 5 {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
				t.Error(err)
			}
		})
	}
	for range 4 {
		<-sleeping
	}
	if s := c.Status(); s.Waiting != 4 || s.WaitReason != WaitBudget || s.Retrying || !s.RetryAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("status with four requests held = %+v", s)
	}
	clk.Advance(time.Minute)
	close(release)
	wg.Wait()
	want := []Wait{{Reason: WaitBudget, Until: t0.Add(time.Minute), Done: false}, {Reason: WaitBudget, Until: t0.Add(time.Minute), Done: true}}
	if !log.heard(want...) {
		t.Errorf("OnWait heard %v, want %v", log.get(), want)
	}
	// How long the wait was to last is known whenever OnWait hears of it.
	if w := log.get(); len(w) == 0 || !w[0].Since.Equal(t0) {
		t.Errorf("the wait began at %v, want %v", w, t0)
	}
	if s := c.Status(); s.Waiting != 0 || !s.RetryAt.IsZero() || s.Used != 4 {
		t.Errorf("status after the wait = %+v", s)
	}
}

// TestWaitEndsWithItsContext: a request whose context ends while it waits
// is not sent, and the wait it was alone in ends.
func TestWaitEndsWithItsContext(t *testing.T) {
	t.Parallel()
	var log waitLog
	var calls atomic.Int32
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	}), func(o *Options) {
		o.OnWait = log.add
		o.Sleep = func(ctx context.Context, d time.Duration) error { return context.DeadlineExceeded }
	})
	_, err := c.Accounts(context.Background(), AccountsParams{})
	if !errors.Is(err, context.DeadlineExceeded) || calls.Load() != 1 {
		t.Fatalf("err = %v after %d requests", err, calls.Load())
	}
	until := clk.Now().Add(30 * time.Second)
	if !strings.Contains(err.Error(), "stopped waiting for "+until.Format("15:04:05")+", when the server accepts requests again") {
		t.Errorf("err = %v", err)
	}
	want := []Wait{{Reason: WaitRetryAfter, Until: until, Done: false}, {Reason: WaitRetryAfter, Until: until, Done: true}}
	if !log.heard(want...) {
		t.Errorf("OnWait heard %v, want %v", log.get(), want)
	}
	if s := c.Status(); s.Waiting != 0 || s.Retrying || !s.RetryAt.IsZero() {
		t.Errorf("status = %+v", s)
	}
}

func TestUnusableBudgetDir(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{Env: "sandbox", GraphQLURL: "https://api.example.com/sandbox-partner/graphql", TokenSource: staticToken(), BudgetDir: file})
	var fe *budget.FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "sandbox request budget") {
		t.Errorf("New with a file for a budget directory: %v", err)
	}
}

// TestBudgetFileTroubleSendsNothing: when the shared file cannot be used,
// the request is not sent (it could not be counted) and the error names
// the file.
func TestBudgetFileTroubleSendsNothing(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		okAccounts(w)
	}), func(o *Options) { o.BudgetDir = t.TempDir() })
	path := c.budget.Path()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := c.Accounts(context.Background(), AccountsParams{})
	var fe *budget.FileError
	if !errors.As(err, &fe) || fe.Path != path || !strings.HasPrefix(err.Error(), "the sandbox request was not sent: cannot use the request budget file "+path) {
		t.Errorf("err = %v", err)
	}
	if calls.Load() != 0 {
		t.Errorf("%d requests were sent without being counted", calls.Load())
	}
}

// helperEnv carries a helperSpec to the test binary re-executed as
// another partnertui process.
const helperEnv = "PARTNERTUI_API_BUDGET_HELPER"

type helperSpec struct {
	URL      string
	Dir      string
	Limit    int
	Window   time.Duration
	Requests int
}

// helperReport is the line a helper prints: the machine's count before and
// after its own requests.
const helperReport = "budget-helper: before=%d after=%d\n"

// TestBudgetHelperProcess is not a test of its own: it is the other
// process of the shared-budget tests, and does nothing unless started by
// runHelpers.
func TestBudgetHelperProcess(t *testing.T) {
	raw := os.Getenv(helperEnv)
	if raw == "" {
		t.Skip("runs only as the helper process of the shared-budget tests")
	}
	var spec helperSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{Env: "sandbox", GraphQLURL: spec.URL, TokenSource: staticToken(),
		Budget: spec.Limit, Window: spec.Window, BudgetDir: spec.Dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	before := c.Status().Used
	for range spec.Requests {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf(helperReport, before, c.Status().Used)
}

// startHelper re-executes the test binary as another process that sends
// spec.Requests queries on the shared budget.
func startHelper(t *testing.T, spec helperSpec) (wait func() (before, after int)) {
	t.Helper()
	raw, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBudgetHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+string(raw))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return func() (before, after int) {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper process: %v\n%s", err, out.String())
		}
		for line := range strings.Lines(out.String()) {
			if _, err := fmt.Sscanf(line, helperReport, &before, &after); err == nil {
				return before, after
			}
		}
		t.Fatalf("the helper process reported nothing:\n%s", out.String())
		return 0, 0
	}
}

// windowServer answers every query and remembers when each arrived.
type windowServer struct {
	mu       sync.Mutex
	arrivals []time.Time
}

func (s *windowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.arrivals = append(s.arrivals, time.Now())
	s.mu.Unlock()
	okAccounts(w)
}

// busiest is the most requests that arrived within any span of length d.
func (s *windowServer) busiest(d time.Duration) (most, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := slices.SortedFunc(slices.Values(s.arrivals), time.Time.Compare)
	for i := range at {
		j := i
		for j < len(at) && at[j].Sub(at[i]) < d {
			j++
		}
		most = max(most, j-i)
	}
	return most, len(at)
}

// TestSharedBudgetAcrossProcesses: two other processes and two clients of
// this one (a TUI's environments, say) send 20 queries together on a
// budget of 5 per 500 ms; the server never sees more than 5 at once. Real
// processes need real time; the assertion is on counts, measured over half
// a window so that a request delayed between its take and its arrival by
// up to 250 ms cannot fail it, while clients that did not share the budget
// (all 20 at once) would.
func TestSharedBudgetAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	const limit, window = 5, 500 * time.Millisecond
	srv := &windowServer{}
	url := httptestServer(t, srv) + "/sandbox-partner/graphql"
	dir := t.TempDir()
	spec := helperSpec{URL: url, Dir: dir, Limit: limit, Window: window, Requests: 6}
	helpers := []func() (int, int){startHelper(t, spec), startHelper(t, spec)}

	var log waitLog
	var wg sync.WaitGroup
	for range 2 {
		c, err := New(Options{Env: "sandbox", GraphQLURL: url, TokenSource: staticToken(), Budget: limit, Window: window,
			BudgetDir: dir, OnWait: log.add})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		for range 2 { // a list and a detail, concurrently
			wg.Go(func() {
				for range 2 {
					if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
	wg.Wait()
	for _, wait := range helpers {
		wait()
	}
	most, total := srv.busiest(window / 2)
	t.Logf("%d requests; at most %d within %s; this process waited %d times", total, most, window/2, len(log.get())/2)
	if total != 20 {
		t.Errorf("the server saw %d requests, want 20", total)
	}
	if most > limit {
		t.Errorf("the server saw %d requests within %s; the budget is %d per %s", most, window/2, limit, window)
	}
	if waits := log.get(); len(waits) == 0 || len(waits)%2 != 0 || waits[len(waits)-1].Done == false {
		t.Errorf("OnWait heard %v: want each wait's start and end", waits)
	}
}

// TestNewProcessSeesEarlierCount: the count is the machine's, whichever
// process sent the requests and whenever it started.
func TestNewProcessSeesEarlierCount(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	url := httptestServer(t, &windowServer{}) + "/sandbox-partner/graphql"
	dir := t.TempDir()
	opts := Options{Env: "sandbox", GraphQLURL: url, TokenSource: staticToken(), Budget: 100, Window: time.Hour, BudgetDir: dir}
	first, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	for range 3 {
		if _, err := first.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
	}
	before, after := startHelper(t, helperSpec{URL: url, Dir: dir, Limit: 100, Window: time.Hour, Requests: 2})()
	if before != 3 || after != 5 {
		t.Errorf("the new process counted %d then %d, want 3 then 5", before, after)
	}
	later, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	if s := later.Status(); s.Used != 5 || s.Limit != 100 {
		t.Errorf("a client started afterwards shows %d/%d, want 5/100", s.Used, s.Limit)
	}
}

// TestWaitThatChangesIsTwoWaits: a request waiting for the budget that
// then meets a 429's longer hold is in two waits, each reported whole.
func TestWaitThatChangesIsTwoWaits(t *testing.T) {
	t.Parallel()
	var log waitLog
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }), func(o *Options) {
		o.Budget, o.Window, o.OnWait = 1, time.Minute, log.add
	})
	t0 := clk.Now()
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	clk.OnSleep(func(time.Duration) {
		once.Do(func() {
			// Another process's query is answered 429 while this one waits.
			if err := c.budget.HoldUntil(budget.Hold{Reason: WaitRetryAfter, Until: t0.Add(90 * time.Second)}); err != nil {
				t.Error(err)
			}
		})
	})
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	want := []Wait{
		{Reason: WaitBudget, Until: t0.Add(time.Minute), Done: false}, {Reason: WaitBudget, Until: t0.Add(time.Minute), Done: true},
		{Reason: WaitRetryAfter, Until: t0.Add(90 * time.Second), Done: false}, {Reason: WaitRetryAfter, Until: t0.Add(90 * time.Second), Done: true},
	}
	if !log.heard(want...) {
		t.Errorf("OnWait heard %v, want %v", log.get(), want)
	}
	// The request waited without a gap: the second wait goes on from
	// the first one's start, so a surface can say it as one.
	for i, w := range log.get() {
		if !w.Since.Equal(t0) {
			t.Errorf("wait %d began at %v, want %v (the start of the request's wait)", i, w.Since, t0)
		}
	}
	if s := clk.Sleeps(); len(s) != 2 || s[0] != time.Minute || s[1] != 30*time.Second {
		t.Errorf("sleeps = %v, want [1m 30s]", s)
	}
}

// TestWaitAfterAGapBeginsAgain: once every request has been sent, the next
// wait is a new one, with its own start.
func TestWaitAfterAGapBeginsAgain(t *testing.T) {
	t.Parallel()
	var log waitLog
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }), func(o *Options) {
		o.Budget, o.Window, o.OnWait = 1, time.Minute, log.add
	})
	for range 3 {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
	}
	w := log.get()
	if len(w) != 4 || w[0].Done || !w[1].Done || w[2].Done || !w[3].Done {
		t.Fatalf("OnWait heard %v, want two waits", w)
	}
	if !w[0].Since.Equal(w[1].Since) || !w[2].Since.After(w[0].Since) || !w[2].Since.Equal(clk.Now().Add(-time.Minute)) {
		t.Errorf("the waits began at %v and %v, want the second at its own start, %v", w[0].Since, w[2].Since, clk.Now().Add(-time.Minute))
	}
}

// benchAccounts reads one Accounts page per iteration with a client built
// from opts, and returns the client (closed when the benchmark ends).
func benchAccounts(b *testing.B, opts Options) *Client {
	c, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// BenchmarkRequestBudget is one query through the whole client against a
// local server, with the budget private to the process and shared through
// a file: the difference is what sharing costs a request. The 200 ms
// window keeps a realistic number of sends in the file (reported).
func BenchmarkRequestBudget(b *testing.B) {
	for _, mode := range []string{"private", "shared"} {
		b.Run(mode, func(b *testing.B) {
			srv := httptestServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }))
			opts := Options{Env: "sandbox", GraphQLURL: srv + "/sandbox-partner/graphql", TokenSource: staticToken(),
				Budget: budget.MaxSends, Window: 200 * time.Millisecond}
			if mode == "shared" {
				opts.BudgetDir = b.TempDir()
			}
			c := benchAccounts(b, opts)
			b.ReportMetric(float64(c.Status().Used), "sends-in-window")
		})
	}
}
