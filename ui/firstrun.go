package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/partnertui/partnertui/internal/safetext"
)

// The first-run screen: plain `partnertui` on a machine with no
// configuration says what to do instead of failing with an error: try the
// demo at once, write the commented template, and where the credentials
// go. It is a program of its own, run before the app (which needs an
// environment to start on).

// FirstRunOptions are the first-run screen's.
type FirstRunOptions struct {
	// ConfigPath is where partnertui looks for its configuration.
	ConfigPath string
	// WriteTemplate writes the commented template at ConfigPath, as
	// `partnertui config init` does.
	WriteTemplate func() error
	// Exists: the file is there (a template not filled in yet), but no
	// environment in it has its credentials; nothing is offered to write.
	Exists  bool
	NoColor bool
}

// FirstRunChoice is what the user chose on the first-run screen.
type FirstRunChoice int

// The choices: to leave, or to start the demo.
const (
	FirstRunQuit FirstRunChoice = iota
	FirstRunDemo
)

// FirstRun shows the first-run screen until the user picks the demo or
// leaves.
func FirstRun(ctx context.Context, opts FirstRunOptions) (FirstRunChoice, error) {
	m := newFirstRun(opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	final, err := tea.NewProgram(m, popts...).Run()
	if err != nil && ctx.Err() != nil {
		return FirstRunQuit, nil
	}
	if err != nil {
		return FirstRunQuit, fmt.Errorf("the terminal UI failed: %w", err)
	}
	return final.(*firstRunModel).choice, nil
}

// firstRunKeys are the screen's keys; its hint line is drawn from them.
type firstRunKeys struct {
	Demo, Write, Quit key.Binding
}

func (k firstRunKeys) ShortHelp() []key.Binding { return []key.Binding{k.Demo, k.Write, k.Quit} }

type firstRunModel struct {
	opts   FirstRunOptions
	keys   firstRunKeys
	help   help.Model
	styles styles
	w, h   int
	// wrote is set once the template is written; problem when it could
	// not be.
	wrote   bool
	problem string
	choice  FirstRunChoice
}

func newFirstRun(opts FirstRunOptions) *firstRunModel {
	m := &firstRunModel{
		opts:   opts,
		styles: newStyles(true, opts.NoColor),
		help:   help.New(),
		w:      80, h: 24,
		keys: firstRunKeys{
			Demo:  key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "try the demo")),
			Write: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write the template")),
			Quit:  key.NewBinding(key.WithKeys("q", "esc", "ctrl+c"), key.WithHelp("q", "quit")),
		},
	}
	m.keys.Write.SetEnabled(!opts.Exists)
	return m
}

func (m *firstRunModel) Init() tea.Cmd { return tea.RequestBackgroundColor }

func (m *firstRunModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.styles = newStyles(msg.IsDark(), m.opts.NoColor)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Demo):
			m.choice = FirstRunDemo
			return m, tea.Quit
		case key.Matches(msg, m.keys.Write):
			if err := m.opts.WriteTemplate(); err != nil {
				m.problem = safetext.Strip(err.Error())
			} else {
				m.wrote, m.problem = true, ""
				m.keys.Write.SetEnabled(false)
			}
		}
	}
	return m, nil
}

func (m *firstRunModel) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

// render is the screen: what partnertui needs, the two ways on, and where
// the credentials go, wrapped to the width and cut to the height.
func (m *firstRunModel) render() string {
	s := m.styles
	w := max(m.w, 20)
	wrap := lipgloss.NewStyle().Width(w)
	path := safetext.Strip(m.opts.ConfigPath)
	var b strings.Builder
	b.WriteString(s.title.Render("partnertui") + s.dim.Render(" · first run") + "\n\n")
	switch {
	case m.wrote:
		b.WriteString(s.ok.Render("✓ Wrote the template (mode 0600):") + "\n  " + path + "\n")
		b.WriteString(wrap.Render("Fill in each environment's client_id and secret (below), then run partnertui again.") + "\n\n")
	case m.opts.Exists:
		b.WriteString("No environment has its credentials yet in\n  " + path + "\n")
		b.WriteString(wrap.Render("Fill in client_id and the secret of one (below), then run partnertui again.") + "\n\n")
	default:
		b.WriteString("No configuration yet. partnertui reads it from\n  " + path + "\n")
		b.WriteString(wrap.Render("(or from the file $PARTNERTUI_CONFIG or --config names).") + "\n\n")
	}
	// Each choice: its key, then its text wrapped under itself.
	item := func(k key.Binding, text string) {
		if !k.Enabled() {
			return
		}
		keyCol := s.accent.Render("  " + k.Help().Key + "  ")
		textCol := lipgloss.NewStyle().Width(max(w-lipgloss.Width(keyCol), 10)).Render(text)
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, keyCol, textCol) + "\n")
	}
	item(m.keys.Demo, "Try it now: the whole app on a built-in emulator of the platform, with demo users and data; no account or credentials needed (partnertui --demo).")
	item(m.keys.Write, "Write a commented template there (partnertui config init), to fill in.")
	b.WriteString("\n" + wrap.Render("Your credentials come from the dashboard, one table per environment; keep secrets out of the file:") + "\n")
	for _, l := range []string{
		"[sandbox]",
		`client_id = "SANDBOX_…"`,
		`client_secret_env = "PARTNERTUI_SANDBOX_SECRET"`,
		`redirect_uri = "http://127.0.0.1/callback"   # register exactly this`,
		"[live]",
		`client_id = "LIVE_…"`,
		`client_secret_command = "pass show partner/live"`,
	} {
		b.WriteString(s.dim.Render("  "+l) + "\n")
	}
	if m.problem != "" {
		b.WriteString("\n" + wrap.Render(s.err.Render("✗ "+m.problem)) + "\n")
	}
	body := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	hint := m.help.ShortHelpView(enabled(m.keys.ShortHelp()...))
	room := max(m.h-2, 1)
	if len(body) > room {
		body = body[:room]
	}
	for len(body) < room {
		body = append(body, "")
	}
	lines := append(body, "", hint)
	for i, l := range lines {
		lines[i] = trunc(l, w)
	}
	return strings.Join(lines, "\n")
}
