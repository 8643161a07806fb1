package gqlop

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/platform"
)

// Limits are an environment's documented operation limits.
type Limits struct {
	Name        string // whose limits, in messages: "Sandbox"
	MaxFields   int    // fields per operation, fragments expanded
	MaxDepth    int    // nesting; a root field has depth 1
	MaxTopLevel int    // root fields (queries or mutations) per operation
}

// SandboxLimits are the Sandbox's (spec section 8): breaking one answers
// HTTP 400. The platform documents none for Live.
func SandboxLimits() Limits {
	return Limits{Name: "Sandbox", MaxFields: platform.MaxFields, MaxDepth: platform.MaxDepth, MaxTopLevel: platform.MaxTopLevel}
}

// selectionsPerField bounds the walk of a document whose fragments spread
// into each other many times over: past this many selections per allowed
// field it is refused, before expanding it would take long.
const selectionsPerField = 10

// CheckLimits counts the operation as the platform counts it: every field
// selected, __typename included, with fragment spreads and inline
// fragments expanded where they are used; the depth of the deepest field,
// a root field being 1; and the root fields, those a root fragment brings
// in included. The first limit broken is reported where it was broken: at
// the field past the limit.
func (o *Operation) CheckLimits(l Limits) error {
	c := o.Count(l)
	if len(c.Broken) == 0 {
		return nil
	}
	return &Error{Kind: Limit, Problems: c.Broken[:1]}
}

// Count is an operation's size as the platform counts it (see
// CheckLimits), and each limit it breaks.
type Count struct {
	Fields, Depth, TopLevel int
	// Broken holds each limit broken, once, at the first field past it,
	// in the order the walk met them; Source says which document that
	// field is in (a fragment may come from another).
	Broken []Problem
	// Partial: the walk stopped early, at a document whose fragments
	// expand past the selection bound (that is then in Broken), so the
	// counts are lower bounds.
	Partial bool
}

// Count walks the whole operation, fragments expanded, counting it as
// CheckLimits does; the expansion stops at the same bound.
func (o *Operation) Count(l Limits) Count {
	c := &counter{doc: o.Doc, l: l, stack: map[string]bool{}}
	c.walk(o.Op.SelectionSet, 1, true)
	return c.count
}

type counter struct {
	doc                                *ast.QueryDocument
	l                                  Limits
	stack                              map[string]bool // fragments being expanded: a cycle is left to validation
	selection                          int
	topLevelBroken, fieldsBroken, deep bool
	count                              Count
}

func (c *counter) fail(pos *ast.Position, format string, args ...any) {
	p := Problem{Message: fmt.Sprintf(format, args...)}
	if pos != nil {
		p.Line, p.Column, p.Source = pos.Line, pos.Column, pos.Src
	}
	c.count.Broken = append(c.count.Broken, p)
}

// walk stops at the selection bound.
func (c *counter) walk(set ast.SelectionSet, depth int, top bool) {
	for _, sel := range set {
		if c.count.Partial {
			return
		}
		c.selection++
		if c.selection > c.l.MaxFields*selectionsPerField {
			c.fail(sel.GetPosition(), "the operation expands to more than %d selections (fields, fragment spreads and inline fragments); the %s limit is %d fields: use fewer nested fragments",
				c.l.MaxFields*selectionsPerField, c.l.Name, c.l.MaxFields)
			c.count.Partial = true
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			c.field(s, depth, top)
		case *ast.InlineFragment:
			c.walk(s.SelectionSet, depth, top)
		case *ast.FragmentSpread:
			f := c.doc.Fragments.ForName(s.Name)
			if f == nil || c.stack[s.Name] {
				continue
			}
			c.stack[s.Name] = true
			c.walk(f.SelectionSet, depth, top)
			delete(c.stack, s.Name)
		}
	}
}

// field counts f. Each limit is reported once, at the first field past
// it; at one field the top-level count is checked first, then the fields,
// then the depth, so the first problem is the one the platform names.
func (c *counter) field(f *ast.Field, depth int, top bool) {
	c.count.Fields++
	c.count.Depth = max(c.count.Depth, depth)
	if top {
		c.count.TopLevel++
	}
	if top && c.count.TopLevel > c.l.MaxTopLevel && !c.topLevelBroken {
		c.topLevelBroken = true
		c.fail(f.Position, "%s is top-level field number %d; the %s limit is %d top-level fields per operation: split it into several operations",
			f.Alias, c.count.TopLevel, c.l.Name, c.l.MaxTopLevel)
	}
	if c.count.Fields > c.l.MaxFields && !c.fieldsBroken {
		c.fieldsBroken = true
		c.fail(f.Position, "%s is field number %d (fragments expanded); the %s limit is %d fields per operation: select fewer fields",
			f.Alias, c.count.Fields, c.l.Name, c.l.MaxFields)
	}
	if depth > c.l.MaxDepth && !c.deep {
		c.deep = true
		c.fail(f.Position, "%s is at depth %d; the %s limit is a depth of %d: nest fewer fields",
			f.Alias, depth, c.l.Name, c.l.MaxDepth)
	}
	c.walk(f.SelectionSet, depth+1, false)
}
