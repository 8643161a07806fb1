package explore

import (
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Absence is why a field has no value in a tree.
type Absence int

// The reasons.
const (
	// Present: the field was read.
	Present Absence = iota
	// NeedsArgs: the field takes arguments the view cannot choose.
	NeedsArgs
	// Unserved: the schema has the field, the endpoint does not serve it.
	Unserved
	// NotRead: a nested object past what one request reads (the Sandbox
	// limits, or the levels read at once); reading it is one request.
	NotRead
)

// Levels is how many levels of an object one request reads at most: its
// fields, its objects' fields and theirs. Deeper objects are read when
// they are unfolded.
const Levels = 3

// pick is one field of a selection: selected, or shown without a value
// and why.
type pick struct {
	def *ast.FieldDefinition
	// on is the possible type whose inline fragment holds the field; ""
	// for a field of the selection's own type.
	on     string
	absent Absence
	// sub is a composite field's selection; for a connection, the read of
	// its totalCount.
	sub  *set
	conn bool
	// alias is the field's key in the answer when two possible types'
	// fragments both select a field of its name, whose types may differ.
	alias string
}

// key is the field's key in the answer.
func (p *pick) key() string {
	if p.alias != "" {
		return p.alias
	}
	return p.def.Name
}

// head is how the field is selected: its alias, then its name.
func (p *pick) head() string {
	if p.alias != "" {
		return p.alias + ": " + p.def.Name
	}
	return p.def.Name
}

// set is the selection of one composite type.
type set struct {
	def   *ast.Definition
	picks []*pick
	// read: the selection is in the request. A set left unread has its
	// field left out and shown folded, to be read on its own.
	read bool
	// only, when set, restricts an abstract type to the one possible type
	// the object is known to be.
	only string
}

// budget is what a request may still select: fields, as the platform
// counts them, and the deepest depth.
type budget struct {
	fields, maxDepth int
}

// selection is the selection of the named type, read levels deep from
// depth (where its fields are) within b: breadth first, so the object's
// own fields come before its objects' and those before theirs. only
// restricts an abstract type to one of its possible types.
func (c *Catalog) selection(typeName, only string, depth, levels int, b *budget) *set {
	root := c.newSet(typeName, only)
	type queued struct {
		s            *set
		depth, level int
	}
	queue := []queued{{root, depth, 1}}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		picks := c.candidates(q.s, q.depth < b.maxDepth)
		cost := 1 // __typename
		for _, p := range picks {
			cost += p.cost()
		}
		if q.level > levels || q.depth > b.maxDepth || cost > b.fields {
			continue
		}
		b.fields -= cost
		q.s.read, q.s.picks = true, picks
		for _, p := range picks {
			if p.absent == Present && p.sub != nil && !p.conn {
				queue = append(queue, queued{p.sub, q.depth + 1, q.level + 1})
			}
		}
	}
	root.settle(b)
	return root
}

// cost is the fields p adds to a request: itself, and a connection's
// totalCount.
func (p *pick) cost() int {
	switch {
	case p.absent != Present, p.conn && p.sub == nil:
		return 0
	case p.conn:
		return 2
	}
	return 1
}

// settle marks the composite fields whose selection did not fit as not
// read (they leave the request, and their cost the budget).
func (s *set) settle(b *budget) {
	for _, p := range s.picks {
		if p.absent != Present || p.sub == nil || p.conn {
			continue
		}
		if !p.sub.read {
			p.absent = NotRead
			b.fields++
			continue
		}
		p.sub.settle(b)
	}
}

func (c *Catalog) newSet(typeName, only string) *set {
	return &set{def: c.s.Types[typeName], only: only}
}

// possible are the object types an abstract selection reads fragments of,
// sorted by name; none for an object type.
func (c *Catalog) possible(s *set) []*ast.Definition {
	if !s.def.IsAbstractType() {
		return nil
	}
	var out []*ast.Definition
	for _, p := range c.s.GetPossibleTypes(s.def) {
		if (s.only == "" || p.Name == s.only) && c.typeServed(p.Name) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *ast.Definition) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// candidates are every field s can show: its type's (an interface's
// fields once), then each possible type's own, each selected or with why
// not. count: a connection's totalCount is within the depth allowed.
func (c *Catalog) candidates(s *set, count bool) []*pick {
	var out []*pick
	if s.def.Kind != ast.Union {
		for _, f := range s.def.Fields {
			out = append(out, c.pickOf(s.def.Name, f, "", count))
		}
	}
	for _, p := range c.possible(s) {
		for _, f := range p.Fields {
			if s.def.Kind == ast.Interface && s.def.Fields.ForName(f.Name) != nil {
				continue
			}
			out = append(out, c.pickOf(p.Name, f, p.Name, count))
		}
	}
	out = slices.DeleteFunc(out, func(p *pick) bool { return p == nil })
	// Two fragments' fields of one name may have different types, which
	// GraphQL refuses to merge: each gets a key of its own.
	for _, p := range out {
		if p.on == "" {
			continue
		}
		if slices.ContainsFunc(out, func(q *pick) bool { return q != p && q.on != "" && q.def.Name == p.def.Name }) {
			p.alias = p.def.Name + "_" + p.on
		}
	}
	return out
}

// pickOf is field f of the named type as a selection shows it.
func (c *Catalog) pickOf(typeName string, f *ast.FieldDefinition, on string, count bool) *pick {
	if strings.HasPrefix(f.Name, "__") {
		return nil
	}
	p := &pick{def: f, on: on}
	def := c.s.Types[f.Type.Name()]
	switch {
	case def == nil:
		return nil
	case !c.served(typeName, f.Name) || !c.typeServed(def.Name):
		p.absent = Unserved
	case len(requiredArgs(f)) > 0:
		p.absent = NeedsArgs
	case def.IsLeafType():
	case c.connectionNode(def) != "":
		p.conn = true
		if count && def.Fields.ForName("totalCount") != nil {
			p.sub = &set{def: def, read: true, picks: []*pick{{def: def.Fields.ForName("totalCount")}}}
		}
	default:
		p.sub = c.newSet(def.Name, "")
	}
	return p
}

// requiredArgs are the arguments of f a request must give: non-null,
// without a default.
func requiredArgs(f *ast.FieldDefinition) []string {
	var out []string
	for _, a := range f.Arguments {
		if a.Type.NonNull && a.DefaultValue == nil {
			out = append(out, a.Name)
		}
	}
	return out
}

// write prints the selection's body (without braces) at indent.
func (s *set) write(b *strings.Builder, indent int) {
	line(b, indent, "__typename")
	var groups []string
	for _, p := range s.picks {
		if p.on != "" {
			if p.cost() > 0 && !slices.Contains(groups, p.on) {
				groups = append(groups, p.on)
			}
			continue
		}
		p.write(b, indent)
	}
	for _, g := range groups {
		line(b, indent, "... on "+g+" {")
		for _, p := range s.picks {
			if p.on == g {
				p.write(b, indent+1)
			}
		}
		line(b, indent, "}")
	}
}

func (p *pick) write(b *strings.Builder, indent int) {
	switch {
	case p.cost() == 0:
		// Not read; a connection without its count is only opened.
	case p.sub == nil:
		line(b, indent, p.head())
	case p.conn:
		line(b, indent, p.head()+" { totalCount }")
	default:
		line(b, indent, p.head()+" {")
		p.sub.write(b, indent+1)
		line(b, indent, "}")
	}
}

func line(b *strings.Builder, indent int, s string) {
	for range indent {
		b.WriteString("  ")
	}
	b.WriteString(s)
	b.WriteByte('\n')
}

// leaves are the scalar fields of the named type a list's columns show,
// in the schema's order (an interface's own, a union's none), without
// those that take arguments or that the endpoint does not serve.
func (c *Catalog) leaves(typeName string) []*ast.FieldDefinition {
	def := c.s.Types[typeName]
	if def == nil {
		return nil
	}
	var out []*ast.FieldDefinition
	for _, f := range def.Fields {
		t := c.s.Types[f.Type.Name()]
		if strings.HasPrefix(f.Name, "__") || t == nil || !t.IsLeafType() || len(requiredArgs(f)) > 0 || !c.served(def.Name, f.Name) {
			continue
		}
		out = append(out, f)
	}
	return out
}
