package pagedlist

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// SetColumns draws other columns over the same rows: no request, the
// cursor where it was, every line still the list's width.
func TestSetColumnsKeepsRowsAndCursor(t *testing.T) {
	t.Parallel()
	c := newConn(50)
	l := newList(c, false)
	run(l, l.Query(nil))
	press(l, "down", "down")
	asked := c.count()
	l.SetColumns([]Column[row]{{Title: "Only ID", Width: 8, Flex: true, Cell: func(r *row) string { return r.id }}})
	view := l.View()
	lines := strings.Split(view, "\n")
	if !strings.HasPrefix(lines[0], "Only ID") || strings.Contains(view, "Row 2") || !strings.Contains(lines[3], "r2") {
		t.Errorf("after SetColumns the list draws:\n%s", view)
	}
	for i, line := range lines {
		if w := ansi.StringWidth(line); w != 40 {
			t.Errorf("line %d is %d cells wide, want 40: %q", i, w, line)
		}
	}
	if l.Cursor() != 2 || c.count() != asked {
		t.Errorf("cursor %d, %d requests more", l.Cursor(), c.count()-asked)
	}
}
