package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/listen"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
)

// The listen engine's own tests (forwarding, retries, --since, --resume)
// are in internal/listen; these run the command: its flags, exit codes
// and the commands its errors name.

// listenWorld is a webhook world (internal/testkit/webhooktest) with a
// configuration file for its project client, in an isolated home.
type listenWorld struct {
	*webhooktest.World
	cfg string
}

func newListenWorld(t *testing.T) *listenWorld {
	t.Helper()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{WebhookRetryInterval: 5 * time.Millisecond, WebhookMaxRetries: 3})
	return &listenWorld{World: webhooktest.WorldOf(t, e), cfg: cfg}
}

// listenRun is one `partnertui listen` running in the test's process.
type listenRun struct {
	err    *testkit.Buffer
	cancel context.CancelFunc
	done   chan int
	copied <-chan struct{} // closed once all of stderr is in err
	subID  string          // the subscription --create made
}

var createdRE = regexp.MustCompile(`Created webhook subscription (\S+) `)

// startListen runs listen with args until it is ready.
func startListen(t *testing.T, args ...string) *listenRun {
	t.Helper()
	r := &listenRun{err: testkit.NewBuffer(), done: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	pr, pw := io.Pipe()
	go func() {
		code := Run(ctx, process(t, IO{In: strings.NewReader(""), Out: io.Discard, Err: pw}), append([]string{"listen"}, args...))
		pw.Close()
		r.done <- code
	}()
	r.copied = r.err.FollowLines(t, pr, func(line string) bool {
		if m := createdRE.FindStringSubmatch(line); m != nil {
			r.subID = m[1]
		}
		return strings.HasPrefix(line, "Ready:")
	}, func() string { cancel(); return fmt.Sprintf("exit %d", <-r.done) })
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
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

// TestListenUnknownSubscriptionIsAUsageError: an id the project does not
// have is exit 2, with the ids it has, or how to list them.
func TestListenUnknownSubscriptionIsAUsageError(t *testing.T) {
	t.Parallel()
	w := newListenWorld(t)
	code, _, errOut := runCLI(t, "listen", "--config", w.cfg, "--subscription", "nope", "--forward-to", "http://127.0.0.1:1/x")
	if code != ExitUsage || !strings.Contains(errOut, `"nope"`) || !strings.Contains(errOut, "partnertui subscriptions --env sandbox") {
		t.Errorf("no subscriptions: exit %d, %q", code, errOut)
	}
	sub, err := w.Project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "mine",
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
	t.Parallel()
	w := newListenWorld(t)
	run := startListen(t, "--config", w.cfg, "--create", "--forward-to", "http://127.0.0.1:1/x")
	// Another process was answered 429 with a Retry-After of 30 minutes.
	host := hostOf(t, w.Emu.Info.Environments["sandbox"].GraphQLURL)
	stateDir := homeOf(t).Locations.State
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
	t.Logf("Ctrl+C under a spent budget: listen ended in %v (removal bounded by %v); stderr:\n%s", took, listen.DefaultRemoveTimeout, run.err.String())
	cmd := fmt.Sprintf("`partnertui subscriptions remove %s --env sandbox --config %s`", run.subID, w.cfg)
	if errOut := run.err.String(); code != ExitFailure || !strings.Contains(errOut, cmd) || !strings.Contains(errOut, "waiting 30m") {
		t.Fatalf("exit %d, want 1 and the command %s; stderr:\n%s", code, cmd, errOut)
	}
	if len(w.Subscriptions(t)) != 1 {
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
	if subs := w.Subscriptions(t); len(subs) != 0 {
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

// TestListenSinceAndSecretFlagsAreChecked: flags that cannot work are
// usage errors, and a refused --secret is never echoed.
func TestListenSinceAndSecretFlagsAreChecked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--since", "yesterday"}, `--since "yesterday" is neither a duration`},
		{[]string{"--since", "-2h"}, "positive duration"},
		{[]string{"--resume", "--create"}, "--resume cannot follow --create's subscription"},
		{[]string{"--since", "2h", "--create"}, "--create's is new, with nothing logged yet"},
		{[]string{"--secret", "s3cret-value"}, "--secret sets the secret of the subscription --create makes"},
		{[]string{"--create", "--secret", "s3cret\nvalue"}, "--secret holds the control character 0x0a"},
	} {
		args := append([]string{"listen", "--forward-to", "http://127.0.0.1:1/x"}, tc.args...)
		code, _, errOut := runCLI(t, args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "s3cret") {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", tc.args, code, errOut, tc.want)
		}
	}
	for in, want := range map[string]time.Duration{"2h": 2 * time.Hour, "30m": 30 * time.Minute, "3d": 72 * time.Hour} {
		now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
		if got, err := parseSince(in, now); err != nil || !got.Equal(now.Add(-want)) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, now.Add(-want))
		}
	}
	// A time, to the nanosecond, or a date, is that time.
	at := time.Date(2026, 11, 25, 11, 58, 3, 123456789, time.UTC)
	for in, want := range map[string]time.Time{at.Format(time.RFC3339Nano): at, "2026-11-22": time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)} {
		if got, err := parseSince(in, at.Add(time.Hour)); err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	// What the flags map to: the engine is given the time --since means.
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	o := &ListenOptions{ForwardTo: "http://127.0.0.1:1/x", Subscription: "s", Since: "2h", Resume: true, Interval: time.Second}
	lo, err := o.engineOptions(now)
	if err != nil || !lo.Since.Equal(now.Add(-2*time.Hour)) || lo.Subscription != "s" || !lo.Resume || lo.Interval != time.Second ||
		lo.Backoff != listen.DefaultBackoff || lo.Timeout != listen.DefaultTimeout || lo.RemoveTimeout != listen.DefaultRemoveTimeout {
		t.Errorf("engine options %+v, %v", lo, err)
	}
}

// TestListenSecretFromStdin: --secret - takes the secret from stdin's
// first line (CRLF or LF), so it is in no process list; none, or a line
// the platform would not take, is a usage error.
func TestListenSecretFromStdin(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"tab\there-1\n": "tab\there-1", "crlf-secret\r\nmore\n": "crlf-secret", "no-newline": "no-newline"} {
		o := &ListenOptions{IO: IO{In: strings.NewReader(in)}, Create: true, Secrets: secretFlags{value: "-"}}
		if err := o.readSecret(func(string) string { return "" }); err != nil || o.Secret != want {
			t.Errorf("stdin %q: %q, %v; want %q", in, o.Secret, err, want)
		}
	}
	for _, in := range []string{"", "\n", strings.Repeat("x", 500) + "\n"} {
		o := &ListenOptions{IO: IO{In: strings.NewReader(in)}, Create: true, Secrets: secretFlags{value: "-"}}
		if err := o.readSecret(func(string) string { return "" }); exitCode(err) != ExitUsage {
			t.Errorf("stdin %q: %v, want a usage error (exit %d)", in, err, ExitUsage)
		}
	}
}

// TestEventsReplay: `events replay` has the platform deliver one event
// again to its subscription's endpoint, which gets the same payload; an
// unknown event is refused with the platform's reason.
func TestEventsReplay(t *testing.T) {
	t.Parallel()
	w := newListenWorld(t)
	rec, url := webhooktest.NewReceiver(t)
	w.BookedOnly(t, url)
	w.Transfer(t)
	rec.Wait(t, 1)
	id := rec.EventIDs()[0]
	w.WaitLogged(t, api.WebhookEventLogsParams{EventID: id}, 1)
	code, out, errOut := runCLI(t, "events", "replay", id, "--config", w.cfg)
	if code != ExitOK || !strings.Contains(out, "Replayed event "+id+": the endpoint answered 200") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	rec.Wait(t, 1)
	if got := rec.EventIDs(); len(got) != 2 || got[0] != id || got[1] != id {
		t.Errorf("the endpoint got %v, want %s twice", got, id)
	}
	code, _, errOut = runCLI(t, "events", "replay", "no-such-event", "--config", w.cfg)
	if code == ExitOK || errOut == "" {
		t.Errorf("an unknown event: exit %d, %q", code, errOut)
	}
	t.Logf("unknown event: %s", errOut)

	// --forward-to: the platform is not asked; the local endpoint gets the
	// payload with the subscription's secret, and a failure is exit 1.
	local, localURL := webhooktest.NewReceiver(t)
	code, out, errOut = runCLI(t, "events", "replay", id, "--forward-to", localURL, "--config", w.cfg)
	if code != ExitOK || !strings.Contains(out, "→ 200 OK") {
		t.Fatalf("--forward-to: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	local.Wait(t, 1)
	if got := local.EventIDs(); len(got) != 1 || got[0] != id || local.Secrets()[0] != "booked-secret" {
		t.Errorf("the local endpoint got %v with secret %q", got, local.Secrets()[0])
	}
	if got := rec.EventIDs(); len(got) != 2 {
		t.Errorf("the platform delivered again: %v", got)
	}
	_, failing := webhooktest.NewAnsweringReceiver(t, func(rw http.ResponseWriter, _ *http.Request, _ string) { rw.WriteHeader(http.StatusTeapot) })
	code, out, errOut = runCLI(t, "events", "replay", id, "--forward-to", failing, "--config", w.cfg)
	if code != ExitFailure || !strings.Contains(out, "418") || !strings.Contains(errOut, "was not delivered: 418") {
		t.Errorf("a failing endpoint: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "events", "replay", "no-such-event", "--forward-to", localURL, "--config", w.cfg)
	if code != ExitUsage || !strings.Contains(errOut, `no event "no-such-event"`) {
		t.Errorf("an unknown event with --forward-to: exit %d, %q", code, errOut)
	}
}

// TestWebhookSecretsFromTheEnvironmentOrAFile: listen --create takes its
// subscription's secret from --secret-env's variable or --secret-file's
// first line, and events replay --forward-to sends the one they give
// instead of the subscription's; none is ever echoed, and a secret given
// two ways, from an unset variable, or one the header cannot carry, is a
// usage error.
func TestWebhookSecretsFromTheEnvironmentOrAFile(t *testing.T) {
	t.Parallel()
	w := newListenWorld(t)
	const fromEnv, fromFile = "handler-secret-from-env", "handler-secret-from-file"
	homeOf(t).Vars["HANDLER_SECRET"] = fromEnv
	file := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(file, []byte(fromFile+"\r\nsecond line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for flag, want := range map[string][]string{fromEnv: {"--secret-env", "HANDLER_SECRET"}, fromFile: {"--secret-file", file}} {
		run := startListen(t, append([]string{"--config", w.cfg, "--create", "--forward-to", "http://127.0.0.1:1/x"}, want...)...)
		sub, err := w.Project.WebhookSubscription(context.Background(), run.subID)
		if err != nil {
			t.Fatal(err)
		}
		if sub.Secret.Reveal() != flag {
			t.Errorf("%v: the subscription's secret is %q, want %q", want, sub.Secret.Reveal(), flag)
		}
		run.stop(t)
		if strings.Contains(run.err.String(), flag) {
			t.Errorf("%v: listen printed the secret:\n%s", want, run.err.String())
		}
	}

	rec, url := webhooktest.NewReceiver(t)
	w.BookedOnly(t, url)
	w.Transfer(t)
	rec.Wait(t, 1)
	id := rec.EventIDs()[0]
	w.WaitLogged(t, api.WebhookEventLogsParams{EventID: id}, 1)
	local, localURL := webhooktest.NewReceiver(t)
	code, out, errOut := runCLI(t, "events", "replay", id, "--forward-to", localURL, "--secret-file", file, "--config", w.cfg)
	if code != ExitOK || strings.Contains(out+errOut, fromFile) {
		t.Fatalf("events replay --secret-file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	local.Wait(t, 1)
	if got := local.Secrets(); len(got) != 1 || got[0] != fromFile {
		t.Errorf("the local endpoint got the secrets %q, want %q", got, fromFile)
	}

	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("s3cret\x01value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"listen", "--create", "--secret-env", "NO_SUCH_VARIABLE_SET", "--forward-to", "http://127.0.0.1:1/x"}, "--secret-env NO_SUCH_VARIABLE_SET: the variable is not set"},
		{[]string{"listen", "--create", "--secret-env", "HANDLER_SECRET", "--secret-file", file, "--forward-to", "http://127.0.0.1:1/x"}, "give the secret one way"},
		{[]string{"listen", "--secret-env", "HANDLER_SECRET", "--forward-to", "http://127.0.0.1:1/x"}, "--secret-env sets the secret of the subscription --create makes"},
		{[]string{"listen", "--create", "--secret-file", bad, "--forward-to", "http://127.0.0.1:1/x"}, "holds the control character 0x01"},
		{[]string{"events", "replay", id, "--secret-env", "HANDLER_SECRET"}, "add --forward-to"},
	} {
		code, _, errOut := runCLI(t, append(tc.args, "--config", w.cfg)...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "s3cret") || strings.Contains(errOut, fromEnv) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", tc.args, code, errOut, tc.want)
		}
	}
}
