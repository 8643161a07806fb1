package main

import "testing"

// TestTmuxEventsEndToEnd is issue 11's story in a real terminal: simulate
// a transfer from an account, see Transaction.Booked appear in the Events
// view, open it, jump to the transaction.
func TestTmuxEventsEndToEnd(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	tm.start(120, 40, bin, "--demo")
	tm.waitFor("sign-in screen", "Sign in", "SANDBOX")
	tm.keys("a")
	tm.waitFor("account list", "Accounts", "FR76")
	tm.keys("Enter")
	tm.waitFor("account overview", "IBAN", "Your rights")
	tm.keys("s", "2", "5", "Enter")
	tm.waitFor("simulated transfer", "Received 25 ", "(simulated transfer)")
	// The account's events first (its Account.Updated once booked), then
	// every event: the transfer is Pending for 3 s, then Booked.
	tm.keys("E")
	tm.waitFor("the account's events", "Events (", "account ")
	tm.keys("Escape")
	tm.waitFor("the booked transfer's event", "Transaction.Booked", "live")
	// Only that type, so the event is the first row.
	tm.keys("t")
	tm.keys("Transaction.Booked")
	tm.keys("Enter")
	tm.waitFor("the filtered log", "type Transaction.Booked")
	tm.keys("Enter")
	tm.waitFor("the event", `"eventType": "Transaction.Booked"`, "(enter opens it)")
	tm.keys("Enter")
	tm.waitFor("the transaction", "25", "Booked")
	tm.keys("q")
	tm.waitExit()
}
