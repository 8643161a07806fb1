// Package answer decides how each field of an answer is answered. It is
// the executor's one Resolver, so the decision is made in one place,
// Answerer.ResolveField, for every field of every operation, in this
// order:
//
//  1. what was set: a fixture's object or answer, or what an earlier
//     generated mutation created or changed (gen's store);
//  2. the model, the emulator's Go resolvers (internal/gql through
//     internal/bind), for the fields the start-up check found it answers
//     as the served schema says (Modelled);
//  3. generated from the schema (internal/gen): realistic, deterministic
//     for the seed, stateful across mutations.
//
// With no schema supplied, the served schema is the model's own, every
// field is modelled and nothing is generated or set.
package answer

import (
	"context"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/emulator/internal/bind"
	"github.com/partnertui/partnertui/emulator/internal/exec"
	"github.com/partnertui/partnertui/emulator/internal/gen"
)

// Config is what an endpoint's answerer answers with.
type Config struct {
	Schema *exec.Schema // the schema served
	Model  *bind.Binder // calls the model's resolvers
	Root   any          // the model's root resolver
	// Modelled says which fields the model answers; nil: all of them (the
	// served schema is the model's own).
	Modelled *Modelled
	// World generates what the model does not answer; nil: nothing is.
	World *gen.World
	// Mutated is told of every mutation the world answered, to emit its
	// webhook events.
	Mutated func(field string, m *gen.Mutation)
}

// Answerer answers the fields of one endpoint's schema.
type Answerer struct {
	Config
	members map[string][]string // abstract type → its object types' names
}

// New returns the answerer of an endpoint.
func New(c Config) *Answerer {
	a := &Answerer{Config: c, members: map[string][]string{}}
	for _, def := range c.Schema.SortedTypes() {
		if def.Kind == ast.Interface || def.Kind == ast.Union {
			for _, m := range c.Schema.PossibleTypes(def.Name) {
				a.members[def.Name] = append(a.members[def.Name], m.Name)
			}
		}
	}
	return a
}

// overlaid is an object the model knows with fields set over it: a
// fixture's, or a status a generated mutation moved.
type overlaid struct {
	set   *gen.Object
	model any
}

// ResolveField answers one field of one object.
func (a *Answerer) ResolveField(ctx context.Context, f *exec.Field) (any, error) {
	switch o := f.Object.(type) {
	case *gen.Object:
		if v, ok := a.World.Set(o, f.Definition.Name); ok {
			return a.present(ctx, v), nil
		}
		v, err := a.World.Field(o, f.Definition, f.Args)
		return a.present(ctx, v), err
	case overlaid:
		if v, ok := a.World.Set(o.set, f.Definition.Name); ok {
			return a.present(ctx, v), nil
		}
		if a.modelled(f.ObjectType, f.Definition) {
			return a.fromModel(ctx, o.model, f)
		}
		v, err := a.World.Field(o.set, f.Definition, f.Args)
		return a.present(ctx, v), err
	}
	if f.Object == a.Root {
		return a.root(ctx, f)
	}
	if a.modelled(f.ObjectType, f.Definition) {
		return a.fromModel(ctx, f.Object, f)
	}
	v, err := a.World.Field(a.objectOf(ctx, f), f.Definition, f.Args)
	return a.present(ctx, v), err
}

// root answers a root field: a fixture's answer, the model, a stored
// object read by its id, or the world's answer.
func (a *Answerer) root(ctx context.Context, f *exec.Field) (any, error) {
	name := f.Definition.Name
	if a.World != nil {
		if o, ok := a.World.Store().Answer(f.ObjectType.Name, name); ok {
			return a.present(ctx, o), nil
		}
	}
	if a.modelled(f.ObjectType, f.Definition) {
		v, err := a.fromModel(ctx, a.Root, f)
		if v != nil || err != nil || a.World == nil {
			return v, err
		}
		// The model knows no such object: a fixture may.
		return a.present(ctx, a.stored(f)), nil
	}
	if f.ObjectType == a.Schema.Mutation {
		m, err := a.World.Mutate(f.Definition, f.Args)
		if err != nil {
			return nil, err
		}
		if a.Mutated != nil {
			a.Mutated(name, m)
		}
		return a.present(ctx, m.Payload), nil
	}
	v, err := a.World.Query(f.Definition, f.Args)
	return a.present(ctx, v), err
}

// stored is the stored object a by-id root query names, or nil.
func (a *Answerer) stored(f *exec.Field) any {
	for _, arg := range f.Definition.Arguments {
		id, ok := f.Args[arg.Name].(string)
		if !ok {
			continue
		}
		if o, ok := a.World.Store().Lookup(f.Definition.Type.Name(), id); ok {
			return o
		}
	}
	return nil
}

// fromModel calls the model and lays what was set over the objects it
// returns.
func (a *Answerer) fromModel(ctx context.Context, v any, f *exec.Field) (any, error) {
	out, err := a.Model.Field(ctx, v, f.Definition.Name, f.Args)
	if err != nil || out == nil || a.World == nil {
		return out, err
	}
	typ := f.Definition.Type.Name()
	if !a.World.Store().HasType(typ) {
		return out, nil
	}
	if list, ok := out.([]any); ok {
		for i, item := range list {
			list[i] = a.overlay(ctx, typ, item)
		}
		return list, nil
	}
	return a.overlay(ctx, typ, out), nil
}

// overlay returns the model's object with what was set over it, when
// something was.
func (a *Answerer) overlay(ctx context.Context, typ string, v any) any {
	id, err := a.Model.Field(ctx, v, "id", nil)
	s, ok := id.(string)
	if err != nil || !ok {
		return v
	}
	if o, found := a.World.Store().Lookup(typ, s); found {
		return overlaid{set: o, model: v}
	}
	return v
}

// present readies a value the world gave for the executor: an object
// whose id came from outside is laid over the model's object of that id,
// when the model has one.
func (a *Answerer) present(ctx context.Context, v any) any {
	switch x := v.(type) {
	case *gen.Object:
		if !x.Lookup {
			return x
		}
		if m := a.modelLookup(ctx, x); m != nil {
			return overlaid{set: x, model: m}
		}
	case []any:
		copied := false
		for i, item := range x {
			if o, ok := item.(*gen.Object); ok && o.Lookup {
				if !copied { // the list may be stored: change a copy
					x, copied = append([]any(nil), x...), true
				}
				x[i] = a.present(ctx, o)
			}
		}
		return x
	}
	return v
}

// modelLookup reads the model's object of a type and id through the root
// query that reads one by id, when the model answers it.
func (a *Answerer) modelLookup(ctx context.Context, o *gen.Object) any {
	q, arg, ok := a.World.ByID(o.Type)
	if !ok || !a.modelled(a.Schema.Query, q) {
		return nil
	}
	v, err := a.Model.Field(ctx, a.Root, q.Name, map[string]any{arg: o.ID})
	if err != nil {
		return nil
	}
	return v
}

// objectOf is the generated identity of a model object, for its fields
// the model does not answer: its type and id, or where it is.
func (a *Answerer) objectOf(ctx context.Context, f *exec.Field) *gen.Object {
	id := ""
	if a.World.IsEntity(f.ObjectType.Name) && a.Model.Has(f.Object, "id") {
		if v, err := a.Model.Field(ctx, f.Object, "id", nil); err == nil {
			id, _ = v.(string)
		}
	}
	return a.World.NewObject(f.ObjectType.Name, id, a.World.PathHash(f.NamePath()))
}

// modelled reports whether the model answers a field of a type.
func (a *Answerer) modelled(t *ast.Definition, f *ast.FieldDefinition) bool {
	if a.Modelled == nil {
		return true
	}
	return a.Modelled.Field(t.Name, f.Name)
}

// ResolveType names the object type of a value of an abstract type.
func (a *Answerer) ResolveType(_ context.Context, abstract *ast.Definition, v any) (string, any, error) {
	switch o := v.(type) {
	case *gen.Object:
		return o.Type, o, nil
	case overlaid:
		if a.Schema.IsPossible(abstract.Name, o.set.Type) {
			return o.set.Type, o, nil
		}
		if name, val, ok := a.Model.TypeOf(o.model, a.members[abstract.Name]); ok {
			return name, overlaid{set: o.set, model: val}, nil
		}
	}
	if name, val, ok := a.Model.TypeOf(v, a.members[abstract.Name]); ok {
		return name, val, nil
	}
	return "", nil, fmt.Errorf("the model's %T is none of the types of %s", v, abstract.Name)
}
