package data

import "time"

// Spending is what a card spent in the window of its spending limit's
// period, and the window.
type Spending struct {
	Period     string // SpendingLimitPeriod
	Amount     int64  // cents
	Currency   string
	Start, End time.Time
}

// CardSpending sums what a card spent in its spending limit's window, from
// the account's transactions: its card debits that are not undone
// (Pending, Booked, Deferred, Settled), authorizations still Pending
// included, refunds not deducted. The window is the platform's default,
// rolling: a month back from now, by the hour (a payment counts from the
// start of its hour). Now is the later of the emulator's clock and the end
// of the generated history.
func (s *Store) CardSpending(c Card) Spending {
	end := laterOf(s.now().UTC(), s.epoch).Truncate(time.Hour)
	sp := Spending{Period: "Monthly", Currency: c.Currency, Start: end.AddDate(0, -1, 0), End: end}
	for _, t := range s.transactions(&s.accounts[c.AccountIndex]) {
		if t.CardID != c.ID || t.Kind != KindCard || t.Side != "Debit" {
			continue
		}
		switch t.Status {
		case StatusPending, StatusBooked, StatusDeferred, StatusSettled:
		default:
			continue
		}
		if at := t.CreatedAt.Truncate(time.Hour); !at.Before(sp.Start) && !at.After(end) {
			sp.Amount += t.Amount
		}
	}
	return sp
}
