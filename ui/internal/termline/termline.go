// Package termline draws single terminal lines cheaply: a lipgloss style
// reduced to the two escape sequences around a line, computed once (a key
// press redrawing a list pays a concatenation instead of a lipgloss render
// per line), and cutting a line to a width.
package termline

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Paint is a style reduced to what goes before and after a line.
type Paint struct {
	open, close string
	// fallback renders through lipgloss when the style is more than
	// colours and attributes (padding, width), which no prefix can carry.
	fallback *lipgloss.Style
}

// New reduces st to a Paint.
func New(st lipgloss.Style) Paint {
	const probe = "X"
	r := st.Render(probe)
	i := strings.Index(r, probe)
	if i < 0 || strings.Count(r, probe) != 1 || ansi.Strip(r) != probe {
		return Paint{fallback: &st}
	}
	return Paint{open: r[:i], close: r[i+len(probe):]}
}

// Render styles one line (no line breaks) as the style would.
func (p Paint) Render(line string) string {
	if p.fallback != nil {
		return p.fallback.Render(line)
	}
	if p.open == "" {
		return line
	}
	return p.open + line + p.close
}

// Write appends the styled line to b.
func (p Paint) Write(b *strings.Builder, line string) {
	if p.fallback != nil {
		b.WriteString(p.fallback.Render(line))
		return
	}
	b.WriteString(p.open)
	b.WriteString(line)
	b.WriteString(p.close)
}

// Trunc cuts s to w cells with an ellipsis, never below zero width.
func Trunc(s string, w int) string {
	if w <= 0 {
		return ""
	}
	// A string is never wider than its byte length: skip the grapheme walk.
	if len(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}
