package cli

import (
	"bytes"
	"regexp"
	"testing"
	"time"
)

// TestStatusTimesCarryAZone: the access token's expiry says in which time
// zone it is.
func TestStatusTimesCarryAZone(t *testing.T) {
	t.Parallel()
	expiry := time.Now().Add(time.Hour)
	var b bytes.Buffer
	printStatus(&b, statusReport{Env: "sandbox", Token: "user", SignedIn: true, AccessExpiry: expiry, Works: true})
	want := regexp.MustCompile(`Access token: valid for \S+ \(until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d ` + regexp.QuoteMeta(expiry.Format("MST")) + `\)\n`)
	if !want.Match(b.Bytes()) {
		t.Errorf("status says:\n%s\nwant the expiry with its time zone (%s)", b.String(), expiry.Format("MST"))
	}
}
