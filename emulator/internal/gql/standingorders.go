package gql

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// Webhook events of standing orders (swan-io/docs, webhooks.mdx).
const (
	eventOrderScheduled = "StandingOrder.Scheduled"
	eventOrderCanceled  = "StandingOrder.Canceled"
)

// orderR is a StandingOrder.
type orderR struct {
	r *request
	o data.StandingOrder
}

func (o *orderR) ID() ID                      { return ID(o.o.ID) }
func (o *orderR) Reference() *string          { return optString(o.o.Reference) }
func (o *orderR) Label() *string              { return optString(o.o.Label) }
func (o *orderR) Period() string              { return o.o.Period }
func (o *orderR) FirstExecutionDate() *scalar { return optDateTime(o.o.FirstExecution) }
func (o *orderR) LastExecutionDate() *scalar  { return optDateTime(o.o.LastExecution) }
func (o *orderR) CreatedAt() scalar           { return date(o.o.CreatedAt) }
func (o *orderR) UpdatedAt() scalar           { return date(o.o.UpdatedAt) }
func (o *orderR) CreditTransferMode() *string { return optString(o.o.Mode) }
func (o *orderR) StatusInfo() *orderR         { return o }
func (o *orderR) Status() string              { return o.o.Status }
func (o *orderR) CanceledAt() scalar          { return date(o.o.CanceledAt) }
func (o *orderR) Consent() *consentR          { return &consentR{r: o.r, c: o.o.Consent} }
func (o *orderR) Account() *accountR          { return o.r.account(o.r.store.AccountOfIndex(o.o.AccountIndex)) }
func (o *orderR) CreatedBy() *userR           { return o.r.user(o.o.CreatedBy) }
func (o *orderR) SepaBeneficiary() *orderR    { return o }
func (o *orderR) Name() string                { return o.o.Beneficiary }
func (o *orderR) MaskedIBAN() *string {
	if o.o.IBAN == "" {
		return nil
	}
	m := maskIBAN(o.o.IBAN)
	return &m
}
func (o *orderR) Address() *addressR { return nil }

// ID of the SEPABeneficiary is deprecated and "never filled".

func (o *orderR) Amount() *amountR {
	if o.o.HasTarget || o.o.Amount == 0 {
		return nil
	}
	return amount(o.o.Amount, o.o.Currency)
}

func (o *orderR) TargetAvailableBalance() *amountR {
	if !o.o.HasTarget {
		return nil
	}
	return amount(o.o.Target, o.o.Currency)
}

func (o *orderR) NextExecutionDate() *scalar {
	if o.o.NextExecution.IsZero() {
		return nil
	}
	d := date(o.o.NextExecution)
	return &d
}

func (o *orderR) ToStandingOrderConsentPendingStatusInfo() (*orderR, bool) {
	return o, o.o.Status == data.OrderConsentPending
}
func (o *orderR) ToStandingOrderEnabledStatusInfo() (*orderR, bool) {
	return o, o.o.Status == data.OrderEnabled
}
func (o *orderR) ToStandingOrderCanceledStatusInfo() (*orderR, bool) {
	return o, o.o.Status == data.OrderCanceled
}

// date is a Date: the day of t.
func date(t time.Time) scalar { return scalar(t.UTC().Format("2006-01-02")) }

// payments are the order's executions, newest first.
func (o *orderR) payments() []data.Payment {
	out := make([]data.Payment, 0, len(o.o.Executions))
	for i := len(o.o.Executions) - 1; i >= 0; i-- {
		if p, err := o.r.store.Payment(o.o.Executions[i].PaymentID); err == nil {
			out = append(out, p)
		}
	}
	return out
}

type orderPaymentsArgs struct {
	First   int32
	After   *string
	Offset  *int32
	OrderBy *orderArgs
	Filters *struct{ Status *[]string }
}

// Payments are the order's executions, each a payment of one transfer:
// those sent, and the one planned, whose transfer is Upcoming.
func (o *orderR) Payments(args orderPaymentsArgs) (*connR[data.Payment, *paymentR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	var list []data.Payment
	for _, p := range o.payments() {
		if args.Filters == nil || args.Filters.Status == nil || slices.Contains(*args.Filters.Status, p.Status) {
			list = append(list, p)
		}
	}
	if _, desc := orderOf(args.OrderBy, "createdAt", true); !desc {
		slices.Reverse(list)
	}
	page, err := data.PageList(list, int(args.First), deref(args.After), int(deref(args.Offset)), "payment", func(p data.Payment) string { return p.ID })
	if err != nil {
		return nil, fmt.Errorf("payments: %w", err)
	}
	return newConn(page, data.PaymentCursor, func(p *data.Payment) *paymentR {
		return &paymentR{r: o.r, p: *p}
	}), nil
}

type orderTransactionsArgs struct {
	transactionsArgs
	Offset *int32
}

// Transactions are the transfers of the order's executions, for whoever
// may view the account's history.
func (o *orderR) Transactions(args orderTransactionsArgs) (*txConnR, error) {
	acc := o.Account()
	if !acc.canViewAccount() {
		return nil, nil
	}
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(o.o.Executions))
	for _, x := range o.o.Executions {
		ids = append(ids, x.TransactionID)
	}
	page, err := o.r.store.TransactionsOf(ids, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return o.r.txConn(page), nil
}

// StandingOrder is the standing order of an execution's payment.
func (p *paymentR) StandingOrder() *orderR {
	if p.p.StandingOrderID == "" {
		return nil
	}
	o, ok := p.r.store.StandingOrder(data.Viewer{Project: true}, p.p.StandingOrderID)
	if !ok {
		return nil
	}
	return &orderR{r: p.r, o: o}
}

type standingOrdersArgs struct {
	First   int32
	After   *string
	Offset  *int32
	OrderBy *orderArgs
	Filters *struct{ Status *[]string }
}

// StandingOrders are read by whoever may view the account.
func (a *accountR) StandingOrders(args standingOrdersArgs) (*connR[data.StandingOrder, *orderR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.StandingOrderQuery{First: int(args.First), After: deref(args.After), Offset: int(deref(args.Offset))}
	var desc bool
	q.OrderBy, desc = orderOf(args.OrderBy, "createdAt", true)
	q.Asc = !desc
	if args.Filters != nil {
		q.Statuses = deref(args.Filters.Status)
	}
	if !a.canViewAccount() {
		q.Statuses = []string{""} // the connection is non-null: none
	}
	page, err := a.r.store.StandingOrders(a.a, q)
	if err != nil {
		return nil, fmt.Errorf("standingOrders: %w", err)
	}
	return newConn(page, data.StandingOrderCursor, func(o *data.StandingOrder) *orderR { return &orderR{r: a.r, o: *o} }), nil
}

func (r *partnerResolver) StandingOrder(ctx context.Context, args struct{ StandingOrderID ID }) *orderR {
	req := r.request(ctx)
	o, ok := r.store.StandingOrder(req.viewer, string(args.StandingOrderID))
	if !ok || !req.account(r.store.AccountOfIndex(o.AccountIndex)).canViewAccount() {
		return nil
	}
	return &orderR{r: req, o: o}
}

type scheduleStandingOrderArgs struct {
	Input struct {
		Amount                 *amountInput
		TargetAvailableBalance *amountInput
		Period                 string
		FirstExecutionDate     *scalar
		LastExecutionDate      *scalar
		SepaBeneficiary        *sepaBeneficiaryInput
		AccountID              string
		ConsentRedirectURL     string
		Reference              *string
		Label                  *string
		CreditTransferMode     string
	}
}

// newOrder reads scheduleStandingOrder's input; a field it refuses is
// named with why.
func (args scheduleStandingOrderArgs) newOrder() (data.NewStandingOrder, string, error) {
	in := args.Input
	o := data.NewStandingOrder{AccountID: in.AccountID, Period: in.Period, Mode: in.CreditTransferMode,
		Label: deref(in.Label), Reference: deref(in.Reference), RedirectURL: in.ConsentRedirectURL}
	// The schema makes the amount and the beneficiary optional; an order
	// without them is scheduled and sends nothing.
	switch {
	case in.Amount != nil && in.TargetAvailableBalance != nil:
		return o, "amount", errors.New("pass either amount (a fixed transfer) or targetAvailableBalance (what to leave on the account), not both")
	case len(o.Label) > 140:
		return o, "label", errors.New("label must be at most 140 characters")
	}
	if u, err := url.Parse(in.ConsentRedirectURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return o, "consentRedirectUrl", fmt.Errorf("consentRedirectUrl %q is not an absolute http(s) URL", in.ConsentRedirectURL)
	}
	switch {
	case in.Amount != nil:
		c, err := in.Amount.cents()
		if err != nil {
			return o, "amount", err
		}
		o.Amount, o.Currency = c, string(in.Amount.Currency)
	case in.TargetAvailableBalance != nil:
		c, err := data.ParseAmount(string(in.TargetAvailableBalance.Value))
		if err != nil {
			return o, "targetAvailableBalance", fmt.Errorf("targetAvailableBalance.value %q is not an amount such as \"100.00\"", string(in.TargetAvailableBalance.Value))
		}
		o.Target, o.HasTarget, o.Currency = c, true, string(in.TargetAvailableBalance.Currency)
	}
	if b := in.SepaBeneficiary; b != nil {
		o.IBAN, o.Beneficiary = strings.ReplaceAll(string(b.Iban), " ", ""), strings.TrimSpace(b.Name)
		if !data.ValidIBAN(o.IBAN) {
			return o, "sepaBeneficiary.iban", errors.New("sepaBeneficiary.iban is not a valid IBAN: check its check digits")
		}
		if o.Beneficiary == "" {
			return o, "sepaBeneficiary.name", errors.New("sepaBeneficiary.name must not be empty")
		}
	}
	var err error
	if o.First, err = parseDateTime("firstExecutionDate", in.FirstExecutionDate); err != nil {
		return o, "firstExecutionDate", err
	}
	if o.Last, err = parseDateTime("lastExecutionDate", in.LastExecutionDate); err != nil {
		return o, "lastExecutionDate", err
	}
	if !o.Last.IsZero() && !o.First.IsZero() && o.Last.Before(o.First) {
		return o, "lastExecutionDate", errors.New("lastExecutionDate is before firstExecutionDate")
	}
	return o, "", nil
}

// ScheduleStandingOrder answers its union's members: InvalidArgument
// for an input it refuses, Forbidden for an account the caller may not pay
// from, else the order, waiting for its consent or enabled at once.
func (r *partnerResolver) ScheduleStandingOrder(ctx context.Context, args scheduleStandingOrderArgs) (any, error) {
	in, field, err := args.newOrder()
	if err != nil {
		return &webhookPayloadR{kind: kindInvalidArgument, message: err.Error(),
			fields: []webhooks.FieldError{{Name: field, Errors: []string{err.Error()}}}}, nil
	}
	c := callerFrom(ctx)
	in.ConsentURL = c.base + ConsentPath(r.store.Env())
	change, err := r.store.ScheduleStandingOrder(c.viewer, in)
	if err != nil {
		if o, ok := rejected(err, "Forbidden", in.AccountID); ok {
			o.kind = "Forbidden" // the union names no other rejection of an account
			return o, nil
		}
		return nil, fmt.Errorf("scheduleStandingOrder: %w", err)
	}
	if change.Order.Status == data.OrderConsentPending {
		r.events.hub.Emit(webhooks.ConsentCreated, change.Order.Consent.ID)
	} else {
		r.events.orderChanged(change, eventOrderScheduled)
	}
	return success(&orderR{r: r.request(ctx), o: change.Order}), nil
}

func (r *partnerResolver) CancelStandingOrder(ctx context.Context, args struct {
	Input struct{ StandingOrderID string }
}) (*outcomeR, error) {
	id := args.Input.StandingOrderID
	before, _ := r.store.StandingOrder(viewerOf(ctx), id)
	change, err := r.store.CancelStandingOrder(viewerOf(ctx), id)
	if err != nil {
		if o, ok := rejected(err, "StandingOrderNotFound", id); ok {
			if o.kind != "StandingOrderNotFound" {
				o.kind = "Forbidden"
			}
			return o, nil
		}
		return nil, fmt.Errorf("cancelStandingOrder: %w", err)
	}
	if before.Status != data.OrderCanceled {
		r.events.orderChanged(change, eventOrderCanceled)
	}
	return success(&orderR{r: r.request(ctx), o: change.Order}), nil
}

// orderChanged emits what a change of standing order did, in order: the
// order's own event, then its executions' (Transaction.Pending or
// Rejected for one sent, Transaction.Upcoming for the one planned,
// Transaction.Canceled for the one canceled), and waits for the planned
// one's date to send it.
func (e *Events) orderChanged(c data.OrderChange, event string) {
	if event != "" {
		e.hub.Emit(event, c.Order.ID)
	}
	if c.Sent != "" {
		if t, ok := e.store.Transaction(c.Sent); ok && t.Status == data.StatusRejected {
			e.hub.Emit(webhooks.TransactionRejected, c.Sent)
		} else {
			e.hub.Emit(webhooks.TransactionPending, c.Sent)
		}
	}
	if c.Upcoming != "" {
		e.hub.Emit(webhooks.TransactionUpcoming, c.Upcoming)
	}
	if c.Canceled != "" {
		e.hub.Emit(webhooks.TransactionCanceled, c.Canceled)
	}
	if !c.Order.NextExecution.IsZero() && c.Order.Status == data.OrderEnabled {
		id := c.Order.ID
		e.later(c.Order.NextExecution, func() { e.executeOrder(id) })
	}
}

// executeOrder sends a scheduled order's execution on its date, emits
// its transaction's event (Booked, and the account's balance changed, or
// Rejected), and plans the next.
func (e *Events) executeOrder(id string) {
	sent, next, err := e.store.ExecuteStandingOrder(id)
	if err != nil {
		return // canceled meanwhile
	}
	switch {
	case sent.ID == "":
	case sent.Status == data.StatusRejected:
		e.hub.Emit(webhooks.TransactionRejected, sent.ID)
	default:
		e.hub.Emit(webhooks.TransactionBooked, sent.ID)
		e.hub.Emit(webhooks.AccountUpdated, e.store.AccountOfIndex(sent.AccountIndex).ID)
	}
	e.orderChanged(next, "")
}

func (o *outcomeR) StandingOrder() *orderR { s, _ := o.object.(*orderR); return s }
func (o *outcomeR) ToScheduleStandingOrderSuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToCancelStandingOrderSuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToStandingOrderNotFoundRejection() (*outcomeR, bool) {
	return o.as("StandingOrderNotFound")
}
