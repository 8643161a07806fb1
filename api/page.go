package api

import (
	"context"
	"errors"
	"fmt"

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

// PagingError: the server said there were more pages but gave no cursor
// that moves past the current one, so walking on would either stop short
// or loop forever.
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
	var next *inflight[Page[T]]
	defer func() {
		cancel()
		next.wait() // the prefetch sees the cancellation and ends
	}()
	after := ""
	page, err := fetch(ctx, after)
	for n := 1; ; n++ {
		if page == nil {
			if err == nil {
				err = &PagingError{Page: n, After: after, Reason: "the fetch returned no page and no error"}
			}
			return pageErr(n, err)
		}
		cursor, more, perr := nextCursor(page, n, after)
		if err == nil && perr == nil && more {
			next = goFetch(ctx, func(ctx context.Context) (*Page[T], error) { return fetch(ctx, cursor) })
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
		page, err = next.wait()
		next = nil
		after = cursor
	}
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

// wait returns the fetch's result once it has ended; a nil inflight has
// nothing to wait for.
func (f *inflight[T]) wait() (*T, error) {
	if f == nil {
		return nil, nil
	}
	<-f.done
	f.cancel()
	return f.page, f.err
}

// stop cancels the fetch and waits for it to end.
func (f *inflight[T]) stop() {
	if f == nil {
		return
	}
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
