package gqlop

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// IntrospectionQuery reads what validation needs of a schema: every type
// with its fields, arguments, input fields, interfaces, enum values and
// possible types, and the directives. Its depth (13) and field count (about
// 170, fragments expanded) are within the Sandbox limits.
const IntrospectionQuery = `query PartnertuiIntrospection {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind
  name
  fields(includeDeprecated: true) { name args { ...InputValue } type { ...TypeRef } }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

type introType struct {
	Kind        string         `json:"kind"`
	Name        string         `json:"name"`
	Fields      []introField   `json:"fields"`
	InputFields []introInput   `json:"inputFields"`
	Interfaces  []introTypeRef `json:"interfaces"`
	EnumValues  []struct {
		Name string `json:"name"`
	} `json:"enumValues"`
	PossibleTypes []introTypeRef `json:"possibleTypes"`
}

type introField struct {
	Name string        `json:"name"`
	Args []introInput  `json:"args"`
	Type *introTypeRef `json:"type"`
}

type introInput struct {
	Name         string        `json:"name"`
	Type         *introTypeRef `json:"type"`
	DefaultValue *string       `json:"defaultValue"`
}

type introTypeRef struct {
	Kind   string        `json:"kind"`
	Name   string        `json:"name"`
	OfType *introTypeRef `json:"ofType"`
}

type introSchema struct {
	QueryType        *struct{ Name string } `json:"queryType"`
	MutationType     *struct{ Name string } `json:"mutationType"`
	SubscriptionType *struct{ Name string } `json:"subscriptionType"`
	Types            []introType            `json:"types"`
	Directives       []struct {
		Name      string       `json:"name"`
		Locations []string     `json:"locations"`
		Args      []introInput `json:"args"`
	} `json:"directives"`
}

// builtIn are the scalars and directives gqlparser's prelude defines; the
// schema text must not define them again.
var builtIn = map[string]bool{
	"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true,
	"skip": true, "include": true, "deprecated": true, "specifiedBy": true, "oneOf": true, "defer": true,
}

// SchemaFromIntrospection builds a schema from the answer to
// IntrospectionQuery ({"data":{"__schema":…}} or its data alone).
func SchemaFromIntrospection(answer []byte) (*ast.Schema, error) {
	var env struct {
		Data *struct {
			Schema *introSchema `json:"__schema"`
		} `json:"data"`
		Schema *introSchema `json:"__schema"`
	}
	if err := json.Unmarshal(answer, &env); err != nil {
		return nil, fmt.Errorf("the introspection answer is not JSON: %w", err)
	}
	s := env.Schema
	if env.Data != nil && env.Data.Schema != nil {
		s = env.Data.Schema
	}
	if s == nil || s.QueryType == nil {
		return nil, errors.New("the introspection answer has no __schema")
	}
	sdl := s.sdl()
	schema, err := gqlparser.LoadSchema(&ast.Source{Name: "introspection", Input: sdl})
	if err != nil {
		return nil, fmt.Errorf("the introspected schema does not load: %w", err)
	}
	return schema, nil
}

// sdl writes the schema as SDL, leaving out what the prelude defines.
func (s *introSchema) sdl() string {
	var b strings.Builder
	b.WriteString("schema { query: " + s.QueryType.Name)
	if s.MutationType != nil {
		b.WriteString(" mutation: " + s.MutationType.Name)
	}
	if s.SubscriptionType != nil {
		b.WriteString(" subscription: " + s.SubscriptionType.Name)
	}
	b.WriteString(" }\n")
	for _, d := range s.Directives {
		if builtIn[d.Name] {
			continue
		}
		b.WriteString("directive @" + d.Name + args(d.Args) + " on " + strings.Join(d.Locations, " | ") + "\n")
	}
	for _, t := range s.Types {
		if builtIn[t.Name] || strings.HasPrefix(t.Name, "__") {
			continue
		}
		t.sdl(&b)
	}
	return b.String()
}

func (t *introType) sdl(b *strings.Builder) {
	switch t.Kind {
	case "SCALAR":
		b.WriteString("scalar " + t.Name + "\n")
	case "OBJECT", "INTERFACE":
		kw := "type "
		if t.Kind == "INTERFACE" {
			kw = "interface "
		}
		b.WriteString(kw + t.Name)
		if len(t.Interfaces) > 0 {
			names := make([]string, 0, len(t.Interfaces))
			for _, i := range t.Interfaces {
				names = append(names, i.Name)
			}
			b.WriteString(" implements " + strings.Join(names, " & "))
		}
		b.WriteString(" {\n")
		for _, f := range t.Fields {
			b.WriteString("  " + f.Name + args(f.Args) + ": " + f.Type.String() + "\n")
		}
		b.WriteString("}\n")
	case "UNION":
		names := make([]string, 0, len(t.PossibleTypes))
		for _, p := range t.PossibleTypes {
			names = append(names, p.Name)
		}
		b.WriteString("union " + t.Name + " = " + strings.Join(names, " | ") + "\n")
	case "ENUM":
		b.WriteString("enum " + t.Name + " {")
		for _, v := range t.EnumValues {
			b.WriteString(" " + v.Name)
		}
		b.WriteString(" }\n")
	case "INPUT_OBJECT":
		b.WriteString("input " + t.Name + " {\n")
		for _, f := range t.InputFields {
			b.WriteString("  " + f.String() + "\n")
		}
		b.WriteString("}\n")
	}
}

func args(in []introInput) string {
	if len(in) == 0 {
		return ""
	}
	parts := make([]string, 0, len(in))
	for _, a := range in {
		parts = append(parts, a.String())
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func (i introInput) String() string {
	s := i.Name + ": " + i.Type.String()
	if i.DefaultValue != nil {
		s += " = " + *i.DefaultValue
	}
	return s
}

func (r *introTypeRef) String() string {
	switch {
	case r == nil:
		return "String"
	case r.Kind == "NON_NULL":
		return r.OfType.String() + "!"
	case r.Kind == "LIST":
		return "[" + r.OfType.String() + "]"
	}
	return r.Name
}
