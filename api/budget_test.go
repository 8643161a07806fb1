package api

import (
	"net/http"
	"testing"
	"time"
)

func TestBudgetSlidingWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := budget{limit: 3, window: time.Minute}
	for i := range 3 {
		if ok, _ := b.take(t0.Add(time.Duration(i) * 10 * time.Second)); !ok {
			t.Fatalf("take %d refused", i)
		}
	}
	ok, wake := b.take(t0.Add(30 * time.Second))
	if ok || !wake.Equal(t0.Add(time.Minute)) {
		t.Fatalf("4th take = %v, %v; want refused until %v", ok, wake, t0.Add(time.Minute))
	}
	if u := b.used(t0.Add(59 * time.Second)); u != 3 {
		t.Errorf("used before expiry = %d", u)
	}
	if u := b.used(t0.Add(time.Minute)); u != 2 {
		t.Errorf("used at expiry of the first = %d", u)
	}
	if ok, _ := b.take(t0.Add(time.Minute)); !ok {
		t.Error("take refused once a slot freed")
	}
	b.release(t0.Add(time.Minute))
	if u := b.used(t0.Add(time.Minute)); u != 2 {
		t.Errorf("used after release = %d", u)
	}
}

func TestBudgetServerHeaders(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := budget{limit: 2000, window: 5 * time.Minute}
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "1000")
	h.Set("X-RateLimit-Remaining", "1")
	h.Set("X-RateLimit-Reset", "120")
	b.observe(h, t0)
	if b.capacity() != 1000 || b.used(t0) != 999 {
		t.Fatalf("capacity/used = %d/%d", b.capacity(), b.used(t0))
	}
	if ok, _ := b.take(t0); !ok {
		t.Fatal("last server slot refused")
	}
	ok, wake := b.take(t0.Add(time.Second))
	if ok || !wake.Equal(t0.Add(120*time.Second)) {
		t.Errorf("take after the server's last slot = %v, %v", ok, wake)
	}
	// After the server's reset the local count is what is left.
	if u := b.used(t0.Add(121 * time.Second)); u != 1 {
		t.Errorf("used after reset = %d", u)
	}
	// Unix-timestamp reset and junk headers.
	h.Set("X-RateLimit-Reset", "1767225900")
	b.observe(h, t0)
	if !b.srvReset.Equal(time.Unix(1767225900, 0)) {
		t.Errorf("reset = %v", b.srvReset)
	}
	before := b
	h.Set("X-RateLimit-Remaining", "lots")
	b.observe(h, t0)
	if b.srvRemaining != before.srvRemaining {
		t.Error("junk header changed the estimate")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"7", now.Add(7 * time.Second), true},
		{"0", now, true},
		{now.Add(time.Hour).Format(http.TimeFormat), now.Add(time.Hour), true},
		{now.Add(-time.Hour).Format(http.TimeFormat), now, true},
		{"", time.Time{}, false},
		{"-3", time.Time{}, false},
		{"soon", time.Time{}, false},
	}
	for _, tc := range cases {
		got, ok := parseRetryAfter(tc.in, now)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
