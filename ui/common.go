package ui

import (
	"context"
	"errors"
	"image/color"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/shellcmd"
	"github.com/partnertui/partnertui/ui/internal/termline"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// common is what every screen shares: styles, the clock, the log and the
// request ids. It replaces package-level state so that tests can run
// several models side by side. It holds no size: each screen owns its own.
type common struct {
	isDark    bool
	noColor   bool
	styles    styles
	now       func() time.Time
	log       *slog.Logger
	clipboard func(string) tea.Cmd
	// tick is tea.Tick; tests substitute one they fire by hand.
	tick   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	reqSeq int
	// spinFrame is the root spinner's current frame, set when it turns, for
	// the screens that show what they wait for.
	spinFrame string
	// getenv is Options.Getenv; headless is auth.Headless of it: no
	// browser started here would reach the user.
	getenv   func(string) string
	headless bool
	// openURL is Options.OpenURL: it starts the user's browser on a page;
	// opens is auth.CanOpen of getenv: a page opened would reach the user.
	openURL func(ctx context.Context, url string) error
	opens   bool
	// consentRedirect is Options.ConsentRedirect; nil when none.
	consentRedirect func() (string, error)
	// views is the table of views (views.go), made once.
	views []view
	// logged: the app has the request log (L), where an error of a
	// request is read whole.
	logged bool
	// demo is Options.Demo: where a copied request runs; nil when the
	// user's own setup does.
	demo *shellcmd.Place
}

// nextID hands out request ids. They increase across screens and
// environments so that a response can never be mistaken for a newer request.
func (c *common) nextID() int {
	c.reqSeq++
	return c.reqSeq
}

// task wraps asynchronous work so that a panic inside it is logged and turned
// into a message instead of killing the program with a stack on the screen.
func (c *common) task(f func() tea.Msg) tea.Cmd {
	log := c.log
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = crashMsg{reason: r, stack: stackTrace()}
				log.Error("panic in background task", "panic", r, "stack", string(msg.(crashMsg).stack))
			}
		}()
		return f()
	}
}

// listRun runs a paged list's requests for env: as tasks, their answers
// tagged with the environment so the root can tell a stale one.
func (c *common) listRun(env config.EnvName) func(func() tea.Msg) tea.Cmd {
	return func(f func() tea.Msg) tea.Cmd {
		return c.task(func() tea.Msg { return listMsg{envTag{env}, f()} })
	}
}

// projectListRun is listRun for a list read with the project-token client:
// its answers carry no msgErr (see projectListMsg).
func (c *common) projectListRun(env config.EnvName) func(func() tea.Msg) tea.Cmd {
	return func(f func() tea.Msg) tea.Cmd {
		return c.task(func() tea.Msg { return projectListMsg{envTag{env}, f()} })
	}
}

// envState is one configured environment plus what the UI has learnt about it.
type envState struct {
	*Environment
	ctx    context.Context
	cancel context.CancelFunc
	status api.Status
	// projectStatus is the project-token client's, when it is not API.
	projectStatus api.Status
	owner         *owner
	expiry        time.Time
	// places are the screens left open when the user switched to the
	// other environment, opened again on the way back; homeQuery the
	// account list's order and search then.
	places    []place
	homeQuery *accountsQuery
	// views are the accounts seen last, shown at once when opened again;
	// events the Events view's first pages, by query.
	views  viewCache
	events eventsCache
	// charts are the balance charts of the accounts seen last.
	charts chartsKept
	// warmed: the project token was fetched ahead after the first screen
	// since the launch or the last switch to this environment.
	warmed bool
	// early is the first screen's answer when Prefetch asked for it before
	// the UI started; the account list takes it once.
	early <-chan homeAnswer
	// schema is the partner API's schema, for the view of anything.
	schema knownSchema
}

// forgetUser forgets what the signed-in user's token read: who they are
// and the accounts they saw, which whoever signs in next must not see
// (even from memory). The project token's event log stays.
func (e *envState) forgetUser() {
	e.owner = nil
	e.views.clear()
	e.charts.clear()
}

// owner is who the token belongs to, as the footer and sign-in show it:
// the signed-in user, or the project.
type owner struct {
	name    string
	phone   string
	project bool
}

func ownerOf(h *api.Home) *owner {
	switch {
	case h == nil:
		return nil
	case h.Project != nil:
		return &owner{name: h.Project.Name, project: true}
	case h.User != nil:
		return userOwner(h.User)
	}
	return nil
}

func userOwner(u *api.User) *owner {
	name := u.FullName
	if name == "" {
		name = strings.TrimSpace(u.FirstName + " " + u.LastName)
	}
	return &owner{name: name, phone: u.MobilePhoneNumber}
}

// styles holds every lipgloss style; they are rebuilt when the terminal
// reports its background colour so that both light and dark themes work.
type styles struct {
	header, title, dim, bold, err, warn, ok, accent lipgloss.Style
	// hint is a field's placeholder and suggestion: text the user did not
	// type, never to be read as a value (italic, and faint without
	// colour, where dim alone would look typed).
	hint                      lipgloss.Style
	sandboxBadge, liveBadge   lipgloss.Style
	selected, cell, colHeader lipgloss.Style
	footer, countdown         lipgloss.Style
	spinner                   lipgloss.Style
	// dimP is dim reduced to escapes, for lines redrawn on every key.
	dimP termline.Paint
}

func newStyles(isDark, noColor bool) styles {
	s := styles{
		bold:      lipgloss.NewStyle().Bold(true),
		title:     lipgloss.NewStyle().Bold(true),
		dim:       lipgloss.NewStyle(),
		err:       lipgloss.NewStyle().Bold(true),
		warn:      lipgloss.NewStyle().Bold(true),
		ok:        lipgloss.NewStyle(),
		accent:    lipgloss.NewStyle().Bold(true),
		header:    lipgloss.NewStyle(),
		footer:    lipgloss.NewStyle(),
		countdown: lipgloss.NewStyle().Bold(true),
		spinner:   lipgloss.NewStyle(),
		cell:      lipgloss.NewStyle(),
		colHeader: lipgloss.NewStyle().Bold(true),
		// Reverse video marks the cursor row even without colour.
		selected: lipgloss.NewStyle().Reverse(true),
		// Without colour the badges still differ: Live is reversed, and its
		// text is unmistakable.
		sandboxBadge: lipgloss.NewStyle().Bold(true).Padding(0, 1),
		liveBadge:    lipgloss.NewStyle().Bold(true).Reverse(true).Padding(0, 1),
	}
	if noColor {
		s.hint = lipgloss.NewStyle().Faint(true).Italic(true)
		s.dimP = termline.New(s.dim)
		return s
	}
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(dark)) }
	s.dim = s.dim.Foreground(c("#6c6c6c", "#8a8a8a"))
	s.err = s.err.Foreground(c("#c0001a", "#ff5f5f"))
	s.warn = s.warn.Foreground(c("#9a6700", "#ffd75f"))
	s.ok = s.ok.Foreground(c("#1a7f37", "#5fd75f"))
	s.accent = s.accent.Foreground(c("#005f87", "#5fd7ff"))
	s.title = s.title.Foreground(c("#005f87", "#87d7ff"))
	s.countdown = s.countdown.Foreground(c("#c0001a", "#ff8787"))
	s.spinner = s.spinner.Foreground(c("#005f87", "#5fd7ff"))
	s.footer = s.footer.Foreground(c("#3a3a3a", "#c6c6c6"))
	s.colHeader = s.colHeader.Foreground(c("#005f87", "#87d7ff"))
	s.selected = lipgloss.NewStyle().Bold(true).
		Foreground(c("#000000", "#000000")).Background(c("#87d7ff", "#5fafd7"))
	s.sandboxBadge = s.sandboxBadge.Foreground(lipgloss.Color("#000000")).Background(c("#ffd700", "#d7af00"))
	// Live is white on red whatever the background: it must never be missed.
	s.liveBadge = lipgloss.NewStyle().Bold(true).Padding(0, 1).
		Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#d70000"))
	s.hint = s.dim.Italic(true)
	s.dimP = termline.New(s.dim)
	return s
}

// listStyles are a paged list's styles.
func (s styles) list() pagedlist.Styles {
	return pagedlist.Styles{Header: s.colHeader, Selected: s.selected, Placeholder: s.dim}
}

// newTextInput is a one-line bubbles text field for the screens' prompts.
// ctrl+v is switched off: terminals deliver a paste as tea.PasteMsg anyway,
// and textinput's ctrl+v reads the OS clipboard through xclip or xsel,
// whose absence would fail silently.
func newTextInput(prompt, placeholder string, limit int) textinput.Model {
	in := textinput.New()
	in.Prompt, in.Placeholder, in.CharLimit = prompt, placeholder, limit
	in.KeyMap.Paste.SetEnabled(false)
	return in
}

// inputStyles themes a text field like the rest of the UI. The cursor does
// not blink: blinking ticks twice a second for as long as the field is open
// and redraws the whole screen each time.
func (c *common) inputStyles() textinput.Styles {
	s := textinput.DefaultStyles(c.isDark)
	s.Cursor.Blink = false
	// The defaults draw the prompt and cursor in ANSI colour 7, which is
	// faint on a light background; the terminal's own foreground reads on
	// both, and the reversed cursor cell needs no colour to show.
	plain := lipgloss.NewStyle()
	s.Focused.Prompt, s.Focused.Text, s.Blurred.Prompt = plain, plain, plain
	s.Cursor.Color = lipgloss.NoColor{}
	// What the user did not type never looks typed.
	s.Focused.Placeholder, s.Blurred.Placeholder = c.styles.hint, c.styles.hint
	s.Focused.Suggestion, s.Blurred.Suggestion = c.styles.hint, c.styles.hint
	if c.noColor {
		s.Blurred.Text = plain
	}
	return s
}

// editInput passes msg to a text field and reports whether its value
// changed. A paste is stripped of escape sequences first: the field drops
// control characters but would keep the printable rest of "\x1b[31m".
func editInput(in *textinput.Model, msg tea.Msg) (bool, tea.Cmd) {
	if p, ok := msg.(tea.PasteMsg); ok {
		msg = tea.PasteMsg{Content: ansi.Strip(p.Content)}
	}
	before := in.Value()
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	return in.Value() != before, cmd
}

// copyCmd copies text and says so.
func copyCmd(c *common, text, done string) tea.Cmd {
	return tea.Batch(c.clipboard(text), func() tea.Msg { return flashMsg{text: done} })
}

// badge renders the environment badge, the first thing in header and footer.
func (c *common) badge(name config.EnvName) string {
	if name == config.Live {
		return c.styles.liveBadge.Render(BadgeLive)
	}
	return c.styles.sandboxBadge.Render(BadgeSandbox)
}

// envTitle is the environment's display name.
func envTitle(name config.EnvName) string { return platform.EnvTitle(string(name)) }

// trunc cuts s to w cells with an ellipsis, never below zero width.
func trunc(s string, w int) string { return termline.Trunc(s, w) }

// fit truncates every line of s to w cells and pads or clips it to exactly h
// lines, so that no screen can push the footer off or wrap a line.
func fit(s string, w, h int) string {
	if h <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = trunc(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// listView assembles a list screen's body: the list (or, with no rows, its
// title and what an empty list means there, wrapped), the error lines
// (errLines) and the status line; exactly h lines. empty is asked only
// when there are no rows: the words cost allocations on every key press.
func (c *common) listView(list interface {
	Len() int
	View() string
}, title string, empty func() string, errs []string, status string, w, h int) string {
	var b strings.Builder
	if listH := h - 1 - len(errs); listH > 0 {
		if list.Len() == 0 {
			wrapped := lipgloss.NewStyle().Width(max(w, 1)).Render(empty())
			b.WriteString(fit(c.styles.colHeader.Render(title)+"\n"+wrapped, w, listH))
		} else {
			b.WriteString(list.View())
		}
		b.WriteByte('\n')
	}
	for _, l := range errs {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(status)
	return b.String()
}

// shortDuration renders d as "12s", "4m", "1h05m".
func shortDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d.Round(time.Second)/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	default:
		h := int(d / time.Hour)
		m := int((d % time.Hour) / time.Minute)
		return strconv.Itoa(h) + "h" + pad2(m) + "m"
	}
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// keepErr stores a failed request's error for the screen to show, unless
// the screen cancelled the request itself.
func keepErr(dst *error, err error) {
	if !errors.Is(err, context.Canceled) {
		*dst = err
	}
}

// plural is an English noun's plural: "failure" → "failures", and the
// nouns that end in a hiss take "es" ("success" → "successes").
func plural(noun string) string {
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return noun + "es"
		}
	}
	return noun + "s"
}

// wrap breaks s into lines of at most w cells, between words where it can:
// for a sentence that must be read whole, such as an error.
func wrap(s string, w int) string { return lipgloss.NewStyle().Width(max(w, 1)).Render(s) }
