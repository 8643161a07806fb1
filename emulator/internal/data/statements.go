package data

import (
	"slices"
	"time"
)

// Account statement statuses (AccountStatementStatus).
const (
	StatementGenerated = "Generated"
	StatementPending   = "Pending"
	StatementFailed    = "Failed"
	StatementVoided    = "Voided"
)

// Statement is a monthly account statement.
type Statement struct {
	ID                             string
	AccountIndex                   int32
	N                              int // months since the account's first statement
	OpeningDate, ClosingDate       time.Time
	OpeningBalance, ClosingBalance int64 // booked, cents
	TotalCredits, TotalDebits      int64 // every booked movement of the window
	FeeCredits, FeeDebits          int64 // the fees among them
	Status                         string
	Currency                       string
	CreatedAt, UpdatedAt           time.Time
}

// maxStatements bounds an account's statements: its three years of life.
const maxStatements = 40

// statements builds the account's monthly statements, oldest first: one
// per month from its creation to the last month complete at the epoch. They
// sum its booked transactions, so they agree with its history.
func (s *Store) statements(a *Account) []Statement {
	var months []time.Time
	for m := time.Date(a.CreatedAt.Year(), a.CreatedAt.Month(), 1, 0, 0, 0, 0, time.UTC); !m.AddDate(0, 1, 0).After(s.epoch) && len(months) < maxStatements; m = m.AddDate(0, 1, 0) {
		months = append(months, m)
	}
	if len(months) == 0 {
		return nil
	}
	txs := s.history(a, false)
	out := make([]Statement, len(months))
	var booked int64
	j := 0
	for n, m := range months {
		st := Statement{
			ID:           s.entityID(kindStatement, uint64(a.idx)<<8|uint64(n)),
			AccountIndex: a.idx,
			N:            n,
			OpeningDate:  laterOf(m, a.CreatedAt),
			ClosingDate:  m.AddDate(0, 1, 0).Add(-time.Millisecond),
			Currency:     a.Currency,
			Status:       StatementGenerated,
		}
		st.OpeningBalance = booked
		end := m.AddDate(0, 1, 0)
		for ; j < len(txs) && txs[j].CreatedAt.Before(end); j++ {
			t := &txs[j]
			if !t.affectsBooked() {
				continue
			}
			booked += t.Signed()
			switch {
			case t.Kind == KindFee && t.Side == "Credit":
				st.FeeCredits += t.Amount
			case t.Kind == KindFee:
				st.FeeDebits += t.Amount
			}
			if t.Side == "Credit" {
				st.TotalCredits += t.Amount
			} else {
				st.TotalDebits += t.Amount
			}
		}
		st.ClosingBalance = booked
		st.CreatedAt = end.Add(26 * time.Hour)
		st.UpdatedAt = st.CreatedAt
		h := newHrand(a.txSeed, uint64(n), 0x73746d74)
		switch v := h.intn(200); {
		case !st.CreatedAt.Before(s.epoch):
			st.Status = StatementPending
		case v == 0:
			st.Status = StatementFailed
		case v == 1:
			st.Status = StatementVoided
		}
		out[n] = st
	}
	return out
}

// Statement is the statement of this id and its account, when the viewer
// sees the account.
func (s *Store) Statement(v Viewer, id string) (*Account, Statement, bool) {
	pos, ok := s.decodeEntityID(kindStatement, id)
	if !ok {
		return nil, Statement{}, false
	}
	idx, n := int32(pos>>8), int(pos&0xff)
	if idx < 0 || int(idx) >= len(s.accounts) || !s.canSee(v, idx) {
		return nil, Statement{}, false
	}
	a := &s.accounts[idx]
	all := s.statements(a)
	if n >= len(all) {
		return nil, Statement{}, false
	}
	return a, all[n], true
}

// StatementQuery is one page request of an account's statements.
type StatementQuery struct {
	First int
	After string
	// OrderBy is openingDate or closingDate; both order months alike.
	OrderBy                         string
	Asc                             bool // default is newest first
	AfterUpdatedAt, BeforeUpdatedAt time.Time
	Period                          string // Monthly | Custom; empty: any
}

// StatementCursor is the opaque cursor of a statement.
func StatementCursor(st *Statement) string { return encodeCursor("statement", st.ID) }

// Statements pages an account's statements.
func (s *Store) Statements(a *Account, q StatementQuery) (Page[Statement], error) {
	after, err := s.nestedCursor(q.After, "statement", kindStatement, 8)
	if err != nil || (after != nil && after.idx != a.idx) {
		return Page[Statement]{}, ErrBadCursor
	}
	all := s.statements(a)
	sts := all[:0]
	for _, st := range all {
		if (q.Period == "" || q.Period == "Monthly") &&
			(q.AfterUpdatedAt.IsZero() || !st.UpdatedAt.Before(q.AfterUpdatedAt)) &&
			(q.BeforeUpdatedAt.IsZero() || st.UpdatedAt.Before(q.BeforeUpdatedAt)) {
			sts = append(sts, st)
		}
	}
	if !q.Asc {
		slices.Reverse(sts)
	}
	start := 0
	if after != nil {
		start = len(sts)
		for i, st := range sts {
			if (q.Asc && st.N > after.rank) || (!q.Asc && st.N < after.rank) {
				start = i
				break
			}
		}
	}
	return window(sts, start, q.First), nil
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
