package schemafile

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The introspection answer, as much of it as a schema needs. A member's
// isDeprecated is a pointer: an answer that never asked for it has none.
type introSchema struct {
	QueryType        *introName       `json:"queryType"`
	MutationType     *introName       `json:"mutationType"`
	SubscriptionType *introName       `json:"subscriptionType"`
	Types            []introType      `json:"types"`
	Directives       []introDirective `json:"directives"`
}

type introName struct {
	Name string `json:"name"`
}

type introType struct {
	Kind          string         `json:"kind"`
	Name          string         `json:"name"`
	Description   *string        `json:"description"`
	Fields        []introField   `json:"fields"`
	InputFields   []introInput   `json:"inputFields"`
	Interfaces    []introTypeRef `json:"interfaces"`
	EnumValues    []introEnum    `json:"enumValues"`
	PossibleTypes []introTypeRef `json:"possibleTypes"`
	SpecifiedBy   *string        `json:"specifiedByURL"`
	OneOf         *bool          `json:"isOneOf"`
}

type introDeprecation struct {
	IsDeprecated      *bool   `json:"isDeprecated"`
	DeprecationReason *string `json:"deprecationReason"`
}

type introField struct {
	Name        string        `json:"name"`
	Description *string       `json:"description"`
	Args        []introInput  `json:"args"`
	Type        *introTypeRef `json:"type"`
	introDeprecation
}

type introInput struct {
	Name         string        `json:"name"`
	Description  *string       `json:"description"`
	Type         *introTypeRef `json:"type"`
	DefaultValue *string       `json:"defaultValue"`
	introDeprecation
}

type introEnum struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
	introDeprecation
}

type introTypeRef struct {
	Kind   string        `json:"kind"`
	Name   string        `json:"name"`
	OfType *introTypeRef `json:"ofType"`
}

type introDirective struct {
	Name         string       `json:"name"`
	Description  *string      `json:"description"`
	Locations    []string     `json:"locations"`
	Args         []introInput `json:"args"`
	IsRepeatable bool         `json:"isRepeatable"`
}

// builtIn are the scalars and directives gqlparser's prelude defines; the
// schema text must not define them again.
var builtIn = map[string]bool{
	"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true,
	"skip": true, "include": true, "deprecated": true, "specifiedBy": true, "oneOf": true, "defer": true,
}

// introspectionSDL writes an introspection answer as SDL; deprecations
// reports whether the answer says which members are deprecated.
func introspectionSDL(data []byte) (sdl string, deprecations bool, err error) {
	var env struct {
		Data *struct {
			Schema *introSchema `json:"__schema"`
		} `json:"data"`
		Schema    *introSchema `json:"__schema"`
		QueryType *introName   `json:"queryType"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return "", false, fmt.Errorf("not SDL, and not JSON either: %w", err)
	}
	s := env.Schema
	switch {
	case env.Data != nil && env.Data.Schema != nil:
		s = env.Data.Schema
	case s == nil && env.QueryType != nil:
		s = &introSchema{}
		if err := json.Unmarshal(data, s); err != nil {
			return "", false, err
		}
	}
	if s == nil || s.QueryType == nil {
		return "", false, errors.New("JSON without an introspection answer (__schema with its queryType)")
	}
	w := &sdlWriter{}
	s.write(w)
	return w.String(), w.deprecations, nil
}

type sdlWriter struct {
	strings.Builder
	deprecations bool // some member said whether it is deprecated
}

func (s *introSchema) write(w *sdlWriter) {
	w.WriteString("schema {\n  query: " + s.QueryType.Name + "\n")
	if s.MutationType != nil {
		w.WriteString("  mutation: " + s.MutationType.Name + "\n")
	}
	if s.SubscriptionType != nil {
		w.WriteString("  subscription: " + s.SubscriptionType.Name + "\n")
	}
	w.WriteString("}\n")
	for _, d := range s.Directives {
		if builtIn[d.Name] {
			continue
		}
		w.description(d.Description, "")
		w.WriteString("directive @" + d.Name)
		w.args(d.Args)
		if d.IsRepeatable {
			w.WriteString(" repeatable")
		}
		w.WriteString(" on " + strings.Join(d.Locations, " | ") + "\n")
	}
	for _, t := range s.Types {
		if builtIn[t.Name] || strings.HasPrefix(t.Name, "__") {
			continue
		}
		t.write(w)
	}
}

func (t *introType) write(w *sdlWriter) {
	w.description(t.Description, "")
	switch t.Kind {
	case "SCALAR":
		w.WriteString("scalar " + t.Name)
		if t.SpecifiedBy != nil {
			w.WriteString(" @specifiedBy(url: " + quote(*t.SpecifiedBy) + ")")
		}
		w.WriteString("\n")
	case "OBJECT", "INTERFACE":
		kw := "type "
		if t.Kind == "INTERFACE" {
			kw = "interface "
		}
		w.WriteString(kw + t.Name)
		if len(t.Interfaces) > 0 {
			names := make([]string, 0, len(t.Interfaces))
			for _, i := range t.Interfaces {
				names = append(names, i.Name)
			}
			w.WriteString(" implements " + strings.Join(names, " & "))
		}
		w.WriteString(" {\n")
		for _, f := range t.Fields {
			w.description(f.Description, "  ")
			w.WriteString("  " + f.Name)
			w.args(f.Args)
			w.WriteString(": " + f.Type.String())
			w.deprecated(f.introDeprecation)
			w.WriteString("\n")
		}
		w.WriteString("}\n")
	case "UNION":
		names := make([]string, 0, len(t.PossibleTypes))
		for _, p := range t.PossibleTypes {
			names = append(names, p.Name)
		}
		w.WriteString("union " + t.Name + " = " + strings.Join(names, " | ") + "\n")
	case "ENUM":
		w.WriteString("enum " + t.Name + " {\n")
		for _, v := range t.EnumValues {
			w.description(v.Description, "  ")
			w.WriteString("  " + v.Name)
			w.deprecated(v.introDeprecation)
			w.WriteString("\n")
		}
		w.WriteString("}\n")
	case "INPUT_OBJECT":
		w.WriteString("input " + t.Name)
		if t.OneOf != nil && *t.OneOf {
			w.WriteString(" @oneOf")
		}
		w.WriteString(" {\n")
		for _, f := range t.InputFields {
			w.description(f.Description, "  ")
			w.WriteString("  ")
			w.input(f)
			w.WriteString("\n")
		}
		w.WriteString("}\n")
	}
}

func (w *sdlWriter) args(in []introInput) {
	if len(in) == 0 {
		return
	}
	w.WriteString("(")
	for i, a := range in {
		if i > 0 {
			w.WriteString(", ")
		}
		if a.Description != nil && *a.Description != "" {
			w.WriteString(quote(*a.Description) + " ")
		}
		w.input(a)
	}
	w.WriteString(")")
}

func (w *sdlWriter) input(i introInput) {
	w.WriteString(i.Name + ": " + i.Type.String())
	if i.DefaultValue != nil {
		w.WriteString(" = " + *i.DefaultValue)
	}
	w.deprecated(i.introDeprecation)
}

func (w *sdlWriter) deprecated(d introDeprecation) {
	if d.IsDeprecated == nil {
		return
	}
	w.deprecations = true
	if !*d.IsDeprecated {
		return
	}
	if d.DeprecationReason == nil {
		w.WriteString(" @deprecated")
		return
	}
	w.WriteString(" @deprecated(reason: " + quote(*d.DeprecationReason) + ")")
}

func (w *sdlWriter) description(d *string, indent string) {
	if d != nil && *d != "" {
		w.WriteString(indent + quote(*d) + "\n")
	}
}

// quote writes s as a GraphQL string: only the escapes GraphQL knows.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (r *introTypeRef) String() string {
	switch {
	case r == nil:
		// gqlparser then names the member whose type the answer lacks.
		return "TypeMissingFromTheIntrospectionAnswer"
	case r.Kind == "NON_NULL":
		return r.OfType.String() + "!"
	case r.Kind == "LIST":
		return "[" + r.OfType.String() + "]"
	}
	return r.Name
}
