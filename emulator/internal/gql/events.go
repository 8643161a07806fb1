package gql

import (
	"context"
	"sync"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// Events is one environment's webhook service and the emulator's changes
// that feed it.
type Events struct {
	hub          *webhooks.Hub
	store        *data.Store
	bookingDelay time.Duration

	ctx    context.Context // ends pending bookings on close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	timers map[*scheduled]struct{} // direct debits and standing orders waiting for their date, stopped on close
}

// EventsConfig configures an environment's webhook service: the waits of
// its deliveries (real time; zero values take webhooks' defaults) and of
// simulated bookings.
type EventsConfig struct {
	RetryInterval time.Duration
	AnswerWindow  time.Duration
	MaxRetries    int
	Now           func() time.Time
	// BookingDelay is how long a simulated incoming transfer stays Pending.
	BookingDelay time.Duration
	// DemoSubscription adds one enabled subscription to every event type,
	// pointing at DemoWebhookEndpoint.
	DemoSubscription bool
}

// NewEvents starts the webhook service of the store's environment; Close
// stops it.
func NewEvents(store *data.Store, opts EventsConfig) *Events {
	limit := webhooks.SandboxSubscriptionLimit
	if store.Env() == "live" {
		limit = webhooks.LiveSubscriptionLimit
	}
	e := &Events{
		hub: webhooks.New(webhooks.Config{
			ProjectID:         store.Project().ID,
			SubscriptionLimit: limit,
			RetryInterval:     opts.RetryInterval,
			AnswerWindow:      opts.AnswerWindow,
			MaxRetries:        opts.MaxRetries,
			Now:               opts.Now,
		}),
		store:        store,
		bookingDelay: opts.BookingDelay,
	}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	if opts.DemoSubscription {
		// The input is valid by construction: an error is a bug, and the
		// demo only shows an empty log.
		_, _ = e.hub.Add(webhooks.SubscriptionInput{Label: "partnertui demo", Endpoint: DemoWebhookEndpoint,
			EventTypes: webhooks.EventTypes(), Status: webhooks.StatusEnabled})
	}
	return e
}

// DemoWebhookEndpoint is where the demo subscription points: a reserved
// name that fails at once, so each delivery is logged without waiting.
const DemoWebhookEndpoint = "https://partnertui.invalid/demo"

// Interrupt cancels pending bookings, deliveries and replays without
// waiting for them.
func (e *Events) Interrupt() {
	e.mu.Lock()
	e.cancel()
	for s := range e.timers {
		s.timer.Stop()
	}
	clear(e.timers)
	e.mu.Unlock()
	e.hub.Stop()
}

// Close interrupts and waits until nothing runs any more.
func (e *Events) Close() {
	e.Interrupt()
	e.wg.Wait()
	e.hub.Close()
}

// transferReceived follows a simulated incoming transfer: Transaction.Pending
// now, then after the booking delay the booking itself with
// Transaction.Booked and Account.Updated (the balance changed). With no
// delay the booking happens before the mutation answers, so the next query
// already sees it Booked.
func (e *Events) transferReceived(accountID, txID string) {
	e.hub.Emit(webhooks.TransactionPending, txID)
	if e.bookingDelay <= 0 {
		e.book(accountID, txID)
		return
	}
	e.wg.Go(func() {
		t := time.NewTimer(e.bookingDelay)
		defer t.Stop()
		select {
		case <-t.C:
			e.book(accountID, txID)
		case <-e.ctx.Done():
		}
	})
}

func (e *Events) book(accountID, txID string) {
	// The transfer was just recorded Pending by this emulator, so booking
	// can only fail if the data side changed its rules; no event then.
	if err := e.store.BookTransfer(accountID, txID); err != nil {
		return
	}
	e.hub.Emit(webhooks.TransactionBooked, txID)
	e.hub.Emit(webhooks.AccountUpdated, accountID)
}

// executeAt debits an upcoming direct debit when its execution date
// comes, by the emulator's clock as it reads now: Transaction.Booked and
// Account.Updated, or Transaction.Rejected for insufficient funds. One
// rejected or canceled meanwhile is left alone.
func (e *Events) executeAt(at time.Time, txID string) {
	e.later(at, func() { e.executeDirectDebit(txID) })
}

// later runs fn when the emulator's clock, as it reads now, reaches at;
// never once the service closes.
func (e *Events) later(at time.Time, fn func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ctx.Err() != nil {
		return
	}
	if e.timers == nil {
		e.timers = map[*scheduled]struct{}{}
	}
	// A timer, not a goroutine, waits: a script may schedule thousands.
	// Its function waits for e.mu, so it sees s.timer set.
	s := &scheduled{}
	s.timer = time.AfterFunc(at.Sub(e.store.Now()), func() {
		if !e.enter(s) {
			return
		}
		defer e.wg.Done()
		fn()
	})
	e.timers[s] = struct{}{}
}

// scheduled is a timer of what waits for its date.
type scheduled struct{ timer *time.Timer }

// enter forgets a timer that fired and counts its work in, unless the
// service is closing.
func (e *Events) enter(t *scheduled) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.timers, t)
	if e.ctx.Err() != nil {
		return false
	}
	e.wg.Add(1)
	return true
}

func (e *Events) executeDirectDebit(txID string) {
	tx, err := e.store.ExecuteDirectDebit(txID)
	switch {
	case err != nil:
		// Rejected or canceled before its date: nothing happens.
	case tx.Status == data.StatusRejected:
		e.hub.Emit(webhooks.TransactionRejected, txID)
	default:
		e.hub.Emit(webhooks.TransactionBooked, txID)
		e.hub.Emit(webhooks.AccountUpdated, e.store.AccountOfIndex(tx.AccountIndex).ID)
	}
}

// Hub is the environment's webhook service.
func (e *Events) Hub() *webhooks.Hub { return e.hub }
