package api

import (
	"context"
	"fmt"
	"time"

	"github.com/partnertui/partnertui/internal/ledger"
)

// bookedParams are the arguments of the reads of an account's booked
// transactions around a date: a balance history or a statement.
func bookedParams(accountID string) TransactionsParams {
	return TransactionsParams{AccountID: accountID, Status: []string{"Booked"}, OrderBy: TxOrderUpdatedAt, Direction: DirectionDesc}
}

// TransactionLister reads one page of an account's transactions: a
// *Client, or whatever carries one (the UI's API).
type TransactionLister interface {
	TransactionList(ctx context.Context, p TransactionsParams) (*Page[TransactionDetail], error)
}

// BookedSince walks the account's Booked transactions updated at or after
// since, most recently updated first, handing each page to each as it
// arrives. Every transaction booked since then is among them (a booking is
// an update: a transaction's last update is never before its booking), and
// the platform stops the list there, so the walk costs the pages of those
// transactions and no more: ceil(n/page size) requests.
func (c *Client) BookedSince(ctx context.Context, accountID string, since time.Time, each func(*Page[TransactionDetail]) error) error {
	return bookedSince(ctx, c, accountID, since, each)
}

func bookedSince(ctx context.Context, l TransactionLister, accountID string, since time.Time, each func(*Page[TransactionDetail]) error) error {
	p := bookedParams(accountID)
	p.IsAfterUpdatedAt = since
	return Walk(ctx, Pages(l.TransactionList, p), each)
}

// lastBookedProbe is how many of the transactions last updated before a
// date LastBookedBefore reads: the last booking before the date is the
// most recently updated one unless a later update (an enrichment) moved
// an older booking ahead of it; a few more cover that, in one request.
const lastBookedProbe = 10

// LastBookedBefore is the account's last booking before before, read in one
// request among the Booked transactions last updated before it; nil when
// there is none (the account had no booking yet).
func (c *Client) LastBookedBefore(ctx context.Context, accountID string, before time.Time) (*TransactionDetail, error) {
	return lastBookedBefore(ctx, c, accountID, before)
}

func lastBookedBefore(ctx context.Context, l TransactionLister, accountID string, before time.Time) (*TransactionDetail, error) {
	p := bookedParams(accountID)
	p.IsBeforeUpdatedAt = before
	p.First = lastBookedProbe
	page, err := l.TransactionList(ctx, p)
	if err != nil {
		return nil, err
	}
	var last *TransactionDetail
	for i := range page.Items {
		t := &page.Items[i]
		if !t.StatusInfo.BookingDate.Before(before) {
			continue
		}
		if last == nil || bookedLater(t, last) {
			last = t
		}
	}
	return last, nil
}

// bookedLater reports whether a was booked after b: booking date, then the
// booking sequence number.
func bookedLater(a, b *TransactionDetail) bool {
	if !a.StatusInfo.BookingDate.Equal(b.StatusInfo.BookingDate) {
		return a.StatusInfo.BookingDate.After(b.StatusInfo.BookingDate)
	}
	return seqOf(a) > seqOf(b)
}

func seqOf(t *TransactionDetail) int {
	if b := t.StatusInfo.BalanceAfter; b != nil {
		return b.SequenceNumber
	}
	return 0
}

// BookedSink is what takes an account's bookings around a period in:
// ledger.Fold and ledger.Statement.
type BookedSink interface {
	// Since is when the bookings it needs start.
	Since() time.Time
	Add(entries ...ledger.Entry) error
	// Before takes the last booking before Since (nil: none).
	Before(e *ledger.Entry)
}

// ReadBooked reads the bookings sink needs (BookedSince its Since) into it,
// page by page, and meanwhile, in a request of its own, the last booking
// before them (LastBookedBefore), whose balance the period opens with.
// progress, if not nil, is told after each page how many pages and
// bookings were read; it runs on the walk's goroutine.
func (c *Client) ReadBooked(ctx context.Context, accountID string, sink BookedSink, progress func(pages, read int)) error {
	return ReadBooked(ctx, c, accountID, sink, progress)
}

// ReadBooked is Client.ReadBooked through l: the UI reads a balance chart
// through its own API, which a *Client satisfies.
func ReadBooked(ctx context.Context, l TransactionLister, accountID string, sink BookedSink, progress func(pages, read int)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	since := sink.Since()
	type probe struct {
		t   *TransactionDetail
		err error
	}
	probed := make(chan probe, 1)
	go func() {
		t, err := lastBookedBefore(ctx, l, accountID, since)
		probed <- probe{t, err}
	}()
	pages, read := 0, 0
	var entries []ledger.Entry
	err := bookedSince(ctx, l, accountID, since, func(p *Page[TransactionDetail]) error {
		entries = entries[:0]
		for i := range p.Items {
			e, err := BookedEntry(&p.Items[i])
			if err != nil {
				return err
			}
			entries = append(entries, e)
		}
		if err := sink.Add(entries...); err != nil {
			return err
		}
		pages, read = pages+1, read+len(entries)
		if progress != nil {
			progress(pages, read)
		}
		return nil
	})
	if err != nil {
		cancel()
		<-probed
		return err
	}
	pr := <-probed
	if pr.err != nil {
		return pr.err
	}
	if pr.t == nil {
		sink.Before(nil)
		return nil
	}
	e, err := BookedEntry(pr.t)
	if err != nil {
		return err
	}
	sink.Before(&e)
	return nil
}

// BookedEntry is a booked transaction as the ledger adds it up: its amount
// signed by its side, its booking, and the balance after it.
func BookedEntry(t *TransactionDetail) (ledger.Entry, error) {
	e := ledger.Entry{ID: t.ID, Reference: t.Reference, ExternalReference: t.ExternalReference, Type: t.Type,
		Product: t.PaymentProduct, Counterparty: t.Counterparty, Label: t.Label, Status: t.StatusInfo.Status,
		BookingDate: t.StatusInfo.BookingDate, ValueDate: t.StatusInfo.ValueDate, UpdatedAt: t.UpdatedAt,
		Currency: t.Amount.Currency}
	if p := t.CounterpartyParty(); p != nil {
		e.CounterpartyIBAN, e.CounterpartyBIC = p.IBAN, p.BIC
	}
	var err error
	if e.Amount, err = ledger.SignedAmount(t.Amount.Value, t.Side); err != nil {
		return e, fmt.Errorf("transaction %s: %w", t.ID, err)
	}
	if b := t.StatusInfo.BalanceAfter; b != nil {
		e.Sequence = b.SequenceNumber
		if b.Amount != nil {
			if e.BalanceAfter, err = ledger.ParseAmount(b.Amount.Value); err != nil {
				return e, fmt.Errorf("transaction %s: balance after: %w", t.ID, err)
			}
			e.HasBalanceAfter = true
		}
	}
	if e.BookingDate.IsZero() {
		// Not booked: a list's row (transactions --csv) dated by its execution.
		e.BookingDate = t.ExecutionDate
	}
	return e, nil
}

// LedgerBalances are the account's balances as the ledger adds them up;
// an error when the platform gave none (the account hides them).
func LedgerBalances(a *Account) (ledger.Balances, error) {
	if a.Balances == nil || a.Balances.Booked.Value == "" {
		return ledger.Balances{}, fmt.Errorf("account %s shows no booked balance to this token", a.ID)
	}
	b := ledger.Balances{Currency: a.Balances.Booked.Currency}
	var err error
	if b.Booked, err = ledger.ParseAmount(a.Balances.Booked.Value); err != nil {
		return b, fmt.Errorf("account %s: booked balance: %w", a.ID, err)
	}
	// Pending and reserved are shown beside the history, never added to it.
	if v := a.Balances.Pending.Value; v != "" {
		if b.Pending, err = ledger.ParseAmount(v); err != nil {
			return b, fmt.Errorf("account %s: pending balance: %w", a.ID, err)
		}
	}
	if v := a.Balances.Reserved.Value; v != "" {
		if b.Reserved, err = ledger.ParseAmount(v); err != nil {
			return b, fmt.Errorf("account %s: reserved balance: %w", a.ID, err)
		}
	}
	return b, nil
}
