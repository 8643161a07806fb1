package data

import "time"

// Spending is what a card or a membership spent in the window of its
// spending limit's period, and the window.
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
	return s.spent(&s.accounts[c.AccountIndex], c.Currency, func(t *Transaction) bool { return t.CardID == c.ID })
}

// MembershipSpending sums what a membership's cards spent in the window
// of its spending limit, as CardSpending does for one card: the
// membership's limit caps all its cards together.
func (s *Store) MembershipSpending(m Membership) Spending {
	a := &s.accounts[m.AccountIndex]
	mine := map[string]bool{}
	for _, c := range s.membershipCards(a, &m) {
		mine[c.ID] = true
	}
	return s.spent(a, a.Currency, func(t *Transaction) bool { return mine[t.CardID] })
}

// spent sums the card debits of account a that match, in the monthly
// window ending now.
func (s *Store) spent(a *Account, currency string, match func(*Transaction) bool) Spending {
	end := laterOf(s.now().UTC(), s.epoch).Truncate(time.Hour)
	sp := Spending{Period: "Monthly", Currency: currency, Start: end.AddDate(0, -1, 0), End: end}
	for _, t := range s.transactions(a) {
		if t.CardID == "" || t.Kind != KindCard || t.Side != "Debit" || !match(&t) {
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
