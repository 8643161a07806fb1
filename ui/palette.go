package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// jumpTarget is one destination of the : palette: a view by name, or one
// resource by id (jumpTargets makes them from the table of views).
type jumpTarget struct {
	name string
	arg  string // what follows the name ("ID"); "" when nothing does
	desc string
	// open goes to a view by name; nil for a resource by id.
	open func(m *Model, arg string) tea.Cmd
	// lookup is the screen of one resource by id, which the palette reads
	// before it goes there: a bad id is said in the palette, and no
	// broken screen is pushed.
	lookup func(c *common, env *envState, id string) screen
	// prepare starts what completing the argument needs (the schema's
	// read; again: even if it failed before); nil for a target whose
	// argument is an id.
	prepare func(c *common, env *envState, again bool) tea.Cmd
	// completeArg completes what was typed after the name (extend: as far
	// as its choices agree) and says what it opens, or its choices; nil
	// for an id.
	completeArg func(c *common, env *envState, arg string, extend bool) argHint
	// check says what is wrong with the argument, when that is known
	// before going ("" for nothing, or not yet); nil for an id.
	check func(c *common, env *envState, arg string) string
}

// argHint is what the palette shows of an argument being typed: the
// argument completed, the note under it; waiting while the completions
// are not known yet (a tab pressed meanwhile completes once they are).
type argHint struct {
	done, note string
	waiting    bool
}

// typedByID is a screen of one item that can be asked for by an ID the
// user typed: a missing one is then said to be mistyped.
type typedByID interface{ typedByID(retype key.Binding) }

// lookedUp is a screen of one item read by id: done once its first read
// ended, err why it failed.
type lookedUp interface{ lookedUp() (done bool, err error) }

// jumpMsg asks the root to close the palette and go to target, or to s,
// the screen of a resource the palette looked up.
type jumpMsg struct {
	envTag
	target jumpTarget
	arg    string
	s      screen
}

// closeMsg asks the root to close s, the screen on top.
type closeMsg struct{ s screen }

type paletteKeys struct {
	Go, Complete, Cancel key.Binding
}

// paletteScreen is the : prompt over the screen it was opened on: a name
// from the registry (completed with tab), and an id for the ones that
// take one.
type paletteScreen struct {
	c       *common
	env     *envState
	under   screen
	targets []jumpTarget
	keys    paletteKeys
	in      textinput.Model
	err     string
	w, h    int
	// tabbed: tab was pressed while the completions were not known yet.
	tabbed bool
	// prepared: the target typed was prepared once (a failed read is
	// tried again once per palette, not on every key).
	prepared bool
	// pending is the screen of the resource being looked up, not shown
	// until it has it; what names it.
	pending screen
	what    string
}

func newPaletteScreen(c *common, env *envState, under screen) *paletteScreen {
	p := &paletteScreen{c: c, env: env, under: under, targets: jumpTargets(c.views), keys: paletteKeys{
		Go:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		Cancel:   escKey("cancel"),
	}}
	p.in = newTextInput(":", paletteHint(c.views), 200)
	p.in.SetStyles(c.inputStyles())
	return p
}

func (p *paletteScreen) init() tea.Cmd { return p.in.Focus() }

// title is empty: the palette is no place of its own in the breadcrumbs.
func (p *paletteScreen) title() string   { return "" }
func (p *paletteScreen) capturing() bool { return true }
func (p *paletteScreen) busy() bool      { return p.pending != nil || p.under.busy() }

// close leaves the screen under it alone: it stays on the stack. A
// lookup still on the wire goes.
func (p *paletteScreen) close() { p.drop() }

// drop abandons the lookup in flight, if any.
func (p *paletteScreen) drop() {
	if p.pending != nil {
		p.pending.close()
		p.pending = nil
	}
}

func (p *paletteScreen) setSize(w, h int) {
	p.w, p.h = w, h
	p.in.SetWidth(max(w-2, 8))
}

func (p *paletteScreen) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Go, p.keys.Complete, p.keys.Cancel}
}

func (p *paletteScreen) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p *paletteScreen) update(msg tea.Msg) tea.Cmd {
	if p.pending != nil {
		// The lookup's answers are the pending screen's.
		return tea.Batch(p.pending.update(msg), p.settle())
	}
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		p.in.SetStyles(p.c.inputStyles())
	case tea.PasteMsg:
		_, cmd := editInput(&p.in, msg)
		return cmd
	case schemaMsg:
		if p.tabbed {
			p.complete()
		}
	}
	return nil
}

func (p *paletteScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, p.keys.Cancel) && p.pending != nil:
		// The lookup is abandoned; the palette stays with what was typed.
		p.drop()
		return nil, true
	case key.Matches(msg, p.keys.Cancel):
		return func() tea.Msg { return closeMsg{p} }, true
	case key.Matches(msg, p.keys.Complete):
		p.complete()
		return p.prepare(), true
	case key.Matches(msg, p.keys.Go):
		t, arg, err := p.resolve()
		if err == "" && t.check != nil {
			err = t.check(p.c, p.env, arg)
		}
		if err != "" {
			p.err = err
			return nil, true
		}
		if t.lookup != nil {
			return p.look(t, arg), true
		}
		env := p.env.Name
		return func() tea.Msg { return jumpMsg{envTag{env}, t, arg, nil} }, true
	}
	changed, cmd := editInput(&p.in, msg)
	if changed {
		p.err, p.tabbed = "", false
		p.drop()
		return tea.Batch(cmd, p.prepare()), true
	}
	return cmd, true
}

// prepare starts what the completions of the target typed need.
func (p *paletteScreen) prepare() tea.Cmd {
	name, _, _ := p.typed()
	if ms := p.matches(name); len(ms) == 1 && name != "" && ms[0].prepare != nil {
		again := !p.prepared
		p.prepared = true
		return ms[0].prepare(p.c, p.env, again)
	}
	return nil
}

// argTarget is the target whose argument is being typed, when it
// completes its argument itself; raw is what follows the name.
func (p *paletteScreen) argTarget() (t jumpTarget, raw string, ok bool) {
	name, _, spaced := p.typed()
	if !spaced {
		return jumpTarget{}, "", false
	}
	ms := p.matches(name)
	i := slices.IndexFunc(ms, func(t jumpTarget) bool { return t.name == name })
	if i < 0 && len(ms) == 1 {
		i = 0
	}
	if i < 0 || ms[i].completeArg == nil {
		return jumpTarget{}, "", false
	}
	_, raw, _ = strings.Cut(strings.TrimLeft(p.in.Value(), " "), " ")
	return ms[i], raw, true
}

// look reads the resource t names by id before going there: its screen
// is made and sent its first read, but shown only once it has the item.
func (p *paletteScreen) look(t jumpTarget, id string) tea.Cmd {
	p.drop()
	p.err = ""
	s := t.lookup(p.c, p.env, id)
	s.setSize(p.w, p.h)
	p.pending, p.what = s, t.name+" "+id
	return tea.Batch(s.init(), p.settle())
}

// settle ends the lookup once its first read has: an error stays in the
// palette with what to do, the item's screen replaces the trail.
func (p *paletteScreen) settle() tea.Cmd {
	l, ok := p.pending.(lookedUp)
	if !ok {
		return nil
	}
	done, err := l.lookedUp()
	if !done {
		return nil
	}
	s := p.pending
	p.pending = nil
	if err != nil {
		s.close()
		p.err = "Could not open " + p.what + ". " + p.c.explain(err, where{retry: p.keys.Go, typing: true})
		return nil
	}
	env := p.env.Name
	return func() tea.Msg { return jumpMsg{envTag: envTag{env}, s: s} }
}

// typed is the name typed so far and what follows it.
func (p *paletteScreen) typed() (name, arg string, spaced bool) {
	v := strings.TrimLeft(p.in.Value(), " ")
	name, arg, spaced = strings.Cut(v, " ")
	return strings.ToLower(name), strings.TrimSpace(arg), spaced
}

// matches are the targets whose name starts with prefix.
func (p *paletteScreen) matches(prefix string) []jumpTarget {
	var out []jumpTarget
	for _, t := range p.targets {
		if strings.HasPrefix(t.name, prefix) {
			out = append(out, t)
		}
	}
	return out
}

// complete extends the name to what its matches share, with a space after
// a whole name that takes an id.
func (p *paletteScreen) complete() {
	name, _, spaced := p.typed()
	p.tabbed = false
	if t, raw, ok := p.argTarget(); ok {
		h := t.completeArg(p.c, p.env, raw, true)
		p.tabbed = h.waiting
		p.in.SetValue(t.name + " " + h.done)
		p.in.CursorEnd()
		return
	}
	if spaced {
		return
	}
	ms := p.matches(name)
	if len(ms) == 0 {
		return
	}
	names := make([]string, len(ms))
	for i, t := range ms {
		names[i] = t.name
	}
	done := commonPrefix(names)
	if len(ms) == 1 && ms[0].arg != "" {
		done += " "
	}
	p.in.SetValue(done)
	p.in.CursorEnd()
}

// resolve finds the target typed: of those whose name it begins and that
// take what follows it (an id or nothing), the one named exactly, else
// the only one; err says what is wrong otherwise.
func (p *paletteScreen) resolve() (jumpTarget, string, string) {
	name, arg, _ := p.typed()
	if name == "" {
		return jumpTarget{}, "", "Type where to go: " + p.names() + "."
	}
	ms := p.matches(name)
	fit := slices.DeleteFunc(slices.Clone(ms), func(t jumpTarget) bool { return (t.arg != "") != (arg != "") })
	if i := slices.IndexFunc(fit, func(t jumpTarget) bool { return t.name == name }); i >= 0 {
		return fit[i], arg, ""
	}
	switch {
	case len(fit) == 1:
		return fit[0], arg, ""
	case len(fit) > 1:
		return jumpTarget{}, "", "“" + name + "” could be " + joinNames(fit) + ": type more or press tab."
	case len(ms) == 0:
		return jumpTarget{}, "", "Nothing is called “" + name + "”: " + p.names() + "."
	}
	t := ms[0]
	if t.arg != "" {
		article := "a "
		if t.arg == "ID" {
			article = "an "
		}
		return t, "", t.name + " needs " + article + t.arg + ": " + t.name + " " + t.arg + "."
	}
	return t, "", t.name + " takes nothing after it."
}

func (p *paletteScreen) names() string { return joinNames(p.targets) }

func joinNames(ts []jumpTarget) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = strings.TrimSpace(t.name + " " + t.arg)
	}
	return strings.Join(names, ", ")
}

// view is the screen under the palette with its last two lines given to
// the completions (or the error) and the prompt.
func (p *paletteScreen) view() string {
	if p.h <= 0 {
		return ""
	}
	st := p.c.styles
	prompt := trunc(p.in.View(), p.w)
	if p.h == 1 {
		return prompt
	}
	var note string
	switch name, _, spaced := p.typed(); {
	case p.pending != nil:
		note = p.c.spinFrame + " Looking up " + p.what + "…"
	case p.err != "":
		// The whole sentence, over the lines it needs.
		note = wrap(st.err.Render("✗ "+p.err), p.w)
	case spaced:
		if t, raw, ok := p.argTarget(); ok {
			note = st.dim.Render(t.completeArg(p.c, p.env, raw, false).note)
			break
		}
		if t, _, err := p.resolve(); err == "" || t.name != "" {
			note = st.dim.Render(strings.TrimSpace(t.name+" "+t.arg) + ": " + t.desc)
		}
	default:
		parts := []string{}
		for _, t := range p.matches(name) {
			parts = append(parts, st.bold.Render(t.name)+st.dim.Render(strings.TrimSuffix(" "+t.arg, " ")))
		}
		note = strings.Join(parts, "  ")
	}
	noteLines := min(strings.Count(note, "\n")+1, p.h-1)
	return fit(p.under.view(), p.w, p.h-1-noteLines) + "\n" + fit(note, p.w, noteLines) + "\n" + prompt
}
