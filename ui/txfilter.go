package ui

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
)

// txFilter is what the transactions are filtered on: the schema's
// TransactionsFiltersInput as a person sets it.
type txFilter struct {
	statuses string // comma-separated TransactionStatus values
	types    string // comma-separated TransactionTypeEnum values
	from, to time.Time
	min, max string
	search   string
}

func (f txFilter) set() bool { return f != txFilter{} }

// apply puts the filters in p. The range's end day is included: the
// platform's isBeforeExecutionDate is not.
func (f txFilter) apply(p *api.TransactionsParams) {
	p.Status = splitList(f.statuses)
	p.Type = splitList(f.types)
	p.IsAfterExecutionDate = f.from
	if !f.to.IsZero() {
		p.IsBeforeExecutionDate = f.to.AddDate(0, 0, 1)
	}
	p.IsAboveAmount, p.IsBelowAmount = f.min, f.max
	p.Search = f.search
}

// summary is the filters in a few words for the status line.
func (f txFilter) summary() string {
	var parts []string
	add := func(label, v string) {
		if v != "" {
			parts = append(parts, label+v)
		}
	}
	add("status ", f.statuses)
	add("type ", f.types)
	add("from ", dayText(f.from))
	add("to ", dayText(f.to))
	add("≥ ", f.min)
	add("≤ ", f.max)
	if f.search != "" {
		parts = append(parts, "“"+f.search+"”")
	}
	return strings.Join(parts, " · ")
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// The form's fields, in order.
const (
	filterStatus = iota
	filterType
	filterFrom
	filterTo
	filterMin
	filterMax
	filterSearch
)

type filterField struct {
	label string
	hint  string
	in    textinput.Model
	// choices complete the field's last comma-separated value.
	choices []string
}

type formKeys struct {
	Apply, Cancel, Next, Prev, Up, Down key.Binding
}

// formOutcome is what a key did to the form.
type formOutcome int

const (
	formKept formOutcome = iota
	formApplied
	formCancelled
)

// txFilterForm edits a txFilter: one field per filter, checked before it
// is applied, statuses and types completed with tab.
type txFilterForm struct {
	c      *common
	keys   formKeys
	fields []filterField
	focus  int
	err    error
	w, h   int
	// result is the filter once applied.
	result txFilter
}

func newTxFilterForm(c *common, f txFilter, focus int) *txFilterForm {
	k := formKeys{
		Apply:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Cancel: escKey("cancel"),
		Next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete/next")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
		Up:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous field")),
		Down:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next field")),
	}
	field := func(label, hint, value string, limit int, choices []string) filterField {
		in := newTextInput("", hint, limit)
		in.SetValue(value)
		return filterField{label: label, hint: hint, in: in, choices: choices}
	}
	fm := &txFilterForm{c: c, keys: k, focus: focus, fields: []filterField{
		field("Status", "comma-separated; tab completes", f.statuses, 200, api.TransactionStatuses()),
		field("Type", "comma-separated; tab completes", f.types, 400, api.TransactionTypes()),
		field("From", "execution date, YYYY-MM-DD", dayText(f.from), 10, nil),
		field("To", "execution date, YYYY-MM-DD, included", dayText(f.to), 10, nil),
		field("Min", "amount, such as 100 or 12.50", f.min, 12, nil),
		field("Max", "amount", f.max, 12, nil),
		field("Search", "label, reference, counterparty", f.search, 100, nil),
	}}
	fm.restyle()
	return fm
}

func (f *txFilterForm) restyle() {
	for i := range f.fields {
		f.fields[i].in.SetStyles(f.c.inputStyles())
	}
}

func (f *txFilterForm) setSize(w, h int) {
	f.w, f.h = w, h
	for i := range f.fields {
		f.fields[i].in.SetWidth(max(w-12, 8))
	}
}

// focusCmd focuses the current field (its cursor shows).
func (f *txFilterForm) focusCmd() tea.Cmd {
	for i := range f.fields {
		f.fields[i].in.Blur()
	}
	f.fields[f.focus].in.CursorEnd()
	return f.fields[f.focus].in.Focus()
}

func (f *txFilterForm) ShortHelp() []key.Binding {
	return []key.Binding{f.keys.Apply, f.keys.Cancel, f.keys.Next, f.keys.Up, f.keys.Down}
}

func (f *txFilterForm) FullHelp() [][]key.Binding {
	return [][]key.Binding{{f.keys.Apply, f.keys.Cancel, f.keys.Next, f.keys.Prev, f.keys.Up, f.keys.Down}}
}

func (f *txFilterForm) move(d int) tea.Cmd {
	f.focus = (f.focus + d + len(f.fields)) % len(f.fields)
	return f.focusCmd()
}

func (f *txFilterForm) handleKey(msg tea.KeyPressMsg) (tea.Cmd, formOutcome) {
	k := f.keys
	switch {
	case key.Matches(msg, k.Apply):
		r, err := f.parse()
		if err != nil {
			f.err = err
			return nil, formKept
		}
		f.result = r
		return nil, formApplied
	case key.Matches(msg, k.Cancel):
		return nil, formCancelled
	case key.Matches(msg, k.Next):
		if f.complete() {
			return nil, formKept
		}
		return f.move(1), formKept
	case key.Matches(msg, k.Prev), key.Matches(msg, k.Up):
		return f.move(-1), formKept
	case key.Matches(msg, k.Down):
		return f.move(1), formKept
	}
	changed, cmd := editInput(&f.fields[f.focus].in, msg)
	if changed {
		f.err = nil
	}
	return cmd, formKept
}

func (f *txFilterForm) paste(msg tea.PasteMsg) tea.Cmd {
	_, cmd := editInput(&f.fields[f.focus].in, msg)
	return cmd
}

// token is the focused field's last comma-separated value and what
// precedes it.
func (f *txFilterForm) token() (head, tok string) {
	v := f.fields[f.focus].in.Value()
	i := strings.LastIndex(v, ",") + 1
	i += len(v[i:]) - len(strings.TrimLeft(v[i:], " "))
	return v[:i], strings.TrimSpace(v[i:])
}

// candidates are the choices the focused field's last value may become,
// leaving out those already given.
func (f *txFilterForm) candidates() []string {
	fl := &f.fields[f.focus]
	if fl.choices == nil {
		return nil
	}
	head, tok := f.token()
	given := splitList(head)
	var out []string
	for _, c := range fl.choices {
		if strings.HasPrefix(strings.ToLower(c), strings.ToLower(tok)) && !slices.Contains(given, c) {
			out = append(out, c)
		}
	}
	return out
}

// complete extends the focused field's last value to what all its
// candidates share (the whole of the only one); it reports whether the
// value changed.
func (f *txFilterForm) complete() bool {
	_, tok := f.token()
	cands := f.candidates()
	if tok == "" || len(cands) == 0 {
		return false
	}
	done := commonPrefix(cands)
	if len(cands) == 1 {
		done = cands[0]
	}
	if done == tok {
		return false
	}
	head, _ := f.token()
	in := &f.fields[f.focus].in
	in.SetValue(head + done)
	in.CursorEnd()
	return true
}

// commonPrefix is the longest prefix all of ss share.
func commonPrefix(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// parse checks every field and returns the filter, or what is wrong with
// the first field that is.
func (f *txFilterForm) parse() (txFilter, error) {
	var r txFilter
	var err error
	val := func(i int) string { return strings.TrimSpace(f.fields[i].in.Value()) }
	if r.statuses, err = canonicalList(val(filterStatus), api.TransactionStatuses(), "status"); err != nil {
		return r, f.at(filterStatus, err)
	}
	if r.types, err = canonicalList(val(filterType), api.TransactionTypes(), "transaction type"); err != nil {
		return r, f.at(filterType, err)
	}
	if r.from, err = parseDay(val(filterFrom)); err != nil {
		return r, f.at(filterFrom, err)
	}
	if r.to, err = parseDay(val(filterTo)); err != nil {
		return r, f.at(filterTo, err)
	}
	if !r.from.IsZero() && !r.to.IsZero() && r.to.Before(r.from) {
		return r, f.at(filterTo, fmt.Errorf("%s is before the start of the range, %s", dayText(r.to), dayText(r.from)))
	}
	if r.min, err = parseAmount(val(filterMin)); err != nil {
		return r, f.at(filterMin, err)
	}
	if r.max, err = parseAmount(val(filterMax)); err != nil {
		return r, f.at(filterMax, err)
	}
	if r.min != "" && r.max != "" {
		lo, _ := strconv.ParseFloat(r.min, 64)
		hi, _ := strconv.ParseFloat(r.max, 64)
		if hi < lo {
			return r, f.at(filterMax, fmt.Errorf("%s is below the minimum, %s", r.max, r.min))
		}
	}
	r.search = val(filterSearch)
	return r, nil
}

// at moves the focus to the field that is wrong and names it.
func (f *txFilterForm) at(i int, err error) error {
	f.focus = i
	f.focusCmd()
	return fmt.Errorf("%s: %w", f.fields[i].label, err)
}

// canonicalList checks a comma-separated list against the schema's
// values, whatever the case typed, and returns it as the schema spells it.
func canonicalList(v string, allowed []string, what string) (string, error) {
	var out []string
	for _, s := range splitList(v) {
		i := slices.IndexFunc(allowed, func(a string) bool { return strings.EqualFold(a, s) })
		if i < 0 {
			return "", fmt.Errorf("“%s” is not a %s; tab completes what you type", s, what)
		}
		if !slices.Contains(out, allowed[i]) {
			out = append(out, allowed[i])
		}
	}
	return strings.Join(out, ","), nil
}

func parseDay(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("“%s” is not a date such as 2026-11-01", v)
	}
	return t, nil
}

// amountRE is compiled on first use: package initialisation runs before
// every command, most of which never parse an amount.
var amountRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{1,9}(\.[0-9]{1,2})?$`) })

// parseAmount checks an amount typed in the filters or the simulate
// prompt; a decimal comma is taken for a point, as people type both.
func parseAmount(v string) (string, error) {
	v = strings.ReplaceAll(v, ",", ".")
	if v == "" || amountRE().MatchString(v) {
		return v, nil
	}
	return "", errors.New("“" + v + "” is not an amount such as 100 or 12.50")
}

func (f *txFilterForm) view() string {
	st := f.c.styles
	lines := []string{st.title.Render("Filter transactions")}
	for i := range f.fields {
		fl := &f.fields[i]
		mark := "  "
		if i == f.focus {
			mark = st.accent.Render("›") + " "
		}
		lines = append(lines, trunc(mark+st.dim.Render(fmt.Sprintf("%-8s", fl.label))+fl.in.View(), f.w))
	}
	lines = append(lines, "")
	if f.err != nil {
		lines = append(lines, wrap(st.err.Render("✗ "+f.err.Error()), f.w))
	} else if c := f.candidates(); len(c) > 0 {
		lines = append(lines, wrapWords(st.dim.Render("  "+f.fields[f.focus].hint+":"), c, f.w, f.h-len(lines))...)
	} else {
		lines = append(lines, st.dim.Render("  "+f.fields[f.focus].hint))
	}
	return fit(strings.Join(lines, "\n"), f.w, f.h)
}

// wrapWords lays words out after lead in lines of width w, at most room
// of them; when they do not all fit, the last line says how many are left
// out, so that none is dropped silently.
func wrapWords(lead string, words []string, w, room int) []string {
	lay := func(words []string, tail string) []string {
		lines := []string{lead}
		for _, word := range append(words, tail) {
			if word == "" {
				continue
			}
			last := &lines[len(lines)-1]
			if lipgloss.Width(*last)+1+lipgloss.Width(word) <= w {
				*last += " " + word
			} else {
				lines = append(lines, word)
			}
		}
		return lines
	}
	tail := func(n int) string {
		if n == len(words) {
			return ""
		}
		return fmt.Sprintf("+%d more: type more letters", len(words)-n)
	}
	for n := len(words); n >= 0; n-- {
		if lines := lay(words[:n], tail(n)); len(lines) <= room {
			return lines
		}
	}
	// Not even the lead fits beside the count: the count first.
	return []string{"  " + tail(0)}
}
