package ui

import (
	"context"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// The Events view's query: its filters by type, status and resource, and
// the field that edits them.

// eventsQuery is what the Events view asks the log for; each change starts
// a new query of the list. Every filter is the server's.
type eventsQuery struct {
	eventType string // filters.eventType
	status    string // filters.statusText: "" or one of api.WebhookStatusTexts()
	resource  string // filters.resourceId
	// scope names the account resource came from when the view was opened
	// from one; "" when the user typed the resource.
	scope string
}

func (q eventsQuery) filtered() bool { return q.eventType != "" || q.status != "" || q.resource != "" }

func (q eventsQuery) params() api.WebhookEventLogsParams {
	return api.WebhookEventLogsParams{EventType: q.eventType, StatusText: q.status, ResourceID: q.resource}
}

// fetch reads the log's pages of size rows, newest first (the log has no
// other order); each first page read is kept in cache (when set) with
// when it was read, for the next visit of the same query. A first page is
// worth keeping even when the view that asked for it has gone: leaving the
// view stops its read only before it is sent (api.FinishOnceSent); bg, the
// environment's context, ends it whatever happens.
func (q eventsQuery) fetch(p ProjectAPI, size int, cache *eventsCache, bg context.Context, now func() time.Time) pagedlist.Fetch[api.WebhookEventLog] {
	read := fetchList(api.ListOf(p.WebhookEventLogs, q.params(), size))
	if cache == nil {
		return read
	}
	key := q.cacheKey()
	return func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[api.WebhookEventLog], error) {
		if r.After != "" || r.Reverse {
			return read(ctx, r)
		}
		since := cache.generation()
		page, err := read(api.FinishOnceSent(bg, ctx), r)
		if err == nil {
			cache.putSince(since, key, page, now())
		}
		return page, err
	}
}

// eventsCache keeps the Events view's first page per query, so that the
// view opens at once with the rows of the last visit while it reads them
// again (the live tail would anyway).
type eventsCache = keptCache[eventsQuery, pagedlist.Page[api.WebhookEventLog]]

// eventsCacheSize bounds the first pages kept: one per filter tried.
const eventsCacheSize = 8

// cacheKey is the query without what only names it on screen.
func (q eventsQuery) cacheKey() eventsQuery {
	q.scope = ""
	return q
}

// nextStatus cycles the status filter: any, then each status text.
func nextStatus(cur string) string {
	all := append([]string{""}, api.WebhookStatusTexts()...)
	i := slices.Index(all, cur)
	return all[(i+1)%len(all)]
}

// eventTypesMsg answers the event types asked for the type filter's
// suggestions.
type eventTypesMsg struct {
	envTag
	id    int
	types []string
}

// eventTypeLister is the optional part of a ProjectAPI (*api.Client has
// it) that names the event types, for the type filter's suggestions.
type eventTypeLister interface {
	WebhookEventTypes(ctx context.Context) ([]string, error)
}

// eventField is the filter being typed.
type eventField int

// edit opens the field of filter f with its current value.
func (s *eventsScreen) edit(f eventField) tea.Cmd {
	s.editing = f
	s.input.Prompt = s.prompt()
	s.input.SetWidth(max(s.w-ansi.StringWidth(s.input.Prompt)-1, 8))
	var cmd tea.Cmd
	switch f {
	case fieldType:
		s.input.Placeholder = "an event type, such as Transaction.Booked (tab completes)"
		s.input.ShowSuggestions = true
		s.input.SetValue(s.query.eventType)
		cmd = s.loadTypes()
	case fieldResource:
		s.input.Placeholder = "the id of an account, transaction, card…"
		s.input.ShowSuggestions = false
		s.input.SetValue(s.query.resource)
	}
	s.input.CursorEnd()
	return tea.Batch(cmd, s.input.Focus())
}

func (s *eventsScreen) prompt() string {
	if s.editing == fieldResource {
		return "resource: "
	}
	return "type: "
}

// loadTypes asks once for the event types the type field suggests, when
// the client can list them.
func (s *eventsScreen) loadTypes() tea.Cmd {
	lister, ok := s.env.ProjectAPI.(eventTypeLister)
	if !ok || s.typesID != 0 || len(s.input.AvailableSuggestions()) > 0 {
		return nil
	}
	s.typesID = s.c.nextID()
	id, env, ctx := s.typesID, s.env.Name, s.ctx
	return s.c.task(func() tea.Msg {
		types, err := lister.WebhookEventTypes(ctx)
		if err != nil {
			// Suggestions are a convenience: the field works without them.
			types = nil
		}
		return eventTypesMsg{envTag{env}, id, types}
	})
}

func (s *eventsScreen) fieldKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	switch {
	case key.Matches(msg, k.Apply):
		v := strings.TrimSpace(s.input.Value())
		q := s.query
		switch s.editing {
		case fieldType:
			var bad string
			if v, bad = s.typed(v); bad != "" {
				return func() tea.Msg { return flashMsg{text: bad, bad: true} }
			}
			q.eventType = v
		case fieldResource:
			if v != q.resource {
				q.resource, q.scope = v, ""
			}
		}
		s.closeField()
		if q == s.query {
			return nil
		}
		return s.run(q)
	case key.Matches(msg, k.Cancel):
		s.closeField()
		return nil
	}
	_, cmd := editInput(&s.input, msg)
	return cmd
}

// typed is the event type the field shows, for enter to apply: what was
// typed, or the completion shown after it (which looks typed enough to
// be meant); bad says why it is no event type, when the types are known,
// rather than filter on one that matches nothing.
func (s *eventsScreen) typed(v string) (string, string) {
	if v == "" {
		return "", ""
	}
	types := s.input.AvailableSuggestions()
	if sug := s.input.CurrentSuggestion(); sug != "" && !slices.Contains(types, v) &&
		strings.HasPrefix(strings.ToLower(sug), strings.ToLower(v)) {
		v = sug
	}
	if len(types) > 0 && !slices.Contains(types, v) {
		return v, "“" + v + "” is not an event type: " + s.input.KeyMap.AcceptSuggestion.Keys()[0] + " completes one, " + s.keys.Cancel.Help().Key + " leaves the filter as it was."
	}
	return v, ""
}

func (s *eventsScreen) closeField() {
	s.editing = fieldNone
	s.input.Blur()
}
