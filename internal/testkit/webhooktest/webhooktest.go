// Package webhooktest holds the kit's webhook fixtures: a local endpoint
// that records every POST it is sent and answers as the test says
// (Receiver), and an emulator whose project logs the webhooks of the
// transfers a demo user simulates (World). Only tests import it.
package webhooktest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/apptest"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// Receiver is a local webhook endpoint: it records every POST (its JSON
// payload and x-swan-secret), then answers as its answer function says
// (200 when there is none).
type Receiver struct {
	mu      sync.Mutex
	events  []map[string]any
	secrets []string
	got     chan struct{} // one per POST, once recorded
	answer  func(w http.ResponseWriter, r *http.Request, eventType string)
}

// NewReceiver is a Receiver that answers 200, and its URL; it is closed
// when the test ends.
func NewReceiver(t testing.TB) (*Receiver, string) { return NewAnsweringReceiver(t, nil) }

// NewAnsweringReceiver is a Receiver that answers each POST with answer,
// given the event's type.
func NewAnsweringReceiver(t testing.TB, answer func(w http.ResponseWriter, r *http.Request, eventType string)) (*Receiver, string) {
	r := &Receiver{got: make(chan struct{}, 1000), answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var ev map[string]any
		body, _ := io.ReadAll(req.Body)
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Errorf("forwarded body is not the JSON payload: %q", body)
		}
		r.mu.Lock()
		r.events = append(r.events, ev)
		r.secrets = append(r.secrets, req.Header.Get("x-swan-secret"))
		r.mu.Unlock()
		r.got <- struct{}{}
		if r.answer != nil {
			r.answer(w, req, fmt.Sprint(ev["eventType"]))
		}
	}))
	t.Cleanup(srv.Close)
	return r, srv.URL + "/webhooks"
}

// Wait waits for n more POSTs.
func (r *Receiver) Wait(t testing.TB, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-r.got:
		case <-time.After(30 * time.Second):
			t.Fatalf("the receiver got %d POSTs of %d", i, n)
		}
	}
}

// Got delivers one value per POST recorded (what Wait reads).
func (r *Receiver) Got() <-chan struct{} { return r.got }

// Events are the payloads received, in order.
func (r *Receiver) Events() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// Secrets are the x-swan-secret headers received, in order.
func (r *Receiver) Secrets() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.secrets)
}

// Count is how many POSTs were received.
func (r *Receiver) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// EventIDs are the eventIds received, in order.
func (r *Receiver) EventIDs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.events))
	for _, ev := range r.events {
		ids = append(ids, fmt.Sprint(ev["eventId"]))
	}
	return ids
}

// Received are the eventIds received from the index from on, sorted.
func (r *Receiver) Received(from int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for _, ev := range r.events[from:] {
		ids = append(ids, fmt.Sprint(ev["eventId"]))
	}
	slices.Sort(ids)
	return ids
}

// World is an emulator with a user who can simulate incoming transfers
// and the project's client, which reads the webhook event log.
type World struct {
	Emu     *testkit.Emulator
	User    *api.Client
	Project *api.Client
	// Account is the user's first Opened account with an IBAN, which the
	// transfers credit.
	Account api.Account
}

// NewWorld starts an emulator with opts for the test.
func NewWorld(t testing.TB, opts emulator.Options) *World {
	t.Helper()
	return WorldOf(t, testkit.StartEmulator(t, opts))
}

// WorldOf is the World of an emulator already started.
func WorldOf(t testing.TB, e *testkit.Emulator) *World {
	t.Helper()
	user := apptest.Env(t, apptest.New(t, e, apptest.Options{}), config.Sandbox)
	signin.AsDemoUser(t, e, user.Session, config.Sandbox)
	w := &World{Emu: e, User: user.API, Project: apptest.Env(t, apptest.New(t, e, apptest.Options{Project: true}), config.Sandbox).API}
	accounts, err := w.User.Accounts(context.Background(), api.AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accounts.Items {
		if a.IBAN != "" {
			w.Account = a
			return w
		}
	}
	t.Fatal("the demo user has no account with an IBAN")
	return nil
}

// Transfer simulates an incoming transfer: Transaction.Pending, then
// Transaction.Booked and Account.Updated are logged. It returns the
// transaction's id.
func (w *World) Transfer(t testing.TB) string {
	t.Helper()
	id, err := w.TryTransfer()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TryTransfer is Transfer for a goroutine other than the test's.
func (w *World) TryTransfer() (string, error) {
	return w.User.SimulateIncomingTransfer(context.Background(), api.IncomingTransfer{Amount: api.Amount{Value: "12.00", Currency: w.Account.Currency},
		CreditorIBAN: w.Account.IBAN, CreditorName: w.Account.Holder.Info.Name, DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "Debtor"})
}

// Subscriptions are the project's webhook subscriptions.
func (w *World) Subscriptions(t testing.TB) []api.WebhookSubscription {
	t.Helper()
	subs, err := w.Project.WebhookSubscriptions(context.Background(), api.WebhookSubscriptionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	return subs.Items
}

// BookedOnly makes a subscription that stays, for Transaction.Booked
// only (one event per simulated transfer), with the secret
// "booked-secret".
func (w *World) BookedOnly(t testing.TB, endpoint string) *api.WebhookSubscription {
	t.Helper()
	sub, err := w.Project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: "booked",
		Endpoint: endpoint, Secret: "booked-secret", EventTypes: []string{"Transaction.Booked"}})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// LoggedBooked is the eventIds of the Transaction.Booked events of the
// given transactions, read from the log.
func (w *World) LoggedBooked(t testing.TB, txIDs ...string) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for _, tx := range txIDs {
		page, err := w.Project.WebhookEventLogs(context.Background(), api.WebhookEventLogsParams{ResourceID: tx, EventType: "Transaction.Booked"})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) == 0 {
			t.Fatalf("no Transaction.Booked logged for %s", tx)
		}
		ids[page.Items[0].EventID] = true
	}
	return ids
}

// WaitLogged waits until the log holds n events matching p: the emulator
// logs a delivery once the endpoint's answer is in, after the request that
// caused the event has returned. The log is read again only when the
// emulator records an entry, never in a loop of requests.
func (w *World) WaitLogged(t testing.TB, p api.WebhookEventLogsParams, n int) {
	t.Helper()
	for {
		// Taken before the read: an entry recorded during it closes it.
		recorded := w.Emu.Server.WebhookRecorded("sandbox")
		page, err := w.Project.WebhookEventLogs(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, l := range page.Items {
			got[l.EventID] = true
		}
		if len(got) >= n {
			return
		}
		select {
		case <-recorded:
		case <-time.After(30 * time.Second):
			t.Fatalf("the log holds %d events, want %d, and recorded nothing for 30s", len(got), n)
		}
	}
}

// BookedDate is the eventDate of a transaction's Transaction.Booked.
func (w *World) BookedDate(t testing.TB, txID string) time.Time {
	t.Helper()
	p := api.WebhookEventLogsParams{ResourceID: txID, EventType: "Transaction.Booked"}
	w.WaitLogged(t, p, 1)
	page, err := w.Project.WebhookEventLogs(context.Background(), p)
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("the log of %s: %v", txID, err)
	}
	return page.Items[0].EventDate
}
