package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

const testConsentURL = "https://consent.example/payments/payment-1?consentId=consent-1"

// consentDriver is an account's Overview where sending a transfer waits
// for the user's consent at url.
func consentDriver(t *testing.T, fx fixture, url string) (*driver, *fakeSimulator) {
	t.Helper()
	d := newDriverWith(t, fx, withAccountTxs)
	sim := withSimulator(d)
	sim.initiated = &api.Payment{ID: "payment-1", Status: "ConsentPending", ConsentURL: url, TransactionIDs: []string{}}
	d.press("enter", "s", "down", "down", "down")
	d.wantScreen("Simulate ▸ send a transfer")
	d.press("enter")
	d.wantScreen("The transfer waits for your consent (payment payment-1)")
	return d, sim
}

// fireConsent delivers the consent wait's parked timer.
func (d *driver) fireConsent() int {
	d.t.Helper()
	return d.fire(func(m tea.Msg) bool { _, ok := m.(consentTickMsg); return ok })
}

// A transfer waiting for consent shows its page's address, which o opens
// in the browser and c copies; the payment is read until the user has
// answered, and its transfer is then followed like any simulated one.
func TestConsentPendingTransferIsFollowedToItsAnswer(t *testing.T) {
	t.Parallel()
	d, sim := consentDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, testConsentURL)
	for _, want := range []string{"Consent", "payment payment-1 · waiting for your consent", testConsentURL} {
		d.wantScreen(want)
	}
	if help := d.account().ShortHelp(); !hasKey(help, "o") || !hasKey(help, "c") {
		t.Fatalf("help %v: want o and c", help)
	}
	d.press("?")
	d.wantScreen("open the consent page")
	d.wantScreen("copy the consent link")
	d.press("?")
	d.press("c")
	d.wantScreen("Consent link copied")
	if len(d.copied) != 1 || d.copied[0] != testConsentURL {
		t.Fatalf("copied %q, want the consent link", d.copied)
	}
	d.press("o")
	d.wantScreen("The consent page is open in your browser")
	if len(d.opened) != 1 || d.opened[0] != testConsentURL {
		t.Fatalf("opened %q, want the consent page", d.opened)
	}

	// No answer yet: read again later (o started the reading over: the
	// first chain's timer is dropped).
	d.fireConsent()
	if sim.reads != 1 {
		t.Fatalf("%d payment reads, want 1", sim.reads)
	}
	d.wantScreen("waiting for your consent")
	// Accepted: the transfer was sent.
	sim.paid = &api.Payment{ID: "payment-1", Status: "Initiated", TransactionIDs: []string{"sim-tx"}}
	d.fireConsent()
	if sim.reads != 2 {
		t.Fatalf("%d payment reads after the answer, want 2", sim.reads)
	}
	screen := d.screen()
	if !strings.Contains(screen, "Sent 10.00 EUR (payment payment-1)") || !strings.Contains(screen, "sim-tx · outgoing transfer") {
		t.Fatalf("the answered payment is not followed:\n%s", screen)
	}
	if strings.Contains(screen, testConsentURL) || hasKey(d.account().ShortHelp(), "o") {
		t.Fatalf("the consent is still offered after the answer:\n%s", screen)
	}
	if n := d.fireConsent(); n != 0 {
		t.Errorf("%d consent reads after the answer, want none", n)
	}
}

// A refused consent says so; the wait ends.
func TestConsentRefusedSaysSo(t *testing.T) {
	t.Parallel()
	d, sim := consentDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, testConsentURL)
	sim.paid = &api.Payment{ID: "payment-1", Status: "Rejected", RejectedReason: "ConsentRefused", TransactionIDs: []string{}}
	d.fireConsent()
	d.wantScreen("The transfer was rejected: ConsentRefused")
	if strings.Contains(d.screen(), testConsentURL) {
		t.Fatalf("the refused consent is still shown:\n%s", d.screen())
	}
}

// Over SSH no browser would reach the user: only the copy is offered, and
// the line says why.
func TestConsentOverSSHOffersTheCopyOnly(t *testing.T) {
	t.Parallel()
	d, _ := consentDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40, headless: true}, testConsentURL)
	d.wantScreen("no browser opens from here, c copies the link")
	help := d.account().ShortHelp()
	if hasKey(help, "o") || !hasKey(help, "c") {
		t.Fatalf("help %v: want c and no o", help)
	}
	d.press("o")
	if len(d.opened) != 0 {
		t.Fatalf("a browser was started over SSH: %q", d.opened)
	}
}

// Only a web page is opened: https, or http on this machine (the
// emulator's); any other address is left to the copy.
func TestConsentOpensOnlyAWebPage(t *testing.T) {
	t.Parallel()
	for address, opens := range map[string]bool{
		testConsentURL: true,
		"http://127.0.0.1:8080/sandbox-consent?consentId=c": true,
		"http://localhost:8080/sandbox-consent":             true,
		"http://consent.example/plain-http":                 false,
		"file:///etc/passwd":                                false,
		"javascript:alert(1)":                               false,
		"https://user:pass@consent.example/":                false,
	} {
		if got := webPage(address); got != opens {
			t.Errorf("webPage(%q) = %v, want %v", address, got, opens)
		}
	}
	d, _ := consentDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, "file:///etc/passwd")
	d.press("o")
	d.wantScreen("The consent address is not a web page, so no browser opens it; c copies it.")
	if len(d.opened) != 0 {
		t.Fatalf("opened %q", d.opened)
	}
}

// The reading stops after consentPolls unanswered reads; opening the page
// again starts it over.
func TestConsentReadingIsBounded(t *testing.T) {
	t.Parallel()
	d, sim := consentDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, testConsentURL)
	for i := range consentPolls {
		if n := d.fireConsent(); n != 1 {
			t.Fatalf("read %d: %d timers fired, want 1", i, n)
		}
	}
	if n := d.fireConsent(); n != 0 {
		t.Fatalf("%d reads after %d unanswered ones, want none", n, consentPolls)
	}
	d.wantScreen("no answer yet, and no longer read: o opens the page and reads it again")
	d.press("o")
	if n := d.fireConsent(); n != 1 || sim.reads != consentPolls+1 {
		t.Fatalf("%d timers and %d reads after o, want 1 and %d", n, sim.reads, consentPolls+1)
	}
	d.wantScreen(fmt.Sprintf("payment %s · waiting for your consent", "payment-1"))
}
