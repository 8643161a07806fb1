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

	mu      sync.Mutex
	after   string // cursor of the next page to hand out
	done    bool
	closed  bool
	pending *prefetch
}

type prefetch struct {
	after  string
	cancel context.CancelFunc
	done   chan struct{} // closed when page/err are set
	page   *AccountsPage
	err    error
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

	if pf != nil && pf.after == after {
		select {
		case <-pf.done:
			page, err = pf.page, pf.err
			pf.cancel()
		case <-ctx.Done():
			// The caller gave up: a result nobody will read is not worth
			// the request budget.
			pf.cancel()
			<-pf.done
			return nil, false, ctx.Err()
		}
	} else {
		if pf != nil {
			pf.cancel()
			<-pf.done
		}
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
	pg.pending = pg.startPrefetch(next)
	return page, true, nil
}

func (pg *Pager) fetch(ctx context.Context, after string) (*AccountsPage, error) {
	p := pg.params
	p.After = after
	return pg.c.Accounts(ctx, p)
}

// startPrefetch runs with its own context: the ctx of the Next call that
// triggered it typically ends as soon as Next returns.
func (pg *Pager) startPrefetch(after string) *prefetch {
	ctx, cancel := context.WithCancel(context.Background())
	pf := &prefetch{after: after, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(pf.done)
		pf.page, pf.err = pg.fetch(ctx, after)
	}()
	return pf
}

// Close stops any prefetch in flight and waits for it to end.
func (pg *Pager) Close() {
	pg.mu.Lock()
	pf := pg.pending
	pg.pending = nil
	pg.closed = true
	pg.mu.Unlock()
	if pf != nil {
		pf.cancel()
		<-pf.done
	}
}

// AllAccounts loads every account matching p through a Pager (for
// `accounts --all`): ceil(N/page size) requests.
func (c *Client) AllAccounts(ctx context.Context, p AccountsParams) ([]Account, error) {
	pg := c.NewPager(p)
	defer pg.Close()
	var all []Account
	for {
		page, ok, err := pg.Next(ctx)
		if err != nil {
			return all, err
		}
		if !ok {
			return all, nil
		}
		if all == nil {
			// totalCount comes from the server: trust it for capacity only
			// within reason.
			all = make([]Account, 0, min(max(page.TotalCount, len(page.Accounts)), 100_000))
		}
		all = append(all, page.Accounts...)
	}
}
