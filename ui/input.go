package ui

import (
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is a one-line text field. bubbles' textinput pulls in a
// clipboard module this build does not carry, and the two prompts here need
// only typing, deleting and pasting.
type lineInput struct {
	Prompt      string
	Placeholder string
	CharLimit   int
	value       []rune
	pos         int
	focused     bool
	width       int
	cursor      lipgloss.Style
	dim         lipgloss.Style
}

func newLineInput(prompt, placeholder string, limit int) lineInput {
	return lineInput{Prompt: prompt, Placeholder: placeholder, CharLimit: limit,
		cursor: lipgloss.NewStyle().Reverse(true)}
}

func (l *lineInput) Value() string { return string(l.value) }

func (l *lineInput) SetValue(s string) {
	l.value = nil
	l.insert(s)
	l.pos = len(l.value)
}

func (l *lineInput) Focus()                  { l.focused = true }
func (l *lineInput) Blur()                   { l.focused = false }
func (l *lineInput) SetWidth(w int)          { l.width = w }
func (l *lineInput) SetDim(s lipgloss.Style) { l.dim = s }

// insert adds printable text at the cursor, dropping control characters
// (a paste may carry line breaks or escape sequences).
func (l *lineInput) insert(s string) {
	for _, r := range ansi.Strip(s) {
		if unicode.IsControl(r) {
			continue
		}
		if l.CharLimit > 0 && len(l.value) >= l.CharLimit {
			return
		}
		l.value = append(l.value[:l.pos], append([]rune{r}, l.value[l.pos:]...)...)
		l.pos++
	}
}

// Update edits the value; it reports whether the value changed.
func (l *lineInput) Update(msg tea.Msg) bool {
	before := string(l.value)
	switch msg := msg.(type) {
	case tea.PasteMsg:
		l.insert(msg.Content)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "backspace", "ctrl+h":
			if l.pos > 0 {
				l.value = append(l.value[:l.pos-1], l.value[l.pos:]...)
				l.pos--
			}
		case "delete", "ctrl+d":
			if l.pos < len(l.value) {
				l.value = append(l.value[:l.pos], l.value[l.pos+1:]...)
			}
		case "left", "ctrl+b":
			l.pos = max(l.pos-1, 0)
		case "right", "ctrl+f":
			l.pos = min(l.pos+1, len(l.value))
		case "home", "ctrl+a":
			l.pos = 0
		case "end", "ctrl+e":
			l.pos = len(l.value)
		case "ctrl+u":
			l.value = l.value[l.pos:]
			l.pos = 0
		case "ctrl+w":
			i := l.pos
			for i > 0 && l.value[i-1] == ' ' {
				i--
			}
			for i > 0 && l.value[i-1] != ' ' {
				i--
			}
			l.value = append(l.value[:i], l.value[l.pos:]...)
			l.pos = i
		case "space":
			l.insert(" ")
		default:
			if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
				l.insert(msg.Text)
			}
		}
	}
	return string(l.value) != before
}

func (l *lineInput) View() string {
	if len(l.value) == 0 && !l.focused {
		return l.Prompt + l.dim.Render(l.Placeholder)
	}
	if !l.focused {
		return l.Prompt + string(l.value)
	}
	if len(l.value) == 0 {
		ph := []rune(l.Placeholder)
		if len(ph) == 0 {
			return l.Prompt + l.cursor.Render(" ")
		}
		return l.Prompt + l.cursor.Render(string(ph[0])) + l.dim.Render(string(ph[1:]))
	}
	before := string(l.value[:l.pos])
	at := " "
	after := ""
	if l.pos < len(l.value) {
		at = string(l.value[l.pos])
		after = string(l.value[l.pos+1:])
	}
	return l.Prompt + before + l.cursor.Render(at) + after
}
