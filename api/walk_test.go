package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// pagingServer serves total accounts, page size from the request, and
// reports each request's cursor on seen.
func pagingServer(t *testing.T, total int, seen chan<- string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		from := 0
		after, _ := q.Variables["after"].(string)
		if after != "" {
			n, err := strconv.Atoi(after)
			if err != nil {
				t.Errorf("bad cursor %q", after)
			}
			from = n
		}
		first := int(q.Variables["first"].(float64))
		if seen != nil {
			seen <- after
		}
		writeJSON200(w, accountsPage(from, min(from+first, total), total))
	}
}

// collect walks fetch to its end and returns every item in one slice, as
// a buffered listing does: sized once from the first page's totalCount
// (trusted for capacity only within reason).
func collect[T any](ctx context.Context, fetch Fetch[T]) ([]T, error) {
	var all []T
	err := Walk(ctx, fetch, func(page *Page[T]) error {
		if all == nil {
			all = make([]T, 0, min(max(page.TotalCount, len(page.Items)), 100_000))
		}
		all = append(all, page.Items...)
		return nil
	})
	return all, err
}

// intPage serves the integers [0, total) in pages of size, the cursor
// being the decimal index of the next item.
func intPage(after string, size, total int) (*Page[int], error) {
	from := 0
	if after != "" {
		n, err := strconv.Atoi(after)
		if err != nil {
			return nil, fmt.Errorf("bad cursor %q", after)
		}
		from = n
	}
	to := min(from+size, total)
	p := &Page[int]{TotalCount: total, PageInfo: PageInfo{HasNextPage: to < total, EndCursor: strconv.Itoa(to)}}
	for i := from; i < to; i++ {
		p.Items = append(p.Items, i)
	}
	return p, nil
}

func TestWalkHandsOutEveryPageInOrderWhileTheNextIsFetched(t *testing.T) {
	t.Parallel()
	const total, size = 1050, 100
	var (
		inFlight, maxInFlight atomic.Int32
		mu                    sync.Mutex
		started               = map[string]chan struct{}{} // closed as the fetch of that cursor starts
	)
	startedCh := func(cursor string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if started[cursor] == nil {
			started[cursor] = make(chan struct{})
		}
		return started[cursor]
	}
	fetch := func(ctx context.Context, after string) (*Page[int], error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		close(startedCh(after))
		return intPage(after, size, total)
	}
	var got []int
	pages := 0
	err := Walk(context.Background(), fetch, func(p *Page[int]) error {
		pages++
		if p.PageInfo.HasNextPage {
			// The next page is requested before this one is consumed.
			select {
			case <-startedCh(p.PageInfo.EndCursor):
			case <-time.After(10 * time.Second):
				t.Fatalf("page %d is being consumed and page %d was not requested", pages, pages+1)
			}
		}
		got = append(got, p.Items...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != total {
		t.Fatalf("got %d items, want %d", len(got), total)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("item %d is %d: gap, duplicate or reorder", i, v)
		}
	}
	if pages != 11 {
		t.Errorf("pages = %d, want 11", pages)
	}
	if m := maxInFlight.Load(); m != 1 {
		t.Errorf("%d fetches were in flight at once, want at most 1", m)
	}
}

// blockingFetch serves page 1 at once and blocks every later page until
// its context ends; ended is closed when that later fetch has returned.
func blockingFetch(ended chan struct{}, sawCancel *atomic.Bool) Fetch[int] {
	return func(ctx context.Context, after string) (*Page[int], error) {
		if after == "" {
			return intPage(after, 10, 100)
		}
		defer close(ended)
		<-ctx.Done()
		sawCancel.Store(true)
		return nil, ctx.Err()
	}
}

func TestWalkStopsAtTheConsumersErrorAndEndsThePrefetch(t *testing.T) {
	t.Parallel()
	ended := make(chan struct{})
	var sawCancel atomic.Bool
	stop := errors.New("disk full")
	err := Walk(context.Background(), blockingFetch(ended, &sawCancel), func(*Page[int]) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want the consumer's", err)
	}
	select {
	case <-ended: // Walk returned only after the prefetch goroutine did
	default:
		t.Fatal("Walk returned while its prefetch was still running")
	}
	if !sawCancel.Load() {
		t.Error("the prefetch was not cancelled")
	}
}

func TestWalkHonoursCancellation(t *testing.T) {
	t.Parallel()
	ended := make(chan struct{})
	var sawCancel atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	err := Walk(ctx, blockingFetch(ended, &sawCancel), func(*Page[int]) error { cancel(); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if !strings.Contains(err.Error(), "page 2") {
		t.Errorf("err = %q does not say which page failed", err)
	}
	select {
	case <-ended:
	default:
		t.Fatal("Walk returned while its prefetch was still running")
	}
}

func TestWalkReportsWhichPageFailed(t *testing.T) {
	t.Parallel()
	boom := &ServerError{Env: "sandbox", Status: 502}
	fetch := func(ctx context.Context, after string) (*Page[int], error) {
		if after == "20" {
			return nil, boom
		}
		return intPage(after, 10, 100)
	}
	var items []int
	err := Walk(context.Background(), fetch, func(p *Page[int]) error { items = append(items, p.Items...); return nil })
	var se *ServerError
	if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "page 3: ") {
		t.Fatalf("err = %v, want page 3's *ServerError", err)
	}
	if len(items) != 20 {
		t.Errorf("%d items were handed out before the failure, want 20", len(items))
	}
}

func TestWalkHandsOutAPartialPageThenStops(t *testing.T) {
	t.Parallel()
	partial := &GraphQLError{Env: "sandbox", Errors: []GraphQLErrorDetail{{Message: "IBAN unavailable"}}}
	var calls atomic.Int32
	fetch := func(ctx context.Context, after string) (*Page[int], error) {
		calls.Add(1)
		p, _ := intPage(after, 10, 100)
		return p, partial
	}
	var got []*Page[int]
	err := Walk(context.Background(), fetch, func(p *Page[int]) error { got = append(got, p); return nil })
	if !errors.Is(err, partial) || len(got) != 1 || len(got[0].Items) != 10 {
		t.Fatalf("err = %v, pages = %d: want the partial page handed out, then its error", err, len(got))
	}
	if calls.Load() != 1 {
		t.Errorf("%d fetches: a partial page's cursor must not be followed", calls.Load())
	}
}

func TestWalkRefusesACursorThatDoesNotMove(t *testing.T) {
	t.Parallel()
	for name, cursor := range map[string]string{"empty endCursor": "", "same endCursor": "10"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fetch := func(ctx context.Context, after string) (*Page[int], error) {
				if after == "" {
					return intPage(after, 10, 100)
				}
				return &Page[int]{Items: []int{10}, PageInfo: PageInfo{HasNextPage: true, EndCursor: cursor}}, nil
			}
			pages := 0
			err := Walk(context.Background(), fetch, func(*Page[int]) error { pages++; return nil })
			var pe *PagingError
			if !errors.As(err, &pe) || !errors.Is(err, ErrPaging) || pe.Page != 2 {
				t.Fatalf("err = %v, want a *PagingError for page 2", err)
			}
			if pages != 2 {
				t.Errorf("pages handed out = %d, want 2 (the data before the broken cursor)", pages)
			}
		})
	}
}

func TestWalkRefusesANilPage(t *testing.T) {
	t.Parallel()
	err := Walk(context.Background(), func(context.Context, string) (*Page[int], error) { return nil, nil },
		func(*Page[int]) error { t.Error("each called without a page"); return nil })
	if !errors.Is(err, ErrPaging) {
		t.Fatalf("err = %v", err)
	}
}

// TestWalkConcurrentWalksShareAClient: Walk holds no state outside its
// call, so walks may run side by side on one client (run with -race).
func TestWalkConcurrentWalksShareAClient(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, pagingServer(t, 230, nil), nil)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			n := 0
			if err := Walk(context.Background(), Pages(c.Accounts, AccountsParams{}), func(p *Page[Account]) error {
				n += len(p.Items)
				return nil
			}); err != nil || n != 230 {
				t.Errorf("walk: %d accounts, %v", n, err)
			}
		})
	}
	wg.Wait()
	if s := c.Status(); s.InFlight != 0 || s.Used != 12 {
		t.Errorf("status = %+v, want 12 requests and none in flight", s)
	}
}

func TestPeekNextCursor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body string
		want string
		ok   bool
	}{
		{`{"data":{"accounts":{"totalCount":3,"pageInfo":{"hasNextPage":true,"endCursor":"abc"},"edges":[]}}}`, "abc", true},
		{`{"data":{"accounts":{"pageInfo":{ "hasNextPage" : true , "endCursor" :  "a-b_c=" }}}}`, "a-b_c=", true},
		{`{"data":{"accounts":{"pageInfo":{"hasNextPage":false,"endCursor":"abc"}}}}`, "", false},
		{`{"data":{"accounts":{"pageInfo":{"hasNextPage":true,"endCursor":null}}}}`, "", false},
		{`{"data":{"accounts":{"pageInfo":{"hasNextPage":true,"endCursor":"a\"b"}}}}`, "", false},
		{`{"data":{"a":{"pageInfo":{"hasNextPage":true,"endCursor":"x"}},"b":{"pageInfo":{"hasNextPage":true,"endCursor":"y"}}}}`, "", false},
		{`{"errors":[{"message":"boom"}]}`, "", false},
		{``, "", false},
	}
	for _, tc := range cases {
		got, ok := peekNextCursor([]byte(tc.body))
		if got != tc.want || ok != tc.ok {
			t.Errorf("peekNextCursor(%s) = %q, %v; want %q, %v", tc.body, got, ok, tc.want, tc.ok)
		}
	}
}

// TestWalkSendsTheNextRequestBeforeDecoding: the cursor is read from the
// raw answer, so the request for page 2 reaches the server before page 1
// has even been decoded — the decoding of a page is off the critical path.
// The fetch below cannot return page 1 until the server has seen the
// request for page 2: without the early start this walk would never end.
func TestWalkSendsTheNextRequestBeforeDecoding(t *testing.T) {
	t.Parallel()
	second := make(chan struct{})
	var once sync.Once
	h := pagingServer(t, 250, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"after":"100"`)) {
			once.Do(func() { close(second) })
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h(w, r)
	}), nil)
	var fetched atomic.Int32
	fetch := func(ctx context.Context, after string) (*Page[Account], error) {
		page, err := c.Accounts(ctx, AccountsParams{After: after})
		if fetched.Add(1) == 1 {
			select {
			case <-second:
			case <-time.After(30 * time.Second):
				t.Fatal("the request for page 2 left only after page 1 was decoded")
			}
		}
		return page, err
	}
	n := 0
	if err := Walk(context.Background(), fetch, func(p *Page[Account]) error { n += len(p.Items); return nil }); err != nil || n != 250 {
		t.Fatalf("walked %d accounts: %v", n, err)
	}
	if s := c.Status(); s.Used != 3 {
		t.Errorf("%d requests for 3 pages: a speculative fetch was wasted", s.Used)
	}
}

// TestWalkDropsAWrongGuess: when the decoded cursor is not the one read in
// the raw answer (the client strips a bidi override from it), the early
// fetch is dropped and the page is fetched with the right cursor: nothing
// is skipped or repeated.
func TestWalkDropsAWrongGuess(t *testing.T) {
	t.Parallel()
	const total = 250
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		after, _ := q.Variables["after"].(string)
		from, _ := strconv.Atoi(strings.TrimSuffix(after, "\u202e"))
		page := accountsPage(from, min(from+100, total), total)
		// The raw cursor carries a bidi override the decoded one loses.
		info := page["data"].(map[string]any)["accounts"].(map[string]any)["pageInfo"].(map[string]any)
		info["endCursor"] = fmt.Sprint(min(from+100, total)) + "\u202e"
		writeJSON200(w, page)
	}), nil)
	var ids []string
	if err := Walk(context.Background(), Pages(c.Accounts, AccountsParams{}), func(p *Page[Account]) error {
		for _, a := range p.Items {
			ids = append(ids, a.ID)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("%s handed out twice", id)
		}
		seen[id] = true
	}
	if len(ids) != total {
		t.Fatalf("walked %d accounts, want %d", len(ids), total)
	}
}

// The tests below walk the client's own accounts list over HTTP: what the
// fake fetches above show of Walk must hold with real requests too.

func TestWalkOverAccountListWalksTheWholeConnection(t *testing.T) {
	t.Parallel()
	const total = 1234
	var calls atomic.Int32
	h := pagingServer(t, total, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1); h(w, r) }), nil)
	all, err := collect(context.Background(), Pages(c.Accounts, AccountsParams{}))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range all {
		if seen[a.ID] {
			t.Fatalf("duplicate %s", a.ID)
		}
		seen[a.ID] = true
	}
	if len(all) != total {
		t.Fatalf("got %d accounts, want %d", len(all), total)
	}
	for i, a := range all {
		if a.ID != fmt.Sprintf("acc-%05d", i) {
			t.Fatalf("account %d is %s: gap or reorder", i, a.ID)
		}
	}
	if want := int32((total + 99) / 100); calls.Load() != want {
		t.Errorf("requests = %d, want ceil(N/100) = %d", calls.Load(), want)
	}
}

func TestWalkOverAccountListHonoursThePageSize(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	h := pagingServer(t, 95, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1); h(w, r) }),
		func(o *Options) { o.PageSize = 10 })
	all, err := collect(context.Background(), Pages(c.Accounts, AccountsParams{}))
	if err != nil || len(all) != 95 || calls.Load() != 10 {
		t.Errorf("accounts = %d, requests = %d, err = %v; want 95, 10, nil", len(all), calls.Load(), err)
	}
}

// TestWalkOverAccountListEndsTheRequestOnTheWire: however a walk ends
// early, the request for the next page is cancelled on the wire and over
// before Walk returns.
func TestWalkOverAccountListEndsTheRequestOnTheWire(t *testing.T) {
	t.Parallel()
	stop := errors.New("disk full")
	for name, tc := range map[string]struct {
		each func(cancel context.CancelFunc) error
		want error
	}{
		"the consumer fails":       {func(context.CancelFunc) error { return stop }, stop},
		"the context is cancelled": {func(cancel context.CancelFunc) error { cancel(); return nil }, context.Canceled},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			onWire := make(chan struct{})
			serverSawCancel := make(chan struct{})
			var once sync.Once
			c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				q := decodeReq(t, r)
				if q.Variables["after"] == nil {
					writeJSON200(w, accountsPage(0, 100, 250))
					return
				}
				once.Do(func() { close(onWire) })
				<-r.Context().Done()
				close(serverSawCancel)
			}), nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			err := Walk(ctx, Pages(c.Accounts, AccountsParams{}), func(*Page[Account]) error {
				select {
				case <-onWire:
				case <-time.After(10 * time.Second):
					t.Fatal("page 2 was never requested")
				}
				return tc.each(cancel)
			})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if s := c.Status(); s.InFlight != 0 {
				t.Errorf("a request is still in flight after Walk returned: %+v", s)
			}
			select {
			case <-serverSawCancel:
			case <-time.After(10 * time.Second):
				t.Fatal("the server never saw the request for page 2 cancelled")
			}
		})
	}
}

// TestWalkOverAccountListStopsAtTheFailedPage: a page that fails (here
// the early fetch of page 2) ends the walk with that page's error after
// the pages before it; walking again fetches the failed page in full.
func TestWalkOverAccountListStopsAtTheFailedPage(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	h := pagingServer(t, 150, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 2 { // the fetch of page 2 fails
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		h(w, r)
	}), nil)
	var got []*Page[Account]
	each := func(p *Page[Account]) error { got = append(got, p); return nil }
	err := Walk(context.Background(), Pages(c.Accounts, AccountsParams{}), each)
	if !errors.Is(err, ErrServer) || !strings.HasPrefix(err.Error(), "page 2: ") {
		t.Fatalf("err = %v, want page 2's server error", err)
	}
	if len(got) != 1 || len(got[0].Items) != 100 {
		t.Fatalf("%d pages handed out before the failure, want page 1 alone", len(got))
	}
	got = nil
	if err := Walk(context.Background(), Pages(c.Accounts, AccountsParams{}), each); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Items[0].ID != "acc-00100" || len(got[1].Items) != 50 {
		t.Fatalf("walking again: %d pages, want page 2 of acc-00100 and 49 more", len(got))
	}
}

// TestWalkInTurnFetchesOnlyWhenAsked: WalkInTurn hands out every page in
// order, fetches a page only once each returned for the one before, stops
// when each says so without fetching further, and keeps Walk's errors.
func TestWalkInTurnFetchesOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	var inEach atomic.Bool
	var fetches atomic.Int32
	fetch := func(ctx context.Context, after string) (*Page[int], error) {
		if inEach.Load() {
			t.Error("a page was fetched while each was still at the one before")
		}
		fetches.Add(1)
		return intPage(after, 10, 35)
	}
	var items []int
	err := WalkInTurn(context.Background(), fetch, func(p *Page[int]) error {
		inEach.Store(true)
		defer inEach.Store(false)
		items = append(items, p.Items...)
		return nil
	})
	if err != nil || len(items) != 35 || items[34] != 34 || fetches.Load() != 4 {
		t.Fatalf("err %v, %d items in %d fetches", err, len(items), fetches.Load())
	}
	enough := errors.New("enough")
	fetches.Store(0)
	if err := WalkInTurn(context.Background(), fetch, func(*Page[int]) error { return enough }); err != enough || fetches.Load() != 1 {
		t.Errorf("stopped by each: err %v after %d fetches, want its error after 1", err, fetches.Load())
	}
	boom := &ServerError{Env: "sandbox", Status: 502}
	err = WalkInTurn(context.Background(), func(ctx context.Context, after string) (*Page[int], error) {
		if after == "20" {
			return nil, boom
		}
		return intPage(after, 10, 100)
	}, func(*Page[int]) error { return nil })
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "page 3: ") {
		t.Errorf("err = %v, want page 3's error", err)
	}
	err = WalkInTurn(context.Background(), func(ctx context.Context, after string) (*Page[int], error) {
		return &Page[int]{Items: []int{1}, PageInfo: PageInfo{HasNextPage: true, EndCursor: after}}, nil
	}, func(*Page[int]) error { return nil })
	if !errors.Is(err, ErrPaging) {
		t.Errorf("a cursor that does not move: err = %v", err)
	}
}
