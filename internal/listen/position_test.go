package listen

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
)

// TestPositionMarkAndDone: the mark stays at the oldest event still being
// delivered and a minute behind the newest the log showed; what is handled
// above it is kept by id, what is below it forgotten; a reload answers the
// same, and concurrent deliveries all reach the file.
func TestPositionMarkAndDone(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "listen-sandbox-x.json")
	p, found, err := loadPosition(path, savedPosition{Env: "sandbox"})
	if err != nil || found {
		t.Fatalf("a new position: found %v, %v", found, err)
	}
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	ev := func(id string, at time.Time) api.WebhookEventLog {
		return api.WebhookEventLog{EventID: id, EventDate: at}
	}
	news := []api.WebhookEventLog{ev("slow", t0.Add(5*time.Minute)), ev("quick", t0.Add(9*time.Minute))}
	for i := range 100 {
		news = append(news, ev(fmt.Sprint("burst-", i), t0.Add(9*time.Minute+time.Duration(i)*time.Millisecond)))
	}
	p.read(news, []api.WebhookEventLog{ev("old", t0), ev("newest", t0.Add(10*time.Minute))})
	if err := p.finish("quick", t0.Add(9*time.Minute)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, e := range news[2:] {
		id, at := e.EventID, e.EventDate
		wg.Go(func() {
			if err := p.finish(id, at); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if _, _, err := loadPosition(path, savedPosition{Env: "sandbox"}); !errors.Is(err, ErrPositionInUse) {
		t.Errorf("a second load while the first is held: %v, want ErrPositionInUse", err)
	}
	p.close()
	q, found, err := loadPosition(path, savedPosition{Env: "sandbox"})
	if err != nil || !found {
		t.Fatalf("reload: found %v, %v", found, err)
	}
	defer q.close()
	if want := t0.Add(5 * time.Minute); !q.mark.Equal(want) {
		t.Errorf("mark %v, want the slow delivery's date %v", q.mark, want)
	}
	if got, want := q.since(), t0.Add(4*time.Minute); !got.Equal(want) {
		t.Errorf("since %v, want %v", got, want)
	}
	for id, want := range map[string]bool{"quick": true, "burst-0": true, "burst-99": true, "slow": false, "new": false} {
		if got := q.handled(id, t0.Add(9*time.Minute)); got != want {
			t.Errorf("handled(%s) = %v, want %v", id, got, want)
		}
	}
	if !q.handled("old", t0) {
		t.Error("an event dated before the mark is not handled")
	}
	if _, kept := q.done["old"]; kept || len(q.done) != 102 {
		t.Errorf("done holds %d ids (old kept: %v), want the 102 above the mark", len(q.done), kept)
	}
	// Once the slow one is done, the mark moves to a minute behind the newest.
	if err := p.finish("slow", t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if want := t0.Add(9 * time.Minute); !p.mark.Equal(want) {
		t.Errorf("mark %v, want %v", p.mark, want)
	}
}

// BenchmarkPositionFinish is what --resume adds to each delivery: the
// event noted as handled and on disk before its line is printed, 16
// deliveries finishing at once (listenInFlight), with a minute of events
// above the mark. writes/op says how many file writes an event cost.
func BenchmarkPositionFinish(b *testing.B) {
	p, _, err := loadPosition(filepath.Join(b.TempDir(), "listen-sandbox-x.json"), savedPosition{Env: "sandbox"})
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	news := make([]api.WebhookEventLog, b.N)
	for i := range news {
		news[i] = api.WebhookEventLog{EventID: fmt.Sprint("ev-", i), EventDate: t0.Add(time.Duration(i%1000) * time.Millisecond)}
	}
	p.read(news, nil)
	var next atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			ev := news[next.Add(1)-1]
			if err := p.finish(ev.EventID, ev.EventDate); err != nil {
				b.Error(err)
			}
		}
	})
	b.ReportMetric(float64(p.writes)/float64(b.N), "writes/op")
}

// TestEventTypes: the log filters on a lone type itself; with several, it
// is asked for everything and the entries are filtered here.
func TestEventTypes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		types  []string
		server string
		keep   map[string]bool
	}{
		{nil, "", map[string]bool{"Transaction.Booked": true}},
		{[]string{"Transaction.Booked"}, "Transaction.Booked", map[string]bool{"Transaction.Booked": true}},
		{[]string{"Transaction.Booked", "Account.Updated"}, "", map[string]bool{"Transaction.Booked": true, "Account.Updated": true, "User.Joined": false}},
	}
	for _, c := range cases {
		if got := ServerType(c.types); got != c.server {
			t.Errorf("%v: ServerType = %q, want %q", c.types, got, c.server)
		}
		for typ, want := range c.keep {
			if got := Wanted(c.types, typ); got != want {
				t.Errorf("%v: Wanted(%q) = %v, want %v", c.types, typ, got, want)
			}
		}
	}
}
