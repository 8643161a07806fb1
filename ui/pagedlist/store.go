package pagedlist

// store holds a list's rows as runs of loaded rows (segments) placed in the
// whole list, with unloaded gaps between them. A segment grows page by page
// from either end; two segments that meet are joined by row id, so rows
// read from the top and rows read from the bottom become one run without a
// duplicate.
//
// Positions are exact for a segment that reaches the top (it starts at 0)
// or the bottom (it ends at the server's total). A segment in the middle,
// loaded around the cursor by a refresh, keeps the position it had; if the
// rows above it changed meanwhile, its neighbours push it, and joining
// settles it.
type store[T any] struct {
	id   func(*T) string
	page int // the page size: how far apart two reads of the same rows can be
	segs []*segment[T]
	// total is the row count the server gave last.
	total int
	// n is the number of rows shown: the total, reconciled with what is
	// loaded so that two segments that have not met keep a gap row between
	// them (the row whose loading joins or separates them for good).
	n      int
	loaded int
}

type segment[T any] struct {
	start int
	rows  []T
	// cursors are the server's cursors of rows, "" for rows inside a page
	// (a connection names only the first and last row of a page). The first
	// and last row of a segment always have one: a segment is made of whole
	// pages, so it can be extended from either end.
	cursors  []string
	atTop    bool // rows[0] is the list's first row
	atBottom bool // the last row is the list's last row
}

func (s *segment[T]) end() int { return s.start + len(s.rows) }

func newSegment[T any](p Page[T], reverse bool) *segment[T] {
	rows := append([]T(nil), p.Rows...)
	cursors := make([]string, len(rows))
	if len(rows) > 0 {
		cursors[0], cursors[len(rows)-1] = p.StartCursor, p.EndCursor
	}
	if reverse {
		// A reverse read lists rows from the bottom up; store them in list
		// order with their cursors.
		for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
			rows[i], rows[j] = rows[j], rows[i]
			cursors[i], cursors[j] = cursors[j], cursors[i]
		}
	}
	return &segment[T]{rows: rows, cursors: cursors}
}

// reset forgets every row.
func (st *store[T]) reset() {
	st.segs = nil
	st.total, st.n, st.loaded = 0, 0, 0
}

// add places a new segment made of page p and settles the layout. kind
// says where it belongs; est is the estimated start of a middle segment.
func (st *store[T]) add(p Page[T], reverse bool, kind placement, est int) {
	s := newSegment(p, reverse)
	st.total = p.Total
	if len(s.rows) == 0 {
		if kind != placeMiddle {
			// Nothing in that order at all: the list is empty, which one
			// empty segment spanning top to bottom says.
			st.segs = []*segment[T]{{atTop: true, atBottom: true}}
		}
		st.settle()
		return
	}
	switch kind {
	case placeTop:
		s.atTop = true
		s.atBottom = !p.HasNext
	case placeBottom:
		s.atBottom = true
		s.atTop = !p.HasNext
		s.start = p.Total - len(s.rows)
	case placeMiddle:
		s.start = est
		s.atBottom = !p.HasNext
	}
	st.insert(s, kind)
	st.settle()
}

type placement int

const (
	placeTop placement = iota
	placeBottom
	placeMiddle
)

// insert puts s in list order: a top read first and a bottom read last
// whatever the estimates say, a middle one by its start.
func (st *store[T]) insert(s *segment[T], kind placement) {
	i := 0
	switch kind {
	case placeBottom:
		i = len(st.segs)
	case placeMiddle:
		for i < len(st.segs) && (st.segs[i].atTop || st.segs[i].start <= s.start) && !st.segs[i].atBottom {
			i++
		}
	}
	st.segs = append(st.segs, nil)
	copy(st.segs[i+1:], st.segs[i:])
	st.segs[i] = s
}

// extend grows seg with page p: downwards after a forward read of the rows
// below it, upwards after a reverse read of the rows above it.
func (st *store[T]) extend(seg *segment[T], p Page[T], up bool) {
	if !st.has(seg) {
		return
	}
	st.total = p.Total
	more := newSegment(p, up)
	if len(more.rows) > 0 && st.repeats(seg, more, up) {
		// The read did not move past rows already here (a cursor the
		// server did not honour): take that end as reached rather than
		// read the same page again and again.
		more.rows = nil
	}
	switch {
	case up && len(more.rows) == 0:
		seg.atTop = true
	case up:
		seg.rows = append(more.rows, seg.rows...)
		seg.cursors = append(more.cursors, seg.cursors...)
		seg.start -= len(more.rows)
		seg.atTop = !p.HasNext
	case len(more.rows) == 0:
		seg.atBottom = true
	default:
		seg.rows = append(seg.rows, more.rows...)
		seg.cursors = append(seg.cursors, more.cursors...)
		seg.atBottom = !p.HasNext
	}
	st.settle()
}

// repeats reports whether the read's first row, the one next to seg, is
// already at that end of seg.
func (st *store[T]) repeats(seg, more *segment[T], up bool) bool {
	span := min(len(seg.rows), max(st.page, 1))
	if up {
		id := st.id(&more.rows[len(more.rows)-1])
		for i := range span {
			if st.id(&seg.rows[i]) == id {
				return true
			}
		}
		return false
	}
	id := st.id(&more.rows[0])
	for i := len(seg.rows) - span; i < len(seg.rows); i++ {
		if st.id(&seg.rows[i]) == id {
			return true
		}
	}
	return false
}

func (st *store[T]) has(seg *segment[T]) bool {
	for _, s := range st.segs {
		if s == seg {
			return true
		}
	}
	return false
}

// settle joins segments that met, drops what a segment reaching an end
// proved stale, and recomputes positions and counts.
func (st *store[T]) settle() {
	// A segment that reaches the top makes whatever was placed above it
	// stale (the list changed under it); likewise at the bottom.
	for i := len(st.segs) - 1; i > 0; i-- {
		if st.segs[i].atTop {
			st.segs = st.segs[i:]
			break
		}
	}
	for i, s := range st.segs {
		if s.atBottom {
			st.segs = st.segs[:i+1]
			break
		}
	}
	for i := 0; i+1 < len(st.segs); {
		if st.join(st.segs[i], st.segs[i+1]) {
			st.segs = append(st.segs[:i+1], st.segs[i+2:]...)
			continue
		}
		i++
	}
	st.layout()
}

// join merges b into a when they share a row; it reports whether they did.
// The search is bounded: two adjacent segments overlap only where the last
// page read crossed into the other, so within two pages of where they meet.
func (st *store[T]) join(a, b *segment[T]) bool {
	if len(a.rows) == 0 || len(b.rows) == 0 {
		return false
	}
	span := 2 * max(st.page, 1)
	// Look for b's first row in a (b starts inside a), then for a's last
	// row in b (a ends inside b).
	firstB := st.id(&b.rows[0])
	for i, stop := len(a.rows)-1, max(len(a.rows)-span, 0); i >= stop; i-- {
		if st.id(&a.rows[i]) != firstB {
			continue
		}
		// b replaces a's rows from i on: it is the newer read. a's rows
		// beyond b's end stay.
		tail := i + len(b.rows)
		rows := append(a.rows[:i:i], b.rows...)
		cursors := append(a.cursors[:i:i], b.cursors...)
		atBottom := b.atBottom
		if tail < len(a.rows) && !b.atBottom {
			rows = append(rows, a.rows[tail:]...)
			cursors = append(cursors, a.cursors[tail:]...)
			atBottom = a.atBottom
		}
		a.rows, a.cursors, a.atBottom = rows, cursors, atBottom
		return true
	}
	lastA := st.id(&a.rows[len(a.rows)-1])
	for j := range min(len(b.rows), span) {
		if st.id(&b.rows[j]) != lastA {
			continue
		}
		a.rows = append(a.rows, b.rows[j+1:]...)
		a.cursors = append(a.cursors, b.cursors[j+1:]...)
		a.atBottom = b.atBottom
		return true
	}
	return false
}

// layout places the segments: the top one at 0, the bottom one against
// the total, the others where they were; unjoined neighbours keep at least
// one gap row between them.
func (st *store[T]) layout() {
	prevEnd := 0
	loaded := 0
	for i, s := range st.segs {
		minStart := prevEnd
		if i > 0 || !s.atTop {
			minStart = prevEnd + 1
		}
		switch {
		case s.atTop:
			s.start = 0
		case s.atBottom:
			s.start = max(st.total-len(s.rows), minStart)
		default:
			s.start = max(s.start, minStart)
		}
		prevEnd = s.end()
		loaded += len(s.rows)
	}
	st.loaded = loaded
	switch {
	case len(st.segs) == 0:
		st.n = st.total
	case st.segs[len(st.segs)-1].atBottom:
		st.n = prevEnd
	default:
		st.n = max(st.total, prevEnd+1)
	}
}

// at returns the segment holding row i and the row's index in it.
func (st *store[T]) at(i int) (*segment[T], int) {
	for _, s := range st.segs {
		if i < s.start {
			return nil, 0
		}
		if i < s.end() {
			return s, i - s.start
		}
	}
	return nil, 0
}

// row returns row i, or nil when it is not loaded.
func (st *store[T]) row(i int) *T {
	if s, j := st.at(i); s != nil {
		return &s.rows[j]
	}
	return nil
}

// find returns the position of the row with id, searching outwards from
// near; -1 when it is not loaded within span rows of near.
func (st *store[T]) find(id string, near, span int) int {
	for d := 0; d <= span; d++ {
		for _, i := range [2]int{near - d, near + d} {
			if r := st.row(i); r != nil && st.id(r) == id {
				return i
			}
			if d == 0 {
				break
			}
		}
	}
	return -1
}

// cursorAbove returns the nearest row above i (within span rows) that has a
// cursor, and that cursor: a forward read after it reloads the rows from
// just after it. ok is false when there is none.
func (st *store[T]) cursorAbove(i, span int) (pos int, cursor string, ok bool) {
	for p := i - 1; p >= max(i-span, 0); p-- {
		s, j := st.at(p)
		if s == nil {
			return 0, "", false
		}
		if c := s.cursors[j]; c != "" {
			return p, c, true
		}
	}
	return 0, "", false
}

// gap is a run of unloaded rows [from, to) with the segments around it
// (nil at the ends of the list).
type gap[T any] struct {
	from, to     int
	above, below *segment[T]
}

// gaps lists the unloaded runs in list order.
func (st *store[T]) gaps(yield func(gap[T]) bool) {
	prevEnd := 0
	var prev *segment[T]
	for _, s := range st.segs {
		if s.start > prevEnd || (prev == nil && !s.atTop) {
			if !yield(gap[T]{from: prevEnd, to: max(s.start, prevEnd+1), above: prev, below: s}) {
				return
			}
		}
		prevEnd, prev = s.end(), s
	}
	if prev == nil || !prev.atBottom {
		yield(gap[T]{from: prevEnd, to: max(st.n, prevEnd+1), above: prev})
	}
}
