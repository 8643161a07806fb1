// Package explore is the engine of the app's view of anything: every root
// query of a schema the app knows (a snapshot kept by internal/schemacache,
// or read by introspection) read generically. A Catalog sorts the root
// queries (connections, objects, lists; which read one object by id and
// what else they need), builds the operations that read a connection's
// pages or an object with its fields, nested objects included, within the
// Sandbox limits by construction (fields, depth, top-level fields; counted
// as internal/gqlop counts them, and checked by it with the schema before
// anything is sent), sends them through the API client's raw request path
// and turns the answers into rows and trees whose ids link to the objects
// they name. What the schema has and the endpoint does not serve (an
// emulator that models part of the platform, a snapshot newer than the
// platform) is learnt from the endpoint's refusal, left out of the
// request that is sent again, and said.
package explore

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
)

// Kind is what a root query returns.
type Kind int

// The kinds of root query.
const (
	// Connection: a cursor-paged list (edges, node, pageInfo).
	Connection Kind = iota + 1
	// Object: one object (or an interface, a union).
	Object
	// List: a list of objects, read whole.
	List
	// Value: a scalar, an enum or a list of them.
	Value
)

// Root is one root query of the schema.
type Root struct {
	Name        string
	Kind        Kind
	Description string
	// Type is the object type read: a connection's or a list's node type,
	// the object's type otherwise; the scalar's for a Value.
	Type string
	// IDArg is the one argument that names the object read, for a query
	// that reads one object by id ("accountId" for account); "" for none.
	IDArg string
	// Args are the arguments it needs (non-null, without a default) other
	// than IDArg, in the schema's order.
	Args  []*ast.ArgumentDefinition
	field *ast.FieldDefinition
}

// Field is the root's definition in the schema.
func (r *Root) Field() *ast.FieldDefinition { return r.field }

// Usage is how the root is typed in the palette: "account ID",
// "legalForms country=…".
func (r *Root) Usage() string {
	parts := []string{r.Name}
	if r.IDArg != "" {
		parts = append(parts, "ID")
	}
	for _, a := range r.Args {
		parts = append(parts, a.Name+"=…")
	}
	return strings.Join(parts, " ")
}

// Catalog is a schema read for the view of anything. It is safe for
// concurrent use: the fields the endpoint turned out not to serve are
// learnt by the requests, which run off the UI's event loop.
type Catalog struct {
	s     *ast.Schema
	roots []*Root
	// byID is the root that reads one object of a type by id, by the
	// type's name (an interface's and a union's too).
	byID map[string]*Root
	// byArg is the type an ID argument of a by-id root names, by the
	// argument's name when it is not plain "id" ("accountId": Account).
	byArg map[string]string

	mu       sync.Mutex
	unserved map[string]bool // "Type.field", and "Type" for a type the endpoint lacks
}

// New reads schema's root queries.
func New(schema *ast.Schema) *Catalog {
	c := &Catalog{s: schema, byID: map[string]*Root{}, byArg: map[string]string{}, unserved: map[string]bool{}}
	if schema == nil || schema.Query == nil {
		return c
	}
	for _, f := range schema.Query.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		if r := c.root(f); r != nil {
			c.roots = append(c.roots, r)
		}
	}
	// The root named after its type wins (account for Account), then the
	// first in the schema's order.
	for _, r := range c.roots {
		if r.IDArg == "" {
			continue
		}
		if cur, ok := c.byID[r.Type]; !ok || (!namedAfter(cur) && namedAfter(r)) {
			c.byID[r.Type] = r
		}
		if r.IDArg != "id" {
			if _, ok := c.byArg[r.IDArg]; !ok {
				c.byArg[r.IDArg] = r.Type
			}
		}
	}
	return c
}

// namedAfter: the root's name is its type's, lower camel case.
func namedAfter(r *Root) bool { return strings.EqualFold(r.Name, r.Type) }

// Roots are the root queries, in the schema's order.
func (c *Catalog) Roots() []*Root { return c.roots }

// Root is the root query named name; nil when there is none.
func (c *Catalog) Root(name string) *Root {
	for _, r := range c.roots {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Match are the roots whose name starts with prefix, any case, sorted by
// name.
func (c *Catalog) Match(prefix string) []*Root {
	var out []*Root
	for _, r := range c.roots {
		if strings.HasPrefix(strings.ToLower(r.Name), strings.ToLower(prefix)) {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (c *Catalog) root(f *ast.FieldDefinition) *Root {
	def := c.s.Types[f.Type.Name()]
	if def == nil {
		return nil
	}
	r := &Root{Name: f.Name, Description: f.Description, Type: def.Name, field: f}
	list := f.Type.Elem != nil
	switch {
	case def.IsLeafType():
		r.Kind = Value
	case list:
		r.Kind = List
	case c.connectionNode(def) != "":
		r.Kind, r.Type = Connection, c.connectionNode(def)
	default:
		r.Kind = Object
	}
	for _, a := range f.Arguments {
		if !a.Type.NonNull || a.DefaultValue != nil {
			continue
		}
		if r.Kind == Object && r.IDArg == "" && isIDArg(a) {
			r.IDArg = a.Name
			continue
		}
		r.Args = append(r.Args, a)
	}
	return r
}

// isIDArg: an argument that names an object: id, or …Id, an ID or a
// String.
func isIDArg(a *ast.ArgumentDefinition) bool {
	if a.Type.Elem != nil || (a.Type.NamedType != "ID" && a.Type.NamedType != "String") {
		return false
	}
	return a.Name == "id" || strings.HasSuffix(a.Name, "Id")
}

// connectionNode is the node type of a connection type; "" for a type
// that is not one.
func (c *Catalog) connectionNode(def *ast.Definition) string {
	if def.Kind != ast.Object || def.Fields.ForName("pageInfo") == nil {
		return ""
	}
	edges := def.Fields.ForName("edges")
	if edges == nil || edges.Type.Elem == nil {
		return ""
	}
	edge := c.s.Types[edges.Type.Name()]
	if edge == nil {
		return ""
	}
	node := edge.Fields.ForName("node")
	if node == nil || node.Type.Elem != nil {
		return ""
	}
	return node.Type.Name()
}

// Kinds are the names an object of the named type goes by: the type, the
// interfaces it implements and the unions it is a member of.
func (c *Catalog) Kinds(typeName string) []string {
	out := []string{typeName}
	if def := c.s.Types[typeName]; def != nil {
		for _, i := range c.s.GetImplements(def) {
			if !slices.Contains(out, i.Name) {
				out = append(out, i.Name)
			}
		}
	}
	return out
}

// ByID is the root that reads one object of the named type by id: the
// type's own, else one of its interfaces' or unions'; nil for none.
func (c *Catalog) ByID(typeName string) *Root {
	for _, k := range c.Kinds(typeName) {
		if r := c.byID[k]; r != nil {
			return r
		}
	}
	return nil
}

// Names is the type an id field names, by the field's name: accountId
// names an Account (the argument account(accountId:) takes), cardId a
// Card, accountMembershipId an AccountMembership (the type of that name
// that a root reads by id); "" for a field that names none.
func (c *Catalog) Names(field string) string {
	if t, ok := c.byArg[field]; ok {
		return t
	}
	stem, ok := strings.CutSuffix(field, "Id")
	if !ok || stem == "" {
		return ""
	}
	for name := range c.byID {
		if strings.EqualFold(name, stem) {
			return name
		}
	}
	return ""
}

// served reports whether the endpoint serves field of typeName, as far as
// the requests sent have told.
func (c *Catalog) served(typeName, field string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.unserved[typeName+"."+field] && !c.unserved[typeName]
}

// typeServed reports whether the endpoint knows the named type.
func (c *Catalog) typeServed(typeName string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.unserved[typeName]
}

// learn records what the endpoint does not serve: a field ("Type.field")
// or a type ("Type"). It reports whether it is news.
func (c *Catalog) learn(what string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.unserved[what] {
		return false
	}
	c.unserved[what] = true
	return true
}

// UnservedCount is how many fields and types the endpoint turned out not
// to serve.
func (c *Catalog) UnservedCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.unserved)
}

// Unserved is what the endpoint turned out not to serve of the schema,
// sorted: "Account.virtualIbanEntries", or a type's name.
func (c *Catalog) Unserved() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.unserved))
	for k := range c.unserved {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
