package ledger

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// Balances are an account's balances now, as the platform reports them.
type Balances struct {
	Currency                  string
	Booked, Pending, Reserved decimal.Decimal
}

// DayBalance is one day of the history: the booked balance at its end, and
// what was booked that day.
type DayBalance struct {
	Date     time.Time
	Close    decimal.Decimal
	In       decimal.Decimal // credits booked that day
	Out      decimal.Decimal // debits booked that day, as a positive amount
	Bookings int
}

// ProductTotal is what went out (or came in) through one payment product.
type ProductTotal struct {
	Product string // PaymentProduct
	Amount  decimal.Decimal
	Count   int
}

// History is an account's booked balance, day by day over a period,
// rebuilt backwards from the booked balance now, and what moved it.
type History struct {
	Period   Period
	Currency string
	// Booked, Pending and Reserved are the balances now: only Booked is
	// rebuilt; pending and reserved money is shown apart, never in the line.
	Booked, Pending, Reserved decimal.Decimal
	Opening                   decimal.Decimal // the booked balance as the period starts
	Closing                   decimal.Decimal // … as it ends
	Days                      []DayBalance    // oldest first, one per day
	In, Out                   decimal.Decimal // over the period; Out positive
	OutBy, InBy               []ProductTotal  // by payment product, largest first
	Bookings                  int             // entries booked in the period
	Read                      int             // entries read, in and around the period
	// Complete is false while pages are still coming: the days then lack
	// bookings not read yet, and nothing is checked.
	Complete bool
	// Checked counts the balances the platform reported that the history
	// was compared with; Mismatch is the first that disagrees (nil: all
	// agree).
	Checked  int
	Mismatch *Mismatch
}

// Empty reports whether the account has nothing to show for the period: no
// booking in it and a zero balance throughout.
func (h *History) Empty() bool {
	return h.Bookings == 0 && h.Opening.IsZero() && h.Closing.IsZero()
}

// Mismatch is where the rebuilt balance and the platform's disagree.
type Mismatch struct {
	Currency string
	// Where: the end of Day, or the period's opening when Opening.
	Day     time.Time
	Opening bool
	// Computed is the balance rebuilt from the booked balance now and the
	// bookings read; Reported is the platform's (the balance after the
	// last booking before that moment, ReportedBy).
	Computed, Reported decimal.Decimal
	ReportedBy         string // the id of the booking whose balanceAfter it is; "" for none (a zero opening)
}

// Gap is Computed − Reported.
func (m *Mismatch) Gap() decimal.Decimal { return m.Computed.Sub(m.Reported) }

func (m *Mismatch) Error() string {
	where := "at the end of " + m.Day.Format(time.DateOnly)
	if m.Opening {
		where = "as " + m.Day.Format(time.DateOnly) + " opens"
	}
	by := "the platform's balance after booking " + m.ReportedBy
	if m.ReportedBy == "" {
		by = "the account had no booking before it, so the platform's is"
	}
	return fmt.Sprintf("the booked balance does not add up: %s it is %s %s rebuilt from the balance now and the bookings read, but %s %s: %s %s apart (a page missing, or a transaction changed during the read)",
		where, Format(m.Computed, m.Currency), m.Currency, by, Format(m.Reported, m.Currency),
		FormatSigned(m.Gap(), m.Currency), m.Currency)
}

// mark is a booking whose reported balance can be checked: the last one of
// a day (or before the period, or after it).
type mark struct {
	set   bool
	entry Entry // BookingDate, Sequence, ID, BalanceAfter only
	ties  []decimal.Decimal
}

// offer keeps e when it was booked after the mark's booking. Bookings at
// the same instant with no sequence number cannot be ordered: each of
// their balances is kept, and any of them may be the last.
func (k *mark) offer(e *Entry) {
	if !e.HasBalanceAfter {
		return
	}
	lite := Entry{ID: e.ID, BookingDate: e.BookingDate, Sequence: e.Sequence, BalanceAfter: e.BalanceAfter, HasBalanceAfter: true}
	switch {
	case !k.set || bookedBefore(&k.entry, e) && !k.tied(e):
		k.set, k.entry, k.ties = true, lite, nil
	case k.tied(e):
		k.ties = append(k.ties, e.BalanceAfter)
	}
}

func (k *mark) tied(e *Entry) bool {
	return k.set && k.entry.BookingDate.Equal(e.BookingDate) && k.entry.Sequence == e.Sequence
}

// agrees reports whether balance is what the platform reported there.
func (k *mark) agrees(balance decimal.Decimal) bool {
	if k.entry.BalanceAfter.Equal(balance) {
		return true
	}
	for _, t := range k.ties {
		if t.Equal(balance) {
			return true
		}
	}
	return false
}

// dayFold is what a day (or the time after the period) adds up.
type dayFold struct {
	net, in, out decimal.Decimal
	bookings     int
	last         mark
}

// Fold adds booked entries up, in any order, into a History. It keeps a
// few numbers per day and product, never the entries: its memory does not
// grow with the number of transactions.
type Fold struct {
	period  Period
	now     Balances
	days    []dayFold // the period's days, then the time after it
	before  mark      // the last booking before the period
	noneYet bool      // the platform says no booking precedes the period
	outBy   map[string]*ProductTotal
	inBy    map[string]*ProductTotal
	read    int
	done    bool
}

// NewFold starts a fold of period for an account whose balances are now.
func NewFold(period Period, now Balances) *Fold {
	return &Fold{period: period, now: now, days: make([]dayFold, period.Days()+1),
		outBy: map[string]*ProductTotal{}, inBy: map[string]*ProductTotal{}}
}

// Since is when the bookings the fold needs start: every booking from then
// on must be added (a booking's last update is never before it, so the
// booked transactions updated since then hold them all).
func (f *Fold) Since() time.Time { return f.period.Start() }

// Add folds entries in, in any order. An entry booked before the period
// only serves to check its opening.
func (f *Fold) Add(entries ...Entry) error {
	for i := range entries {
		e := &entries[i]
		if e.Currency != f.now.Currency {
			return fmt.Errorf("booking %s is in %q, the account in %q: the ledger adds up one currency", e.ID, e.Currency, f.now.Currency)
		}
		f.read++
		d := f.period.index(e.BookingDate)
		if d < 0 {
			f.before.offer(e)
			continue
		}
		df := &f.days[d]
		df.net = df.net.Add(e.Amount)
		df.last.offer(e)
		if d == len(f.days)-1 {
			continue // after the period: it only leads back from now
		}
		df.bookings++
		by := f.outBy
		if e.Credit() {
			df.in = df.in.Add(e.Amount)
			by = f.inBy
		} else {
			df.out = df.out.Sub(e.Amount)
		}
		pt := by[e.Product]
		if pt == nil {
			pt = &ProductTotal{Product: e.Product}
			by[e.Product] = pt
		}
		pt.Amount, pt.Count = pt.Amount.Add(e.Amount.Abs()), pt.Count+1
	}
	return nil
}

// Before tells the fold the last booking before the period (nil: the
// platform lists none, so the period opens at zero). Its balance after is
// the opening the platform reports.
func (f *Fold) Before(e *Entry) {
	if e == nil {
		f.noneYet = true
		return
	}
	f.before.offer(e)
}

// Done says every page has been added: the history is complete and checked.
func (f *Fold) Done() { f.done = true }

// History is the fold so far: complete and checked once Done was called.
func (f *Fold) History() History {
	n := f.period.Days()
	h := History{Period: f.period, Currency: f.now.Currency, Booked: f.now.Booked, Pending: f.now.Pending,
		Reserved: f.now.Reserved, Days: make([]DayBalance, n), Read: f.read, Complete: f.done}
	closeAt := f.now.Booked.Sub(f.days[n].net)
	h.Closing = closeAt
	for d := n - 1; d >= 0; d-- {
		df := &f.days[d]
		h.Days[d] = DayBalance{Date: f.period.First.AddDate(0, 0, d), Close: closeAt, In: df.in, Out: df.out, Bookings: df.bookings}
		h.In, h.Out, h.Bookings = h.In.Add(df.in), h.Out.Add(df.out), h.Bookings+df.bookings
		closeAt = closeAt.Sub(df.net)
	}
	h.Opening = closeAt
	h.OutBy, h.InBy = sortedTotals(f.outBy), sortedTotals(f.inBy)
	if f.done {
		f.check(&h)
	}
	return h
}

// check compares the rebuilt balance with each balance the platform
// reported, from now back to the opening, and keeps the first that
// disagrees: the one nearest to now, where the difference begins.
func (f *Fold) check(h *History) {
	n := f.period.Days()
	cur := h.Currency
	if last := &f.days[n].last; last.set {
		h.Checked++
		if !last.agrees(f.now.Booked) {
			h.Mismatch = &Mismatch{Currency: cur, Day: Day(last.entry.BookingDate), Computed: f.now.Booked, Reported: last.entry.BalanceAfter, ReportedBy: last.entry.ID}
			return
		}
	}
	for d := n - 1; d >= 0; d-- {
		last := &f.days[d].last
		if !last.set {
			continue
		}
		h.Checked++
		if close := h.Days[d].Close; !last.agrees(close) {
			h.Mismatch = &Mismatch{Currency: cur, Day: h.Days[d].Date, Computed: close, Reported: last.entry.BalanceAfter, ReportedBy: last.entry.ID}
			return
		}
	}
	switch {
	case f.before.set:
		h.Checked++
		if !f.before.agrees(h.Opening) {
			h.Mismatch = &Mismatch{Currency: cur, Day: f.period.First, Opening: true, Computed: h.Opening, Reported: f.before.entry.BalanceAfter, ReportedBy: f.before.entry.ID}
		}
	case f.noneYet:
		h.Checked++
		if !h.Opening.IsZero() {
			h.Mismatch = &Mismatch{Currency: cur, Day: f.period.First, Opening: true, Computed: h.Opening}
		}
	}
}

func sortedTotals(m map[string]*ProductTotal) []ProductTotal {
	out := make([]ProductTotal, 0, len(m))
	for _, pt := range m {
		out = append(out, *pt)
	}
	slices.SortFunc(out, func(a, b ProductTotal) int {
		if c := b.Amount.Cmp(a.Amount); c != 0 {
			return c
		}
		return cmp.Compare(a.Product, b.Product)
	})
	return out
}

// ProductLabel names a PaymentProduct for people.
func ProductLabel(product string) string {
	switch product {
	case "SEPACreditTransfer":
		return "Transfers"
	case "SEPADirectDebit":
		return "Direct debits"
	case "Card":
		return "Card"
	case "OnlineCard":
		return "Card online"
	case "InPersonCard":
		return "Card in person"
	case "Fees":
		return "Fees"
	case "InternalDirectDebit":
		return "Internal direct debits"
	case "Check":
		return "Checks"
	case "InternationalCreditTransfer":
		return "International transfers"
	case "":
		return "Other"
	}
	return product
}
