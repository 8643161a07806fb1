package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Shape is what a node of a tree holds.
type Shape int

// The shapes.
const (
	// Leaf: a scalar, an enum, or a list of them (Value).
	Leaf Shape = iota
	// Obj: an object, its fields the children (none when it is null).
	Obj
	// Items: a list of objects, its elements the children.
	Items
	// Conn: a connection: its totalCount when the type has one, and the
	// list it opens (At).
	Conn
)

// Node is one value of an object read whole: the object itself, each of
// its fields, their objects' fields, the elements of lists.
type Node struct {
	// Name is the field's; "" for the object a view shows and for the
	// elements of a list (Index).
	Name  string
	Index int // an element's position in its list; -1 for a field
	// Type is the value's type: an object's own (its __typename), else
	// the field's named type.
	Type     string
	Shape    Shape
	Value    any // a Leaf's: string, json.Number, bool, nil or []any
	Null     bool
	Children []*Node
	// Total is a connection's totalCount; HasTotal says it was read.
	Total    int
	HasTotal bool
	// Absent says why the field has no value; Args are the arguments it
	// needs (NeedsArgs).
	Absent Absence
	Args   []string
	// Err is the answer's error at the node.
	Err string
	// Link is the object an id names: the node is a link to its view.
	Link *Link
	// At is where the node is read from on its own: a not-read object
	// when it is unfolded, a connection when it is opened; an object with
	// an id whose type a root reads by id is at that root.
	At Locator
	// Deprecated is the schema's reason, when the field is deprecated.
	Deprecated string
	// key is the node's path in the answer it was read from.
	key string
}

// Link is an object an id names.
type Link struct {
	// Type is the object's type: its own when the answer said it, else
	// the type the id's field names.
	Type string
	ID   string
	// Root reads the object by id.
	Root *Root
}

// Tree is an object (or a list, a value) read whole, and what the answer
// said beside it.
type Tree struct {
	Root *Node
	// Errors are the answer's errors that no node shows (a field not
	// shown, or above the object).
	Errors []FieldError
	// Missing: the answer has no value at the locator (an object that
	// does not exist).
	Missing bool
}

// Read reads what l names, levels deep within the Sandbox limits: an
// object with its fields (nested objects past what fits left to read
// when unfolded), a list of them, or a value. only, when set, is the
// object's type when the view knows it (a row's __typename): an
// interface's other possible types are then not asked for.
func (c *Catalog) Read(ctx context.Context, d Doer, l Locator, only string) (*Tree, error) {
	var sel *set
	a, err := c.send(ctx, d, func() (op, error) {
		w, err := c.walk(l)
		if err != nil {
			return op{}, err
		}
		sel = nil
		var body func(*strings.Builder, int)
		if w.target.IsCompositeType() {
			b := Limits()
			b.fields -= pathFields(l)
			sel = c.selection(w.target.Name, only, w.depth+1, Levels, &b)
			if !sel.read {
				return op{}, &BuildError{errTooDeep}
			}
			body = sel.write
		}
		return c.build("PartnertuiObject", l, nil, body)
	})
	if err != nil {
		return nil, err
	}
	w, _ := c.walk(l)
	t := &Tree{}
	v, path, ok := follow(a.data, l)
	if !ok {
		t.Missing = true
		t.Root = &Node{Index: -1, Type: w.target.Name, Null: true, At: l, Shape: shapeOf(w.target, w.field.Type)}
	} else {
		t.Root = c.node(v, w.field, w.target, sel, l, path, true)
		if t.Root.Shape != Leaf {
			// The object itself: its fields are the lines.
			t.Root.Name = ""
		}
		if len(l.Path) > 0 && l.Path[len(l.Path)-1].Index >= 0 {
			t.Root.Index = l.Path[len(l.Path)-1].Index
		}
	}
	t.Errors = attach(t.Root, a.errs)
	return t, nil
}

var errTooDeep = errorString("the object is too deep to read within the Sandbox's depth limit")

type errorString string

func (e errorString) Error() string { return string(e) }

// pathFields are the fields the way to l's end selects.
func pathFields(l Locator) int {
	n := 0
	for _, st := range l.Path {
		n++
		if st.Edge {
			n += 2
		}
	}
	return n
}

func shapeOf(def *ast.Definition, t *ast.Type) Shape {
	switch {
	case def.IsLeafType():
		return Leaf
	case t.Elem != nil:
		return Items
	}
	return Obj
}

// node is the value v of field f (of named type def), selected by s,
// found at l and at path in the answer. top: the object the view shows,
// whose own id is no link.
func (c *Catalog) node(v any, f *ast.FieldDefinition, def *ast.Definition, s *set, l Locator, path []any, top bool) *Node {
	n := &Node{Name: f.Name, Index: -1, Type: def.Name, At: l}
	if dep := f.Directives.ForName("deprecated"); dep != nil {
		n.Deprecated = "deprecated"
		if r := dep.Arguments.ForName("reason"); r != nil && r.Value != nil {
			n.Deprecated = r.Value.Raw
		}
	}
	n.key = pathKey(path)
	switch {
	case def.IsLeafType():
		n.Shape, n.Value = Leaf, v
		n.Null = v == nil
	case c.connectionNode(def) != "":
		n.Shape = Conn
		if obj, ok := v.(map[string]any); ok {
			if t, ok := obj["totalCount"].(json.Number); ok {
				if i, err := strconv.Atoi(t.String()); err == nil {
					n.Total, n.HasTotal = i, true
				}
			}
		}
		n.Null = v == nil
	case f.Type.Elem != nil:
		n.Shape = Items
		items, _ := v.([]any)
		n.Null = v == nil
		for i, item := range items {
			el := c.object(item, def, s, l.element(i), append(slices.Clone(path), i), false)
			el.Index = i
			n.Children = append(n.Children, el)
		}
	default:
		o := c.object(v, def, s, l, path, top)
		o.Name, o.Deprecated = n.Name, n.Deprecated
		return o
	}
	return n
}

// object is the object v of static type def selected by s.
func (c *Catalog) object(v any, def *ast.Definition, s *set, l Locator, path []any, top bool) *Node {
	n := &Node{Index: -1, Type: def.Name, Shape: Obj, At: l, key: pathKey(path)}
	obj, ok := v.(map[string]any)
	if !ok {
		n.Null = true
		return n
	}
	if t, ok := obj["__typename"].(string); ok && c.s.Types[t] != nil {
		n.Type = t
	}
	if id, ok := obj["id"].(string); ok && id != "" && !top {
		if r := c.ByID(n.Type); r != nil {
			n.At = ByID(r, id)
		}
	}
	concrete := c.s.Types[n.Type]
	for _, f := range concrete.Fields {
		p := s.pickFor(f.Name, n.Type)
		if p == nil {
			continue
		}
		child := c.field(obj, p, n, path, top)
		n.Children = append(n.Children, child)
	}
	return n
}

// pickFor is the pick that reads field name of an object of the named
// type; nil when the selection has none.
func (s *set) pickFor(name, typeName string) *pick {
	for _, p := range s.picks {
		if p.def.Name == name && (p.on == "" || p.on == typeName) {
			return p
		}
	}
	return nil
}

// field is the node of p's field in obj, a field of parent.
func (c *Catalog) field(obj map[string]any, p *pick, parent *Node, path []any, top bool) *Node {
	f := p.def
	def := c.s.Types[f.Type.Name()]
	at := parent.At.Then(Step{Field: f.Name, On: onFor(p, parent), Index: -1})
	fpath := append(slices.Clone(path), p.key())
	if p.absent != Present {
		n := &Node{Name: f.Name, Index: -1, Type: def.Name, Absent: p.absent, At: at, Shape: shapeOf(def, f.Type), key: pathKey(fpath)}
		if def.IsCompositeType() && c.connectionNode(def) != "" {
			n.Shape = Conn
		}
		if p.absent == NeedsArgs {
			n.Args = requiredArgs(f)
		}
		return n
	}
	n := c.node(obj[p.key()], f, def, p.sub, at, fpath, false)
	if n.Shape == Leaf {
		n.Link = c.linkOf(f, n.Value, parent, top)
	}
	return n
}

// onFor is the fragment a step to p's field goes through: its possible
// type's when p was read in one.
func onFor(p *pick, parent *Node) string {
	if p.on != "" {
		return parent.Type
	}
	return ""
}

// linkOf is the object a leaf's value names: a nested object's own id
// names that object; a field named after a type (accountId, cardId)
// names one of that type.
func (c *Catalog) linkOf(f *ast.FieldDefinition, v any, parent *Node, top bool) *Link {
	id, ok := v.(string)
	if !ok || id == "" || f.Type.Elem != nil {
		return nil
	}
	if f.Name == "id" {
		if top {
			return nil
		}
		if r := c.ByID(parent.Type); r != nil {
			return &Link{Type: parent.Type, ID: id, Root: r}
		}
		return nil
	}
	if t := c.Names(f.Name); t != "" {
		return &Link{Type: t, ID: id, Root: c.ByID(t)}
	}
	return nil
}

// attach puts each error on the node at its path, else on its nearest
// ancestor shown; it returns those no node takes.
func attach(root *Node, errs []FieldError) []FieldError {
	var rest []FieldError
	for _, e := range errs {
		p := e.Path
		placed := false
		for len(p) > 0 && !placed {
			if n := root.find(pathKey(p)); n != nil {
				if n.Err != "" {
					n.Err += "; "
				}
				n.Err += e.Message
				placed = true
			}
			p = p[:len(p)-1]
		}
		if !placed {
			rest = append(rest, e)
		}
	}
	return rest
}

// find is the node at the answer's path key.
func (n *Node) find(key string) *Node {
	if n.key == key {
		return n
	}
	if !strings.HasPrefix(key, n.key+".") {
		return nil
	}
	for _, ch := range n.Children {
		if f := ch.find(key); f != nil {
			return f
		}
	}
	return nil
}

// Fill takes the value of a node read on its own (a not-read object
// unfolded) in place of n's.
func (n *Node) Fill(read *Node) {
	name, index := n.Name, n.Index
	*n = *read
	n.Name, n.Index = name, index
}

// Text is a leaf's value as one line: strings as they are, lists joined.
func Text(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = Text(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// JSON is the node's value as indented JSON, its fields in the schema's
// order; what was not read is left out.
func (n *Node) JSON() []byte {
	var b bytes.Buffer
	n.writeJSON(&b, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func (n *Node) writeJSON(b *bytes.Buffer, indent int) {
	pad := func(i int) { b.WriteString(strings.Repeat("  ", i)) }
	switch {
	case n.Null:
		b.WriteString("null")
	case n.Shape == Leaf:
		v, _ := json.Marshal(n.Value)
		b.Write(v)
	case n.Shape == Conn:
		if n.HasTotal {
			b.WriteString(`{"totalCount": ` + strconv.Itoa(n.Total) + `}`)
		} else {
			b.WriteString("{}")
		}
	case n.Shape == Items:
		if len(n.Children) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, ch := range n.Children {
			pad(indent + 1)
			ch.writeJSON(b, indent+1)
			if i < len(n.Children)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(indent)
		b.WriteByte(']')
	default:
		shown := slices.DeleteFunc(slices.Clone(n.Children), func(ch *Node) bool { return ch.Absent != Present })
		b.WriteString("{\n")
		pad(indent + 1)
		b.WriteString(`"__typename": `)
		t, _ := json.Marshal(n.Type)
		b.Write(t)
		for _, ch := range shown {
			b.WriteString(",\n")
			pad(indent + 1)
			k, _ := json.Marshal(ch.Name)
			b.Write(k)
			b.WriteString(": ")
			ch.writeJSON(b, indent+1)
		}
		b.WriteByte('\n')
		pad(indent)
		b.WriteByte('}')
	}
}
