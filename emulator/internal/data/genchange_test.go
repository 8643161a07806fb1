package data

import (
	"context"
	"errors"
	"testing"
)

// generatedOf finds n generated transactions of type typ in status on
// Opened accounts, with their accounts.
func generatedOf(t *testing.T, s *Store, typ, status string, n int) ([]Transaction, []*Account) {
	t.Helper()
	var txs []Transaction
	var accs []*Account
	for i := range s.accounts {
		a := &s.accounts[i]
		if a.Status != "Opened" {
			continue
		}
		for _, tx := range s.history(a, true) {
			if tx.Type == typ && tx.Status == status {
				txs, accs = append(txs, tx), append(accs, a)
				break // one an account: each step below moves its own balances
			}
		}
		if len(txs) == n {
			return txs, accs
		}
	}
	t.Fatalf("the generated history has fewer than %d %s %s transactions on Opened accounts", n, status, typ)
	return nil, nil
}

// rootCount is how many of the project's transactions are in status.
func rootCount(t *testing.T, s *Store, status string) int {
	t.Helper()
	p, err := s.RootTransactions(context.Background(), TransactionQuery{First: 1, Filter: TransactionFilter{Statuses: []string{status}}})
	if err != nil {
		t.Fatal(err)
	}
	return p.TotalCount
}

// TestStepsApplyToTheGeneratedHistory: a generated Pending outgoing
// transfer is booked or rejected, and a generated Booked incoming one
// returned, as the platform lets a test do with any transaction of the
// right type and status; balances, the transaction as read again, and the
// counts of a status filter all follow.
func TestStepsApplyToTheGeneratedHistory(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 7, 300)
	v := Viewer{Project: true}
	out, accs := generatedOf(t, s, "SepaCreditTransferOut", StatusPending, 2)
	pendingBefore := rootCount(t, s, StatusPending)

	before := s.Balances(accs[0])
	booked, err := s.BookOutgoingTransfer(v, out[0].ID)
	if err != nil || booked.ID != out[0].ID || booked.Status != StatusBooked {
		t.Fatalf("booking generated %s: %+v, %v", out[0].ID, booked, err)
	}
	after := s.Balances(accs[0])
	if after.Booked != before.Booked-out[0].Amount || after.Pending != before.Pending+out[0].Amount || after.Available != before.Available {
		t.Errorf("booking %d cents: balances %+v then %+v", out[0].Amount, before, after)
	}
	if after.Booked != booked.BalanceAfter {
		t.Errorf("the booked transfer's balanceAfter %d, the account's booked balance %d", booked.BalanceAfter, after.Booked)
	}
	again, ok := s.Transaction(out[0].ID)
	if !ok || again.Status != StatusBooked || again.Sequence != booked.Sequence || again.Amount != out[0].Amount || again.Label != out[0].Label {
		t.Errorf("read again: %+v, want it Booked as %d with its amount and label", again, booked.Sequence)
	}
	if _, err := s.BookOutgoingTransfer(v, out[0].ID); !errors.Is(err, ErrWrongState) {
		t.Errorf("booking it twice: %v, want ErrWrongState", err)
	}

	before = s.Balances(accs[1])
	rejected, err := s.RejectOutgoingTransfer(v, out[1].ID, "AccountClosed")
	if err != nil || rejected.Status != StatusRejected || rejected.RejectedReason != "AccountClosed" {
		t.Fatalf("rejecting generated %s: %+v, %v", out[1].ID, rejected, err)
	}
	if after := s.Balances(accs[1]); after.Available != before.Available+out[1].Amount || after.Booked != before.Booked {
		t.Errorf("rejecting %d cents: balances %+v then %+v", out[1].Amount, before, after)
	}
	if got := rootCount(t, s, StatusPending); got != pendingBefore-2 {
		t.Errorf("Pending transactions: %d after booking one and rejecting one of %d", got, pendingBefore)
	}

	in, inAccs := generatedOf(t, s, "SepaCreditTransferIn", StatusBooked, 1)
	before = s.Balances(inAccs[0])
	ret, err := s.ReturnIncomingTransfer(v, in[0].ID)
	if err != nil || ret.Type != "SepaCreditTransferInReturn" || ret.Amount != in[0].Amount || ret.Side != "Debit" {
		t.Fatalf("returning generated %s: %+v, %v", in[0].ID, ret, err)
	}
	if after := s.Balances(inAccs[0]); after.Booked != before.Booked-in[0].Amount {
		t.Errorf("returning %d cents: balances %+v then %+v", in[0].Amount, before, after)
	}
	if _, err := s.ReturnIncomingTransfer(v, in[0].ID); !errors.Is(err, ErrWrongState) {
		t.Errorf("returning it twice: %v, want ErrWrongState", err)
	}
	if _, err := s.BookOutgoingTransfer(v, in[0].ID); !errors.Is(err, ErrWrongState) {
		t.Errorf("booking an incoming transfer as outgoing: %v, want ErrWrongState", err)
	}

	auth, authAccs := generatedOf(t, s, "CardOutAuthorization", StatusPending, 1)
	before = s.Balances(authAccs[0])
	debit, err := s.DebitCard(v, auth[0].ID, 0)
	if err != nil || debit.Type != "CardOutDebit" || debit.Amount != auth[0].Amount || debit.ID == auth[0].ID {
		t.Fatalf("debiting generated authorization %s: %+v, %v", auth[0].ID, debit, err)
	}
	after = s.Balances(authAccs[0])
	if after.Booked != before.Booked-auth[0].Amount || after.Reserved != before.Reserved-auth[0].Amount || after.Available != before.Available {
		t.Errorf("debiting %d cents: balances %+v then %+v", auth[0].Amount, before, after)
	}
	if released, _ := s.Transaction(auth[0].ID); released.Status != StatusReleased || released.ReleasedReason != "Captured" {
		t.Errorf("the authorization after its debit: %+v", released)
	}
}

// TestGeneratedStepsNeedTheAccount: a user who is no member of the
// account does not find its generated transactions.
func TestGeneratedStepsNeedTheAccount(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 7, 300)
	out, _ := generatedOf(t, s, "SepaCreditTransferOut", StatusPending, 1)
	if _, err := s.BookOutgoingTransfer(Viewer{UserID: "no-such-user"}, out[0].ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("a stranger booking %s: %v, want ErrNotFound", out[0].ID, err)
	}
}

// TestIncomingDirectDebitBooking: a direct debit an account collects is
// Pending until its booking, which credits the account once.
func TestIncomingDirectDebitBooking(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 7, 300)
	v := Viewer{Project: true}
	dd, accs := generatedOf(t, s, "SepaDirectDebitIn", StatusPending, 1)
	before := s.Balances(accs[0])
	booked, err := s.BookIncomingDirectDebit(v, dd[0].ID)
	if err != nil || booked.Status != StatusBooked || booked.Side != "Credit" {
		t.Fatalf("booking %s: %+v, %v", dd[0].ID, booked, err)
	}
	after := s.Balances(accs[0])
	if after.Booked != before.Booked+dd[0].Amount || after.Pending != before.Pending-dd[0].Amount || after.Available != before.Available {
		t.Errorf("booking %d cents: balances %+v then %+v", dd[0].Amount, before, after)
	}
	if _, err := s.BookIncomingDirectDebit(v, dd[0].ID); !errors.Is(err, ErrWrongState) {
		t.Errorf("booking it twice: %v, want ErrWrongState", err)
	}
	out, _ := generatedOf(t, s, "SepaCreditTransferOut", StatusPending, 1)
	if _, err := s.BookIncomingDirectDebit(v, out[0].ID); !errors.Is(err, ErrWrongState) {
		t.Errorf("booking an outgoing transfer as a direct debit: %v, want ErrWrongState", err)
	}
	if _, err := s.BookIncomingDirectDebit(v, "no-such-transaction"); !errors.Is(err, ErrNotFound) {
		t.Errorf("booking no transaction: %v, want ErrNotFound", err)
	}
}
