package ui

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/ui/balancechart"
)

// The Overview's balance chart: the account's booked balance over the
// last 30, 90 or 365 days (p cycles), rebuilt from the booked balance the
// account's request brought and the bookings of the period. Its reads
// (api.ReadBooked: the pages of the period's bookings and one request for
// the opening, nothing more) begin in the account's one request, which
// carries the first page and the opening's probe for the period the chart
// opens on (api.BookedParts): the chart then reads only the pages after
// that one (api.ReadBookedFrom), none when the period's bookings fit a
// page. Any other read (another period, a refresh, a simulation) is
// ReadBooked's own, once the account has answered. Its pages are drawn as
// they come, marked partial. A chart read to the end is kept with the
// account (the environment's charts): coming back shows it at once, with
// its age, while it is read again with the account; a simulation on the
// account forgets it.

// chartMin is the height from which the chart draws its plot (three rows,
// its axis and dates) with in and out and the money apart: the Overview
// gives up its least needed fields before the chart goes below it.
const chartMin = 12

// overviewShed are the Overview's fields it gives up, in this order, for
// the chart's room on a short terminal (80×24): the first change least,
// the chart's last line says what is pending and reserved, its title the
// currency.
var overviewShed = [][]string{{"Created", "Updated"}, {"Verified", "Holder is"}, {"Address", "Company"}, {"Pending", "Reserved"},
	{"Payment", "Currency"}, {"You", "Your rights"}}

// chartKey is one account's chart of one period.
type chartKey struct {
	account string
	days    int
}

// keptChart is a chart read to the end: its history and its pages.
type keptChart struct {
	hist  ledger.History
	pages int
}

// chartsKept are an environment's charts kept with its accounts, and the
// period last chosen, which the next account's chart opens on.
type chartsKept struct {
	keptCache[chartKey, keptChart]
	// days is the period last chosen; 0 before any.
	days int
}

// chartsKeptSize bounds the charts kept: each kept account's three
// periods.
const chartsKeptSize = viewCacheSize * 3

// forget drops an account's charts: something the app did changed them.
func (k *chartsKept) forget(accountID string) {
	for _, d := range balancechart.Periods {
		k.drop(chartKey{accountID, d})
	}
}

// chartFrom is what the account's one request brought of its chart: the
// first reads of the period's bookings, and the kept charts' generation
// as it was sent.
type chartFrom struct {
	period ledger.Period
	start  *api.BookedStart
	since  uint64
}

// chartPageMsg is a page of a chart's read: the history so far.
type chartPageMsg struct {
	envTag
	id    int
	hist  ledger.History
	pages int
}

// chartMsg ends a chart's read: the history complete and checked, or the
// error that ended it.
type chartMsg struct {
	envTag
	id    int
	hist  ledger.History
	pages int
	err   error
}

func (m chartMsg) msgErr() error { return m.err }

// latestFeed hands a read's newest news to the event loop, page after
// page: the read never waits for the screen, a screen that stopped
// listening holds nothing up, and news a newer one superseded before the
// screen took it is dropped. The read's own command brings its end.
type latestFeed[M any] struct {
	mu     sync.Mutex
	latest M
	ready  chan struct{}
}

func newFeed[M any]() *latestFeed[M] { return &latestFeed[M]{ready: make(chan struct{}, 1)} }

func (f *latestFeed[M]) put(m M) {
	f.mu.Lock()
	f.latest = m
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// next waits for the read's next page; nil once ctx ends (the read ended
// or was given up).
func (f *latestFeed[M]) next(ctx context.Context) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-f.ready:
		case <-ctx.Done():
			return nil
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.latest
	}
}

// overviewChart is the chart of one account's Overview.
type overviewChart struct {
	c     *common
	env   *envState
	model balancechart.Model
	// w, h are the size the model was last given.
	w, h int
	// id is the read in flight, 0 when none; stop ends it; feed brings
	// its pages.
	id   int
	stop context.CancelFunc
	feed *latestFeed[chartPageMsg]
	ctx  context.Context
	err  error
	// since is the kept charts' generation as the read in flight began:
	// its answer is kept only if nothing was forgotten meanwhile.
	since uint64
	// hidden is why there is no chart to draw (the platform shows this
	// token no booked balance, or no bookings); "" when there is one.
	hidden string
	// readAt is when the complete history shown was read; stale: it is
	// the one kept from before (an earlier visit, a simulation since),
	// shown until the read in flight replaces it.
	readAt time.Time
	stale  bool
}

func newOverviewChart(c *common, env *envState) *overviewChart {
	ch := &overviewChart{c: c, env: env, model: balancechart.New(chartStyles(c.styles))}
	if days := env.charts.days; days != 0 {
		ch.model = ch.model.SetDays(days)
	}
	return ch
}

// chartStyles are the UI's styles for the chart; without colour its
// characters still tell everything (NO_COLOR).
func chartStyles(st styles) balancechart.Styles {
	return balancechart.Styles{Title: st.title, Dim: st.dim, Line: st.accent, In: st.ok, Out: st.warn, OK: st.ok, Warn: st.warn}
}

// showKept shows the account's kept chart of the period, if there is one:
// with the account's kept view (accountScreen), and on a new period.
func (ch *overviewChart) showKept(accountID string) {
	k, read, ok := ch.env.charts.get(chartKey{accountID, ch.model.Days()})
	if !ok {
		return
	}
	ch.model = ch.model.SetHistory(k.hist, k.pages)
	ch.readAt, ch.stale = read, true
}

func (ch *overviewChart) busy() bool { return ch.id != 0 }

// need is the height the chart asks of the Overview: chartMin once it
// has a history to draw, its two lines of waiting before, four to say an
// account has no booking yet.
func (ch *overviewChart) need() int {
	switch h := ch.model.History(); {
	case h == nil:
		return 2
	case h.Complete && h.Empty():
		return 4
	}
	return chartMin
}

// none: there is nothing to show yet, not even a wait: the chart's read
// waits for the account's.
func (ch *overviewChart) none() bool {
	return ch.model.History() == nil && ch.id == 0 && ch.err == nil && ch.hidden == ""
}

// complete reports whether the model shows a history read to the end.
func (ch *overviewChart) complete() bool {
	h := ch.model.History()
	return h != nil && h.Complete
}

// restyle follows the terminal's colours.
func (ch *overviewChart) restyle() { ch.model = ch.model.SetStyles(chartStyles(ch.c.styles)) }

// giveUp stops the read in flight, if any.
func (ch *overviewChart) giveUp() {
	if ch.stop != nil {
		ch.stop()
		ch.id, ch.stop = 0, nil
	}
}

// hide says there is no chart, and why.
func (ch *overviewChart) hide(why string) {
	ch.giveUp()
	ch.hidden = why
}

// read reads the chart of account a, whose booked balance is the one
// its request just brought, giving up the read in flight; from what that
// request brought of the chart when it is of the period shown (from, nil
// when it brought nothing).
func (ch *overviewChart) read(parent context.Context, a *api.Account, from *chartFrom) tea.Cmd {
	ch.giveUp()
	bal, err := api.LedgerBalances(a)
	if err != nil {
		ch.hidden = "the platform shows you no booked balance for this account"
		return nil
	}
	ch.hidden = ""
	if ch.complete() {
		// Shown until the new read has every page.
		ch.stale = true
	}
	ctx, stop := context.WithCancel(parent)
	ch.id, ch.stop, ch.ctx, ch.feed, ch.err = ch.c.nextID(), stop, ctx, newFeed[chartPageMsg](), nil
	period, start := ledger.LastDays(ch.c.now(), ch.model.Days()), (*api.BookedStart)(nil)
	ch.since = ch.env.charts.generation()
	if from != nil && from.period.Days() == ch.model.Days() {
		// The bookings were read as the account's request was sent,
		// and are of the period as it was then.
		period, start, ch.since = from.period, from.start, from.since
	}
	id, feed, lister, env, accountID := ch.id, ch.feed, ch.env.API, ch.env.Name, a.ID
	fold := ledger.NewFold(period, bal)
	pages := 0
	read := ch.c.task(func() tea.Msg {
		progress := func(p, _ int) {
			// On the walk's goroutine, after the page was added: the
			// fold is never touched anywhere else.
			pages = p
			feed.put(chartPageMsg{envTag: envTag{env}, id: id, hist: fold.History(), pages: p})
		}
		var err error
		if start != nil {
			err = api.ReadBookedFrom(ctx, lister, start, fold, progress)
		} else {
			err = api.ReadBooked(ctx, lister, accountID, fold, progress)
		}
		if err != nil {
			return chartMsg{envTag: envTag{env}, id: id, err: err}
		}
		fold.Done()
		return chartMsg{envTag: envTag{env}, id: id, hist: fold.History(), pages: pages}
	})
	return tea.Batch(read, feed.next(ctx))
}

// apply takes a read's news; it reports whether msg was the chart's.
func (ch *overviewChart) apply(msg tea.Msg, accountID string) (tea.Cmd, bool) {
	switch m := msg.(type) {
	case chartPageMsg:
		if m.id != ch.id || ch.id == 0 {
			return nil, true
		}
		if !ch.complete() {
			ch.model = ch.model.SetHistory(m.hist, m.pages)
		}
		return ch.feed.next(ch.ctx), true
	case chartMsg:
		if m.id != ch.id || ch.id == 0 {
			return nil, true
		}
		// Ends the wait for the next page too.
		ch.stop()
		ch.id, ch.stop = 0, nil
		if m.err != nil {
			keepErr(&ch.err, m.err)
			return nil, true
		}
		ch.model = ch.model.SetHistory(m.hist, m.pages)
		ch.readAt, ch.stale = ch.c.now(), false
		ch.env.charts.putSince(ch.since, chartKey{accountID, m.hist.Period.Days()}, keptChart{m.hist, m.pages}, ch.readAt)
		return nil, true
	}
	return nil, false
}

// cycle is the period key: the next period, with the account's kept
// chart of it at once if there is one; it reports whether the period
// changed (the host then reads it).
func (ch *overviewChart) cycle(msg tea.KeyPressMsg, accountID string) bool {
	var cmd tea.Cmd
	ch.model, cmd = ch.model.Update(msg)
	if cmd == nil {
		return false
	}
	// The component asks its host for the period with a message; the
	// Overview is that host, so it takes the answer here, on the loop.
	pm, ok := cmd().(balancechart.PeriodMsg)
	if !ok {
		return false
	}
	ch.giveUp()
	ch.env.charts.days = pm.Days
	ch.readAt, ch.stale, ch.err = time.Time{}, false, nil
	ch.showKept(accountID)
	return true
}

// keptAt is when the chart shown was read while it is one kept from
// before; zero when it is fresh (or partial, or none).
func (ch *overviewChart) keptAt() time.Time {
	if ch.stale && ch.complete() {
		return ch.readAt
	}
	return time.Time{}
}

// hiddenLine says why there is no chart.
func (ch *overviewChart) hiddenLine(w int) string {
	return wrap(ch.c.styles.dim.Render("No balance chart: "+ch.hidden+"."), w)
}

// lines are the chart in w×h cells, or what stands in for it.
func (ch *overviewChart) lines(w, h int, where where) []string {
	st := ch.c.styles
	if h <= 0 {
		return nil
	}
	if ch.hidden != "" {
		return []string{ch.hiddenLine(w)}
	}
	var out []string
	if ch.err != nil {
		out = append(out, wrap(st.err.Render("✗ Could not read the balance history. ")+explain(ch.err, where), w))
		if ch.model.History() == nil {
			return out
		}
	}
	rest := h - len(out)
	if rest <= 0 {
		return out[:h]
	}
	if w != ch.w || rest != ch.h {
		ch.w, ch.h = w, rest
		ch.model = ch.model.SetSize(w, rest)
	}
	return append(out, ch.model.View())
}
