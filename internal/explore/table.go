package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Table is a connection (or a list of objects) read as a table: one row
// per node, one column per scalar field of the node's type.
type Table struct {
	c *Catalog
	// At is the connection's (or the list's) field.
	At Locator
	// Node is the rows' type (an interface's, a union's: each row says its
	// own).
	Node string
	// Paged: the rows come a page at a time (first, after); otherwise the
	// list comes whole.
	Paged bool
	// Abstract: the rows are of several types, which a column shows.
	Abstract bool
	conn     *ast.Definition // the connection type; nil for a list
}

// Column is one column of a table: a scalar field of the node's type.
type Column struct {
	Name string
	// Type is the field's named type (String, DateTime, an enum…); List
	// says it is a list of them.
	Type string
	List bool
}

// Table is the table at l: a connection, or a list of objects; an error
// for anything else.
func (c *Catalog) Table(l Locator) (*Table, error) {
	w, err := c.walk(l)
	if err != nil {
		return nil, err
	}
	t := &Table{c: c, At: l}
	if node := c.connectionNode(w.target); node != "" && !l.Path[len(l.Path)-1].Edge {
		f := w.field
		t.conn, t.Node = w.target, node
		t.Paged = f.Arguments.ForName("first") != nil && f.Arguments.ForName("after") != nil
	} else if w.field.Type.Elem != nil && w.target.IsCompositeType() {
		t.Node = w.target.Name
	} else {
		return nil, fmt.Errorf("explore: %s is not a list", w.field.Name)
	}
	t.Abstract = c.s.Types[t.Node].IsAbstractType()
	// A row's fields are under edges and node, or the list's elements.
	deepest := w.depth + 1
	if t.conn != nil {
		deepest += 2
	}
	if deepest > Limits().maxDepth {
		return nil, &BuildError{errTooDeep}
	}
	return t, nil
}

// Columns are the node type's scalar fields the endpoint serves, as far
// as the requests sent have told, in the schema's order.
func (t *Table) Columns() []Column {
	var out []Column
	for _, f := range t.c.leaves(t.Node) {
		out = append(out, Column{Name: f.Name, Type: f.Type.Name(), List: f.Type.Elem != nil})
	}
	return out
}

// Row is one node of a table.
type Row struct {
	// Cursor is the edge's cursor; Prev the cursor of the row before it
	// ("" for the list's first row). Index is the element's position in a
	// list read whole.
	Cursor, Prev string
	Index        int
	// Type is the node's own type (its __typename).
	Type   string
	Values map[string]any
	// Errs are the answer's errors at the row's fields, by field ("" for
	// the row itself).
	Errs map[string]string
}

// ID is the row's id field, when it has one.
func (r *Row) ID() string {
	id, _ := r.Values["id"].(string)
	return id
}

// Key identifies the row in its list: its id, else its cursor, else its
// position.
func (r *Row) Key() string {
	switch {
	case r.ID() != "":
		return r.ID()
	case r.Cursor != "":
		return r.Cursor
	}
	return "#" + strconv.Itoa(r.Index)
}

// Cell is the row's value of a column as one line; "" for null.
func (r *Row) Cell(name string) string {
	v, ok := r.Values[name]
	if e := r.Errs[name]; e != "" && (!ok || v == nil) {
		return "✗ " + e
	}
	if !ok || v == nil {
		return ""
	}
	return Text(v)
}

// Page is one page of a table (the whole list, for a list).
type Page struct {
	Rows              []Row
	Total             int
	HasTotal, HasNext bool
	StartCursor       string
	EndCursor         string
	// Errors are the answer's errors, beside its rows.
	Errors []FieldError
}

// Page reads first rows after the cursor after ("" for the first page);
// a list is read whole.
func (t *Table) Page(ctx context.Context, d Doer, first int, after string) (*Page, error) {
	var last map[string]any
	if t.Paged {
		last = map[string]any{"first": first}
		if after != "" {
			last["after"] = after
		}
	}
	a, err := t.c.send(ctx, d, func() (op, error) {
		if _, err := t.c.walk(t.At); err != nil {
			return op{}, err
		}
		return t.c.build("PartnertuiList", t.At, last, t.body)
	})
	if err != nil {
		return nil, err
	}
	p := &Page{Errors: a.errs}
	v, path, ok := follow(a.data, t.At)
	if !ok {
		if len(a.errs) > 0 {
			return nil, &AnswerError{Errors: a.errs}
		}
		return p, nil
	}
	if t.conn == nil {
		items, _ := v.([]any)
		for i, item := range items {
			p.Rows = append(p.Rows, t.row(item, i))
		}
		p.Total, p.HasTotal = len(p.Rows), true
		p.placeErrors(path, false)
		return p, nil
	}
	conn, _ := v.(map[string]any)
	if n, ok := conn["totalCount"].(json.Number); ok {
		if i, err := strconv.Atoi(n.String()); err == nil {
			p.Total, p.HasTotal = i, true
		}
	}
	if info, ok := conn["pageInfo"].(map[string]any); ok {
		p.HasNext, _ = info["hasNextPage"].(bool)
		p.EndCursor, _ = info["endCursor"].(string)
		p.StartCursor, _ = info["startCursor"].(string)
	}
	edges, _ := conn["edges"].([]any)
	prev := after
	for i, e := range edges {
		edge, _ := e.(map[string]any)
		r := t.row(edge["node"], -1)
		r.Cursor, _ = edge["cursor"].(string)
		r.Prev = prev
		prev = r.Cursor
		if r.Cursor == "" {
			r.Index = i
		}
		p.Rows = append(p.Rows, r)
	}
	if p.EndCursor == "" {
		p.EndCursor = prev
	}
	p.placeErrors(path, true)
	return p, nil
}

// placeErrors puts each error under the list's path (at) on the row and
// field it names; conn: the rows are a connection's edges' nodes.
func (p *Page) placeErrors(at []any, conn bool) {
	for _, e := range p.Errors {
		rest, ok := under(e.Path, at)
		if conn {
			ok = ok && len(rest) >= 3 && rest[0] == "edges" && rest[2] == "node"
			if ok {
				rest = append(rest[1:2:2], rest[3:]...)
			}
		}
		if !ok || len(rest) == 0 {
			continue
		}
		i, isInt := rest[0].(int)
		if !isInt || i < 0 || i >= len(p.Rows) {
			continue
		}
		field := ""
		if len(rest) > 1 {
			field = fmt.Sprint(rest[1])
		}
		r := &p.Rows[i]
		if r.Errs == nil {
			r.Errs = map[string]string{}
		}
		r.Errs[field] = e.Message
	}
}

// under is what follows prefix in path; ok is false when path is not
// under it.
func under(path, prefix []any) ([]any, bool) {
	if len(path) < len(prefix) {
		return nil, false
	}
	for i := range prefix {
		if fmt.Sprint(path[i]) != fmt.Sprint(prefix[i]) {
			return nil, false
		}
	}
	return path[len(prefix):], true
}

func (t *Table) row(v any, index int) Row {
	r := Row{Index: index, Type: t.Node}
	r.Values, _ = v.(map[string]any)
	if typ, ok := r.Values["__typename"].(string); ok {
		r.Type = typ
	}
	return r
}

// body selects a page: the count, where the page ends, and each node's
// type and scalar fields.
func (t *Table) body(b *strings.Builder, indent int) {
	cols := t.Columns()
	node := func(indent int) {
		line(b, indent, "__typename")
		for _, c := range cols {
			line(b, indent, c.Name)
		}
	}
	if t.conn == nil {
		node(indent)
		return
	}
	if t.conn.Fields.ForName("totalCount") != nil && t.c.served(t.conn.Name, "totalCount") {
		line(b, indent, "totalCount")
	}
	var info []string
	if pi := t.c.s.Types[t.conn.Fields.ForName("pageInfo").Type.Name()]; pi != nil {
		for _, f := range []string{"hasNextPage", "endCursor", "startCursor"} {
			if pi.Fields.ForName(f) != nil && t.c.served(pi.Name, f) {
				info = append(info, f)
			}
		}
	}
	if len(info) > 0 {
		line(b, indent, "pageInfo { "+strings.Join(info, " ")+" }")
	}
	line(b, indent, "edges {")
	edge := t.c.s.Types[t.conn.Fields.ForName("edges").Type.Name()]
	if edge.Fields.ForName("cursor") != nil {
		line(b, indent+1, "cursor")
	}
	line(b, indent+1, "node {")
	node(indent + 2)
	line(b, indent+1, "}")
	line(b, indent, "}")
}

// Locate is where a row's object is read on its own: by its id when a
// root reads its type by id, else the connection's node after the row
// before it (or the list's element).
func (t *Table) Locate(r Row) Locator {
	if id := r.ID(); id != "" {
		if root := t.c.ByID(r.Type); root != nil {
			return ByID(root, id)
		}
	}
	if t.conn == nil {
		return t.At.element(r.Index)
	}
	path := append([]Step(nil), t.At.Path...)
	last := &path[len(path)-1]
	last.Args = merge(last.Args, map[string]any{"first": 1})
	if r.Prev != "" {
		last.Args["after"] = r.Prev
	}
	last.Edge = true
	return Locator{Path: path}
}
