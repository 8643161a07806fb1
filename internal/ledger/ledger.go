// Package ledger rebuilds an account's booked balance from what the platform
// reports (the booked balance now and the booked transactions), folds the
// money that came in and went out, proves that the two agree, and writes
// them out as statements (CSV, ISO 20022 camt.053). Every amount is an exact
// decimal: no floating point touches money.
//
// It is a leaf: it knows nothing of the API client. Its callers turn the
// platform's transactions into Entries and read the pages the period needs
// (Fold.Since says from when).
package ledger

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Entry is one booked transaction as the ledger needs it: its signed
// amount, its booking, and the balance after it as the platform reports it.
type Entry struct {
	ID                string
	Reference         string
	ExternalReference string
	Type              string // TransactionTypeEnum
	Product           string // PaymentProduct
	Counterparty      string
	CounterpartyIBAN  string
	CounterpartyBIC   string
	Label             string
	Status            string // Booked, for the statements; a list may carry others

	BookingDate time.Time // when it moved the booked balance
	ValueDate   time.Time
	UpdatedAt   time.Time // the order the platform lists it in

	// Amount is signed: a credit is positive, a debit negative.
	Amount   decimal.Decimal
	Currency string
	// BalanceAfter is the booked balance just after this booking as the
	// platform reports it; HasBalanceAfter is false when it reports none.
	BalanceAfter    decimal.Decimal
	HasBalanceAfter bool
	// Sequence is the platform's booking sequence number (1, 2, … per
	// account); 0 when it gives none.
	Sequence int
}

// Credit reports whether the entry brought money in.
func (e *Entry) Credit() bool { return e.Amount.Sign() > 0 }

// bookedBefore orders entries as they were booked: booking date, then the
// sequence number, then id (for a stable order when both tie).
func bookedBefore(a, b *Entry) bool {
	if !a.BookingDate.Equal(b.BookingDate) {
		return a.BookingDate.Before(b.BookingDate)
	}
	if a.Sequence != b.Sequence {
		return a.Sequence < b.Sequence
	}
	return a.ID < b.ID
}

// ParseAmount reads an AmountValue (a dot-separated decimal string, "-" for
// negatives: "12.5", "-1.50", "100") exactly. Anything else (exponents,
// commas, spaces, "+") is refused: an amount is never guessed.
func ParseAmount(s string) (decimal.Decimal, error) {
	digits := strings.TrimPrefix(s, "-")
	whole, frac, dot := strings.Cut(digits, ".")
	if whole == "" || !allDigits(whole) || (dot && (frac == "" || !allDigits(frac))) {
		return decimal.Decimal{}, fmt.Errorf("amount %q is not a decimal number such as 12.50", s)
	}
	return decimal.NewFromString(s)
}

// SignedAmount is the platform's amount (positive, with a side) as it moves
// the balance: negative for a Debit.
func SignedAmount(value, side string) (decimal.Decimal, error) {
	d, err := ParseAmount(value)
	if err != nil {
		return d, err
	}
	switch side {
	case "Debit":
		return d.Neg(), nil
	case "Credit":
		return d, nil
	}
	return decimal.Decimal{}, fmt.Errorf("side %q is neither Credit nor Debit", side)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// minorUnits are the ISO 4217 currencies whose minor unit is not the
// hundredth; every other currency shows two decimals.
var minorUnits = map[string]int32{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
	"RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
}

// Decimals is how many decimals currency's amounts are shown with.
func Decimals(currency string) int32 {
	if n, ok := minorUnits[currency]; ok {
		return n
	}
	return 2
}

// Format writes d with the currency's decimals, or more when d has more:
// never rounded. "1234.5" in EUR is "1234.50".
func Format(d decimal.Decimal, currency string) string {
	places := max(Decimals(currency), -d.Exponent())
	return d.StringFixed(places)
}

// FormatSigned is Format with a "+" before a positive amount.
func FormatSigned(d decimal.Decimal, currency string) string {
	if d.Sign() > 0 {
		return "+" + Format(d, currency)
	}
	return Format(d, currency)
}

// Day is a UTC calendar day, the unit of the balance history: the
// platform's dates are UTC, and so is everything partnertui shows.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Period is the days from First to Last, both included (UTC days).
type Period struct {
	First, Last time.Time
}

// LastDays is the n days that end with the day of now.
func LastDays(now time.Time, n int) Period {
	last := Day(now)
	return Period{First: last.AddDate(0, 0, -(n - 1)), Last: last}
}

// Start is the first instant of the period; End the first instant after it.
func (p Period) Start() time.Time { return p.First }
func (p Period) End() time.Time   { return p.Last.AddDate(0, 0, 1) }

// Days is how many days the period has.
func (p Period) Days() int { return int(p.End().Sub(p.First) / (24 * time.Hour)) }

// index is t's day within the period: -1 before it, Days() after it.
func (p Period) index(t time.Time) int {
	switch {
	case t.Before(p.First):
		return -1
	case !t.Before(p.End()):
		return p.Days()
	}
	return int(t.Sub(p.First) / (24 * time.Hour))
}

func (p Period) String() string {
	return p.First.Format(time.DateOnly) + " to " + p.Last.Format(time.DateOnly)
}
