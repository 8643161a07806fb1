// Package gen is the part of the platform the emulator does not model:
// every field of the schema it is given gets a realistic, deterministic
// value (a function of the seed and of where the value is), and objects
// that mutations create, change or cancel, or that fixtures set, are kept
// so later operations read them back.
//
// A World is one environment's generated part: its schema, its seed and
// its store of objects. Answers it gives are *Object values (an object of
// a concrete type, with the fields that were set on it), leaves and lists.
package gen

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/emulator/internal/exec"
)

// Object is an object the emulator answers without its model: generated,
// created by a mutation, or set by a fixture. Its fields are those set,
// then those generated from its identity.
type Object struct {
	Type string // its concrete object type
	ID   string // its id, for a type with one
	// Lookup is set when the id came from outside (an argument, a
	// fixture): the model may know the object, and answer the fields that
	// were not set.
	Lookup bool
	h      uint64         // identity: what its generated fields derive from
	set    map[string]any // fields set; guarded by the store's lock when stored
	stored bool
}

// Hash is the object's identity, for values generated beside it.
func (o *Object) Hash() uint64 { return o.h }

// World is the generated part of one environment.
type World struct {
	schema *exec.Schema
	seed   uint64
	enums  map[string][]string   // enum → values not deprecated
	conns  map[string]connShape  // connection type → its shape
	entity map[string]bool       // object types with an id
	choose map[string]chooser    // abstract type → how its member is chosen
	byID   map[string]*byIDQuery // object type → the root query that reads one by id
	store  *Store
}

// connShape is what makes a type a connection: edges with a node.
type connShape struct {
	edge, node string
	nodes      bool // the connection also has a nodes list
}

// chooser is how a value of an abstract type is given a member: the
// success member when the type has one (a mutation's payload), else one of
// the members that are not rejections, by the value's identity.
type chooser struct {
	success    string
	candidates []string
}

// New returns the generated world of a schema for a seed.
func New(schema *exec.Schema, seed int64) *World {
	w := &World{
		schema: schema, seed: mix(uint64(seed), hashString("partnertui")),
		enums: map[string][]string{}, conns: map[string]connShape{}, entity: map[string]bool{},
		choose: map[string]chooser{}, byID: map[string]*byIDQuery{},
	}
	for _, def := range schema.SortedTypes() {
		switch def.Kind {
		case ast.Enum:
			for _, v := range def.EnumValues {
				if v.Directives.ForName("deprecated") == nil {
					w.enums[def.Name] = append(w.enums[def.Name], v.Name)
				}
			}
		case ast.Object:
			if f := schema.Field(def, "id"); f != nil && f.Type.NonNull && f.Type.Elem == nil && (f.Type.NamedType == "ID" || f.Type.NamedType == "String") {
				w.entity[def.Name] = true
			}
			if shape, ok := w.connectionShape(def); ok {
				w.conns[def.Name] = shape
			}
		case ast.Interface, ast.Union:
			w.choose[def.Name] = w.chooserOf(def)
		}
	}
	w.indexByID()
	w.store = newStore(w)
	return w
}

// Store is the world's store of objects.
func (w *World) Store() *Store { return w.store }

// Schema is the schema the world generates for.
func (w *World) Schema() *exec.Schema { return w.schema }

func (w *World) connectionShape(def *ast.Definition) (connShape, bool) {
	edges := w.schema.Field(def, "edges")
	if edges == nil || edges.Type.Elem == nil || w.schema.Field(def, "pageInfo") == nil {
		return connShape{}, false
	}
	edge := w.schema.Types[edges.Type.Elem.NamedType]
	if edge == nil || (edge.Kind != ast.Object && edge.Kind != ast.Interface) {
		return connShape{}, false
	}
	node := w.schema.Field(edge, "node")
	if node == nil {
		return connShape{}, false
	}
	return connShape{edge: edge.Name, node: node.Type.Name(), nodes: w.schema.Field(def, "nodes") != nil}, true
}

// isRejection is a member that reports a failure.
func (w *World) isRejection(def *ast.Definition) bool {
	if strings.HasSuffix(def.Name, "Rejection") {
		return true
	}
	for _, i := range def.Interfaces {
		if i == "Rejection" {
			return true
		}
	}
	return false
}

func (w *World) chooserOf(def *ast.Definition) chooser {
	var c chooser
	for _, m := range w.schema.PossibleTypes(def.Name) {
		if w.isRejection(m) {
			continue
		}
		if c.success == "" && strings.Contains(m.Name, "Success") {
			c.success = m.Name
		}
		c.candidates = append(c.candidates, m.Name)
	}
	if len(c.candidates) == 0 { // only rejections: the first one
		if ms := w.schema.PossibleTypes(def.Name); len(ms) > 0 {
			c.candidates = []string{ms[0].Name}
		}
	}
	return c
}

// Member is the object type a generated value of the abstract type takes.
func (w *World) Member(abstract string, h uint64) string {
	c := w.choose[abstract]
	if c.success != "" {
		return c.success
	}
	if len(c.candidates) == 0 {
		return ""
	}
	r := rnd{h: mix(h, 0x6d656d626572)}
	return pick(&r, c.candidates)
}

// PathHash is the identity of an object known by where it is in an
// answer (a path of field names).
func (w *World) PathHash(path string) uint64 { return mix(w.seed, hashString(path)) }

// IsEntity reports whether objects of the type have an id.
func (w *World) IsEntity(typ string) bool { return w.entity[typ] }

// entityHash is the identity of the object of a type with an id.
func (w *World) entityHash(typ, id string) uint64 {
	return mix(w.seed, hashString(typ+":"+id))
}

// NewObject is an object of a concrete type: an entity is known by its
// id wherever it is reached; anything else by where it is.
func (w *World) NewObject(typ, id string, where uint64) *Object {
	if w.entity[typ] {
		if id == "" {
			id = uuid(where)
		}
		return &Object{Type: typ, ID: id, h: w.entityHash(typ, id)}
	}
	return &Object{Type: typ, h: where}
}

// Value generates the value of a field of type t, named name, of an
// object whose identity is parent (parentType its type, parentID its id
// when it has one).
func (w *World) Value(parentType, parentID string, parent uint64, name string, t *ast.Type, args map[string]any) (any, error) {
	fh := hashString(name)
	where := mix(parent, fh)
	if t.Elem != nil {
		if t.Elem.Elem != nil { // a list of lists: the platform has none; keep it short
			return []any{}, nil
		}
		r := rnd{h: where}
		n := r.between(1, 3)
		out := make([]any, n)
		for i := range out {
			v, err := w.Value(parentType, parentID, mix(where, uint64(i)), name, t.Elem, args)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	def := w.schema.Types[t.NamedType]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		return w.leaf(def, parentType, parent, name, fh), nil
	}
	if shape, ok := w.conns[def.Name]; ok {
		return w.connection(def, shape, parentType, parentID, name, where, args)
	}
	typ := def.Name
	if def.Kind != ast.Object {
		typ = w.Member(def.Name, where)
	}
	return w.NewObject(typ, "", where), nil
}

// Field generates a field of an object, unless it was set.
func (w *World) Field(o *Object, def *ast.FieldDefinition, args map[string]any) (any, error) {
	if v, ok := w.store.get(o, def.Name); ok {
		return v, nil
	}
	if def.Name == "id" && o.ID != "" {
		return o.ID, nil
	}
	return w.Value(o.Type, o.ID, o.h, def.Name, def.Type, args)
}

// Set reports a field set on o (by a fixture or a mutation).
func (w *World) Set(o *Object, field string) (any, bool) { return w.store.get(o, field) }

// connection pages through a list: the objects created under the parent
// (newest first), then generated ones, as many as the list's identity
// says, consistent with first, after, before and offset.
func (w *World) connection(def *ast.Definition, shape connShape, parentType, parentID, field string, where uint64, args map[string]any) (any, error) {
	stored := w.store.children(parentType, parentID, field, shape.node)
	r := rnd{h: where}
	total := len(stored) + r.between(1, 40)
	start, end, err := window(total, args)
	if err != nil {
		return nil, err
	}
	nodes := make([]any, 0, end-start)
	edges := make([]any, 0, end-start)
	for i := start; i < end; i++ {
		var node any
		if i < len(stored) {
			node = stored[i]
		} else {
			h := mix(where, uint64(i)+1)
			typ := shape.node
			if d := w.schema.Types[typ]; d != nil && d.Kind != ast.Object {
				typ = w.Member(typ, h)
			}
			node = w.NewObject(typ, "", h)
		}
		nodes = append(nodes, node)
		edge := &Object{Type: shape.edge, h: mix(where, uint64(i)+0x65646765), set: map[string]any{"cursor": cursor(i), "node": node}}
		if d := w.schema.Types[shape.edge]; d != nil && d.Kind != ast.Object {
			edge.Type = w.Member(shape.edge, edge.h)
		}
		edges = append(edges, edge)
	}
	info := &Object{Type: "PageInfo", h: mix(where, 0x70616765), set: map[string]any{
		"hasNextPage": end < total, "hasPreviousPage": start > 0, "startCursor": nil, "endCursor": nil,
	}}
	if end > start {
		info.set["startCursor"], info.set["endCursor"] = cursor(start), cursor(end-1)
	}
	if pi := w.schema.Field(def, "pageInfo"); pi != nil {
		info.Type = pi.Type.Name()
	}
	set := map[string]any{"totalCount": int32(total), "pageInfo": info, "edges": edges}
	if shape.nodes {
		set["nodes"] = nodes
	}
	return &Object{Type: def.Name, h: where, set: set}, nil
}

// window is the part [start, end) of a list of total items that the
// paging arguments ask for.
func window(total int, args map[string]any) (int, int, error) {
	start, end := 0, total
	if a, ok := args["after"].(string); ok && a != "" {
		i, err := uncursor(a)
		if err != nil {
			return 0, 0, err
		}
		start = min(i+1, total)
	}
	if o, ok := args["offset"].(int32); ok && o > 0 {
		start = min(start+int(o), total)
	}
	if b, ok := args["before"].(string); ok && b != "" {
		i, err := uncursor(b)
		if err != nil {
			return 0, 0, err
		}
		end = max(min(i, end), start)
	}
	if f, ok := args["first"].(int32); ok {
		if f < 0 || f > 100 {
			return 0, 0, fmt.Errorf("first must be between 0 and 100, got %d: request at most 100 items per page", f)
		}
		end = min(end, start+int(f))
	} else if _, paged := args["last"]; !paged {
		end = min(end, start+50)
	}
	if l, ok := args["last"].(int32); ok && l >= 0 {
		start = max(start, end-int(l))
	}
	return start, end, nil
}

func cursor(i int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("gen:" + strconv.Itoa(i)))
}

func uncursor(c string) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err == nil {
		if s, ok := strings.CutPrefix(string(b), "gen:"); ok {
			if i, err := strconv.Atoi(s); err == nil && i >= 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a cursor of this list: pass the cursor of one of its edges", c)
}
