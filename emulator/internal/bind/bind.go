// Package bind calls the emulator's model, Go resolvers written in
// graph-gophers' conventions, from the executor: a field is answered by
// the method of the same name (case and underscores aside), which may
// take a context.Context and a struct of the field's arguments and may
// return an error besides its value; a value of an abstract type says
// which object type it is through its To<Type>() (value, bool) methods.
// Arguments arrive coerced (exec's plain Go values) and are packed into
// the method's struct; results leave as exec reads them: nil for null,
// plain strings, numbers and booleans for leaves, the resolver itself for
// an object, a slice for a list (an empty one for a nil slice, as
// graph-gophers wrote it).
package bind

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// Binder calls methods by field name; it learns each Go type's methods
// once.
type Binder struct {
	types sync.Map // reflect.Type → *typeInfo
	names sync.Map // field name → normalised
}

// key is a field name normalised, remembered.
func (b *Binder) key(field string) string {
	if k, ok := b.names.Load(field); ok {
		return k.(string)
	}
	k := normalise(field)
	b.names.Store(field, k)
	return k
}

type typeInfo struct {
	methods map[string]*method       // by normalised field name
	to      map[string]reflect.Value // To<Type> methods by type name
}

type method struct {
	fn     reflect.Value // the method as a function of its receiver
	name   string
	ctx    bool
	args   reflect.Type // the arguments' struct; nil when the method takes none
	errOut bool
}

var (
	ctxType   = reflect.TypeFor[context.Context]()
	errorType = reflect.TypeFor[error]()
)

// normalise is how a field name meets a method name: case and
// underscores do not count.
func normalise(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }

func (b *Binder) info(t reflect.Type) *typeInfo {
	if ti, ok := b.types.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{methods: map[string]*method{}, to: map[string]reflect.Value{}}
	for i := range t.NumMethod() {
		m := t.Method(i)
		if name, ok := strings.CutPrefix(m.Name, "To"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 2 && m.Type.Out(1).Kind() == reflect.Bool {
			ti.to[name] = m.Func
			continue
		}
		md := &method{fn: m.Func, name: m.Name}
		in := 1 // the receiver
		if m.Type.NumIn() > in && m.Type.In(in) == ctxType {
			md.ctx = true
			in++
		}
		if m.Type.NumIn() > in {
			if a := m.Type.In(in); a.Kind() == reflect.Struct {
				md.args = a
				in++
			}
		}
		if m.Type.NumIn() != in || m.Type.NumOut() == 0 || m.Type.NumOut() > 2 {
			continue // not a field method
		}
		if m.Type.NumOut() == 2 {
			if m.Type.Out(1) != errorType {
				continue
			}
			md.errOut = true
		}
		ti.methods[normalise(m.Name)] = md
	}
	got, _ := b.types.LoadOrStore(t, ti)
	return got.(*typeInfo)
}

// Has reports whether v has a method for the field.
func (b *Binder) Has(v any, field string) bool {
	if v == nil {
		return false
	}
	_, ok := b.info(reflect.TypeOf(v)).methods[b.key(field)]
	return ok
}

// ErrNoMethod is returned when a model value has no method for a field:
// a bug in the model, which start-up's check should have caught.
var ErrNoMethod = errors.New("the model has no method for this field")

// Field calls v's method for the field with the coerced arguments args.
func (b *Binder) Field(ctx context.Context, v any, field string, args map[string]any) (any, error) {
	rv := reflect.ValueOf(v)
	m, ok := b.info(rv.Type()).methods[b.key(field)]
	if !ok {
		return nil, fmt.Errorf("%w: %T.%s", ErrNoMethod, v, field)
	}
	in := make([]reflect.Value, 1, 3)
	in[0] = rv
	if m.ctx {
		in = append(in, reflect.ValueOf(ctx))
	}
	if m.args != nil {
		a := reflect.New(m.args).Elem()
		if err := packStruct(a, args); err != nil {
			return nil, err
		}
		in = append(in, a)
	}
	out := m.fn.Call(in)
	if m.errOut && !out[1].IsNil() {
		return nil, out[1].Interface().(error)
	}
	return result(out[0]), nil
}

// TypeOf asks v which of the object types named is its own, through its
// To<Type> methods; ok is false when none answers yes.
func (b *Binder) TypeOf(v any, types []string) (string, any, bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return "", nil, false
	}
	ti := b.info(rv.Type())
	for _, name := range types {
		fn, ok := ti.to[name]
		if !ok {
			continue
		}
		out := fn.Call([]reflect.Value{rv})
		if out[1].Bool() {
			return name, result(out[0]), true
		}
	}
	return "", nil, false
}

// result turns a method's result into exec's value: nil for null,
// leaves as plain Go values, a nil slice as an empty list.
func result(v reflect.Value) any {
	for {
		switch v.Kind() {
		case reflect.Invalid:
			return nil
		case reflect.Interface:
			if v.IsNil() {
				return nil
			}
			v = v.Elem()
			continue
		case reflect.Pointer:
			if v.IsNil() {
				return nil
			}
			switch v.Elem().Kind() {
			case reflect.String, reflect.Bool, reflect.Int32, reflect.Int, reflect.Int64, reflect.Float64, reflect.Slice:
				v = v.Elem()
				continue
			}
			return v.Interface()
		case reflect.String:
			return v.String()
		case reflect.Bool:
			return v.Bool()
		case reflect.Int32, reflect.Int, reflect.Int64:
			return v.Int()
		case reflect.Float64, reflect.Float32:
			return v.Float()
		case reflect.Slice:
			if v.Len() == 0 {
				return []any{}
			}
			return v.Interface()
		}
		return v.Interface()
	}
}

// unmarshaler is a custom scalar's input, as graph-gophers reads it.
type unmarshaler interface{ UnmarshalGraphQL(input any) error }

var unmarshalerType = reflect.TypeFor[unmarshaler]()

// structFields are an arguments (or input object) struct's fields by
// normalised name, those of embedded structs included, learnt once per
// type.
var structFields sync.Map // reflect.Type → map[string][]int

func fieldsOf(t reflect.Type) map[string][]int {
	if m, ok := structFields.Load(t); ok {
		return m.(map[string][]int)
	}
	m := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		if _, dup := m[normalise(f.Name)]; !dup {
			m[normalise(f.Name)] = f.Index
		}
	}
	got, _ := structFields.LoadOrStore(t, m)
	return got.(map[string][]int)
}

// packStruct sets the fields of the arguments (or input object) struct
// dst from their coerced values; a member no field matches is ignored.
func packStruct(dst reflect.Value, args map[string]any) error {
	fields := fieldsOf(dst.Type())
	for name, v := range args {
		index, ok := fields[normalise(name)]
		if !ok {
			continue
		}
		if err := pack(dst.FieldByIndex(index), v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// pack sets dst from a coerced input value.
func pack(dst reflect.Value, v any) error {
	if dst.CanAddr() && dst.Addr().Type().Implements(unmarshalerType) {
		if v == nil {
			return nil
		}
		return dst.Addr().Interface().(unmarshaler).UnmarshalGraphQL(v)
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if v == nil {
			return nil
		}
		p := reflect.New(dst.Type().Elem())
		if err := pack(p.Elem(), v); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Interface:
		if v != nil {
			dst.Set(reflect.ValueOf(v))
		}
		return nil
	case reflect.String, reflect.Bool, reflect.Int32, reflect.Int, reflect.Int64, reflect.Float64:
		if packScalar(dst, v) {
			return nil
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			break
		}
		s := reflect.MakeSlice(dst.Type(), len(list), len(list))
		for i, item := range list {
			if err := pack(s.Index(i), item); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	case reflect.Struct:
		if m, ok := v.(map[string]any); ok {
			return packStruct(dst, m)
		}
	}
	if v == nil {
		return nil
	}
	return fmt.Errorf("a %T cannot be read into the model's %s", v, dst.Type())
}

// packScalar sets a string, bool, integer or float from its coerced
// value; false when the value is of another kind.
func packScalar(dst reflect.Value, v any) bool {
	switch x := v.(type) {
	case string:
		if dst.Kind() == reflect.String {
			dst.SetString(x)
			return true
		}
	case bool:
		if dst.Kind() == reflect.Bool {
			dst.SetBool(x)
			return true
		}
	case int32:
		switch dst.Kind() {
		case reflect.Int32, reflect.Int, reflect.Int64:
			dst.SetInt(int64(x))
			return true
		case reflect.Float64:
			dst.SetFloat(float64(x))
			return true
		}
	case float64:
		if dst.Kind() == reflect.Float64 {
			dst.SetFloat(x)
			return true
		}
	}
	return false
}
