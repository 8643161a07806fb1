package data

import "testing"

// TestBookedBalanceIsTheBookingsServed: an account's booked balance is
// the sum of its Booked transactions and each one's balanceAfter the sum
// up to it, deferred debit cards' accounts included: a Settled card
// payment was posted through another booked transaction (the schema's
// words), which the generator does not book, so it moves no balance.
func TestBookedBalanceIsTheBookingsServed(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 1, 400)
	settled, deferred := 0, 0
	for i := range s.accounts {
		a := &s.accounts[i]
		var booked int64
		seq := 0
		for _, tx := range s.history(a, false) {
			switch tx.Status {
			case StatusBooked:
				booked += tx.Signed()
				seq++
				if tx.BalanceAfter != booked || tx.Sequence != seq {
					t.Fatalf("account %d: booking %d has balanceAfter %d, sequence %d; the bookings before it add up to %d, %d",
						i, seq, tx.BalanceAfter, tx.Sequence, booked, seq)
				}
			case StatusSettled:
				settled++
				if !deferredCards(a) || tx.Type != "CardOutDebit" {
					t.Fatalf("account %d: a Settled %s on an account whose cards are not deferred debit", i, tx.Type)
				}
			case StatusDeferred:
				deferred++
			}
		}
		if b := s.Balances(a); b.Booked != booked {
			t.Fatalf("account %d: booked balance %d, its bookings add up to %d", i, b.Booked, booked)
		}
	}
	if settled == 0 || deferred == 0 {
		t.Fatalf("%d Settled and %d Deferred card payments: the deferred debit cards went untested", settled, deferred)
	}
}
