// Package exec runs GraphQL operations over a gqlparser schema: the one
// execution engine of the emulator, for the fields its model answers and
// the fields it generates alike. It knows nothing of the emulator: what a
// field's value is comes from a Resolver, and exec does the rest of the
// specification's execution section (collecting fields through fragments
// and @skip/@include, coercing arguments and variables, completing lists,
// leaves and abstract types, propagating null through non-null fields,
// errors with their paths and locations) and answers introspection itself.
//
// Why its own executor: gqlparser, already the module's parser and
// validator, has none; graph-gophers binds a schema to Go types at start
// and cannot serve a schema it has no Go type for; graphql-go/graphql
// needs a second type system converted from gqlparser's and answered a
// web-app page about six times slower, with six times the allocations
// (README "Dependencies and why" has the figures and how they were taken).
package exec

import (
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Schema is a gqlparser schema with the indexes execution needs, built
// once: fields by name, possible types as sets, enum values as sets, the
// types in name order for introspection.
type Schema struct {
	*ast.Schema
	fields   map[*ast.Definition]map[string]*ast.FieldDefinition
	possible map[string]map[string]bool // abstract type → its object types
	members  map[string][]*ast.Definition
	enums    map[string]map[string]bool
	sorted   []*ast.Definition
}

// NewSchema indexes s for execution.
func NewSchema(s *ast.Schema) *Schema {
	x := &Schema{
		Schema:   s,
		fields:   make(map[*ast.Definition]map[string]*ast.FieldDefinition, len(s.Types)),
		possible: map[string]map[string]bool{},
		members:  map[string][]*ast.Definition{},
		enums:    map[string]map[string]bool{},
	}
	for _, def := range s.Types {
		x.sorted = append(x.sorted, def)
		switch def.Kind {
		case ast.Object, ast.Interface, ast.InputObject:
			m := make(map[string]*ast.FieldDefinition, len(def.Fields))
			for _, f := range def.Fields {
				m[f.Name] = f
			}
			x.fields[def] = m
		case ast.Enum:
			m := make(map[string]bool, len(def.EnumValues))
			for _, v := range def.EnumValues {
				m[v.Name] = true
			}
			x.enums[def.Name] = m
		}
		if def.Kind == ast.Interface || def.Kind == ast.Union {
			set := map[string]bool{}
			var list []*ast.Definition
			for _, p := range s.PossibleTypes[def.Name] {
				if p.Kind == ast.Object && !set[p.Name] {
					set[p.Name] = true
					list = append(list, p)
				}
			}
			// Name order: gqlparser's follows the document, and a
			// generated choice must not depend on how a file is laid out.
			slices.SortFunc(list, func(a, b *ast.Definition) int { return strings.Compare(a.Name, b.Name) })
			x.possible[def.Name], x.members[def.Name] = set, list
		}
	}
	slices.SortFunc(x.sorted, func(a, b *ast.Definition) int { return strings.Compare(a.Name, b.Name) })
	return x
}

// Field returns the field name of the object, interface or input type def.
func (s *Schema) Field(def *ast.Definition, name string) *ast.FieldDefinition {
	return s.fields[def][name]
}

// PossibleTypes are the object types of an interface or union, in name
// order.
func (s *Schema) PossibleTypes(abstract string) []*ast.Definition { return s.members[abstract] }

// IsPossible reports whether object is a member of the abstract type.
func (s *Schema) IsPossible(abstract, object string) bool { return s.possible[abstract][object] }

// IsEnumValue reports whether v is a value of the enum type named enum.
func (s *Schema) IsEnumValue(enum, v string) bool { return s.enums[enum][v] }

// SortedTypes are every type of the schema in name order.
func (s *Schema) SortedTypes() []*ast.Definition { return s.sorted }

// applies reports whether a fragment with type condition cond applies to
// an object of type obj.
func (s *Schema) applies(obj *ast.Definition, cond string) bool {
	if cond == "" || cond == obj.Name {
		return true
	}
	return s.possible[cond][obj.Name]
}
