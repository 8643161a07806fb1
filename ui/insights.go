package ui

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/ui/balancechart"
	"github.com/partnertui/partnertui/ui/stackchart"
)

// insightsMaxPages bounds what :insights reads: 5,000 transactions, 2.5% of
// the platform's 5-minute budget. A busier period is counted back from its
// newest transactions, and the screen says from which day.
const insightsMaxPages = 50

// insightsTop is how many of the most active accounts the screen keeps.
const insightsTop = 50

type insightsKeys struct {
	Up, Down, Open, Period, Refresh key.Binding
}

func newInsightsKeys() insightsKeys {
	nav := navKeys()
	return insightsKeys{Up: nav.Up, Down: nav.Down, Open: openKey("open account"),
		Period: balancechart.DefaultKeyMap().Period, Refresh: refreshKey()}
}

// insightsScreen is :insights, with a project token: the project's
// transactions over the last 30, 90 or 365 days (p cycles), how many a day
// by payment product and by status, and the accounts with the most, each
// opened with enter. It reads the period's transactions newest first, a
// page a hundred, drawing them as they come, and stops at
// insightsMaxPages.
type insightsScreen struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	keys   insightsKeys
	w, h   int

	days   int
	id     int // the read in flight, 0 when none
	stop   context.CancelFunc
	rctx   context.Context
	feed   *latestFeed[insightsPageMsg]
	data   *insights // nil until the first page
	err    error
	cursor int // in data.top
}

// insights are the period's counts as read so far.
type insights struct {
	period ledger.Period
	// byProduct and byStatus are the series, largest first, unstyled.
	byProduct, byStatus []stackchart.Series
	top                 []accountActivity // most transactions first
	read, pages         int
	complete            bool
	// from is the first day counted: the period's, or the day the read
	// stopped at when the period had more than insightsMaxPages pages.
	from time.Time
}

// accountActivity is one account's transactions in the period.
type accountActivity struct {
	id, name string
	count    int
}

type insightsPageMsg struct {
	envTag
	id   int
	data insights
}

type insightsMsg struct {
	envTag
	id   int
	data insights
	err  error
}

func (m insightsMsg) msgErr() error { return m.err }

func newInsightsScreen(c *common, env *envState) *insightsScreen {
	ctx, cancel := context.WithCancel(env.ctx)
	s := &insightsScreen{c: c, env: env, ctx: ctx, cancel: cancel, keys: newInsightsKeys(), days: balancechart.Periods[0]}
	if d := env.charts.days; d != 0 {
		s.days = d
	}
	s.syncKeys()
	return s
}

// openInsights is :insights: the project's, so only with a project token.
func (m *Model) openInsights() tea.Cmd {
	if !m.env.Project {
		return func() tea.Msg {
			return flashMsg{text: "Insights need a project token: start partnertui with --project", bad: true}
		}
	}
	m.popTo(1)
	return m.push(newInsightsScreen(m.c, m.env))
}

func (s *insightsScreen) init() tea.Cmd   { return s.read() }
func (s *insightsScreen) title() string   { return "Insights" }
func (s *insightsScreen) capturing() bool { return false }
func (s *insightsScreen) busy() bool      { return s.id != 0 }
func (s *insightsScreen) close()          { s.cancel() }
func (s *insightsScreen) setSize(w, h int) {
	s.w, s.h = w, h
}

func (s *insightsScreen) syncKeys() {
	has := s.data != nil && len(s.data.top) > 0
	s.keys.Up.SetEnabled(has)
	s.keys.Down.SetEnabled(has)
	s.keys.Open.SetEnabled(has)
}

func (s *insightsScreen) ShortHelp() []key.Binding {
	k := s.keys
	return []key.Binding{k.Open, k.Period, k.Refresh}
}

func (s *insightsScreen) FullHelp() [][]key.Binding {
	k := s.keys
	return [][]key.Binding{{k.Up, k.Down, k.Open, k.Period, k.Refresh}}
}

// read counts the last s.days days, giving up the read in flight.
func (s *insightsScreen) read() tea.Cmd {
	if s.stop != nil {
		s.stop()
	}
	ctx, stop := context.WithCancel(s.ctx)
	s.id, s.stop, s.rctx, s.feed, s.err = s.c.nextID(), stop, ctx, newFeed[insightsPageMsg](), nil
	id, feed, lister, env := s.id, s.feed, s.env.API, s.env.Name
	fold := newInsightsFold(ledger.LastDays(s.c.now(), s.days))
	read := s.c.task(func() tea.Msg {
		err := fold.walk(ctx, lister, func(data insights) {
			feed.put(insightsPageMsg{envTag{env}, id, data})
		})
		if err != nil {
			return insightsMsg{envTag: envTag{env}, id: id, err: err}
		}
		return insightsMsg{envTag: envTag{env}, id: id, data: fold.snapshot(true)}
	})
	return tea.Batch(read, feed.next(ctx))
}

func (s *insightsScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	switch m := msg.(type) {
	case insightsPageMsg:
		if m.id != s.id || s.id == 0 {
			return nil
		}
		s.take(m.data)
		return s.feed.next(s.rctx)
	case insightsMsg:
		if m.id != s.id || s.id == 0 {
			return nil
		}
		s.stop()
		s.id, s.stop = 0, nil
		if m.err != nil {
			keepErr(&s.err, m.err)
			return nil
		}
		s.take(m.data)
	}
	return nil
}

// take shows data, the cursor kept on its account where it can be.
func (s *insightsScreen) take(data insights) {
	at := ""
	if s.data != nil && s.cursor < len(s.data.top) {
		at = s.data.top[s.cursor].id
	}
	s.data = &data
	s.cursor = max(0, slices.IndexFunc(data.top, func(a accountActivity) bool { return a.id == at }))
}

func (s *insightsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	k := s.keys
	switch {
	case key.Matches(msg, k.Up):
		s.cursor = max(0, s.cursor-1)
		return nil, true
	case key.Matches(msg, k.Down):
		s.cursor = min(len(s.data.top)-1, s.cursor+1)
		return nil, true
	case key.Matches(msg, k.Open):
		a := s.data.top[s.cursor]
		return func() tea.Msg { return openMsg{envTag{s.env.Name}, resourceAccount, a.id} }, true
	case key.Matches(msg, k.Period):
		next := balancechart.Periods[0]
		for i, p := range balancechart.Periods {
			if p == s.days {
				next = balancechart.Periods[(i+1)%len(balancechart.Periods)]
			}
		}
		s.days, s.data, s.cursor = next, nil, 0
		s.env.charts.days = next
		return s.read(), true
	case key.Matches(msg, k.Refresh):
		return s.read(), true
	}
	return nil, false
}

func (s *insightsScreen) where() where { return where{retry: s.keys.Refresh, project: true} }

func (s *insightsScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	st := s.c.styles
	period := ledger.LastDays(s.c.now(), s.days)
	lines := []string{st.title.Render(trunc("Insights · the project's transactions · last "+strconv.Itoa(s.days)+" days · "+period.String(), s.w))}
	if s.err != nil {
		lines = append(lines, wrap(st.err.Render("✗ Could not read the project's transactions. ")+explain(s.err, s.where()), s.w))
	}
	d := s.data
	switch {
	case d == nil && s.err == nil:
		lines = append(lines, s.c.spinFrame+" Reading the project's transactions of the last "+strconv.Itoa(s.days)+" days…")
	case d == nil:
	case d.complete && d.read == 0:
		lines = append(lines, "No transaction in the period.")
	default:
		lines = append(lines, s.statusLine(d))
		lines = append(lines, s.body(d, s.h-len(lines))...)
	}
	return fit(strings.Join(lines, "\n"), s.w, s.h)
}

// statusLine says how far the read is, and what it left out.
func (s *insightsScreen) statusLine(d *insights) string {
	st := s.c.styles
	read := count(d.read, "transaction") + " in " + count(d.pages, "page")
	switch {
	case !d.complete:
		return st.warn.Render(trunc("partial: "+read+" so far, more coming", s.w))
	case d.from.After(d.period.First):
		return st.warn.Render(trunc("the newest "+count(d.read, "transaction")+" only, back to "+d.from.Format(time.DateOnly)+
			": the days before are not counted (insights read "+strconv.Itoa(insightsMaxPages)+" pages at most)", s.w))
	}
	return st.ok.Render(trunc("✓ every transaction of the period: "+read, s.w))
}

// body is the two charts and the accounts in h lines.
func (s *insightsScreen) body(d *insights, h int) []string {
	st := s.c.styles
	acc := min(len(d.top), max(3, (h-4)/4))
	chartH := max(0, (h-3-acc)/2)
	var out []string
	out = append(out, st.colHeader.Render("Transactions a day by payment product"))
	out = append(out, padLines(stackchart.Draw(d.from, s.styled(d.byProduct), s.w, chartH, st.dim), chartH)...)
	out = append(out, st.colHeader.Render("Transactions a day by status"))
	out = append(out, padLines(stackchart.Draw(d.from, s.styled(d.byStatus), s.w, chartH, st.dim), chartH)...)
	out = append(out, st.colHeader.Render(trunc("Most active accounts (transactions in the period)", s.w)))
	return append(out, s.accountLines(d, acc)...)
}

// padLines makes lines n long.
func padLines(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines[:n]
}

// styled colours the series by their place; their patterns tell them
// apart without colour.
func (s *insightsScreen) styled(series []stackchart.Series) []stackchart.Series {
	st := s.c.styles
	palette := []lipgloss.Style{st.accent, st.ok, st.warn, st.err, st.dim}
	out := slices.Clone(series)
	for i := range out {
		out[i].Style = palette[min(i, len(palette)-1)]
	}
	return out
}

// accountLines are the n accounts around the cursor, the cursor's marked.
func (s *insightsScreen) accountLines(d *insights, n int) []string {
	if n <= 0 {
		return nil
	}
	first := min(max(0, s.cursor-n/2), max(0, len(d.top)-n))
	cw := len(strconv.Itoa(d.top[0].count))
	var out []string
	for i := first; i < min(first+n, len(d.top)); i++ {
		a := d.top[i]
		name := a.name
		if name == "" {
			name = a.id
		}
		num := strconv.Itoa(a.count)
		nw := max(1, min(s.w-cw-2, 48))
		line := ansi.Truncate(name, nw, "…")
		line += strings.Repeat(" ", max(0, nw-ansi.StringWidth(line))) + "  " + strings.Repeat(" ", cw-len(num)) + num
		if i == s.cursor {
			line = s.c.styles.selected.Render(line)
		}
		out = append(out, line)
	}
	return out
}

// count is n nouns: "1 page", "3 pages".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + plural(noun)
}

// insightsFold counts transactions into the period's days, by product and
// by status, and by account. Only the read's goroutine touches it.
type insightsFold struct {
	period              ledger.Period
	byProduct, byStatus map[string][]int
	accounts            map[string]*accountActivity
	read, pages         int
	// oldest is the first day any transaction read is of; cut: the read
	// stopped at insightsMaxPages with more to read.
	oldest int
	cut    bool
}

func newInsightsFold(p ledger.Period) *insightsFold {
	return &insightsFold{period: p, byProduct: map[string][]int{}, byStatus: map[string][]int{}, accounts: map[string]*accountActivity{}, oldest: p.Days()}
}

// errEnough stops the read at insightsMaxPages.
var errEnough = errors.New("insights read as many pages as they may")

// walk reads the period's transactions, newest first, into the fold,
// telling each page's news; it stops at insightsMaxPages.
func (f *insightsFold) walk(ctx context.Context, lister api.TransactionLister, each func(insights)) error {
	p := api.TransactionsParams{IsAfterExecutionDate: f.period.Start(), IsBeforeExecutionDate: f.period.End(),
		OrderBy: api.TxOrderExecutionDate, Direction: api.DirectionDesc}
	err := api.Walk(ctx, api.Pages(lister.TransactionList, p), func(page *api.Page[api.TransactionDetail]) error {
		f.add(page.Items)
		if f.pages++; f.pages >= insightsMaxPages && page.PageInfo.HasNextPage {
			f.cut = true
			return errEnough
		}
		each(f.snapshot(false))
		return nil
	})
	if errors.Is(err, errEnough) {
		return nil
	}
	return err
}

func (f *insightsFold) add(txs []api.TransactionDetail) {
	n := f.period.Days()
	for i := range txs {
		t := &txs[i]
		at := ledger.Day(t.ExecutionDate)
		if at.Before(f.period.First) || !at.Before(f.period.End()) {
			continue
		}
		d := int(at.Sub(f.period.First) / (24 * time.Hour))
		f.read++
		f.oldest = min(f.oldest, d)
		bump(f.byProduct, ledger.ProductLabel(t.PaymentProduct), d, n)
		bump(f.byStatus, t.StatusInfo.Status, d, n)
		if t.Account != nil {
			a := f.accounts[t.Account.ID]
			if a == nil {
				a = &accountActivity{id: t.Account.ID, name: t.Account.Name}
				f.accounts[t.Account.ID] = a
			}
			a.count++
		}
	}
}

func bump(m map[string][]int, k string, d, days int) {
	c := m[k]
	if c == nil {
		c = make([]int, days)
		m[k] = c
	}
	c[d]++
}

// snapshot is the counts so far, the days from the first counted on
// (every day once the read ended without stopping short).
func (f *insightsFold) snapshot(complete bool) insights {
	from := 0
	if f.cut {
		// Stopped short: the days before the oldest read are not known.
		from = min(f.oldest, f.period.Days()-1)
	}
	series := func(m map[string][]int) []stackchart.Series {
		out := make([]stackchart.Series, 0, len(m))
		for name, c := range m {
			out = append(out, stackchart.Series{Name: name, Counts: slices.Clone(c[from:])})
		}
		slices.SortFunc(out, func(a, b stackchart.Series) int {
			return cmp.Or(cmp.Compare(b.Total(), a.Total()), cmp.Compare(a.Name, b.Name))
		})
		return stackchart.Fold(out, "Other", lipgloss.Style{})
	}
	top := make([]accountActivity, 0, len(f.accounts))
	for _, a := range f.accounts {
		top = append(top, *a)
	}
	slices.SortFunc(top, func(a, b accountActivity) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(a.name, b.name), cmp.Compare(a.id, b.id))
	})
	if len(top) > insightsTop {
		top = top[:insightsTop]
	}
	return insights{period: f.period, byProduct: series(f.byProduct), byStatus: series(f.byStatus), top: top,
		read: f.read, pages: f.pages, complete: complete, from: f.period.First.AddDate(0, 0, from)}
}
