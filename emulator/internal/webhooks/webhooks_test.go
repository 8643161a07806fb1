package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/hooktest"
)

var testNow = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

const testProject = "b1c2d3e4-0000-4000-8000-000000000001"

func newHub(t *testing.T, cfg Config) *Hub {
	t.Helper()
	cfg.ProjectID = testProject
	if cfg.RetryInterval == 0 {
		cfg.RetryInterval = time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return testNow }
	}
	h := New(cfg)
	t.Cleanup(h.Close)
	return h
}

func subscribe(t *testing.T, h *Hub, endpoint, secret string, types ...string) Subscription {
	t.Helper()
	in := SubscriptionInput{Label: "test", Endpoint: endpoint, EventTypes: types, Status: StatusEnabled}
	if secret != "" {
		in.Secret = &secret
	}
	s, err := h.Add(in)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitLogs waits until at least n entries match f and returns them,
// newest first.
func waitLogs(t *testing.T, h *Hub, f LogFilter, n int) []Log {
	t.Helper()
	guard := time.NewTimer(10 * time.Second)
	defer guard.Stop()
	for {
		changed := h.Recorded()
		page, err := h.Logs(f, maxLogs, "")
		if err != nil {
			t.Fatal(err)
		}
		if page.TotalCount >= n {
			return page.Logs
		}
		select {
		case <-changed:
		case <-guard.C:
			t.Fatalf("%d log entries after 10s, want %d", page.TotalCount, n)
		}
	}
}

func TestDeliversThePayloadWithTheSecretHeader(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{})
	rc := hooktest.New(t, http.StatusOK)
	sub := subscribe(t, h, rc.URL, "s3cr3t-0000", TransactionBooked)
	h.Emit(TransactionBooked, "bosci_tx1")

	got := rc.Next(t)
	if got.Header.Get("x-swan-secret") != "s3cr3t-0000" || got.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", got.Header)
	}
	var payload map[string]string
	if err := json.Unmarshal(got.Body, &payload); err != nil {
		t.Fatalf("payload %s: %v", got.Body, err)
	}
	if len(payload) != 5 || payload["eventType"] != TransactionBooked || payload["resourceId"] != "bosci_tx1" ||
		payload["projectId"] != testProject || payload["eventDate"] != "2026-11-22T09:30:00.000Z" || len(payload["eventId"]) != 36 {
		t.Errorf("payload %s", got.Body)
	}
	if !strings.HasPrefix(string(got.Body), `{"eventType":`) {
		t.Errorf("fields are not in the documented order: %s", got.Body)
	}

	logs := waitLogs(t, h, LogFilter{}, 1)
	l := logs[0]
	if !l.Success || l.StatusCode == nil || *l.StatusCode != 200 || l.RetryCount == nil || *l.RetryCount != 0 ||
		l.RequestPayload != string(got.Body) || l.EventID != payload["eventId"] || l.SubscriptionID != sub.ID ||
		l.SubscriptionEndpoint != rc.URL || l.ResponsePayload == nil || *l.ResponsePayload != `{"ok":true}` {
		t.Errorf("log entry %+v", l)
	}
	// Without a secret, no header.
	rc2 := hooktest.New(t, http.StatusOK)
	subscribe(t, h, rc2.URL, "", UserJoined)
	h.Emit(UserJoined, "user-1")
	if got := rc2.Next(t); got.Header.Get("x-swan-secret") != "" {
		t.Errorf("x-swan-secret sent without a secret: %q", got.Header.Get("x-swan-secret"))
	}
}

func TestFailedDeliveriesAreRetriedAndEveryAttemptLogged(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{MaxRetries: 3})
	rc := hooktest.New(t, http.StatusInternalServerError)
	subscribe(t, h, rc.URL, "", AccountUpdated)
	h.Emit(AccountUpdated, "acc-1")

	logs := waitLogs(t, h, LogFilter{}, 4)
	for i, l := range logs {
		// Newest first: ranks 3, 2, 1, 0.
		if l.Success || l.StatusText() != "Failure" || l.StatusCode == nil || *l.StatusCode != 500 ||
			l.RetryCount == nil || *l.RetryCount != 3-i || l.EventID != logs[0].EventID {
			t.Errorf("attempt %d: %+v", 3-i, l)
		}
	}
	h.Close()
	if n := rc.Count.Load(); n != 4 {
		t.Fatalf("%d attempts, want 1 + 3 retries", n)
	}
}

// A retry that succeeds ends the retries.
func TestRetryStopsAtTheFirstSuccess(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{})
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if attempts.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	subscribe(t, h, srv.URL, "", AccountUpdated)
	h.Emit(AccountUpdated, "acc-1")
	ok := waitLogs(t, h, LogFilter{StatusText: "Success"}, 1)[0]
	h.Close()
	all, _ := h.Logs(LogFilter{}, maxLogs, "")
	if attempts.Load() != 3 || all.TotalCount != 3 || *ok.RetryCount != 2 {
		t.Fatalf("%d attempts, %d entries, success at rank %d; want 3, 3, 2", attempts.Load(), all.TotalCount, *ok.RetryCount)
	}
}

// Unreachable endpoints fail at once, are logged without a status, and are
// retried. The answer window is an hour: a hang would time the test out.
func TestUnreachableEndpointsFailFastAndAreLogged(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{MaxRetries: 2, AnswerWindow: time.Hour})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := "http://" + ln.Addr().String() + "/hook"
	ln.Close()
	reasons := map[string]string{"https://partnertui.invalid/listen": "never resolve", closedPort: "refused"}
	for endpoint := range reasons {
		subscribe(t, h, endpoint, "", TransactionPending)
	}
	h.Emit(TransactionPending, "tx-1")
	perEndpoint := map[string]int{}
	for _, l := range waitLogs(t, h, LogFilter{}, 6) {
		perEndpoint[l.SubscriptionEndpoint]++
		if l.StatusCode != nil || l.Success || l.StatusText() != "Failure" || l.ResponsePayload == nil ||
			!strings.Contains(*l.ResponsePayload, reasons[l.SubscriptionEndpoint]) {
			t.Errorf("entry %+v with payload %v", l, l.ResponsePayload)
		}
	}
	for endpoint := range reasons {
		if perEndpoint[endpoint] != 3 {
			t.Errorf("%d attempts to %s, want 1 + 2 retries", perEndpoint[endpoint], endpoint)
		}
	}
}

func TestAnswerWindow(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{MaxRetries: -1, AnswerWindow: 20 * time.Millisecond})
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // lets the server notice the hub hanging up
		select {                  // never answers in time
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first: frees the handler Close waits for
	subscribe(t, h, srv.URL, "", UserJoined)
	h.Emit(UserJoined, "user-1")
	l := waitLogs(t, h, LogFilter{}, 1)[0]
	if l.StatusCode != nil || l.Success || !strings.Contains(*l.ResponsePayload, "did not answer within 20ms") {
		t.Fatalf("entry %+v, payload %q", l, *l.ResponsePayload)
	}
}

func TestReplayDeliversAgainAndWaitsForTheAnswer(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{MaxRetries: -1})
	rc := hooktest.New(t, http.StatusInternalServerError)
	sub := subscribe(t, h, rc.URL, "", TransactionBooked)
	h.Emit(TransactionBooked, "tx-1")
	first := rc.Next(t)
	failed := waitLogs(t, h, LogFilter{}, 1)[0]

	rc.Status.Store(http.StatusOK)
	for _, id := range []string{failed.EventID, failed.ID} {
		l, err := h.Replay(context.Background(), id, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := rc.Next(t); string(got.Body) != string(first.Body) {
			t.Errorf("replay sent %s, want the original %s", got.Body, first.Body)
		}
		if !l.Success || *l.StatusCode != 200 || l.RetryCount != nil || l.EventID != failed.EventID || l.SubscriptionID != sub.ID {
			t.Errorf("replay entry %+v", l)
		}
		if stored, ok := h.Log(l.ID); !ok || stored.ID != l.ID {
			t.Errorf("the replay is not in the log")
		}
	}
	// To another subscription, even a disabled one: a replay is manual.
	other := hooktest.New(t, http.StatusAccepted)
	in := SubscriptionInput{Label: "other", Endpoint: other.URL, EventTypes: []string{UserJoined}, Status: StatusDisabled}
	sub2, err := h.Add(in)
	if err != nil {
		t.Fatal(err)
	}
	l, err := h.Replay(context.Background(), failed.EventID, sub2.ID)
	if err != nil || *l.StatusCode != http.StatusAccepted || l.SubscriptionID != sub2.ID {
		t.Fatalf("replay to another subscription: %+v %v", l, err)
	}
	other.Next(t)

	if _, err := h.Replay(context.Background(), "no-such-event", ""); !errors.Is(err, ErrLogNotFound) {
		t.Errorf("unknown event: %v", err)
	}
	if _, err := h.Replay(context.Background(), failed.EventID, "no-such-subscription"); !errors.Is(err, ErrSubscriptionNotFound) {
		t.Errorf("unknown subscription: %v", err)
	}
	if err := h.Remove(sub.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Replay(context.Background(), failed.ID, ""); !errors.Is(err, ErrSubscriptionNotFound) {
		t.Errorf("removed subscription: %v", err)
	}
}

func TestSubscriptionValidation(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{})
	long := strings.Repeat("x", 256)
	secret := strings.Repeat("s", 37)
	_, err := h.Add(SubscriptionInput{Label: " ", Endpoint: "ftp://example.com", Secret: &secret,
		EventTypes: []string{"Account.Updated", "Nope.Happened", "Account.Updated"}, Status: "On"})
	var inv *InvalidInputError
	if !errors.As(err, &inv) {
		t.Fatalf("error %v, want InvalidInputError", err)
	}
	names := map[string]int{}
	for _, f := range inv.Fields {
		names[f.Name] = len(f.Errors)
	}
	if names["label"] != 1 || names["endpoint"] != 1 || names["secret"] != 1 || names["eventTypes"] != 2 || names["status"] != 1 {
		t.Errorf("fields %+v", inv.Fields)
	}
	// A header cannot carry a control character; a tab inside it can.
	for secret, ok := range map[string]bool{"a\r\nb": false, "a\x1bb": false, "a\tb": true} {
		_, err := h.Add(SubscriptionInput{Label: "x", Endpoint: "https://example.com", Secret: &secret, EventTypes: []string{UserJoined}, Status: StatusEnabled})
		if (err == nil) != ok {
			t.Errorf("secret %q: %v", secret, err)
		}
	}
	_, err = h.Add(SubscriptionInput{Label: long, Endpoint: "https://example.com/" + long, Status: StatusEnabled})
	if !errors.As(err, &inv) || len(inv.Fields) != 3 {
		t.Errorf("too long and no event types: %v", err)
	}
	if _, err := h.Update("missing", SubscriptionInput{Label: "x", Endpoint: "https://example.com", EventTypes: []string{UserJoined}, Status: StatusEnabled}); !errors.Is(err, ErrSubscriptionNotFound) {
		t.Errorf("update unknown: %v", err)
	}
	if err := h.Remove("missing"); !errors.Is(err, ErrSubscriptionNotFound) {
		t.Errorf("remove unknown: %v", err)
	}
}

func TestSubscriptionLimitPerEventType(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{SubscriptionLimit: LiveSubscriptionLimit})
	var subs []Subscription
	for range LiveSubscriptionLimit {
		subs = append(subs, subscribe(t, h, "https://example.com/hook", "", AccountUpdated, UserJoined))
	}
	_, err := h.Add(SubscriptionInput{Label: "one more", Endpoint: "https://example.com", EventTypes: []string{UserJoined, TransactionBooked}, Status: StatusEnabled})
	var lim *LimitError
	if !errors.As(err, &lim) || lim.Max != LiveSubscriptionLimit || len(lim.Limits) != 1 ||
		lim.Limits[0] != (EventTypeCount{EventType: UserJoined, Count: LiveSubscriptionLimit}) {
		t.Fatalf("error %v, want a limit on User.Joined", err)
	}
	// Disabled subscriptions do not count, until they are enabled.
	in := SubscriptionInput{Label: "off", Endpoint: "https://example.com", EventTypes: []string{UserJoined}, Status: StatusDisabled}
	off, err := h.Add(in)
	if err != nil {
		t.Fatal(err)
	}
	in.Status = StatusEnabled
	if _, err := h.Update(off.ID, in); !errors.As(err, &lim) {
		t.Fatalf("enabling past the limit: %v", err)
	}
	// Updating one of the five in place is no new subscription.
	upd := SubscriptionInput{Label: "renamed", Endpoint: "https://example.com/v2", EventTypes: []string{UserJoined}, Status: StatusEnabled}
	s, err := h.Update(subs[0].ID, upd)
	if err != nil || s.Label != "renamed" || !s.UpdatedAt.Equal(testNow) || !slices.Equal(s.EventTypes, []string{UserJoined}) {
		t.Fatalf("update: %+v %v", s, err)
	}
	if err := h.Remove(subs[1].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Update(off.ID, in); err != nil {
		t.Fatalf("enabling after a removal freed a place: %v", err)
	}
}

func TestSubscriptionPagingSurvivesRemoval(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{})
	var ids []string
	for range 7 {
		ids = append(ids, subscribe(t, h, "https://example.com/hook", "", UserJoined).ID)
	}
	p1, err := h.Subscriptions(3, "")
	if err != nil || len(p1.Subscriptions) != 3 || !p1.HasNextPage || p1.HasPreviousPage || p1.TotalCount != 7 {
		t.Fatalf("first page %+v %v", p1, err)
	}
	// Removing the cursor's own subscription does not break the next page.
	cursor := SubscriptionCursor(&p1.Subscriptions[2])
	if err := h.Remove(p1.Subscriptions[2].ID); err != nil {
		t.Fatal(err)
	}
	p2, err := h.Subscriptions(10, cursor)
	if err != nil || len(p2.Subscriptions) != 4 || p2.Subscriptions[0].ID != ids[3] || p2.HasNextPage || !p2.HasPreviousPage {
		t.Fatalf("second page %+v %v", p2, err)
	}
	for _, bad := range []string{"garbage", LogCursor(&Log{seq: 1})} {
		if _, err := h.Subscriptions(3, bad); !errors.Is(err, ErrBadCursor) {
			t.Errorf("cursor %q: %v", bad, err)
		}
	}
}

func TestLogFiltersAndStablePaging(t *testing.T) {
	t.Parallel()
	var clock atomic.Int64 // minutes after testNow
	h := newHub(t, Config{MaxRetries: -1, Now: func() time.Time { return testNow.Add(time.Duration(clock.Load()) * time.Minute) }})
	ok := hooktest.New(t, http.StatusOK)
	bad := hooktest.New(t, http.StatusNotFound)
	okSub := subscribe(t, h, ok.URL, "", TransactionBooked, AccountUpdated)
	subscribe(t, h, bad.URL, "", TransactionBooked)
	// Emitted one by one so each entry's date is known.
	for i := range 5 {
		clock.Store(int64(i))
		h.Emit(TransactionBooked, "tx-"+string(rune('a'+i)))
		waitLogs(t, h, LogFilter{}, 2*(i+1))
	}
	clock.Store(10)
	h.Emit(AccountUpdated, "acc-1")
	waitLogs(t, h, LogFilter{}, 11)

	code404 := 404
	for name, c := range map[string]struct {
		f    LogFilter
		want int
	}{
		"all":          {LogFilter{}, 11},
		"event type":   {LogFilter{EventType: AccountUpdated}, 1},
		"success":      {LogFilter{StatusText: "Success"}, 6},
		"failure":      {LogFilter{StatusText: "Failure"}, 5},
		"status code":  {LogFilter{StatusCode: &code404}, 5},
		"resource":     {LogFilter{ResourceID: "tx-c"}, 2},
		"subscription": {LogFilter{SubscriptionID: okSub.ID}, 6},
		"dates":        {LogFilter{Start: testNow.Add(time.Minute), End: testNow.Add(3 * time.Minute)}, 6},
		"start only":   {LogFilter{Start: testNow.Add(10 * time.Minute)}, 1},
		"combined":     {LogFilter{SubscriptionID: okSub.ID, EventType: TransactionBooked, End: testNow.Add(time.Minute)}, 2},
	} {
		p, err := h.Logs(c.f, maxLogs, "")
		if err != nil || p.TotalCount != c.want || len(p.Logs) != c.want {
			t.Errorf("%s: %d entries (%d listed), want %d; %v", name, p.TotalCount, len(p.Logs), c.want, err)
		}
		for _, l := range p.Logs {
			if !c.f.match(&l) {
				t.Errorf("%s: entry %+v does not match", name, l)
			}
		}
	}
	evID := waitLogs(t, h, LogFilter{ResourceID: "tx-d"}, 2)[0].EventID
	if p, _ := h.Logs(LogFilter{EventID: evID}, 10, ""); p.TotalCount != 2 {
		t.Errorf("event id filter: %d entries, want both deliveries", p.TotalCount)
	}

	// Page newest first, three at a time, while new entries arrive: no
	// gap, no duplicate, and the pages after the first do not shift.
	var seen []string
	after := ""
	for page := 0; ; page++ {
		p, err := h.Logs(LogFilter{}, 3, after)
		if err != nil {
			t.Fatal(err)
		}
		if page > 0 && !p.HasPreviousPage {
			t.Errorf("page %d says it has no previous page", page)
		}
		for _, l := range p.Logs {
			seen = append(seen, l.ID)
		}
		if page == 0 {
			clock.Store(20)
			h.Emit(AccountUpdated, "acc-2") // lands before the first page
			waitLogs(t, h, LogFilter{}, 12)
		}
		if !p.HasNextPage {
			break
		}
		after = LogCursor(&p.Logs[len(p.Logs)-1])
	}
	all, _ := h.Logs(LogFilter{}, maxLogs, "")
	want := make([]string, 0, 11)
	for _, l := range all.Logs[1:] { // the entry that arrived while paging is newer than page 1
		want = append(want, l.ID)
	}
	if !slices.Equal(seen, want) {
		t.Errorf("paged %d entries %v, want %d %v", len(seen), seen, len(want), want)
	}
	for i := 1; i < len(all.Logs); i++ {
		if all.Logs[i].CreatedAt.After(all.Logs[i-1].CreatedAt) {
			t.Errorf("entry %d is newer than entry %d", i, i-1)
		}
	}
	if _, err := h.Logs(LogFilter{}, 3, "bm90LWEtY3Vyc29y"); !errors.Is(err, ErrBadCursor) {
		t.Errorf("bad cursor: %v", err)
	}
	k := h.KPI(okSub.ID)
	if k.TotalHits != 7 || k.ErrorRate != 0 {
		t.Errorf("KPI %+v, want 7 hits, no errors", k)
	}
	if k := h.KPI("missing"); k.TotalHits != 0 {
		t.Errorf("KPI of nothing %+v", k)
	}
}

func TestDisabledSubscriptionsGetNoDeliveries(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{})
	on := hooktest.New(t, http.StatusOK)
	off := hooktest.New(t, http.StatusOK)
	subscribe(t, h, on.URL, "", UserJoined)
	if _, err := h.Add(SubscriptionInput{Label: "off", Endpoint: off.URL, EventTypes: []string{UserJoined}, Status: StatusDisabled}); err != nil {
		t.Fatal(err)
	}
	subscribe(t, h, off.URL, "", AccountUpdated) // another type
	h.Emit(UserJoined, "user-1")
	waitLogs(t, h, LogFilter{}, 1)
	h.Close()
	if on.Count.Load() != 1 || off.Count.Load() != 0 {
		t.Fatalf("enabled got %d, disabled or unsubscribed got %d", on.Count.Load(), off.Count.Load())
	}
}

// Events, subscription changes and reads from many goroutines at once
// (run with -race).
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	h := newHub(t, Config{MaxRetries: -1})
	rc := hooktest.New(t, http.StatusOK)
	sub := subscribe(t, h, rc.URL, "", TransactionBooked)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			h.Emit(TransactionBooked, "tx")
			in := SubscriptionInput{Label: "c", Endpoint: "https://example.com", EventTypes: []string{UserJoined}, Status: StatusDisabled}
			s, err := h.Add(in)
			if err == nil {
				_, _ = h.Update(s.ID, in)
				_ = h.Remove(s.ID)
			}
			_, _ = h.Logs(LogFilter{EventType: TransactionBooked}, 5, "")
			_, _ = h.Subscriptions(5, "")
			_ = h.KPI(sub.ID)
		})
	}
	wg.Wait()
	waitLogs(t, h, LogFilter{}, 20)
}

func TestEventTypes(t *testing.T) {
	t.Parallel()
	types := EventTypes()
	sorted := slices.Clone(types)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(types) {
		t.Error("an event type is listed twice")
	}
	for _, emitted := range []string{TransactionPending, TransactionBooked, AccountUpdated, UserJoined} {
		if !slices.Contains(types, emitted) {
			t.Errorf("%s is emitted but not listed", emitted)
		}
	}
}
