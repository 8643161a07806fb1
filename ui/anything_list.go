package ui

import (
	"context"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/internal/explore"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// anyList is a connection (or a list of objects) of the view of anything:
// a table whose columns are the nodes' scalar fields, as many as the
// width holds, ←/→ moving them sideways; enter opens a row's object.
type anyList struct {
	*listScreen[explore.Row]
	cat   *explore.Catalog
	table *explore.Table
	cols  []explore.Column
	// first is the first column shown; width the screen's.
	first, width int
	keys         struct{ Sideways key.Binding }
}

// newAnyList is the table of the connection or list at l, titled title,
// read with the project's token when project is set.
func newAnyList(c *common, env *envState, cat *explore.Catalog, l explore.Locator, title string, project bool) (*anyList, error) {
	t, err := cat.Table(l)
	if err != nil {
		return nil, err
	}
	s := &anyList{cat: cat, table: t, cols: t.Columns()}
	s.keys.Sideways = key.NewBinding(key.WithKeys("left", "right", "h", "l"), key.WithHelp("←/→", "columns"))
	d := anyDoer(env, project)
	s.listScreen = newListScreen(c, env, listSpec[explore.Row]{
		title:   title,
		noun:    title,
		columns: s.columns(),
		id:      func(r *explore.Row) string { return r.Key() },
		fetch: func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[explore.Row], error) {
			p, err := t.Page(ctx, d, r.First, r.After)
			if err != nil {
				return pagedlist.Page[explore.Row]{}, err
			}
			// Without a count (0) the list is as long as what was read, and
			// a row more while there is a next page.
			return pagedlist.Page[explore.Row]{Rows: p.Rows, Total: p.Total, StartCursor: p.StartCursor,
				EndCursor: p.EndCursor, HasNext: p.HasNext && p.EndCursor != ""}, nil
		},
		walkToEnd: t.Paged,
		empty:     func() string { return "No " + t.Node + " in this list." },
		open: func(row explore.Row) tea.Cmd {
			title := row.Type
			if id := row.ID(); id != "" {
				title += " " + shortID(id)
			} else {
				title += " " + strconv.Itoa(row.Index+1)
			}
			return push(env.Name, newAnyObject(c, env, cat, t.Locate(row), row.Type, title, project))
		},
		project:  project && env.distinctProject() != nil,
		openDesc: "open " + t.Node,
		note:     s.note,
	})
	s.syncColumns()
	return s, nil
}

// reopen makes the table again after a trip to the other environment,
// its columns where they were.
func (s *anyList) reopen(c *common, env *envState) screen {
	l, err := newAnyList(c, env, s.cat, s.table.At, s.spec.title, s.spec.project)
	if err != nil {
		return nil
	}
	l.first = s.first
	return l
}

// note says which token reads the table, when it is the project's, and
// which columns are shown of how many.
func (s *anyList) note() string {
	var parts []string
	if s.spec.project {
		parts = append(parts, "project token")
	}
	if shown := s.shown(); s.list.Len() > 0 && (s.first > 0 || shown < len(s.cols)) {
		parts = append(parts, "columns "+strconv.Itoa(s.first+1)+"–"+strconv.Itoa(s.first+shown)+" of "+strconv.Itoa(len(s.cols)))
	}
	return strings.Join(parts, " · ")
}

// shown is how many of the table's columns are drawn, from first.
func (s *anyList) shown() int {
	n := len(s.columns())
	if s.table.Abstract {
		n--
	}
	return max(n, 0)
}

// columns are the table's columns from first on that fit the width (at
// least one), the rows' type first when they are of several types.
func (s *anyList) columns() []pagedlist.Column[explore.Row] {
	var out []pagedlist.Column[explore.Row]
	used := 0
	if s.table.Abstract {
		out = append(out, pagedlist.Column[explore.Row]{Title: "type", Width: 16, Cell: func(r *explore.Row) string { return r.Type }})
		used = 17
	}
	for i, col := range s.cols[min(s.first, len(s.cols)):] {
		w, flex := columnWidth(col)
		if used+w+1 > max(s.width, 1) && i > 0 {
			break
		}
		used += w + 1
		name := col.Name
		out = append(out, pagedlist.Column[explore.Row]{Title: name, Width: w, Flex: flex, Drop: i,
			Cell: func(r *explore.Row) string { return r.Cell(name) }})
	}
	return out
}

// columnWidth is a column's least width by its field's type, and whether
// it takes a share of the width left.
func columnWidth(c explore.Column) (int, bool) {
	switch {
	case c.List:
		return 14, true
	case c.Type == "Boolean":
		return max(len(c.Name), 5), false
	case c.Type == "Int" || c.Type == "Float":
		return max(len(c.Name), 6), false
	case c.Type == "DateTime" || c.Type == "Date":
		return 24, false
	case c.Type == "ID":
		return 36, false
	}
	return max(min(len(c.Name), 16), 10), true
}

// syncColumns gives the list the columns from first on.
func (s *anyList) syncColumns() {
	s.list.SetColumns(s.columns())
	s.keys.Sideways.SetEnabled(s.list.Len() > 0 && (s.first > 0 || s.shown() < len(s.cols)))
}

func (s *anyList) update(msg tea.Msg) tea.Cmd {
	defer s.syncColumns()
	return s.listScreen.update(msg)
}

func (s *anyList) setSize(w, h int) {
	s.width = w
	s.listScreen.setSize(w, h)
	s.syncColumns()
}

func (s *anyList) ShortHelp() []key.Binding {
	return append(s.listScreen.ShortHelp(), s.keys.Sideways)
}

func (s *anyList) FullHelp() [][]key.Binding {
	return append(s.listScreen.FullHelp(), []key.Binding{s.keys.Sideways})
}

func (s *anyList) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, s.keys.Sideways) {
		return s.listScreen.handleKey(msg)
	}
	switch msg.String() {
	case "left", "h":
		s.first = max(s.first-1, 0)
	default:
		if s.first+s.shown() < len(s.cols) {
			s.first++
		}
	}
	s.syncColumns()
	return nil, true
}
