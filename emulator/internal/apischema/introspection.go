package apischema

import (
	"encoding/json"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// The JSON answer of the standard introspection query.
type introspection struct {
	Data *struct {
		Schema *introSchema `json:"__schema"`
	} `json:"data"`
	Schema *introSchema `json:"__schema"`
}

type introSchema struct {
	Description                               *string
	QueryType, MutationType, SubscriptionType *struct{ Name string }
	Types                                     []introType
	Directives                                []struct {
		Name         string
		Description  *string
		Locations    []string
		Args         []introInput
		IsRepeatable bool
	}
}

type introType struct {
	Kind, Name     string
	Description    *string
	Fields         []introField
	InputFields    []introInput
	Interfaces     []struct{ Name string }
	EnumValues     []introEnum
	PossibleTypes  []struct{ Name string }
	SpecifiedByURL *string
}

type introField struct {
	Name              string
	Description       *string
	Args              []introInput
	Type              *typeRef
	IsDeprecated      bool
	DeprecationReason *string
}

type introInput struct {
	Name              string
	Description       *string
	Type              *typeRef
	DefaultValue      *string
	IsDeprecated      bool
	DeprecationReason *string
}

type introEnum struct {
	Name              string
	Description       *string
	IsDeprecated      bool
	DeprecationReason *string
}

type typeRef struct {
	Kind   string
	Name   *string
	OfType *typeRef
}

var defKinds = map[string]ast.DefinitionKind{
	"SCALAR": ast.Scalar, "OBJECT": ast.Object, "INTERFACE": ast.Interface, "UNION": ast.Union,
	"ENUM": ast.Enum, "INPUT_OBJECT": ast.InputObject,
}

var builtinDirectives = map[string]bool{"skip": true, "include": true, "deprecated": true, "specifiedBy": true, "oneOf": true, "defer": true}

// fromIntrospection rebuilds a schema from an introspection answer.
func fromIntrospection(name string, data []byte) (*ast.Schema, error) {
	var in introspection
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, badf("%s is JSON but not an introspection answer: %v", name, err)
	}
	is := in.Schema
	if in.Data != nil && in.Data.Schema != nil {
		is = in.Data.Schema
	}
	if is == nil || len(is.Types) == 0 {
		return nil, badf("%s is JSON with no __schema types: give the answer of an introspection query (data.__schema), or the schema as SDL", name)
	}
	doc := &ast.SchemaDocument{}
	sd := &ast.SchemaDefinition{}
	for _, root := range []struct {
		op ast.Operation
		t  *struct{ Name string }
	}{{ast.Query, is.QueryType}, {ast.Mutation, is.MutationType}, {ast.Subscription, is.SubscriptionType}} {
		if root.t != nil {
			sd.OperationTypes = append(sd.OperationTypes, &ast.OperationTypeDefinition{Operation: root.op, Type: root.t.Name})
		}
	}
	doc.Schema = append(doc.Schema, sd)
	for _, t := range is.Types {
		if isBuiltin(t.Name) {
			continue
		}
		def, err := definition(name, t)
		if err != nil {
			return nil, err
		}
		doc.Definitions = append(doc.Definitions, def)
	}
	for _, d := range is.Directives {
		if builtinDirectives[d.Name] {
			continue
		}
		dd := &ast.DirectiveDefinition{Name: d.Name, Description: str(d.Description), IsRepeatable: d.IsRepeatable}
		for _, l := range d.Locations {
			dd.Locations = append(dd.Locations, ast.DirectiveLocation(l))
		}
		for _, a := range d.Args {
			arg, err := argument(name, a)
			if err != nil {
				return nil, err
			}
			dd.Arguments = append(dd.Arguments, arg)
		}
		doc.Directives = append(doc.Directives, dd)
	}
	prelude, perr := parser.ParseSchema(validator.Prelude)
	if perr != nil {
		return nil, badf("the GraphQL prelude does not parse: %v", perr)
	}
	prelude.Merge(doc)
	s, err := validator.ValidateSchemaDocument(prelude)
	if err != nil {
		return nil, badf("%s: the introspection answer is not a valid schema: %v", name, err)
	}
	return s, nil
}

func isBuiltin(name string) bool {
	switch name {
	case "String", "Int", "Float", "Boolean", "ID":
		return true
	}
	return len(name) > 2 && name[:2] == "__"
}

func definition(file string, t introType) (*ast.Definition, error) {
	kind, ok := defKinds[t.Kind]
	if !ok {
		return nil, badf("%s: type %s has the kind %q, which is not a named type's", file, t.Name, t.Kind)
	}
	def := &ast.Definition{Kind: kind, Name: t.Name, Description: str(t.Description)}
	if t.SpecifiedByURL != nil {
		def.Directives = append(def.Directives, directive("specifiedBy", "url", *t.SpecifiedByURL))
	}
	for _, i := range t.Interfaces {
		def.Interfaces = append(def.Interfaces, i.Name)
	}
	for _, p := range t.PossibleTypes {
		if kind == ast.Union {
			def.Types = append(def.Types, p.Name)
		}
	}
	for _, f := range t.Fields {
		fd := &ast.FieldDefinition{Name: f.Name, Description: str(f.Description), Directives: deprecation(f.IsDeprecated, f.DeprecationReason)}
		var err error
		if fd.Type, err = astType(file, f.Type); err != nil {
			return nil, err
		}
		for _, a := range f.Args {
			arg, err := argument(file, a)
			if err != nil {
				return nil, err
			}
			fd.Arguments = append(fd.Arguments, arg)
		}
		def.Fields = append(def.Fields, fd)
	}
	for _, f := range t.InputFields {
		arg, err := argument(file, f)
		if err != nil {
			return nil, err
		}
		def.Fields = append(def.Fields, &ast.FieldDefinition{Name: arg.Name, Description: arg.Description, Type: arg.Type, DefaultValue: arg.DefaultValue, Directives: arg.Directives})
	}
	for _, v := range t.EnumValues {
		def.EnumValues = append(def.EnumValues, &ast.EnumValueDefinition{Name: v.Name, Description: str(v.Description), Directives: deprecation(v.IsDeprecated, v.DeprecationReason)})
	}
	return def, nil
}

func argument(file string, a introInput) (*ast.ArgumentDefinition, error) {
	t, err := astType(file, a.Type)
	if err != nil {
		return nil, err
	}
	arg := &ast.ArgumentDefinition{Name: a.Name, Description: str(a.Description), Type: t, Directives: deprecation(a.IsDeprecated, a.DeprecationReason)}
	if a.DefaultValue != nil {
		if arg.DefaultValue, err = literal(*a.DefaultValue); err != nil {
			return nil, badf("%s: the default of %s, %q, is not a GraphQL value: %v", file, a.Name, *a.DefaultValue, err)
		}
	}
	return arg, nil
}

// literal parses a default value as introspection writes it.
func literal(src string) (*ast.Value, error) {
	doc, err := parser.ParseSchema(&ast.Source{Input: "input X { x: X = " + src + " }"})
	if err != nil {
		return nil, err
	}
	return doc.Definitions[0].Fields[0].DefaultValue, nil
}

func astType(file string, r *typeRef) (*ast.Type, error) {
	switch {
	case r == nil:
		return nil, badf("%s: a type reference is missing", file)
	case r.Kind == "NON_NULL":
		inner, err := astType(file, r.OfType)
		if err != nil {
			return nil, err
		}
		inner.NonNull = true
		return inner, nil
	case r.Kind == "LIST":
		inner, err := astType(file, r.OfType)
		if err != nil {
			return nil, err
		}
		return &ast.Type{Elem: inner}, nil
	case r.Name == nil:
		return nil, badf("%s: a %s type reference has no name", file, r.Kind)
	}
	return &ast.Type{NamedType: *r.Name}, nil
}

func deprecation(deprecated bool, reason *string) ast.DirectiveList {
	if !deprecated {
		return nil
	}
	r := "No longer supported"
	if reason != nil {
		r = *reason
	}
	return ast.DirectiveList{directive("deprecated", "reason", r)}
}

func directive(name, arg, value string) *ast.Directive {
	return &ast.Directive{Name: name, Arguments: ast.ArgumentList{{Name: arg, Value: &ast.Value{Kind: ast.StringValue, Raw: value}}}}
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
