package ui

import (
	"strings"
	"testing"
)

// TestQRFits80x24: the IBAN's QR code (33 modules and a 4-module quiet
// zone, in half blocks) fits 80×24 once the header and the tab bar step
// aside; the hint line and the footer stay, and closing it brings the
// chrome back.
func TestQRFits80x24(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 80, h: 24})
	d.press("enter", "Q")
	screen := d.screen()
	if strings.Contains(screen, "too small") || !strings.Contains(screen, "EPC payment QR") {
		t.Fatalf("the QR code does not fit 80×24:\n%s", screen)
	}
	lines := strings.Split(screen, "\n")
	if len(lines) != 24 || !strings.Contains(lines[22], "close QR code") || !strings.Contains(lines[23], "SANDBOX") {
		t.Fatalf("the hint line and the footer are not under the QR code:\n%s", screen)
	}
	d.press("esc")
	d.wantScreen("partnertui Accounts")
	d.wantScreen("Overview │ Transactions")
}
