package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit/apptest"
)

// The end-to-end story against the emulator: simulate a transfer
// from an account, see Transaction.Booked appear in the Events view, open
// it, and the event names that account's transaction (enter then asks the
// root to open it, see TestEventDetailShowsThePayloadAndOpensTheResource).
func TestFlowEventsAgainstEmulator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	f := newFlow(t, emulator.Options{Accounts: 20, BookingDelay: 300 * time.Millisecond})

	// The log records deliveries: a subscription with a receiver first.
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(hook.Close)
	admin := apptest.Env(t, apptest.New(t, f.emu, apptest.Options{Project: true}), config.Sandbox).API
	ctx := context.Background()
	if _, err := admin.AddWebhookSubscription(ctx, api.WebhookSubscriptionInput{Label: "flow", Endpoint: hook.URL,
		EventTypes: []string{"Transaction.Pending", "Transaction.Booked", "Account.Updated"}}); err != nil {
		t.Fatalf("add a subscription: %v", err)
	}

	f.waitFor("Sign in to Sandbox")
	f.press("a")
	f.waitFor("row 1 of ")
	f.press("enter")
	f.waitFor("IBAN", "Your rights")
	var accountID string
	f.probe(func(m *Model) {
		if a, ok := m.top().(*accountScreen); ok {
			accountID = a.overview.acct.ID
		}
	})
	f.press("s", "2", "5", "enter")
	f.waitFor("Received 25 EUR")

	// From the account, the view is the account's: its Account.Updated.
	f.press("E")
	f.waitFor("Events (", "Account.Updated", "account ")
	// All of them: the transaction's events too.
	f.press("esc")
	f.waitFor("Transaction.Booked", "Transaction.Pending")
	row := -1
	f.probe(func(m *Model) {
		s, ok := m.top().(*eventsScreen)
		if !ok {
			return
		}
		for i := range s.list.Len() {
			s.list.SetCursor(i)
			if l, ok := s.list.Selected(); ok && l.EventType == "Transaction.Booked" {
				row = i
				return
			}
		}
	})
	if row < 0 {
		t.Fatal("no Transaction.Booked row")
	}
	f.press("enter")
	f.waitFor(`"eventType": "Transaction.Booked"`, "(enter opens it)")
	var ev api.WebhookEventLog
	var kind resourceKind
	f.probe(func(m *Model) {
		if s, ok := m.top().(*eventScreen); ok {
			ev, kind = s.ev, s.kind
		}
	})
	if kind != resourceTransaction {
		t.Fatalf("the event names a %v", kind)
	}
	tx, err := admin.Transaction(ctx, ev.ResourceID)
	if err != nil {
		t.Fatalf("the event's resource %q: %v", ev.ResourceID, err)
	}
	if tx.Account == nil || tx.Account.ID != accountID || tx.StatusInfo.Status != "Booked" {
		t.Fatalf("the event names transaction %+v, not a booked one of account %s", tx, accountID)
	}
	// enter opens it, read with the project's token; a its account, which
	// is already open below: back to it.
	f.press("enter")
	f.waitFor(tx.ID, "+25.00 EUR", "Booked")
	f.press("a")
	f.waitFor("Overview", "Your rights")
	f.press("q")
}
