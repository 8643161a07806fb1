package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/partnertui/partnertui/internal/safetext"
)

// Page is one page of a connection (accounts, memberships, cards,
// transactions, statements, webhook event logs and subscriptions).
type Page[T any] struct {
	Items      []T      `json:"items"`
	TotalCount int      `json:"totalCount"`
	PageInfo   PageInfo `json:"pageInfo"`
}

// Fetch fetches the page that follows cursor after ("" for the first page).
type Fetch[T any] func(ctx context.Context, after string) (*Page[T], error)

// ErrPaging matches a *PagingError.
var ErrPaging = errors.New("broken paging")

// PagingError reports that the server said there were more pages but gave no
// cursor that moves past the current one, so walking on would either stop
// short or loop forever.
type PagingError struct {
	Page   int    // 1-based number of the page that came back
	After  string // the cursor that page was asked for ("" for the first)
	Reason string
}

func (e *PagingError) Error() string {
	return fmt.Sprintf("cannot page past page %d (after cursor %q): %s", e.Page, safetext.Truncate(e.After, 80), e.Reason)
}

func (e *PagingError) Is(target error) bool { return target == ErrPaging }

// Walk fetches every page of a connection in order and hands each to each
// as soon as it arrives, while the next page is already being fetched: at
// most one fetch is in flight and at most two pages are held, whatever the
// length of the list.
//
// Walk stops at the first error: from fetch (a page that came with a
// *GraphQLError is handed to each first, since its data is all there is,
// but its cursor is not trusted), from each, or a *PagingError. It cancels
// the fetch in flight and waits for it to end before returning, so it
// never leaves a goroutine behind. Errors after the first page say which
// page failed and wrap the original error.
func Walk[T any](ctx context.Context, fetch Fetch[T], each func(*Page[T]) error) error {
	ctx, cancel := context.WithCancel(ctx)
	w := &walk[T]{ctx: ctx, fetch: fetch}
	defer func() {
		cancel()
		w.waitAll() // every fetch sees the cancellation and ends
	}()
	after := ""
	sp := &speculation[T]{armed: true}
	page, err := w.fetchPeeking(ctx, after, sp)
	for n := 1; ; n++ {
		if page == nil {
			if err == nil {
				err = &PagingError{Page: n, After: after, Reason: "the fetch returned no page and no error"}
			}
			return pageErr(n, err)
		}
		cursor, more, perr := nextCursor(page, n, after)
		next, nextSp := sp.take(cursor, err == nil && perr == nil && more)
		if next == nil && err == nil && perr == nil && more {
			nextSp = &speculation[T]{}
			next = w.start(func(ctx context.Context) (*Page[T], error) { return w.fetchPeeking(ctx, cursor, nextSp) })
		}
		if eerr := each(page); eerr != nil {
			return eerr
		}
		switch {
		case err != nil:
			return pageErr(n, err)
		case perr != nil:
			return perr
		case !more:
			return nil
		}
		// Page n is written: the page after the next may leave as soon as
		// its cursor is known, and no sooner, so a slow consumer holds
		// the walk to two pages and one request in flight.
		nextSp.arm(w)
		page, err = next.wait()
		sp = nextSp
		after = cursor
	}
}

// WalkInTurn is Walk without reading ahead: each page is fetched only once
// each has returned for the page before. It is for walks that usually stop
// early (the first account with transactions), where a page read ahead is a
// request sent for nothing.
func WalkInTurn[T any](ctx context.Context, fetch Fetch[T], each func(*Page[T]) error) error {
	after := ""
	for n := 1; ; n++ {
		page, err := fetch(ctx, after)
		if page == nil {
			if err == nil {
				err = &PagingError{Page: n, After: after, Reason: "the fetch returned no page and no error"}
			}
			return pageErr(n, err)
		}
		if eerr := each(page); eerr != nil {
			return eerr
		}
		if err != nil {
			return pageErr(n, err)
		}
		cursor, more, perr := nextCursor(page, n, after)
		if perr != nil || !more {
			return perr
		}
		after = cursor
	}
}

// walk is one Walk's fetches, so that it can wait for all of them. It
// counts them rather than keeping them: a kept fetch would keep its page.
type walk[T any] struct {
	ctx     context.Context
	fetch   Fetch[T]
	running sync.WaitGroup
}

func (w *walk[T]) start(fetch func(context.Context) (*Page[T], error)) *inflight[Page[T]] {
	w.running.Add(1)
	return goFetch(w.ctx, func(ctx context.Context) (*Page[T], error) {
		defer w.running.Done()
		return fetch(ctx)
	})
}

// waitAll waits, once the walk's context is cancelled, for every fetch to
// end.
func (w *walk[T]) waitAll() { w.running.Wait() }

// speculation is the fetch of the page after one page, started as soon as
// that page's answer was read, before it was decoded: with a cursor-paged
// list the next request can only leave once the cursor is known, and
// decoding a page of 100 takes longer than finding the cursor in it. The
// fetch is used only if the decoded page names the same cursor.
type speculation[T any] struct {
	mu     sync.Mutex
	closed bool   // Walk has taken it: nothing starts from it any more
	armed  bool   // the fetch may start once the cursor is known
	cursor string // "" until known: peekNextCursor never finds an empty one
	f      *inflight[Page[T]]
	next   *speculation[T]
}

// startLocked starts the fetch of the page after sp's, with sp.mu held.
func (sp *speculation[T]) startLocked(w *walk[T]) {
	next := &speculation[T]{}
	c := sp.cursor
	sp.next = next
	sp.f = w.start(func(ctx context.Context) (*Page[T], error) { return w.fetchPeeking(ctx, c, next) })
}

// arm lets the fetch start as soon as the cursor is known (at once when it
// already is).
func (sp *speculation[T]) arm(w *walk[T]) {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.armed = true
	if !sp.closed && sp.cursor != "" && sp.f == nil && w.ctx.Err() == nil {
		sp.startLocked(w)
	}
}

// fetchPeeking fetches the page after cursor after, starting the next
// fetch (recorded in sp) as soon as this one's answer shows its cursor.
func (w *walk[T]) fetchPeeking(ctx context.Context, after string, sp *speculation[T]) (*Page[T], error) {
	peek := func(body []byte) {
		c, ok := peekNextCursor(body)
		if !ok || c == after {
			return
		}
		sp.mu.Lock()
		if sp.closed || sp.cursor != "" || w.ctx.Err() != nil {
			sp.mu.Unlock()
			return
		}
		sp.cursor = c
		started := sp.armed
		if started {
			sp.startLocked(w)
		}
		sp.mu.Unlock()
		if started {
			// The new fetch waits in this P's run queue while this
			// goroutine decodes its page (a third of a millisecond), unless
			// an idle P wakes up and steals it. Yielding sends the next
			// request first; decoding resumes as soon as it is on the wire.
			runtime.Gosched()
		}
	}
	return w.fetch(context.WithValue(ctx, rawAnswerKey{}, peek), after)
}

// take returns the speculative fetch when it is for cursor and wanted, and
// stops it otherwise; no fetch starts from sp afterwards.
func (sp *speculation[T]) take(cursor string, wanted bool) (*inflight[Page[T]], *speculation[T]) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.closed = true
	if sp.f == nil {
		return nil, nil
	}
	if wanted && sp.cursor == cursor {
		return sp.f, sp.next
	}
	sp.f.stop()
	return nil, nil
}

// rawAnswerKey carries, in a request's context, a func that sees the raw
// answer of a query before it is decoded.
type rawAnswerKey struct{}

// peekNextCursor finds, in a raw answer holding exactly one pageInfo, the
// endCursor when hasNextPage is true. Anything unusual (two connections,
// escapes, no next page) says no: the page is then fetched after decoding,
// as it would be anyway.
func peekNextCursor(body []byte) (string, bool) {
	hasNext, ok := onlyValue(body, `"hasNextPage"`)
	if !ok || !bytes.HasPrefix(hasNext, []byte("true")) {
		return "", false
	}
	end, ok := onlyValue(body, `"endCursor"`)
	if !ok || len(end) < 2 || end[0] != '"' {
		return "", false
	}
	closing := bytes.IndexByte(end[1:], '"')
	if closing <= 0 {
		return "", false
	}
	cursor := end[1 : 1+closing]
	if bytes.IndexByte(cursor, '\\') >= 0 {
		return "", false
	}
	return string(cursor), true
}

// onlyValue is what follows key's colon when key appears exactly once.
func onlyValue(body []byte, key string) ([]byte, bool) {
	i := bytes.Index(body, []byte(key))
	if i < 0 || bytes.Contains(body[i+len(key):], []byte(key)) {
		return nil, false
	}
	rest := bytes.TrimLeft(body[i+len(key):], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return nil, false
	}
	return bytes.TrimLeft(rest[1:], " \t\r\n"), true
}

func pageErr(n int, err error) error {
	if n == 1 {
		return err
	}
	return fmt.Errorf("page %d: %w", n, err)
}

// nextCursor is the cursor of the page after p, which was fetched after
// cursor after; more is false at the end of the connection.
func nextCursor[T any](p *Page[T], n int, after string) (cursor string, more bool, err error) {
	if !p.PageInfo.HasNextPage {
		return "", false, nil
	}
	switch p.PageInfo.EndCursor {
	case "":
		return "", false, &PagingError{Page: n, After: after, Reason: "hasNextPage is true but endCursor is empty"}
	case after:
		return "", false, &PagingError{Page: n, After: after, Reason: "endCursor did not move"}
	}
	return p.PageInfo.EndCursor, true, nil
}

// inflight is one fetch running in its own goroutine.
type inflight[T any] struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once page and err are set
	page   *T
	err    error
}

// goFetch starts fetch under a context derived from parent, which the
// inflight's stop cancels.
func goFetch[T any](parent context.Context, fetch func(context.Context) (*T, error)) *inflight[T] {
	ctx, cancel := context.WithCancel(parent)
	f := &inflight[T]{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.page, f.err = fetch(ctx)
	}()
	return f
}

// wait returns the fetch's result once it has ended.
func (f *inflight[T]) wait() (*T, error) {
	<-f.done
	f.cancel()
	return f.page, f.err
}

// stop cancels the fetch and waits for it to end.
func (f *inflight[T]) stop() {
	f.cancel()
	<-f.done
}

// Pages turns a one-page method into the Fetch that Walk calls: each call
// sends p.WithAfter(cursor). Every …Params type of this package has
// WithAfter.
//
//	err := api.Walk(ctx, api.Pages(c.Cards, api.CardsParams{Statuses: []string{"Enabled"}}), write)
func Pages[P interface{ WithAfter(after string) P }, T any](get func(context.Context, P) (*Page[T], error), p P) Fetch[T] {
	return func(ctx context.Context, after string) (*Page[T], error) {
		return get(ctx, p.WithAfter(after))
	}
}

// connectionQL is the selection of any connection whose nodes are N.
type connectionQL[N any] struct {
	TotalCount int        `graphql:"totalCount"`
	PageInfo   pageInfoQL `graphql:"pageInfo"`
	Edges      []struct {
		Node N `graphql:"node"`
	} `graphql:"edges"`
}

// convertPage converts the connection with conv; a nil connection (the schema
// makes some nullable) is an empty page.
func convertPage[N, T any](c *connectionQL[N], conv func(*N) T) *Page[T] {
	p := &Page[T]{Items: []T{}}
	if c == nil {
		return p
	}
	p.TotalCount = c.TotalCount
	p.PageInfo = c.PageInfo.pageInfo()
	p.Items = make([]T, 0, len(c.Edges))
	for i := range c.Edges {
		p.Items = append(p.Items, conv(&c.Edges[i].Node))
	}
	return p
}
