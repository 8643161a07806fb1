package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
)

// bookedOnly makes a subscription that stays, for Transaction.Booked
// only: one event per simulated transfer.
func (w *listenWorld) bookedOnly(t *testing.T, endpoint string) *api.WebhookSubscription {
	t.Helper()
	sub, err := w.project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "booked",
		Endpoint: endpoint, Secret: "booked-secret", EventTypes: []string{"Transaction.Booked"}})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// eventIDs are the eventIds the receiver got, in order.
func (r *receiver) eventIDs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.events))
	for _, ev := range r.events {
		ids = append(ids, fmt.Sprint(ev["eventId"]))
	}
	return ids
}

// loggedBooked is the eventIds of the Transaction.Booked events of the
// given transactions, read from the log.
func (w *listenWorld) loggedBooked(t *testing.T, txIDs ...string) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for _, tx := range txIDs {
		page, err := w.project.WebhookEventLogs(context.Background(), api.WebhookEventLogsParams{ResourceID: tx, EventType: "Transaction.Booked"})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) == 0 {
			t.Fatalf("no Transaction.Booked logged for %s", tx)
		}
		ids[page.Items[0].EventID] = true
	}
	return ids
}

// waitLogged waits until the log holds n events matching p: the emulator
// logs a delivery once the endpoint's answer is in, after the request that
// caused the event has returned. The log is read again only when the
// emulator records an entry, never in a loop of requests.
func (w *listenWorld) waitLogged(t *testing.T, p api.WebhookEventLogsParams, n int) {
	t.Helper()
	for {
		// Taken before the read: an entry recorded during it closes it.
		recorded := w.emu.Server.WebhookRecorded("sandbox")
		page, err := w.project.WebhookEventLogs(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, l := range page.Items {
			got[l.EventID] = true
		}
		if len(got) >= n {
			return
		}
		select {
		case <-recorded:
		case <-time.After(30 * time.Second):
			t.Fatalf("the log holds %d events, want %d, and recorded nothing for 30s", len(got), n)
		}
	}
}

// bookedDate is the eventDate of a transaction's Transaction.Booked.
func (w *listenWorld) bookedDate(t *testing.T, txID string) time.Time {
	t.Helper()
	p := api.WebhookEventLogsParams{ResourceID: txID, EventType: "Transaction.Booked"}
	w.waitLogged(t, p, 1)
	page, err := w.project.WebhookEventLogs(context.Background(), p)
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("the log of %s: %v", txID, err)
	}
	return page.Items[0].EventDate
}

func sameSet(t *testing.T, what string, got []string, want map[string]bool) {
	t.Helper()
	seen := map[string]int{}
	for _, id := range got {
		seen[id]++
		if seen[id] == 2 {
			t.Errorf("%s: event %s forwarded twice", what, id)
		}
		if !want[id] {
			t.Errorf("%s: event %s forwarded, not expected", what, id)
		}
	}
	for id := range want {
		if seen[id] == 0 {
			t.Errorf("%s: event %s never forwarded", what, id)
		}
	}
}

// TestListenSinceForwardsTheLogFirst: --since forwards what the log holds
// since then (a duration, or an RFC 3339 time between two transfers),
// then what happens next; without it, the log's past is left alone.
func TestListenSinceForwardsTheLogFirst(t *testing.T) {
	w := newListenWorld(t)
	sub := w.bookedOnly(t, "https://partnertui.invalid/booked")
	fast := func(o *ListenOptions) { o.Interval = 20 * time.Millisecond }
	// --since the very date of a later transfer's event: the log's dates
	// are to the millisecond, so transfers are made until one is dated
	// after the first.
	early := []string{w.transfer(t)}
	late := w.transfer(t)
	for w.bookedDate(t, late).Equal(w.bookedDate(t, early[0])) {
		early = append(early, late)
		late = w.transfer(t)
	}
	between := w.bookedDate(t, late)

	rec, url := newReceiver(t)
	run := startListen(t, fast, "--config", w.cfg, "--subscription", sub.ID, "--since", "2h", "--forward-to", url)
	rec.wait(t, len(early)+1)
	next := w.transfer(t)
	rec.wait(t, 1)
	run.stop(t)
	sameSet(t, "--since 2h", rec.eventIDs(), w.loggedBooked(t, append(early, late, next)...))
	if !strings.Contains(run.err.String(), fmt.Sprintf("Catching up: %d events logged since", len(early)+1)) {
		t.Errorf("stderr:\n%s", run.err.String())
	}

	rec, url = newReceiver(t)
	run = startListen(t, fast, "--config", w.cfg, "--subscription", sub.ID, "--since", between.Format(time.RFC3339Nano), "--forward-to", url)
	rec.wait(t, 2)
	run.stop(t)
	sameSet(t, "--since "+between.Format(time.RFC3339Nano), rec.eventIDs(), w.loggedBooked(t, late, next))

	rec, url = newReceiver(t)
	run = startListen(t, fast, "--config", w.cfg, "--subscription", sub.ID, "--forward-to", url)
	last := w.transfer(t)
	rec.wait(t, 1)
	run.stop(t)
	sameSet(t, "without --since", rec.eventIDs(), w.loggedBooked(t, last))
}

// TestListenSinceAndSecretFlagsAreChecked: flags that cannot work are
// usage errors, and a refused --secret is never echoed.
func TestListenSinceAndSecretFlagsAreChecked(t *testing.T) {
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
}

var secretRE = regexp.MustCompile(`Its secret, sent in the x-swan-secret header for your handler to check, is (\S+) `)

// TestListenCreateSecret: the handler sees exactly --secret; without it,
// the generated secret is printed once and is the one sent.
func TestListenCreateSecret(t *testing.T) {
	w := newListenWorld(t)
	fast := func(o *ListenOptions) { o.Interval = 20 * time.Millisecond }
	const mine = "my handler's secret: 5!"
	rec, url := newReceiver(t)
	run := startListen(t, fast, "--config", w.cfg, "--create", "--secret", mine, "--type", "Transaction.Booked", "--forward-to", url)
	w.transfer(t)
	rec.wait(t, 1)
	run.stop(t)
	if rec.secrets[0] != mine || strings.Contains(run.err.String(), mine) {
		t.Errorf("x-swan-secret %q, want %q; stderr:\n%s", rec.secrets[0], mine, run.err.String())
	}

	rec, url = newReceiver(t)
	run = startListen(t, fast, "--config", w.cfg, "--create", "--type", "Transaction.Booked", "--forward-to", url)
	w.transfer(t)
	rec.wait(t, 1)
	run.stop(t)
	m := secretRE.FindAllStringSubmatch(run.err.String(), -1)
	if len(m) != 1 || rec.secrets[0] != m[0][1] {
		t.Errorf("x-swan-secret %q, want the one printed once; stderr:\n%s", rec.secrets[0], run.err.String())
	}
	if strings.Contains(run.out.String(), rec.secrets[0]) {
		t.Errorf("the secret is on stdout too:\n%s", run.out.String())
	}
}

// TestListenPrintJSON: each forwarded event's payload is printed once,
// the JSON the endpoint got, after its first attempt's line.
func TestListenPrintJSON(t *testing.T) {
	w := newListenWorld(t)
	rec, url := newReceiver(t)
	run := startListen(t, func(o *ListenOptions) { o.Interval = 20 * time.Millisecond }, "--config", w.cfg, "--create", "--print-json", "--forward-to", url)
	w.transfer(t)
	rec.wait(t, 3)
	run.out.waitFor(t, "three events", func(s string) bool { return strings.Count(s, "→ 200 OK") == 3 })
	run.stop(t)
	lines := strings.Split(strings.TrimSpace(run.out.String()), "\n")
	printed := map[string]bool{}
	for i, l := range lines {
		if !strings.HasPrefix(l, "{") {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("line %q is not the JSON payload: %v", l, err)
		}
		if i == 0 || !strings.Contains(lines[i-1], fmt.Sprint(ev["eventType"])) || !strings.Contains(lines[i-1], fmt.Sprint(ev["resourceId"])) {
			t.Errorf("payload %q does not follow its event's line", l)
		}
		printed[fmt.Sprint(ev["eventId"])] = true
	}
	want := map[string]bool{}
	for _, id := range rec.eventIDs() {
		want[id] = true
	}
	if len(printed) != 3 || fmt.Sprint(printed) != fmt.Sprint(want) {
		t.Errorf("printed payloads of %v, forwarded %v:\n%s", printed, want, run.out.String())
	}
}

// TestListenResumeForwardsWhatItMissed: stopped, then started again with
// --resume, listen forwards exactly what was logged meanwhile; its
// position is a 0600 file of the state directory, never read through a
// link.
func TestListenResumeForwardsWhatItMissed(t *testing.T) {
	w := newListenWorld(t)
	sub := w.bookedOnly(t, "https://partnertui.invalid/booked")
	before := w.transfer(t) // history: never forwarded
	w.waitLogged(t, api.WebhookEventLogsParams{ResourceID: before}, 1)
	fast := func(o *ListenOptions) { o.Interval = 20 * time.Millisecond }
	rec, url := newReceiver(t)
	args := []string{"--config", w.cfg, "--subscription", sub.ID, "--resume", "--forward-to", url}
	run := startListen(t, fast, args...)
	first := w.transfer(t)
	rec.wait(t, 1)
	run.out.waitFor(t, "the delivery", func(s string) bool { return strings.Contains(s, "→ 200 OK") })
	run.stop(t)
	missed := []string{w.transfer(t), w.transfer(t)}
	run = startListen(t, fast, args...)
	rec.wait(t, 2)
	after := w.transfer(t)
	rec.wait(t, 1)
	run.moreReads(5)
	// A second listen of the same position is refused while it runs.
	if code, _, errOut := runCLI(t, append([]string{"listen"}, args...)...); code != ExitFailure || !strings.Contains(errOut, "another `partnertui listen --resume`") {
		t.Errorf("a second listen --resume: exit %d, %q", code, errOut)
	}
	run.stop(t)
	sameSet(t, "across a restart", rec.eventIDs(), w.loggedBooked(t, first, missed[0], missed[1], after))
	if slicesContain(rec.eventIDs(), w.loggedBooked(t, before)) {
		t.Error("an event logged before listen first ran was forwarded")
	}

	files, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "partnertui", "listen-sandbox-*.json"))
	if len(files) != 1 {
		t.Fatalf("position files: %v", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("position file mode %v, %v", fi.Mode(), err)
	}
	raw, _ := os.ReadFile(files[0])
	if strings.Contains(string(raw), url) {
		t.Errorf("the forward URL is in the position file: %s", raw)
	}
	// A link planted where the position is kept is refused, naming it.
	target := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(target, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, files[0]); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, append([]string{"listen"}, args...)...)
	if code != ExitFailure || !strings.Contains(errOut, files[0]) || !strings.Contains(errOut, "symbolic link") {
		t.Errorf("a link at the position: exit %d, %q", code, errOut)
	}
}

func slicesContain(ids []string, any map[string]bool) bool {
	for _, id := range ids {
		if any[id] {
			return true
		}
	}
	return false
}

// TestEventsReplay: `events replay` has the platform deliver one event
// again to its subscription's endpoint, which gets the same payload; an
// unknown event is refused with the platform's reason.
func TestEventsReplay(t *testing.T) {
	w := newListenWorld(t)
	rec, url := newReceiver(t)
	w.bookedOnly(t, url)
	w.transfer(t)
	rec.wait(t, 1)
	id := rec.eventIDs()[0]
	w.waitLogged(t, api.WebhookEventLogsParams{EventID: id}, 1)
	code, out, errOut := runCLI(t, "events", "replay", id, "--config", w.cfg)
	if code != ExitOK || !strings.Contains(out, "Replayed event "+id+": the endpoint answered 200") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	rec.wait(t, 1)
	if got := rec.eventIDs(); len(got) != 2 || got[0] != id || got[1] != id {
		t.Errorf("the endpoint got %v, want %s twice", got, id)
	}
	code, _, errOut = runCLI(t, "events", "replay", "no-such-event", "--config", w.cfg)
	if code == ExitOK || errOut == "" {
		t.Errorf("an unknown event: exit %d, %q", code, errOut)
	}
	t.Logf("unknown event: %s", errOut)

	// --forward-to: the platform is not asked; the local endpoint gets the
	// payload with the subscription's secret, and a failure is exit 1.
	local, localURL := newReceiver(t)
	code, out, errOut = runCLI(t, "events", "replay", id, "--forward-to", localURL, "--config", w.cfg)
	if code != ExitOK || !strings.Contains(out, "→ 200 OK") {
		t.Fatalf("--forward-to: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	local.wait(t, 1)
	if got := local.eventIDs(); len(got) != 1 || got[0] != id || local.secrets[0] != "booked-secret" {
		t.Errorf("the local endpoint got %v with secret %q", got, local.secrets[0])
	}
	if got := rec.eventIDs(); len(got) != 2 {
		t.Errorf("the platform delivered again: %v", got)
	}
	_, failing := newAnsweringReceiver(t, func(rw http.ResponseWriter, _ *http.Request, _ string) { rw.WriteHeader(http.StatusTeapot) })
	code, out, errOut = runCLI(t, "events", "replay", id, "--forward-to", failing, "--config", w.cfg)
	if code != ExitFailure || !strings.Contains(out, "418") || !strings.Contains(errOut, "was not delivered: 418") {
		t.Errorf("a failing endpoint: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "events", "replay", "no-such-event", "--forward-to", localURL, "--config", w.cfg)
	if code != ExitUsage || !strings.Contains(errOut, `no event "no-such-event"`) {
		t.Errorf("an unknown event with --forward-to: exit %d, %q", code, errOut)
	}
}

// TestListenSecretFromStdin: --secret - takes the secret from stdin's
// first line (CRLF or LF), so it is in no process list; none, or a line
// the platform would not take, is a usage error.
func TestListenSecretFromStdin(t *testing.T) {
	for in, want := range map[string]string{"tab\there-1\n": "tab\there-1", "crlf-secret\r\nmore\n": "crlf-secret", "no-newline": "no-newline"} {
		o := &ListenOptions{IO: IO{In: strings.NewReader(in)}, Secret: "-"}
		if err := o.readSecret(); err != nil || o.Secret != want {
			t.Errorf("stdin %q: %q, %v; want %q", in, o.Secret, err, want)
		}
	}
	for _, in := range []string{"", "\n", strings.Repeat("x", 500) + "\n"} {
		o := &ListenOptions{IO: IO{In: strings.NewReader(in)}, Secret: "-"}
		if err := o.readSecret(); exitCode(err) != ExitUsage {
			t.Errorf("stdin %q: %v, want a usage error (exit %d)", in, err, ExitUsage)
		}
	}
}

// TestBacklogIsOldestFirst: what --since and --resume forward first comes
// oldest first, although the log reads newest first, and each event once
// although the platform logged every failed attempt.
func TestBacklogIsOldestFirst(t *testing.T) {
	w := newListenWorld(t)
	if _, err := w.project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "all", Endpoint: "https://partnertui.invalid/all",
		EventTypes: []string{"Transaction.Pending", "Transaction.Booked", "Account.Updated"}}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		w.transfer(t)
	}
	w.waitLogged(t, api.WebhookEventLogsParams{}, 15)
	f := &Factory{IO: IO{Out: io.Discard, Err: io.Discard}}
	l := newListener(&ListenOptions{IO: f.IO, F: f}, w.project, "sandbox")
	news, err := l.backlog(context.Background(), time.Now().Add(-time.Hour), func(api.WebhookEventLog) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if len(news) != 15 {
		t.Fatalf("%d events, want the 5 transfers' 15", len(news))
	}
	ids := map[string]bool{}
	for i, ev := range news {
		if ids[ev.EventID] {
			t.Errorf("event %s twice", ev.EventID)
		}
		ids[ev.EventID] = true
		if i > 0 && ev.EventDate.Before(news[i-1].EventDate) {
			t.Errorf("event %d (%s) is older than the one before it (%s)", i, ev.EventDate, news[i-1].EventDate)
		}
	}
}
