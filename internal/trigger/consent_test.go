package trigger

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/consent"
)

// consentURLIn waits until stderr names a consent URL, or the run ends.
func consentURLIn(t *testing.T, errb *testkit.Buffer, done <-chan error) string {
	t.Helper()
	re := regexp.MustCompile(`open (http\S+-consent\?\S+)`)
	for {
		if m := re.FindStringSubmatch(errb.String()); m != nil {
			return m[1]
		}
		select {
		case <-errb.Wrote():
		case err := <-done:
			t.Fatalf("the run ended (%v) without naming a consent URL: %s", err, errb.String())
		}
	}
}

// manualConsentWorld is a world whose demo user does not consent
// automatically.
func manualConsentWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, false)
	consent.Manual(t, w.User, w.Emu.DemoUser(t, config.Sandbox).UserID)
	return w
}

// TestTriggerWaitsForTheConsent: run by a user who does not consent
// automatically, transfer-sent-booked names the payment's consent URL and
// waits; once the consent page is answered (Accept), the transfer is sent
// and the run goes on to book it.
func TestTriggerWaitsForTheConsent(t *testing.T) {
	t.Parallel()
	w := manualConsentWorld(t)
	errb := testkit.NewBuffer()
	r := w.prepare(t, Options{Timeout: 30 * time.Second}, builtin(t, "transfer-sent-booked"), nil, errb)
	done := make(chan error, 1)
	go func() { done <- r.start() }()
	consentURL := consentURLIn(t, errb, done)
	if !strings.Contains(errb.String(), "Waiting up to 30s for the answer") {
		t.Errorf("the wait is not announced: %s", errb.String())
	}
	back := consent.Answer(t, consentURL, "accept")
	if err := <-done; err != nil {
		t.Fatalf("%v after the consent: %s", err, errb.String())
	}
	// The browser is sent back to a page that loads (issue 32, item 22).
	resp, err := http.Get(back)
	if err != nil {
		t.Fatalf("the consent sends the browser back to %q: %v", back, err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "go back to partnertui") {
		t.Errorf("the consent sends the browser back to %s: HTTP %d\n%s", back, resp.StatusCode, page)
	}
	rep := r.report(t)
	if len(rep.Steps) != 2 || rep.Steps[0].Outputs["transactionId"] == "" || len(rep.Missing) != 0 {
		t.Errorf("steps %+v, missing %v", rep.Steps, rep.Missing)
	}
}

// TestTriggerConsentNeverGiven: without an answer the run ends at the
// timeout naming the consent URL; with no timeout it does not wait.
func TestTriggerConsentNeverGiven(t *testing.T) {
	t.Parallel()
	w := manualConsentWorld(t)
	sc := builtin(t, "transfer-sent-booked")
	errb := testkit.NewBuffer()
	_, err := w.run(t, Options{Timeout: 100 * time.Millisecond}, sc, nil, errb)
	if err == nil || !strings.Contains(err.Error(), "got no answer to its consent within 100ms") || !strings.Contains(err.Error(), "-consent?") {
		t.Errorf("no answer: %v", err)
	}
	errb = testkit.NewBuffer()
	_, err = w.run(t, Options{}, sc, nil, errb)
	if err == nil || !strings.Contains(err.Error(), "waits for the user's consent") || strings.Contains(errb.String(), "Waiting up to") {
		t.Errorf("no timeout: %v, stderr %s", err, errb.String())
	}
}
