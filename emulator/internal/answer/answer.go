// Package answer decides how each field of an answer is answered: by what
// was set (fixtures and the effects of earlier mutations), by the
// emulator's model, or generated from the schema. It is the executor's
// one Resolver, so the decision is made in one place, Answerer.ResolveField,
// for every field of every operation.
package answer

import (
	"context"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/emulator/internal/bind"
	"github.com/partnertui/partnertui/emulator/internal/exec"
)

// Answerer answers the fields of one endpoint's schema.
type Answerer struct {
	schema  *exec.Schema
	model   *bind.Binder
	members map[string][]string // abstract type → its object types' names
}

// New returns the answerer of an endpoint that serves schema with the
// model's resolvers.
func New(schema *exec.Schema, model *bind.Binder) *Answerer {
	a := &Answerer{schema: schema, model: model, members: map[string][]string{}}
	for _, def := range schema.SortedTypes() {
		if def.Kind == ast.Interface || def.Kind == ast.Union {
			for _, m := range schema.PossibleTypes(def.Name) {
				a.members[def.Name] = append(a.members[def.Name], m.Name)
			}
		}
	}
	return a
}

// ResolveField answers one field of one object.
func (a *Answerer) ResolveField(ctx context.Context, f *exec.Field) (any, error) {
	return a.model.Field(ctx, f.Object, f.Definition.Name, f.Args)
}

// ResolveType names the object type of a value of an abstract type.
func (a *Answerer) ResolveType(_ context.Context, abstract *ast.Definition, v any) (string, any, error) {
	if name, val, ok := a.model.TypeOf(v, a.members[abstract.Name]); ok {
		return name, val, nil
	}
	return "", nil, fmt.Errorf("the model's %T is none of the types of %s", v, abstract.Name)
}
