package api

import (
	"context"
	"slices"
	"testing"

	"github.com/partnertui/partnertui/internal/platform"
)

// mergedRun is a user-token client of an emulator of the test's own (so
// no other test adds transactions while the lists are compared).
func mergedRun(t *testing.T) (*Client, context.Context) {
	t.Helper()
	e := newSplitEmulator(t, 120)
	_, userToken := sandboxUser(t, e.info)
	return emulatorClient(t, e.info, "sandbox", userToken, nil), context.Background()
}

// perAccount is the transactions p matches, read as the user token did
// before the merged walk: the accounts, then each account's pages in
// turn; and the requests that took.
func perAccount(t *testing.T, c *Client, p TransactionsParams) ([]TransactionDetail, int) {
	t.Helper()
	ctx := context.Background()
	before := c.Status().Used
	var all []TransactionDetail
	err := Walk(ctx, Pages(c.Accounts, AccountsParams{First: 100, OrderBy: OrderCreatedAt, Direction: DirectionDesc}), func(accounts *Page[Account]) error {
		for _, a := range accounts.Items {
			q := p
			q.AccountID = a.ID
			if err := Walk(ctx, Pages(c.TransactionList, q), func(page *Page[TransactionDetail]) error {
				all = append(all, page.Items...)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all, c.Status().Used - before
}

// merged reads the whole merged list, n rows per Next, and the requests
// that took.
func merged(t *testing.T, c *Client, p TransactionsParams, n int, ahead bool) ([]TransactionDetail, int) {
	t.Helper()
	return mergedFrom(t, c, c, p, n, ahead)
}

// plainPager hides a client's AccountsTransactionHeads: the merge reads
// each account's first page apart from the accounts, as from a pager
// without it.
type plainPager struct{ TransactionPager }

// mergedFrom is merged, reading from src (c or c behind plainPager).
func mergedFrom(t *testing.T, c *Client, src TransactionPager, p TransactionsParams, n int, ahead bool) ([]TransactionDetail, int) {
	t.Helper()
	before := c.Status().Used
	m := MergeTransactions(src, p, ahead)
	var all []TransactionDetail
	for more := true; more; {
		rows, m2, err := m.Next(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 && m2 {
			t.Fatal("Next handed out no rows yet said there were more")
		}
		all, more = append(all, rows...), m2
	}
	if _, _, _, ended := m.Progress(); !ended {
		t.Error("the list was read to its end but Progress says it was not")
	}
	return all, c.Status().Used - before
}

// wantMergedOf checks that got is want's transactions, each once, newest
// execution first.
func wantMergedOf(t *testing.T, got, want []TransactionDetail) {
	t.Helper()
	if len(want) == 0 {
		t.Fatal("the fixture has no transactions to merge")
	}
	ids := func(l []TransactionDetail) []string {
		out := make([]string, len(l))
		for i, x := range l {
			out[i] = x.ID
		}
		slices.Sort(out)
		return out
	}
	g, w := ids(got), ids(want)
	if len(slices.Compact(slices.Clone(g))) != len(g) {
		t.Error("the merged list has a transaction twice")
	}
	if !slices.Equal(g, w) {
		t.Fatalf("the merged list has %d transactions, the accounts' lists %d, or not the same ones", len(g), len(w))
	}
	for i := 1; i < len(got); i++ {
		if got[i].ExecutionDate.After(got[i-1].ExecutionDate) {
			t.Fatalf("row %d (%s) is newer than row %d (%s): not newest first", i, got[i].ExecutionDate, i-1, got[i-1].ExecutionDate)
		}
	}
	// The rows are exactly the accounts' lists merged and sorted: the
	// same sequence of dates.
	sorted := slices.Clone(want)
	slices.SortStableFunc(sorted, func(a, b TransactionDetail) int { return b.ExecutionDate.Compare(a.ExecutionDate) })
	for i := range got {
		if !got[i].ExecutionDate.Equal(sorted[i].ExecutionDate) {
			t.Fatalf("row %d is of %s, the merged and sorted lists' of %s", i, got[i].ExecutionDate, sorted[i].ExecutionDate)
		}
	}
}

// TestMergedTransactionsAreTheAccountsListsMerged: every transaction of
// every account the user sees, newest first, each once, also read a few
// rows at a time and with pages read ahead.
func TestMergedTransactionsAreTheAccountsListsMerged(t *testing.T) {
	t.Parallel()
	c, _ := mergedRun(t)
	p := TransactionsParams{OrderBy: TxOrderExecutionDate, Direction: DirectionDesc}
	want, today := perAccount(t, c, p)
	for _, tc := range []struct {
		n     int
		ahead bool
	}{{50, false}, {7, false}, {100, true}} {
		got, now := merged(t, c, p, tc.n, tc.ahead)
		wantMergedOf(t, got, want)
		t.Logf("%d transactions, %d rows a read, ahead %v: %d requests merged, %d in turn", len(got), tc.n, tc.ahead, now, today)
	}
}

// TestMergedTransactionsFilterCostsAFifth: a filter over every account
// the user sees reads five accounts per request, so it costs about a
// fifth of the requests of reading the accounts in turn.
func TestMergedTransactionsFilterCostsAFifth(t *testing.T) {
	t.Parallel()
	c, _ := mergedRun(t)
	p := TransactionsParams{Status: []string{"Booked"}, IsAboveAmount: "100", OrderBy: TxOrderExecutionDate, Direction: DirectionDesc}
	want, today := perAccount(t, c, p)
	got, now := merged(t, c, p, 50, false)
	wantMergedOf(t, got, want)
	t.Logf("a filter over every account: %d requests in turn, %d merged (%d transactions)", today, now, len(got))
	if today < 50 {
		t.Fatalf("the fixture's user reads its accounts' lists in %d requests: too few accounts to measure", today)
	}
	if 4*now > today {
		t.Errorf("the merged filter took %d requests, reading the accounts in turn %d: want at most a quarter", now, today)
	}
}

// TestMergedTransactionsFirstPageThenOnward: a first screenful arrives
// whole, and reading on from it gives the rest; the order key follows
// OrderBy.
func TestMergedTransactionsFirstPageThenOnward(t *testing.T) {
	t.Parallel()
	c, ctx := mergedRun(t)
	p := TransactionsParams{OrderBy: TxOrderCreatedAt}
	m := MergeTransactions(c, p, false)
	first, more, err := m.Next(ctx, 20)
	if err != nil || !more || len(first) != 20 {
		t.Fatalf("the first 20 rows: %d rows, more %v, %v", len(first), more, err)
	}
	if started, accounts, total, _ := m.Progress(); started != accounts || accounts == 0 || total < 20 {
		t.Errorf("after the first rows: %d of %d accounts started, %d transactions known", started, accounts, total)
	}
	rest, _ := merged(t, c, p, 100, true)
	for i, r := range first {
		if r.ID != rest[i].ID {
			t.Fatalf("row %d of the first page is %s, of the whole list %s", i, r.ID, rest[i].ID)
		}
	}
	for i := 1; i < len(rest); i++ {
		if rest[i].CreatedAt.After(rest[i-1].CreatedAt) {
			t.Fatalf("ordered by createdAt: row %d is newer than row %d", i, i-1)
		}
	}
}

// TestMergedTransactionsWithHeadsPastFiveHundred: the first rows of each
// account come with the accounts, a hundred accounts a request, so a user
// who sees more than MaxMergedAccounts accounts still gets one list,
// newest first, exactly the accounts' lists merged, and its first rows
// cost a request per hundred accounts and a few more.
func TestMergedTransactionsWithHeadsPastFiveHundred(t *testing.T) {
	t.Parallel()
	e := newSplitEmulator(t, MaxMergedAccounts+150)
	_, userToken := sandboxUser(t, e.info)
	c := emulatorClient(t, e.info, "sandbox", userToken, nil)
	p := TransactionsParams{Status: []string{"Booked"}, IsAboveAmount: "500", OrderBy: TxOrderExecutionDate, Direction: DirectionDesc}

	m := MergeTransactions(c, p, false)
	before := c.Status().Used
	first, more, err := m.Next(context.Background(), 50)
	if err != nil || !more || len(first) != 50 {
		t.Fatalf("the first 50 rows: %d, more %v, %v", len(first), more, err)
	}
	_, accounts, _, _ := m.Progress()
	used := c.Status().Used - before
	t.Logf("%d accounts: the first 50 rows took %d requests", accounts, used)
	if m.InTurn() || accounts <= MaxMergedAccounts {
		t.Fatalf("%d accounts, in turn %v: want more than %d, merged", accounts, m.InTurn(), MaxMergedAccounts)
	}
	if heads := (accounts + platform.PageMax - 1) / platform.PageMax; used > heads+5 {
		t.Errorf("the first rows took %d requests, want at most the %d pages of accounts and 5", used, heads)
	}

	want, inTurn := perAccount(t, c, p)
	got, now := merged(t, c, p, 50, false)
	wantMergedOf(t, got, want)
	t.Logf("the whole list: %d requests merged, %d in turn (%d transactions)", now, inTurn, len(got))
}

// A server that refuses the accounts with their first rows for a limit
// gets the accounts alone, and each account's first page apart: the same
// list, at a request per five accounts.
func TestMergedTransactionsWithoutHeadsAfterALimit(t *testing.T) {
	t.Parallel()
	e := newSplitEmulator(t, 120)
	e.refuseOp = OpAccountsTransactionHeads
	_, userToken := sandboxUser(t, e.info)
	c := e.clientWith(t, userToken)
	p := TransactionsParams{Status: []string{"Booked"}, IsAboveAmount: "100", OrderBy: TxOrderExecutionDate, Direction: DirectionDesc}
	want, _ := perAccount(t, c, p)
	got, requests := merged(t, c, p, 50, false)
	wantMergedOf(t, got, want)
	if n := e.refused.Load(); n != 1 {
		t.Errorf("the operation was refused %d times, want once: the walk goes on without it", n)
	}
	t.Logf("after the refusal: %d requests", requests)
}

// TestMergedTransactionsInTurnPastTheMergeable: from a pager that cannot
// read the accounts with their first rows, a user who sees more accounts
// than MaxMergedAccounts gets each account's list in turn, in the
// accounts' order, nothing missed or twice, the first rows without
// reading every account.
func TestMergedTransactionsInTurnPastTheMergeable(t *testing.T) {
	t.Parallel()
	e := newSplitEmulator(t, MaxMergedAccounts+150)
	_, userToken := sandboxUser(t, e.info)
	c := emulatorClient(t, e.info, "sandbox", userToken, nil)
	p := TransactionsParams{Status: []string{"Booked"}, IsAboveAmount: "500", OrderBy: TxOrderExecutionDate, Direction: DirectionDesc}

	m := MergeTransactions(plainPager{c}, p, false)
	before := c.Status().Used
	first, more, err := m.Next(context.Background(), 5)
	if err != nil || !more || len(first) != 5 {
		t.Fatalf("the first 5 rows: %d, more %v, %v", len(first), more, err)
	}
	if _, accounts, _, _ := m.Progress(); !m.InTurn() || accounts <= MaxMergedAccounts {
		t.Fatalf("%d accounts, in turn %v: want more than %d, in turn", accounts, m.InTurn(), MaxMergedAccounts)
	}
	if used := c.Status().Used - before; used > 10 {
		t.Errorf("the first 5 rows in turn took %d requests", used)
	}

	want, _ := perAccount(t, c, p)
	got, _ := mergedFrom(t, c, plainPager{c}, p, 50, true)
	if len(got) != len(want) {
		t.Fatalf("in turn: %d rows, the accounts' lists %d", len(got), len(want))
	}
	for i := range got {
		if got[i].ID != want[i].ID {
			t.Fatalf("row %d in turn is %s, of the accounts' lists in turn %s", i, got[i].ID, want[i].ID)
		}
	}
}
