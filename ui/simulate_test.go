package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit/consent"
)

// typeText presses each character of s.
func (f *flow) typeText(s string) {
	for _, r := range s {
		f.press(string(r))
	}
}

// signedInFlow is a flow against the emulator, signed in as the demo user
// on the account list.
func signedInFlow(t *testing.T, eo emulator.Options) *flow {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	f := newFlow(t, eo)
	f.waitFor("Sign in to Sandbox", "approve as the demo user")
	f.press("a")
	f.waitFor("row 1 of ", "Accounts")
	return f
}

// open jumps to a resource by id through the palette.
func (f *flow) open(what string) {
	f.press(":")
	f.typeText(what)
	f.press("enter")
}

// openIBANAccount opens an Opened account of the demo user with an IBAN,
// which transfers and direct debits can reach.
func (f *flow) openIBANAccount(t *testing.T) {
	t.Helper()
	var a API
	f.probe(func(m *Model) { a = m.env.API })
	page, err := a.Accounts(context.Background(), api.AccountsParams{First: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, acct := range page.Items {
		if acct.IBAN != "" && acct.StatusInfo.Status == "Opened" {
			f.open("account " + acct.ID)
			f.waitFor(acct.Name, "IBAN", "✓ valid")
			return
		}
	}
	t.Fatalf("none of %d accounts is opened with an IBAN", len(page.Items))
}

// The account's menu offers its four simulations; each runs on the
// emulator, says what it did and follows what it made: a received
// transfer is followed from Pending to Booked with no r.
func TestSimulateAccountMenuAgainstEmulator(t *testing.T) {
	t.Parallel()
	f := signedInFlow(t, emulator.Options{Accounts: 30, BookingDelay: 2 * time.Second})
	f.openIBANAccount(t)
	f.waitFor("s simulate transfer, fee…")

	f.press("s")
	f.waitFor("Simulate ▸ receive a transfer", "receive a direct debit · charge a fee · send a transfer", "enter run", "esc cancel")
	f.typeText("25")
	f.press("enter")
	f.waitFor("Received 25 EUR (simulated transfer)", "Simulated here", "transfer · 25.00 EUR · Pending")
	f.waitFor("The simulated transfer is Booked", "transfer · 25.00 EUR · Booked")

	// Defaults: enter alone runs the direct debit with the amount shown.
	f.press("s", "down")
	f.waitFor("Simulate ▸ receive a direct debit", "Amount:", "50.00", "Creditor:")
	f.press("enter")
	f.waitFor("Direct debit of 50.00 EUR received", "direct debit · 50.00 EUR · Booked")

	f.press("s", "down", "down")
	f.waitFor("Simulate ▸ charge a fee", "Fee type:", "DocumentIssuance")
	f.press("tab", "backspace", "backspace", "backspace", "backspace", "backspace")
	f.typeText("7")
	f.press("enter")
	f.waitFor("Charged a fee of 7 EUR", "fee · 7.00 EUR · Booked")

	f.press("s", "up")
	f.waitFor("Simulate ▸ send a transfer", "To IBAN:", "To name:")
	f.press("enter")
	// The flash and the followed row come in either order.
	f.waitFor("Sent 10.00 EUR", "outgoing transfer · 10.00 EUR")

	// A wrong amount keeps the form open and says why.
	f.press("s")
	f.typeText("abc")
	f.press("enter")
	f.waitFor("✗ enter a positive amount such as 100 or 12.50", "Simulate ▸ receive a transfer")
	f.press("esc")
}

// A user who does not consent automatically sends a transfer: the Overview
// shows the payment's consent page, o opens it, and once it is accepted in
// the browser the payment's transfer is followed with no r.
func TestSimulateTransferWaitsForConsentAgainstEmulator(t *testing.T) {
	t.Parallel()
	f := signedInFlow(t, emulator.Options{Accounts: 30})
	var a API
	f.probe(func(m *Model) { a = m.env.API })
	consent.Manual(t, a.(*api.Client), f.emu.DemoUser(t, config.Sandbox).UserID)
	f.openIBANAccount(t)
	f.press("s", "up")
	f.waitFor("Simulate ▸ send a transfer")
	f.press("enter")
	f.waitFor("The transfer waits for your consent (payment ", "Consent", "waiting for your consent", "-consent?consentId=")
	f.press("o")
	f.waitFor("The consent page is open in your browser")
	f.mu.Lock()
	opened := append([]string(nil), f.opened...)
	f.mu.Unlock()
	if len(opened) != 1 {
		t.Fatalf("opened %q, want the consent page", opened)
	}
	consent.Answer(t, opened[0], "accept")
	screen := f.waitFor("Sent 10.00 EUR (payment ", "outgoing transfer · 10.00 EUR")
	if strings.Contains(screen, "waiting for your consent") {
		t.Errorf("the consent is still shown after the answer:\n%s", screen)
	}
}

// enabledCard is a card of the demo user the platform can authorize
// payments on: Enabled, on an Opened account.
func enabledCard(t *testing.T, f *flow) api.Card {
	t.Helper()
	var a API
	f.probe(func(m *Model) { a = m.env.API })
	ctx := context.Background()
	page, err := a.Cards(ctx, api.CardsParams{First: 50, Statuses: []string{"Enabled"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range page.Items {
		if c.AccountMembership == nil {
			continue
		}
		d, err := a.AccountDetail(ctx, c.AccountMembership.AccountID, false)
		if err == nil && d.Account.StatusInfo.Status == "Opened" {
			return c
		}
	}
	t.Fatalf("none of %d enabled cards is on an opened account", len(page.Items))
	return api.Card{}
}

// A card's menu authorizes a payment, debits it (the authorization
// prefilled) and reverses the debit; the screen follows each transaction
// to its new status with no r.
func TestSimulateCardMenuAgainstEmulator(t *testing.T) {
	t.Parallel()
	f := signedInFlow(t, emulator.Options{Accounts: 3})
	card := enabledCard(t, f)
	f.open("card " + card.ID)
	f.waitFor(card.CardMaskedNumber, "s simulate a payment")

	f.press("s")
	f.waitFor("Simulate ▸ authorize", "debit · release · reverse")
	f.typeText("42")
	f.press("enter")
	f.waitFor("Authorized 42 EUR on the card", "card authorization · 42.00 EUR · Pending")

	f.press("s", "down")
	var auth string
	f.probe(func(m *Model) { auth = m.top().(*cardScreen).sim.follow.txs[0].id })
	f.waitFor("Simulate ▸ debit", "Transaction:", auth, "42.00")
	f.press("enter")
	f.waitFor("Debited 42.00 EUR from the card", "card debit · 42.00 EUR · Booked", "card authorization · 42.00 EUR · Released")

	f.press("s", "up")
	f.waitFor("Simulate ▸ reverse")
	f.press("enter")
	f.waitFor("Reversed 42.00 EUR of the card debit", "card debit reversal · 42.00 EUR · Booked")

	// Another authorization, released.
	f.press("s")
	f.typeText("5")
	f.press("enter")
	f.waitFor("Authorized 5 EUR on the card", "card authorization · 5.00 EUR · Pending")
	f.press("s", "down", "down")
	f.waitFor("Simulate ▸ release", "ManuallyReleased")
	f.press("enter")
	f.waitFor("Released the authorization", "card authorization · 5.00 EUR · Released · ManuallyReleased")

	// No Pending authorization is left to prefill: the form asks for one.
	f.press("s", "down", "down", "enter")
	f.waitFor("✗ enter the transaction")
	f.press("esc")
}

// A transaction's menu offers what its type and status allow: a Booked
// incoming transfer is returned or recalled; the screen reads the
// transaction again and follows the return.
func TestSimulateTransactionMenuAgainstEmulator(t *testing.T) {
	t.Parallel()
	f := signedInFlow(t, emulator.Options{Accounts: 30, BookingDelay: time.Second})
	f.openIBANAccount(t)
	f.press("s")
	f.typeText("30")
	f.press("enter")
	f.waitFor("transfer · 30.00 EUR · Booked")
	var id string
	f.probe(func(m *Model) { id = m.top().(*accountScreen).overview.sim.follow.txs[0].id })

	f.open("transaction " + id)
	f.waitFor(id, "SepaCreditTransferIn", "s simulate")
	f.press("s")
	f.waitFor("Simulate ▸ return", "↑/↓: recall", "Reason:", "NotSpecifiedByBeneficiary")
	f.press("enter")
	f.waitFor("Returned the transfer", "return · 30.00 EUR · Booked")
	// The transfer was given back once: again is refused, and said.
	f.press("s", "enter")
	f.waitFor("The simulation (return) failed.")
}
