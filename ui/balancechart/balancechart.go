// Package balancechart draws an account's booked balance over a period (a
// ledger.History) in the width and height it is given: the balance day by
// day with its date and amount axes, the money in and out, and what went
// out by payment product, each bar with its exact amount. Its pictures are
// made of characters, so they read the same without colour (NO_COLOR).
//
// It is a component for a screen to embed: size in (SetSize), data in
// (SetHistory), a string out (View). Update does no I/O: the period key
// only asks the host, with a PeriodMsg, to read the new period.
package balancechart

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/partnertui/partnertui/internal/ledger"
)

// Periods are the lengths, in days, the period key cycles through.
var Periods = []int{30, 90, 365}

// PeriodMsg asks the host for the history of the last Days days: the chart
// shows that period from now on, and waits for its pages.
type PeriodMsg struct{ Days int }

// KeyMap is the chart's one key.
type KeyMap struct {
	Period key.Binding
}

// DefaultKeyMap is the chart's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{Period: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "chart period"))}
}

// Styles colour the chart; every style may be plain.
type Styles struct {
	Title, Dim, Line, In, Out, OK, Warn lipgloss.Style
}

// PlainStyles draw with no colour: bold titles only.
func PlainStyles() Styles {
	return Styles{Title: lipgloss.NewStyle().Bold(true), Warn: lipgloss.NewStyle().Bold(true)}
}

// Model is the chart. Its zero value is not ready: use New.
type Model struct {
	keys   KeyMap
	styles Styles
	w, h   int
	days   int
	hist   *ledger.History // nil until the first page is in
	pages  int             // pages read so far
	view   string          // drawn when size or data change, not per frame
}

// New is a chart of the last 30 days, waiting for its data.
func New(styles Styles) Model {
	m := Model{keys: DefaultKeyMap(), styles: styles, days: Periods[0]}
	return m.redraw()
}

// Keys are the chart's bindings, for the host's help.
func (m Model) Keys() KeyMap { return m.keys }

// Days is the period the chart shows (or waits for), in days.
func (m Model) Days() int { return m.days }

// SetDays shows the last n days from now on, waiting for their data.
func (m Model) SetDays(n int) Model {
	if n != m.days {
		m.days, m.hist, m.pages = n, nil, 0
	}
	return m.redraw()
}

// SetStyles colours the chart anew (the terminal told its background).
func (m Model) SetStyles(st Styles) Model {
	m.styles = st
	return m.redraw()
}

// SetSize gives the chart its width and height in cells.
func (m Model) SetSize(w, h int) Model {
	m.w, m.h = w, h
	return m.redraw()
}

// SetHistory gives the chart its data: the history as folded so far
// (h.Complete false while pages are coming) after pages pages. A history
// of another period than the chart's is ignored (an answer that came too
// late).
func (m Model) SetHistory(h ledger.History, pages int) Model {
	if h.Period.Days() != m.days {
		return m
	}
	m.hist, m.pages = &h, pages
	return m.redraw()
}

// History is the data the chart shows; nil while it waits for it.
func (m Model) History() *ledger.History { return m.hist }

// Update handles the period key: the next period, asked of the host.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !key.Matches(k, m.keys.Period) {
		return m, nil
	}
	next := Periods[0]
	for i, p := range Periods {
		if p == m.days {
			next = Periods[(i+1)%len(Periods)]
		}
	}
	m = m.SetDays(next)
	return m, func() tea.Msg { return PeriodMsg{Days: next} }
}

// View is the chart as drawn for its size and data.
func (m Model) View() string { return m.view }

func (m Model) redraw() Model {
	if m.w <= 0 || m.h <= 0 {
		m.view = ""
		return m
	}
	m.view = Draw(m.hist, m.days, m.pages, m.w, m.h, m.styles)
	return m
}

// Draw renders h (nil: still waiting for the first page of the last days
// days) in w×h cells: the view of the component, and `balance-history
// --plot`'s picture.
func Draw(hist *ledger.History, days, pages, w, h int, st Styles) string {
	var lines []string
	if hist == nil {
		lines = append(lines, st.Title.Render(cut("Booked balance · last "+itoa(days)+" days", w)))
		lines = append(lines, st.Dim.Render(cut("Reading the booked transactions of the last "+itoa(days)+" days…", w)))
		return fit(lines, w, h)
	}
	cur := hist.Currency
	title := "Booked balance · last " + itoa(hist.Period.Days()) + " days · " + hist.Period.First.Format(time.DateOnly) +
		" to " + hist.Period.Last.Format(time.DateOnly) + " · " + cur
	lines = append(lines, st.Title.Render(cut(title, w)))
	lines = append(lines, status(hist, pages, w, st))
	if hist.Complete && hist.Empty() {
		lines = append(lines, cut("No booked transaction yet: the booked balance is "+ledger.Format(hist.Booked, cur)+" "+cur+".", w))
		lines = append(lines, apart(hist, w, st))
		return fit(lines, w, h)
	}
	bars := barLines(hist, w, st)
	// What is left after the title, the status, the axis and its dates,
	// the bars and the line of pending and reserved money.
	rows := h - len(lines) - 2 - len(bars) - 1
	if rows < 3 && len(hist.OutBy) > 1 {
		// Short screens first put the products two to a line.
		bars = append(bars[:2:2], pairedProducts(hist, w, st)...)
		rows = h - len(lines) - 2 - len(bars) - 1
	}
	for rows < 3 && len(bars) > 2 {
		// Short screens give up the products first, then keep in and out.
		bars = bars[:len(bars)-1]
		rows++
	}
	if rows >= 2 {
		lines = append(lines, plot(hist, rows, w, st)...)
	}
	lines = append(lines, bars...)
	lines = append(lines, apart(hist, w, st))
	return fit(lines, w, h)
}

// status says how far the data is: partial while pages come, then
// whether it adds up.
func status(hist *ledger.History, pages, w int, st Styles) string {
	cur := hist.Currency
	switch {
	case !hist.Complete:
		return st.Warn.Render(cut("partial: "+count(pages, "page")+" read so far ("+count(hist.Read, "booking")+"), more coming", w))
	case hist.Mismatch != nil:
		m := hist.Mismatch
		return st.Warn.Render(cut("✗ does not add up: "+ledger.FormatSigned(m.Gap(), cur)+" "+cur+" at "+m.Day.Format(time.DateOnly)+" (press r to read it again)", w))
	}
	if hist.Checked == 0 {
		return st.Dim.Render(cut(count(hist.Bookings, "booking")+"; the platform reports no balance to check them against", w))
	}
	return st.OK.Render(cut("✓ "+count(hist.Bookings, "booking")+"; adds up with "+count(hist.Checked, "balance")+" the platform reports", w))
}

// apart is the money not in the booked balance.
func apart(hist *ledger.History, w int, st Styles) string {
	cur := hist.Currency
	return st.Dim.Render(cut("Pending "+ledger.FormatSigned(hist.Pending, cur)+" · Reserved "+ledger.Format(hist.Reserved, cur)+" "+cur+
		" · not in the booked balance", w))
}

// Axis is the amount axis of a plot: the lowest and highest closing
// balance, and the height in eighths of a cell a balance is drawn at.
type Axis struct {
	Lo, Hi decimal.Decimal
	Levels int // rows × 8
}

// NewAxis is the axis of the days' closing balances over rows rows.
func NewAxis(days []ledger.DayBalance, rows int) Axis {
	a := Axis{Levels: rows * 8}
	for i, d := range days {
		if i == 0 || d.Close.LessThan(a.Lo) {
			a.Lo = d.Close
		}
		if i == 0 || d.Close.GreaterThan(a.Hi) {
			a.Hi = d.Close
		}
	}
	return a
}

// Eighths is the height v is drawn at, from 1 (the lowest balance: a
// sliver, so a column is never blank) to Levels (the highest), rounded to
// the nearest eighth by exact arithmetic; half way up when every balance
// is the same.
func (a Axis) Eighths(v decimal.Decimal) int {
	span := a.Hi.Sub(a.Lo)
	if span.IsZero() {
		return max(1, a.Levels/2)
	}
	return 1 + roundDiv(v.Sub(a.Lo).Mul(decimal.NewFromInt(int64(a.Levels-1))), span)
}

// Columns maps the plot's width to the days: column j shows day
// Columns(...)[j], the last day it covers. With more room than days each
// day takes the same number of columns; with less, a column covers
// several days and shows the balance at the end of the last.
func Columns(days, width int) []int {
	if days <= 0 || width <= 0 {
		return nil
	}
	if days <= width {
		per := width / days
		out := make([]int, 0, days*per)
		for d := range days {
			for range per {
				out = append(out, d)
			}
		}
		return out
	}
	out := make([]int, width)
	for j := range width {
		out[j] = ((j+1)*days - 1) / width
	}
	return out
}

var vblocks = []string{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// plot is the balance line as an area: rows rows of columns, the amount
// axis on the left (highest, middle and lowest balance, exact), the dates
// under it.
func plot(hist *ledger.History, rows, w int, st Styles) []string {
	cur := hist.Currency
	axis := NewAxis(hist.Days, rows)
	mid := axis.Lo.Add(axis.Hi).Mul(decimal.New(5, -1)) // exact: one decimal more at most
	labels := map[int]string{0: ledger.Format(axis.Hi, cur), rows - 1: ledger.Format(axis.Lo, cur)}
	switch {
	case axis.Hi.Equal(axis.Lo):
		// One balance throughout, drawn half way up: one label, there.
		labels = map[int]string{rows - 1 - (axis.Eighths(axis.Lo)-1)/8: ledger.Format(axis.Lo, cur)}
	case rows >= 5:
		labels[(rows-1)/2] = ledger.Format(mid, cur)
	}
	lw := 0
	for _, l := range labels {
		lw = max(lw, len(l))
	}
	pw := w - lw - 2
	if pw < 4 {
		return nil
	}
	cols := Columns(len(hist.Days), pw)
	heights := make([]int, len(cols))
	for j, d := range cols {
		heights[j] = axis.Eighths(hist.Days[d].Close)
	}
	out := make([]string, 0, rows+2)
	var b strings.Builder
	for r := range rows {
		b.Reset()
		label := labels[r]
		b.WriteString(strings.Repeat(" ", lw-len(label)))
		b.WriteString(label)
		if _, ok := labels[r]; ok {
			b.WriteString(" ┤")
		} else {
			b.WriteString(" │")
		}
		floor := (rows - 1 - r) * 8 // eighths below this row
		var cells strings.Builder
		for _, e := range heights {
			cells.WriteString(vblocks[min(8, max(0, e-floor))])
		}
		b.WriteString(st.Line.Render(cells.String()))
		out = append(out, b.String())
	}
	out = append(out, strings.Repeat(" ", lw+1)+"└"+strings.Repeat("─", len(cols)))
	out = append(out, dates(hist, cols, lw+2, pw))
	return out
}

// dates writes the first and last day under the plot, and the middle one
// when there is room for the three apart.
func dates(hist *ledger.History, cols []int, indent, width int) string {
	if len(cols) == 0 {
		return ""
	}
	day := func(j int) string { return hist.Days[cols[j]].Date.Format(time.DateOnly) }
	row := []byte(strings.Repeat(" ", min(width, len(cols))))
	first, last := day(0), day(len(cols)-1)
	n := len(first)
	switch {
	case len(row) >= 3*n+4:
		mid := len(cols) / 2
		copy(row[mid-n/2:], day(mid))
		fallthrough
	case len(row) >= 2*n+2:
		copy(row, first)
		copy(row[len(row)-n:], last)
	case len(row) >= n:
		copy(row, first)
	}
	return strings.Repeat(" ", indent) + strings.TrimRight(string(row), " ")
}

var hblocks = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// bar is one line of the bars: a label, the exact amount, and a bar.
type bar struct {
	label  string
	amount decimal.Decimal
	signed string
	style  lipgloss.Style
}

// productBars are what went out by payment product, largest first.
func productBars(hist *ledger.History, indent string, st Styles) []bar {
	var bars []bar
	for _, pt := range hist.OutBy {
		bars = append(bars, bar{indent + ledger.ProductLabel(pt.Product), pt.Amount, ledger.FormatSigned(pt.Amount.Neg(), hist.Currency), st.Out})
	}
	return bars
}

// barLines are in, out and out by payment product: a label, the exact
// amount, and a bar whose length is the amount over the largest of in and
// out.
func barLines(hist *ledger.History, w int, st Styles) []string {
	cur := hist.Currency
	bars := []bar{
		{"In", hist.In, ledger.FormatSigned(hist.In, cur), st.In},
		{"Out", hist.Out, ledger.FormatSigned(hist.Out.Neg(), cur), st.Out},
	}
	return renderBars(append(bars, productBars(hist, "  ", st)...), decimal.Max(hist.In, hist.Out), w)
}

// pairedProducts are the product bars two to a line, each in half the
// width, on the same scale as in and out.
func pairedProducts(hist *ledger.History, w int, st Styles) []string {
	half := w/2 - 2 // each after an indent of two
	one := renderBars(productBars(hist, "", st), decimal.Max(hist.In, hist.Out), half)
	out := make([]string, 0, (len(one)+1)/2)
	for i := 0; i < len(one); i += 2 {
		line := "  " + one[i]
		if i+1 < len(one) {
			line += strings.Repeat(" ", max(0, half-ansi.StringWidth(one[i]))) + "  " + one[i+1]
		}
		out = append(out, cut(line, w))
	}
	return out
}

// renderBars draws bars in w cells, labels and amounts aligned, each bar
// amount/scale of what is left.
func renderBars(bars []bar, scale decimal.Decimal, w int) []string {
	lw, aw := 0, 0
	for _, b := range bars {
		lw, aw = max(lw, len([]rune(b.label))), max(aw, len(b.signed))
	}
	bw := w - lw - aw - 3
	out := make([]string, 0, len(bars))
	for _, b := range bars {
		line := padRight(b.label, lw) + " " + strings.Repeat(" ", aw-len(b.signed)) + b.signed + " "
		if bw > 0 {
			line += b.style.Render(BarCells(b.amount, scale, bw))
		}
		out = append(out, cut(line, w))
	}
	return out
}

// BarCells is a bar of amount out of scale over width cells, in eighths of
// a cell rounded by exact arithmetic; a non-zero amount shows at least an
// eighth.
func BarCells(amount, scale decimal.Decimal, width int) string {
	if scale.Sign() <= 0 || amount.Sign() <= 0 {
		return ""
	}
	e := int(amount.Mul(decimal.NewFromInt(int64(width*8))).DivRound(scale, 8).Round(0).IntPart())
	e = max(1, min(e, width*8))
	return strings.Repeat("█", e/8) + hblocks[e%8]
}

// roundDiv is num/den (both non-negative, den positive) rounded half up,
// exactly: the quotient and remainder of a whole division, never a
// quotient cut to some precision first.
func roundDiv(num, den decimal.Decimal) int {
	q, r := num.QuoRem(den, 0)
	if r.Mul(decimal.NewFromInt(2)).GreaterThanOrEqual(den) {
		q = q.Add(decimal.NewFromInt(1))
	}
	return int(q.IntPart())
}

func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-len([]rune(s))))
}

func cut(s string, w int) string { return ansi.Truncate(s, w, "…") }

// fit makes the view exactly h lines (blank ones below), none wider than w.
func fit(lines []string, w, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

func itoa(n int) string { return strconv.Itoa(n) }

// count is n nouns: "1 page", "3 pages".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}
