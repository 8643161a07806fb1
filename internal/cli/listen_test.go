package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
)

// receiver is a local webhook endpoint: it records every POST, then
// answers as answer says (200 when answer is nil).
type receiver struct {
	mu      sync.Mutex
	events  []map[string]any
	secrets []string
	got     chan struct{} // one per POST, once recorded
	answer  func(w http.ResponseWriter, r *http.Request, eventType string)
}

func newReceiver(t *testing.T) (*receiver, string) {
	return newAnsweringReceiver(t, nil)
}

func newAnsweringReceiver(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, eventType string)) (*receiver, string) {
	r := &receiver{got: make(chan struct{}, 1000), answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var ev map[string]any
		body, _ := io.ReadAll(req.Body)
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Errorf("forwarded body is not the JSON payload: %q", body)
		}
		r.mu.Lock()
		r.events = append(r.events, ev)
		r.secrets = append(r.secrets, req.Header.Get("x-swan-secret"))
		r.mu.Unlock()
		r.got <- struct{}{}
		if r.answer != nil {
			r.answer(w, req, fmt.Sprint(ev["eventType"]))
		}
	}))
	t.Cleanup(srv.Close)
	return r, srv.URL + "/webhooks"
}

// wait waits for n more POSTs.
func (r *receiver) wait(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-r.got:
		case <-time.After(30 * time.Second):
			t.Fatalf("the receiver got %d POSTs of %d", i, n)
		}
	}
}

// lineBuffer is a syncBuffer that says when it was written to.
type lineBuffer struct {
	syncBuffer
	wrote chan struct{}
}

func newLineBuffer() *lineBuffer { return &lineBuffer{wrote: make(chan struct{}, 1)} }

func (b *lineBuffer) Write(p []byte) (int, error) {
	n, err := b.syncBuffer.Write(p)
	select {
	case b.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// waitFor waits until the text written so far satisfies ok.
func (b *lineBuffer) waitFor(t *testing.T, what string, ok func(string) bool) {
	t.Helper()
	for !ok(b.String()) {
		select {
		case <-b.wrote:
		case <-time.After(30 * time.Second):
			t.Fatalf("still waiting for %s; so far:\n%s", what, b.String())
		}
	}
}

// listenRun is one `partnertui listen` running in the test's process.
type listenRun struct {
	out, err *lineBuffer
	cancel   context.CancelFunc
	done     chan int
	reads    chan struct{}
	copied   chan struct{} // closed once all of stderr is in err
	subID    string        // the subscription --create made
}

var createdRE = regexp.MustCompile(`Created webhook subscription (\S+) `)

// startListen runs listen with args until it is ready; tweak adjusts its
// options (intervals, timeouts) before it starts.
func startListen(t *testing.T, tweak func(*ListenOptions), args ...string) *listenRun {
	t.Helper()
	r := &listenRun{out: newLineBuffer(), err: newLineBuffer(), done: make(chan int, 1), reads: make(chan struct{}, 10000), copied: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	pr, pw := io.Pipe()
	go func() {
		f := &Factory{IO: IO{In: strings.NewReader(""), Out: r.out, Err: pw}, onListen: tweak, onLogRead: func() {
			select {
			case r.reads <- struct{}{}:
			default:
			}
		}}
		defer f.Close()
		root := NewCmdRoot(f)
		root.SetArgs(append([]string{"listen"}, args...))
		err := root.ExecuteContext(ctx)
		if err != nil {
			printError(f.IO, f.describe(err), err)
		}
		pw.Close()
		r.done <- exitCode(err)
	}()
	stderr := bufio.NewReader(pr)
	for {
		line, err := stderr.ReadString('\n')
		_, _ = r.err.Write([]byte(line))
		if err != nil {
			cancel()
			t.Fatalf("listen ended before it was ready: %q (exit %d)", r.err.String(), <-r.done)
		}
		if m := createdRE.FindStringSubmatch(line); m != nil {
			r.subID = m[1]
		}
		if strings.HasPrefix(line, "Ready:") {
			break
		}
	}
	go func() {
		_, _ = io.Copy(r.err, stderr)
		close(r.copied)
	}()
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
}

// moreReads waits until listen has read the log n times from now.
func (r *listenRun) moreReads(n int) {
	for range len(r.reads) {
		<-r.reads
	}
	for range n {
		<-r.reads
	}
}

// stop is Ctrl+C: it cancels listen's context and returns its exit code
// and how long it took to end.
func (r *listenRun) stop(t *testing.T) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	r.cancel()
	select {
	case code := <-r.done:
		took := time.Since(start)
		r.done <- code // for the cleanup
		<-r.copied
		return code, took
	case <-time.After(30 * time.Second):
		t.Fatalf("listen did not end after Ctrl+C; stderr:\n%s", r.err.String())
	}
	return 0, 0
}

// listenWorld is an emulator with a project configuration and a user who
// can simulate incoming transfers, shared by the listen tests of one
// function.
type listenWorld struct {
	emu     *testkit.Emulator
	cfg     string
	user    *api.Client
	project *api.Client
	acc     api.Account
}

func newListenWorld(t *testing.T) *listenWorld {
	t.Helper()
	home := testenv.Isolate(t)
	e, cfg := startEmulator(t, home, "project", emulator.Options{WebhookRetryInterval: 5 * time.Millisecond, WebhookMaxRetries: 3})
	w := &listenWorld{emu: e, cfg: cfg, user: userClient(t, e), project: projectClient(t, e)}
	accounts, err := w.user.Accounts(context.Background(), api.AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accounts.Items {
		if a.IBAN != "" {
			w.acc = a
			return w
		}
	}
	t.Fatal("the demo user has no account with an IBAN")
	return nil
}

// transfer simulates an incoming transfer: Transaction.Pending, then
// Transaction.Booked and Account.Updated are logged.
func (w *listenWorld) transfer(t *testing.T) string {
	t.Helper()
	id, err := w.tryTransfer()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// tryTransfer is transfer for a goroutine other than the test's.
func (w *listenWorld) tryTransfer() (string, error) {
	return w.user.SimulateIncomingTransfer(context.Background(), api.IncomingTransfer{Amount: api.Amount{Value: "12.00", Currency: w.acc.Currency},
		CreditorIBAN: w.acc.IBAN, CreditorName: w.acc.Holder.Info.Name, DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "Debtor"})
}

func (w *listenWorld) subscriptions(t *testing.T) []api.WebhookSubscription {
	t.Helper()
	subs, err := w.project.WebhookSubscriptions(context.Background(), api.WebhookSubscriptionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	return subs.Items
}

// fast makes failed deliveries retry at once and give up quickly.
func fast(o *ListenOptions) { o.Backoff = time.Millisecond; o.Timeout = 5 * time.Second }

// TestListenForwardsASimulatedTransferOnce: with a subscription made for
// the run, listen forwards the events of a simulated incoming transfer to a
// local receiver, each eventId exactly once, with the subscription's secret,
// although the platform retries (and logs) every failed delivery; on exit it
// removes the subscription.
func TestListenForwardsASimulatedTransferOnce(t *testing.T) {
	w := newListenWorld(t)
	rec, url := newReceiver(t)
	run := startListen(t, func(o *ListenOptions) { o.Interval = 20 * time.Millisecond }, "--config", w.cfg, "--create", "--forward-to", url)
	txID := w.transfer(t)
	rec.wait(t, 3)
	// Let listen read the log ten more times while the platform retries
	// (and logs) each failed delivery: nothing may be forwarded twice.
	run.moreReads(10)
	if code, _ := run.stop(t); code != ExitOK {
		t.Fatalf("listen exited %d: %s", code, run.err.String())
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	types := map[string]int{}
	ids := map[string]bool{}
	for i, ev := range rec.events {
		types[fmt.Sprint(ev["eventType"])]++
		id := fmt.Sprint(ev["eventId"])
		if ids[id] {
			t.Errorf("event %s forwarded twice", id)
		}
		ids[id] = true
		if rec.secrets[i] == "" || rec.secrets[i] != rec.secrets[0] {
			t.Errorf("x-swan-secret %q, want the subscription's secret on every event", rec.secrets[i])
		}
		if ev["projectId"] == nil || ev["eventDate"] == nil || ev["resourceId"] == nil {
			t.Errorf("payload lacks the documented fields: %v", ev)
		}
	}
	if len(rec.events) != 3 || types["Transaction.Pending"] != 1 || types["Transaction.Booked"] != 1 || types["Account.Updated"] != 1 {
		t.Fatalf("forwarded %v", types)
	}
	if out := run.out.String(); !strings.Contains(out, txID) || strings.Count(out, "→ 200 OK") != 3 {
		t.Errorf("stdout:\n%s", out)
	}
	// The subscription made for the run is gone.
	if subs := w.subscriptions(t); len(subs) != 0 {
		t.Errorf("subscriptions left after listen: %v", subs)
	}
}

// TestListenAgainstHostileReceivers: the README's promise on listen, per
// receiver. A redirect (307, 302 to another port) is the endpoint's
// answer, never followed: nothing reaches the other origin. Each event is
// delivered on its own schedule: one failing type, or one hanging, holds up
// no other; an endpoint that always fails, hangs or resets gets every
// event's attempts and a final line for each.
func TestListenAgainstHostileReceivers(t *testing.T) {
	w := newListenWorld(t)
	interval := func(o *ListenOptions) { o.Interval = 20 * time.Millisecond }
	listen := func(t *testing.T, tweak func(*ListenOptions), url string) *listenRun {
		return startListen(t, func(o *ListenOptions) { interval(o); tweak(o) }, "--config", w.cfg, "--create", "--forward-to", url)
	}
	t.Run("redirect to another origin", func(t *testing.T) { listenRedirected(t, w, listen) })
	t.Run("one event type fails", func(t *testing.T) { listenOneTypeFails(t, w, listen) })
	t.Run("one event type hangs", func(t *testing.T) { listenOneTypeHangs(t, w, listen) })
	t.Run("always fails, hangs or resets", func(t *testing.T) { listenAlwaysFails(t, w, listen) })
}

// listenFunc starts listen --create forwarding to url, its options
// adjusted by tweak.
type listenFunc func(t *testing.T, tweak func(*ListenOptions), url string) *listenRun

func listenRedirected(t *testing.T, w *listenWorld, listen listenFunc) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	rec, url := newAnsweringReceiver(t, func(rw http.ResponseWriter, r *http.Request, typ string) {
		code := http.StatusFound
		if typ == "Transaction.Pending" {
			code = http.StatusTemporaryRedirect
		}
		http.Redirect(rw, r, other.URL+"/login?next=/webhooks", code)
	})
	run := listen(t, fast, url)
	w.transfer(t)
	rec.wait(t, 3*listenMaxAttempts)
	run.out.waitFor(t, "three events given up", func(s string) bool { return strings.Count(s, "gave up after") == 3 })
	run.stop(t)
	out := run.out.String()
	if elsewhere.Load() != 0 {
		t.Errorf("%d requests reached the origin the endpoint redirected to", elsewhere.Load())
	}
	for _, want := range []string{"307 Temporary Redirect to " + other.URL + "/login?next=/webhooks, not followed", "302 Found to " + other.URL} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "200 OK") {
		t.Errorf("a redirect was reported as delivered:\n%s", out)
	}
}

func listenOneTypeFails(t *testing.T, w *listenWorld, listen listenFunc) {
	rec, url := newAnsweringReceiver(t, func(rw http.ResponseWriter, _ *http.Request, typ string) {
		if typ == "Transaction.Pending" {
			rw.WriteHeader(http.StatusInternalServerError)
		}
	})
	// The failed event's next attempt is an hour away: the others must
	// not wait for it.
	run := listen(t, func(o *ListenOptions) { o.Backoff = time.Hour }, url)
	w.transfer(t)
	rec.wait(t, 3)
	run.out.waitFor(t, "the two other events, and the failed one's next attempt", func(s string) bool {
		return strings.Count(s, "→ 200 OK") == 2 && strings.Contains(s, "Transaction.Pending")
	})
	if out := run.out.String(); !strings.Contains(out, "500 Internal Server Error; trying again in 1h0m0s") {
		t.Errorf("stdout:\n%s", out)
	}
	if code, _ := run.stop(t); code != ExitOK || !strings.Contains(run.err.String(), "Stopped: 1 event was not delivered yet.") {
		t.Errorf("exit %d, stderr:\n%s", code, run.err.String())
	}
}

func listenOneTypeHangs(t *testing.T, w *listenWorld, listen listenFunc) {
	rec, url := newAnsweringReceiver(t, func(_ http.ResponseWriter, r *http.Request, typ string) {
		if typ == "Transaction.Pending" {
			<-r.Context().Done() // until listen gives up on it
		}
	})
	run := listen(t, func(o *ListenOptions) { o.Timeout = time.Hour }, url)
	w.transfer(t)
	rec.wait(t, 3)
	run.out.waitFor(t, "the two other events", func(s string) bool { return strings.Count(s, "→ 200 OK") == 2 })
	code, took := run.stop(t)
	if code != ExitOK || strings.Contains(run.out.String(), "Transaction.Pending") {
		t.Errorf("exit %d, stdout:\n%s", code, run.out.String())
	}
	t.Logf("Ctrl+C with a POST hanging: listen ended in %v", took)
}

func listenAlwaysFails(t *testing.T, w *listenWorld, listen listenFunc) {
	rec, url := newAnsweringReceiver(t, func(rw http.ResponseWriter, r *http.Request, typ string) {
		switch typ {
		case "Transaction.Pending":
			<-r.Context().Done()
		case "Transaction.Booked":
			rw.WriteHeader(http.StatusServiceUnavailable)
		default:
			conn, _, err := http.NewResponseController(rw).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			_ = conn.(*net.TCPConn).SetLinger(0) // a reset, not a close
			conn.Close()
		}
	})
	run := listen(t, func(o *ListenOptions) { fast(o); o.Timeout = 50 * time.Millisecond }, url)
	w.transfer(t)
	rec.wait(t, 3*listenMaxAttempts)
	run.out.waitFor(t, "three events given up", func(s string) bool { return strings.Count(s, "gave up after") == 3 })
	run.stop(t)
	lines := strings.Split(strings.TrimSpace(run.out.String()), "\n")
	per := map[string][]string{}
	for _, l := range lines {
		for _, typ := range []string{"Transaction.Pending", "Transaction.Booked", "Account.Updated"} {
			if strings.Contains(l, typ) {
				per[typ] = append(per[typ], l)
			}
		}
	}
	for typ, want := range map[string]string{"Transaction.Pending": "unreachable: no answer within 50ms",
		"Transaction.Booked": "503 Service Unavailable", "Account.Updated": "unreachable: "} {
		got := per[typ]
		if len(got) != listenMaxAttempts || !strings.Contains(got[len(got)-1], fmt.Sprintf("gave up after %d attempts", listenMaxAttempts)) {
			t.Errorf("%s: %d lines, want one per attempt (%d), the last giving up:\n%s", typ, len(got), listenMaxAttempts, strings.Join(got, "\n"))
		}
		for _, l := range got {
			if !strings.Contains(l, want) {
				t.Errorf("%s: line %q lacks %q", typ, l, want)
			}
		}
	}
	if len(per["Transaction.Booked"]) > 0 && !strings.Contains(per["Transaction.Booked"][0], "trying again in 1ms") {
		t.Errorf("the first failure does not say when the next attempt is: %q", per["Transaction.Booked"][0])
	}
}

// TestListenSendsTheSecretAsStored: a subscription's secret with a tab
// inside reaches the endpoint byte for byte.
func TestListenSendsTheSecretAsStored(t *testing.T) {
	w := newListenWorld(t)
	const secret = "tab\there-0123456789"
	sub, err := w.project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "mine",
		Endpoint: "https://partnertui.invalid/mine", Secret: secret, EventTypes: []string{"Transaction.Pending"}})
	if err != nil {
		t.Fatal(err)
	}
	rec, url := newReceiver(t)
	run := startListen(t, func(o *ListenOptions) { o.Interval = 20 * time.Millisecond }, "--config", w.cfg, "--subscription", sub.ID, "--forward-to", url)
	w.transfer(t)
	rec.wait(t, 1)
	run.stop(t)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.secrets[0] != secret {
		t.Errorf("x-swan-secret = %q, want %q byte for byte", rec.secrets[0], secret)
	}
}

// TestListenUnknownSubscriptionIsAUsageError: an id the project does not
// have is exit 2, with the ids it has, or how to list them.
func TestListenUnknownSubscriptionIsAUsageError(t *testing.T) {
	w := newListenWorld(t)
	code, _, errOut := runCLI(t, "listen", "--config", w.cfg, "--subscription", "nope", "--forward-to", "http://127.0.0.1:1/x")
	if code != ExitUsage || !strings.Contains(errOut, `"nope"`) || !strings.Contains(errOut, "partnertui subscriptions --env sandbox") {
		t.Errorf("no subscriptions: exit %d, %q", code, errOut)
	}
	sub, err := w.project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "mine",
		Endpoint: "https://partnertui.invalid/mine", EventTypes: []string{"Transaction.Pending"}})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "listen", "--config", w.cfg, "--subscription", "nope", "--forward-to", "http://127.0.0.1:1/x")
	if code != ExitUsage || !strings.Contains(errOut, sub.ID+" (mine)") {
		t.Errorf("one subscription: exit %d, %q", code, errOut)
	}
}

// TestCtrlCUnderASpentBudget: Ctrl+C ends listen --create at once even when
// the request budget will not allow the removal of its subscription for
// half an hour; the subscription left is named with the command that
// removes it, and that command works.
func TestCtrlCUnderASpentBudget(t *testing.T) {
	w := newListenWorld(t)
	run := startListen(t, nil, "--config", w.cfg, "--create", "--forward-to", "http://127.0.0.1:1/x")
	// Another process was answered 429 with a Retry-After of 30 minutes.
	host := hostOf(t, w.emu.Info.Environments["sandbox"].GraphQLURL)
	stateDir := filepath.Join(os.Getenv("XDG_STATE_HOME"), "partnertui")
	b, err := budget.Open(stateDir, host, budget.Config{Limit: platform.RequestBudget, Window: platform.BudgetWindow})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.HoldUntil(budget.Hold{Reason: budget.RetryAfter, Until: time.Now().Add(30 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	budgetFile := b.Path()
	b.Close()
	code, took := run.stop(t)
	t.Logf("Ctrl+C under a spent budget: listen ended in %v (removal bounded by %v); stderr:\n%s", took, removeTimeout, run.err.String())
	cmd := fmt.Sprintf("`partnertui subscriptions remove %s --env sandbox --config %s`", run.subID, w.cfg)
	if errOut := run.err.String(); code != ExitFailure || !strings.Contains(errOut, cmd) || !strings.Contains(errOut, "waiting 30m") {
		t.Fatalf("exit %d, want 1 and the command %s; stderr:\n%s", code, cmd, errOut)
	}
	if len(w.subscriptions(t)) != 1 {
		t.Fatal("the subscription is not there")
	}
	// Once the budget allows it, the command named removes it.
	if err := os.Remove(budgetFile); err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(strings.Trim(cmd, "`"))[1:]
	if code, _, errOut := runCLI(t, args...); code != ExitOK {
		t.Fatalf("%s: exit %d: %s", cmd, code, errOut)
	}
	if subs := w.subscriptions(t); len(subs) != 0 {
		t.Errorf("left after the command: %v", subs)
	}
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}
