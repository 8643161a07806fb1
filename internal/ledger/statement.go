package ledger

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"
)

// Statement is one export in the making: the bookings of a period, folded
// to prove the period adds up, and kept aside (Spool) to be written in
// booking order once it does. Nothing is written before Finish has checked.
type Statement struct {
	Account Account
	Period  Period
	Created time.Time
	fold    *Fold
	spool   *Spool
	hist    *History
}

// NewStatement starts the statement of acct over period; now are its
// balances as the platform reports them, created the statement's date.
// The spool lives in spoolDir ("" for the system's temporary directory).
func NewStatement(acct Account, period Period, now Balances, created time.Time, spoolDir string) (*Statement, error) {
	sp, err := NewSpool(spoolDir)
	if err != nil {
		return nil, err
	}
	return &Statement{Account: acct, Period: period, Created: created, fold: NewFold(period, now), spool: sp}, nil
}

// Since is when the bookings the statement needs start (see Fold.Since).
func (s *Statement) Since() time.Time { return s.fold.Since() }

// Add folds entries in and keeps those booked in the period.
func (s *Statement) Add(entries ...Entry) error {
	if err := s.fold.Add(entries...); err != nil {
		return err
	}
	for i := range entries {
		if d := s.Period.index(entries[i].BookingDate); d >= 0 && d < s.Period.Days() {
			if err := s.spool.Add(&entries[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Before is Fold.Before.
func (s *Statement) Before(e *Entry) { s.fold.Before(e) }

// Finish checks the period once every page was added: a *Mismatch when
// its balances do not add up.
func (s *Statement) Finish() (History, error) {
	s.fold.Done()
	h := s.fold.History()
	s.hist = &h
	if h.Mismatch != nil {
		return h, h.Mismatch
	}
	return h, nil
}

func (s *Statement) checked() (*History, error) {
	if s.hist == nil {
		return nil, fmt.Errorf("the statement is written only once Finish has checked it")
	}
	if s.hist.Mismatch != nil {
		return nil, s.hist.Mismatch
	}
	return s.hist, nil
}

// WriteCSV writes the period's bookings, oldest first, each with the
// running booked balance after it (from the opening balance).
func (s *Statement) WriteCSV(w io.Writer) error {
	h, err := s.checked()
	if err != nil {
		return err
	}
	cw, err := NewCSVWriter(w)
	if err != nil {
		return err
	}
	running := h.Opening
	err = s.spool.Each(func(e *Entry) error {
		running = running.Add(e.Amount)
		return cw.Row(e, e.BookingDate, Format(running, e.Currency))
	})
	if err != nil {
		return err
	}
	return s.finalCheck(running, cw.Flush())
}

// WriteCamt053 writes the period as an ISO 20022 camt.053
// BankToCustomerStatement: the account, its opening and closing booked
// balances, the totals, and one entry per booking, oldest first.
func (s *Statement) WriteCamt053(w io.Writer) error {
	h, err := s.checked()
	if err != nil {
		return err
	}
	cw := &camtWriter{w: w, enc: xml.NewEncoder(w)}
	if err := cw.head(s.Account, s.Period, s.Created, h); err != nil {
		return fmt.Errorf("could not write the statement: %w", err)
	}
	running := h.Opening
	err = s.spool.Each(func(e *Entry) error {
		running = running.Add(e.Amount)
		if err := cw.entry(e); err != nil {
			return fmt.Errorf("could not write the statement: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.finalCheck(running, cw.end())
}

// finalCheck is the last word on what was written: the entries as written
// lead from the opening to the closing balance. The fold proved it; this
// proves the writing lost nothing on the way.
func (s *Statement) finalCheck(running decimal.Decimal, werr error) error {
	if werr != nil {
		return werr
	}
	if !running.Equal(s.hist.Closing) {
		return fmt.Errorf("the entries written lead to %s, not to the closing balance %s", running, s.hist.Closing)
	}
	return nil
}

// Close removes what the statement kept aside.
func (s *Statement) Close() error { return s.spool.Close() }
