package listen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
	"github.com/partnertui/partnertui/internal/usage"
)

// world is an emulator whose platform retries a failed delivery at once
// (and logs each attempt), a user who simulates transfers, the project's
// client listen reads the log with, and a state directory of the test's.
type world struct {
	*webhooktest.World
	stateDir string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	return &world{World: webhooktest.NewWorld(t, emulator.Options{WebhookRetryInterval: 5 * time.Millisecond, WebhookMaxRetries: 3}),
		stateDir: t.TempDir()}
}

// env is the Sandbox environment of w, as the command line gives it.
func (w *world) env() Env {
	return Env{Name: "sandbox", Host: w.Emu.Info.APIURL, API: w.Project, StateDir: w.stateDir}
}

// options are the command line's for forwardTo alone, with the log read
// every 20 ms.
func options(forwardTo string) Options {
	return Options{ForwardTo: forwardTo, Interval: 20 * time.Millisecond, Backoff: DefaultBackoff, Timeout: DefaultTimeout,
		RemoveTimeout: DefaultRemoveTimeout}
}

// listenRun is one Run in the test's process.
type listenRun struct {
	out, err *testkit.Buffer
	cancel   context.CancelFunc
	done     chan error
	reads    chan struct{}
	copied   <-chan struct{} // closed once all of stderr is in err
	subID    string          // the subscription Create made
}

var createdRE = regexp.MustCompile(`Created webhook subscription (\S+) `)

// start runs listen with o on w until it is ready.
func (w *world) start(t *testing.T, o Options) *listenRun {
	t.Helper()
	r := &listenRun{out: testkit.NewBuffer(), err: testkit.NewBuffer(), done: make(chan error, 1), reads: make(chan struct{}, 10000)}
	o.OnRead = func() {
		select {
		case r.reads <- struct{}{}:
		default:
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	pr, pw := io.Pipe()
	go func() {
		err := Run(ctx, o, w.env(), Streams{Out: r.out, Err: pw})
		if err != nil {
			fmt.Fprintln(pw, "Error:", err)
		}
		pw.Close()
		r.done <- err
	}()
	r.copied = r.err.FollowLines(t, pr, func(line string) bool {
		if m := createdRE.FindStringSubmatch(line); m != nil {
			r.subID = m[1]
		}
		return strings.HasPrefix(line, "Ready:")
	}, func() string { cancel(); return fmt.Sprint(<-r.done) })
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

// stop is Ctrl+C: it cancels listen's context and returns how long it
// took to end and what Run returned.
func (r *listenRun) stop(t *testing.T) (time.Duration, error) {
	t.Helper()
	start := time.Now()
	r.cancel()
	select {
	case err := <-r.done:
		took := time.Since(start)
		r.done <- err // for the cleanup
		<-r.copied
		return took, err
	case <-time.After(30 * time.Second):
		t.Fatalf("listen did not end after Ctrl+C; stderr:\n%s", r.err.String())
	}
	return 0, nil
}

// fast makes failed deliveries retry at once and give up quickly.
func fast(o *Options) { o.Backoff = time.Millisecond; o.Timeout = 5 * time.Second }

// TestListenForwardsASimulatedTransferOnce: with a subscription made for
// the run, listen forwards the events of a simulated incoming transfer to a
// local receiver, each eventId exactly once, with the subscription's secret,
// although the platform retries (and logs) every failed delivery; on exit it
// removes the subscription.
func TestListenForwardsASimulatedTransferOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rec, url := webhooktest.NewReceiver(t)
	o := options(url)
	o.Create = true
	run := w.start(t, o)
	txID := w.Transfer(t)
	rec.Wait(t, 3)
	// Let listen read the log ten more times while the platform retries
	// (and logs) each failed delivery: nothing may be forwarded twice.
	run.moreReads(10)
	if _, err := run.stop(t); err != nil {
		t.Fatalf("listen ended with %v: %s", err, run.err.String())
	}
	types := map[string]int{}
	ids := map[string]bool{}
	events, secrets := rec.Events(), rec.Secrets()
	for i, ev := range events {
		types[fmt.Sprint(ev["eventType"])]++
		id := fmt.Sprint(ev["eventId"])
		if ids[id] {
			t.Errorf("event %s forwarded twice", id)
		}
		ids[id] = true
		if secrets[i] == "" || secrets[i] != secrets[0] {
			t.Errorf("x-swan-secret %q, want the subscription's secret on every event", secrets[i])
		}
		if ev["projectId"] == nil || ev["eventDate"] == nil || ev["resourceId"] == nil {
			t.Errorf("payload lacks the documented fields: %v", ev)
		}
	}
	if len(events) != 3 || types["Transaction.Pending"] != 1 || types["Transaction.Booked"] != 1 || types["Account.Updated"] != 1 {
		t.Fatalf("forwarded %v", types)
	}
	if out := run.out.String(); !strings.Contains(out, txID) || strings.Count(out, "→ 200 OK") != 3 {
		t.Errorf("stdout:\n%s", out)
	}
	// The subscription made for the run is gone.
	if subs := w.Subscriptions(t); len(subs) != 0 {
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
	t.Parallel()
	w := newWorld(t)
	listen := func(t *testing.T, tweak func(*Options), url string) *listenRun {
		o := options(url)
		o.Create = true
		tweak(&o)
		return w.start(t, o)
	}
	t.Run("redirect to another origin", func(t *testing.T) { listenRedirected(t, w, listen) })
	t.Run("one event type fails", func(t *testing.T) { listenOneTypeFails(t, w, listen) })
	t.Run("one event type hangs", func(t *testing.T) { listenOneTypeHangs(t, w, listen) })
	t.Run("always fails, hangs or resets", func(t *testing.T) { listenAlwaysFails(t, w, listen) })
}

// listenFunc starts listen with Create forwarding to url, its options
// adjusted by tweak.
type listenFunc func(t *testing.T, tweak func(*Options), url string) *listenRun

func listenRedirected(t *testing.T, w *world, listen listenFunc) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	rec, url := webhooktest.NewAnsweringReceiver(t, func(rw http.ResponseWriter, r *http.Request, typ string) {
		code := http.StatusFound
		if typ == "Transaction.Pending" {
			code = http.StatusTemporaryRedirect
		}
		http.Redirect(rw, r, other.URL+"/login?next=/webhooks", code)
	})
	run := listen(t, fast, url)
	w.Transfer(t)
	rec.Wait(t, 3*MaxAttempts)
	run.out.WaitFor(t, "three events given up", func(s string) bool { return strings.Count(s, "gave up after") == 3 })
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

func listenOneTypeFails(t *testing.T, w *world, listen listenFunc) {
	rec, url := webhooktest.NewAnsweringReceiver(t, func(rw http.ResponseWriter, _ *http.Request, typ string) {
		if typ == "Transaction.Pending" {
			rw.WriteHeader(http.StatusInternalServerError)
		}
	})
	// The failed event's next attempt is an hour away: the others must
	// not wait for it.
	run := listen(t, func(o *Options) { o.Backoff = time.Hour }, url)
	w.Transfer(t)
	rec.Wait(t, 3)
	run.out.WaitFor(t, "the two other events, and the failed one's next attempt", func(s string) bool {
		return strings.Count(s, "→ 200 OK") == 2 && strings.Contains(s, "Transaction.Pending")
	})
	if out := run.out.String(); !strings.Contains(out, "500 Internal Server Error; trying again in 1h0m0s") {
		t.Errorf("stdout:\n%s", out)
	}
	if _, err := run.stop(t); err != nil || !strings.Contains(run.err.String(), "Stopped: 1 event was not delivered yet.") {
		t.Errorf("ended with %v, stderr:\n%s", err, run.err.String())
	}
}

func listenOneTypeHangs(t *testing.T, w *world, listen listenFunc) {
	rec, url := webhooktest.NewAnsweringReceiver(t, func(_ http.ResponseWriter, r *http.Request, typ string) {
		if typ == "Transaction.Pending" {
			<-r.Context().Done() // until listen gives up on it
		}
	})
	run := listen(t, func(o *Options) { o.Timeout = time.Hour }, url)
	w.Transfer(t)
	rec.Wait(t, 3)
	run.out.WaitFor(t, "the two other events", func(s string) bool { return strings.Count(s, "→ 200 OK") == 2 })
	took, err := run.stop(t)
	if err != nil || strings.Contains(run.out.String(), "Transaction.Pending") {
		t.Errorf("ended with %v, stdout:\n%s", err, run.out.String())
	}
	t.Logf("Ctrl+C with a POST hanging: listen ended in %v", took)
}

func listenAlwaysFails(t *testing.T, w *world, listen listenFunc) {
	rec, url := webhooktest.NewAnsweringReceiver(t, func(rw http.ResponseWriter, r *http.Request, typ string) {
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
	// The answer window is short for the endpoint that hangs, yet long
	// enough for every attempt to reach the endpoint on a loaded machine:
	// the receiver counts each one.
	run := listen(t, func(o *Options) { fast(o); o.Timeout = 500 * time.Millisecond }, url)
	w.Transfer(t)
	rec.Wait(t, 3*MaxAttempts)
	run.out.WaitFor(t, "three events given up", func(s string) bool { return strings.Count(s, "gave up after") == 3 })
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
	for typ, want := range map[string]string{"Transaction.Pending": "unreachable: no answer within 500ms",
		"Transaction.Booked": "503 Service Unavailable", "Account.Updated": "unreachable: "} {
		got := per[typ]
		if len(got) != MaxAttempts || !strings.Contains(got[len(got)-1], fmt.Sprintf("gave up after %d attempts", MaxAttempts)) {
			t.Errorf("%s: %d lines, want one per attempt (%d), the last giving up:\n%s", typ, len(got), MaxAttempts, strings.Join(got, "\n"))
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
	t.Parallel()
	w := newWorld(t)
	const secret = "tab\there-0123456789"
	sub, err := w.Project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "mine",
		Endpoint: "https://partnertui.invalid/mine", Secret: secret, EventTypes: []string{"Transaction.Pending"}})
	if err != nil {
		t.Fatal(err)
	}
	rec, url := webhooktest.NewReceiver(t)
	o := options(url)
	o.Subscription = sub.ID
	run := w.start(t, o)
	w.Transfer(t)
	rec.Wait(t, 1)
	run.stop(t)
	if got := rec.Secrets()[0]; got != secret {
		t.Errorf("x-swan-secret = %q, want %q byte for byte", got, secret)
	}
}

// TestUnknownSubscriptionIsAUsageError: an id the project does not have
// is a usage error, with the ids it has, or how to list them; with no
// subscription at all and no Create, listen says there is none.
func TestUnknownSubscriptionIsAUsageError(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	o := options("http://127.0.0.1:1/x")
	var none *NoSubscriptionError
	if err := Run(ctx, o, w.env(), Streams{Out: io.Discard, Err: io.Discard}); !errors.As(err, &none) || none.Env != "sandbox" {
		t.Errorf("no subscription: %v, want a *NoSubscriptionError", err)
	}
	o.Subscription = "nope"
	err := Run(ctx, o, w.env(), Streams{Out: io.Discard, Err: io.Discard})
	var ue *usage.Error
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "partnertui subscriptions --env sandbox") {
		t.Errorf("no subscriptions: %v", err)
	}
	sub, err := w.Project.AddWebhookSubscription(ctx, api.WebhookSubscriptionInput{Label: "mine",
		Endpoint: "https://partnertui.invalid/mine", EventTypes: []string{"Transaction.Pending"}})
	if err != nil {
		t.Fatal(err)
	}
	err = Run(ctx, o, w.env(), Streams{Out: io.Discard, Err: io.Discard})
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), sub.ID+" (mine)") {
		t.Errorf("one subscription: %v", err)
	}
}
