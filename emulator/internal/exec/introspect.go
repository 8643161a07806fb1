package exec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Introspection is answered from the schema itself: __schema and __type
// on the query type, and every field of the __ types. The values are the
// schema's own definitions (a __Type is a typeRef, a __Field an
// *ast.FieldDefinition, an __InputValue an inputValue, an __EnumValue an
// *ast.EnumValueDefinition, a __Directive an *ast.DirectiveDefinition).

// typeRef is a __Type: a named definition, or a list or non-null wrapper.
type typeRef struct {
	t   *ast.Type       // nil for a named type reached by name
	def *ast.Definition // the named type, when t is nil or names it
}

// inputValue is an __InputValue: an argument or an input field.
type inputValue struct {
	name, description string
	typ               *ast.Type
	def               *ast.Value
	dirs              ast.DirectiveList
}

func (e *executor) named(name string) any {
	def := e.Schema.Types[name]
	if def == nil {
		return nil
	}
	return typeRef{def: def}
}

func (e *executor) typeOf(t *ast.Type) any {
	if t.NonNull || t.Elem != nil {
		return typeRef{t: t}
	}
	return e.named(t.NamedType)
}

func (e *executor) introspect(obj *ast.Definition, pf *planField, v any) (any, error) {
	name := pf.def.Name
	include, _ := pf.args["includeDeprecated"].(bool)
	switch name {
	case "__schema":
		return e.Schema, nil
	case "__type":
		n, _ := pf.args["name"].(string)
		return e.named(n), nil
	}
	switch x := v.(type) {
	case *Schema:
		return e.schemaField(name)
	case typeRef:
		return e.typeField(x, name, include)
	case *ast.FieldDefinition:
		return e.fieldField(x, name, include)
	case inputValue:
		return e.inputField(x, name)
	case *ast.EnumValueDefinition:
		return enumValueField(x, name)
	case *ast.DirectiveDefinition:
		return e.directiveField(x, name, include)
	}
	return nil, fmt.Errorf("%s.%s is not answered by introspection", obj.Name, name)
}

func (e *executor) schemaField(name string) (any, error) {
	s := e.Schema
	switch name {
	case "description":
		return optString(s.Description), nil
	case "types":
		out := make([]any, len(s.sorted))
		for i, d := range s.sorted {
			out[i] = typeRef{def: d}
		}
		return out, nil
	case "queryType":
		return typeRef{def: s.Query}, nil
	case "mutationType":
		if s.Mutation == nil {
			return nil, nil
		}
		return typeRef{def: s.Mutation}, nil
	case "subscriptionType":
		if s.Subscription == nil {
			return nil, nil
		}
		return typeRef{def: s.Subscription}, nil
	case "directives":
		names := make([]string, 0, len(s.Directives))
		for n := range s.Directives {
			names = append(names, n)
		}
		slices.Sort(names)
		out := make([]any, len(names))
		for i, n := range names {
			out[i] = s.Directives[n]
		}
		return out, nil
	}
	return nil, fmt.Errorf("__Schema has no field %s", name)
}

var kinds = map[ast.DefinitionKind]string{
	ast.Scalar: "SCALAR", ast.Object: "OBJECT", ast.Interface: "INTERFACE", ast.Union: "UNION",
	ast.Enum: "ENUM", ast.InputObject: "INPUT_OBJECT",
}

func (e *executor) typeField(r typeRef, name string, include bool) (any, error) {
	if r.t != nil {
		switch {
		case r.t.NonNull:
			inner := *r.t
			inner.NonNull = false
			return wrapperField(name, "NON_NULL", e.typeOf(&inner))
		case r.t.Elem != nil:
			return wrapperField(name, "LIST", e.typeOf(r.t.Elem))
		}
		r = typeRef{def: e.Schema.Types[r.t.NamedType]}
	}
	d := r.def
	switch name {
	case "kind":
		return kinds[d.Kind], nil
	case "name":
		return d.Name, nil
	case "description":
		return optString(d.Description), nil
	case "specifiedByURL":
		if dir := d.Directives.ForName("specifiedBy"); dir != nil {
			if a := dir.Arguments.ForName("url"); a != nil {
				return a.Value.Raw, nil
			}
		}
		return nil, nil
	case "fields", "interfaces", "possibleTypes", "enumValues", "inputFields":
		return e.typeList(d, name, include), nil
	case "ofType":
		return nil, nil
	case "isOneOf":
		if d.Kind != ast.InputObject {
			return nil, nil
		}
		return d.Directives.ForName("oneOf") != nil, nil
	}
	return nil, fmt.Errorf("__Type has no field %s", name)
}

// wrapperField answers a LIST or NON_NULL __Type.
func wrapperField(name, kind string, of any) (any, error) {
	switch name {
	case "kind":
		return kind, nil
	case "ofType":
		return of, nil
	case "name", "description", "specifiedByURL", "fields", "interfaces", "possibleTypes", "enumValues", "inputFields", "isOneOf":
		return nil, nil
	}
	return nil, fmt.Errorf("__Type has no field %s", name)
}

func (e *executor) fieldField(f *ast.FieldDefinition, name string, include bool) (any, error) {
	switch name {
	case "name":
		return f.Name, nil
	case "description":
		return optString(f.Description), nil
	case "args":
		return arguments(f.Arguments, include), nil
	case "type":
		return e.typeOf(f.Type), nil
	case "isDeprecated":
		return deprecated(f.Directives), nil
	case "deprecationReason":
		return deprecationReason(f.Directives), nil
	}
	return nil, fmt.Errorf("__Field has no field %s", name)
}

func arguments(args ast.ArgumentDefinitionList, include bool) []any {
	out := make([]any, 0, len(args))
	for _, a := range args {
		if include || !deprecated(a.Directives) {
			out = append(out, inputValue{name: a.Name, description: a.Description, typ: a.Type, def: a.DefaultValue, dirs: a.Directives})
		}
	}
	return out
}

func (e *executor) inputField(v inputValue, name string) (any, error) {
	switch name {
	case "name":
		return v.name, nil
	case "description":
		return optString(v.description), nil
	case "type":
		return e.typeOf(v.typ), nil
	case "defaultValue":
		if v.def == nil {
			return nil, nil
		}
		return v.def.String(), nil
	case "isDeprecated":
		return deprecated(v.dirs), nil
	case "deprecationReason":
		return deprecationReason(v.dirs), nil
	}
	return nil, fmt.Errorf("__InputValue has no field %s", name)
}

func enumValueField(v *ast.EnumValueDefinition, name string) (any, error) {
	switch name {
	case "name":
		return v.Name, nil
	case "description":
		return optString(v.Description), nil
	case "isDeprecated":
		return deprecated(v.Directives), nil
	case "deprecationReason":
		return deprecationReason(v.Directives), nil
	}
	return nil, fmt.Errorf("__EnumValue has no field %s", name)
}

func (e *executor) directiveField(d *ast.DirectiveDefinition, name string, include bool) (any, error) {
	switch name {
	case "name":
		return d.Name, nil
	case "description":
		return optString(d.Description), nil
	case "isRepeatable":
		return d.IsRepeatable, nil
	case "locations":
		out := make([]any, len(d.Locations))
		for i, l := range d.Locations {
			out[i] = string(l)
		}
		return out, nil
	case "args":
		return arguments(d.Arguments, include), nil
	}
	return nil, fmt.Errorf("__Directive has no field %s", name)
}

func deprecated(dirs ast.DirectiveList) bool { return dirs.ForName("deprecated") != nil }

func deprecationReason(dirs ast.DirectiveList) any {
	d := dirs.ForName("deprecated")
	if d == nil {
		return nil
	}
	if a := d.Arguments.ForName("reason"); a != nil && a.Value != nil {
		return a.Value.Raw
	}
	return "No longer supported"
}

func optString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// typeList answers the list fields of a named __Type: null where the
// type's kind has no such list.
func (e *executor) typeList(d *ast.Definition, name string, include bool) any {
	switch name {
	case "fields":
		if d.Kind != ast.Object && d.Kind != ast.Interface {
			return nil
		}
		out := make([]any, 0, len(d.Fields))
		for _, f := range d.Fields {
			if strings.HasPrefix(f.Name, "__") || (!include && deprecated(f.Directives)) {
				continue
			}
			out = append(out, f)
		}
		return out
	case "interfaces":
		if d.Kind != ast.Object && d.Kind != ast.Interface {
			return nil
		}
		out := make([]any, 0, len(d.Interfaces))
		for _, n := range d.Interfaces {
			out = append(out, e.named(n))
		}
		return out
	case "possibleTypes":
		if d.Kind != ast.Interface && d.Kind != ast.Union {
			return nil
		}
		members := e.Schema.PossibleTypes(d.Name)
		out := make([]any, len(members))
		for i, m := range members {
			out[i] = typeRef{def: m}
		}
		return out
	case "enumValues":
		if d.Kind != ast.Enum {
			return nil
		}
		out := make([]any, 0, len(d.EnumValues))
		for _, v := range d.EnumValues {
			if include || !deprecated(v.Directives) {
				out = append(out, v)
			}
		}
		return out
	case "inputFields":
		if d.Kind != ast.InputObject {
			return nil
		}
		out := make([]any, 0, len(d.Fields))
		for _, f := range d.Fields {
			if include || !deprecated(f.Directives) {
				out = append(out, inputValue{name: f.Name, description: f.Description, typ: f.Type, def: f.DefaultValue, dirs: f.Directives})
			}
		}
		return out
	}
	return nil
}
