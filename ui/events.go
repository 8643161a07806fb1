package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
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

// eventsPage is the Events view's page: eventsPageSize rows, fewer when
// the configuration's page_size is smaller.
func eventsPage(a API) int {
	return min(a.PageSize(), eventsPageSize)
}

// eventsPollMsg is the live tail's timer.
type eventsPollMsg struct {
	envTag
	seq int
}

// eventColumns: the type and the status code matter most; the
// subscription goes first on a narrow terminal. Age is the delivery
// attempt's (the entry's createdAt), which orders the log: a retry of an
// older event is as young as its attempt, and sits where it happened.
// The event's own date is on its screen.
func eventColumns(now func() time.Time) []pagedlist.Column[api.WebhookEventLog] {
	return []pagedlist.Column[api.WebhookEventLog]{
		{Title: "Age", Width: 5, Drop: 1, Cell: func(l *api.WebhookEventLog) string { return age(now().Sub(attemptedAt(l))) }},
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

// attemptedAt is when the log entry's delivery attempt was made: its
// createdAt, else (a server that left it out) the event's date.
func attemptedAt(l *api.WebhookEventLog) time.Time {
	if l.CreatedAt.IsZero() {
		return l.EventDate
	}
	return l.CreatedAt
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

// eventsKeys are the Events view's own keys; the list's (navigation,
// enter, r) are its listScreen's.
type eventsKeys struct {
	Type, Status, Resource, Clear, Replay key.Binding
	// While a filter field has focus.
	Apply, Cancel key.Binding
	// While a replay waits for its confirmation.
	Confirm key.Binding
}

func newEventsKeys() eventsKeys {
	return eventsKeys{
		Type:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "filter type")),
		Status:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "filter status")),
		Resource: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter resource")),
		Clear:    escKey("clear filters"),
		Replay:   replayKey(),
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
// budget or a 429 pauses the tail (and says so) instead of piling up. The
// list itself (paging, keys, errors, drawing) is a listScreen's, read with
// the project token; the log reads newest first only, so G goes to the
// oldest entry read so far, and each G reads the 50 before it.
type eventsScreen struct {
	*listScreen[api.WebhookEventLog]
	keys eventsKeys

	query eventsQuery

	// polling: the read on the wire is the tail's, not one the user asked
	// for (no spinner for it).
	polling bool
	pollSeq int
	// covered: another screen (an event, its resource) is on top; the
	// tail reads nothing nobody sees.
	covered bool

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
// an account's Overview.
func (d *overviewScreen) eventScope() (id, name string) { return d.acct.ID, d.acct.Name }

// openEvents pushes the Events view, filtered to the account on screen
// when there is one; a jump (the : palette) puts it in place of the trail
// above the account list rather than on top of it.
func (m *Model) openEvents(jump bool) tea.Cmd {
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
	if jump {
		m.popTo(1)
	}
	return push(m.env.Name, newEventsScreen(m.c, m.env, q))
}

func newEventsScreen(c *common, env *envState, q eventsQuery) *eventsScreen {
	s := &eventsScreen{keys: newEventsKeys(), query: q}
	s.listScreen = newListScreen(c, env, listSpec[api.WebhookEventLog]{
		title:   TextEvents,
		noun:    "the " + envTitle(env.Name) + " event log",
		failed:  "Could not read the event log.",
		columns: eventColumns(c.now),
		id:      func(l *api.WebhookEventLog) string { return l.ID },
		fetch:   q.fetch(env.ProjectAPI, eventsPage(env.API), &env.events, env.ctx, c.now),
		// The log reads newest first only, and no further than the user
		// looks: G goes to the oldest entry read and reads the page
		// before it, one request; walking the whole log to its end would
		// spend a request per page on rows nobody asked to see.
		pageSize: eventsPage(env.API),
		project:  true,
		keepErr:  true,
		empty:    s.emptyText,
		open: func(ev api.WebhookEventLog) tea.Cmd {
			return push(env.Name, newEventScreen(c, env, ev))
		},
		openDesc: "open event",
	})
	s.input = newTextInput("", "", 200)
	s.input.SetStyles(c.inputStyles())
	s.syncKeys()
	return s
}

// init reads the log's first page, or shows the one kept from the last
// visit of the same query (its age on the status line) and reads it again
// at once, as the tail's read: the rows stay until the fresh ones come.
func (s *eventsScreen) init() tea.Cmd {
	page, read, ok := s.env.events.get(s.query.cacheKey())
	if !ok || s.started {
		return tea.Batch(s.listScreen.init(), s.schedulePoll())
	}
	s.started = true
	page.Read = read
	cmd := s.list.Seed(nil, page)
	if cmd == nil {
		// The kept page covers the screen: read it again now. Otherwise
		// the rows below it are on the wire, and the next poll reads it.
		s.polling = true
		cmd = s.list.Refresh()
	}
	return tea.Batch(cmd, s.schedulePoll())
}

func (s *eventsScreen) title() string {
	if s.query.scope != "" && s.query.resource != "" {
		return TextEvents + " (" + s.query.scope + ")"
	}
	return TextEvents
}

// reopen is the view again with its filters, after a trip to the other
// environment.
func (s *eventsScreen) reopen(c *common, env *envState) screen {
	return newEventsScreen(c, env, s.query)
}

func (s *eventsScreen) setCovered(c bool) { s.covered = c }
func (s *eventsScreen) capturing() bool   { return s.editing != fieldNone || s.confirming != nil }
func (s *eventsScreen) busy() bool {
	return (s.list.Busy() && !s.polling) || s.replayBusy || s.typesID != 0
}

func (s *eventsScreen) setSize(w, h int) {
	s.input.SetWidth(max(w-ansi.StringWidth(s.prompt())-1, 8))
	s.listScreen.setSize(w, h)
}

func (s *eventsScreen) ShortHelp() []key.Binding {
	k := s.keys
	switch {
	case s.confirming != nil:
		return []key.Binding{k.Confirm}
	case s.editing != fieldNone:
		return []key.Binding{k.Apply, k.Cancel}
	}
	lk := s.listScreen.keys
	return []key.Binding{lk.Open, k.Type, k.Status, k.Resource, k.Clear, k.Replay, lk.Refresh}
}

func (s *eventsScreen) FullHelp() [][]key.Binding {
	if s.confirming != nil || s.editing != fieldNone {
		return [][]key.Binding{s.ShortHelp()}
	}
	return [][]key.Binding{s.list.Bindings(), s.ShortHelp()}
}

func (s *eventsScreen) syncKeys() {
	s.listScreen.syncKeys()
	_, selected := s.list.Selected()
	free := s.editing == fieldNone && s.confirming == nil
	lk := &s.listScreen.keys
	lk.Open.SetEnabled(free && selected)
	lk.Refresh.SetEnabled(free)
	k := &s.keys
	k.Type.SetEnabled(free)
	k.Status.SetEnabled(free)
	k.Resource.SetEnabled(free)
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
	return s.list.Cursor()+s.list.Rows() < s.spec.pageSize
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
		s.input.SetStyles(s.c.inputStyles())
		return s.listScreen.update(msg)
	case projectListMsg:
		cmd := s.listScreen.update(msg)
		if !s.list.Busy() {
			s.polling = false
		}
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
				return tea.Batch(cmd, replayFlash(s.c, msg, s.where()))
			}
			return cmd
		}
		if msg.id == s.replayID {
			s.replayBusy = false
			return replayFlash(s.c, msg, s.where())
		}
	case tea.PasteMsg:
		if s.editing != fieldNone {
			_, cmd := editInput(&s.input, msg)
			return cmd
		}
	}
	return nil
}

func (s *eventsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if s.confirming != nil {
		return s.confirmKey(msg), true
	}
	if s.editing != fieldNone {
		return s.fieldKey(msg), true
	}
	if key.Matches(msg, s.listScreen.keys.Refresh) {
		// The user's read, not the tail's: it shows its spinner.
		s.polling = false
	}
	if cmd, ok := s.listScreen.handleKey(msg); ok {
		return cmd, true
	}
	k := s.keys
	switch {
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
	return s.listScreen.query(q.fetch(s.env.ProjectAPI, s.spec.pageSize, &s.env.events, s.env.ctx, s.c.now))
}

// view is the listScreen's, with the tail's status line under the
// placeholder too: the tail's state matters before the first rows.
func (s *eventsScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	if !s.list.Ready() {
		return fit(s.placeholder(), s.w, s.h-1) + "\n" + s.statusLine()
	}
	return s.viewWith(s.statusLine())
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
	s.writeStatus(&b)
	s.writeFilters(&b)
	b.WriteString(" · ")
	b.WriteString(s.tailText())
	text := strings.TrimPrefix(b.String(), " · ")
	if s.replayBusy {
		return trunc(s.c.spinFrame+" Replaying… "+text, s.w)
	}
	return trunc(st.dimP.Render(text), s.w)
}

// writeFilters names the filters in force, each after " · ".
func (s *eventsScreen) writeFilters(b *strings.Builder) {
	q := s.query
	if q.eventType != "" {
		b.WriteString(" · type " + q.eventType)
	}
	if q.status != "" {
		b.WriteString(" · " + plural(strings.ToLower(q.status)))
	}
	switch {
	case q.resource != "" && q.scope != "":
		b.WriteString(" · account " + q.scope)
	case q.resource != "":
		b.WriteString(" · resource " + q.resource)
	}
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
			// The rows on screen stay until the read answers: say how
			// old they are (kept from the last visit, they may be old).
			return s.updatedText(now)
		}
		return s.c.spinFrame + " loading"
	case s.err != nil:
		return "tail stopped by the error (" + s.listScreen.keys.Refresh.Help().Key + " reads again)"
	case !s.list.Ready():
		return "live"
	case !s.tailing():
		newest := s.listScreen.keys.nav.Top.Help().Key + " for the newest"
		if s.list.Loaded() < s.list.Len() {
			// Older entries are there to read, one G a page.
			return "tail paused (" + newest + ", " + s.listScreen.keys.nav.Bottom.Help().Key + " for older)"
		}
		return "tail paused on older events (" + newest + ")"
	}
	return s.updatedText(now)
}

// updatedText is the tail's state when it is not held: when its rows were
// read, once they were.
func (s *eventsScreen) updatedText(now time.Time) string {
	if s.list.Updated().IsZero() {
		return "live"
	}
	return "live · updated " + shortDuration(now.Sub(s.list.Updated())) + " ago"
}
