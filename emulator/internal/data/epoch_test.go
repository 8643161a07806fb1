package data

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"
)

// demoEpoch is an epoch as --demo chooses one, the start of a UTC day, 28
// days and 15 hours after the default.
var demoEpoch = time.Date(2026, time.November, 29, 0, 0, 0, 0, time.UTC)

func epochStore(t testing.TB, epoch time.Time, n int) *Store {
	t.Helper()
	s, err := New(Config{Env: "sandbox", Seed: 1, Accounts: n, Epoch: epoch})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOneSeedAndEpochGiveOneDataSet: the epoch is part of what a data set
// is made of, with the seed: the same two give the same accounts, users
// and histories; another epoch gives other dates.
func TestOneSeedAndEpochGiveOneDataSet(t *testing.T) {
	t.Parallel()
	a, b := epochStore(t, demoEpoch, 200), epochStore(t, demoEpoch, 200)
	if !reflect.DeepEqual(a.accounts, b.accounts) || !reflect.DeepEqual(a.DemoUsers(), b.DemoUsers()) {
		t.Fatal("two stores with one seed and one epoch differ")
	}
	for _, i := range []int{0, 57, 199} {
		if !reflect.DeepEqual(a.history(&a.accounts[i], true), b.history(&b.accounts[i], true)) {
			t.Fatalf("account %d: the histories differ for one seed and one epoch", i)
		}
	}
	if a.Epoch() != demoEpoch {
		t.Errorf("Epoch() = %s, want %s", a.Epoch(), demoEpoch)
	}
	if d := epochStore(t, time.Time{}, 1); d.Epoch() != DefaultEpoch() {
		t.Errorf("a zero epoch is %s, want the default %s", d.Epoch(), DefaultEpoch())
	}
	c := epochStore(t, demoEpoch.AddDate(0, 0, 1), 200)
	if c.accounts[0].CreatedAt.Equal(a.accounts[0].CreatedAt) {
		t.Error("another epoch must give other dates")
	}
}

// TestALaterEpochShiftsTheData: generated up to a later epoch, the same
// accounts are created that much later, and the newest booking is within
// a day of the epoch, never after it.
func TestALaterEpochShiftsTheData(t *testing.T) {
	t.Parallel()
	def, later := epochStore(t, time.Time{}, 120), epochStore(t, demoEpoch, 120)
	shift := demoEpoch.Sub(DefaultEpoch())
	for i := range def.accounts {
		d, l := &def.accounts[i], &later.accounts[i]
		if d.ID != l.ID || d.IBAN != l.IBAN || !l.CreatedAt.Equal(d.CreatedAt.Add(shift)) {
			t.Fatalf("account %d: %s %s created %s at the default epoch, %s %s created %s at %s: want the same account %s later",
				i, d.ID, d.IBAN, d.CreatedAt, l.ID, l.IBAN, l.CreatedAt, demoEpoch, shift)
		}
	}
	for _, s := range []*Store{def, later} {
		p, err := s.RootTransactions(context.Background(), TransactionQuery{First: 1, OrderBy: "createdAt",
			Filter: TransactionFilter{Statuses: []string{StatusBooked}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != 1 {
			t.Fatalf("epoch %s: no booking", s.Epoch())
		}
		newest := p.Items[0].CreatedAt
		if newest.After(s.Epoch()) || s.Epoch().Sub(newest) > day {
			t.Errorf("epoch %s: the newest booking is at %s, want within the day before the epoch", s.Epoch(), newest)
		}
	}
}

// TestDataIsConsistentAtAnyEpoch: at a later epoch, as at the default
// one, nothing generated is dated after the epoch, balances are their
// bookings, each Upcoming transfer executes after the epoch's day (so
// after any clock of that day, as --demo's), and statements cover only
// months complete at the epoch.
func TestDataIsConsistentAtAnyEpoch(t *testing.T) {
	t.Parallel()
	for _, epoch := range []time.Time{DefaultEpoch(), demoEpoch, time.Date(2031, time.February, 28, 17, 45, 0, 0, time.UTC)} {
		s := epochStore(t, epoch, 400)
		nextMorning := epoch.Truncate(day).Add(day + 8*time.Hour)
		upcoming := 0
		for i := range s.accounts {
			a := &s.accounts[i]
			if a.CreatedAt.After(epoch) || a.UpdatedAt.After(epoch) || a.CreatedAt.Before(epoch.Add(-creationSpan)) {
				t.Fatalf("epoch %s: account %d created %s, updated %s", epoch, i, a.CreatedAt, a.UpdatedAt)
			}
			var booked int64
			for _, tx := range s.history(a, false) {
				if tx.CreatedAt.After(epoch) {
					t.Fatalf("epoch %s: account %d: a %s %s created at %s, after the epoch", epoch, i, tx.Status, tx.Type, tx.CreatedAt)
				}
				switch tx.Status {
				case StatusBooked:
					booked += tx.Signed()
					if tx.BalanceAfter != booked {
						t.Fatalf("epoch %s: account %d: balanceAfter %d, the bookings up to it add up to %d", epoch, i, tx.BalanceAfter, booked)
					}
				case StatusUpcoming:
					upcoming++
					if tx.ExecutionDate.Before(nextMorning) {
						t.Errorf("epoch %s: account %d: an Upcoming transfer executes at %s, before %s", epoch, i, tx.ExecutionDate, nextMorning)
					}
				}
			}
			if b := s.Balances(a); b.Booked != booked {
				t.Fatalf("epoch %s: account %d: booked balance %d, its bookings add up to %d", epoch, i, b.Booked, booked)
			}
			for _, st := range s.statements(a) {
				if st.ClosingDate.After(epoch) {
					t.Fatalf("epoch %s: account %d: statement %d closes at %s", epoch, i, st.N, st.ClosingDate)
				}
			}
		}
		if upcoming == 0 {
			t.Errorf("epoch %s: no Upcoming transfer: the rule went untested", epoch)
		}
	}
}

// TestRecentStatusesAreFoundAtAnyEpoch: the root transactions' query
// searches only the last rounds for what is pending, upcoming or deferred,
// counted back from the store's epoch: at any epoch, before the default
// or after it, it lists each one the histories hold; and a standing order
// still ahead executes after the epoch's day.
func TestRecentStatusesAreFoundAtAnyEpoch(t *testing.T) {
	t.Parallel()
	for _, epoch := range []time.Time{DefaultEpoch(), demoEpoch, time.Date(2024, time.March, 10, 6, 0, 0, 0, time.UTC), time.Date(2031, time.February, 28, 17, 45, 0, 0, time.UTC)} {
		s := epochStore(t, epoch, 400)
		want := map[string][]string{}
		orders := 0
		for i := range s.accounts {
			a := &s.accounts[i]
			for _, tx := range s.history(a, true) {
				want[tx.Status] = append(want[tx.Status], tx.ID)
			}
			for _, o := range s.seededOrders(a) {
				if o.Status == OrderEnabled && !o.NextExecution.IsZero() {
					orders++
					if !o.NextExecution.After(epoch.Truncate(day).Add(day)) {
						t.Errorf("epoch %s: account %d: an Enabled standing order executes next at %s, not after the epoch's day", epoch, i, o.NextExecution)
					}
				}
			}
		}
		for _, status := range []string{StatusPending, StatusUpcoming, StatusDeferred} {
			if len(want[status]) == 0 {
				t.Errorf("epoch %s: no %s transaction: the window went untested", epoch, status)
			}
			p, err := s.RootTransactions(context.Background(), TransactionQuery{First: 1 << 20, OrderBy: "id", Filter: TransactionFilter{Statuses: []string{status}}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tx := range p.Items {
				got = append(got, tx.ID)
			}
			slices.Sort(got)
			slices.Sort(want[status])
			if !slices.Equal(got, want[status]) || p.TotalCount != len(want[status]) {
				t.Errorf("epoch %s: the root query lists %d %s transactions (counts %d), the histories hold %d", epoch, len(got), status, p.TotalCount, len(want[status]))
			}
		}
		if orders == 0 {
			t.Errorf("epoch %s: no Enabled standing order: the rule went untested", epoch)
		}
	}
}
