package main

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"testing"
)

// TestTmuxChartRedrawsAfterASimulatedTransfer: the real binary under
// --demo draws an account's booked balance on its Overview; a transfer
// received from the Overview's simulations is booked by the demo's
// platform a few seconds later, and the chart redraws by itself, r never
// pressed: one booking more, and in over the period that much higher.
func TestTmuxChartRedrawsAfterASimulatedTransfer(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	var accounts []struct {
		ID         string `json:"id"`
		IBAN       string `json:"IBAN"`
		Currency   string `json:"currency"`
		StatusInfo struct {
			Status string `json:"status"`
		} `json:"statusInfo"`
	}
	demoJSON(t, tm, bin, &accounts, "accounts", "--json")
	id := ""
	for _, a := range accounts {
		if a.StatusInfo.Status == "Opened" && a.IBAN != "" && a.Currency == "EUR" {
			id = a.ID
			break
		}
	}
	if id == "" {
		t.Fatalf("none of the demo user's %d accounts is an Opened EUR account with an IBAN", len(accounts))
	}

	startDemoAt(tm, bin, "account "+id)
	tm.waitFor("the chart", "Booked balance · last 30 days", "; adds up with", "Pending")
	screen := tm.capture()
	bookings, in := chartFigures(t, screen)

	tm.keys("s")
	tm.waitFor("the transfer's form", "Simulate ▸ receive a transfer", "Amount:")
	tm.keys("321.09", "Enter")
	tm.waitFor("the transfer received", "Received 321.09 EUR")
	in.Add(in, big.NewRat(32109, 100))
	tm.waitFor("the chart redrawn with the transfer booked", fmt.Sprintf("✓ %d bookings;", bookings+1), "+"+in.FloatString(2)+" ")
	tm.keys("q")
	tm.waitExit()
}

var (
	chartBookings = regexp.MustCompile(`✓ (\d+) bookings?;`)
	chartIn       = regexp.MustCompile(`(?m)^In +\+?([0-9]+\.[0-9]{2}) `)
)

// chartFigures reads the chart's bookings and its in over the period off
// the screen.
func chartFigures(t *testing.T, screen string) (int, *big.Rat) {
	t.Helper()
	b, in := chartBookings.FindStringSubmatch(screen), chartIn.FindStringSubmatch(screen)
	if b == nil || in == nil {
		t.Fatalf("no bookings or in on the chart:\n%s", screen)
	}
	n, _ := strconv.Atoi(b[1])
	v, ok := new(big.Rat).SetString(in[1])
	if !ok {
		t.Fatalf("in is %q", in[1])
	}
	return n, v
}
