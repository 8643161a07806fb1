package exec

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// Input values, once coerced, are plain Go values a resolver can read
// without knowing where they came from (a literal, a variable or a
// default): Int is int32, Float float64, Boolean bool, String, ID and
// enum values string; a custom scalar keeps the JSON value it was given
// (string, json.Number, bool…); a list is []any and an input object
// map[string]any with its defaults applied. An absent argument or input
// field with no default is absent from its map; null is nil.

// inputError is a value that cannot be coerced to its type; the message
// names where it is and what was expected, never the value itself (it may
// be a secret).
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func inputErrorf(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// CoerceVariables coerces the request's variable values (decoded from
// JSON with UseNumber) to the operation's variable types, applying their
// defaults. Every problem is reported; the operation must not run if there
// is one.
func (s *Schema) CoerceVariables(op *ast.OperationDefinition, raw map[string]any) (map[string]any, []*Error) {
	out := make(map[string]any, len(op.VariableDefinitions))
	var errs []*Error
	for _, d := range op.VariableDefinitions {
		where := "$" + d.Variable
		v, ok := raw[d.Variable]
		var err error
		switch {
		case !ok && d.DefaultValue != nil:
			v, err = s.coerceLiteral(d.Type, d.DefaultValue, nil, where)
		case !ok && d.Type.NonNull:
			err = inputErrorf("variable %s of type %s was not given a value: send it in \"variables\"", where, d.Type)
		case !ok:
			continue
		default:
			v, err = s.coerceJSON(d.Type, v, where)
		}
		if err != nil {
			errs = append(errs, &Error{Message: "Variable " + err.Error(), Locations: locationsOf(d.Position)})
			continue
		}
		out[d.Variable] = v
	}
	return out, errs
}

// coerceJSON coerces a variable's JSON value to t.
func (s *Schema) coerceJSON(t *ast.Type, v any, where string) (any, error) {
	if v == nil {
		if t.NonNull {
			return nil, inputErrorf("%s of type %s must not be null", where, t)
		}
		return nil, nil
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok { // a single value is a list of one
			item, err := s.coerceJSON(t.Elem, v, where)
			if err != nil {
				return nil, err
			}
			return []any{item}, nil
		}
		out := make([]any, len(list))
		for i, item := range list {
			c, err := s.coerceJSON(t.Elem, item, fmt.Sprintf("%s[%d]", where, i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	def := s.Types[t.NamedType]
	if def == nil {
		return nil, inputErrorf("%s has the unknown type %s", where, t.NamedType)
	}
	switch def.Kind {
	case ast.InputObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, inputErrorf("%s must be an object of type %s", where, def.Name)
		}
		return s.coerceObject(def, where, obj, func(f *ast.FieldDefinition, val any) (any, error) {
			return s.coerceJSON(f.Type, val, where+"."+f.Name)
		})
	case ast.Enum:
		str, ok := v.(string)
		if !ok || !s.IsEnumValue(def.Name, str) {
			return nil, inputErrorf("%s must be one of the values of the enum %s", where, def.Name)
		}
		return str, nil
	case ast.Scalar:
		return coerceScalarJSON(def.Name, v, where)
	}
	return nil, inputErrorf("%s has type %s, which is not an input type", where, def.Name)
}

// coerceScalarJSON coerces a JSON value to a built-in scalar; a custom
// scalar takes any value but a list or an object.
func coerceScalarJSON(name string, v any, where string) (any, error) {
	switch name {
	case "Int":
		if n, ok := v.(json.Number); ok {
			if i, err := strconv.ParseInt(string(n), 10, 32); err == nil {
				return int32(i), nil
			}
			if f, err := n.Float64(); err == nil && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
				return int32(f), nil
			}
		}
		if f, ok := v.(float64); ok && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
			return int32(f), nil
		}
		return nil, inputErrorf("%s must be an Int (a 32-bit whole number)", where)
	case "Float":
		switch n := v.(type) {
		case json.Number:
			if f, err := n.Float64(); err == nil {
				return f, nil
			}
		case float64:
			return n, nil
		}
		return nil, inputErrorf("%s must be a Float", where)
	case "String":
		if str, ok := v.(string); ok {
			return str, nil
		}
		return nil, inputErrorf("%s must be a String", where)
	case "ID":
		switch n := v.(type) {
		case string:
			return n, nil
		case json.Number:
			if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
				return string(n), nil
			}
		}
		return nil, inputErrorf("%s must be an ID (a string or a whole number)", where)
	case "Boolean":
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, inputErrorf("%s must be a Boolean", where)
	}
	switch v.(type) {
	case []any, map[string]any:
		return nil, inputErrorf("%s must be a single %s value, not a list or an object", where, name)
	}
	return v, nil
}

// coerceObject coerces an input object's fields with coerce, applying the
// defaults of the fields it lacks and refusing fields the type lacks.
func (s *Schema) coerceObject(def *ast.Definition, where string, given map[string]any, coerce func(*ast.FieldDefinition, any) (any, error)) (map[string]any, error) {
	for name := range given {
		if s.Field(def, name) == nil {
			return nil, inputErrorf("%s has the field %q, which the input type %s lacks", where, name, def.Name)
		}
	}
	out := make(map[string]any, len(def.Fields))
	for _, f := range def.Fields {
		v, ok := given[f.Name]
		switch {
		case ok:
			c, err := coerce(f, v)
			if err != nil {
				return nil, err
			}
			out[f.Name] = c
		case f.DefaultValue != nil:
			c, err := s.coerceLiteral(f.Type, f.DefaultValue, nil, where+"."+f.Name)
			if err != nil {
				return nil, err
			}
			out[f.Name] = c
		case f.Type.NonNull:
			return nil, inputErrorf("%s lacks the required field %s of type %s", where, f.Name, f.Type)
		}
	}
	return out, nil
}

// coerceArgs coerces a field's arguments: literals, variables (already
// coerced) and defaults.
func (s *Schema) coerceArgs(defs ast.ArgumentDefinitionList, args ast.ArgumentList, vars map[string]any) (map[string]any, error) {
	if len(defs) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(defs))
	for _, d := range defs {
		arg := args.ForName(d.Name)
		given := arg != nil
		if given && arg.Value.Kind == ast.Variable {
			_, given = vars[arg.Value.Raw]
		}
		switch {
		case given:
			v, err := s.coerceLiteral(d.Type, arg.Value, vars, "argument "+d.Name)
			if err != nil {
				return nil, err
			}
			out[d.Name] = v
		case d.DefaultValue != nil:
			v, err := s.coerceLiteral(d.Type, d.DefaultValue, nil, "argument "+d.Name)
			if err != nil {
				return nil, err
			}
			out[d.Name] = v
		case d.Type.NonNull:
			return nil, inputErrorf("argument %s of type %s is required: give it a value", d.Name, d.Type)
		}
	}
	return out, nil
}

// coerceLiteral coerces a value written in the operation (or a default in
// the schema) to t; variables in it take their coerced values.
func (s *Schema) coerceLiteral(t *ast.Type, v *ast.Value, vars map[string]any, where string) (any, error) {
	if v.Kind == ast.Variable {
		val, ok := vars[v.Raw]
		if !ok || val == nil {
			if t.NonNull {
				return nil, inputErrorf("%s of type %s must not be null", where, t)
			}
			return nil, nil
		}
		return val, nil
	}
	if v.Kind == ast.NullValue {
		if t.NonNull {
			return nil, inputErrorf("%s of type %s must not be null", where, t)
		}
		return nil, nil
	}
	if t.Elem != nil {
		if v.Kind != ast.ListValue {
			item, err := s.coerceLiteral(t.Elem, v, vars, where)
			if err != nil {
				return nil, err
			}
			return []any{item}, nil
		}
		out := make([]any, len(v.Children))
		for i, c := range v.Children {
			item, err := s.coerceLiteral(t.Elem, c.Value, vars, fmt.Sprintf("%s[%d]", where, i))
			if err != nil {
				return nil, err
			}
			out[i] = item
		}
		return out, nil
	}
	def := s.Types[t.NamedType]
	if def == nil {
		return nil, inputErrorf("%s has the unknown type %s", where, t.NamedType)
	}
	switch def.Kind {
	case ast.InputObject:
		return s.objectLiteral(def, v, vars, where)
	case ast.Enum:
		if v.Kind != ast.EnumValue || !s.IsEnumValue(def.Name, v.Raw) {
			return nil, inputErrorf("%s must be one of the values of the enum %s", where, def.Name)
		}
		return v.Raw, nil
	case ast.Scalar:
		return coerceScalarLiteral(def.Name, v, vars, where)
	}
	return nil, inputErrorf("%s has type %s, which is not an input type", where, def.Name)
}

// objectLiteral coerces an input object written in the operation.
func (s *Schema) objectLiteral(def *ast.Definition, v *ast.Value, vars map[string]any, where string) (any, error) {
	if v.Kind != ast.ObjectValue {
		return nil, inputErrorf("%s must be an object of type %s", where, def.Name)
	}
	given := make(map[string]any, len(v.Children))
	lits := make(map[string]*ast.Value, len(v.Children))
	for _, c := range v.Children {
		// A variable with no value is an absent field.
		if c.Value.Kind == ast.Variable {
			if _, ok := vars[c.Value.Raw]; !ok {
				continue
			}
		}
		given[c.Name], lits[c.Name] = nil, c.Value
	}
	return s.coerceObject(def, where, given, func(f *ast.FieldDefinition, _ any) (any, error) {
		return s.coerceLiteral(f.Type, lits[f.Name], vars, where+"."+f.Name)
	})
}

func coerceScalarLiteral(name string, v *ast.Value, vars map[string]any, where string) (any, error) {
	switch name {
	case "Int":
		if v.Kind == ast.IntValue {
			if i, err := strconv.ParseInt(v.Raw, 10, 32); err == nil {
				return int32(i), nil
			}
		}
		return nil, inputErrorf("%s must be an Int (a 32-bit whole number)", where)
	case "Float":
		if v.Kind == ast.IntValue || v.Kind == ast.FloatValue {
			if f, err := strconv.ParseFloat(v.Raw, 64); err == nil {
				return f, nil
			}
		}
		return nil, inputErrorf("%s must be a Float", where)
	case "String":
		if v.Kind == ast.StringValue || v.Kind == ast.BlockValue {
			return v.Raw, nil
		}
		return nil, inputErrorf("%s must be a String", where)
	case "ID":
		if v.Kind == ast.StringValue || v.Kind == ast.BlockValue || v.Kind == ast.IntValue {
			return v.Raw, nil
		}
		return nil, inputErrorf("%s must be an ID (a string or a whole number)", where)
	case "Boolean":
		if v.Kind == ast.BooleanValue {
			return v.Raw == "true", nil
		}
		return nil, inputErrorf("%s must be a Boolean", where)
	}
	return customLiteral(v, vars), nil
}

// customLiteral is a custom scalar's literal as the JSON value it would
// have been as a variable.
func customLiteral(v *ast.Value, vars map[string]any) any {
	switch v.Kind {
	case ast.Variable:
		return vars[v.Raw]
	case ast.IntValue, ast.FloatValue:
		return json.Number(v.Raw)
	case ast.BooleanValue:
		return v.Raw == "true"
	case ast.NullValue:
		return nil
	case ast.ListValue:
		out := make([]any, len(v.Children))
		for i, c := range v.Children {
			out[i] = customLiteral(c.Value, vars)
		}
		return out
	case ast.ObjectValue:
		out := make(map[string]any, len(v.Children))
		for _, c := range v.Children {
			out[c.Name] = customLiteral(c.Value, vars)
		}
		return out
	}
	return v.Raw
}
