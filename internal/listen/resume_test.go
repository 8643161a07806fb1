package listen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
	"github.com/partnertui/partnertui/internal/usage"
)

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

// TestListenSinceForwardsTheLogFirst: Since forwards what the log holds
// since then (two hours back, or a time between two transfers), then what
// happens next; without it, the log's past is left alone.
func TestListenSinceForwardsTheLogFirst(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sub := w.BookedOnly(t, "https://partnertui.invalid/booked")
	// Since the very date of a later transfer's event: the log's dates
	// are to the millisecond, so transfers are made until one is dated
	// after the first.
	early := []string{w.Transfer(t)}
	late := w.Transfer(t)
	for w.BookedDate(t, late).Equal(w.BookedDate(t, early[0])) {
		early = append(early, late)
		late = w.Transfer(t)
	}
	between := w.BookedDate(t, late)
	since := func(url string, at time.Time) Options {
		o := options(url)
		o.Subscription, o.Since = sub.ID, at
		return o
	}

	rec, url := webhooktest.NewReceiver(t)
	run := w.start(t, since(url, time.Now().Add(-2*time.Hour)))
	rec.Wait(t, len(early)+1)
	next := w.Transfer(t)
	rec.Wait(t, 1)
	run.stop(t)
	sameSet(t, "since 2h", rec.EventIDs(), w.LoggedBooked(t, append(early, late, next)...))
	if !strings.Contains(run.err.String(), fmt.Sprintf("Catching up: %d events logged since", len(early)+1)) {
		t.Errorf("stderr:\n%s", run.err.String())
	}

	rec, url = webhooktest.NewReceiver(t)
	run = w.start(t, since(url, between))
	rec.Wait(t, 2)
	run.stop(t)
	sameSet(t, "since "+between.Format(time.RFC3339Nano), rec.EventIDs(), w.LoggedBooked(t, late, next))

	rec, url = webhooktest.NewReceiver(t)
	run = w.start(t, since(url, time.Time{}))
	last := w.Transfer(t)
	rec.Wait(t, 1)
	run.stop(t)
	sameSet(t, "without since", rec.EventIDs(), w.LoggedBooked(t, last))
}

var secretRE = regexp.MustCompile(`Its secret, sent in the x-swan-secret header for your handler to check, is (\S+) `)

// TestListenCreateSecret: the handler sees exactly Secret; without it,
// the generated secret is printed once and is the one sent.
func TestListenCreateSecret(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const mine = "my handler's secret: 5!"
	rec, url := webhooktest.NewReceiver(t)
	o := options(url)
	o.Create, o.Secret, o.Types = true, mine, []string{"Transaction.Booked"}
	run := w.start(t, o)
	w.Transfer(t)
	rec.Wait(t, 1)
	run.stop(t)
	if got := rec.Secrets()[0]; got != mine || strings.Contains(run.err.String(), mine) {
		t.Errorf("x-swan-secret %q, want %q; stderr:\n%s", got, mine, run.err.String())
	}

	rec, url = webhooktest.NewReceiver(t)
	o = options(url)
	o.Create, o.Types = true, []string{"Transaction.Booked"}
	run = w.start(t, o)
	w.Transfer(t)
	rec.Wait(t, 1)
	run.stop(t)
	m := secretRE.FindAllStringSubmatch(run.err.String(), -1)
	got := rec.Secrets()[0]
	if len(m) != 1 || got != m[0][1] {
		t.Errorf("x-swan-secret %q, want the one printed once; stderr:\n%s", got, run.err.String())
	}
	if strings.Contains(run.out.String(), got) {
		t.Errorf("the secret is on stdout too:\n%s", run.out.String())
	}
}

// TestListenPrintJSON: each forwarded event's payload is printed once,
// the JSON the endpoint got, after its first attempt's line.
func TestListenPrintJSON(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rec, url := webhooktest.NewReceiver(t)
	o := options(url)
	o.Create, o.PrintJSON = true, true
	run := w.start(t, o)
	w.Transfer(t)
	rec.Wait(t, 3)
	run.out.WaitFor(t, "three events", func(s string) bool { return strings.Count(s, "→ 200 OK") == 3 })
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
	for _, id := range rec.EventIDs() {
		want[id] = true
	}
	if len(printed) != 3 || fmt.Sprint(printed) != fmt.Sprint(want) {
		t.Errorf("printed payloads of %v, forwarded %v:\n%s", printed, want, run.out.String())
	}
}

// TestListenResumeForwardsWhatItMissed: stopped, then started again with
// Resume, listen forwards exactly what was logged meanwhile; its position
// is a 0600 file of the state directory, never read through a link.
func TestListenResumeForwardsWhatItMissed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sub := w.BookedOnly(t, "https://partnertui.invalid/booked")
	before := w.Transfer(t) // history: never forwarded
	w.WaitLogged(t, api.WebhookEventLogsParams{ResourceID: before}, 1)
	rec, url := webhooktest.NewReceiver(t)
	o := options(url)
	o.Subscription, o.Resume = sub.ID, true
	run := w.start(t, o)
	first := w.Transfer(t)
	rec.Wait(t, 1)
	run.out.WaitFor(t, "the delivery", func(s string) bool { return strings.Contains(s, "→ 200 OK") })
	run.stop(t)
	missed := []string{w.Transfer(t), w.Transfer(t)}
	run = w.start(t, o)
	rec.Wait(t, 2)
	after := w.Transfer(t)
	rec.Wait(t, 1)
	run.moreReads(5)
	// A second listen of the same position is refused while it runs.
	err := Run(context.Background(), o, w.env(), Streams{Out: io.Discard, Err: io.Discard})
	var ue *usage.Error
	if !errors.Is(err, ErrPositionInUse) || errors.As(err, &ue) || !strings.Contains(err.Error(), "another `partnertui listen --resume`") {
		t.Errorf("a second listen with Resume: %v", err)
	}
	run.stop(t)
	sameSet(t, "across a restart", rec.EventIDs(), w.LoggedBooked(t, first, missed[0], missed[1], after))
	if slicesContain(rec.EventIDs(), w.LoggedBooked(t, before)) {
		t.Error("an event logged before listen first ran was forwarded")
	}

	files, _ := filepath.Glob(filepath.Join(w.stateDir, "listen-sandbox-*.json"))
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
	err = Run(context.Background(), o, w.env(), Streams{Out: io.Discard, Err: io.Discard})
	if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), files[0]) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link at the position: %v", err)
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

// TestBacklogIsOldestFirst: what Since and Resume forward first comes
// oldest first, although the log reads newest first, and each event once
// although the platform logged every failed attempt.
func TestBacklogIsOldestFirst(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if _, err := w.Project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "all", Endpoint: "https://partnertui.invalid/all",
		EventTypes: []string{"Transaction.Pending", "Transaction.Booked", "Account.Updated"}}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		w.Transfer(t)
	}
	w.WaitLogged(t, api.WebhookEventLogsParams{}, 15)
	l := newListener(Options{}, w.env(), Streams{Out: io.Discard, Err: io.Discard})
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

// TestCatchUpLinesComeOldestFirst: the catch-up's lines come in the order
// its events are forwarded, oldest first, although deliveries run at once
// and the endpoint answers the first POST it gets last; the catch-up's
// line names its time zone.
func TestCatchUpLinesComeOldestFirst(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sub := w.BookedOnly(t, "https://partnertui.invalid/booked")
	var made []string
	for range 6 {
		made = append(made, w.Transfer(t))
	}
	w.WaitLogged(t, api.WebhookEventLogsParams{WebhookSubscriptionID: sub.ID}, 6)
	var calls atomic.Int32
	release := make(chan struct{})
	rec, url := webhooktest.NewAnsweringReceiver(t, func(rw http.ResponseWriter, _ *http.Request, _ string) {
		switch calls.Add(1) {
		case 1:
			select { // the first POST is answered once all the others are
			case <-release:
			case <-time.After(10 * time.Second):
			}
		case int32(len(made)):
			close(release)
		}
	})
	o := options(url)
	o.Subscription, o.Since = sub.ID, time.Now().Add(-time.Hour)
	run := w.start(t, o)
	rec.Wait(t, len(made))
	run.out.WaitFor(t, "a line per event", func(s string) bool { return strings.Count(s, "\n") >= len(made) })
	run.stop(t)
	var got []string
	for line := range strings.Lines(run.out.String()) {
		if f := strings.Fields(line); len(f) > 2 {
			got = append(got, f[2])
		}
	}
	// The log's order: by date (a transfer is booked on its own
	// schedule), then as first logged.
	news, err := newListener(o, w.env(), Streams{Out: io.Discard, Err: io.Discard}).backlog(context.Background(), o.Since, func(api.WebhookEventLog) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, ev := range news {
		want = append(want, ev.ResourceID)
	}
	if len(want) != len(made) || !slices.Equal(got, want) {
		t.Errorf("the lines name the transactions in the order %v, want the log's, oldest first: %v\n%s", got, want, run.out.String())
	}
	zone := time.Now().Format("MST")
	if !regexp.MustCompile(`Catching up: 6 events logged since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d ` + zone + `, oldest first\.`).MatchString(run.err.String()) {
		t.Errorf("the catch-up line does not name its time zone (%s):\n%s", zone, run.err.String())
	}
}
