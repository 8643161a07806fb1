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
	return Walk(ctx, Pages(l.TransactionList, sinceParams(accountID, since)), each)
}

// sinceParams are the arguments of BookedSince's pages.
func sinceParams(accountID string, since time.Time) TransactionsParams {
	p := bookedParams(accountID)
	p.IsAfterUpdatedAt = since
	return p
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
	page, err := l.TransactionList(ctx, probeParams(accountID, before))
	if err != nil {
		return nil, err
	}
	return lastBookedIn(page, before), nil
}

// probeParams are the arguments of LastBookedBefore's one request.
func probeParams(accountID string, before time.Time) TransactionsParams {
	p := bookedParams(accountID)
	p.IsBeforeUpdatedAt = before
	p.First = lastBookedProbe
	return p
}

// lastBookedIn is the last booking before before among the probe's page;
// nil when there is none.
func lastBookedIn(page *Page[TransactionDetail], before time.Time) *TransactionDetail {
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
	return last
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
	since := sink.Since()
	return readBooked(ctx, sink, Pages(l.TransactionList, sinceParams(accountID, since)), func(ctx context.Context) (*TransactionDetail, error) {
		return lastBookedBefore(ctx, l, accountID, since)
	}, progress)
}

// BookedParts are a balance history's first reads from since (ReadBooked's
// first page of bookings and its probe for the booking before them) as two
// parts of an account's view: opening the account then brings the
// Overview's chart in its one request, and ReadBookedFrom goes on from
// there. Their pages are the size of the view's.
func BookedParts(since time.Time) []AccountPart {
	return []AccountPart{ViewBooked.Part(sinceParams("", since)), ViewBookedBefore.Part(probeParams("", since))}
}

// BookedStart is what an account's view brought of a balance history's
// reads (BookedParts): the first page of the bookings since Since, read as
// BookedSince reads it, and the probe for the booking before them.
type BookedStart struct {
	params TransactionsParams // the first page's, as the view read it
	first  *Page[TransactionDetail]
	probe  *Page[TransactionDetail]
}

// BookedIn is what v, read with p, brought of a balance history; nil when
// p did not ask it for one (BookedParts).
func BookedIn(v *AccountView, p AccountViewParams) *BookedStart {
	params, ok := ViewBooked.ParamsIn(p)
	if !ok {
		return nil
	}
	first, probe := ViewBooked.Page(v), ViewBookedBefore.Page(v)
	if first == nil || probe == nil {
		return nil
	}
	return &BookedStart{params: params, first: first, probe: probe}
}

// Since is when the bookings the view read start.
func (s *BookedStart) Since() time.Time { return s.params.IsAfterUpdatedAt }

// ReadBookedFrom is ReadBooked of the bookings since start's Since, taking
// what the account's view brought instead of reading it again: the booking
// before them from its probe, and the bookings from its first page, the
// walk going on from that page's end cursor with the same arguments (the
// pages BookedSince would have read after it), no request at all when it
// has no next page. sink's Since must be start's.
func ReadBookedFrom(ctx context.Context, l TransactionLister, start *BookedStart, sink BookedSink, progress func(pages, read int)) error {
	since := sink.Since()
	if !since.Equal(start.Since()) {
		return fmt.Errorf("the account's view read the bookings since %s, the balance history needs them since %s",
			start.Since().Format(time.RFC3339), since.Format(time.RFC3339))
	}
	rest := Pages(l.TransactionList, start.params)
	pages := func(ctx context.Context, after string) (*Page[TransactionDetail], error) {
		if after == "" {
			return start.first, nil
		}
		return rest(ctx, after)
	}
	return readBooked(ctx, sink, pages, func(context.Context) (*TransactionDetail, error) {
		return lastBookedIn(start.probe, since), nil
	}, progress)
}

// readBooked walks the bookings pages gives into sink, and meanwhile
// finds the booking before them with before.
func readBooked(ctx context.Context, sink BookedSink, pages Fetch[TransactionDetail],
	before func(context.Context) (*TransactionDetail, error), progress func(pages, read int)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type probe struct {
		t   *TransactionDetail
		err error
	}
	probed := make(chan probe, 1)
	go func() {
		t, err := before(ctx)
		probed <- probe{t, err}
	}()
	read, n := 0, 0
	var entries []ledger.Entry
	err := Walk(ctx, pages, func(p *Page[TransactionDetail]) error {
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
		n, read = n+1, read+len(entries)
		if progress != nil {
			progress(n, read)
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
