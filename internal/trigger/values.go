package trigger

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/scenario"
	"github.com/partnertui/partnertui/internal/suggest"
	"github.com/partnertui/partnertui/internal/usage"
)

// Schemas are the endpoints' schemas a scenario's values are checked
// against: the Testing API's (the simulations) and the partner API's
// (initiateCreditTransfers). Either may be nil: its operations' values are
// then not checked.
type Schemas struct {
	Testing, Partner *ast.Schema
}

// CheckValues checks each value a step gives its operation against the
// schema of the endpoint that serves it, before anything is sent: a value
// of an enum must be one of the enum's (case aside: it is written as the
// schema writes it), a Boolean true or false. A mistake is a usage error
// naming the value as set (--set field=value, when set names it), the
// enum's type and the values meant, or all of them; values that refer to
// objects or earlier steps are known only as the run goes, and left.
func CheckValues(sc scenario.Scenario, schemas Schemas, set []string) (scenario.Scenario, error) {
	var problems []string
	for i := range sc.Steps {
		s := &sc.Steps[i]
		input := inputOf(schemas, s.Op)
		if input == nil {
			continue
		}
		for _, arg := range slices.Sorted(maps.Keys(s.Args)) {
			v := s.Args[arg]
			if strings.Contains(v, "${") {
				continue
			}
			t := fieldType(schemas.pick(s.Op), input, strings.Split(arg, "."))
			if t == nil {
				continue
			}
			fixed, problem := checkValue(t, v)
			if problem == "" {
				s.Args[arg] = fixed
				continue
			}
			problems = append(problems, fmt.Sprintf("%s: %s", asGiven(s, arg, v, set), problem))
		}
	}
	if len(problems) > 0 {
		return sc, usage.Errorf("%s", strings.Join(problems, "\n"))
	}
	return sc, nil
}

// asGiven names a step's value as the user gave it: the --set that set
// it, else the step and its argument.
func asGiven(s *scenario.Step, arg, v string, set []string) string {
	for _, a := range set {
		if a == arg+"="+v || a == s.Name+"."+arg+"="+v {
			return "--set " + a
		}
	}
	return fmt.Sprintf("step %s (%s): %s %q", s.Name, s.Op, arg, v)
}

// checkValue returns v as the schema writes it, or why t cannot take it.
func checkValue(t *ast.Definition, v string) (string, string) {
	switch {
	case t.Kind == ast.Enum:
		var values []string
		for _, e := range t.EnumValues {
			values = append(values, e.Name)
		}
		if k, ok := suggest.Fold(v, values); ok {
			return k, ""
		}
		if near := suggest.Closest(v, values, 3); len(near) > 0 {
			return v, fmt.Sprintf("not a value of %s: did you mean %s?", t.Name, suggest.JoinOr(near))
		}
		return v, fmt.Sprintf("not a value of %s, which takes %s", t.Name, suggest.JoinOr(values))
	case t.Name == "Boolean" && v != "true" && v != "false":
		return v, "not a Boolean: write true or false"
	}
	return v, ""
}

// pick is the schema of the endpoint that serves op.
func (s Schemas) pick(op string) *ast.Schema {
	if s.Testing != nil && s.Testing.Mutation != nil && s.Testing.Mutation.Fields.ForName(op) != nil {
		return s.Testing
	}
	return s.Partner
}

// inputOf is the input object op takes (its argument input), in the
// schema of the endpoint that serves it; nil when neither has it.
func inputOf(schemas Schemas, op string) *ast.Definition {
	s := schemas.pick(op)
	if s == nil || s.Mutation == nil {
		return nil
	}
	f := s.Mutation.Fields.ForName(op)
	if f == nil || len(f.Arguments) != 1 {
		return nil
	}
	return s.Types[f.Arguments[0].Type.Name()]
}

// fieldType is the type of the input field at path (a dotted argument),
// lists and non-null unwrapped; nil when the schema has none.
func fieldType(s *ast.Schema, in *ast.Definition, path []string) *ast.Definition {
	for _, name := range path {
		if in == nil || in.Kind != ast.InputObject {
			return nil
		}
		f := in.Fields.ForName(name)
		if f == nil {
			return nil
		}
		in = s.Types[f.Type.Name()]
	}
	return in
}
