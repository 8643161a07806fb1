package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/shellcmd"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// RequestLog is what the Requests view reads: the process's request log
// (*api.RequestLog), which never holds a token.
type RequestLog interface {
	// Entries are the kept requests, newest first.
	Entries() []api.Entry
	// Seq is the number the next request will get.
	Seq() uint64
}

// seqSpan is the requests [from, to) sent while one screen was on top.
type seqSpan struct{ from, to uint64 }

// requestMarks remembers which requests each screen of the stack sent: the
// ones that started while it was on top (its lists read while you look
// at them, and no screen under another one sends anything).
type requestMarks struct {
	log   RequestLog
	spans map[screen][]seqSpan
	top   screen
	since uint64
}

// track notes a change of the screen on top; stack is the whole
// navigation, whose closed screens are forgotten.
func (r *requestMarks) track(top screen, stack []screen) {
	if r.log == nil || top == r.top {
		return
	}
	now := r.log.Seq()
	if r.top != nil {
		if r.spans == nil {
			r.spans = map[screen][]seqSpan{}
		}
		r.spans[r.top] = append(r.spans[r.top], seqSpan{r.since, now})
	}
	r.top, r.since = top, now
	for s := range r.spans {
		if !slices.Contains(stack, s) {
			delete(r.spans, s)
		}
	}
}

// of are the spans of s, the one still open included when s is on top.
func (r *requestMarks) of(s screen) []seqSpan {
	out := slices.Clone(r.spans[s])
	if s == r.top {
		out = append(out, seqSpan{r.since, ^uint64(0)})
	}
	return out
}

// openRequests pushes the Requests view, marking the screen's own
// requests.
func (m *Model) openRequests() tea.Cmd {
	t := m.top()
	if _, already := t.(*requestsScreen); already || m.marks.log == nil {
		return nil
	}
	return push(m.env.Name, newRequestsScreen(m.c, m.env.Name, m.marks.log, t.title(), m.marks.of(t)))
}

type requestKeys struct {
	nav                    pagedlist.KeyMap
	Open, Copy, Curl, Read key.Binding
}

func newRequestKeys() requestKeys {
	return requestKeys{
		nav:  navKeys(),
		Open: openKey("show request"),
		Copy: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy as partnertui api")),
		Curl: key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "copy as curl")),
		Read: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "show new requests")),
	}
}

// requestsScreen lists the process's last requests, newest first, with
// those of the screen it was opened on marked.
type requestsScreen struct {
	c       *common
	env     config.EnvName // where it was opened: what it pushes goes there
	log     RequestLog
	keys    requestKeys
	under   string // the title of the screen it was opened on
	own     []seqSpan
	entries []api.Entry
	seen    uint64 // log.Seq() when entries were read
	cursor  int
	offset  int
	w, h    int
}

func newRequestsScreen(c *common, env config.EnvName, log RequestLog, under string, own []seqSpan) *requestsScreen {
	s := &requestsScreen{c: c, env: env, log: log, keys: newRequestKeys(), under: under, own: own}
	s.read()
	return s
}

// read takes the log's entries again, keeping the cursor on its request.
func (s *requestsScreen) read() {
	var at uint64
	if s.cursor < len(s.entries) {
		at = s.entries[s.cursor].Seq
	}
	s.entries, s.seen = s.log.Entries(), s.log.Seq()
	s.cursor = 0
	for i, e := range s.entries {
		if e.Seq == at {
			s.cursor = i
		}
	}
	s.syncKeys()
}

func (s *requestsScreen) init() tea.Cmd   { return nil }
func (s *requestsScreen) title() string   { return "Requests" }
func (s *requestsScreen) capturing() bool { return false }
func (s *requestsScreen) busy() bool      { return false }
func (s *requestsScreen) close()          {}
func (s *requestsScreen) setSize(w, h int) {
	s.w, s.h = w, h
	s.scroll()
}

func (s *requestsScreen) ShortHelp() []key.Binding {
	k := s.keys
	return enabled(k.Open, k.Copy, k.Curl, k.Read)
}

func (s *requestsScreen) FullHelp() [][]key.Binding {
	n := s.keys.nav
	return [][]key.Binding{{n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom}, s.ShortHelp()}
}

func (s *requestsScreen) syncKeys() {
	has := len(s.entries) > 0
	s.keys.Open.SetEnabled(has)
	s.keys.Copy.SetEnabled(has)
	s.keys.Curl.SetEnabled(has)
}

func (s *requestsScreen) update(tea.Msg) tea.Cmd { return nil }

func (s *requestsScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := s.keys
	if next, ok := k.nav.Move(msg, s.cursor, s.rows(), len(s.entries)-1); ok {
		s.cursor = next
		s.scroll()
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Read):
		s.read()
	case key.Matches(msg, k.Open):
		return push(s.env, newRequestScreen(s.c, s.entries[s.cursor])), true
	case key.Matches(msg, k.Copy):
		return s.c.copyCommand(s.entries[s.cursor]), true
	case key.Matches(msg, k.Curl):
		return s.c.copyCurl(s.entries[s.cursor]), true
	default:
		return nil, false
	}
	s.scroll()
	return nil, true
}

// rows is how many requests fit under the header.
func (s *requestsScreen) rows() int { return max(s.h-2, 1) }

func (s *requestsScreen) scroll() {
	s.cursor = min(max(s.cursor, 0), max(len(s.entries)-1, 0))
	rows := s.rows()
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+rows {
		s.offset = s.cursor - rows + 1
	}
}

func (s *requestsScreen) mine(e api.Entry) bool {
	for _, sp := range s.own {
		if e.Seq >= sp.from && e.Seq < sp.to {
			return true
		}
	}
	return false
}

func (s *requestsScreen) view() string {
	if s.h <= 0 {
		return ""
	}
	st := s.c.styles
	head := fmt.Sprintf("  %-5s %-8s %-7s %-*s %6s %7s %9s %-10s %s", "#", "UTC", "Env", s.opWidth(), "Operation", "Status", "Took", "Size", "Budget", "Waited")
	lines := []string{st.colHeader.Render(trunc(head, s.w))}
	if len(s.entries) == 0 {
		lines = append(lines, st.dim.Render("No request yet."))
	}
	end := min(s.offset+s.rows(), len(s.entries))
	for i := s.offset; i < end; i++ {
		row := trunc(s.row(s.entries[i]), s.w)
		if i == s.cursor {
			row = st.selected.Render(row + strings.Repeat(" ", max(s.w-len([]rune(row)), 0)))
		}
		lines = append(lines, row)
	}
	return fit(strings.Join(lines, "\n"), s.w, s.h-1) + "\n" + trunc(st.dimP.Render(s.status()), s.w)
}

// status is the screen's last line in its longest wording that fits the
// width: on 80 columns the legend and the demo's warning get shorter
// rather than the warning being cut (issue 32, item 21).
func (s *requestsScreen) status() string {
	newOnes := s.log.Seq() != s.seen
	read := s.keys.Read.Help().Key
	var last string
	for _, short := range []bool{false, true} {
		parts := []string{fmt.Sprintf("%d requests kept, newest first", len(s.entries)), "● sent by " + s.under}
		if short {
			parts[1] = "● " + s.under
		}
		if s.c.demo != nil {
			if short {
				parts = append(parts, "copies valid in this demo only")
			} else {
				parts = append(parts, "copies valid while this demo runs")
			}
		}
		if newOnes {
			if short {
				parts = append(parts, read+": new ones")
			} else {
				parts = append(parts, read+" shows the new ones")
			}
		}
		last = strings.Join(parts, " · ")
		if ansi.StringWidth(last) <= s.w {
			break
		}
	}
	return last
}

// opWidth is the operation column's: what the columns up to the size
// leave (the budget and the wait are cut first on a narrow terminal), up
// to the longest operation name the app sends.
func (s *requestsScreen) opWidth() int {
	const others = 2 + 6 + 9 + 8 + 7 + 8 + 10 + 1 // the other columns up to the size, with their spaces
	return min(max(s.w-others, 12), 34)
}

func (s *requestsScreen) row(e api.Entry) string {
	mark := " "
	if s.mine(e) {
		mark = "●"
	}
	status := "—"
	if e.Status != 0 {
		status = fmt.Sprint(e.Status)
	}
	budget := ""
	if e.Limit > 0 {
		budget = fmt.Sprintf("%d/%d", e.Used, e.Limit)
	}
	name := opName(e)
	if e.Err != "" || len(e.Errors) > 0 {
		name += " !"
	}
	w := s.opWidth()
	return fmt.Sprintf("%s %-5d %-8s %-7s %-*s %6s %7s %9s %-10s %s", mark, e.Seq, e.Time.UTC().Format("15:04:05"), e.Env,
		w, trunc(name, w), status, fmt.Sprintf("%dms", e.Duration.Milliseconds()), e.SizeText(), budget, e.WaitText())
}

// copyCommand copies e as a `partnertui api` command: under --demo one
// that runs against this demo (its configuration and its tokens), which
// exists only while it runs.
func (c *common) copyCommand(e api.Entry) tea.Cmd {
	if c.demo == nil {
		return copyCmd(c, e.Command(), "Copied as a partnertui api command")
	}
	cmd := shellcmd.API{Env: e.Env, Project: e.Project, Testing: e.Testing, OperationName: e.OperationName,
		Query: e.Query, Variables: e.Variables, At: c.demo}.String()
	return copyCmd(c, cmd, "Copied as a partnertui api command against this demo: valid only while it runs")
}

// copyCurl copies e as curl, which reads the token from $PARTNERTUI_TOKEN:
// under --demo after the line that sets it to this demo's token (partnertui
// token cannot reach the demo's from the real configuration), and a line
// that says it is valid only while the demo runs.
func (c *common) copyCurl(e api.Entry) tea.Cmd {
	if c.demo == nil {
		return copyCmd(c, e.Curl(), "Copied as curl: set "+shellcmd.TokenVariable+"=$(partnertui token) first")
	}
	text := "# Valid only while this partnertui --demo runs: its emulator and its tokens go when it quits.\n" +
		"export " + shellcmd.TokenVariable + "=\"$(" + shellcmd.Token(e.Env, e.Project, c.demo) + ")\"\n" + e.Curl()
	return copyCmd(c, text, "Copied as curl, after the line that sets this demo's token: valid only while the demo runs")
}

func opName(e api.Entry) string {
	name := e.Name
	if name == "" {
		name = "(anonymous)"
	}
	if e.Testing {
		name += " (Testing API)"
	}
	return name
}

// requestScreen is one request: what was asked, pretty-printed, and a
// summary of the answer.
type requestScreen struct {
	pager
	e    api.Entry
	keys requestKeys
}

func newRequestScreen(c *common, e api.Entry) *requestScreen {
	s := &requestScreen{e: e, keys: newRequestKeys()}
	s.pager = newPager(c, s.content)
	return s
}

func (s *requestScreen) title() string { return opName(s.e) }

func (s *requestScreen) ShortHelp() []key.Binding { return []key.Binding{s.keys.Copy, s.keys.Curl} }

func (s *requestScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.pager.navHelp(), s.ShortHelp()}
}

func (s *requestScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, s.keys.Copy):
		return s.c.copyCommand(s.e), true
	case key.Matches(msg, s.keys.Curl):
		return s.c.copyCurl(s.e), true
	}
	return s.pager.handleKey(msg)
}

func (s *requestScreen) content() string {
	st := s.c.styles
	e := s.e
	label := func(t string) string { return st.dim.Render(fmt.Sprintf("%-12s", t)) }
	var b strings.Builder
	line := func(parts ...string) { b.WriteString(strings.Join(parts, "") + "\n") }
	line(st.title.Render(opName(e)))
	line(label("Sent"), e.Time.UTC().Format("2006-01-02 15:04:05.000 UTC"), fmt.Sprintf("  (#%d)", e.Seq))
	token := "user token"
	if e.Project {
		token = "project token"
	}
	line(label("Endpoint"), "POST ", e.URL, st.dim.Render("  ("+e.Env+", "+token+")"))
	answer := "no answer"
	if e.Status != 0 {
		answer = fmt.Sprintf("HTTP %d · %s · %dms", e.Status, e.SizeText(), e.Duration.Milliseconds())
	}
	line(label("Answer"), answer)
	if e.Limit > 0 {
		line(label("Budget"), fmt.Sprintf("%d of %d when sent", e.Used, e.Limit))
	}
	if w := e.WaitText(); w != "" {
		line(label("Waited"), w)
	}
	if e.RetryAfter != "" {
		line(label("Retry-After"), e.RetryAfter)
	}
	switch {
	case e.Err != "":
		line(label("Failed"), st.err.Render(e.Err))
	case len(e.Errors) == 0:
		line(label("Errors"), "none")
	default:
		for i, msg := range e.Errors {
			l := ""
			if i == 0 {
				l = "Errors"
			}
			line(label(l), st.warn.Render(msg))
		}
	}
	if e.Answer != "" {
		// The error says what came in one sentence; this is its text.
		line()
		line(st.bold.Render("Answer"), st.dim.Render(" (its start: not the API's JSON)"))
		line(e.Answer)
	}
	line()
	line(st.bold.Render("Operation"))
	line(prettyOperation(e.Query))
	if len(e.Variables) > 0 {
		line()
		line(st.bold.Render("Variables"))
		v, _ := json.MarshalIndent(e.Variables, "", "  ")
		line(string(v))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// prettyOperation lays an operation out one field a line; a text that does
// not parse is shown as it is.
func prettyOperation(q string) string {
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		return strings.ReplaceAll(q, "\t", "    ")
	}
	var b bytes.Buffer
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatQueryDocument(doc)
	return strings.TrimSpace(b.String())
}
