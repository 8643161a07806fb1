package gen

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/vektah/gqlparser/v2/ast"
)

// A mutation the model does not answer is answered from its name and its
// schema, the way the platform names things:
//   - it answers its success payload (a fixture may set another answer);
//   - the object the payload carries is the one its input names by id
//     (cancelStandingOrder's standingOrderId), else a new one, created
//     with a deterministic id and listed under the objects its input
//     names (scheduleStandingOrder's accountId: the account's
//     standingOrders) and in the root lists of its type;
//   - input fields are reflected into that object where name and type
//     match (label: String, amount: AmountInput → Amount);
//   - cancel…, disable…, suspend… and close… move its status to the value
//     of the same stem (Canceled, Disabled, Suspended, Closed).

// Mutation is what a generated mutation did.
type Mutation struct {
	Payload any     // the answer
	Target  *Object // the object it created or changed; nil if none
	Created bool
	Status  string   // the status it set; "" if none
	IDs     []string // the ids its input gave, in order
}

// statusVerbs move an object's status; the value is the enum value that
// starts with the verb's stem.
var statusVerbs = map[string]string{"cancel": "cancel", "disable": "disabl", "suspend": "suspend", "close": "clos"}

// input is one input value, flattened from the arguments and from an
// input object argument's fields.
type input struct {
	name  string
	value any
	typ   *ast.Type
}

// Mutate answers a mutation of the world.
func (w *World) Mutate(field *ast.FieldDefinition, args map[string]any) (*Mutation, error) {
	if o, ok := w.store.Answer(w.mutationName(), field.Name); ok {
		return &Mutation{Payload: o}, nil
	}
	w.store.mu.Lock()
	defer w.store.mu.Unlock()
	w.store.calls[field.Name]++
	n := w.store.calls[field.Name]
	here := mix(mix(w.seed, hashString("mutation:"+field.Name)), uint64(n))
	inputs := w.flatten(field.Arguments, args)
	m := &Mutation{}
	for _, in := range inputs {
		if id, ok := in.value.(string); ok && id != "" && (strings.HasSuffix(in.name, "Id") || in.name == "id") {
			m.IDs = append(m.IDs, id)
		}
	}
	payloadDef := w.schema.Types[field.Type.Name()]
	payloadType := payloadDef.Name
	if payloadDef.Kind != ast.Object {
		payloadType = w.Member(payloadDef.Name, here)
	}
	verb := leadingWord(field.Name)
	if w.entity[payloadType] { // the mutation answers the object itself
		m.Target, m.Created = w.target(payloadType, "", inputs, verb, here)
		w.apply(m, inputs, verb)
		m.Payload = m.Target
		return m, nil
	}
	payload := &Object{Type: payloadType, h: here, set: map[string]any{}, stored: true}
	m.Payload = payload
	def := w.schema.Types[payloadType]
	if def == nil {
		return m, nil
	}
	f, entity := w.targetField(def, inputs)
	if f == nil {
		return m, nil
	}
	m.Target, m.Created = w.target(entity, f.Name, inputs, verb, here)
	w.apply(m, inputs, verb)
	payload.set[f.Name] = m.Target
	return m, nil
}

func (w *World) mutationName() string {
	if w.schema.Mutation == nil {
		return ""
	}
	return w.schema.Mutation.Name
}

// leadingWord is a mutation name's verb: cancelStandingOrder → cancel.
func leadingWord(name string) string {
	for i, r := range name {
		if unicode.IsUpper(r) {
			return name[:i]
		}
	}
	return name
}

// flatten lists the arguments, an input object argument by its fields.
func (w *World) flatten(defs ast.ArgumentDefinitionList, args map[string]any) []input {
	var out []input
	for _, d := range defs {
		v, ok := args[d.Name]
		if !ok {
			continue
		}
		if obj, isObj := v.(map[string]any); isObj && d.Type.Elem == nil {
			if def := w.schema.Types[d.Type.NamedType]; def != nil && def.Kind == ast.InputObject {
				for _, f := range def.Fields {
					if fv, ok := obj[f.Name]; ok {
						out = append(out, input{name: f.Name, value: fv, typ: f.Type})
					}
				}
				continue
			}
		}
		out = append(out, input{name: d.Name, value: v, typ: d.Type})
	}
	return out
}

// targetField is the payload's field that carries the mutation's object:
// the first whose type is an object with an id that the input names, else
// the first with such a type.
func (w *World) targetField(payload *ast.Definition, inputs []input) (*ast.FieldDefinition, string) {
	var first *ast.FieldDefinition
	var firstType string
	for _, f := range payload.Fields {
		if f.Type.Elem != nil {
			continue
		}
		typ := f.Type.NamedType
		if d := w.schema.Types[typ]; d != nil && (d.Kind == ast.Interface || d.Kind == ast.Union) {
			typ = w.Member(typ, hashString(f.Name))
		}
		if !w.entity[typ] {
			continue
		}
		if idOf(inputs, typ, f.Name) != "" {
			return f, typ
		}
		if first == nil {
			first, firstType = f, typ
		}
	}
	return first, firstType
}

// idOf is the id the input gives for an object of typ carried by field:
// standingOrderId for a StandingOrder, cardId for a card field.
func idOf(inputs []input, typ, field string) string {
	want := []string{lowerFirst(typ) + "Id", field + "Id", "id"}
	for _, name := range want {
		for _, in := range inputs {
			if in.name == name {
				if s, ok := in.value.(string); ok && s != "" {
					return s
				}
			}
		}
	}
	return ""
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// target is the object the mutation acts on: the one its input names, or
// a new one (under w.store.mu).
func (w *World) target(typ, field string, inputs []input, verb string, here uint64) (*Object, bool) {
	if id := idOf(inputs, typ, field); id != "" {
		return w.store.ensure(typ, id), false
	}
	o := w.NewObject(typ, uuid(mix(here, 0x6e6577)), 0)
	o.stored, o.set = true, map[string]any{}
	w.store.insert(o)
	w.store.adopt(o, inputs)
	return o, true
}

// apply reflects the input into the target and moves its status.
func (w *World) apply(m *Mutation, inputs []input, verb string) {
	def := w.schema.Types[m.Target.Type]
	w.reflect(m.Target, def, inputs)
	if stem, ok := statusVerbs[verb]; ok {
		m.Status = w.setStatus(m.Target, def, func(enum string) string { return w.stemValue(enum, stem) })
	}
}

// reflect copies input values into the object's fields of the same name
// and type: a scalar or enum of the same type, an input object into an
// object whose type is the input's without its Input suffix; an input
// xId names the object of the field x.
func (w *World) reflect(o *Object, def *ast.Definition, inputs []input) {
	for _, in := range inputs {
		if in.value == nil {
			continue
		}
		if f := w.schema.Field(def, in.name); f != nil {
			if v, ok := w.convert(o, f, in); ok {
				o.set[in.name] = v
			}
			continue
		}
		if v, ok := in.value.(string); ok && in.name == lowerFirst(def.Name)+"Status" {
			// simulateMerchantProfileRequestOutcome's merchantProfileStatus
			w.setStatus(o, def, func(string) string { return v })
			continue
		}
		base, isID := strings.CutSuffix(in.name, "Id")
		id, isString := in.value.(string)
		if !isID || !isString || id == "" {
			continue
		}
		if f := w.schema.Field(def, base); f != nil && f.Type.Elem == nil && w.entity[f.Type.NamedType] {
			o.set[base] = w.store.ensure(f.Type.NamedType, id)
		}
	}
}

// convert is an input value as the value of the object's field f, when
// their types match.
func (w *World) convert(o *Object, f *ast.FieldDefinition, in input) (any, bool) {
	if (f.Type.Elem == nil) != (in.typ.Elem == nil) {
		return nil, false
	}
	out, inner := f.Type, in.typ
	if out.Elem != nil {
		out, inner = out.Elem, inner.Elem
	}
	od, id := w.schema.Types[out.NamedType], w.schema.Types[inner.NamedType]
	if od == nil || id == nil {
		return nil, false
	}
	switch {
	case od.Kind == ast.Scalar || od.Kind == ast.Enum:
		if od.Name != id.Name {
			return nil, false
		}
		return in.value, true
	case od.Kind == ast.Object && id.Kind == ast.InputObject && strings.TrimSuffix(id.Name, "Input") == od.Name:
		one := func(v any, i int) (any, bool) {
			fields, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			child := &Object{Type: od.Name, h: mix(o.h, hashString(f.Name)+uint64(i)), set: map[string]any{}, stored: true}
			var sub []input
			for _, idf := range id.Fields {
				if fv, ok := fields[idf.Name]; ok {
					sub = append(sub, input{name: idf.Name, value: fv, typ: idf.Type})
				}
			}
			w.reflect(child, od, sub)
			return child, true
		}
		if f.Type.Elem == nil {
			return one(in.value, 0)
		}
		list, ok := in.value.([]any)
		if !ok {
			return nil, false
		}
		out := make([]any, 0, len(list))
		for i, item := range list {
			if c, ok := one(item, i); ok {
				out = append(out, c)
			}
		}
		return out, true
	}
	return nil, false
}

// setStatus moves o's status (its status enum field, or its statusInfo's)
// to the value value picks of the status enum; it returns the value, ""
// when the type has no such status.
func (w *World) setStatus(o *Object, def *ast.Definition, value func(enum string) string) string {
	if f := w.schema.Field(def, "status"); f != nil {
		if v := value(f.Type.Name()); v != "" && w.schema.IsEnumValue(f.Type.Name(), v) {
			o.set["status"] = v
			return v
		}
	}
	f := w.schema.Field(def, "statusInfo")
	if f == nil {
		return ""
	}
	info := w.schema.Types[f.Type.Name()]
	members := []*ast.Definition{info}
	if info.Kind != ast.Object {
		members = w.schema.PossibleTypes(info.Name)
	}
	for _, pass := range []bool{true, false} {
		for _, m := range members {
			sf := w.schema.Field(m, "status")
			if sf == nil {
				continue
			}
			v := value(sf.Type.Name())
			if v == "" || !w.schema.IsEnumValue(sf.Type.Name(), v) || (pass && !strings.Contains(m.Name, v)) {
				continue
			}
			o.set["statusInfo"] = &Object{Type: m.Name, h: mix(o.h, hashString("statusInfo")), set: map[string]any{"status": v}, stored: true}
			return v
		}
	}
	return ""
}

// stemValue is the enum's value that starts with stem, a past participle
// (Canceled) before any other (Canceling).
func (w *World) stemValue(enum, stem string) string {
	var found []string
	for _, v := range w.enums[enum] {
		if strings.HasPrefix(strings.ToLower(v), stem) {
			found = append(found, v)
		}
	}
	if len(found) == 0 {
		return ""
	}
	slices.SortStableFunc(found, func(a, b string) int {
		ea, eb := strings.HasSuffix(a, "ed"), strings.HasSuffix(b, "ed")
		switch {
		case ea && !eb:
			return -1
		case eb && !ea:
			return 1
		}
		return 0
	})
	return found[0]
}

// byIDQuery is a root field that reads one object of a type by its id.
type byIDQuery struct {
	field *ast.FieldDefinition
	arg   string
}

// indexByID finds, for each object type, the root query that reads one
// by id: a field returning the type (or an abstract type of it) whose
// only required argument is an ID or a String.
func (w *World) indexByID() {
	if w.schema.Query == nil {
		return
	}
	for _, f := range w.schema.Query.Fields {
		if f.Type.Elem != nil || strings.HasPrefix(f.Name, "__") {
			continue
		}
		arg := idArgument(f)
		if arg == "" {
			continue
		}
		def := w.schema.Types[f.Type.NamedType]
		types := []string{def.Name}
		if def.Kind != ast.Object {
			types = nil
			for _, m := range w.schema.PossibleTypes(def.Name) {
				types = append(types, m.Name)
			}
		}
		for _, t := range types {
			if _, taken := w.byID[t]; !taken && w.entity[t] {
				w.byID[t] = &byIDQuery{field: f, arg: arg}
			}
		}
	}
}

// idArgument is the argument a by-id root query takes its id in.
func idArgument(f *ast.FieldDefinition) string {
	var required []*ast.ArgumentDefinition
	for _, a := range f.Arguments {
		if a.Type.NonNull && a.DefaultValue == nil {
			required = append(required, a)
		}
	}
	if len(required) != 1 || required[0].Type.Elem != nil {
		return ""
	}
	a := required[0]
	if (a.Type.NamedType == "ID" || a.Type.NamedType == "String") && (a.Name == "id" || strings.HasSuffix(a.Name, "Id")) {
		return a.Name
	}
	return ""
}

// ByID is the root query that reads an object of the type by id, and the
// argument it takes the id in.
func (w *World) ByID(typ string) (*ast.FieldDefinition, string, bool) {
	q, ok := w.byID[typ]
	if !ok {
		return nil, "", false
	}
	return q.field, q.arg, true
}

// Query answers a root query of the world: an object read by its id is
// the stored one, or one generated for that id; anything else is
// generated from the query's name and arguments.
func (w *World) Query(field *ast.FieldDefinition, args map[string]any) (any, error) {
	if o, ok := w.store.Answer(w.rootName(), field.Name); ok {
		return o, nil
	}
	if arg := idArgument(field); arg != "" && field.Type.Elem == nil {
		if id, ok := args[arg].(string); ok {
			def := w.schema.Types[field.Type.NamedType]
			if def.Kind == ast.Object || def.Kind == ast.Interface || def.Kind == ast.Union {
				if o, ok := w.store.Lookup(def.Name, id); ok {
					return o, nil
				}
				typ := def.Name
				if def.Kind != ast.Object {
					typ = w.Member(def.Name, w.entityHash(def.Name, id))
				}
				if w.entity[typ] {
					o := w.NewObject(typ, id, 0)
					o.Lookup = true
					return o, nil
				}
			}
		}
	}
	// The same arguments, the same answer (map keys marshal sorted); the
	// paging arguments aside, so the pages of a list are of one list.
	rest := make(map[string]any, len(args))
	for k, v := range args {
		switch k {
		case "first", "after", "before", "last", "offset":
		default:
			rest[k] = v
		}
	}
	key, _ := json.Marshal(rest)
	root := mix(w.seed, hashString(w.rootName()+"("+string(key)+")"))
	return w.Value(w.rootName(), "", root, field.Name, field.Type, args)
}
