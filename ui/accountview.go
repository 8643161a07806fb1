package ui

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// accountOpening is the one request that opens an account: the Overview
// and the first page of every tab (api.AccountView). The Overview's first
// read sends it; a tab's first read waits for it and takes its page
// instead of sending its own, so going through the tabs after opening an
// account costs no round trip. When it fails, each part is read on its
// own, as if it had never been sent, and says itself what went wrong.
//
// An account seen before opens with the view kept from then (viewCache),
// shown at once with its age, while the same request reads it again; each
// part then takes the newer view, once.
type accountOpening struct {
	params api.AccountViewParams
	// chart is the period of the Overview's balance chart whose first
	// reads the request carries (api.BookedParts): the one it opens on.
	chart ledger.Period
	cache *viewCache
	now   func() time.Time

	mu   sync.Mutex
	gen  int // of view: 0 before any
	view *api.AccountView
	read time.Time // when view was read
	// pending is closed when the read in flight ends; nil when none is.
	pending chan struct{}
	// since is the cache's generation when the read began: what it
	// answers is kept only if nothing was forgotten meanwhile.
	since uint64
	// took is the generation of the view each list took last, by the
	// list's name.
	took map[string]int
}

// newAccountOpening is the request that opens account id with the first
// page, of size rows, of each of parts, and the first reads of the
// Overview's balance chart of the last chartDays days: opening the account
// and drawing its chart is one request when its bookings fit a page.
func newAccountOpening(id string, project bool, size int, parts []api.AccountPart, chartDays int, cache *viewCache, now func() time.Time) *accountOpening {
	chart := ledger.LastDays(now(), chartDays)
	// Each part's first page is the one its list asks for first.
	p := api.AccountViewParams{AccountID: id, Project: project, First: size,
		Parts: append(slices.Clip(parts), api.BookedParts(chart.Start())...)}
	o := &accountOpening{params: p, chart: chart, cache: cache, now: now, took: make(map[string]int, len(parts))}
	if v, read, ok := cache.get(id); ok {
		o.gen, o.view, o.read = 1, v, read
	}
	return o
}

// kept is the view kept from an earlier visit and when it was read; nil
// when there is none.
func (o *accountOpening) kept() (*api.AccountView, time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.view, o.read
}

// begin marks the read as started, on the event loop, before the command
// that sends it: from then on a tab's first read waits for it rather than
// sending its own. A tab that reads before it (none does: the account
// screen starts the Overview first) reads on its own instead of waiting
// for a read nobody began.
func (o *accountOpening) begin() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pending == nil {
		o.pending = make(chan struct{})
		o.since = o.cache.generation()
	}
}

// send reads the view with a and hands it to every part waiting for it;
// the account in full and the chart's reads are the Overview's. It is
// sent once, after begin.
// Its answer is kept for the next visit even when nobody waits for it any
// more: ctx is the screen's, and leaving the screen stops the read only
// before it is sent (api.FinishOnceSent); bg, the environment's, ends it
// whatever happens.
func (o *accountOpening) send(bg, ctx context.Context, a API) (*api.AccountView, error) {
	v, err := a.AccountView(api.FinishOnceSent(bg, ctx), o.params)
	read := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pending != nil {
		close(o.pending)
		o.pending = nil
	}
	if err != nil {
		return nil, err
	}
	o.gen++
	o.view, o.read = v, read
	o.cache.putSince(o.since, o.params.AccountID, v, read)
	return v, nil
}

// chartOf is what the view v, just read, brought of the Overview's
// chart; since is the kept charts' generation as it was sent.
func (o *accountOpening) chartOf(v *api.AccountView, since uint64) *chartFrom {
	start := api.BookedIn(v, o.params)
	if start == nil {
		return nil
	}
	return &chartFrom{period: o.chart, start: start, since: since}
}

// take is the view newer than the one list took last, waiting for the
// read in flight when there is none; nil when there is none to take.
func (o *accountOpening) take(ctx context.Context, list string) (*api.AccountView, time.Time) {
	o.mu.Lock()
	if o.gen == o.took[list] && o.pending != nil {
		p := o.pending
		o.mu.Unlock()
		select {
		case <-p:
		case <-ctx.Done():
			return nil, time.Time{}
		}
		o.mu.Lock()
	}
	defer o.mu.Unlock()
	if o.gen == o.took[list] || o.view == nil {
		return nil, time.Time{}
	}
	o.took[list] = o.gen
	return o.view, o.read
}

// behind reports whether list has not taken the newest view yet.
func (o *accountOpening) behind(list string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.view != nil && o.took[list] < o.gen
}

// forget drops the kept views of the account: something the app did
// changed it.
func (o *accountOpening) forget() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.view = nil
	o.cache.drop(o.params.AccountID)
}

// firstPage is fetch whose read of the list's first page is taken from
// the newest view the list has not taken yet, if there is one: a list
// shown from the kept view takes the fresh one when it refreshes, and
// reads for itself after that.
func firstPage[P, T any](o *accountOpening, list api.AccountList[P, T], fetch pagedlist.Fetch[T]) pagedlist.Fetch[T] {
	return func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[T], error) {
		if r.After == "" && !r.Reverse && r.First == o.params.First {
			if v, read := o.take(ctx, list.Name()); v != nil {
				if p := list.Page(v); p != nil {
					page := pageOf(p)
					page.Read = read
					return page, nil
				}
			}
		}
		return fetch(ctx, r)
	}
}

// viewCache keeps the accounts seen last, so that coming back to one shows
// it at once.
type viewCache = keptCache[string, *api.AccountView]

// viewCacheSize bounds the views kept: each holds a page of each tab.
const viewCacheSize = 16

// keptCache keeps the views seen last and when each was read, so that
// coming back to one shows it at once while it is read again; it holds
// up to max, the oldest going first. Commands fill it, so it is safe for
// concurrent use.
type keptCache[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]kept[V]
	// gen counts the clears and drops: a read begun before one may not
	// put back what they took out (putSince).
	gen uint64
}

type kept[V any] struct {
	v    V
	read time.Time
}

func (c *keptCache[K, V]) get(k K) (V, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return e.v, e.read, ok
}

// generation is the cache's as a read begins, for putSince.
func (c *keptCache[K, V]) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// putSince keeps what a read begun at generation since answered, unless
// the cache was cleared or a view dropped since: a read that outlived its
// screen (and may answer after a sign-out or a simulation) never brings
// back what is no longer true, or no longer this user's.
func (c *keptCache[K, V]) putSince(since uint64, k K, v V, read time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != since {
		return
	}
	if c.m == nil {
		c.m = map[K]kept[V]{}
	}
	if _, ok := c.m[k]; !ok && len(c.m) >= max(c.max, 1) {
		var oldest K
		first := true
		for key, e := range c.m {
			if first || e.read.Before(c.m[oldest].read) {
				oldest, first = key, false
			}
		}
		delete(c.m, oldest)
	}
	c.m[k] = kept[V]{v: v, read: read}
}

// clear forgets every view.
func (c *keptCache[K, V]) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
	c.gen++
}

func (c *keptCache[K, V]) drop(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
	c.gen++
}
