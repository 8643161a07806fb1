package api

import (
	"context"
	"sync"
)

// Pager walks a whole accounts connection, fetching page n+1 while page n is
// being consumed. At most one prefetch is in flight; Close cancels it and
// waits for it, so a pager never leaks a goroutine. Next must not be called
// concurrently with itself.
type Pager struct {
	c      *Client
	params AccountsParams

	mu     sync.Mutex
	after  string // cursor of the next page to hand out
	done   bool
	closed bool
	// pending is the prefetch of the page after cursor after: only Next
	// moves after, and it starts the prefetch for the new cursor in the
	// same step.
	pending *inflight[AccountsPage]
}

// NewPager starts a pager over the accounts connection with params p
// (p.After is the starting cursor).
func (c *Client) NewPager(p AccountsParams) *Pager {
	return &Pager{c: c, params: p, after: p.After}
}

// Next returns the next page; ok is false when the connection is exhausted.
// After an error, calling Next again retries the same page.
func (pg *Pager) Next(ctx context.Context) (page *AccountsPage, ok bool, err error) {
	pg.mu.Lock()
	if pg.closed {
		pg.mu.Unlock()
		return nil, false, ErrPagerClosed
	}
	if pg.done {
		pg.mu.Unlock()
		return nil, false, nil
	}
	pf := pg.pending
	pg.pending = nil
	after := pg.after
	pg.mu.Unlock()

	if pf != nil {
		select {
		case <-pf.done:
			page, err = pf.wait()
		case <-ctx.Done():
			// The caller gave up: a result nobody will read is not worth
			// the request budget.
			pf.stop()
			return nil, false, ctx.Err()
		}
	} else {
		page, err = pg.fetch(ctx, after)
	}
	if page == nil {
		return nil, false, err
	}

	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.closed {
		return nil, false, ErrPagerClosed
	}
	if err != nil {
		// Partial data: hand it out, but do not guess the next cursor from it.
		return page, true, err
	}
	next := page.PageInfo.EndCursor
	if !page.PageInfo.HasNextPage || next == "" || next == after {
		pg.done = true
		return page, true, nil
	}
	pg.after = next
	// The prefetch runs with its own context: the ctx of this Next call
	// typically ends as soon as Next returns.
	pg.pending = goFetch(context.Background(), func(ctx context.Context) (*AccountsPage, error) { return pg.fetch(ctx, next) })
	return page, true, nil
}

func (pg *Pager) fetch(ctx context.Context, after string) (*AccountsPage, error) {
	return pg.c.Accounts(ctx, pg.params.WithAfter(after))
}

// Close stops any prefetch in flight and waits for it to end.
func (pg *Pager) Close() {
	pg.mu.Lock()
	pf := pg.pending
	pg.pending = nil
	pg.closed = true
	pg.mu.Unlock()
	pf.stop()
}

// AllAccounts loads every account matching p through Walk (for
// `accounts --all`): ceil(N/page size) requests, all held in memory. To
// write a long list as it arrives, Walk over Pages(c.AccountList, p)
// instead.
func (c *Client) AllAccounts(ctx context.Context, p AccountsParams) ([]Account, error) {
	var all []Account
	err := Walk(ctx, Pages(c.AccountList, p), func(page *Page[Account]) error {
		if all == nil {
			// totalCount comes from the server: trust it for capacity only
			// within reason.
			all = make([]Account, 0, min(max(page.TotalCount, len(page.Items)), 100_000))
		}
		all = append(all, page.Items...)
		return nil
	})
	return all, err
}

// AccountList is Accounts as a Page, for Walk and Pages.
func (c *Client) AccountList(ctx context.Context, p AccountsParams) (*Page[Account], error) {
	ap, err := c.Accounts(ctx, p)
	if ap == nil {
		return nil, err
	}
	return &Page[Account]{Items: ap.Accounts, TotalCount: ap.TotalCount, PageInfo: ap.PageInfo}, err
}

// WithAfter returns p asking for the page after cursor after.
func (p AccountsParams) WithAfter(after string) AccountsParams { p.After = after; return p }
