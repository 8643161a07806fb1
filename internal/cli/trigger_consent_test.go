package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit/consent"
)

// signalBuffer is a stderr that tells the test each time it is written.
type signalBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	written chan struct{}
}

func (s *signalBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.b.Write(p)
	select {
	case s.written <- struct{}{}:
	default:
	}
	return n, err
}

func (s *signalBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// consentURLIn waits until stderr names a consent URL, or the run ends.
func consentURLIn(t *testing.T, errb *signalBuffer, done <-chan int) string {
	t.Helper()
	re := regexp.MustCompile(`open (http\S+-consent\?\S+)`)
	for {
		if m := re.FindStringSubmatch(errb.String()); m != nil {
			return m[1]
		}
		select {
		case <-errb.written:
		case code := <-done:
			t.Fatalf("trigger ended (exit %d) without naming a consent URL: %s", code, errb.String())
		}
	}
}

// manualConsentEmulator is triggerEmulator's, whose signed-in demo user
// does not consent automatically.
func manualConsentEmulator(t *testing.T) string {
	t.Helper()
	e, cfg, _ := triggerEmulatorOf(t)
	consent.Manual(t, userClient(t, e), e.DemoUser(t, config.Sandbox).UserID)
	return cfg
}

// TestTriggerWaitsForTheConsent: signed in as a user who does not consent
// automatically, transfer-sent-booked names the payment's consent URL and
// waits; once the consent page is answered (Accept), the transfer is sent
// and the run goes on to book it.
func TestTriggerWaitsForTheConsent(t *testing.T) {
	cfg := manualConsentEmulator(t)
	var out bytes.Buffer
	errb := &signalBuffer{written: make(chan struct{}, 1)}
	done := make(chan int, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	go func() {
		done <- Run(ctx, IO{In: strings.NewReader(""), Out: &out, Err: errb},
			[]string{"trigger", "--config", cfg, "--json", "--interval", "20ms", "--timeout", "30s", "transfer-sent-booked"})
	}()
	consentURL := consentURLIn(t, errb, done)
	if !strings.Contains(errb.String(), "Waiting up to 30s for the answer") {
		t.Errorf("the wait is not announced: %s", errb.String())
	}
	consent.Answer(t, consentURL, "accept")
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d after the consent: %s", code, errb.String())
	}
	var rep triggerReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out.String())
	}
	if len(rep.Steps) != 2 || rep.Steps[0].Outputs["transactionId"] == "" || len(rep.Missing) != 0 {
		t.Errorf("steps %+v, missing %v", rep.Steps, rep.Missing)
	}
}

// TestTriggerConsentNeverGiven: without an answer the run ends at
// --timeout naming the consent URL; with --timeout 0 it does not wait.
func TestTriggerConsentNeverGiven(t *testing.T) {
	cfg := manualConsentEmulator(t)
	code, _, errOut := runTriggerJSON(t, cfg, "transfer-sent-booked", "--timeout", "100ms")
	if code == ExitOK || !strings.Contains(errOut, "got no answer to its consent within 100ms") || !strings.Contains(errOut, "-consent?") {
		t.Errorf("no answer: exit %d, stderr %s", code, errOut)
	}
	code, _, errOut = runTriggerJSON(t, cfg, "transfer-sent-booked", "--timeout", "0")
	if code == ExitOK || !strings.Contains(errOut, "waits for the user's consent") || strings.Contains(errOut, "Waiting up to") {
		t.Errorf("--timeout 0: exit %d, stderr %s", code, errOut)
	}
}
