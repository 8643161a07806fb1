package gqlop

import (
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// CursorVariables are the variables --paginate sets to the previous page's
// end cursor: gh's $endCursor, and the $after the platform's own examples
// use.
var CursorVariables = []string{"after", "endCursor"}

// Connection is the one connection of an operation that --paginate
// follows: the field whose `after` argument is a cursor variable, wherever
// it is nested.
type Connection struct {
	Path         []string // response keys from data down to the connection
	Variable     string   // the cursor variable, without $
	PageInfo     string   // response key of its pageInfo
	HasNextPage  string   // response keys inside pageInfo
	EndCursor    string
	Line, Column int
}

// Connection finds the connection to paginate. It is an *Error when there
// is none, more than one, or it does not select pageInfo's hasNextPage and
// endCursor (the answer would not say where the next page starts).
func (o *Operation) Connection() (*Connection, error) {
	var found []*Connection
	var visit func(set ast.SelectionSet, path []string, stack map[string]bool)
	visit = func(set ast.SelectionSet, path []string, stack map[string]bool) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				p := append(append([]string(nil), path...), s.Alias)
				if v := cursorArg(s); v != "" {
					found = append(found, &Connection{Path: p, Variable: v, Line: s.Position.Line, Column: s.Position.Column})
					fillPageInfo(found[len(found)-1], s.SelectionSet)
					continue
				}
				visit(s.SelectionSet, p, stack)
			case *ast.InlineFragment:
				visit(s.SelectionSet, path, stack)
			case *ast.FragmentSpread:
				f := o.Doc.Fragments.ForName(s.Name)
				if f == nil || stack[s.Name] {
					continue
				}
				stack[s.Name] = true
				visit(f.SelectionSet, path, stack)
				delete(stack, s.Name)
			}
		}
	}
	visit(o.Op.SelectionSet, nil, map[string]bool{})
	switch {
	case len(found) == 0:
		return nil, &Error{Kind: Syntax, Problems: []Problem{{Message: "--paginate needs a connection whose after argument is $after or $endCursor, such as accounts(first: 100, after: $after)"}}}
	case len(found) > 1:
		b := found[1]
		return nil, &Error{Kind: Syntax, Problems: []Problem{{Line: b.Line, Column: b.Column, Message: fmt.Sprintf(
			"--paginate follows one connection, and both %s and %s take the cursor variable: give the other one a cursor of its own", strings.Join(found[0].Path, "."), strings.Join(b.Path, "."))}}}
	}
	c := found[0]
	if o.Op.VariableDefinitions.ForName(c.Variable) == nil {
		return nil, &Error{Kind: Syntax, Problems: []Problem{{Line: c.Line, Column: c.Column, Message: fmt.Sprintf("$%s is not declared: add ($%s: String) to the operation", c.Variable, c.Variable)}}}
	}
	if c.PageInfo == "" || c.HasNextPage == "" || c.EndCursor == "" {
		return nil, &Error{Kind: Syntax, Problems: []Problem{{Line: c.Line, Column: c.Column, Message: fmt.Sprintf(
			"--paginate reads where the next page starts from %s: select pageInfo { hasNextPage endCursor } in it", strings.Join(c.Path, "."))}}}
	}
	return c, nil
}

// cursorArg is the cursor variable f's after argument is bound to, or "".
func cursorArg(f *ast.Field) string {
	a := f.Arguments.ForName("after")
	if a == nil || a.Value == nil || a.Value.Kind != ast.Variable {
		return ""
	}
	for _, v := range CursorVariables {
		if a.Value.Raw == v {
			return v
		}
	}
	return ""
}

// fillPageInfo records the response keys of pageInfo { hasNextPage
// endCursor } directly under the connection (not through fragments: the
// keys must be where the answer is read).
func fillPageInfo(c *Connection, set ast.SelectionSet) {
	for _, sel := range set {
		f, ok := sel.(*ast.Field)
		if !ok || f.Name != "pageInfo" {
			continue
		}
		c.PageInfo = f.Alias
		for _, sub := range f.SelectionSet {
			if g, ok := sub.(*ast.Field); ok {
				switch g.Name {
				case "hasNextPage":
					c.HasNextPage = g.Alias
				case "endCursor":
					c.EndCursor = g.Alias
				}
			}
		}
	}
}

// Next reads, in a response's decoded data, whether the connection has a
// next page and the cursor it starts after.
func (c *Connection) Next(data any) (cursor string, more bool, err error) {
	cur := data
	for i, k := range c.Path {
		m, ok := cur.(map[string]any)
		if !ok {
			if _, list := cur.([]any); list {
				return "", false, fmt.Errorf("--paginate cannot follow %s: %s is a list, so there is one cursor per item; page one item's connection at a time",
					strings.Join(c.Path, "."), strings.Join(c.Path[:i], "."))
			}
			return "", false, nil // null on the way: nothing more to read
		}
		cur = m[k]
	}
	conn, _ := cur.(map[string]any)
	pi, _ := conn[c.PageInfo].(map[string]any)
	has, _ := pi[c.HasNextPage].(bool)
	end, _ := pi[c.EndCursor].(string)
	if !has {
		return "", false, nil
	}
	if end == "" {
		return "", false, fmt.Errorf("%s says it has a next page but gives no endCursor", strings.Join(c.Path, "."))
	}
	return end, true, nil
}
