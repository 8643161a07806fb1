package ui

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/internal/explore"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// anyObject is an object of the view of anything: every field, one a
// line, nested objects and lists folded (enter or → unfolds, ← folds),
// connections counted (enter opens the list), each id that names another
// object a link to that object's view; c copies the object as JSON, y
// the value under the cursor. Objects deeper than one request reads are
// read when unfolded.
type anyObject struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	cat    *explore.Catalog
	at     explore.Locator
	only   string
	name   string
	// project: read with the project's token.
	project bool

	tree *explore.Tree
	// load is the read of the whole object in flight (0 for none) and
	// why the last one failed.
	load    int
	loadErr error
	// reads are the reads of not-read objects in flight, by node.
	reads map[*explore.Node]int
	// open are the unfolded nodes, by place.
	open map[string]bool

	lines       []objLine
	cursor, top int
	keys        objKeys
	w, h        int
}

type objKeys struct {
	nav                             pagedlist.KeyMap
	Enter, Unfold, Fold, Copy, Yank key.Binding
	Refresh                         key.Binding
}

// objLine is one line of the object: a node at a depth, and its place
// (the names and positions from the object down to it).
type objLine struct {
	n     *explore.Node
	depth int
	place string
}

// anyTreeMsg answers the read of the whole object.
type anyTreeMsg struct {
	envTag
	id      int
	tree    *explore.Tree
	err     error
	project bool
}

// msgErr: a refused project token is no reason to sign in again.
func (m anyTreeMsg) msgErr() error {
	if m.project {
		return nil
	}
	return m.err
}

// anyNodeMsg answers the read of one not-read object.
type anyNodeMsg struct {
	envTag
	id      int
	node    *explore.Node
	tree    *explore.Tree
	err     error
	project bool
}

// msgErr: a refused project token is no reason to sign in again.
func (m anyNodeMsg) msgErr() error {
	if m.project {
		return nil
	}
	return m.err
}

// newAnyObject is the object at at (of type only, when known), titled
// name in the breadcrumbs, read with the project's token when project is
// set.
func newAnyObject(c *common, env *envState, cat *explore.Catalog, at explore.Locator, only, name string, project bool) *anyObject {
	ctx, cancel := context.WithCancel(env.ctx)
	s := &anyObject{c: c, env: env, ctx: ctx, cancel: cancel, cat: cat, at: at, only: only, name: name,
		project: project && env.distinctProject() != nil, reads: map[*explore.Node]int{}, open: map[string]bool{}}
	s.keys = objKeys{
		nav:     navKeys(),
		Enter:   openKey("open"),
		Unfold:  key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/←", "unfold/fold")),
		Fold:    key.NewBinding(key.WithKeys("left", "h")),
		Copy:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy as JSON")),
		Yank:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy value")),
		Refresh: refreshKey(),
	}
	s.syncKeys()
	return s
}

func (s *anyObject) init() tea.Cmd { return s.read() }

// reopen makes the object again after a trip to the other environment,
// unfolded as it was.
func (s *anyObject) reopen(c *common, env *envState) screen {
	o := newAnyObject(c, env, s.cat, s.at, s.only, s.name, s.project)
	o.open = maps.Clone(s.open)
	return o
}

// read reads the whole object again.
func (s *anyObject) read() tea.Cmd {
	s.load = s.c.nextID()
	id, cat, d, at, only, env, project := s.load, s.cat, anyDoer(s.env, s.project), s.at, s.only, s.env.Name, s.project
	ctx := s.ctx
	return s.c.task(func() tea.Msg {
		t, err := cat.Read(ctx, d, at, only)
		return anyTreeMsg{envTag{env}, id, t, err, project}
	})
}

// readNode reads the not-read object n on its own.
func (s *anyObject) readNode(n *explore.Node) tea.Cmd {
	if _, ok := s.reads[n]; ok {
		return nil
	}
	id := s.c.nextID()
	s.reads[n] = id
	cat, d, at, env, ctx, project := s.cat, anyDoer(s.env, s.project), n.At, s.env.Name, s.ctx, s.project
	return s.c.task(func() tea.Msg {
		t, err := cat.Read(ctx, d, at, "")
		return anyNodeMsg{envTag{env}, id, n, t, err, project}
	})
}

func (s *anyObject) title() string    { return s.name }
func (s *anyObject) capturing() bool  { return false }
func (s *anyObject) busy() bool       { return s.load != 0 || len(s.reads) > 0 }
func (s *anyObject) close()           { s.cancel() }
func (s *anyObject) setSize(w, h int) { s.w, s.h = w, h; s.scroll() }

func (s *anyObject) update(msg tea.Msg) tea.Cmd {
	defer s.syncKeys()
	switch msg := msg.(type) {
	case anyTreeMsg:
		if msg.id != s.load {
			return nil
		}
		s.load = 0
		if msg.err != nil {
			keepErr(&s.loadErr, msg.err)
			return nil
		}
		s.tree, s.loadErr = msg.tree, nil
		s.reads = map[*explore.Node]int{}
		s.flatten()
		return s.readUnfolded()
	case anyNodeMsg:
		if id, ok := s.reads[msg.node]; !ok || id != msg.id {
			return nil
		}
		delete(s.reads, msg.node)
		switch {
		case msg.err != nil:
			msg.node.Err = s.c.explain(msg.err, where{retry: s.keys.Enter, project: s.env.Project || s.project})
		case msg.tree.Missing:
			msg.node.Err = "not found when read on its own"
			if len(msg.tree.Errors) > 0 {
				msg.node.Err = msg.tree.Errors[0].Message
			}
		default:
			msg.node.Fill(msg.tree.Root)
			s.flatten()
			return s.readUnfolded()
		}
		s.flatten()
	}
	return nil
}

// readUnfolded reads the objects unfolded before a refresh that the new
// read left unread, so the tree opens as far as it was.
func (s *anyObject) readUnfolded() tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range s.lines {
		if s.open[l.place] && l.n.Absent == explore.NotRead && l.n.Err == "" {
			cmds = append(cmds, s.readNode(l.n))
		}
	}
	return tea.Batch(cmds...)
}

// flatten lays the tree out as lines: the object's fields, and under
// each unfolded object or list its own.
func (s *anyObject) flatten() {
	s.lines = s.lines[:0]
	if s.tree == nil {
		return
	}
	root := s.tree.Root
	if root.Shape == explore.Leaf || root.Null {
		s.lines = append(s.lines, objLine{n: root, place: ""})
	} else {
		s.addChildren(root, 0, "")
	}
	s.cursor = min(s.cursor, max(len(s.lines)-1, 0))
	s.scroll()
}

func (s *anyObject) addChildren(n *explore.Node, depth int, place string) {
	for _, ch := range n.Children {
		p := place + "/" + ch.Name
		if ch.Index >= 0 {
			p = place + "/" + strconv.Itoa(ch.Index)
		}
		s.lines = append(s.lines, objLine{n: ch, depth: depth, place: p})
		if s.open[p] && foldable(ch) && ch.Absent == explore.Present {
			s.addChildren(ch, depth+1, p)
		}
	}
}

// foldable: the node has fields or elements to show under it.
func foldable(n *explore.Node) bool {
	switch n.Absent {
	case explore.NotRead:
		return n.Shape != explore.Conn
	case explore.Present:
		return (n.Shape == explore.Obj && !n.Null) || (n.Shape == explore.Items && len(n.Children) > 0)
	}
	return false
}

// current is the line under the cursor; ok is false for none.
func (s *anyObject) current() (objLine, bool) {
	if s.cursor < 0 || s.cursor >= len(s.lines) {
		return objLine{}, false
	}
	return s.lines[s.cursor], true
}

// syncKeys enables and names the keys for the line under the cursor.
func (s *anyObject) syncKeys() {
	l, ok := s.current()
	ok = ok && s.tree != nil && !s.tree.Missing
	s.keys.Copy.SetEnabled(ok)
	s.keys.Yank.SetEnabled(ok)
	s.keys.Unfold.SetEnabled(ok && foldable(l.n))
	s.keys.Fold.SetEnabled(ok)
	s.keys.Enter.SetEnabled(false)
	if !ok {
		return
	}
	n := l.n
	switch {
	case n.Link != nil && (n.Link.Root != nil || s.c.richView(s.cat, n.Link.Type) != nil):
		s.keys.Enter.SetHelp("enter", linkHelp(n.Link))
	case n.Shape == explore.Conn && n.Absent == explore.Present:
		s.keys.Enter.SetHelp("enter", "open the list")
	case n.Absent == explore.NotRead:
		s.keys.Enter.SetHelp("enter", "read it")
	case foldable(n) && s.open[l.place]:
		s.keys.Enter.SetHelp("enter", "fold")
	case foldable(n):
		s.keys.Enter.SetHelp("enter", "unfold")
	default:
		return
	}
	s.keys.Enter.SetEnabled(true)
}

func (s *anyObject) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.Enter, s.keys.Copy, s.keys.Yank, s.keys.Refresh}
}

func (s *anyObject) FullHelp() [][]key.Binding {
	n := s.keys.nav
	return [][]key.Binding{{n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom},
		{s.keys.Enter, s.keys.Unfold, s.keys.Copy, s.keys.Yank, s.keys.Refresh}}
}

func (s *anyObject) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if next, ok := s.keys.nav.Move(msg, s.cursor, max(s.h-3, 1), len(s.lines)-1); ok {
		s.cursor = max(min(next, len(s.lines)-1), 0)
		s.scroll()
		return nil, true
	}
	l, ok := s.current()
	switch {
	case key.Matches(msg, s.keys.Refresh):
		return s.read(), true
	case key.Matches(msg, s.keys.Copy):
		return copyCmd(s.c, string(s.tree.Root.JSON()), s.tree.Root.Type+" copied as JSON"), true
	case !ok:
		return nil, false
	case key.Matches(msg, s.keys.Yank):
		text := string(l.n.JSON())
		if l.n.Shape == explore.Leaf {
			text = explore.Text(l.n.Value)
		}
		return copyCmd(s.c, strings.TrimSpace(text), l.n.Name+" copied"), true
	case key.Matches(msg, s.keys.Enter):
		return s.enter(l), true
	case key.Matches(msg, s.keys.Unfold):
		return s.unfold(l), true
	case key.Matches(msg, s.keys.Fold):
		s.fold(l)
		return nil, true
	}
	return nil, false
}

// enter follows the line: a link to its object's view, a connection to
// its table, an object or a list folded or unfolded.
func (s *anyObject) enter(l objLine) tea.Cmd {
	n := l.n
	switch {
	case n.Link != nil:
		return s.c.followLink(s.env, s.cat, n.Link, s.project)
	case n.Shape == explore.Conn:
		return s.openList(n)
	case s.open[l.place] && n.Absent == explore.Present:
		s.fold(l)
		return nil
	}
	return s.unfold(l)
}

// openList opens the table of the connection n.
func (s *anyObject) openList(n *explore.Node) tea.Cmd {
	for _, st := range n.At.Path {
		if st.Index >= 0 {
			return func() tea.Msg {
				return flashMsg{text: "This list is under an element of a list and cannot be read on its own.", bad: true}
			}
		}
	}
	l, err := newAnyList(s.c, s.env, s.cat, n.At, n.Name, s.project)
	if err != nil {
		return func() tea.Msg { return flashMsg{text: err.Error(), bad: true} }
	}
	return push(s.env.Name, l)
}

// unfold shows what is under the line, reading it first when it was not.
func (s *anyObject) unfold(l objLine) tea.Cmd {
	if !foldable(l.n) {
		return nil
	}
	s.open[l.place] = true
	var cmd tea.Cmd
	if l.n.Absent == explore.NotRead {
		cmd = s.readNode(l.n)
	}
	s.flatten()
	return cmd
}

// fold hides what is under the line; on a line with nothing unfolded,
// the cursor goes to the object it belongs to.
func (s *anyObject) fold(l objLine) {
	if s.open[l.place] {
		delete(s.open, l.place)
		s.flatten()
		return
	}
	for i := s.cursor - 1; i >= 0; i-- {
		if s.lines[i].depth < l.depth {
			s.cursor = i
			break
		}
	}
	s.scroll()
}

// body is the height of the lines' window: the heading above, the status
// line below.
func (s *anyObject) body() int { return max(s.h-2-len(s.errorLines()), 1) }

// scroll keeps the cursor in the window.
func (s *anyObject) scroll() {
	h := s.body()
	if s.cursor < s.top {
		s.top = s.cursor
	}
	if s.cursor >= s.top+h {
		s.top = s.cursor - h + 1
	}
	s.top = max(min(s.top, len(s.lines)-h), 0)
}

// heading is the object's type and where it is read from.
func (s *anyObject) heading() string {
	st := s.c.styles
	typ := s.only
	if s.tree != nil {
		typ = s.tree.Root.Type
	}
	return st.title.Render(typ) + st.dim.Render("  "+describe(s.at))
}

// describe is a locator as the heading says it: account(accountId: …).
func describe(l explore.Locator) string {
	parts := make([]string, 0, len(l.Path))
	for _, st := range l.Path {
		p := st.Field
		if len(st.Args) > 0 {
			var args []string
			for _, k := range slices.Sorted(maps.Keys(st.Args)) {
				if k == "first" && st.Edge {
					continue
				}
				args = append(args, k+": "+explore.Text(st.Args[k]))
			}
			if len(args) > 0 {
				p += "(" + strings.Join(args, ", ") + ")"
			}
		}
		if st.Index >= 0 {
			p += "[" + strconv.Itoa(st.Index) + "]"
		}
		if st.Edge {
			p += " › its node"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ".")
}

// errorLines are the answer's errors no field shows, and what the
// endpoint does not serve.
func (s *anyObject) errorLines() []string {
	if s.tree == nil {
		return nil
	}
	var out []string
	for _, e := range s.tree.Errors {
		out = append(out, s.c.styles.err.Render("✗ ")+e.Message)
	}
	return out
}

func (s *anyObject) view() string {
	if s.h <= 0 {
		return ""
	}
	st := s.c.styles
	var b strings.Builder
	b.WriteString(s.heading())
	b.WriteByte('\n')
	switch {
	case s.tree == nil && s.loadErr != nil:
		b.WriteString(wrap(st.err.Render("✗ Could not read "+describe(s.at)+". ")+s.c.explain(s.loadErr, where{retry: s.keys.Refresh, project: s.env.Project || s.project}), s.w))
		return fit(b.String(), s.w, s.h)
	case s.tree == nil:
		status := s.env.status
		if s.project {
			status = s.env.projectAPIStatus()
		}
		b.WriteString(s.c.loadingText(status, "the "+orDash(s.only)))
		return fit(b.String(), s.w, s.h)
	case s.tree.Missing:
		b.WriteString(wrap(st.err.Render("✗ Nothing at "+describe(s.at)+".")+" "+s.missingWhy(), s.w))
		return fit(b.String(), s.w, s.h)
	}
	h := s.body()
	label := s.labelWidth()
	for i := s.top; i < min(s.top+h, len(s.lines)); i++ {
		b.WriteString(s.line(s.lines[i], label, i == s.cursor))
		b.WriteByte('\n')
	}
	for i := len(s.lines) - s.top; i < h; i++ {
		b.WriteByte('\n')
	}
	for _, e := range s.errorLines() {
		b.WriteString(trunc(e, s.w))
		b.WriteByte('\n')
	}
	b.WriteString(s.statusLine())
	return fit(b.String(), s.w, s.h)
}

// missingWhy is what the answer said of an object it did not have.
func (s *anyObject) missingWhy() string {
	var why []string
	for _, e := range s.tree.Errors {
		why = append(why, e.Message)
	}
	if s.tree.Root.Err != "" {
		why = append(why, s.tree.Root.Err)
	}
	if len(why) == 0 {
		return "The endpoint answered null: check the id, and its environment."
	}
	return remedy.Capitalized(strings.Join(why, "; "))
}

// labelWidth is the width of the names' column: the longest name shown
// with its indent, within half the width.
func (s *anyObject) labelWidth() int {
	w := 8
	for _, l := range s.lines {
		w = max(w, 2*l.depth+2+ansi.StringWidth(lineName(l.n))+1)
	}
	return min(w, max(s.w/2, 12))
}

// lineName is how the line names its node: a field by its name, an
// element by its position.
func lineName(n *explore.Node) string {
	if n.Index >= 0 && n.Name == "" {
		return "[" + strconv.Itoa(n.Index) + "]"
	}
	return n.Name
}

// line draws one line: the fold marker, the name, the value.
func (s *anyObject) line(l objLine, label int, selected bool) string {
	st := s.c.styles
	n := l.n
	marker := "  "
	switch {
	case foldable(n) && s.open[l.place] && n.Absent == explore.Present:
		marker = "▾ "
	case foldable(n):
		marker = "▸ "
	}
	name := strings.Repeat("  ", l.depth) + marker + lineName(n)
	name = trunc(name, label-1)
	name += strings.Repeat(" ", max(label-ansi.StringWidth(name), 1))
	value := s.valueText(l, s.w-ansi.StringWidth(name))
	if selected {
		plain := ansi.Strip(name + value)
		plain = trunc(plain, s.w)
		return st.selected.Render(plain + strings.Repeat(" ", max(s.w-ansi.StringWidth(plain), 0)))
	}
	return trunc(st.dim.Render(name)+value, s.w)
}

// valueText is a node's value as its line shows it, in w cells: a link's
// value is cut before where it goes.
func (s *anyObject) valueText(l objLine, w int) string {
	st := s.c.styles
	n := l.n
	var v string
	switch {
	case n.Absent == explore.NeedsArgs:
		v = st.dim.Render("takes " + strings.Join(n.Args, ", ") + ": not read here")
	case n.Absent == explore.Unserved:
		v = st.dim.Render("not served by this endpoint")
	case n.Absent == explore.NotRead && s.reads[n] != 0:
		v = st.dim.Render(n.Type + " · " + s.c.spinFrame + " reading…")
	case n.Absent == explore.NotRead:
		v = st.dim.Render(n.Type + " · not read yet: enter reads it")
	case n.Null:
		v = st.dim.Render("null")
	case n.Shape == explore.Leaf:
		v = explore.Text(n.Value)
		if n.Link != nil && (n.Link.Root != nil || s.c.richView(s.cat, n.Link.Type) != nil) {
			to := "  → " + n.Link.Type
			v = trunc(v, max(w-ansi.StringWidth(to), 1)) + st.dim.Render(to)
		}
	case n.Shape == explore.Conn && n.HasTotal:
		v = st.dim.Render(strconv.Itoa(n.Total) + " · enter opens the list")
	case n.Shape == explore.Conn:
		v = st.dim.Render("a list · enter opens it")
	case n.Shape == explore.Items:
		v = st.dim.Render("[" + strconv.Itoa(len(n.Children)) + "] " + n.Type)
	default:
		v = st.dim.Render(n.Type)
	}
	if n.Deprecated != "" && n.Absent != explore.Unserved {
		v += st.dim.Render(" · deprecated")
	}
	if n.Err != "" {
		v += " " + st.err.Render("✗ "+n.Err)
	}
	return v
}

// statusLine: where the cursor is, and what the endpoint did not serve.
func (s *anyObject) statusLine() string {
	var b strings.Builder
	b.WriteString("line " + strconv.Itoa(min(s.cursor+1, len(s.lines))) + " of " + strconv.Itoa(len(s.lines)))
	if s.project {
		b.WriteString(" · project token")
	}
	if n := s.cat.UnservedCount(); n > 0 {
		// Which schema: a snapshot may be older or newer than the endpoint.
		_, from, _, _ := s.env.schemaState()
		b.WriteString(" · " + strconv.Itoa(n) + " not served here · schema: " + from)
	}
	switch {
	case s.load != 0:
		b.WriteString(" · " + s.c.spinFrame + " refreshing")
	case s.loadErr != nil:
		b.WriteString(" · ✗ " + s.loadErr.Error())
	}
	return trunc(s.c.styles.dimP.Render(b.String()), s.w)
}
