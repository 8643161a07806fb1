package api

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	dec "github.com/shopspring/decimal"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/ledger"
)

// bookedLister serves an account's bookings as TransactionList does (the
// filters a balance history uses, most recently updated first, each id its
// cursor) and records each request.
type bookedLister struct {
	txs  []TransactionDetail // most recently updated first
	mu   sync.Mutex
	sent []TransactionsParams
}

func (l *bookedLister) TransactionList(ctx context.Context, p TransactionsParams) (*Page[TransactionDetail], error) {
	l.mu.Lock()
	l.sent = append(l.sent, p)
	l.mu.Unlock()
	return l.page(p)
}

// page is TransactionList's answer, not recorded.
func (l *bookedLister) page(p TransactionsParams) (*Page[TransactionDetail], error) {
	if p.OrderBy != TxOrderUpdatedAt || p.Direction != DirectionDesc || !slices.Equal(p.Status, []string{"Booked"}) {
		return nil, fmt.Errorf("not a balance history's read: %+v", p)
	}
	var rows []TransactionDetail
	for _, t := range l.txs {
		if (p.IsAfterUpdatedAt.IsZero() || !t.UpdatedAt.Before(p.IsAfterUpdatedAt)) &&
			(p.IsBeforeUpdatedAt.IsZero() || t.UpdatedAt.Before(p.IsBeforeUpdatedAt)) {
			rows = append(rows, t)
		}
	}
	start := 0
	if p.After != "" {
		start = slices.IndexFunc(rows, func(t TransactionDetail) bool { return t.ID == p.After }) + 1
		if start == 0 {
			return nil, fmt.Errorf("bad cursor %q", p.After)
		}
	}
	first := p.First
	if first <= 0 {
		first = 100 // the client's page size
	}
	end := min(start+first, len(rows))
	page := &Page[TransactionDetail]{Items: rows[start:end], TotalCount: len(rows)}
	page.PageInfo.HasNextPage = end < len(rows)
	if end > start {
		page.PageInfo.EndCursor = rows[end-1].ID
	}
	return page, nil
}

func (l *bookedLister) requests() []TransactionsParams {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.sent)
}

func amount(t *testing.T, s string) dec.Decimal {
	t.Helper()
	d, err := ledger.ParseAmount(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// dailyBookings are n bookings of 10.00 EUR in, one a day up to end, most
// recently updated first, each with the balance after it: the balance
// now is n×10.00.
func dailyBookings(n int, end time.Time) []TransactionDetail {
	txs := make([]TransactionDetail, n)
	for i := range n {
		at := end.AddDate(0, 0, -(n - 1 - i)).Add(-time.Hour)
		txs[n-1-i] = TransactionDetail{ID: fmt.Sprintf("tx-%03d", i), Side: "Credit", Type: "SepaCreditTransferIn",
			PaymentProduct: "SEPACreditTransfer", Amount: Amount{Value: "10.00", Currency: "EUR"}, UpdatedAt: at,
			StatusInfo: TransactionStatusInfo{Status: "Booked", BookingDate: at, ValueDate: at,
				BalanceAfter: &BookedBalanceAfter{Amount: &Amount{Value: fmt.Sprintf("%d.00", 10*(i+1)), Currency: "EUR"}, SequenceNumber: i + 1}}}
	}
	return txs
}

// viewOf is the account view a client would have read with p from l:
// each part's page as the list alone reads it, l recording none.
func viewOf(t *testing.T, l *bookedLister, p AccountViewParams) *AccountView {
	t.Helper()
	v := &AccountView{}
	for _, list := range []AccountList[TransactionsParams, TransactionDetail]{ViewBooked, ViewBookedBefore} {
		params, ok := list.ParamsIn(p)
		if !ok {
			t.Fatalf("the view does not read %s", list.Name())
		}
		page, err := l.page(params)
		if err != nil {
			t.Fatal(err)
		}
		list.SetPage(v, page)
	}
	return v
}

// A balance history taken from an account's view (BookedParts, then
// ReadBookedFrom) is the one ReadBooked reads on its own: with the view's
// first page the last one, it costs no request; otherwise it reads the
// pages after it, with the arguments of the first, and never the probe
// again.
func TestReadBookedFromTheViewReadsOnlyThePagesAfterIt(t *testing.T) {
	t.Parallel()
	end := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	period := ledger.LastDays(end, 30)
	l := &bookedLister{txs: dailyBookings(45, end)} // 30 in the period, 15 before
	bal := ledger.Balances{Currency: "EUR", Booked: amount(t, "450.00")}
	alone := ledger.NewFold(period, bal)
	if err := ReadBooked(context.Background(), l, "acc-1", alone, nil); err != nil {
		t.Fatal(err)
	}
	alone.Done()
	want := alone.History()
	if want.Bookings != 30 || want.Mismatch != nil || !want.Opening.Equal(amount(t, "150.00")) {
		t.Fatalf("read alone: %d bookings, opening %s, mismatch %v", want.Bookings, want.Opening, want.Mismatch)
	}
	for _, tc := range []struct {
		size, requests int
	}{{100, 0}, {30, 0}, {12, 2}, {29, 1}} {
		t.Run(fmt.Sprint(tc.size), func(t *testing.T) {
			t.Parallel()
			l := &bookedLister{txs: l.txs}
			p := AccountViewParams{AccountID: "acc-1", First: tc.size, Parts: BookedParts(period.Start())}
			start := BookedIn(viewOf(t, l, p), p)
			if start == nil {
				t.Fatal("the view carries no balance history")
			}
			fold := ledger.NewFold(period, bal)
			pages := 0
			if err := ReadBookedFrom(context.Background(), l, start, fold, func(n, _ int) { pages = n }); err != nil {
				t.Fatal(err)
			}
			fold.Done()
			if got := fold.History(); !reflect.DeepEqual(got, want) {
				t.Errorf("from the view:\n%+v\nread alone:\n%+v", got, want)
			}
			sent := l.requests()
			if len(sent) != tc.requests || pages != 1+tc.requests {
				t.Fatalf("pages of %d: %d requests %+v, %d pages, want %d requests after the view's page", tc.size, len(sent), sent, pages, tc.requests)
			}
			first, _ := ViewBooked.ParamsIn(p)
			for i, q := range sent {
				if q.After == "" || !reflect.DeepEqual(q.WithAfter(""), first) {
					t.Errorf("request %d: %+v, want the view's page's arguments %+v after a cursor", i, q, first)
				}
			}
		})
	}

	// A view read for another period gives nothing: the history would
	// lack the days between.
	p := AccountViewParams{AccountID: "acc-1", First: 100, Parts: BookedParts(period.Start().AddDate(0, 0, 1))}
	err := ReadBookedFrom(context.Background(), l, BookedIn(viewOf(t, l, p), p), ledger.NewFold(period, bal), nil)
	if err == nil || !strings.Contains(err.Error(), "since") {
		t.Errorf("a view of another period: %v", err)
	}
	if p := (AccountViewParams{AccountID: "acc-1", Parts: []AccountPart{ViewTransactions.Part(TransactionsParams{})}}); BookedIn(&AccountView{}, p) != nil {
		t.Error("a view that did not read the bookings carries them")
	}
}

// The view's two reads are the account's transactions under two more
// names, with the arguments ReadBooked's first two requests take: Booked,
// updated since the period began, most recently updated first, a page of
// the view's size; and the probe's ten updated before.
func TestBookedPartsAreTheBalanceHistorysFirstRequests(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 10, 3, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	var sent []gqlRequest
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		mu.Lock()
		sent = append(sent, q)
		mu.Unlock()
		writeJSON200(w, map[string]any{"data": map[string]any{"account": map[string]any{"id": "acc-1"}}})
	}), nil)
	if _, err := c.AccountView(context.Background(), AccountViewParams{AccountID: "acc-1", Project: true, First: 40, Parts: BookedParts(since)}); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 {
		t.Fatalf("%d requests", len(sent))
	}
	q := sent[0]
	for _, want := range []string{"booked: transactions(first: $bookedFirst, filters: $bookedFilters, orderBy: $bookedOrderBy)",
		"bookedBefore: transactions(first: $bookedBeforeFirst, filters: $bookedBeforeFilters, orderBy: $bookedBeforeOrderBy)"} {
		if !strings.Contains(q.Query, want) {
			t.Errorf("the operation lacks %q:\n%s", want, q.Query)
		}
	}
	alone := func(p TransactionsParams, first int) map[string]any {
		return jsonObject(t, p.vars(first))
	}
	got := jsonObject(t, q.Variables)
	for _, v := range []struct {
		name string
		want map[string]any
	}{{"booked", alone(sinceParams("acc-1", since), 40)}, {"bookedBefore", alone(probeParams("acc-1", since), lastBookedProbe)}} {
		for _, k := range []string{"first", "filters", "orderBy"} {
			if g, w := got[prefixedName(v.name, k)], v.want[k]; !reflect.DeepEqual(g, w) {
				t.Errorf("%s: %v, want %v as the request alone sends it", prefixedName(v.name, k), g, w)
			}
		}
	}
}

// On the emulator, the balance history of an account's view is the one
// read alone, whatever the page size, for the requests after the view's
// page only.
func TestEmulatorReadBookedFromTheAccountView(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	info := startEmulator(t)
	ctx := context.Background()
	period := ledger.LastDays(emulator.DefaultEpoch(), 365)
	for _, size := range []int{100, 7} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			t.Parallel()
			c := emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), func(o *Options) { o.PageSize = size })
			page, err := c.Accounts(ctx, AccountsParams{First: 20})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(page.Items, func(a Account) bool { return a.StatusInfo.Status == "Opened" && a.Balances != nil })
			if i < 0 {
				t.Fatal("no Opened account with balances")
			}
			p := AccountViewParams{AccountID: page.Items[i].ID, Project: true, Parts: BookedParts(period.Start())}
			v, err := c.AccountView(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			bal, err := LedgerBalances(&v.Detail.Account)
			if err != nil {
				t.Fatal(err)
			}
			alone, read := ledger.NewFold(period, bal), &countingLister{l: c}
			if err := ReadBooked(ctx, read, p.AccountID, alone, nil); err != nil {
				t.Fatal(err)
			}
			alone.Done()
			want := alone.History()
			l := &countingLister{l: c}
			fold := ledger.NewFold(period, bal)
			if err := ReadBookedFrom(ctx, l, BookedIn(v, p), fold, nil); err != nil {
				t.Fatal(err)
			}
			fold.Done()
			got := fold.History()
			if !reflect.DeepEqual(got, want) || got.Mismatch != nil {
				t.Errorf("from the view:\n%+v\nread alone:\n%+v", got, want)
			}
			if size < got.Read && l.n == 0 {
				t.Fatalf("pages of %d: %d bookings read and nothing walked on from the view's page", size, got.Read)
			}
			// Read alone: its pages and the probe; from the view: the
			// pages after the view's.
			t.Logf("pages of %d: %d bookings in 365 days, %d requests read alone, %d after the view", size, got.Bookings, read.n, l.n)
			if l.n != read.n-2 {
				t.Errorf("pages of %d: %d requests after the view, want the %d pages after its first", size, l.n, read.n-2)
			}
		})
	}
}

// countingLister counts the requests sent through it.
type countingLister struct {
	l  TransactionLister
	mu sync.Mutex
	n  int
}

func (c *countingLister) TransactionList(ctx context.Context, p TransactionsParams) (*Page[TransactionDetail], error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.l.TransactionList(ctx, p)
}
