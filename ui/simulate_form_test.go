package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// badIBAN is a French IBAN with its last digit changed: its check digits
// do not match.
const badIBAN = "FR76 3000 6000 0112 3456 7890 188"

// sendTransferForm opens the Overview's "send a transfer" with the IBAN
// field focused.
func sendTransferForm(d *driver) {
	d.press("enter", "s", "up", "tab")
	d.wantScreen("Simulate ▸ send a transfer")
}

// The send-transfer form checks the IBAN's check digits before anything
// is sent: a wrong one keeps the form open and says why; the right one
// sends.
func TestSendTransferChecksTheIBAN(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	sim := withSimulator(d)
	sendTransferForm(d)
	d.typeText(badIBAN)
	d.press("enter")
	d.wantScreen("✗ enter a valid IBAN (check digits do not match)")
	if len(sim.ran) != 0 || !d.overview().sim.panel.open {
		t.Fatalf("a transfer to a wrong IBAN was sent (%v), or its form closed", sim.ran)
	}
	d.press("backspace")
	d.typeText("9") // FR76 3000 6000 0112 3456 7890 189
	d.press("enter")
	d.wantScreen("Sent 10.00 EUR (payment payment-1)")
	if fmt.Sprint(sim.ran) != "[send]" {
		t.Fatalf("ran %v, want the transfer", sim.ran)
	}
}

// A project token is not offered a simulation only a user can run: the
// Overview's menu has no "send a transfer" (initiateCreditTransfers needs
// the user's consent); a user's has.
func TestProjectTokenIsNotOfferedUserSimulations(t *testing.T) {
	t.Parallel()
	for _, project := range []bool{false, true} {
		d := newDriver(t, fixture{rows: 3, signedIn: !project, project: project})
		withSimulator(d)
		d.press("enter", "s")
		d.wantScreen("Simulate ▸ receive a transfer")
		menu := strings.Join(d.overview().sim.panel.lines(200), "\n")
		if got := strings.Contains(menu, "send a transfer"); got == project {
			t.Errorf("project token %v: the menu offers send a transfer: %v\n%s", project, got, menu)
		}
		if !strings.Contains(menu, "charge a fee") {
			t.Errorf("project token %v: the menu lacks the other simulations:\n%s", project, menu)
		}
	}
}

// A label as long as the column keeps a space before its value (the card
// debit's "Transaction: bosci_…", not "Transaction:bosci_…").
func TestSimulationFormLabelsKeepASpace(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	p := newSimPanel(d.m.c, "simulate")
	p.show([]simAction{cardDebitSim(nil, "bosci_1234", "25.00")})
	lines := ansi.Strip(strings.Join(p.lines(80), "\n"))
	for _, want := range []string{"Transaction: bosci_1234", "Amount:     25.00"} {
		if !strings.Contains(lines, want) {
			t.Errorf("the form lacks %q:\n%s", want, lines)
		}
	}
}

// The QR code's hint names closing it once: esc/Q close it, and Q is not
// offered again to "close QR code".
func TestQRCodeHintSaysCloseOnce(t *testing.T) {
	t.Parallel()
	for _, closer := range []string{"esc", "Q"} {
		d := newDriver(t, fixture{rows: 3, signedIn: true})
		d.press("enter", "Q")
		d.wantScreen("EPC payment QR")
		if n := strings.Count(d.screen(), "close QR code"); n != 1 {
			t.Errorf("the QR code's hint offers to close it %d times:\n%s", n, d.screen())
		}
		d.wantScreen("esc/Q close QR code")
		d.press(closer)
		if d.overview().showQR {
			t.Errorf("%s left the QR code open", closer)
		}
		if _, ok := d.m.top().(*accountScreen); !ok {
			t.Errorf("%s left the account: top is %T", closer, d.m.top())
		}
	}
}

// TestGoldenSimulationForms snapshots the forms of issue 32's items 15 at
// 80×24 and 120×40: a transfer to a wrong IBAN, refused before it is sent;
// the Overview's menu with a project token. Refresh with go test ./ui -run
// TestGoldenSimulationForms -update.
func TestGoldenSimulationForms(t *testing.T) {
	t.Parallel()
	scenes := []struct {
		name    string
		project bool
		do      func(d *driver)
	}{
		{"transfer_bad_iban", false, func(d *driver) {
			sendTransferForm(d)
			d.typeText(badIBAN)
			d.press("enter")
		}},
		{"project_menu", true, func(d *driver) { d.press("enter", "s") }},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				d := newDriver(t, fixture{rows: 3, signedIn: !sc.project, project: sc.project, w: sz[0], h: sz[1], color: true})
				withSimulator(d)
				sc.do(d)
				golden.RequireEqual(t, asciiView(t, d))
			})
		}
	}
}

// A transfer's consent sends the browser back to the page the UI was
// given (Options.ConsentRedirect, a page of the process that loads);
// without one, or when it cannot be served, the transfer is still sent.
func TestTransferConsentReturnsToTheGivenPage(t *testing.T) {
	t.Parallel()
	const page = "http://127.0.0.1:43210/partnertui/consent-answered"
	for _, tc := range []struct {
		redirect func() (string, error)
		want     string
	}{
		{func() (string, error) { return page, nil }, page},
		{func() (string, error) { return "", errors.New("no port free") }, simRedirectURL},
		{nil, simRedirectURL},
	} {
		d := newDriver(t, fixture{rows: 3, signedIn: true})
		d.m.c.consentRedirect = tc.redirect
		sim := withSimulator(d)
		d.press("enter", "s", "up", "enter")
		d.wantScreen("Sent 10.00 EUR")
		if len(sim.sent) != 1 || sim.sent[0].ConsentRedirectURL != tc.want {
			t.Errorf("the transfer returns to %+v, want %s", sim.sent, tc.want)
		}
	}
}
