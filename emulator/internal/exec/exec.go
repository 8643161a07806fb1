package exec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Resolver answers what the schema alone cannot: the value of a field of
// an object and the object type of a value of an abstract type. Exec calls
// it for every field but __typename and introspection.
type Resolver interface {
	// ResolveField returns the value of f. The *Field is valid only during
	// the call.
	ResolveField(ctx context.Context, f *Field) (any, error)
	// ResolveType names the object type of v, a value of the interface or
	// union abstract, and returns the value to complete as that type
	// (often v itself).
	ResolveType(ctx context.Context, abstract *ast.Definition, v any) (string, any, error)
}

// Field is one field of one object, as Resolver.ResolveField is asked it.
type Field struct {
	Object     any                  // the object's value, as its parent field resolved it
	ObjectType *ast.Definition      // the object's type
	Definition *ast.FieldDefinition // the field, as the object type defines it
	Args       map[string]any       // coerced arguments, defaults applied
	Selections []*ast.Field         // the field's nodes in the operation, merged
	path       *pathNode
}

// Path is where the field is in the response: response keys and list
// indexes from the root.
func (f *Field) Path() []any { return f.path.slice() }

// NamePath is the field's place with field names instead of aliases
// ("accounts.edges.3.node.holder"), the same for every operation that
// reaches it the same way.
func (f *Field) NamePath() string { return f.path.names() }

// Params is one execution.
type Params struct {
	Schema    *Schema
	Doc       *ast.QueryDocument
	Operation *ast.OperationDefinition
	Variables map[string]any // coerced (Schema.CoerceVariables)
	Root      any            // the root object's value
	Resolver  Resolver
}

// Response is an execution's result.
type Response struct {
	Data   json.RawMessage // the data object, or null once a non-null root field failed
	Errors []*Error
}

// MarshalJSON writes the response as GraphQL over HTTP does.
func (r *Response) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(r.Data)+16)
	b = append(b, '{')
	if len(r.Errors) > 0 {
		errs, err := json.Marshal(r.Errors)
		if err != nil {
			return nil, err
		}
		b = append(b, `"errors":`...)
		b = append(b, errs...)
		if r.Data != nil {
			b = append(b, ',')
		}
	}
	if r.Data != nil {
		b = append(b, `"data":`...)
		b = append(b, r.Data...)
	}
	return append(b, '}'), nil
}

// Error is one entry of a response's errors.
type Error struct {
	Message    string         `json:"message"`
	Locations  []Location     `json:"locations,omitempty"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
	// Err is the resolver's error, when a resolver returned one.
	Err error `json:"-"`
}

func (e *Error) Error() string { return e.Message }

// Location is a line and column of the operation, from 1.
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

func locationsOf(p *ast.Position) []Location {
	if p == nil {
		return nil
	}
	return []Location{{Line: p.Line, Column: p.Column}}
}

// pathNode is one step of a response path: a field's response key, or a
// list index.
type pathNode struct {
	parent *pathNode
	key    string // response key; "" for a list index
	name   string // field name
	index  int
}

func (p *pathNode) slice() []any {
	n := 0
	for q := p; q != nil; q = q.parent {
		n++
	}
	out := make([]any, n)
	for q := p; q != nil; q = q.parent {
		n--
		if q.key != "" {
			out[n] = q.key
		} else {
			out[n] = q.index
		}
	}
	return out
}

func (p *pathNode) names() string {
	var parts []string
	for q := p; q != nil; q = q.parent {
		if q.key != "" {
			parts = append(parts, q.name)
		} else {
			parts = append(parts, strconv.Itoa(q.index))
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
		if i > 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// planField is one response key of an object's selection: its merged
// field nodes, definition and arguments (coerced once per execution).
type planField struct {
	key    string
	fields []*ast.Field
	def    *ast.FieldDefinition
	args   map[string]any
	argErr error
}

type planKey struct {
	obj   *ast.Definition
	first *ast.Field // nil: the operation's root selection
}

type executor struct {
	Params
	ctx   context.Context
	buf   []byte
	errs  []*Error
	plans map[planKey][]*planField
	field Field
}

// typenameField is the meta-field every object has.
var typenameField = &ast.FieldDefinition{Name: "__typename", Type: ast.NonNullNamedType("String", nil)}

// Execute runs an operation that has been parsed, validated and had its
// variables coerced.
func Execute(ctx context.Context, p Params) *Response {
	e := &executor{Params: p, ctx: ctx, plans: map[planKey][]*planField{}, buf: make([]byte, 0, 4096)}
	root := p.Schema.Query
	if p.Operation.Operation == ast.Mutation {
		root = p.Schema.Mutation
	}
	if root == nil {
		return &Response{Errors: []*Error{{Message: fmt.Sprintf("the schema has no %s type", p.Operation.Operation)}}}
	}
	if !e.object(root, nil, p.Root, nil) {
		e.buf = append(e.buf[:0], "null"...)
	}
	return &Response{Data: e.buf, Errors: e.errs}
}

// plan collects the fields of an object type's selection (the merged
// selections of fields, or the operation's when fields is nil), cached
// for every object of the type reached through the same fields.
func (e *executor) plan(obj *ast.Definition, fields []*ast.Field) []*planField {
	k := planKey{obj: obj}
	if len(fields) > 0 {
		k.first = fields[0]
	}
	if p, ok := e.plans[k]; ok && len(fields) <= 1 {
		return p
	}
	var out []*planField
	index := map[string]int{}
	visited := map[string]bool{}
	if fields == nil {
		e.collect(obj, e.Operation.SelectionSet, &out, index, visited)
	}
	for _, f := range fields {
		e.collect(obj, f.SelectionSet, &out, index, visited)
	}
	for _, pf := range out {
		if pf.fields[0].Name == "__typename" {
			pf.def = typenameField
			continue
		}
		pf.def = e.Schema.Field(obj, pf.fields[0].Name)
		if pf.def != nil {
			pf.args, pf.argErr = e.Schema.coerceArgs(pf.def.Arguments, pf.fields[0].Arguments, e.Variables)
		}
	}
	if len(fields) <= 1 {
		e.plans[k] = out
	}
	return out
}

// collect is the specification's CollectFields.
func (e *executor) collect(obj *ast.Definition, ss ast.SelectionSet, out *[]*planField, index map[string]int, visited map[string]bool) {
	for _, sel := range ss {
		switch s := sel.(type) {
		case *ast.Field:
			if e.skipped(s.Directives) {
				continue
			}
			if i, ok := index[s.Alias]; ok {
				(*out)[i].fields = append((*out)[i].fields, s)
				continue
			}
			index[s.Alias] = len(*out)
			*out = append(*out, &planField{key: s.Alias, fields: []*ast.Field{s}})
		case *ast.InlineFragment:
			if e.skipped(s.Directives) || !e.Schema.applies(obj, s.TypeCondition) {
				continue
			}
			e.collect(obj, s.SelectionSet, out, index, visited)
		case *ast.FragmentSpread:
			if e.skipped(s.Directives) || visited[s.Name] {
				continue
			}
			visited[s.Name] = true
			f := e.Doc.Fragments.ForName(s.Name)
			if f == nil || !e.Schema.applies(obj, f.TypeCondition) {
				continue
			}
			e.collect(obj, f.SelectionSet, out, index, visited)
		}
	}
}

// skipped evaluates @skip and @include.
func (e *executor) skipped(dirs ast.DirectiveList) bool {
	if len(dirs) == 0 {
		return false
	}
	cond := func(name string) (bool, bool) {
		d := dirs.ForName(name)
		if d == nil {
			return false, false
		}
		a := d.Arguments.ForName("if")
		if a == nil {
			return false, false
		}
		v, err := e.Schema.coerceLiteral(ast.NonNullNamedType("Boolean", nil), a.Value, e.Variables, "@"+name+"(if:)")
		b, _ := v.(bool)
		return b, err == nil
	}
	if skip, ok := cond("skip"); ok && skip {
		return true
	}
	if include, ok := cond("include"); ok && !include {
		return true
	}
	return false
}

// object writes an object's selected fields; false when a non-null field
// of it is null, so the object itself is null (the caller decides what
// that nulls).
func (e *executor) object(obj *ast.Definition, fields []*ast.Field, v any, path *pathNode) bool {
	plan := e.plan(obj, fields)
	e.buf = append(e.buf, '{')
	for i, pf := range plan {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendString(e.buf, pf.key)
		e.buf = append(e.buf, ':')
		if pf.def == typenameField {
			e.buf = appendString(e.buf, obj.Name)
			continue
		}
		fpath := &pathNode{parent: path, key: pf.key, name: pf.fields[0].Name}
		val, err := e.resolve(obj, pf, v, fpath)
		if err != nil {
			e.fieldError(fpath, pf.fields, err)
			if pf.def.Type.NonNull {
				return false
			}
			e.buf = append(e.buf, "null"...)
			continue
		}
		if !e.complete(pf.def.Type, pf.fields, val, fpath) {
			return false
		}
	}
	e.buf = append(e.buf, '}')
	return true
}

// resolve asks the resolver for a field's value, or answers it when it is
// introspection.
func (e *executor) resolve(obj *ast.Definition, pf *planField, v any, path *pathNode) (any, error) {
	if pf.def == nil {
		return nil, fmt.Errorf("cannot query field %q on type %q", pf.fields[0].Name, obj.Name)
	}
	if pf.argErr != nil {
		return nil, pf.argErr
	}
	if strings.HasPrefix(obj.Name, "__") || strings.HasPrefix(pf.def.Name, "__") {
		return e.introspect(obj, pf, v)
	}
	e.field = Field{Object: v, ObjectType: obj, Definition: pf.def, Args: pf.args, Selections: pf.fields, path: path}
	return e.Resolver.ResolveField(e.ctx, &e.field)
}

// complete writes v as a value of type t; false when t is non-null and
// the value is null (an error is recorded where it happened).
func (e *executor) complete(t *ast.Type, fields []*ast.Field, v any, path *pathNode) bool {
	if isNull(v) {
		if t.NonNull {
			e.nullError(path, fields, t)
			return false
		}
		e.buf = append(e.buf, "null"...)
		return true
	}
	if t.NonNull {
		return e.completeValue(t, fields, v, path)
	}
	start := len(e.buf)
	if !e.completeValue(t, fields, v, path) {
		e.buf = append(e.buf[:start], "null"...)
	}
	return true
}

// completeValue writes a non-null value of t, nullability aside.
func (e *executor) completeValue(t *ast.Type, fields []*ast.Field, v any, path *pathNode) bool {
	if t.Elem != nil {
		return e.list(t.Elem, fields, v, path)
	}
	def := e.Schema.Types[t.NamedType]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		b, err := e.leaf(e.buf, def, v)
		if err != nil {
			e.fieldError(path, fields, err)
			return false
		}
		e.buf = b
		return true
	case ast.Object:
		return e.object(def, fields, v, path)
	case ast.Interface, ast.Union:
		name, val, err := e.Resolver.ResolveType(e.ctx, def, v)
		if err != nil {
			e.fieldError(path, fields, err)
			return false
		}
		obj := e.Schema.Types[name]
		if obj == nil || obj.Kind != ast.Object || !e.Schema.IsPossible(def.Name, name) {
			e.fieldError(path, fields, fmt.Errorf("the value's type %q is not one of the possible types of %s", name, def.Name))
			return false
		}
		return e.object(obj, fields, val, path)
	}
	e.fieldError(path, fields, fmt.Errorf("%s is not an output type", def.Name))
	return false
}

func (e *executor) list(elem *ast.Type, fields []*ast.Field, v any, path *pathNode) bool {
	e.buf = append(e.buf, '[')
	if items, ok := v.([]any); ok {
		for i, item := range items {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if !e.complete(elem, fields, item, &pathNode{parent: path, index: i}) {
				return false
			}
		}
		e.buf = append(e.buf, ']')
		return true
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		e.fieldError(path, fields, fmt.Errorf("a list was expected, the resolver gave a %T", v))
		return false
	}
	for i := range rv.Len() {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if !e.complete(elem, fields, rv.Index(i).Interface(), &pathNode{parent: path, index: i}) {
			return false
		}
	}
	e.buf = append(e.buf, ']')
	return true
}

// isNull reports whether v is null: nil, or a nil pointer, slice, map or
// interface.
func isNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string, bool, int32, int, int64, float64, []any:
		return false
	case *string:
		return x == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Func:
		return rv.IsNil()
	}
	return false
}

// leaf appends a scalar or enum value, refusing one the type cannot
// represent (an answer never holds a value its schema forbids).
func (e *executor) leaf(b []byte, def *ast.Definition, v any) ([]byte, error) {
	v = deref(v)
	if def.Kind == ast.Enum {
		s, ok := asString(v)
		if !ok || !e.Schema.IsEnumValue(def.Name, s) {
			return b, fmt.Errorf("enum %s cannot represent the value %s", def.Name, describe(v))
		}
		return appendString(b, s), nil
	}
	switch def.Name {
	case "Int":
		n, ok := asInt(v)
		if !ok || n < math.MinInt32 || n > math.MaxInt32 {
			return b, fmt.Errorf("an Int cannot represent %s", describe(v))
		}
		return appendInt(b, n), nil
	case "Float":
		f, ok := asFloat(v)
		if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
			return b, fmt.Errorf("a Float cannot represent %s", describe(v))
		}
		return appendFloat(b, f), nil
	case "String":
		s, ok := asString(v)
		if !ok {
			return b, fmt.Errorf("a String cannot represent %s", describe(v))
		}
		return appendString(b, s), nil
	case "Boolean":
		x, ok := v.(bool)
		if !ok {
			return b, fmt.Errorf("a Boolean cannot represent %s", describe(v))
		}
		return strconv.AppendBool(b, x), nil
	case "ID":
		if s, ok := asString(v); ok {
			return appendString(b, s), nil
		}
		if n, ok := asInt(v); ok {
			return appendString(b, strconv.FormatInt(n, 10)), nil
		}
		return b, fmt.Errorf("an ID cannot represent %s", describe(v))
	}
	return customLeaf(b, def, v)
}

// customLeaf appends a custom scalar's value: strings, numbers and
// booleans as they are, anything else as encoding/json writes it.
func customLeaf(b []byte, def *ast.Definition, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return appendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case json.Number:
		return append(b, x...), nil
	}
	if s, ok := asString(v); ok {
		return appendString(b, s), nil
	}
	if n, ok := asInt(v); ok {
		return appendInt(b, n), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return b, fmt.Errorf("%s cannot represent %s", def.Name, describe(v))
	}
	return append(b, raw...), nil
}

func deref(v any) any {
	switch x := v.(type) {
	case string, bool, int32, int64, int, float64:
		return v
	case *string:
		return *x
	case *bool:
		return *x
	case *int32:
		return *x
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.IsValid() {
		return rv.Interface()
	}
	return v
}

func asString(v any) (string, bool) {
	if s, ok := v.(string); ok {
		return s, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.String {
		return rv.String(), true
	}
	return "", false
}

func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int32:
		return int64(n), true
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		return int64(n), n == math.Trunc(n) && math.Abs(n) < 1<<53
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return int64(rv.Uint()), true
	}
	return 0, false
}

func asFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	if i, ok := asInt(v); ok {
		return float64(i), true
	}
	return 0, false
}

// describe names a value's kind for an error, without its content.
func describe(v any) string {
	switch v.(type) {
	case string:
		return "a string value"
	case bool:
		return "a boolean value"
	case nil:
		return "null"
	}
	if _, ok := asFloat(v); ok {
		return "a number value"
	}
	return fmt.Sprintf("a value of Go type %T", v)
}

// fieldError records a field error at path.
func (e *executor) fieldError(path *pathNode, fields []*ast.Field, err error) {
	qe := &Error{Message: err.Error(), Path: path.slice(), Err: err}
	if len(fields) > 0 {
		qe.Locations = locationsOf(fields[0].Position)
	}
	var ext interface{ Extensions() map[string]any }
	if errors.As(err, &ext) {
		qe.Extensions = ext.Extensions()
	}
	e.errs = append(e.errs, qe)
}

// nullError records a null where t forbids one.
func (e *executor) nullError(path *pathNode, fields []*ast.Field, t *ast.Type) {
	what := "field"
	if path != nil && path.key == "" {
		what = "list item"
	}
	name := ""
	if len(fields) > 0 {
		name = fields[0].Name
	}
	e.fieldError(path, fields, fmt.Errorf("cannot return null for the non-null %s %s of type %s", what, name, t))
}
