package ledger

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// Spool keeps a statement's entries on disk while the pages come, newest
// update first, so they can be written in booking order once the period has
// been checked: in memory it holds 32 bytes per entry (when and where each
// one is), never the entries. The file is unlinked as soon as it is made
// (where the system allows): nothing is left behind, even after a crash.
type Spool struct {
	f    *os.File
	w    *bufio.Writer
	off  int64
	refs []spoolRef
	buf  []byte
}

// spoolRef is where an entry lies in the file, and what orders it.
type spoolRef struct {
	at  int64 // booking date, Unix nanoseconds
	seq int64
	off int64
	n   int64
}

// spooled is an Entry as the spool writes it: amounts as exact strings.
type spooled struct {
	ID, Ref, ExtRef, Type, Product, Cp, CpIBAN, CpBIC, Label, Status string
	Booked, Value, Updated                                           time.Time
	Amount, Currency, After                                          string
	HasAfter                                                         bool
	Seq                                                              int
}

// NewSpool makes a spool in dir ("" for the system's temporary directory).
func NewSpool(dir string) (*Spool, error) {
	f, err := os.CreateTemp(dir, "partnertui-statement-*")
	if err != nil {
		return nil, fmt.Errorf("could not make a temporary file for the statement: %w", err)
	}
	// Unlinked at once: the open file lives on until Close, then vanishes.
	// (Windows refuses; Close removes it there.)
	_ = os.Remove(f.Name())
	return &Spool{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Add appends e.
func (s *Spool) Add(e *Entry) error {
	b, err := json.Marshal(spooled{ID: e.ID, Ref: e.Reference, ExtRef: e.ExternalReference, Type: e.Type, Product: e.Product,
		Cp: e.Counterparty, CpIBAN: e.CounterpartyIBAN, CpBIC: e.CounterpartyBIC, Label: e.Label, Status: e.Status,
		Booked: e.BookingDate, Value: e.ValueDate, Updated: e.UpdatedAt, Amount: e.Amount.String(), Currency: e.Currency,
		After: e.BalanceAfter.String(), HasAfter: e.HasBalanceAfter, Seq: e.Sequence})
	if err != nil {
		return fmt.Errorf("could not keep booking %s aside: %w", e.ID, err)
	}
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("could not keep booking %s aside: %w", e.ID, err)
	}
	s.refs = append(s.refs, spoolRef{at: e.BookingDate.UnixNano(), seq: int64(e.Sequence), off: s.off, n: int64(len(b))})
	s.off += int64(len(b))
	return nil
}

// Len is how many entries the spool holds.
func (s *Spool) Len() int { return len(s.refs) }

// Each calls fn with every entry in booking order (booking date, then
// sequence number, then the order they were added in).
func (s *Spool) Each(fn func(*Entry) error) error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("could not read the statement back: %w", err)
	}
	slices.SortStableFunc(s.refs, func(a, b spoolRef) int {
		if a.at != b.at {
			if a.at < b.at {
				return -1
			}
			return 1
		}
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	var e Entry
	for _, r := range s.refs {
		if cap(s.buf) < int(r.n) {
			s.buf = make([]byte, r.n)
		}
		b := s.buf[:r.n]
		if _, err := s.f.ReadAt(b, r.off); err != nil && err != io.EOF {
			return fmt.Errorf("could not read the statement back: %w", err)
		}
		var sp spooled
		if err := json.Unmarshal(b, &sp); err != nil {
			return fmt.Errorf("could not read the statement back: %w", err)
		}
		e = Entry{ID: sp.ID, Reference: sp.Ref, ExternalReference: sp.ExtRef, Type: sp.Type, Product: sp.Product,
			Counterparty: sp.Cp, CounterpartyIBAN: sp.CpIBAN, CounterpartyBIC: sp.CpBIC, Label: sp.Label, Status: sp.Status,
			BookingDate: sp.Booked, ValueDate: sp.Value, UpdatedAt: sp.Updated, Currency: sp.Currency,
			HasBalanceAfter: sp.HasAfter, Sequence: sp.Seq}
		var err error
		if e.Amount, err = decimal.NewFromString(sp.Amount); err != nil {
			return fmt.Errorf("could not read the statement back: %w", err)
		}
		if e.BalanceAfter, err = decimal.NewFromString(sp.After); err != nil {
			return fmt.Errorf("could not read the statement back: %w", err)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the spool.
func (s *Spool) Close() error {
	err := s.f.Close()
	_ = os.Remove(s.f.Name())
	return err
}
