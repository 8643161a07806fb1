package answer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Modelled is which fields of a served schema the model answers: those
// the model's own schema has with the same type, arguments, defaults and
// enum values. Any other field of the served schema is generated, so a
// model that drifted from the schema a user brings is never answered
// wrongly: the mismatch is named and the field generated instead.
type Modelled struct {
	fields map[string]map[string]bool
	// Mismatches name each field the model has but answers differently
	// from the served schema, with why.
	Mismatches []string
}

// Field reports whether the model answers typ.field.
func (m *Modelled) Field(typ, field string) bool { return m.fields[typ][field] }

// CheckModel compares the model's schema with the served one.
func CheckModel(model, served *ast.Schema) *Modelled {
	m := &Modelled{fields: map[string]map[string]bool{}}
	c := checker{model: model, served: served, seen: map[string]string{}}
	roots := map[string]string{}
	for _, pair := range [][2]*ast.Definition{{model.Query, served.Query}, {model.Mutation, served.Mutation}} {
		if pair[0] != nil && pair[1] != nil {
			roots[pair[0].Name] = pair[1].Name
		}
	}
	names := make([]string, 0, len(model.Types))
	for n := range model.Types {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		def := model.Types[name]
		if def.BuiltIn || strings.HasPrefix(name, "__") || (def.Kind != ast.Object && def.Kind != ast.Interface) {
			continue
		}
		servedName := name
		if r, ok := roots[name]; ok {
			servedName = r
		}
		sdef := served.Types[servedName]
		if sdef == nil {
			continue // not served: nothing of it to answer
		}
		if sdef.Kind != def.Kind {
			m.Mismatches = append(m.Mismatches, fmt.Sprintf("%s is a %s in the schema, the model's is a %s: its fields are generated", name, kindName(sdef.Kind), kindName(def.Kind)))
			continue
		}
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			sf := sdef.Fields.ForName(f.Name)
			if sf == nil {
				continue
			}
			if why := c.field(f, sf); why != "" {
				m.Mismatches = append(m.Mismatches, fmt.Sprintf("%s.%s: %s: generated instead", servedName, f.Name, why))
				continue
			}
			if m.fields[servedName] == nil {
				m.fields[servedName] = map[string]bool{}
			}
			m.fields[servedName][f.Name] = true
		}
	}
	return m
}

func kindName(k ast.DefinitionKind) string { return strings.ToLower(string(k)) }

type checker struct {
	model, served *ast.Schema
	seen          map[string]string // input types compared (or being compared) → why they differ
}

// field is why the model's field differs from the served one; "" when it
// does not.
func (c *checker) field(f, sf *ast.FieldDefinition) string {
	if f.Type.String() != sf.Type.String() {
		return fmt.Sprintf("the schema's type is %s, the model's %s", sf.Type, f.Type)
	}
	if why := c.output(f.Type.Name()); why != "" {
		return why
	}
	if len(f.Arguments) != len(sf.Arguments) {
		return fmt.Sprintf("the schema takes %d arguments, the model %d", len(sf.Arguments), len(f.Arguments))
	}
	for _, a := range f.Arguments {
		sa := sf.Arguments.ForName(a.Name)
		if sa == nil {
			return fmt.Sprintf("the schema has no argument %s", a.Name)
		}
		if why := c.inputValue("argument "+a.Name, a.Type, sa.Type, a.DefaultValue, sa.DefaultValue); why != "" {
			return why
		}
	}
	return ""
}

// output is why values of the model's named output type would not be
// the served schema's.
func (c *checker) output(name string) string {
	def, sdef := c.model.Types[name], c.served.Types[name]
	switch {
	case sdef == nil:
		return fmt.Sprintf("the schema has no type %s", name)
	case sdef.Kind != def.Kind:
		return fmt.Sprintf("%s is a %s in the schema, the model's is a %s", name, kindName(sdef.Kind), kindName(def.Kind))
	case def.Kind == ast.Enum:
		for _, v := range def.EnumValues {
			if sdef.EnumValues.ForName(v.Name) == nil {
				return fmt.Sprintf("the schema's enum %s lacks the model's value %s", name, v.Name)
			}
		}
	case def.Kind == ast.Union || def.Kind == ast.Interface:
		for _, p := range c.model.PossibleTypes[name] {
			if !slices.ContainsFunc(c.served.PossibleTypes[name], func(d *ast.Definition) bool { return d.Name == p.Name }) {
				return fmt.Sprintf("%s is not one of the schema's types of %s", p.Name, name)
			}
		}
	}
	return ""
}

// inputValue is why an argument or input field differs.
func (c *checker) inputValue(what string, t, st *ast.Type, def, sdef *ast.Value) string {
	if t.String() != st.String() {
		return fmt.Sprintf("%s has type %s in the schema, %s in the model", what, st, t)
	}
	if valueString(def) != valueString(sdef) {
		return fmt.Sprintf("%s defaults to %q in the schema, %q in the model", what, valueString(sdef), valueString(def))
	}
	return c.input(t.Name())
}

// input is why the model's input type differs from the served one: the
// same values for an enum, the same fields for an input object.
func (c *checker) input(name string) string {
	if why, ok := c.seen[name]; ok {
		return why
	}
	c.seen[name] = "" // a recursive input type is compared once
	def, sdef := c.model.Types[name], c.served.Types[name]
	why := ""
	switch {
	case sdef == nil:
		why = fmt.Sprintf("the schema has no type %s", name)
	case sdef.Kind != def.Kind:
		why = fmt.Sprintf("%s is a %s in the schema, the model's is a %s", name, kindName(sdef.Kind), kindName(def.Kind))
	case def.Kind == ast.Enum:
		if len(def.EnumValues) != len(sdef.EnumValues) {
			why = fmt.Sprintf("the enum %s has %d values in the schema, %d in the model", name, len(sdef.EnumValues), len(def.EnumValues))
			break
		}
		for _, v := range def.EnumValues {
			if sdef.EnumValues.ForName(v.Name) == nil {
				why = fmt.Sprintf("the schema's enum %s lacks the model's value %s", name, v.Name)
				break
			}
		}
	case def.Kind == ast.InputObject:
		if len(def.Fields) != len(sdef.Fields) {
			why = fmt.Sprintf("the input %s has %d fields in the schema, %d in the model", name, len(sdef.Fields), len(def.Fields))
			break
		}
		for _, f := range def.Fields {
			sf := sdef.Fields.ForName(f.Name)
			if sf == nil {
				why = fmt.Sprintf("the schema's input %s has no field %s", name, f.Name)
				break
			}
			if w := c.inputValue("input field "+name+"."+f.Name, f.Type, sf.Type, f.DefaultValue, sf.DefaultValue); w != "" {
				why = w
				break
			}
		}
	}
	c.seen[name] = why
	return why
}

func valueString(v *ast.Value) string {
	if v == nil {
		return ""
	}
	return v.String()
}
