package emulator

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// events is one environment's webhook service and the emulator's changes
// that feed it.
type events struct {
	hub          *webhooks.Hub
	store        *data.Store
	bookingDelay time.Duration

	ctx    context.Context // ends pending bookings on close
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newEvents(opts Options, store *data.Store) *events {
	limit := webhooks.SandboxSubscriptionLimit
	if store.Env() == "live" {
		limit = webhooks.LiveSubscriptionLimit
	}
	e := &events{
		hub: webhooks.New(webhooks.Config{
			ProjectID:         store.Project().ID,
			SubscriptionLimit: limit,
			RetryInterval:     opts.WebhookRetryInterval,
			AnswerWindow:      opts.WebhookAnswerWindow,
			MaxRetries:        opts.WebhookMaxRetries,
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

// interrupt cancels pending bookings, deliveries and replays without
// waiting for them.
func (e *events) interrupt() {
	e.cancel()
	e.hub.Stop()
}

// close interrupts and waits until nothing runs any more.
func (e *events) close() {
	e.interrupt()
	e.wg.Wait()
	e.hub.Close()
}

// transferReceived follows a simulated incoming transfer: Transaction.Pending
// now, then after the booking delay the booking itself with
// Transaction.Booked and Account.Updated (the balance changed). With no
// delay the booking happens before the mutation answers, so the next query
// already sees it Booked.
func (e *events) transferReceived(accountID, txID string) {
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

func (e *events) book(accountID, txID string) {
	// The transfer was just recorded Pending by this emulator, so booking
	// can only fail if the data side changed its rules; no event then.
	if err := e.store.BookTransfer(accountID, txID); err != nil {
		return
	}
	e.hub.Emit(webhooks.TransactionBooked, txID)
	e.hub.Emit(webhooks.AccountUpdated, accountID)
}

// eventSet holds both environments' events.
type eventSet struct{ sandbox, live *events }

func newEventSet(opts Options, sandbox, live *data.Store) eventSet {
	return eventSet{sandbox: newEvents(opts, sandbox), live: newEvents(opts, live)}
}

func (s eventSet) interrupt() {
	if s.sandbox != nil {
		s.sandbox.interrupt()
		s.live.interrupt()
	}
}

func (s eventSet) close() {
	if s.sandbox != nil {
		s.sandbox.close()
		s.live.close()
	}
}

// WebhookRecorded returns a channel closed when the webhook event log of
// env ("sandbox" or "live") records its next entry, so a client's test
// waits for a delivery to be logged without polling: take the channel,
// read the log, and wait on the channel while the entry is not there. For
// any other env it returns nil, which never fires.
func (s *Server) WebhookRecorded(env string) <-chan struct{} {
	switch env {
	case "sandbox":
		return s.events.sandbox.hub.Recorded()
	case "live":
		return s.events.live.hub.Recorded()
	}
	return nil
}

// checkWebhookOptions refuses negative waits, which have no meaning.
func checkWebhookOptions(o Options) error {
	if o.WebhookRetryInterval < 0 || o.WebhookAnswerWindow < 0 || o.BookingDelay < 0 {
		return fmt.Errorf("webhook retry interval %s, answer window %s and booking delay %s must not be negative: use 0 for the defaults", o.WebhookRetryInterval, o.WebhookAnswerWindow, o.BookingDelay)
	}
	return nil
}

// adminRoot is the Testing API's root: the admin resolvers, with the
// mutations that change data wrapped so each change emits its event.
type adminRoot struct {
	*adminResolver
	events *events
}

func (r *adminRoot) SimulateIncomingSepaCreditTransferReception(ctx context.Context, args simulateArgs) (*payloadR, error) {
	p, err := r.adminResolver.SimulateIncomingSepaCreditTransferReception(ctx, args)
	if err != nil || p.kind != "Success" {
		return p, err
	}
	if a, ok := r.store.AccountByIBAN(callerFrom(ctx).viewer, string(args.Input.CreditorIban)); ok {
		r.events.transferReceived(a.ID, p.txID)
	}
	return p, nil
}

func (r *adminRoot) CreateSandboxUser(ctx context.Context, args createSandboxUserArgs) (*payloadR, error) {
	p, err := r.adminResolver.CreateSandboxUser(ctx, args)
	if err == nil && p.kind == "Success" {
		r.events.hub.Emit(webhooks.UserJoined, p.user.u.ID)
	}
	return p, err
}
