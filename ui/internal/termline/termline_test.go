package termline

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// The paint must draw exactly what lipgloss draws, or screens would differ
// from the styles they were given.
func TestPaintMatchesLipgloss(t *testing.T) {
	t.Parallel()
	styles := map[string]lipgloss.Style{
		"plain":   lipgloss.NewStyle(),
		"reverse": lipgloss.NewStyle().Reverse(true),
		"colours": lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#87d7ff")),
		"padded":  lipgloss.NewStyle().Bold(true).Padding(0, 1),
	}
	for name, st := range styles {
		for _, line := range []string{"", "Account 1   FR76 3000  Opened    ", "ünïcødé ✓ 漢字"} {
			p := New(st)
			if got, want := p.Render(line), st.Render(line); got != want {
				t.Errorf("%s: Render(%q) = %q, lipgloss gives %q", name, line, got, want)
			}
			var b strings.Builder
			p.Write(&b, line)
			if got, want := b.String(), st.Render(line); got != want {
				t.Errorf("%s: Write(%q) = %q, lipgloss gives %q", name, line, got, want)
			}
		}
	}
}

func TestTrunc(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 4, "abc…"},
		{"漢字漢字", 5, "漢字…"},
		// Escape sequences take no width and stay.
		{"\x1b[1mbold text\x1b[m", 6, "\x1b[1mbold …\x1b[m"},
		{"abc", 0, ""},
		{"abc", -1, ""},
	}
	for _, c := range cases {
		if got := Trunc(c.in, c.w); got != c.want {
			t.Errorf("Trunc(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}
