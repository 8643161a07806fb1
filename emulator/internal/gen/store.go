package gen

import (
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
)

// Store keeps the objects that were set: by fixtures at start, by the
// mutations the world answers afterwards. An object is found by its type
// and id; one a mutation created is also listed under the objects its
// input named (accountId: the account's standingOrders) and in the root
// lists of its type, newest first.
type Store struct {
	w       *World
	mu      sync.RWMutex
	objects map[string]*Object   // "Type:id"
	types   map[string]int       // objects stored by type
	lists   map[string][]*Object // "ParentType:id.field", newest first
	created []*Object            // every object created, newest first
	calls   map[string]int       // mutation → times answered
	answers map[string]*Object   // "Mutation.field" → the answer a fixture set
}

func newStore(w *World) *Store {
	return &Store{w: w, objects: map[string]*Object{}, types: map[string]int{}, lists: map[string][]*Object{}, calls: map[string]int{}, answers: map[string]*Object{}}
}

func objectKey(typ, id string) string { return typ + ":" + id }

// get is a field set on o.
func (s *Store) get(o *Object, field string) (any, bool) {
	if o.set == nil {
		return nil, false
	}
	if o.stored {
		s.mu.RLock()
		defer s.mu.RUnlock()
	}
	v, ok := o.set[field]
	return v, ok
}

// Lookup returns the stored object of a type (or of a member of an
// abstract type) with an id.
func (s *Store) Lookup(typ, id string) (*Object, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if o, ok := s.objects[objectKey(typ, id)]; ok {
		return o, true
	}
	for _, m := range s.w.schema.PossibleTypes(typ) {
		if o, ok := s.objects[objectKey(m.Name, id)]; ok {
			return o, true
		}
	}
	return nil, false
}

// HasType reports whether any object of the type (or of a member of the
// abstract type) is stored, so a caller can skip looking for one.
func (s *Store) HasType(typ string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.types) == 0 {
		return false
	}
	if s.types[typ] > 0 {
		return true
	}
	for _, m := range s.w.schema.PossibleTypes(typ) {
		if s.types[m.Name] > 0 {
			return true
		}
	}
	return false
}

// insert stores a new object (under s.mu).
func (s *Store) insert(o *Object) {
	s.objects[objectKey(o.Type, o.ID)] = o
	s.types[o.Type]++
}

// ensure returns the stored object of a type and id, storing a new one
// when there is none (under s.mu).
func (s *Store) ensure(typ, id string) *Object {
	k := objectKey(typ, id)
	if o, ok := s.objects[k]; ok {
		return o
	}
	o := s.w.NewObject(typ, id, 0)
	o.Lookup, o.stored, o.set = true, true, map[string]any{}
	s.insert(o)
	return o
}

// Answer returns the answer a fixture set for a root field
// ("Mutation.cancelCard").
func (s *Store) Answer(root, field string) (*Object, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o, ok := s.answers[root+"."+field]
	return o, ok
}

// children are the objects created under a parent's list field: for the
// root type, every created object of the list's node type.
func (s *Store) children(parentType, parentID, field, node string) []*Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if parentType == s.w.rootName() {
		var out []*Object
		for _, o := range s.created {
			if o.Type == node || s.w.schema.IsPossible(node, o.Type) {
				out = append(out, o)
			}
		}
		return out
	}
	if parentID == "" {
		return nil
	}
	return s.lists[objectKey(parentType, parentID)+"."+field]
}

// rootName is the query type's name, whose lists hold every created
// object.
func (w *World) rootName() string {
	if w.schema.Query == nil {
		return ""
	}
	return w.schema.Query.Name
}

// adopt lists a created object under the parents its input names: for
// an input accountId (an Account's id), each list of the Account whose
// nodes are of the object's type.
func (s *Store) adopt(o *Object, inputs []input) {
	s.created = append([]*Object{o}, s.created...)
	for _, in := range inputs {
		id, ok := in.value.(string)
		if !ok || id == "" {
			continue
		}
		parent := s.w.typeOfIDInput(in.name)
		if parent == nil {
			continue
		}
		for _, f := range parent.Fields {
			shape, ok := s.w.conns[f.Type.Name()]
			if !ok || (shape.node != o.Type && !s.w.schema.IsPossible(shape.node, o.Type)) {
				continue
			}
			k := objectKey(parent.Name, id) + "." + f.Name
			s.lists[k] = append([]*Object{o}, s.lists[k]...)
		}
	}
}

// typeOfIDInput is the object type an input such as accountHolderId
// names: AccountHolder.
func (w *World) typeOfIDInput(name string) *ast.Definition {
	base, ok := strings.CutSuffix(name, "Id")
	if !ok || base == "" {
		return nil
	}
	for _, def := range w.schema.SortedTypes() {
		if def.Kind == ast.Object && w.entity[def.Name] && strings.EqualFold(def.Name, base) {
			return def
		}
	}
	return nil
}

// SetAnswer makes a root field answer o (a fixture's rejection payload).
func (s *Store) SetAnswer(root, field string, o *Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stamp(o)
	s.answers[root+"."+field] = o
}

// Put stores an object a fixture sets: its fields replace those of any
// object of the same type and id.
func (s *Store) Put(typ, id string, fields map[string]any) *Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.ensure(typ, id)
	for k, v := range fields {
		o.set[k] = v
	}
	s.stamp(o)
	return o
}

// stamp marks an object and the objects in its fields as stored, so they
// are read under the lock from now on.
func (s *Store) stamp(o *Object) {
	o.stored = true
	for _, v := range o.set {
		switch x := v.(type) {
		case *Object:
			s.stamp(x)
		case []any:
			for _, item := range x {
				if c, ok := item.(*Object); ok {
					s.stamp(c)
				}
			}
		}
	}
}

// Fixture is an object as a fixture writes it, before it is stored: its
// type (for an abstract field, the member chosen) and fields.
func (w *World) Fixture(typ, id string, fields map[string]any) *Object {
	o := w.NewObject(typ, id, mix(w.seed, hashString("fixture:"+typ+":"+id)))
	o.set = fields
	return o
}

// Ref is the stored object of a type and id, stored empty when there is
// none yet: an object a fixture names by its id.
func (s *Store) Ref(typ, id string) *Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ensure(typ, id)
}
