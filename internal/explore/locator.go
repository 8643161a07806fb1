package explore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/platform"
)

// Step is one field on the way from the root to what a view shows.
type Step struct {
	Field string
	// Args are the values of the field's arguments, by name, as JSON
	// values (strings, numbers, booleans, objects, lists); they are sent
	// as variables, never written into the operation.
	Args map[string]any
	// On is the possible type the field belongs to when the object it is
	// read from is abstract (the step is inside "... on On").
	On string
	// Index is the element followed when the field is a list; -1 when it
	// is not.
	Index int
	// Edge: the field is a connection, and the step goes to the node of
	// its first edge (its Args say which: first 1, after a cursor).
	Edge bool
}

// Locator is where a view's object or list is: a root query and the
// fields below it. Path[0] is the root query.
type Locator struct {
	Path []Step
}

// At is a locator of the root query named root with its arguments.
func At(root string, args map[string]any) Locator {
	return Locator{Path: []Step{{Field: root, Args: args, Index: -1}}}
}

// ByID is the locator of the object r reads by id.
func ByID(r *Root, id string) Locator {
	return At(r.Name, map[string]any{r.IDArg: id})
}

// Then is l followed by s.
func (l Locator) Then(s Step) Locator {
	path := make([]Step, len(l.Path), len(l.Path)+1)
	copy(path, l.Path)
	return Locator{Path: append(path, s)}
}

// element is the locator of element i of the list l ends on.
func (l Locator) element(i int) Locator {
	path := slices.Clone(l.Path)
	path[len(path)-1].Index = i
	return Locator{Path: path}
}

// Key identifies the locator: two locators with the same key read the
// same thing.
func (l Locator) Key() string {
	var b strings.Builder
	for _, s := range l.Path {
		b.WriteString("/")
		if s.On != "" {
			b.WriteString(s.On + ":")
		}
		b.WriteString(s.Field)
		if len(s.Args) > 0 {
			fmt.Fprintf(&b, "%v", s.Args)
		}
		if s.Index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		}
		if s.Edge {
			b.WriteString("[edge]")
		}
	}
	return b.String()
}

// Limits are the limits every operation the package builds stays within:
// the Sandbox's, which the platform documents; Live documents none.
func Limits() budget {
	return budget{fields: platform.MaxFields, maxDepth: platform.MaxDepth}
}

// op is an operation built to read what a locator names.
type op struct {
	name string
	text string
	vars map[string]any
}

// walked is a locator resolved against the schema: the definition of the
// type at its end, and the depth of its last field.
type walked struct {
	// target is the named type at the locator's end (a connection's node
	// type after an Edge step).
	target *ast.Definition
	field  *ast.FieldDefinition // the last step's field
	depth  int
}

// walk resolves l against the schema.
func (c *Catalog) walk(l Locator) (walked, error) {
	if len(l.Path) == 0 {
		return walked{}, fmt.Errorf("explore: an empty locator")
	}
	def := c.s.Query
	w := walked{}
	for i, st := range l.Path {
		parent := def
		if st.On != "" {
			parent = c.s.Types[st.On]
		}
		if parent == nil {
			return walked{}, fmt.Errorf("explore: the schema has no type %s", st.On)
		}
		f := parent.Fields.ForName(st.Field)
		if f == nil {
			return walked{}, fmt.Errorf("explore: %s has no field %s", parent.Name, st.Field)
		}
		if !c.served(parent.Name, f.Name) || !c.typeServed(f.Type.Name()) {
			return walked{}, &NotServedError{Type: parent.Name, Field: f.Name}
		}
		w.field = f
		w.depth++
		def = c.s.Types[f.Type.Name()]
		if st.Edge {
			node := c.connectionNode(def)
			if node == "" {
				return walked{}, fmt.Errorf("explore: %s is not a connection", st.Field)
			}
			def = c.s.Types[node]
			w.depth += 2 // edges, node
		}
		if def == nil {
			return walked{}, fmt.Errorf("explore: the schema has no type %s", f.Type.Name())
		}
		if i == 0 && parent != c.s.Query {
			return walked{}, fmt.Errorf("explore: %s is not a root query", st.Field)
		}
	}
	w.target = def
	return w, nil
}

// build writes the operation named name that reads l, with body the
// selection of what is at its end (nil for a leaf), and last the extra
// arguments of the last step (a connection's first and after). Every
// argument is a variable of the type the schema declares for it.
func (c *Catalog) build(name string, l Locator, last map[string]any, body func(b *strings.Builder, indent int)) (op, error) {
	o := op{name: name, vars: map[string]any{}}
	var decls []string
	var b strings.Builder
	var write func(i int, def *ast.Definition, indent int) error
	write = func(i int, def *ast.Definition, indent int) error {
		if i == len(l.Path) {
			body(&b, indent)
			return nil
		}
		st := l.Path[i]
		parent := def
		if st.On != "" {
			parent = c.s.Types[st.On]
			line(&b, indent, "... on "+st.On+" {")
			indent++
		}
		f := parent.Fields.ForName(st.Field)
		args := st.Args
		if i == len(l.Path)-1 && len(last) > 0 {
			args = merge(args, last)
		}
		for k := range args {
			if f.Arguments.ForName(k) == nil {
				return fmt.Errorf("explore: %s takes no argument %s", f.Name, k)
			}
		}
		var given []string
		for _, a := range f.Arguments {
			v, ok := args[a.Name]
			if !ok {
				continue
			}
			name := "v" + strconv.Itoa(len(decls))
			decls = append(decls, "$"+name+": "+a.Type.String())
			o.vars[name] = v
			given = append(given, a.Name+": $"+name)
		}
		head := f.Name
		if len(given) > 0 {
			head += "(" + strings.Join(given, ", ") + ")"
		}
		next := c.s.Types[f.Type.Name()]
		var err error
		switch {
		case i == len(l.Path)-1 && body == nil:
			line(&b, indent, head)
		case st.Edge:
			line(&b, indent, head+" {")
			line(&b, indent+1, "edges {")
			line(&b, indent+2, "node {")
			err = write(i+1, c.s.Types[c.connectionNode(next)], indent+3)
			line(&b, indent+2, "}")
			line(&b, indent+1, "}")
			line(&b, indent, "}")
		default:
			line(&b, indent, head+" {")
			err = write(i+1, next, indent+1)
			line(&b, indent, "}")
		}
		if st.On != "" {
			line(&b, indent-1, "}")
		}
		return err
	}
	if _, err := c.walk(l); err != nil {
		return op{}, err
	}
	if err := write(0, c.s.Query, 1); err != nil {
		return op{}, err
	}
	text := "query " + name
	if len(decls) > 0 {
		text += "(" + strings.Join(decls, ", ") + ")"
	}
	o.text = text + " {\n" + b.String() + "}\n"
	return o, nil
}

func merge(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
