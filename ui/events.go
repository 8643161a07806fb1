package ui

import (
	"context"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// TextEvents is the Events view's title, for the end-to-end test.
const TextEvents = "Events"

// The live tail reads the log's first page every eventsPollInterval while
// the cursor is on it: 30 requests a minute, 150 of the platform's 2,000
// per 5 minutes (7.5%), which keeps the view under eventsBudgetShare with
// room for the reads the user asks for (paging, replays). A page of 50
// covers the tallest usual terminal with a tenth of the bytes of the
// page maximum.
const (
	eventsPollInterval = 2 * time.Second
	eventsBudgetShare  = 0.10
	eventsPageSize     = 50
)

// eventsListMsg carries the Events list's answers. It has no msgErr on
// purpose: the log is read with the project token, whose refusal is a
// configuration matter shown on this screen, never a reason to send the
// user back to sign in.
type eventsListMsg struct {
	envTag
	inner tea.Msg
}

// eventsPollMsg is the live tail's timer.
type eventsPollMsg struct {
	envTag
	seq int
}

// eventColumns: the type and the status code matter most; the
// subscription goes first on a narrow terminal.
func eventColumns(now func() time.Time) []pagedlist.Column[api.WebhookEventLog] {
	return []pagedlist.Column[api.WebhookEventLog]{
		{Title: "Age", Width: 5, Drop: 1, Cell: func(l *api.WebhookEventLog) string { return age(now().Sub(l.EventDate)) }},
		{Title: "Type", Width: 22, Flex: true, Drop: 0, Cell: func(l *api.WebhookEventLog) string { return l.EventType }},
		{Title: "Resource", Width: 18, Flex: true, Drop: 2, Cell: func(l *api.WebhookEventLog) string { return l.ResourceID }},
		{Title: "Status", Width: 7, Right: true, Drop: 0, Cell: deliveryCell},
		{Title: "Retries", Width: 7, Right: true, Drop: 3, Cell: func(l *api.WebhookEventLog) string { return retriesText(l.RetryCount) }},
		{Title: "Subscription", Width: 14, Flex: true, Drop: 4, Cell: func(l *api.WebhookEventLog) string {
			if l.WebhookSubscription == nil {
				return "—"
			}
			return l.WebhookSubscription.Label
		}},
	}
}

// deliveryCell is the endpoint's status code, marked ✗ when the delivery
// failed; "none" when no HTTP answer came.
func deliveryCell(l *api.WebhookEventLog) string {
	code := "none"
	if l.StatusCode != nil {
		code = strconv.Itoa(*l.StatusCode)
	}
	if l.StatusText == "Failure" || (l.StatusText == "" && l.StatusCode == nil) {
		return "✗ " + code
	}
	return code
}

// retriesText is the attempt's retry count; a manual replay has none.
func retriesText(n *int) string {
	if n == nil {
		return "replay"
	}
	return strconv.Itoa(*n)
}

// age is how long ago, in one unit: "12s", "4m", "5h", "3d".
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return shortDuration(d)
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}

type eventsKeys struct {
	nav                                         pagedlist.KeyMap
	Open, Type, Status, Resource, Clear, Replay key.Binding
	Refresh                                     key.Binding
	// While a filter field has focus.
	Apply, Cancel key.Binding
	// While a replay waits for its confirmation.
	Confirm key.Binding
}

func newEventsKeys() eventsKeys {
	return eventsKeys{
		nav:      navKeys(),
		Open:     openKey("open event"),
		Type:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "filter type")),
		Status:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "filter status")),
		Resource: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter resource")),
		Clear:    escKey("clear filters"),
		Replay:   replayKey(),
		Refresh:  refreshKey(),
		Apply:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Cancel:   escKey("cancel"),
		Confirm:  confirmReplayKey(),
	}
}

const (
	fieldNone eventField = iota
	fieldType
	fieldResource
)

// eventsScreen is the webhook event log, newest first, as a live tail: it
// reads the first page again every eventsPollInterval while the cursor is
// near the top and no read is on the wire, so a read held back by the
// budget or a 429 pauses the tail (and says so) instead of piling up.
type eventsScreen struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	keys   eventsKeys
	list   *pagedlist.Model[api.WebhookEventLog]
	w, h   int

	query eventsQuery

	// polling: the read on the wire is the tail's, not one the user asked
	// for (no spinner for it).
	polling bool
	pollSeq int
	// covered: another screen (an event, its resource) is on top; the
	// tail reads nothing nobody sees.
	covered bool
	// err is the last finished read's error; kept while the next read is
	// on the wire so a failing tail does not blink.
	err  error
	errs errLines

	editing eventField
	input   textinput.Model
	typesID int // the event types request, 0 when none was sent

	confirming *api.WebhookEventLog // the event whose replay waits for y
	replayID   int
	replayBusy bool
}

// isEventsScreen tells the root not to offer the Events key on the log
// itself or on one of its events.
func isEventsScreen(s screen) bool {
	switch s.(type) {
	case *eventsScreen, *eventScreen:
		return true
	}
	return false
}

// eventScope is the resource the Events view filters on when opened from
// the account detail.
func (d *overviewScreen) eventScope() (id, name string) { return d.acct.ID, d.acct.Name }

// openEvents pushes the Events view, filtered to the account on screen
// when there is one.
func (m *Model) openEvents() tea.Cmd {
	if m.env.ProjectAPI == nil {
		return nil
	}
	var q eventsQuery
	if sc, ok := m.top().(interface{ eventScope() (string, string) }); ok {
		q.resource, q.scope = sc.eventScope()
		if q.scope == "" {
			q.scope = q.resource
		}
	}
	return push(m.env.Name, newEventsScreen(m.c, m.env, q))
}

func newEventsScreen(c *common, env *envState, q eventsQuery) *eventsScreen {
	ctx, cancel := context.WithCancel(env.ctx)
	s := &eventsScreen{c: c, env: env, ctx: ctx, cancel: cancel, keys: newEventsKeys(), query: q}
	s.input = newTextInput("", "", 200)
	s.input.SetStyles(c.inputStyles())
	name := env.Name
	s.list = pagedlist.New(pagedlist.Options[api.WebhookEventLog]{
		Columns:  eventColumns(c.now),
		ID:       func(l *api.WebhookEventLog) string { return l.ID },
		Fetch:    q.fetch(env.ProjectAPI),
		PageSize: eventsPageSize,
		Keys:     s.keys.nav,
		Styles:   c.styles.list(),
		Context:  ctx,
		Run: func(f func() tea.Msg) tea.Cmd {
			return c.task(func() tea.Msg { return eventsListMsg{envTag{name}, f()} })
		},
		Now:     c.now,
		Waiting: c.listWaiting(env, true),
	})
	s.syncKeys()
	return s
}

func (s *eventsScreen) init() tea.Cmd { return tea.Batch(s.list.Query(nil), s.schedulePoll()) }

func (s *eventsScreen) title() string {
	if s.query.scope != "" && s.query.resource != "" {
		return TextEvents + " (" + s.query.scope + ")"
	}
	return TextEvents
}

func (s *eventsScreen) setCovered(c bool) { s.covered = c }
func (s *eventsScreen) capturing() bool   { return s.editing != fieldNone || s.confirming != nil }
func (s *eventsScreen) busy() bool {
	return (s.list.Busy() && !s.polling) || s.replayBusy || s.typesID != 0
}
func (s *eventsScreen) close() { s.cancel(); s.list.Close() }

func (s *eventsScreen) setSize(w, h int) {
	s.w, s.h = w, h
	s.input.SetWidth(max(w-ansi.StringWidth(s.prompt())-1, 8))
	s.layout()
}

// layout gives the list what the status line and the error leave.
func (s *eventsScreen) layout() {
	lines := s.errs.set(s.c, s.err, s.where(), s.w, s.h)
	s.list.SetSize(s.w, max(s.h-1-len(lines), 0))
}

func (s *eventsScreen) where() where { return where{retry: s.keys.Refresh, project: true} }

func (s *eventsScreen) ShortHelp() []key.Binding {
	k := s.keys
	switch {
	case s.confirming != nil:
		return []key.Binding{k.Confirm}
	case s.editing != fieldNone:
		return []key.Binding{k.Apply, k.Cancel}
	}
	return []key.Binding{k.Open, k.Type, k.Status, k.Resource, k.Clear, k.Replay, k.Refresh}
}

func (s *eventsScreen) FullHelp() [][]key.Binding {
	if s.confirming != nil || s.editing != fieldNone {
		return [][]key.Binding{s.ShortHelp()}
	}
	return [][]key.Binding{s.list.Bindings(), s.ShortHelp()}
}

func (s *eventsScreen) syncKeys() {
	s.layout()
	_, selected := s.list.Selected()
	free := s.editing == fieldNone && s.confirming == nil
	k := &s.keys
	k.Open.SetEnabled(free && selected)
	k.Type.SetEnabled(free)
	k.Status.SetEnabled(free)
	k.Resource.SetEnabled(free)
	k.Refresh.SetEnabled(free)
	k.Clear.SetEnabled(free && s.query.filtered())
	k.Replay.SetEnabled(free && selected && canReplay(s.env) && !s.replayBusy)
	k.Apply.SetEnabled(s.editing != fieldNone)
	k.Cancel.SetEnabled(s.editing != fieldNone)
	k.Confirm.SetEnabled(s.confirming != nil)
	switch s.query.status {
	case "":
		k.Status.SetHelp("s", "status: any")
	default:
		k.Status.SetHelp("s", "status: "+strings.ToLower(s.query.status))
	}
}

// tailing: the cursor is on the newest rows, where a poll's one read (the
// first page) is all the window needs; further down the tail pauses, so
// the poll never costs a second read for the rows around the cursor.
func (s *eventsScreen) tailing() bool {
	return s.list.Cursor()+s.list.Rows() < eventsPageSize
}

func (s *eventsScreen) schedulePoll() tea.Cmd {
	s.pollSeq++
	seq, env := s.pollSeq, s.env.Name
	return s.c.tick(eventsPollInterval, func(time.Time) tea.Msg { return eventsPollMsg{envTag{env}, seq} })
}

func (s *eventsScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		s.list.SetStyles(s.c.styles.list())
		s.input.SetStyles(s.c.inputStyles())
		s.errs.restyled()
	case eventsListMsg:
		cmd := s.list.Update(msg.inner)
		s.settled()
		return cmd
	case eventsPollMsg:
		if msg.seq != s.pollSeq {
			return nil
		}
		// The ages moved on even when nothing is read.
		s.list.Reformat()
		next := s.schedulePoll()
		// After a failed read the tail stops until r: polling a refused
		// project token would only ask the token endpoint again and again.
		if s.covered || !s.tailing() || s.list.Busy() || !s.list.Ready() || s.err != nil {
			return next
		}
		s.polling = true
		return tea.Batch(next, s.list.Refresh())
	case eventTypesMsg:
		if msg.id != s.typesID {
			return nil
		}
		s.typesID = 0
		s.input.SetSuggestions(msg.types)
	case replayMsg:
		if msg.err == nil && !s.list.Busy() {
			// The replay is a new entry of the log: read it now.
			s.polling = false
			cmd := s.list.Refresh()
			if msg.id == s.replayID {
				s.replayBusy = false
				return tea.Batch(cmd, replayFlash(msg, s.where()))
			}
			return cmd
		}
		if msg.id == s.replayID {
			s.replayBusy = false
			return replayFlash(msg, s.where())
		}
	case tea.PasteMsg:
		if s.editing != fieldNone {
			_, cmd := editInput(&s.input, msg)
			return cmd
		}
	}
	return nil
}

// settled records what a finished read left: its error (a cancelled read
// leaves none) and the end of a poll.
func (s *eventsScreen) settled() {
	if s.list.Busy() {
		return
	}
	s.polling = false
	err := s.list.Err()
	if err != nil && err != s.err {
		s.c.log.Warn("event log read failed", "env", string(s.env.Name), "error", err.Error())
	}
	s.err = err
}

func (s *eventsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if s.confirming != nil {
		return s.confirmKey(msg), true
	}
	if s.editing != fieldNone {
		return s.fieldKey(msg), true
	}
	if cmd, ok := s.list.HandleKey(msg); ok {
		return cmd, true
	}
	k := s.keys
	switch {
	case key.Matches(msg, k.Open):
		ev, ok := s.list.Selected()
		if !ok {
			return nil, true
		}
		return push(s.env.Name, newEventScreen(s.c, s.env, ev)), true
	case key.Matches(msg, k.Type):
		return s.edit(fieldType), true
	case key.Matches(msg, k.Resource):
		return s.edit(fieldResource), true
	case key.Matches(msg, k.Status):
		q := s.query
		q.status = nextStatus(q.status)
		return s.run(q), true
	case key.Matches(msg, k.Clear):
		return s.run(eventsQuery{}), true
	case key.Matches(msg, k.Replay):
		if ev, ok := s.list.Selected(); ok {
			s.confirming = &ev
		}
		return nil, true
	case key.Matches(msg, k.Refresh):
		s.polling = false
		return s.list.Refresh(), true
	}
	return nil, false
}

// confirmKey answers the replay question: y replays, any other key keeps
// the event as it is.
func (s *eventsScreen) confirmKey(msg tea.KeyPressMsg) tea.Cmd {
	ev := *s.confirming
	s.confirming = nil
	if !key.Matches(msg, s.keys.Confirm) {
		return func() tea.Msg { return flashMsg{text: "Nothing replayed"} }
	}
	s.replayID, s.replayBusy = s.c.nextID(), true
	return replayCmd(s.c, s.env, s.ctx, s.replayID, ev)
}

// run makes q the query and reads its first page; the rows on screen stay
// until it answers.
func (s *eventsScreen) run(q eventsQuery) tea.Cmd {
	s.query, s.polling = q, false
	return s.list.Query(q.fetch(s.env.ProjectAPI))
}

func (s *eventsScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	st := s.c.styles
	if !s.list.Ready() {
		text := s.c.loadingText(s.env.projectAPIStatus(), "the "+envTitle(s.env.Name)+" event log")
		if s.err != nil {
			text = lipgloss.NewStyle().Width(max(s.w, 1)).Render(st.err.Render("✗ Could not read the event log. ") + explain(s.err, s.where()))
		}
		return fit(text, s.w, s.h-1) + "\n" + s.statusLine()
	}
	return s.c.listView(s.list, TextEvents, s.emptyText, s.errs.lines, s.statusLine(), s.w, s.h)
}

func (s *eventsScreen) emptyText() string {
	q := s.query
	if q.scope != "" && q.resource != "" && q.eventType == "" && q.status == "" {
		// The log filters on the id an event names: the account's
		// transactions and cards name their own.
		return "No events name " + q.scope + " yet; the events of its transactions and cards name those instead. Press " +
			s.keys.Clear.Help().Key + " to see every event."
	}
	if q.filtered() {
		return "No events match these filters. Press " + s.keys.Clear.Help().Key + " to clear them."
	}
	return "No events logged in " + envTitle(s.env.Name) + " yet: the platform logs an event when it delivers it to a webhook subscription, so the log stays empty while the project has none."
}

// statusLine: the filter field or the replay question when open; else
// where the cursor is, the filters, and what the tail is doing.
func (s *eventsScreen) statusLine() string {
	st := s.c.styles
	switch {
	case s.confirming != nil:
		return trunc(st.warn.Render(replayQuestion(*s.confirming, s.keys.Confirm)), s.w)
	case s.editing != fieldNone:
		return trunc(s.input.View(), s.w)
	}
	var b strings.Builder
	if s.list.Len() > 0 {
		writePosition(&b, s.list)
	}
	add := func(p string) {
		if b.Len() > 0 {
			b.WriteString(" · ")
		}
		b.WriteString(p)
	}
	if q := s.query; q.eventType != "" {
		add("type " + q.eventType)
	}
	if q := s.query; q.status != "" {
		add(strings.ToLower(q.status) + "s")
	}
	switch q := s.query; {
	case q.resource != "" && q.scope != "":
		add("account " + q.scope)
	case q.resource != "":
		add("resource " + q.resource)
	}
	add(s.tailText())
	line := trunc(st.dimP.Render(b.String()), s.w)
	if s.replayBusy {
		line = trunc(s.c.spinFrame+" Replaying… "+b.String(), s.w)
	}
	return line
}

// tailText says what the live tail does: held by a wait, paused away from
// the newest rows, reading, or when it last read.
func (s *eventsScreen) tailText() string {
	now := s.c.now()
	switch {
	case s.list.Busy():
		if w := waitText(s.env.projectAPIStatus(), now); w != "" {
			return "tail paused, " + w
		}
		if s.polling {
			return "live"
		}
		return s.c.spinFrame + " loading"
	case s.err != nil:
		return "tail stopped by the error (" + s.keys.Refresh.Help().Key + " reads again)"
	case !s.list.Ready():
		return "live"
	case !s.tailing():
		return "tail paused on older events (" + s.keys.nav.Top.Help().Key + " for the newest)"
	case !s.list.Updated().IsZero():
		return "live · updated " + shortDuration(now.Sub(s.list.Updated())) + " ago"
	}
	return "live"
}
