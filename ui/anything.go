package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/explore"
	"github.com/partnertui/partnertui/internal/remedy"
)

// This file is the view of anything: every root query of the schema the
// app knows, reached from the : palette as `query NAME` (its name
// completed from the schema), read generically by internal/explore: a
// connection or a list as a table of its nodes' scalar fields
// (anything_list.go), an object with all its fields, nested objects
// folded (anything_object.go). An id that names another object opens
// that object's view: its rich view when the table of views has one for
// its type, this one elsewhere.

// SchemaSource is the schema the app knows of an environment's partner
// API: its newest snapshot, else read by introspection (apicall.Source).
// It reads files or sends a request: the UI calls it only inside
// commands.
type SchemaSource interface {
	Schema(ctx context.Context) (schema *ast.Schema, from string, err error)
}

// knownSchema is an environment's schema for the view of anything, read
// once, when a view first needs it. The read's task keeps what it read
// here itself (under the lock), so the schema is kept even when no screen
// that asked for it is left to hear schemaMsg.
type knownSchema struct {
	mu      sync.Mutex
	reading bool
	cat     *explore.Catalog
	from    string
	err     error
}

// schemaMsg says an environment's schema was read (or could not be):
// whoever waited for it looks again.
type schemaMsg struct {
	envTag
	err error
}

func (m schemaMsg) msgErr() error { return m.err }

// schemaState is what is known of env's schema now; reading is true while
// it is being read.
func (e *envState) schemaState() (cat *explore.Catalog, from string, err error, reading bool) {
	e.schema.mu.Lock()
	defer e.schema.mu.Unlock()
	return e.schema.cat, e.schema.from, e.schema.err, e.schema.reading
}

// readSchema reads env's schema unless it is known or being read, or
// its last read failed and again is false (a read that fails is tried
// again when the user asks: not on every key); nil when there is nothing
// to do.
func (c *common) readSchema(env *envState, again bool) tea.Cmd {
	k := &env.schema
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cat != nil || k.reading || (k.err != nil && !again) {
		return nil
	}
	if env.Schema == nil {
		k.err = errNoSchema
		return nil
	}
	k.reading = true
	src, ctx, name := env.Schema, env.ctx, env.Name
	return c.task(func() tea.Msg {
		s, from, err := src.Schema(ctx)
		k.mu.Lock()
		defer k.mu.Unlock()
		k.reading = false
		if err != nil {
			k.err = err
			return schemaMsg{envTag{name}, err}
		}
		k.cat, k.from, k.err = explore.New(s), from, nil
		return schemaMsg{envTag: envTag{name}}
	})
}

var errNoSchema = fmt.Errorf("this environment has no schema to read: the view of anything needs one")

// schemaWait is what a view waiting for env's schema says.
func (c *common) schemaWait(env *envState) string {
	return c.spinFrame + " Reading the schema of " + envTitle(env.Name) + "'s partner API…"
}

// anyDoer is the client the view of anything reads with: the
// environment's own, or its project-token client (project).
func anyDoer(env *envState, project bool) explore.Doer {
	if project && env.distinctProject() != nil {
		return env.ProjectAPI
	}
	return env.API
}

// anyQuery is what follows `query` in the palette: a root query's name,
// then its id (a root that reads one object by id) and name=value for its
// other arguments.
type anyQuery struct {
	name  string
	words []string
}

func parseAnyQuery(arg string) anyQuery {
	f := strings.Fields(arg)
	if len(f) == 0 {
		return anyQuery{}
	}
	return anyQuery{name: f[0], words: f[1:]}
}

// resolve is the root the query names and its arguments, checked against
// the catalog.
func (q anyQuery) resolve(cat *explore.Catalog) (*explore.Root, map[string]any, error) {
	r := cat.Root(q.name)
	if r == nil {
		if ms := cat.Match(q.name); len(ms) == 1 {
			r = ms[0]
		}
	}
	if ms := cat.Match(q.name); r == nil && len(ms) > 1 {
		names := make([]string, 0, 4)
		for _, m := range ms[:min(len(ms), 3)] {
			names = append(names, m.Name)
		}
		if len(ms) > 3 {
			names = append(names, "…")
		}
		return nil, nil, queryErrorf("%q could be %s: type more of its name, or press tab in the palette", q.name, strings.Join(names, ", "))
	}
	if r == nil {
		return nil, nil, queryErrorf("the schema has no root query %q: type its first letters and press tab", q.name)
	}
	args := map[string]any{}
	for _, w := range q.words {
		name, value, ok := strings.Cut(w, "=")
		if !ok {
			if r.IDArg == "" || args[r.IDArg] != nil {
				return nil, nil, queryErrorf("%s takes %s: %q is not name=value", r.Name, takes(r), w)
			}
			args[r.IDArg] = w
			continue
		}
		a := argOf(r, name)
		if a == nil {
			return nil, nil, queryErrorf("%s has no argument %q; it takes %s", r.Name, name, takes(r))
		}
		args[name] = argValue(a, value)
	}
	if r.IDArg != "" && args[r.IDArg] == nil {
		return nil, nil, queryErrorf("%s reads one %s by id: %s", r.Name, r.Type, r.Usage())
	}
	for _, a := range r.Args {
		if _, ok := args[a.Name]; !ok {
			return nil, nil, queryErrorf("%s needs %s: %s", r.Name, a.Name, r.Usage())
		}
	}
	return r, args, nil
}

// queryError is a query typed in the palette that the schema refuses: its
// words say what to type instead.
type queryError struct{ msg string }

func queryErrorf(format string, args ...any) error {
	return &queryError{fmt.Sprintf(format, args...)}
}

func (e *queryError) Error() string { return e.msg }

// Remedy is none: the message says what to type.
func (e *queryError) Remedy() remedy.Remedy { return remedy.Remedy{Kind: remedy.None} }

// argOf is the root's argument named name; nil for none.
func argOf(r *explore.Root, name string) *ast.ArgumentDefinition {
	for _, a := range r.Field().Arguments {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// argValue is a typed value of argument a: JSON for numbers, booleans,
// lists and input objects, the text itself for the rest (an ID of digits
// stays a string).
func argValue(a *ast.ArgumentDefinition, text string) any {
	if a == nil {
		return text
	}
	switch a.Type.NamedType {
	case "ID", "String":
		return text
	}
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		return v
	}
	return text
}

// takes says what a root takes after its name.
func takes(r *explore.Root) string {
	if u := strings.TrimPrefix(r.Usage(), r.Name+" "); u != r.Usage() {
		return u
	}
	return "nothing after its name"
}

// queryTarget is the palette's `query NAME`.
func queryTarget(g *anyView) jumpTarget {
	return jumpTarget{name: g.name, arg: g.arg, desc: g.desc,
		open: func(m *Model, arg string) tea.Cmd {
			m.popTo(1)
			return m.push(newAnyScreen(m.c, m.env, parseAnyQuery(arg)))
		},
		prepare:     func(c *common, env *envState, again bool) tea.Cmd { return c.readSchema(env, again) },
		completeArg: completeQuery,
		check:       checkQuery,
	}
}

// checkQuery is what is wrong with the query typed, once the schema is
// known: said in the palette, to be corrected there.
func checkQuery(_ *common, env *envState, arg string) string {
	cat, _, _, _ := env.schemaState()
	if cat == nil {
		return "" // the view says what it waits for, or why it cannot read
	}
	if _, _, err := parseAnyQuery(arg).resolve(cat); err != nil {
		return remedy.Capitalized(remedy.Sentence(err))
	}
	return ""
}

// completeQuery completes a root query's name, and says what the words
// typed open or, while the name is not whole, the roots it could be.
func completeQuery(c *common, env *envState, arg string, extend bool) argHint {
	cat, _, err, reading := env.schemaState()
	switch {
	case reading:
		return argHint{done: arg, note: c.schemaWait(env), waiting: true}
	case err != nil:
		return argHint{done: arg, note: "✗ " + remedy.Capitalized(remedy.Sentence(err))}
	case cat == nil:
		return argHint{done: arg}
	}
	q := parseAnyQuery(arg)
	if len(q.words) > 0 || strings.HasSuffix(arg, " ") {
		if r := cat.Root(q.name); r != nil {
			return argHint{done: arg, note: describeRoot(r)}
		}
	}
	ms := cat.Match(q.name)
	if len(ms) == 0 {
		return argHint{done: arg, note: "No root query starts with “" + q.name + "”."}
	}
	if extend {
		names := make([]string, len(ms))
		for i, r := range ms {
			names[i] = r.Name
		}
		done := commonPrefix(names)
		if len(ms) == 1 && (ms[0].IDArg != "" || len(ms[0].Args) > 0) {
			done += " "
		}
		if len(done) >= len(q.name) {
			arg = done
			ms = cat.Match(strings.TrimSpace(done))
		}
	}
	if len(ms) == 1 {
		return argHint{done: arg, note: describeRoot(ms[0])}
	}
	parts := make([]string, len(ms))
	for i, r := range ms {
		parts[i] = r.Usage()
	}
	return argHint{done: arg, note: strings.Join(parts, "  ")}
}

// describeRoot is a root as the palette tells of it.
func describeRoot(r *explore.Root) string {
	switch r.Kind {
	case explore.Connection, explore.List:
		return r.Usage() + ": every " + r.Type + ", a table of its fields"
	case explore.Value:
		return r.Usage() + ": its " + r.Type + " value"
	}
	if r.IDArg != "" {
		return r.Usage() + ": one " + r.Type + " by " + r.IDArg + ", all its fields"
	}
	return r.Usage() + ": the " + r.Type + ", all its fields"
}

// richView is the view of the table whose rich screen shows one object of
// the named type by id, or of one of its interfaces or unions; nil when
// there is none.
func (c *common) richView(cat *explore.Catalog, typeName string) *view {
	for _, k := range cat.Kinds(typeName) {
		for i := range c.views {
			if v := &c.views[i]; v.one != nil && slices.Contains(v.types, k) {
				return v
			}
		}
	}
	return nil
}

// followLink opens the view of the object l names: its rich view when
// there is one, the view of anything elsewhere.
// project: the view it is followed from reads with the project's token,
// which this one keeps.
func (c *common) followLink(env *envState, cat *explore.Catalog, l *explore.Link, project bool) tea.Cmd {
	if v := c.richView(cat, l.Type); v != nil {
		return openCmd(env.Name, v.kind, l.ID)
	}
	if l.Root == nil {
		return nil
	}
	return push(env.Name, newAnyObject(c, env, cat, explore.ByID(l.Root, l.ID), "", l.Type+" "+shortID(l.ID), project))
}

// linkHelp names where a link goes: "open Card", "open AccountHolder".
func linkHelp(l *explore.Link) string { return "open " + l.Type }

// shortID is an id cut for a breadcrumb.
func shortID(id string) string {
	if len(id) > 12 {
		return id[:8] + "…"
	}
	return id
}

// anyScreen is what `query …` opens: until the schema is known, the wait
// (or why it cannot be read); then the table or the object the query
// names, which it draws and passes everything to. p reads it with the
// project's token instead of the environment's (and what it opens then
// too), where the environment has a project-token client of its own.
type anyScreen struct {
	c       *common
	env     *envState
	q       anyQuery
	inner   screen
	err     error
	project bool
	keys    struct{ Retry, Token key.Binding }
	w, h    int
}

func newAnyScreen(c *common, env *envState, q anyQuery) *anyScreen {
	s := &anyScreen{c: c, env: env, q: q}
	s.keys.Retry = refreshKey()
	s.keys.Token = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "read with the project's token"))
	s.keys.Token.SetEnabled(env.distinctProject() != nil)
	return s
}

func (s *anyScreen) init() tea.Cmd { return s.start(false) }

// start reads the schema unless it is known (again: even when the last
// read failed), then makes the inner screen.
func (s *anyScreen) start(again bool) tea.Cmd {
	if cmd := s.c.readSchema(s.env, again); cmd != nil {
		return cmd
	}
	return s.settle()
}

// settle makes the inner screen once the schema is known.
func (s *anyScreen) settle() tea.Cmd {
	if s.inner != nil {
		return nil
	}
	cat, _, err, reading := s.env.schemaState()
	if reading || (cat == nil && err == nil) {
		return nil
	}
	if err != nil {
		s.err = err
		return nil
	}
	r, args, err := s.q.resolve(cat)
	if err != nil {
		s.err = err
		return nil
	}
	at := explore.At(r.Name, args)
	switch r.Kind {
	case explore.Connection, explore.List:
		l, err := newAnyList(s.c, s.env, cat, at, r.Name, s.project)
		if err != nil {
			s.err = err
			return nil
		}
		s.inner = l
	default:
		title := r.Name
		if r.IDArg != "" {
			title = r.Type + " " + shortID(fmt.Sprint(args[r.IDArg]))
		}
		s.inner = newAnyObject(s.c, s.env, cat, at, "", title, s.project)
	}
	s.inner.setSize(s.w, s.h)
	return s.inner.init()
}

func (s *anyScreen) title() string {
	if s.inner != nil {
		return s.inner.title()
	}
	return strings.TrimSpace("query " + s.q.name)
}

func (s *anyScreen) capturing() bool { return s.inner != nil && s.inner.capturing() }
func (s *anyScreen) busy() bool {
	if s.inner != nil {
		return s.inner.busy()
	}
	_, _, _, reading := s.env.schemaState()
	return reading
}

func (s *anyScreen) close() {
	if s.inner != nil {
		s.inner.close()
	}
}

func (s *anyScreen) setSize(w, h int) {
	s.w, s.h = w, h
	if s.inner != nil {
		s.inner.setSize(w, h)
	}
}

func (s *anyScreen) ShortHelp() []key.Binding {
	if s.inner != nil {
		return append(s.inner.ShortHelp(), s.keys.Token)
	}
	return []key.Binding{s.keys.Retry}
}

func (s *anyScreen) FullHelp() [][]key.Binding {
	if s.inner != nil {
		return append(s.inner.FullHelp(), []key.Binding{s.keys.Token})
	}
	return [][]key.Binding{s.ShortHelp()}
}

func (s *anyScreen) update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(schemaMsg); ok && s.inner == nil {
		return s.settle()
	}
	if s.inner != nil {
		return s.inner.update(msg)
	}
	return nil
}

func (s *anyScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if s.inner != nil && !s.inner.capturing() && key.Matches(msg, s.keys.Token) {
		return s.switchToken(), true
	}
	if s.inner != nil {
		return s.inner.handleKey(msg)
	}
	if key.Matches(msg, s.keys.Retry) {
		s.err = nil
		return s.start(true), true
	}
	return nil, false
}

// reopen makes the query again after a trip to the other environment,
// with the token it was read with.
func (s *anyScreen) reopen(c *common, env *envState) screen {
	a := newAnyScreen(c, env, s.q)
	if s.project {
		a.project = true
		a.keys.Token.SetHelp("p", "read with your token")
	}
	return a
}

// switchToken reads the query again with the other token.
func (s *anyScreen) switchToken() tea.Cmd {
	s.project = !s.project
	desc := "read with the project's token"
	if s.project {
		desc = "read with your token"
	}
	s.keys.Token.SetHelp("p", desc)
	s.inner.close()
	s.inner = nil
	return s.settle()
}

func (s *anyScreen) view() string {
	if s.inner != nil {
		return s.inner.view()
	}
	if s.h <= 0 {
		return ""
	}
	text := s.c.schemaWait(s.env)
	if s.err != nil {
		text = s.c.styles.err.Render("✗ Could not open query "+strings.TrimSpace(s.q.name+" "+strings.Join(s.q.words, " "))+". ") +
			s.c.explain(s.err, where{retry: s.keys.Retry, project: s.env.Project})
	}
	return fit(wrap(text, s.w), s.w, s.h)
}
