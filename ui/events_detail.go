package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// prettyJSON indents JSON text; anything else comes back as it is, with
// tabs made spaces so that widths hold.
func prettyJSON(s string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(strings.TrimSpace(s)), "", "  "); err == nil {
		return b.String()
	}
	return strings.ReplaceAll(s, "\t", "    ")
}

type eventKeys struct {
	OpenResource, Copy, Replay key.Binding
	Confirm                    key.Binding
}

func newEventKeys(kind resourceKind) eventKeys {
	return eventKeys{
		OpenResource: openKey("open " + kind.noun()),
		Copy:         key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy payload")),
		Replay:       replayKey(),
		Confirm:      confirmReplayKey(),
	}
}

// eventScreen is one delivery of one event: its facts, the resource it
// names (enter opens it), the payload that was POSTed, pretty-printed, and
// what the endpoint answered. Everything came with the log's page: it
// costs no request.
type eventScreen struct {
	pager
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	keys   eventKeys

	ev   api.WebhookEventLog
	kind resourceKind

	confirming bool
	replayID   int
	replayBusy bool
}

func newEventScreen(c *common, env *envState, ev api.WebhookEventLog) *eventScreen {
	ctx, cancel := context.WithCancel(env.ctx)
	kind := c.resourceOf(ev.EventType)
	s := &eventScreen{env: env, ctx: ctx, cancel: cancel, ev: ev, kind: kind, keys: newEventKeys(kind)}
	s.pager = newPager(c, s.content)
	s.status = s.replayStatus
	s.syncKeys()
	return s
}

func (s *eventScreen) init() tea.Cmd   { return nil }
func (s *eventScreen) title() string   { return s.ev.EventType }
func (s *eventScreen) capturing() bool { return s.confirming }
func (s *eventScreen) busy() bool      { return s.replayBusy }
func (s *eventScreen) close()          { s.cancel() }

func (s *eventScreen) ShortHelp() []key.Binding {
	k := s.keys
	if s.confirming {
		return []key.Binding{k.Confirm}
	}
	return []key.Binding{k.OpenResource, k.Copy, k.Replay}
}

func (s *eventScreen) FullHelp() [][]key.Binding {
	if s.confirming {
		return [][]key.Binding{s.ShortHelp()}
	}
	return [][]key.Binding{s.navHelp(), s.ShortHelp()}
}

func (s *eventScreen) syncKeys() {
	k := &s.keys
	k.OpenResource.SetEnabled(!s.confirming && s.kind != "" && s.ev.ResourceID != "")
	k.Copy.SetEnabled(!s.confirming)
	k.Replay.SetEnabled(!s.confirming && canReplay(s.env) && !s.replayBusy)
	k.Confirm.SetEnabled(s.confirming)
}

func (s *eventScreen) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		return s.pager.update(msg)
	case replayMsg:
		if msg.id == s.replayID {
			s.replayBusy = false
			return replayFlash(s.c, msg, where{retry: s.keys.Replay, project: true})
		}
	}
	return nil
}

func (s *eventScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	k := s.keys
	if s.confirming {
		s.confirming = false
		if !key.Matches(msg, k.Confirm) {
			return func() tea.Msg { return flashMsg{text: "Nothing replayed"} }, true
		}
		s.replayID, s.replayBusy = s.c.nextID(), true
		return replayCmd(s.c, s.env, s.ctx, s.replayID, s.ev), true
	}
	switch {
	case key.Matches(msg, k.OpenResource):
		open := openMsg{envTag{s.env.Name}, s.kind, s.ev.ResourceID}
		return func() tea.Msg { return open }, true
	case key.Matches(msg, k.Copy):
		return copyCmd(s.c, s.ev.RequestPayload, "Payload copied"), true
	case key.Matches(msg, k.Replay):
		s.confirming = true
	default:
		return s.pager.handleKey(msg)
	}
	return nil, true
}

// content is everything the screen scrolls through.
func (s *eventScreen) content() string {
	st := s.c.styles
	ev := &s.ev
	label := func(t string) string { return st.dim.Render(fmt.Sprintf("%-13s", t)) }
	var b strings.Builder
	line := func(parts ...string) {
		b.WriteString(strings.Join(parts, ""))
		b.WriteByte('\n')
	}
	line(st.title.Render(ev.EventType))
	line(label("Event"), ev.EventID)
	line(label("Date"), eventTime(ev.EventDate))
	res := ev.ResourceID
	if s.kind != "" && res != "" {
		res = strings.ToUpper(s.kind.noun()[:1]) + s.kind.noun()[1:] + " " + res + st.dim.Render("  ("+s.keys.OpenResource.Help().Key+" opens it)")
	}
	line(label("Resource"), res)
	delivery := deliveryCell(ev)
	if ev.StatusText != "" {
		delivery += " " + ev.StatusText
	}
	attempt := "manual replay"
	if ev.RetryCount != nil {
		attempt = fmt.Sprintf("retry %d", *ev.RetryCount)
		if *ev.RetryCount == 0 {
			attempt = "first attempt"
		}
	}
	line(label("Delivery"), delivery+" · "+attempt+fmt.Sprintf(" · %d ms", ev.Duration))
	if sub := ev.WebhookSubscription; sub != nil {
		line(label("Subscription"), sub.Label+" → "+sub.Endpoint)
	}
	line(label("Logged"), eventTime(ev.CreatedAt))
	line()
	line(st.bold.Render("Payload"))
	line(prettyJSON(ev.RequestPayload))
	line()
	line(st.bold.Render("Response"))
	if ev.ResponsePayload == "" {
		line(st.dim.Render("(empty)"))
	} else {
		line(prettyJSON(ev.ResponsePayload))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// eventTime is a log time to the second, in UTC like the platform's.
func eventTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// replayStatus is the replay question or the replay in flight, for the
// status line; "" leaves it to the scroll position.
func (s *eventScreen) replayStatus() string {
	switch {
	case s.confirming:
		return s.c.styles.warn.Render(replayQuestion(s.ev, s.keys.Confirm))
	case s.replayBusy:
		return s.c.spinFrame + " Replaying " + s.ev.EventType + "…"
	}
	return ""
}
