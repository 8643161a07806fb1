package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/iban"
)

type simPanelKeys struct {
	Open                 key.Binding // s, on the screen that offers simulations
	Prev, Next           key.Binding // another simulation
	NextField, PrevField key.Binding
	Run, Cancel          key.Binding
}

func newSimPanelKeys(desc string) simPanelKeys {
	return simPanelKeys{
		Open:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", desc)),
		Prev:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous simulation")),
		Next:      key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next simulation")),
		NextField: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		PrevField: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous field")),
		Run:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Cancel:    escKey("cancel"),
	}
}

// simPanel is a screen's simulation menu: s opens it at the bottom of the
// screen with the first simulation that fits chosen and its form's first
// field focused; ↑/↓ choose another, tab moves between fields, enter runs
// it with what was typed or the defaults shown, esc closes it. While it is
// open every key goes to it.
type simPanel struct {
	c    *common
	keys simPanelKeys
	acts []simAction
	cur  int
	in   []textinput.Model
	// focus is the focused field.
	focus int
	err   error
	open  bool
	// id is the running simulation's request id, 0 when none runs.
	id      int
	running string
}

// simFieldWidth is the width of a form's field.
const simFieldWidth = 44

func newSimPanel(c *common, desc string) *simPanel {
	return &simPanel{c: c, keys: newSimPanelKeys(desc)}
}

// busy reports whether a simulation runs.
func (p *simPanel) busy() bool { return p.id != 0 }

// show opens the panel on acts; nothing fits when acts is empty.
func (p *simPanel) show(acts []simAction) tea.Cmd {
	if len(acts) == 0 {
		return nil
	}
	p.acts, p.open, p.err = acts, true, nil
	return p.choose(0)
}

// choose makes simulation i the chosen one, with an empty form.
func (p *simPanel) choose(i int) tea.Cmd {
	p.cur, p.focus, p.err = i, 0, nil
	fs := p.acts[i].fields
	p.in = make([]textinput.Model, len(fs))
	for j, f := range fs {
		// The labels line up, and a long one keeps a space before its
		// value.
		p.in[j] = newTextInput(fmt.Sprintf("%-11s ", f.label+":"), f.def, 64)
		p.in[j].SetStyles(p.c.inputStyles())
		// Wide enough for a formatted IBAN; the line is cut to the screen.
		p.in[j].SetWidth(simFieldWidth)
	}
	if len(p.in) == 0 {
		return nil
	}
	return p.in[0].Focus()
}

// value is field j as typed, "" when the panel is closed.
func (p *simPanel) value(j int) string {
	if !p.open || j >= len(p.in) {
		return ""
	}
	return p.in[j].Value()
}

func (p *simPanel) close() {
	p.open = false
	for j := range p.in {
		p.in[j].Blur()
	}
}

// syncKeys enables the keys that do something now; open is whether the
// screen offers a simulation at all.
func (p *simPanel) syncKeys(offered bool) {
	k := &p.keys
	k.Open.SetEnabled(offered && !p.open && !p.busy())
	many := p.open && len(p.acts) > 1
	k.Prev.SetEnabled(many)
	k.Next.SetEnabled(many)
	fields := p.open && len(p.in) > 1
	k.NextField.SetEnabled(fields)
	k.PrevField.SetEnabled(fields)
	k.Run.SetEnabled(p.open)
	k.Cancel.SetEnabled(p.open)
}

// help is the panel's keys while it is open.
func (p *simPanel) help() []key.Binding {
	k := p.keys
	return []key.Binding{k.Run, k.Prev, k.Next, k.NextField, k.PrevField, k.Cancel}
}

// handleKey takes every key while the panel is open; run starts the
// chosen simulation on ctx in env.
func (p *simPanel) handleKey(msg tea.KeyPressMsg, ctx context.Context, env config.EnvName) tea.Cmd {
	k := p.keys
	n := len(p.acts)
	switch {
	case key.Matches(msg, k.Cancel):
		p.close()
		return nil
	case key.Matches(msg, k.Prev):
		return p.choose((p.cur + n - 1) % n)
	case key.Matches(msg, k.Next):
		return p.choose((p.cur + 1) % n)
	case key.Matches(msg, k.NextField), key.Matches(msg, k.PrevField):
		step := 1
		if key.Matches(msg, k.PrevField) {
			step = len(p.in) - 1
		}
		p.in[p.focus].Blur()
		p.focus = (p.focus + step) % len(p.in)
		return p.in[p.focus].Focus()
	case key.Matches(msg, k.Run):
		return p.run(ctx, env)
	}
	if len(p.in) == 0 {
		return nil
	}
	p.err = nil
	_, cmd := editInput(&p.in[p.focus], msg)
	return cmd
}

// paste goes to the focused field.
func (p *simPanel) paste(msg tea.PasteMsg) tea.Cmd {
	if !p.open || len(p.in) == 0 {
		return nil
	}
	_, cmd := editInput(&p.in[p.focus], msg)
	return cmd
}

// run checks the form and starts the simulation; a wrong value keeps the
// form open and says what is wrong.
func (p *simPanel) run(ctx context.Context, env config.EnvName) tea.Cmd {
	act := p.acts[p.cur]
	vals := make([]string, len(act.fields))
	for j, f := range act.fields {
		v := p.in[j].Value()
		if v == "" {
			v = f.def
		}
		if f.amount {
			a, err := positiveAmount(v)
			if err != nil {
				p.err = err
				return nil
			}
			v = a
		}
		if f.iban {
			// The platform would refuse it, or the transfer would go
			// nowhere: said here, before anything is sent.
			if err := iban.Check(v); err != nil {
				p.err = fmt.Errorf("enter a valid IBAN (%w)", err)
				return nil
			}
		}
		if v == "" {
			p.err = fmt.Errorf("enter the %s", strings.ToLower(f.label))
			return nil
		}
		vals[j] = v
	}
	p.close()
	p.id, p.running = p.c.nextID(), act.name
	id := p.id
	p.c.log.Info("running a simulation", "env", string(env), "simulation", act.name)
	return p.c.task(func() tea.Msg {
		out, err := act.run(ctx, vals)
		return simDoneMsg{envTag{env}, id, act.name, out, err}
	})
}

// done takes the answer of the panel's simulation; it reports whether msg
// was it.
func (p *simPanel) done(msg simDoneMsg) bool {
	if msg.id != p.id || msg.id == 0 {
		return false
	}
	p.id, p.running = 0, ""
	return true
}

// lines are the panel as drawn at the bottom of the screen: the chosen
// simulation among the others, its fields, what is wrong; while one runs,
// a line saying so.
func (p *simPanel) lines(w int) []string {
	st := p.c.styles
	if p.busy() {
		return []string{trunc(p.c.spinFrame+" Simulating: "+p.running+"…", w)}
	}
	if !p.open {
		return nil
	}
	head := st.title.Render("Simulate ") + st.accent.Render("▸ "+p.acts[p.cur].name)
	if len(p.acts) > 1 {
		others := ""
		for i, a := range p.acts {
			if i != p.cur {
				others = joinNonEmpty(" · ", others, a.name)
			}
		}
		head += st.dim.Render("  ↑/↓: " + others)
	}
	out := []string{trunc(head, w)}
	for j := range p.in {
		mark := "  "
		if j == p.focus {
			mark = st.accent.Render("›") + " "
		}
		out = append(out, trunc(mark+p.in[j].View(), w))
	}
	if p.err != nil {
		out = append(out, trunc(st.err.Render("✗ "+p.err.Error()), w))
	}
	return out
}
