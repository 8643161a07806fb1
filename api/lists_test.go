package api

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/partnertui/partnertui/internal/platform"
)

// cardPages is a list of n cards served by a one-page read as the platform
// serves a connection, recording the parameters of each read.
type cardPages struct {
	n    int
	asks []CardsParams
}

func (s *cardPages) get(_ context.Context, p CardsParams) (*Page[Card], error) {
	s.asks = append(s.asks, p)
	from := 0
	if p.After != "" {
		from, _ = strconv.Atoi(p.After)
	}
	to := min(from+p.First, s.n)
	page := &Page[Card]{TotalCount: s.n, PageInfo: PageInfo{HasNextPage: to < s.n, EndCursor: strconv.Itoa(to)}}
	for i := from; i < to; i++ {
		page.Items = append(page.Items, Card{ID: strconv.Itoa(i)})
	}
	return page, nil
}

// TestListAsksForItsPageSize: a list asks for the page size it is given
// (the client's, page_size), a size its parameters set wins, and anything
// outside what the platform accepts is its maximum.
func TestListAsksForItsPageSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		first, size, want int
	}{
		{0, 7, 7}, {3, 7, 3}, {0, 0, platform.PageMax}, {0, platform.PageMax + 1, platform.PageMax}, {platform.PageMax + 1, 7, 7},
	} {
		s := &cardPages{n: 20}
		l := ListOf(s.get, CardsParams{First: c.first, OrderBy: OrderCreatedAt, Direction: DirectionDesc}, c.size)
		if l.PageSize() != c.want {
			t.Errorf("first %d, size %d: PageSize = %d, want %d", c.first, c.size, l.PageSize(), c.want)
		}
		if _, err := l.Page(context.Background(), "", 0, false); err != nil {
			t.Fatal(err)
		}
		if got := s.asks[0].First; got != c.want {
			t.Errorf("first %d, size %d: the request asked for %d, want %d", c.first, c.size, got, c.want)
		}
	}
}

// TestListReadsAsAsked: the first page is one read; every page is the
// whole list in order, page after page; every item of a list that cannot
// be split is the same walk.
func TestListReadsAsAsked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		how         Reading
		items, asks int
	}{{FirstPage, 7, 1}, {AllPages, 20, 3}, {AllItems, 20, 3}} {
		s := &cardPages{n: 20}
		var got []string
		err := ListOf(s.get, CardsParams{}, 7).Read(context.Background(), c.how, func(items []Card, total int) error {
			if total != 20 || len(items) > 7 {
				t.Errorf("reading %d: a page of %d items of %d", c.how, len(items), total)
			}
			for _, it := range items {
				got = append(got, it.ID)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.items || len(s.asks) != c.asks {
			t.Errorf("reading %d: %d items in %d requests, want %d in %d", c.how, len(got), len(s.asks), c.items, c.asks)
		}
		if !slices.IsSortedFunc(got, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y }) {
			t.Errorf("reading %d: out of order %v", c.how, got)
		}
	}
	stop := errors.New("enough")
	s := &cardPages{n: 20}
	if err := ListOf(s.get, CardsParams{}, 7).Read(context.Background(), AllPages, func([]Card, int) error { return stop }); err != stop {
		t.Errorf("each's error: %v", err)
	}
}

// TestListReadsFromItsEnd: a list with an order reads from its end by
// turning the order around; a list without one (the event log) cannot.
func TestListReadsFromItsEnd(t *testing.T) {
	t.Parallel()
	s := &cardPages{n: 20}
	l := ListOf(s.get, CardsParams{OrderBy: OrderCreatedAt, Direction: DirectionDesc}, 7)
	if !l.Reversible() {
		t.Fatal("a list ordered newest first cannot be read from its end")
	}
	if _, err := l.Page(context.Background(), "", 0, true); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Page(context.Background(), "7", 0, false); err != nil {
		t.Fatal(err)
	}
	if a, b := s.asks[0], s.asks[1]; a.Direction != DirectionAsc || a.OrderBy != OrderCreatedAt || b.Direction != DirectionDesc || b.After != "7" {
		t.Errorf("from the end %+v, onwards %+v", a, b)
	}
	if ListOf(s.get, CardsParams{}, 7).Reversible() {
		t.Error("a list in the server's default order, whose direction is not known, is read from its end")
	}
	var logs []WebhookEventLogsParams
	events := ListOf(func(_ context.Context, p WebhookEventLogsParams) (*Page[WebhookEventLog], error) {
		logs = append(logs, p)
		return &Page[WebhookEventLog]{}, nil
	}, WebhookEventLogsParams{EventType: "Transaction.Booked"}, 7)
	if events.Reversible() {
		t.Error("the event log is read from its end")
	}
	if _, err := events.Page(context.Background(), "", 0, true); err != nil || len(logs) != 1 || logs[0].First != 7 || logs[0].EventType != "Transaction.Booked" {
		t.Errorf("a reverse read of the event log asked %+v (%v)", logs, err)
	}
}

// TestMergedListPages: a user's transactions across accounts are one list
// whatever surface reads it: read whole it is the merge of every account's
// list, page_size rows a page; paged, each page follows the one before by
// its cursor, and a page from elsewhere is read from the start up to
// there, the same rows.
func TestMergedListPages(t *testing.T) {
	t.Parallel()
	e := newSplitEmulator(t, 120)
	_, userToken := sandboxUser(t, e.info)
	c := emulatorClient(t, e.info, "sandbox", userToken, func(o *Options) { o.PageSize = 7 })
	ctx := context.Background()
	p := TransactionsParams{Status: []string{"Booked"}}
	want, _ := merged(t, c, p, 100, true)
	if len(want) < 30 {
		t.Fatalf("the demo user has %d booked transactions, too few to page through", len(want))
	}
	ids := func(txs []TransactionDetail) []string {
		out := make([]string, len(txs))
		for i := range txs {
			out[i] = txs[i].ID
		}
		return out
	}

	l := c.ListTransactions(p)
	if l.Reversible() || l.PageSize() != 7 {
		t.Fatalf("the merged list: reversible %v, page size %d", l.Reversible(), l.PageSize())
	}
	var whole []TransactionDetail
	err := l.Read(ctx, AllPages, func(items []TransactionDetail, total int) error {
		if len(items) > 7 {
			t.Errorf("a page of %d rows, page_size is 7", len(items))
		}
		whole = append(whole, items...)
		return nil
	})
	if err != nil || !slices.Equal(ids(whole), ids(want)) {
		t.Fatalf("read whole (%v): %d rows, not the merge of the %d", err, len(whole), len(want))
	}

	var paged []TransactionDetail
	after := ""
	for range 3 {
		page, err := l.Page(ctx, after, 0, false)
		if err != nil || len(page.Items) != 7 || !page.PageInfo.HasNextPage {
			t.Fatalf("the page after %q: %v, %+v", after, err, page)
		}
		paged, after = append(paged, page.Items...), page.PageInfo.EndCursor
	}
	if !slices.Equal(ids(paged), ids(want[:21])) {
		t.Errorf("three pages are not the list's first 21 rows")
	}
	page, err := l.Page(ctx, "3", 2, false)
	if err != nil || !slices.Equal(ids(page.Items), ids(want[3:5])) || page.PageInfo.StartCursor != "4" || page.PageInfo.EndCursor != "5" {
		t.Errorf("2 rows after the 3rd: %v, %+v", err, page)
	}
	if m, ok := l.Merged(); !ok || m.Accounts == 0 || m.Started == 0 {
		t.Errorf("Merged = %+v, %v", m, ok)
	}
	if _, err := l.Page(ctx, "x", 0, false); err == nil {
		t.Error("a cursor that is not the list's own is taken")
	}
	if _, ok := ListOf((&cardPages{}).get, CardsParams{}, 7).Merged(); ok {
		t.Error("a list of one connection says it is merged")
	}
}
