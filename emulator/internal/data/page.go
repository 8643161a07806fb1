package data

import (
	"slices"
	"sync"
)

// nested is a list flattened from accounts (in the order of a view) and
// the few items each account holds (in rank order): memberships and cards
// are paged this way, so a page costs its own items plus the accounts it
// skips, never the whole list.
type nested[T any] struct {
	view  []int32              // accounts, ascending in the list's order
	cmp   func(x, y int32) int // that order
	items func(idx int32) []T  // an account's items, by ascending rank
	rank  func(T) int
	match func(T) bool // nil keeps every item
}

// position is a place in the ascending flattened list: the item of rank r
// of the account at view index vp; rank -1 is just before that account's
// items.
type position struct{ vp, rank int }

func (p position) less(q position) bool {
	return p.vp < q.vp || (p.vp == q.vp && p.rank < q.rank)
}

// at is the position of an account's item, or of the place the account
// would take, for a cursor.
func (n *nested[T]) at(idx int32, rank int) position {
	vp, found := slices.BinarySearchFunc(n.view, idx, n.cmp)
	if !found {
		return position{vp: vp, rank: -1}
	}
	return position{vp: vp, rank: rank}
}

// cursorRef is a decoded cursor: the account and rank of an item.
type cursorRef struct {
	idx  int32
	rank int
}

// nestedCursor decodes the cursor of an item held by an account: it names
// an entity whose position is the account's index above rankBits bits of
// the item's rank. An empty cursor is nil.
func (s *Store) nestedCursor(c, name string, k kind, rankBits uint) (*cursorRef, error) {
	if c == "" {
		return nil, nil
	}
	id, ok := decodeCursor(c, name)
	if !ok {
		return nil, ErrBadCursor
	}
	pos, ok := s.decodeEntityID(k, id)
	if !ok {
		return nil, ErrBadCursor
	}
	return &cursorRef{idx: int32(pos >> rankBits), rank: int(pos & (1<<rankBits - 1))}, nil
}

// Page is one page of a connection: its items, how many items the whole
// list holds, and whether items lie beyond either end of the page.
type Page[T any] struct {
	TotalCount      int
	Items           []T
	HasNextPage     bool
	HasPreviousPage bool
}

// window is the page of up to first items from start of a list that was
// filtered and ordered in full.
func window[T any](items []T, start, first int) Page[T] {
	end := min(start+first, len(items))
	return Page[T]{TotalCount: len(items), Items: items[start:end], HasNextPage: end < len(items), HasPreviousPage: start > 0}
}

// page returns up to first items after `after` and before `before`
// (exclusive), in ascending or descending order; the caller sets the
// total.
func (n *nested[T]) page(first int, after, before *cursorRef, desc bool) Page[T] {
	lo, hi := position{vp: -1, rank: 0}, position{vp: len(n.view), rank: -1}
	var loSet, hiSet bool
	set := func(c *cursorRef, low bool) {
		if c == nil {
			return
		}
		p := n.at(c.idx, c.rank)
		if low {
			lo, loSet = p, true
		} else {
			hi, hiSet = p, true
		}
	}
	// In descending order `after` bounds the ascending list from above.
	set(after, !desc)
	set(before, desc)
	var out Page[T]
	start, stop := lo, hi
	if desc {
		start, stop = hi, lo
	}
	more := n.walk(start, stop, !desc, func(item T) bool {
		if len(out.Items) == first {
			return false
		}
		out.Items = append(out.Items, item)
		return true
	})
	out.HasNextPage = more
	if (desc && hiSet) || (!desc && loSet) {
		// Items at or beyond the start bound, the other way round.
		bound := position{vp: -1, rank: 0}
		if desc {
			bound = position{vp: len(n.view), rank: -1}
		}
		incl := start
		if desc {
			incl.rank--
		} else {
			incl.rank++
		}
		out.HasPreviousPage = n.walk(incl, bound, desc, func(T) bool { return false })
	}
	return out
}

// walk visits matching items strictly between from and to, upwards or
// downwards; it stops when visit returns false and reports whether it
// stopped on an item (true) rather than at the end.
func (n *nested[T]) walk(from, to position, up bool, visit func(T) bool) bool {
	vp := from.vp
	if !up && vp >= len(n.view) {
		vp = len(n.view) - 1
		from = position{vp: vp, rank: 1 << 30}
	}
	if up && vp < 0 {
		vp = 0
		from = position{vp: 0, rank: -1}
	}
	for vp >= 0 && vp < len(n.view) {
		if up && to.vp < vp || !up && to.vp > vp {
			return false
		}
		items := n.items(n.view[vp])
		for j := range items {
			if !up {
				j = len(items) - 1 - j
			}
			item := items[j]
			p := position{vp: vp, rank: n.rank(item)}
			if up && (!from.less(p) || !p.less(to)) || !up && (!p.less(from) || !to.less(p)) {
				continue
			}
			if n.match != nil && !n.match(item) {
				continue
			}
			if !visit(item) {
				return true
			}
		}
		if up {
			vp++
		} else {
			vp--
		}
	}
	return false
}

// count is the number of matching items; each is built once per call, so
// callers cache counts of filtered lists.
func (n *nested[T]) count(size func(idx int32) int) int {
	total := 0
	for _, idx := range n.view {
		if n.match == nil {
			total += size(idx)
			continue
		}
		for _, item := range n.items(idx) {
			if n.match(item) {
				total++
			}
		}
	}
	return total
}

// cache is a map for results that are costly to compute, bounded by
// forgetting everything when full: recomputing one now and then is cheap
// next to tracking use. Values are computed outside the lock, so two
// callers may compute one value at once; both get the same answer.
type cache[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]V
}

func newCache[K comparable, V any](max int) *cache[K, V] {
	return &cache[K, V]{max: max, m: map[K]V{}}
}

func (c *cache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[k] = v
}

// getOr returns the cached value, computing and keeping it when absent.
func (c *cache[K, V]) getOr(k K, compute func() V) V {
	if v, ok := c.get(k); ok {
		return v
	}
	v := compute()
	c.put(k, v)
	return v
}
