package data

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestTimelinePositionsAreBijections(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 4, 333)
	for _, r := range []int32{0, rounds / 3, rounds - 1} {
		n := s.roundActive[r]
		seen := make([]bool, n)
		for i := range n {
			p := s.position(i, r)
			if seen[p] {
				t.Fatalf("round %d: two accounts at position %d", r, p)
			}
			seen[p] = true
			if back, ok := s.accountAt(p, r); !ok || back != i {
				t.Fatalf("round %d: position %d inverts to %d, want %d", r, p, back, i)
			}
		}
	}
}

// TestTimelineHoldsEveryTransactionOnce walks every round and checks it
// finds each account's history exactly, in time order.
func TestTimelineHoldsEveryTransactionOnce(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 5, 150)
	want := map[uint64]bool{}
	for i := range s.accounts {
		for _, tx := range s.history(&s.accounts[i], false) {
			want[tx.slot] = true
		}
	}
	var buf []txRef
	var last uint64
	got := 0
	for r := range rounds {
		buf = s.roundTransactions(r, buf[:0])
		for _, ref := range buf {
			if !want[ref.slot] {
				t.Fatalf("round %d lists slot %d, which no history has", r, ref.slot)
			}
			if ref.slot <= last && got > 0 {
				t.Fatalf("slots out of order: %d after %d", ref.slot, last)
			}
			if back, ok := s.refOfSlot(ref.slot); !ok || back != ref {
				t.Fatalf("slot %d resolves to %+v, want %+v", ref.slot, back, ref)
			}
			last = ref.slot
			got++
		}
	}
	if got != len(want) || got != s.txTotal {
		t.Fatalf("the timeline holds %d transactions, the histories %d, txTotal %d", got, len(want), s.txTotal)
	}
}

func TestTransactionAtMatchesHistory(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 6, 40)
	for i := range s.accounts {
		a := &s.accounts[i]
		h := s.history(a, true)
		for k := range h {
			if got := s.transactionAt(a, k); !reflect.DeepEqual(got, h[k]) {
				t.Fatalf("account %d transaction %d: transactionAt differs from the history:\n%+v\n%+v", i, k, got, h[k])
			}
			if byID, ok := s.Transaction(h[k].ID); !ok || !reflect.DeepEqual(byID, h[k]) {
				t.Fatalf("Transaction(%s) differs from the history", h[k].ID)
			}
		}
	}
}

func TestGeneratedIDsDecodeAndForgeriesFail(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 7, 90)
	other := mustStore(t, "live", 7, 90)
	for _, pos := range []uint64{0, 1, 17, 89<<4 | 3} {
		id := s.entityID(kindMembership, pos)
		if got, ok := s.decodeEntityID(kindMembership, id); !ok || got != pos {
			t.Fatalf("membership id %s decodes to %d, %v; want %d", id, got, ok, pos)
		}
		if _, ok := s.decodeEntityID(kindCard, id); ok {
			t.Fatalf("a membership id decodes as a card id")
		}
		if _, ok := other.decodeEntityID(kindMembership, id); ok {
			t.Fatalf("a Sandbox id decodes in Live")
		}
		forged := id[:35] + string("0123456789abcdef"[(strings.IndexByte("0123456789abcdef", id[35])+1)%16])
		if _, ok := s.decodeEntityID(kindMembership, forged); ok {
			t.Fatalf("the forged id %s decodes", forged)
		}
	}
	// Ids sort like positions.
	a, b := s.entityID(kindCard, 40), s.entityID(kindCard, 41)
	if a >= b {
		t.Fatalf("card ids out of position order: %s >= %s", a, b)
	}
	tx := s.history(&s.accounts[3], true)
	for i := 1; i < len(tx); i++ {
		if tx[i-1].ID >= tx[i].ID {
			t.Fatalf("transaction ids out of time order: %s >= %s", tx[i-1].ID, tx[i].ID)
		}
	}
}

// TestDemoUsersHaveEveryCase checks the mix the client's screens need
// for every demo user with accounts, in both environments and at several
// sizes: full rights, a Limited account they may view, a membership
// without canViewAccount, and the newest account open, Unlimited and
// viewable.
func TestDemoUsersHaveEveryCase(t *testing.T) {
	t.Parallel()
	for _, n := range []int{20, 120, 1000} {
		for _, env := range []string{"sandbox", "live"} {
			s := mustStore(t, env, 1, n)
			for d, u := range s.demo {
				m := s.demoM[d]
				full, limitedViewed, hidden := 0, 0, 0
				for i, idx := range m.byCreated {
					a := &s.accounts[idx]
					p := m.profiles[i]
					full += b2i(p == profileFull)
					limitedViewed += b2i(a.PaymentLevel == "Limited" && p != profileCardholder)
					hidden += b2i(p == profileCardholder)
				}
				newest := &s.accounts[m.byCreated[len(m.byCreated)-1]]
				if full < 2 || limitedViewed < 1 || hidden < 1 {
					t.Errorf("%s/%d %s: %d full, %d Limited viewed, %d without view", env, n, u.FirstName, full, limitedViewed, hidden)
				}
				if newest.PaymentLevel != "Unlimited" || newest.Status != "Opened" || !s.CanViewAccount(Viewer{UserID: u.ID}, newest) {
					t.Errorf("%s/%d %s: the newest account is %s/%s", env, n, u.FirstName, newest.PaymentLevel, newest.Status)
				}
			}
		}
	}
}

func TestMembershipsCardsAndStatementsAgree(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 8, 200)
	total, cards := 0, 0
	for i := range s.accounts {
		a := &s.accounts[i]
		ms := s.accountMemberships(a)
		total += len(ms)
		if !ms[0].LegalRepresentative || ms[0].Status != MemberEnabled || ms[0].UserID == "" {
			t.Fatalf("account %d: the first membership is not the legal representative: %+v", i, ms[0])
		}
		for j := range ms {
			m := &ms[j]
			if (m.UserID != "") != bound(m.Status) {
				t.Fatalf("membership %s in status %s has user %q", m.ID, m.Status, m.UserID)
			}
			if got, ok := s.Membership(Viewer{Project: true}, m.ID); !ok || !reflect.DeepEqual(got, *m) {
				t.Fatalf("Membership(%s) differs", m.ID)
			}
			if j > 0 && !ms[j-1].CreatedAt.Before(m.CreatedAt) && !ms[j-1].CreatedAt.Equal(m.CreatedAt) {
				t.Fatalf("memberships out of creation order")
			}
			if m.UserID != "" {
				if u, ok := s.User(m.UserID); !ok || u.FirstName != m.FirstName {
					t.Fatalf("membership %s: user %s not found (%v)", m.ID, m.UserID, ok)
				}
			}
			for _, c := range s.membershipCards(a, m) {
				cards++
				if got, ok := s.Card(Viewer{Project: true}, c.ID); !ok || !reflect.DeepEqual(got, c) {
					t.Fatalf("Card(%s) differs", c.ID)
				}
				if c.MembershipID != m.ID || len(c.ExpiryDate) != 5 || !strings.HasPrefix(c.MaskedNumber, "517943") {
					t.Fatalf("card %+v", c)
				}
			}
		}
		// Statements chain: each opens where the previous closed, and
		// moves by its credits and debits.
		sts := s.statements(a)
		for j, st := range sts {
			if st.ClosingBalance-st.OpeningBalance != st.TotalCredits-st.TotalDebits {
				t.Fatalf("statement %s: %d → %d does not match credits %d and debits %d", st.ID, st.OpeningBalance, st.ClosingBalance, st.TotalCredits, st.TotalDebits)
			}
			if j > 0 && st.OpeningBalance != sts[j-1].ClosingBalance {
				t.Fatalf("statement %s opens at %d, the previous closed at %d", st.ID, st.OpeningBalance, sts[j-1].ClosingBalance)
			}
		}
		if n := len(sts); n > 0 {
			var booked int64
			for _, tx := range s.history(a, false) {
				if tx.affectsBooked() && !tx.CreatedAt.After(sts[n-1].ClosingDate) {
					booked += tx.Signed()
				}
			}
			if sts[n-1].ClosingBalance != booked {
				t.Fatalf("account %d: the last statement closes at %d, the booked balance then was %d", i, sts[n-1].ClosingBalance, booked)
			}
		}
	}
	if total != s.membershipTotal || cards != s.cardTotal {
		t.Fatalf("counted %d memberships and %d cards, the store says %d and %d", total, cards, s.membershipTotal, s.cardTotal)
	}
}

// TestRootTransactionsWalk pages the project's history in each order and
// direction: every transaction once, in order, the descending walk the
// ascending one reversed.
func TestRootTransactionsWalk(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 9, 30)
	if _, err := s.ReceiveTransfer(Viewer{Project: true}, IncomingTransfer{CreditorIBAN: openEUR(t, s).IBAN, Amount: 100, Currency: "EUR", DebtorName: "X", DebtorIBAN: "DE89370400440532013000"}); err != nil {
		t.Fatal(err)
	}
	walk := func(order string, asc bool, f TransactionFilter) []Transaction {
		var out []Transaction
		q := TransactionQuery{First: 37, OrderBy: order, Asc: asc, Filter: f}
		for {
			p, err := s.RootTransactions(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p.Items...)
			if p.TotalCount < len(out) || (q.After != "" && !p.HasPreviousPage) {
				t.Fatalf("%s asc=%v: total %d after %d, previous %v", order, asc, p.TotalCount, len(out), p.HasPreviousPage)
			}
			if !p.HasNextPage {
				if len(out) != p.TotalCount {
					t.Fatalf("%s asc=%v: walked %d of %d", order, asc, len(out), p.TotalCount)
				}
				return out
			}
			q.After = TransactionCursor(&p.Items[len(p.Items)-1])
		}
	}
	var all []Transaction
	for i := range s.accounts {
		all = append(all, s.transactions(&s.accounts[i])...)
	}
	for _, order := range []string{"updatedAt", "createdAt", "executionDate", "id"} {
		asc := walk(order, true, TransactionFilter{})
		desc := walk(order, false, TransactionFilter{})
		if len(asc) != len(all) {
			t.Fatalf("%s: %d transactions, the histories have %d", order, len(asc), len(all))
		}
		seen := map[string]bool{}
		for i, tx := range asc {
			if seen[tx.ID] {
				t.Fatalf("%s: %s twice", order, tx.ID)
			}
			seen[tx.ID] = true
			if i > 0 && keyOf(order, &asc[i-1]).compare(keyOf(order, &tx)) >= 0 {
				t.Fatalf("%s: out of order at %d", order, i)
			}
			if order == "id" && i > 0 && asc[i-1].ID >= tx.ID {
				t.Fatalf("id order is not the ids' order: %s then %s", asc[i-1].ID, tx.ID)
			}
			if d := desc[len(desc)-1-i]; d.ID != tx.ID {
				t.Fatalf("%s: the descending walk is not the ascending one reversed at %d", order, i)
			}
		}
	}
	// Filters, against a brute-force count over the histories.
	for _, f := range []TransactionFilter{
		{Statuses: []string{StatusPending}},
		{Statuses: []string{StatusRejected}, ExcludeRejectedWithFallback: true},
		{Types: []string{"CardOutDebit"}, Search: "a"},
		{Products: []string{"Fees"}, Above: ptr(int64(500))},
	} {
		got := walk("updatedAt", false, f)
		want := 0
		for i := range all {
			if f.matchesKind(&all[i]) && f.matchesText(&all[i]) {
				want++
			}
		}
		if len(got) != want || want == 0 {
			t.Fatalf("filter %+v: %d transactions, %d match", f, len(got), want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func openEUR(t *testing.T, s *Store) *Account {
	t.Helper()
	for i := range s.accounts {
		if a := &s.accounts[i]; a.Currency == "EUR" && a.Status == "Opened" && a.PaymentLevel == "Unlimited" {
			return a
		}
	}
	t.Fatal("no open EUR account")
	return nil
}

// TestEveryStatusAndKindIsGenerated checks the mix of the history.
func TestEveryStatusAndKindIsGenerated(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 1, 400)
	statuses, kinds := map[string]int{}, map[string]int{}
	for i := range s.accounts {
		for _, tx := range s.history(&s.accounts[i], false) {
			statuses[tx.Status]++
			kinds[tx.Kind]++
		}
	}
	for _, st := range []string{StatusBooked, StatusPending, StatusUpcoming, StatusRejected, StatusCanceled, StatusReleased, StatusDeferred, StatusSettled} {
		if statuses[st] == 0 {
			t.Errorf("no %s transaction among %v", st, statuses)
		}
	}
	for _, k := range []string{KindSEPACreditTransfer, KindSEPADirectDebit, KindCard, KindOnlineCard, KindInPersonCard, KindInternalCredit, KindFee} {
		if kinds[k] == 0 {
			t.Errorf("no %s among %v", k, kinds)
		}
	}
	if statuses[StatusBooked] < len(s.accounts)*10 || statuses[StatusBooked] < 10*statuses[StatusPending] {
		t.Errorf("booked transactions must dominate: %v", statuses)
	}
}
