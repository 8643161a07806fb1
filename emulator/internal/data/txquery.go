package data

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// TransactionFilter is TransactionsFiltersInput, plus the card of
// Card.transactions. Zero values do not filter.
type TransactionFilter struct {
	Statuses, Products, Types       []string
	Search                          string
	AfterUpdatedAt, BeforeUpdatedAt time.Time // inclusive, exclusive
	AfterExecution, BeforeExecution time.Time // inclusive, exclusive
	Amount, Above, Below            *int64    // cents; above and below are inclusive
	// ExcludeRejectedWithFallback is includeRejectedWithFallback: false.
	ExcludeRejectedWithFallback bool
	CardID                      string
}

func (f *TransactionFilter) empty() bool {
	return len(f.Statuses) == 0 && len(f.Products) == 0 && len(f.Types) == 0 && f.AfterUpdatedAt.IsZero() &&
		f.BeforeUpdatedAt.IsZero() && f.AfterExecution.IsZero() && f.BeforeExecution.IsZero() &&
		!f.ExcludeRejectedWithFallback && !f.needsText()
}

// normalize folds the search term once per query, so that testing a
// transaction compares it as is.
func (f *TransactionFilter) normalize() { f.Search = strings.ToLower(strings.TrimSpace(f.Search)) }

// needsText is whether the filter reads amounts or texts, which only a
// generated history has.
func (f *TransactionFilter) needsText() bool {
	return f.Search != "" || f.Amount != nil || f.Above != nil || f.Below != nil || f.CardID != ""
}

// matchesKind tests what describe knows: kind, status and dates.
func (f *TransactionFilter) matchesKind(t *Transaction) bool {
	return (len(f.Statuses) == 0 || slices.Contains(f.Statuses, t.Status)) &&
		(len(f.Products) == 0 || slices.Contains(f.Products, t.Product)) &&
		(len(f.Types) == 0 || slices.Contains(f.Types, t.Type)) &&
		(f.AfterUpdatedAt.IsZero() || !t.UpdatedAt.Before(f.AfterUpdatedAt)) &&
		(f.BeforeUpdatedAt.IsZero() || t.UpdatedAt.Before(f.BeforeUpdatedAt)) &&
		(f.AfterExecution.IsZero() || !t.ExecutionDate.Before(f.AfterExecution)) &&
		(f.BeforeExecution.IsZero() || t.ExecutionDate.Before(f.BeforeExecution)) &&
		!(f.ExcludeRejectedWithFallback && t.Status == StatusRejected && t.HasFallback)
}

// matchesText tests amounts and texts of a complete transaction; the
// filter is normalized.
func (f *TransactionFilter) matchesText(t *Transaction) bool {
	return (f.Search == "" || strings.Contains(t.search, f.Search)) &&
		(f.Amount == nil || t.Amount == *f.Amount) &&
		(f.Above == nil || t.Amount >= *f.Above) &&
		(f.Below == nil || t.Amount <= *f.Below) &&
		(f.CardID == "" || t.CardID == f.CardID)
}

func (f *TransactionFilter) key() string {
	ts := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	amt := func(p *int64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprint(*p)
	}
	return strings.Join([]string{strings.Join(f.Statuses, ","), strings.Join(f.Products, ","), strings.Join(f.Types, ","),
		f.Search, ts(f.AfterUpdatedAt), ts(f.BeforeUpdatedAt), ts(f.AfterExecution), ts(f.BeforeExecution),
		amt(f.Amount), amt(f.Above), amt(f.Below), fmt.Sprint(f.ExcludeRejectedWithFallback), f.CardID}, "\x00")
}

// TransactionQuery is one page request of a transactions connection.
type TransactionQuery struct {
	First   int
	After   string
	OrderBy string // id | createdAt | updatedAt (default) | executionDate
	Asc     bool   // default is descending, as the schema documents
	Filter  TransactionFilter
}

// txKey orders transactions: the order's field (in Unix milliseconds,
// or 0 for generated and 1 for simulated in id order), then generated
// before simulated, then slot or sequence. Id order matches the ids'
// text order: generated ids grow with their slot, "bosci_sim…" ids come
// after them and grow with their sequence.
type txKey struct {
	t   int64
	sim bool
	n   uint64
}

func (k txKey) compare(o txKey) int {
	if c := cmp.Compare(k.t, o.t); c != 0 {
		return c
	}
	if k.sim != o.sim {
		if k.sim {
			return 1
		}
		return -1
	}
	return cmp.Compare(k.n, o.n)
}

func keyOf(orderBy string, t *Transaction) txKey {
	k := txKey{sim: t.sim > 0, n: t.slot}
	if k.sim {
		k.n = uint64(t.sim)
	}
	switch orderBy {
	case "id":
		if k.sim {
			k.t = 1
		}
	case "createdAt":
		k.t = t.CreatedAt.UnixMilli()
	case "executionDate":
		k.t = t.ExecutionDate.UnixMilli()
	default:
		k.t = t.UpdatedAt.UnixMilli()
	}
	return k
}

// lookup finds a transaction by id: generated ones are described from
// their slot (no text), simulated ones copied.
func (s *Store) lookup(id string) (Transaction, bool) {
	if slot, ok := s.decodeTransactionID(id); ok {
		ref, ok := s.refOfSlot(slot)
		if !ok {
			return Transaction{}, false
		}
		return s.describe(&s.accounts[ref.acc], ref.k, slot), true
	}
	if !strings.HasPrefix(id, txPrefix+"sim") {
		return Transaction{}, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, r := range s.simulated {
		if t := &s.extraTx[r.acc][r.n]; t.ID == id {
			return *t, true
		}
	}
	return Transaction{}, false
}

// cursorKey decodes an after cursor into the key it stands for.
func (s *Store) cursorKey(c, orderBy string) (*txKey, error) {
	if c == "" {
		return nil, nil
	}
	id, ok := decodeCursor(c, "transaction")
	if !ok {
		return nil, ErrBadCursor
	}
	t, ok := s.lookup(id)
	if !ok {
		return nil, ErrBadCursor
	}
	k := keyOf(orderBy, &t)
	return &k, nil
}

// Transactions returns one page of an account's transactions. A history
// has a few dozen entries, so it is filtered and sorted in full.
func (s *Store) Transactions(a *Account, q TransactionQuery) (Page[Transaction], error) {
	return s.pageOf(s.transactions(a), q)
}

// pageOf filters, sorts and pages an account's transactions. It sorts
// their keys, the transactions staying where they are: an account with
// many simulated transactions (up to MaxSimulatedPerAccount) would
// otherwise have them all moved about on every page.
func (s *Store) pageOf(all []Transaction, q TransactionQuery) (Page[Transaction], error) {
	q.Filter.normalize()
	after, err := s.cursorKey(q.After, q.OrderBy)
	if err != nil {
		return Page[Transaction]{}, err
	}
	type keyed struct {
		k txKey
		i int
	}
	keys := make([]keyed, 0, len(all))
	for i := range all {
		if t := &all[i]; q.Filter.matchesKind(t) && q.Filter.matchesText(t) {
			keys = append(keys, keyed{keyOf(q.OrderBy, t), i})
		}
	}
	sign := 1
	if !q.Asc {
		sign = -1
	}
	slices.SortFunc(keys, func(x, y keyed) int { return sign * x.k.compare(y.k) })
	start := 0
	if after != nil {
		start, _ = slices.BinarySearchFunc(keys, *after, func(e keyed, k txKey) int {
			c := sign * e.k.compare(k)
			if c == 0 {
				return -1 // the cursor's own transaction is before the page
			}
			return c
		})
	}
	end := min(start+q.First, len(keys))
	txs := make([]Transaction, 0, max(end-start, 0))
	for _, e := range keys[start:max(end, start)] {
		txs = append(txs, all[e.i])
	}
	return Page[Transaction]{TotalCount: len(keys), Items: txs, HasNextPage: end < len(keys), HasPreviousPage: start > 0}, nil
}

// Transaction returns a transaction by id with its texts.
func (s *Store) Transaction(id string) (Transaction, bool) {
	if slot, ok := s.decodeTransactionID(id); ok {
		ref, ok := s.refOfSlot(slot)
		if !ok {
			return Transaction{}, false
		}
		return s.transactionAt(&s.accounts[ref.acc], ref.k), true
	}
	return s.lookup(id)
}

// simRef locates a simulated transaction in Store.extraTx.
type simRef struct {
	acc int32
	n   int
}

// upcomingTx is a scheduled transfer with its execution date.
type upcomingTx struct {
	ref  txRef
	exec int64 // Unix milliseconds
}

// scheduledTransfers lists every Upcoming transaction by execution date:
// they were all created in the last days before the epoch, so only the last
// rounds are searched.
func (s *Store) scheduledTransfers() []upcomingTx {
	var out []upcomingTx
	var buf []txRef
	for r := max(0, int32(s.roundOf(s.epoch.Add(-upcomingWindow)))); r < rounds; r++ {
		buf = s.roundTransactions(r, buf[:0])
		for _, ref := range buf {
			if t := s.describe(&s.accounts[ref.acc], ref.k, ref.slot); t.Status == StatusUpcoming {
				out = append(out, upcomingTx{ref: ref, exec: t.ExecutionDate.UnixMilli()})
			}
		}
	}
	slices.SortFunc(out, func(x, y upcomingTx) int {
		return txKey{t: x.exec, n: x.ref.slot}.compare(txKey{t: y.exec, n: y.ref.slot})
	})
	return out
}

// rootQuery is the state of one root transactions request: the filter,
// the order and the transactions it generated.
type rootQuery struct {
	s       *Store
	orderBy string
	asc     bool
	f       *TransactionFilter
	made    map[txRef]*Transaction
	hist    map[int32][]Transaction // whole histories, for filters on texts
	// found lists, by slot, the generated transactions a filter on texts
	// matches, when there are few enough to keep (textMatches).
	found []uint64
	ctx   context.Context
	sims  []Transaction // matching simulated transactions in order
	rlo   int32         // rounds that may hold matches
	rhi   int32
}

// item is one transaction of the merged streams.
type item struct {
	key txKey
	ref txRef
	sim *Transaction
}

// full is a generated transaction with its texts. A filter on texts
// tests many transactions of each account, so it generates whole
// histories; a page alone generates just its transactions.
func (q *rootQuery) full(ref txRef) *Transaction {
	if q.f.needsText() {
		h, ok := q.hist[ref.acc]
		if !ok {
			h = q.s.history(&q.s.accounts[ref.acc], true)
			q.hist[ref.acc] = h
		}
		return &h[ref.k]
	}
	t, ok := q.made[ref]
	if !ok {
		made := q.s.transactionAt(&q.s.accounts[ref.acc], ref.k)
		t = &made
		q.made[ref] = t
	}
	return t
}

// matches tests a generated transaction, generating it only when the
// filter reads amounts or texts.
func (q *rootQuery) matches(ref txRef, t *Transaction) bool {
	if !q.f.matchesKind(t) {
		return false
	}
	return !q.f.needsText() || q.f.matchesText(q.full(ref))
}

// stream yields items in the query's direction, strictly beyond a key
// (or from it, inclusive).
type stream func() (item, bool)

// genStream walks the rounds. In executionDate order it leaves scheduled
// transfers (executed later than created) to upcomingStream.
func (q *rootQuery) genStream(from *txKey, inclusive, asc bool) stream {
	s := q.s
	r := q.rlo
	if !asc {
		r = q.rhi
	}
	if from != nil {
		switch {
		case q.orderBy != "id":
			r = int32(max(int64(q.rlo), min(int64(q.rhi), s.roundOf(time.UnixMilli(from.t)))))
		case from.sim && asc:
			r = q.rhi + 1
		case !from.sim:
			r = int32(from.n >> positionBits)
		}
	}
	var buf []txRef
	i := 0
	loaded := false
	return func() (item, bool) {
		for {
			if loaded && i < len(buf) {
				ref := buf[i]
				if !asc {
					ref = buf[len(buf)-1-i]
				}
				i++
				t := s.describe(&s.accounts[ref.acc], ref.k, ref.slot)
				if q.orderBy == "executionDate" && t.Status == StatusUpcoming {
					continue
				}
				it := item{key: keyOf(q.orderBy, &t), ref: ref}
				if from != nil && !beyond(it.key, *from, inclusive, asc) {
					continue
				}
				if !q.matches(ref, &t) {
					continue
				}
				return it, true
			}
			if loaded {
				if asc {
					r++
				} else {
					r--
				}
			}
			if r < q.rlo || r > q.rhi || q.ctx.Err() != nil {
				return item{}, false
			}
			buf, i, loaded = s.roundTransactions(r, buf[:0]), 0, true
		}
	}
}

// upcomingStream walks the scheduled transfers by execution date.
func (q *rootQuery) upcomingStream(from *txKey, inclusive, asc bool) stream {
	list := q.s.upcoming()
	i := 0
	return func() (item, bool) {
		for i < len(list) {
			u := list[i]
			if !asc {
				u = list[len(list)-1-i]
			}
			i++
			it := item{key: txKey{t: u.exec, n: u.ref.slot}, ref: u.ref}
			if from != nil && !beyond(it.key, *from, inclusive, asc) {
				continue
			}
			t := q.s.describe(&q.s.accounts[u.ref.acc], u.ref.k, u.ref.slot)
			if q.matches(u.ref, &t) {
				return it, true
			}
		}
		return item{}, false
	}
}

// foundStream walks the kept matches of a filter on texts; slots sort
// like every order but executionDate, whose scheduled transfers it leaves
// to upcomingStream.
func (q *rootQuery) foundStream(from *txKey, inclusive, asc bool) stream {
	i := 0
	return func() (item, bool) {
		for i < len(q.found) {
			slot := q.found[i]
			if !asc {
				slot = q.found[len(q.found)-1-i]
			}
			i++
			ref, _ := q.s.refOfSlot(slot)
			t := q.s.describe(&q.s.accounts[ref.acc], ref.k, slot)
			if q.orderBy == "executionDate" && t.Status == StatusUpcoming {
				continue
			}
			it := item{key: keyOf(q.orderBy, &t), ref: ref}
			if from == nil || beyond(it.key, *from, inclusive, asc) {
				return it, true
			}
		}
		return item{}, false
	}
}

// simStream walks the matching simulated transactions.
func (q *rootQuery) simStream(from *txKey, inclusive, asc bool) stream {
	i := 0
	return func() (item, bool) {
		for i < len(q.sims) {
			t := &q.sims[i]
			if !asc {
				t = &q.sims[len(q.sims)-1-i]
			}
			i++
			it := item{key: keyOf(q.orderBy, t), sim: t}
			if from == nil || beyond(it.key, *from, inclusive, asc) {
				return it, true
			}
		}
		return item{}, false
	}
}

func beyond(k, from txKey, inclusive, asc bool) bool {
	c := k.compare(from)
	if !asc {
		c = -c
	}
	return c > 0 || (inclusive && c == 0)
}

// merge interleaves streams that are each in order.
func merge(asc bool, streams ...stream) stream {
	heads := make([]*item, len(streams))
	for i, st := range streams {
		if it, ok := st(); ok {
			heads[i] = &it
		}
	}
	return func() (item, bool) {
		best := -1
		for i, h := range heads {
			if h == nil {
				continue
			}
			if best < 0 || beyond(heads[best].key, h.key, false, asc) {
				best = i
			}
		}
		if best < 0 {
			return item{}, false
		}
		out := *heads[best]
		if it, ok := streams[best](); ok {
			heads[best] = &it
		} else {
			heads[best] = nil
		}
		return out, true
	}
}

func (q *rootQuery) all(from *txKey, inclusive, asc bool) stream {
	gen := q.genStream(from, inclusive, asc)
	if q.found != nil {
		gen = q.foundStream(from, inclusive, asc)
	}
	streams := []stream{gen, q.simStream(from, inclusive, asc)}
	if q.orderBy == "executionDate" {
		streams = append(streams, q.upcomingStream(from, inclusive, asc))
	}
	return merge(asc, streams...)
}

// RootTransactions pages every transaction of the project. The timeline
// makes a page cost its own transactions plus the rounds it crosses, at
// any number of accounts; filters on amounts or texts generate the
// histories they test.
func (s *Store) RootTransactions(ctx context.Context, q TransactionQuery) (Page[Transaction], error) {
	q.Filter.normalize()
	from, err := s.cursorKey(q.After, q.OrderBy)
	if err != nil {
		return Page[Transaction]{}, err
	}
	rq := &rootQuery{s: s, orderBy: q.OrderBy, asc: q.Asc, f: &q.Filter, made: map[txRef]*Transaction{},
		hist: map[int32][]Transaction{}, ctx: ctx, rlo: 0, rhi: rounds - 1}
	f := &q.Filter
	clampLo := func(t time.Time) {
		if !t.IsZero() {
			rq.rlo = int32(max(int64(rq.rlo), min(int64(rounds), s.roundOf(t))))
		}
	}
	clampHi := func(t time.Time) {
		if !t.IsZero() {
			rq.rhi = int32(min(int64(rq.rhi), max(-1, s.roundOf(t))))
		}
	}
	clampLo(f.AfterUpdatedAt)
	clampHi(f.BeforeUpdatedAt)
	clampHi(f.BeforeExecution)
	if w := recentWindow(f.Statuses); w > 0 {
		clampLo(s.epoch.Add(-w))
	}
	if !f.AfterExecution.IsZero() {
		// Scheduled transfers execute after they are created.
		if scheduled := s.epoch.Add(-upcomingWindow); f.AfterExecution.After(scheduled) {
			clampLo(scheduled)
		} else {
			clampLo(f.AfterExecution)
		}
	}
	s.mu.RLock()
	for _, r := range s.simulated {
		if t := &s.extraTx[r.acc][r.n]; f.matchesKind(t) && f.matchesText(t) {
			rq.sims = append(rq.sims, *t)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(rq.sims, func(x, y Transaction) int { return keyOf(q.OrderBy, &x).compare(keyOf(q.OrderBy, &y)) })
	if f.needsText() {
		rq.found = s.textMatches(rq)
	}
	next := rq.all(from, false, q.Asc)
	page := Page[Transaction]{}
	for len(page.Items) < q.First {
		it, ok := next()
		if !ok {
			break
		}
		if it.sim != nil {
			page.Items = append(page.Items, *it.sim)
		} else {
			page.Items = append(page.Items, *rq.full(it.ref))
		}
	}
	_, page.HasNextPage = next()
	if from != nil {
		_, page.HasPreviousPage = rq.all(from, true, !q.Asc)()
	}
	page.TotalCount = len(rq.sims) + s.generatedCount(rq)
	if err := ctx.Err(); err != nil {
		return Page[Transaction]{}, fmt.Errorf("the request ended before the page was complete: %w", err)
	}
	return page, nil
}

// recentWindow is how far back transactions in these statuses can be:
// the generator leaves only recent movements pending, scheduled or
// deferred. Zero when a status may be of any age.
func recentWindow(statuses []string) time.Duration {
	var w time.Duration
	for _, st := range statuses {
		switch st {
		case StatusPending:
			w = max(w, pendingWindow, collectionWindow)
		case StatusUpcoming:
			w = max(w, upcomingWindow)
		case StatusDeferred:
			w = max(w, deferredWindow)
		default:
			return 0
		}
	}
	return w
}

// generatedCount counts the generated transactions that match, once per
// filter: counting describes every transaction of the rounds in range.
func (s *Store) generatedCount(q *rootQuery) int {
	if q.f.empty() {
		return s.txTotal
	}
	if q.found != nil {
		return len(q.found)
	}
	return s.listCounts.getOr(s.rootCountKey("rt", q.f), func() int {
		n := 0
		for i := range s.accounts {
			a := &s.accounts[i]
			sc := a.sched
			if sc.count == 0 {
				continue
			}
			var hist []Transaction
			for k := range int(sc.count) {
				r := sc.round(k)
				if r < q.rlo || r > q.rhi {
					continue
				}
				slot := slotOf(r, s.position(a.idx, r))
				t := s.describe(a, k, slot)
				if !q.f.matchesKind(&t) {
					continue
				}
				if q.f.needsText() {
					if hist == nil {
						hist = s.history(a, true)
					}
					if !q.f.matchesText(&hist[k]) {
						continue
					}
				}
				n++
			}
		}
		return n
	})
}

// maxKeptMatches bounds the slots kept of one filter's matches.
const maxKeptMatches = 100_000

// textMatches finds, once per filter, every generated transaction a
// filter on texts or amounts matches: that needs every history in range
// generated, the cost of such a filter on a large project (split over
// the cores). The count is cached, and so are the slots when few enough,
// for later pages to read; nil means too many to keep, dense enough for
// the timeline walk to find pages quickly.
func (s *Store) textMatches(q *rootQuery) []uint64 {
	key, countKey := s.rootCountKey("rtm", q.f), s.rootCountKey("rt", q.f)
	if list, ok := s.matchLists.get(key); ok {
		return list
	}
	if _, counted := s.listCounts.get(countKey); counted {
		return nil // counted before: too many to keep
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	parts := make([][]uint64, workers)
	counts := make([]int, workers)
	var wg sync.WaitGroup
	chunk := (len(s.accounts) + workers - 1) / workers
	for w := range workers {
		wg.Go(func() {
			for i := w * chunk; i < min(len(s.accounts), (w+1)*chunk) && q.ctx.Err() == nil; i++ {
				a := &s.accounts[i]
				var hist []Transaction
				for k := range int(a.sched.count) {
					if r := a.sched.round(k); r < q.rlo || r > q.rhi {
						continue
					}
					if hist == nil {
						hist = s.history(a, true)
					}
					if t := &hist[k]; q.f.matchesKind(t) && q.f.matchesText(t) {
						counts[w]++
						if counts[w] <= maxKeptMatches {
							parts[w] = append(parts[w], t.slot)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	if q.ctx.Err() != nil {
		return nil
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	s.listCounts.put(countKey, total)
	if total > maxKeptMatches {
		return nil
	}
	list := slices.Concat(parts...)
	if list == nil {
		list = []uint64{}
	}
	slices.Sort(list)
	s.matchLists.put(key, list)
	return list
}
