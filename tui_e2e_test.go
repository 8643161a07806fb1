package main

import (
	"strings"
	"testing"
)

// TestTmuxWholeAccount walks the whole account in a real terminal: an
// account opened with the : palette, its members, a member's card, back,
// its transactions, one transaction.
func TestTmuxWholeAccount(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)

	// The demo's data is the same on every run: the command line names
	// the account where the demo user holds a card.
	var cards []struct {
		AccountMembership struct {
			AccountID string `json:"accountId"`
		} `json:"accountMembership"`
	}
	demoJSON(t, tm, bin, &cards, "cards", "--json")
	if len(cards) == 0 {
		t.Fatal("the demo user has no cards")
	}
	account := cards[0].AccountMembership.AccountID

	startDemoAt(tm, 120, 40, bin, "account "+account)
	tm.waitFor("account overview", "Overview", "Your rights", "IBAN")

	tm.keys("3")
	tm.waitFor("members", "V B P M C", "row 1 of")
	// The demo user is one of the members: the one with cards.
	for i := 0; ; i++ {
		tm.keys("Enter")
		tm.waitFor("member", "Rights", "Cards (")
		if !strings.Contains(tm.capture(), "Cards (0)") {
			break
		}
		if i == 10 {
			t.Fatalf("no member of the account has a card:\n%s", tm.capture())
		}
		// esc then j at once would read as alt+j: wait for the list.
		tm.keys("Escape")
		tm.waitFor("members", "V B P M C")
		tm.keys("j")
	}
	tm.waitFor("the member's cards", "row 1 of")
	tm.keys("Enter")
	tm.waitFor("card", "Options", "Limits", "m opens it")
	tm.keys("Escape")
	tm.waitFor("back on the member", "Cards (", "Rights")
	tm.keys("Escape")
	tm.waitFor("back on the members", "V B P M C")

	tm.keys("2")
	tm.waitFor("transactions", "Counterparty · label", "row 1 of")
	tm.keys("Enter")
	tm.waitFor("transaction", "Executed", "Counterparty", "a opens it")
	tm.keys("a")
	tm.waitFor("back on the account", "Overview", "Transactions", "row 1 of")
	tm.keys("q")
	tm.waitExit()
}
