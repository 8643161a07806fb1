package platform

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter bounds a Retry-After in seconds, so that an absurd value
// cannot overflow a time.Duration into the past.
const maxRetryAfter = 365 * 24 * time.Hour

// RetryAt reads a 429's Retry-After header, which both the API and the
// authorization server send: delay-seconds or an HTTP date (RFC 9110
// §10.2.3). ok is false when v says nothing usable; a date in the past
// means now.
func RetryAt(v string, now time.Time) (at time.Time, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return time.Time{}, false
		}
		return now.Add(time.Duration(min(n, int64(maxRetryAfter/time.Second))) * time.Second), true
	}
	if t, err := http.ParseTime(v); err == nil {
		if t.Before(now) {
			return now, true
		}
		return t, true
	}
	return time.Time{}, false
}
