package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// newClock is the budget tests' clock, at the start of a year.
func newClock() *clock.Fake { return clock.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) }

const host = "api.example.com"

func open(t testing.TB, dir string, clk *clock.Fake, limit int, window time.Duration) *Budget {
	t.Helper()
	b, err := Open(dir, host, Config{Limit: limit, Window: window, Now: clk.Now})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return b
}

// eachMode runs check on a private budget and on a shared one: each rule
// holds for both.
func eachMode(t *testing.T, limit int, window time.Duration, check func(t *testing.T, b *Budget, clk *clock.Fake)) {
	t.Parallel()
	for _, mode := range []string{"private", "shared"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			clk := newClock()
			var b *Budget
			if mode == "shared" {
				b = open(t, t.TempDir(), clk, limit, window)
			} else {
				var err error
				if b, err = New(Config{Limit: limit, Window: window, Now: clk.Now}); err != nil {
					t.Fatal(err)
				}
			}
			check(t, b, clk)
		})
	}
}

func take(t *testing.T, b *Budget) (time.Time, Hold) {
	t.Helper()
	at, h, err := b.Take(context.Background())
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	return at, h
}

func TestSlidingWindow(t *testing.T) {
	eachMode(t, 3, time.Minute, func(t *testing.T, b *Budget, clk *clock.Fake) {
		t0 := clk.Now()
		for i := range 3 {
			if i > 0 {
				clk.Advance(10 * time.Second)
			}
			if at, h := take(t, b); !h.IsZero() || !at.Equal(clk.Now()) {
				t.Fatalf("take %d = %v, %+v", i, at, h)
			}
		}
		clk.Advance(10 * time.Second)
		if _, h := take(t, b); h.Reason != Spent || !h.Until.Equal(t0.Add(time.Minute)) {
			t.Fatalf("4th take held %+v; want spent until %v", h, t0.Add(time.Minute))
		}
		clk.Advance(29 * time.Second)
		if u, l := b.Count(); u != 3 || l != 3 {
			t.Errorf("count before expiry = %d/%d", u, l)
		}
		clk.Advance(time.Second)
		if u, _ := b.Count(); u != 2 {
			t.Errorf("count at expiry of the first = %d", u)
		}
		at, h := take(t, b)
		if !h.IsZero() {
			t.Fatal("take refused once a slot freed")
		}
		if err := b.Release(at); err != nil {
			t.Fatal(err)
		}
		if u, _ := b.Count(); u != 2 {
			t.Errorf("count after release = %d", u)
		}
	})
}

func TestServerCountOverrides(t *testing.T) {
	eachMode(t, 2000, 5*time.Minute, func(t *testing.T, b *Budget, clk *clock.Fake) {
		t0 := clk.Now()
		if err := b.Observe(1000, 1, t0.Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if u, l := b.Count(); u != 999 || l != 1000 {
			t.Fatalf("count = %d/%d, want 999/1000 from the server", u, l)
		}
		if _, h := take(t, b); !h.IsZero() {
			t.Fatal("the server's last slot was refused")
		}
		clk.Advance(time.Second)
		if _, h := take(t, b); h.Reason != Spent || !h.Until.Equal(t0.Add(2*time.Minute)) {
			t.Errorf("take after the server's last slot held %+v", h)
		}
		// After the server's reset, the machine's own count is what is left.
		clk.Advance(2 * time.Minute)
		if u, l := b.Count(); u != 1 || l != 1000 {
			t.Errorf("count after the reset = %d/%d", u, l)
		}
		if err := b.Observe(0, 0, t0); err == nil {
			t.Error("a zero limit was accepted")
		}
	})
}

func TestHoldsFromA429(t *testing.T) {
	eachMode(t, 100, time.Minute, func(t *testing.T, b *Budget, clk *clock.Fake) {
		t0 := clk.Now()
		if err := b.HoldUntil(Hold{Reason: RetryAfter, Until: t0.Add(7 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		// An earlier hold does not shorten a later one.
		if err := b.HoldUntil(Hold{Reason: Backoff, Until: t0.Add(time.Second)}); err != nil {
			t.Fatal(err)
		}
		if _, h := take(t, b); h.Reason != RetryAfter || !h.Until.Equal(t0.Add(7*time.Second)) {
			t.Fatalf("take during Retry-After held %+v", h)
		}
		if u, _ := b.Count(); u != 0 {
			t.Errorf("a held take was counted: %d", u)
		}
		clk.Advance(7 * time.Second)
		if _, h := take(t, b); !h.IsZero() {
			t.Errorf("take after the hold held %+v", h)
		}
		if err := b.HoldUntil(Hold{Reason: Spent, Until: t0.Add(time.Hour)}); err == nil {
			t.Error("a spent budget was accepted as a hold to record")
		}
	})
}

// TestSharedBetweenBudgets: two budgets on one directory (two processes,
// or two clients of one) count together and see each other's holds.
func TestSharedBetweenBudgets(t *testing.T) {
	t.Parallel()
	clk := newClock()
	dir := t.TempDir()
	a, b := open(t, dir, clk, 4, time.Minute), open(t, dir, clk, 4, time.Minute)
	for _, x := range []*Budget{a, b, a} {
		if _, h := take(t, x); !h.IsZero() {
			t.Fatal("take refused below the limit")
		}
	}
	fresh := open(t, dir, clk, 4, time.Minute)
	if u, l := fresh.Count(); u != 3 || l != 4 {
		t.Errorf("a new budget on the directory counts %d/%d, want 3/4", u, l)
	}
	take(t, b)
	if _, h := take(t, a); h.Reason != Spent {
		t.Errorf("fifth take across two budgets held %+v, want spent", h)
	}
	if err := b.HoldUntil(Hold{Reason: Backoff, Until: clk.Now().Add(2 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute) // the window is free again; the hold still stands
	if _, h := take(t, a); h.Reason != Backoff {
		t.Errorf("another budget's backoff was not seen: %+v", h)
	}
	other, err := Open(dir, "other.example.com", Config{Limit: 4, Window: time.Minute, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, h := take(t, other); !h.IsZero() {
		t.Errorf("another host shares the budget: %+v", h)
	}
}

// TestRemovedFileIsReopened: a budget whose file was removed (or
// replaced) under it works on the new one, as every other process does.
func TestRemovedFileIsReopened(t *testing.T) {
	t.Parallel()
	clk := newClock()
	dir := t.TempDir()
	a := open(t, dir, clk, 5, time.Minute)
	take(t, a)
	if err := os.Remove(a.Path()); err != nil {
		t.Fatal(err)
	}
	b := open(t, dir, clk, 5, time.Minute)
	take(t, b)
	take(t, a)
	clk.Advance(time.Second) // past the read cache
	for name, x := range map[string]*Budget{"a": a, "b": b} {
		if u, _ := x.Count(); u != 2 {
			t.Errorf("%s counts %d, want the 2 sends recorded since the removal", name, u)
		}
	}
	if u, _ := b.Count(); u != 2 {
		t.Errorf("b counts %d before its cache expires, want 2", u)
	}
}

// TestClosedBudgetTouchesNoFile: a request still in flight when its
// program ends (a command the UI started) neither counts nor creates the
// budget's files again, in a state directory that may be being removed.
func TestClosedBudgetTouchesNoFile(t *testing.T) {
	t.Parallel()
	clk := newClock()
	dir := t.TempDir()
	b := open(t, dir, clk, 5, time.Minute)
	take(t, b)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{b.Path(), b.Path() + ".lock"} {
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := b.Take(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Take after Close: %v, want ErrClosed", err)
	}
	if err := b.HoldUntil(Hold{Reason: RetryAfter, Until: clk.Now().Add(time.Minute)}); !errors.Is(err, ErrClosed) {
		t.Errorf("HoldUntil after Close: %v, want ErrClosed", err)
	}
	clk.Advance(time.Second) // past the read cache
	if u, _ := b.Count(); u != 1 {
		t.Errorf("Count after Close = %d, want the 1 send it last knew", u)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files made after Close: %v", left)
	}
}

func TestDamagedFileIsReset(t *testing.T) {
	t.Parallel()
	valid := (&state{sends: []int64{1, 2}}).encode(nil)
	unsorted := (&state{sends: []int64{5, 2}}).encode(nil)
	cases := map[string][]byte{
		"foreign text":    []byte("# my notes\nnot a budget\n"),
		"truncated":       valid[:headerLen+4],
		"unsorted sends":  unsorted,
		"huge count":      append([]byte(magic), make([]byte, 64)...),
		"too large":       make([]byte, maxFile+1),
		"empty":           {},
		"bad hold reason": (&state{hold: 1 << 62, reason: 9}).encode(nil),
	}
	cases["huge count"][8+8*7] = 0xff
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			clk := newClock()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, fileName(host)), content, 0o600); err != nil {
				t.Fatal(err)
			}
			b := open(t, dir, clk, 3, time.Minute)
			if u, _ := b.Count(); u != 0 {
				t.Errorf("count = %d from a damaged file", u)
			}
			if _, h := take(t, b); !h.IsZero() {
				t.Errorf("take held %+v", h)
			}
			got, err := os.ReadFile(b.Path())
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := decode(got); !ok || len(s.sends) != 1 {
				t.Errorf("the file was not rewritten: %d bytes, ok %v", len(got), ok)
			}
		})
	}
}

func TestImplausibleTimesAreDropped(t *testing.T) {
	t.Parallel()
	clk := newClock()
	dir := t.TempDir()
	now := clk.Now().UnixNano()
	far := now + int64(2*maxHold)
	s := state{hold: far, reason: 1, srv: server{at: now, limit: 10, remaining: 0, reset: far}, sends: []int64{now, far}}
	if err := os.WriteFile(filepath.Join(dir, fileName(host)), s.encode(nil), 0o600); err != nil {
		t.Fatal(err)
	}
	b := open(t, dir, clk, 3, time.Minute)
	if _, h := take(t, b); !h.IsZero() {
		t.Errorf("a hold a year away was obeyed: %+v", h)
	}
	if u, l := b.Count(); u != 2 || l != 3 {
		t.Errorf("count = %d/%d; want 2/3 (the far send and the server's count dropped)", u, l)
	}
}

// TestFileStaysBounded: whatever the traffic, the file holds the window's
// sends only, and never more than MaxSends.
func TestFileStaysBounded(t *testing.T) {
	t.Parallel()
	clk := newClock()
	b := open(t, t.TempDir(), clk, 50, time.Second)
	for range 500 {
		if _, h := take(t, b); !h.IsZero() {
			clk.Advance(h.Until.Sub(clk.Now()))
		}
		clk.Advance(5 * time.Millisecond)
	}
	fi, err := os.Stat(b.Path())
	if err != nil {
		t.Fatal(err)
	}
	if most := int64(headerLen + 8*50); fi.Size() > most {
		t.Errorf("file is %d bytes, want at most %d (the window's 50 sends)", fi.Size(), most)
	}

	big := open(t, t.TempDir(), clk, 1<<30, time.Hour)
	if _, l := big.Count(); l != MaxSends {
		t.Errorf("a shared limit of 2^30 counts as %d, want it capped at %d", l, MaxSends)
	}
	s := state{}
	for i := range MaxSends + 10 {
		s.add(int64(i+1), MaxSends)
	}
	if len(s.sends) != MaxSends || s.sends[0] != 11 {
		t.Errorf("add keeps %d sends from %d", len(s.sends), s.sends[0])
	}
}

func TestLockedByAnotherProcess(t *testing.T) {
	t.Parallel()
	clk := newClock()
	dir := t.TempDir()
	b, err := Open(dir, host, Config{Limit: 3, Window: time.Minute, Now: clk.Now, LockTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	take(t, b)
	// A second flock on the lock file stands for another process: flock(2)
	// locks are per open file, so it excludes this one too.
	other := flock.New(b.Path() + ".lock")
	if err := other.Lock(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Unlock() }()
	_, _, err = b.Take(context.Background())
	var fe *FileError
	if !errors.As(err, &fe) || !errors.Is(err, ErrLocked) || fe.Path != b.Path() {
		t.Fatalf("Take under another's lock: %v", err)
	}
	clk.Advance(time.Second) // past the read cache
	if u, _ := b.Count(); u != 1 {
		t.Errorf("Count under another's lock = %d, want the last count read (1)", u)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := b.Take(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Take with a cancelled context: %v", err)
	}
}

func TestOpenRefusesWhatCannotWork(t *testing.T) {
	t.Parallel()
	clk := newClock()
	if _, err := New(Config{Limit: 0, Window: time.Minute}); err == nil {
		t.Error("New accepted a zero limit")
	}
	if _, err := Open(t.TempDir(), "", Config{Limit: 1, Window: time.Minute}); err == nil {
		t.Error("Open accepted an empty host")
	}
	file := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(file, host, Config{Limit: 1, Window: time.Minute, Now: clk.Now})
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Errorf("Open under a plain file: %v", err)
	}
}

// TestALinkPlantedForTheFileIsRefused: a symbolic link where the budget's
// file or its lock should be is refused with an error that names it, and
// its target is left as it was, whether the link is there at Open or
// replaces the file later.
func TestALinkPlantedForTheFileIsRefused(t *testing.T) {
	t.Parallel()
	clk := newClock()
	for _, planted := range []string{fileName(host), fileName(host) + ".lock"} {
		dir := t.TempDir()
		target := filepath.Join(t.TempDir(), "precious")
		if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, planted)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir, host, Config{Limit: 10, Window: time.Minute, Now: clk.Now})
		var fe *FileError
		if !errors.As(err, &fe) || fe.Path != link || !errors.Is(err, ErrLink) {
			t.Errorf("%s is a link: Open = %v", planted, err)
		}
		if got, _ := os.ReadFile(target); string(got) != "keep me" {
			t.Errorf("%s is a link: its target now holds %q", planted, got)
		}
	}

	dir := t.TempDir()
	b := open(t, dir, clk, 10, time.Minute)
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(b.Path()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, b.Path()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Take(context.Background()); !errors.Is(err, ErrLink) {
		t.Errorf("a link replaced the file: Take = %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "keep me" {
		t.Errorf("a link replaced the file: its target now holds %q", got)
	}
}

func TestFileNameKeepsHostsApart(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"api.example.com":  "budget-api.example.com",
		"API.Example.com":  "budget-api.example.com",
		"127.0.0.1:8080":   "budget-127.0.0.1_3a8080",
		"[::1]:8080":       "budget-_5b_3a_3a1_5d_3a8080",
		"a_b":              "budget-a_5fb",
		"../../etc/passwd": "budget-.._2f.._2fetc_2fpasswd",
	}
	for in, want := range cases {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
	if fileName("a:b") == fileName("a_3ab") {
		t.Error("two hosts share a file name")
	}
}

// BenchmarkTake is the cost of one shared take: lock, read, decode,
// encode, write, unlock, with the window holding about limit sends.
func BenchmarkTake(b *testing.B) {
	for _, limit := range []int{20, 2000} {
		b.Run(fmt.Sprintf("sends=%d", limit), func(b *testing.B) {
			clk := newClock()
			bg := open(b, b.TempDir(), clk, limit, time.Minute)
			// Fill the window, then advance so that each take frees one
			// slot: the file stays at limit sends.
			step := time.Minute / time.Duration(limit)
			for range limit {
				if _, _, err := bg.Take(context.Background()); err != nil {
					b.Fatal(err)
				}
				clk.Advance(step)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, h, err := bg.Take(context.Background())
				if err != nil || !h.IsZero() {
					b.Fatalf("take: %+v, %v", h, err)
				}
				clk.Advance(step)
			}
		})
	}
}

// BenchmarkCount is the footer's poll of a window holding 2,000 sends:
// served from the read cache, or (uncached) re-read from the file every
// time, as when the polls are further apart than readTTL.
func BenchmarkCount(b *testing.B) {
	for _, uncached := range []bool{false, true} {
		name := "cached"
		if uncached {
			name = "uncached"
		}
		b.Run(name, func(b *testing.B) {
			clk := newClock()
			bg := open(b, b.TempDir(), clk, 2000, time.Hour)
			for range 2000 {
				if _, _, err := bg.Take(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			step := readTTL
			for b.Loop() {
				if uncached {
					// Back and forth: the cache is stale either way, and
					// the sends stay in the window.
					clk.Advance(step)
					step = -step
				}
				if u, _ := bg.Count(); u != 2000 {
					b.Fatalf("count = %d", u)
				}
			}
		})
	}
}
