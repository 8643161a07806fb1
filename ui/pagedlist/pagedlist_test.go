package pagedlist

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/internal/testkit/teacmd"
)

type row struct {
	id   string
	name string
}

// conn is a connection of rows shown in index order, readable from either
// end; a cursor names a row, so it stays valid when rows are inserted.
type conn struct {
	mu   sync.Mutex
	rows []row
	reqs []Request
	err  error
}

func newConn(n int) *conn {
	c := &conn{}
	for i := range n {
		c.rows = append(c.rows, row{id: "r" + strconv.Itoa(i), name: "Row " + strconv.Itoa(i)})
	}
	return c
}

// insertTop adds k rows above every other, as new items in a list shown
// newest first.
func (c *conn) insertTop(k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var fresh []row
	for i := range k {
		fresh = append(fresh, row{id: fmt.Sprintf("new%d-%d", len(c.rows), i), name: "New"})
	}
	c.rows = append(fresh, c.rows...)
}

func (c *conn) fetch(ctx context.Context, r Request) (Page[row], error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reqs = append(c.reqs, r)
	if c.err != nil {
		return Page[row]{}, c.err
	}
	if err := ctx.Err(); err != nil {
		return Page[row]{}, err
	}
	n := len(c.rows)
	first := r.First
	pos := func(cur string) int {
		for i := range c.rows {
			if c.rows[i].id == cur {
				return i
			}
		}
		return -1
	}
	// order[i] is the index of the i-th row in the order read.
	at := func(i int) int { return i }
	if r.Reverse {
		at = func(i int) int { return n - 1 - i }
	}
	start := 0
	if r.After != "" {
		p := pos(r.After)
		if p < 0 {
			return Page[row]{}, errors.New("bad cursor")
		}
		start = p + 1
		if r.Reverse {
			start = n - p
		}
	}
	p := Page[row]{Total: n}
	i := start
	for ; i < n && len(p.Rows) < first; i++ {
		p.Rows = append(p.Rows, c.rows[at(i)])
	}
	p.HasNext = i < n
	if len(p.Rows) > 0 {
		p.StartCursor, p.EndCursor = p.Rows[0].id, p.Rows[len(p.Rows)-1].id
	}
	return p, nil
}

func (c *conn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.reqs)
}

func newList(c *conn, reversible bool) *Model[row] {
	l := New(Options[row]{
		Columns: []Column[row]{
			{Title: "Name", Width: 10, Flex: true, Cell: func(r *row) string { return r.name }},
			{Title: "ID", Width: 8, Drop: 1, Cell: func(r *row) string { return r.id }},
		},
		ID:         func(r *row) string { return r.id },
		Fetch:      c.fetch,
		Reversible: reversible,
		Keys:       DefaultKeyMap(),
		Styles:     Styles{Selected: lipgloss.NewStyle().Reverse(true)},
	})
	l.SetSize(40, 21) // a title line and 20 rows
	return l
}

// run executes cmd and every command that follows from it, synchronously.
func run(l *Model[row], cmd tea.Cmd) {
	if !teacmd.Run(cmd, func(msg tea.Msg) tea.Cmd { return l.Update(msg) }) {
		panic("the list's commands did not settle")
	}
}

func press(l *Model[row], keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "pgdown":
			msg = tea.KeyPressMsg{Code: tea.KeyPgDown}
		case "pgup":
			msg = tea.KeyPressMsg{Code: tea.KeyPgUp}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		cmd, _ := l.HandleKey(msg)
		run(l, cmd)
	}
}

func selectedID(t *testing.T, l *Model[row]) string {
	t.Helper()
	r, ok := l.Selected()
	if !ok {
		t.Fatalf("row %d is not loaded", l.Cursor())
	}
	return r.id
}

// checkOrder walks every loaded row: they must be the connection's rows at
// their positions, each once.
func checkOrder(t *testing.T, l *Model[row], c *conn) {
	t.Helper()
	seen := map[string]bool{}
	for i := range l.Len() {
		r := l.st.row(i)
		if r == nil {
			continue
		}
		if seen[r.id] {
			t.Fatalf("row %s shown twice", r.id)
		}
		seen[r.id] = true
		if want := c.rows[i].id; r.id != want {
			t.Fatalf("row %d is %s, want %s", i, r.id, want)
		}
	}
}

func TestFirstPageAndPrefetch(t *testing.T) {
	t.Parallel()
	c := newConn(250)
	l := newList(c, false)
	run(l, l.Query(nil))
	if !l.Ready() || l.Loaded() != 100 || l.Len() != 250 || c.count() != 1 {
		t.Fatalf("loaded %d of %d after %d requests", l.Loaded(), l.Len(), c.count())
	}
	// Far from the end: no request.
	press(l, "j", "j", "j")
	if c.count() != 1 || selectedID(t, l) != "r3" {
		t.Fatalf("cursor on %s after %d requests", selectedID(t, l), c.count())
	}
	// Within a screen of the last loaded row, the next page comes.
	for l.Cursor() < 100-22 {
		press(l, "j")
	}
	if c.count() != 1 {
		t.Fatalf("prefetched too early, at row %d", l.Cursor())
	}
	press(l, "j")
	if c.count() != 2 || l.Loaded() != 200 {
		t.Fatalf("no prefetch at row %d: %d requests, %d loaded", l.Cursor(), c.count(), l.Loaded())
	}
	if r := c.reqs[1]; r.After != "r99" || r.Reverse || r.First != 100 {
		t.Fatalf("second request %+v", r)
	}
	checkOrder(t, l, c)
}

// Without reverse reads, End goes to the last loaded row and the next page
// follows, as a list over a one-way connection must.
func TestBottomWithoutReverseReads(t *testing.T) {
	t.Parallel()
	c := newConn(250)
	l := newList(c, false)
	run(l, l.Query(nil))
	press(l, "G")
	if l.Cursor() != 99 || c.count() != 2 {
		t.Fatalf("G: cursor %d after %d requests", l.Cursor(), c.count())
	}
	press(l, "G", "G")
	if l.Cursor() != 249 || l.Loaded() != 250 {
		t.Fatalf("cursor %d, %d loaded", l.Cursor(), l.Loaded())
	}
	checkOrder(t, l, c)
}

// With WalkToEnd, End goes to the true last row of a one-way list at once,
// and the pages up to it are read one after another, in order, each from
// the cursor the previous one ended on.
func TestBottomWalksToTheEndWithoutReverseReads(t *testing.T) {
	t.Parallel()
	c := newConn(250)
	l := New(Options[row]{
		Columns:   []Column[row]{{Title: "Name", Width: 10, Flex: true, Cell: func(r *row) string { return r.name }}},
		ID:        func(r *row) string { return r.id },
		Fetch:     c.fetch,
		WalkToEnd: true,
		Keys:      DefaultKeyMap(),
	})
	l.SetSize(40, 21)
	run(l, l.Query(nil))
	cmd, _ := l.HandleKey(tea.KeyPressMsg{Code: 'G', Text: "G"})
	if l.Cursor() != 249 {
		t.Fatalf("G put the cursor on row %d, not the last of 250", l.Cursor())
	}
	if _, ok := l.Selected(); ok {
		t.Fatal("the last row is loaded before any read")
	}
	run(l, cmd)
	if got, ok := l.Selected(); !ok || got.id != "r249" || l.Loaded() != 250 || l.Cursor() != 249 {
		t.Fatalf("after the walk: row %+v (%v) at %d, %d loaded", got, ok, l.Cursor(), l.Loaded())
	}
	if c.count() != 3 {
		t.Fatalf("%d requests for 250 rows of 100", c.count())
	}
	for i, r := range c.reqs[1:] {
		if want := "r" + strconv.Itoa(100*(i+1)-1); r.Reverse || r.After != want {
			t.Fatalf("read %d: %+v, want forward after %s", i+1, r, want)
		}
	}
	checkOrder(t, l, c)
	// g goes back to the top with nothing more to read.
	press(l, "g")
	if l.Cursor() != 0 || c.count() != 3 {
		t.Fatalf("g: cursor %d after %d requests", l.Cursor(), c.count())
	}
}

func TestBottomOfABigListInOneRequest(t *testing.T) {
	t.Parallel()
	c := newConn(80000)
	l := newList(c, true)
	run(l, l.Query(nil))
	before := c.count()
	press(l, "G")
	if got := c.count() - before; got > 2 {
		t.Fatalf("G cost %d requests", got)
	}
	if l.Cursor() != 79999 || selectedID(t, l) != "r79999" || l.Len() != 80000 {
		t.Fatalf("G: cursor %d on %s of %d", l.Cursor(), selectedID(t, l), l.Len())
	}
	// The screen shows the true last rows, the last one selected.
	v := ansi.Strip(l.View())
	if !strings.Contains(v, "Row 79999") || !strings.Contains(v, "Row 79980") {
		t.Fatalf("the last rows are not on screen:\n%s", v)
	}
	checkOrder(t, l, c)
	// Back at the top costs nothing: the first page is still there.
	n := c.count()
	press(l, "g")
	if c.count() != n || selectedID(t, l) != "r0" {
		t.Fatalf("g: %s after %d more requests", selectedID(t, l), c.count()-n)
	}
}

// The gap between the rows read from the top and from the bottom shows
// placeholders and fills as the cursor enters it, from the nearer side;
// where the two reads meet, they join without a duplicate.
func TestGapFillsFromBothSidesAndJoins(t *testing.T) {
	t.Parallel()
	c := newConn(450)
	l := newList(c, true)
	run(l, l.Query(nil))
	press(l, "G")
	if l.Loaded() != 200 {
		t.Fatalf("%d loaded after G", l.Loaded())
	}
	// Up from the bottom: a screen above the last page, rows load upwards.
	for l.Cursor() > 340 {
		press(l, "k")
	}
	last := c.reqs[len(c.reqs)-1]
	if !last.Reverse || last.After != "r350" {
		t.Fatalf("the gap was not filled from below: %+v", last)
	}
	checkOrder(t, l, c)
	// The placeholders: jump into the middle of what is left.
	l.cursor = 150
	l.scroll()
	l.prepare()
	if v := ansi.Strip(l.View()); !strings.Contains(v, "…") {
		t.Fatalf("no placeholder for rows not loaded:\n%s", v)
	}
	press(l, "j") // nearer the top side: read downwards
	if last := c.reqs[len(c.reqs)-1]; last.Reverse {
		t.Fatalf("filled from the far side: %+v", last)
	}
	for i := 0; i < 300 && l.Loaded() < 450; i++ {
		press(l, "j")
	}
	if l.Loaded() != 450 || l.Len() != 450 || len(l.st.segs) != 1 {
		t.Fatalf("%d loaded of %d in %d segments", l.Loaded(), l.Len(), len(l.st.segs))
	}
	checkOrder(t, l, c)
}

// r keeps the cursor on the same row, at the same line, with the rows
// around it, even when rows were added above it meanwhile.
func TestRefreshKeepsTheSelectedRow(t *testing.T) {
	t.Parallel()
	c := newConn(2000)
	l := newList(c, true)
	run(l, l.Query(nil))
	for l.Cursor() < 876 {
		press(l, "pgdown")
	}
	for l.Cursor() > 876 {
		press(l, "k")
	}
	id, line := selectedID(t, l), l.Cursor()-l.offset
	c.insertTop(3)
	n := c.count()
	cmd := l.Refresh()
	if !l.Refreshing() || selectedID(t, l) != id {
		t.Fatal("the rows did not stay while refreshing")
	}
	run(l, cmd)
	if c.count()-n != 2 {
		t.Fatalf("refresh cost %d requests", c.count()-n)
	}
	if got := selectedID(t, l); got != id || l.Cursor()-l.offset != line {
		t.Fatalf("after refresh: %s on line %d, want %s on line %d", got, l.Cursor()-l.offset, id, line)
	}
	for i := l.offset; i < l.offset+l.r.visible(); i++ {
		if l.st.row(i) == nil {
			t.Fatalf("row %d on screen is not loaded after refresh", i)
		}
	}
	if l.Len() != 2003 {
		t.Fatalf("total %d after refresh", l.Len())
	}
	// Scrolling to the top walks through the new rows, loading as it goes.
	for i := 0; i < 1000 && l.Cursor() > 0; i++ {
		press(l, "pgup")
	}
	if selectedID(t, l) != c.rows[0].id {
		t.Fatalf("top row %s, want %s", selectedID(t, l), c.rows[0].id)
	}
}

func TestRefreshAtTheBottomRereadsTheLastPage(t *testing.T) {
	t.Parallel()
	c := newConn(5000)
	l := newList(c, true)
	run(l, l.Query(nil))
	press(l, "G", "k", "k")
	n := c.count()
	run(l, l.Refresh())
	if c.count()-n != 2 || !c.reqs[len(c.reqs)-1].Reverse {
		t.Fatalf("refresh at the bottom: %+v", c.reqs[n:])
	}
	if selectedID(t, l) != "r4997" {
		t.Fatalf("cursor on %s", selectedID(t, l))
	}
}

func TestStaleAnswersAreDropped(t *testing.T) {
	t.Parallel()
	c := newConn(30)
	l := newList(c, true)
	old := l.Query(nil)
	c.rows = c.rows[:5]
	run(l, l.Query(nil))
	run(l, old) // the first query answers last
	if l.Len() != 5 {
		t.Fatalf("an older query's answer was applied: %d rows", l.Len())
	}
	other := newList(c, true)
	run(other, other.Query(nil))
	// Another list's answer is not this list's.
	msg := pageMsg[row]{list: other, gen: l.gen, id: l.seq, page: Page[row]{Total: 99}}
	if l.Update(msg); l.Len() != 5 {
		t.Fatal("another list's answer was applied")
	}
}

func TestErrorsKeepTheRowsAndRetryOnTheNextKey(t *testing.T) {
	t.Parallel()
	c := newConn(300)
	l := newList(c, false)
	run(l, l.Query(nil))
	c.err = errors.New("boom")
	run(l, l.Refresh())
	if l.Err() == nil || l.Loaded() != 100 || l.Refreshing() {
		t.Fatalf("refresh error: err %v, %d loaded", l.Err(), l.Loaded())
	}
	for l.Cursor() < 79 {
		press(l, "j")
	}
	n := c.count()
	c.err = nil
	press(l, "j")
	if c.count() != n+1 || l.Err() != nil || l.Loaded() != 200 {
		t.Fatalf("the next key did not retry: %d requests, err %v", c.count()-n, l.Err())
	}
}

// A cancelled read is the list's own doing, not an error to show.
func TestClosedListKeepsNoError(t *testing.T) {
	t.Parallel()
	c := newConn(10)
	l := newList(c, false)
	cmd := l.Query(nil)
	l.Close()
	run(l, cmd)
	if l.Err() != nil {
		t.Fatalf("error after close: %v", l.Err())
	}
}

func TestEmptyListAsksOnce(t *testing.T) {
	t.Parallel()
	c := newConn(0)
	l := newList(c, true)
	run(l, l.Query(nil))
	press(l, "j", "G", "k", "g")
	if !l.Ready() || l.Len() != 0 || c.count() != 1 {
		t.Fatalf("ready %v, %d rows, %d requests", l.Ready(), l.Len(), c.count())
	}
	if _, ok := l.Selected(); ok {
		t.Fatal("a row is selected in an empty list")
	}
}

func TestSeedCostsNoRequest(t *testing.T) {
	t.Parallel()
	c := newConn(150)
	l := newList(c, true)
	first, _ := c.fetch(context.Background(), Request{First: 100})
	n := c.count()
	run(l, l.Seed(nil, first))
	if c.count() != n || l.Loaded() != 100 || l.Len() != 150 {
		t.Fatalf("seed: %d requests, %d of %d", c.count()-n, l.Loaded(), l.Len())
	}
}

// A page kept from an earlier read says how old its rows are; the next
// read's rows are as old as that read.
func TestKeptPageKeepsItsAge(t *testing.T) {
	t.Parallel()
	c := newConn(10)
	l := newList(c, true)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	l.o.Now = func() time.Time { return now }
	first, _ := c.fetch(context.Background(), Request{First: 100})
	first.Read = now.Add(-40 * time.Second)
	run(l, l.Seed(nil, first))
	if got := l.Updated(); !got.Equal(first.Read) {
		t.Fatalf("a page read 40s ago was updated at %v", got)
	}
	now = now.Add(time.Second)
	run(l, l.Refresh())
	if got := l.Updated(); !got.Equal(now) {
		t.Fatalf("rows read again at %v were updated at %v", now, got)
	}
}

func TestViewFitsEverySize(t *testing.T) {
	t.Parallel()
	c := newConn(500)
	l := newList(c, true)
	run(l, l.Query(nil))
	for _, sz := range [][2]int{{1, 1}, {10, 2}, {19, 5}, {40, 10}, {80, 24}, {200, 60}} {
		l.SetSize(sz[0], sz[1])
		press(l, "j", "G", "pgup")
		lines := strings.Split(l.View(), "\n")
		if len(lines) != sz[1] {
			t.Fatalf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		for i, ln := range lines {
			if w := ansi.StringWidth(ln); w > sz[0] {
				t.Fatalf("%dx%d: line %d is %d wide: %q", sz[0], sz[1], i, w, ln)
			}
		}
	}
	// Narrow: the ID column (dropped first) goes, the name stays.
	l.SetSize(15, 5)
	if v := ansi.Strip(l.View()); strings.Contains(v, "ID") || !strings.Contains(v, "Name") {
		t.Fatalf("narrow columns:\n%s", v)
	}
	l.SetSize(40, 5)
	if v := ansi.Strip(l.View()); !strings.Contains(v, "ID") {
		t.Fatalf("wide columns:\n%s", v)
	}
}

func TestKeysOutsideTheMapAreNotHandled(t *testing.T) {
	t.Parallel()
	l := newList(newConn(3), false)
	if _, ok := l.HandleKey(tea.KeyPressMsg{Code: 'x', Text: "x"}); ok {
		t.Fatal("x was handled")
	}
	for _, b := range l.Bindings() {
		k := b.Keys()[0]
		msg := tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		switch k {
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "pgup":
			msg = tea.KeyPressMsg{Code: tea.KeyPgUp}
		case "pgdown":
			msg = tea.KeyPressMsg{Code: tea.KeyPgDown}
		}
		if _, ok := l.HandleKey(msg); !ok {
			t.Errorf("%s (%s) is in the help but not handled", k, b.Help().Desc)
		}
	}
}

// A server that ignores the cursor and answers the same page again must
// not make the list read it forever.
func TestIgnoredCursorDoesNotLoop(t *testing.T) {
	t.Parallel()
	c := newConn(300)
	stuck := func(ctx context.Context, r Request) (Page[row], error) {
		r.After = ""
		return c.fetch(ctx, r)
	}
	l := New(Options[row]{
		Columns: []Column[row]{{Title: "Name", Width: 10, Flex: true, Cell: func(r *row) string { return r.name }}},
		ID:      func(r *row) string { return r.id },
		Fetch:   stuck, Reversible: true, Keys: DefaultKeyMap(),
	})
	l.SetSize(40, 21)
	run(l, l.Query(nil))
	for range 120 {
		press(l, "j")
	}
	press(l, "G")
	for range 300 {
		press(l, "k")
	}
	if n := c.count(); n > 10 {
		t.Fatalf("%d requests for a server that repeats itself", n)
	}
	checkOrder(t, l, c)
}

// When the server names no cursor for the top row of a page read from the
// bottom, the rows above it cannot be read upwards; they load from above.
func TestMissingCursorFallsBackToTheOtherSide(t *testing.T) {
	t.Parallel()
	c := newConn(450)
	noStart := func(ctx context.Context, r Request) (Page[row], error) {
		p, err := c.fetch(ctx, r)
		if r.Reverse {
			p.EndCursor = ""
		}
		return p, err
	}
	l := New(Options[row]{
		Columns: []Column[row]{{Title: "Name", Width: 10, Flex: true, Cell: func(r *row) string { return r.name }}},
		ID:      func(r *row) string { return r.id },
		Fetch:   noStart, Reversible: true, Keys: DefaultKeyMap(),
	})
	l.SetSize(40, 21)
	run(l, l.Query(nil))
	press(l, "G")
	for l.Cursor() > 0 {
		press(l, "pgup")
	}
	for range 30 {
		press(l, "pgdown")
	}
	if l.Loaded() != 450 {
		t.Fatalf("%d of 450 loaded", l.Loaded())
	}
	for _, r := range c.reqs[2:] {
		if r.Reverse {
			t.Fatalf("read upwards without a cursor: %+v", c.reqs)
		}
	}
	checkOrder(t, l, c)
}

// A read held back (a spent budget) shows its wait where rows are missing:
// on the first line before the first page, on the first placeholder after.
func TestWaitingTakesThePlaceOfMissingRows(t *testing.T) {
	t.Parallel()
	c := newConn(250)
	wait := "waiting 12s for the request budget"
	l := New(Options[row]{
		Columns: []Column[row]{{Title: "Name", Width: 10, Flex: true, Cell: func(r *row) string { return r.name }}},
		ID:      func(r *row) string { return r.id },
		Fetch:   c.fetch,
		Keys:    DefaultKeyMap(),
		Waiting: func() string { return wait },
	})
	l.SetSize(40, 6)
	cmd := l.Query(nil) // on the wire, not answered
	lines := strings.Split(ansi.Strip(l.View()), "\n")
	if len(lines) != 6 || strings.TrimSpace(lines[1]) != wait {
		t.Fatalf("before the first page the list shows:\n%s", l.View())
	}
	run(l, cmd)
	if strings.Contains(l.View(), wait) {
		t.Fatalf("the wait outlived the read:\n%s", l.View())
	}
	// Jump to rows not loaded yet: the read that fetches them waits.
	l.cursor, l.offset = 180, 178
	l.prepare()
	cmd = l.more()
	if cmd == nil || !l.Busy() {
		t.Fatal("no read for the missing rows")
	}
	view := ansi.Strip(l.View())
	if strings.Count(view, wait) != 1 || !strings.Contains(view, "…") {
		t.Fatalf("the wait is not on exactly one missing row:\n%s", view)
	}
	wait = ""
	if strings.Contains(ansi.Strip(l.View()), "waiting") {
		t.Fatal("an empty wait is drawn")
	}
}

// Reformat draws the window's cells again: cells that depend on the clock
// are current without a read.
func TestReformatRedrawsCells(t *testing.T) {
	t.Parallel()
	c := newConn(5)
	tick := 0
	l := New(Options[row]{
		Columns: []Column[row]{{Title: "Age", Width: 10, Cell: func(*row) string { return fmt.Sprintf("%ds", tick) }}},
		ID:      func(r *row) string { return r.id },
		Fetch:   c.fetch,
		Keys:    DefaultKeyMap(),
	})
	l.SetSize(20, 4)
	run(l, l.Query(nil))
	tick = 7
	if strings.Contains(l.View(), "7s") {
		t.Fatal("the cells were formatted again without Reformat")
	}
	l.Reformat()
	if !strings.Contains(l.View(), "7s") || c.count() != 1 {
		t.Fatalf("Reformat did not redraw, or read (%d requests):\n%s", c.count(), l.View())
	}
}

// All is every row only once every row is loaded, in order.
func TestAllOnlyWhenEveryRowIsLoaded(t *testing.T) {
	t.Parallel()
	c := newConn(250)
	l := newList(c, true)
	if _, ok := l.All(); ok {
		t.Fatal("All before any read")
	}
	run(l, l.Query(nil))
	press(l, "G")
	if _, ok := l.All(); ok {
		t.Fatalf("All with %d of %d rows loaded", l.Loaded(), l.Len())
	}
	for l.Cursor() > 0 {
		press(l, "pgup")
	}
	rows, ok := l.All()
	if !ok || len(rows) != 250 || rows[0].id != "r0" || rows[249].id != "r249" {
		t.Fatalf("All: %d rows, %v", len(rows), ok)
	}
	empty := newList(newConn(0), true)
	run(empty, empty.Query(nil))
	if rows, ok := empty.All(); !ok || len(rows) != 0 {
		t.Fatalf("an empty list: %v, %v", rows, ok)
	}
}

// A column's Narrow text is drawn while another column was dropped for
// the width, and its Cell otherwise.
func TestNarrowCellWhileAColumnIsDropped(t *testing.T) {
	t.Parallel()
	l := New(Options[row]{
		Columns: []Column[row]{
			{Title: "Name", Width: 10, Flex: true, Cell: func(r *row) string { return r.name },
				Narrow: func(r *row) string { return r.name + " · " + r.id }},
			{Title: "ID", Width: 20, Drop: 1, Cell: func(r *row) string { return r.id }},
		},
		ID: func(r *row) string { return r.id }, Fetch: newConn(3).fetch, Keys: DefaultKeyMap(),
	})
	run(l, l.Query(nil))
	l.SetSize(60, 5)
	if v := ansi.Strip(l.View()); strings.Contains(v, "Row 1 · r1") || !strings.Contains(v, "r1") {
		t.Fatalf("wide: %s", v)
	}
	l.SetSize(25, 5)
	if v := ansi.Strip(l.View()); !strings.Contains(v, "Row 1 · r1") {
		t.Fatalf("narrow: %s", v)
	}
}
