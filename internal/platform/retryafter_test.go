package platform

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAt(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"7", now.Add(7 * time.Second), true},
		{" 7 ", now.Add(7 * time.Second), true},
		{"0", now, true},
		{now.Add(time.Hour).Format(http.TimeFormat), now.Add(time.Hour), true},
		{now.Add(-time.Hour).Format(http.TimeFormat), now, true},
		{"99999999999999", now.Add(maxRetryAfter), true}, // would overflow a Duration
		{"", time.Time{}, false},
		{"-3", time.Time{}, false},
		{"12abc", time.Time{}, false},
		{"soon", time.Time{}, false},
	}
	for _, tc := range cases {
		got, ok := RetryAt(tc.in, now)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("RetryAt(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
