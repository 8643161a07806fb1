// Package schemadiff lists every change between two versions of a schema,
// each classified breaking, dangerous or safe by the rule that makes it
// so (rules.go), with the Testing API's renamed simulations called out as
// renames rather than a removal and an addition.
package schemadiff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/schemafile"
)

// Change is one difference between the old schema and the new.
type Change struct {
	Level   Level  `json:"level"`
	Rule    Rule   `json:"rule"`
	Path    string `json:"path"` // Type, Type.field, Type.field(arg:), Enum.VALUE, @directive
	Message string `json:"message"`
}

func (c Change) String() string {
	return fmt.Sprintf("%s %s %s: %s", c.Level, c.Rule, c.Path, c.Message)
}

// Diff lists every change from old to new, the most harmful first. When
// both are the Testing API's, a simulation renamed is one change.
func Diff(old, new *schemafile.Schema) []Change {
	d := &differ{old: old.AST, new: new.AST, rootNames: map[string]string{}}
	d.roots()
	for _, name := range unionNames(d.old.Types, d.new.Types) {
		o, n := d.old.Types[name], d.new.Types[name]
		switch {
		case o == nil:
			d.add(TypeAdded, name, "%s added", kindName(n.Kind))
		case n == nil:
			d.add(TypeRemoved, name, "%s removed", kindName(o.Kind))
		default:
			d.typ(o, n)
		}
	}
	d.directives()
	if old.Endpoint == schemafile.Testing && new.Endpoint == schemafile.Testing {
		d.simulationRenames()
	}
	slices.SortStableFunc(d.changes, func(a, b Change) int {
		return cmp.Or(cmp.Compare(b.Level, a.Level), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Rule, b.Rule))
	})
	return d.changes
}

// Count is how many changes of each level there are.
func Count(changes []Change) (breaking, dangerous, safe int) {
	for _, c := range changes {
		switch c.Level {
		case Breaking:
			breaking++
		case Dangerous:
			dangerous++
		default:
			safe++
		}
	}
	return breaking, dangerous, safe
}

type differ struct {
	old, new *ast.Schema
	changes  []Change
	// removed and added root fields, by root type name: the candidates
	// for a renamed simulation.
	rootRemoved, rootAdded map[string][]*ast.FieldDefinition
	rootNames              map[string]string // each root type's old name → its new name
}

func (d *differ) add(rule Rule, path, format string, args ...any) {
	d.changes = append(d.changes, Change{Level: Info(rule).Level, Rule: rule, Path: path, Message: fmt.Sprintf(format, args...)})
}

// userTypes are the schema's own types: not the prelude's, not
// introspection's.
func userTypes(m map[string]*ast.Definition) map[string]*ast.Definition {
	out := make(map[string]*ast.Definition, len(m))
	for name, t := range m {
		if !t.BuiltIn && !strings.HasPrefix(name, "__") {
			out[name] = t
		}
	}
	return out
}

// unionNames are the keys of both maps, sorted, the built-in types left
// out.
func unionNames(a, b map[string]*ast.Definition) []string {
	seen := map[string]bool{}
	for name := range userTypes(a) {
		seen[name] = true
	}
	for name := range userTypes(b) {
		seen[name] = true
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func kindName(k ast.DefinitionKind) string {
	switch k {
	case ast.Object:
		return "object type"
	case ast.Interface:
		return "interface"
	case ast.Union:
		return "union"
	case ast.Enum:
		return "enum"
	case ast.InputObject:
		return "input type"
	case ast.Scalar:
		return "scalar"
	}
	return strings.ToLower(string(k))
}

func (d *differ) roots() {
	d.rootRemoved, d.rootAdded = map[string][]*ast.FieldDefinition{}, map[string][]*ast.FieldDefinition{}
	for _, r := range []struct {
		op       string
		old, new *ast.Definition
	}{{"query", d.old.Query, d.new.Query}, {"mutation", d.old.Mutation, d.new.Mutation}, {"subscription", d.old.Subscription, d.new.Subscription}} {
		switch {
		case r.old == nil:
			continue
		case r.new == nil:
			d.add(RootTypeChanged, "schema."+r.op, "the schema no longer has a %s type (it was %s)", r.op, r.old.Name)
		case r.old.Name != r.new.Name:
			d.add(RootTypeChanged, "schema."+r.op, "the %s type is now %s (it was %s)", r.op, r.new.Name, r.old.Name)
		default:
			d.rootNames[r.old.Name] = r.new.Name
		}
	}
}

func (d *differ) typ(o, n *ast.Definition) {
	path := o.Name
	if o.Kind != n.Kind {
		d.add(TypeKindChanged, path, "was %s %s, is now %s %s", article(kindName(o.Kind)), kindName(o.Kind), article(kindName(n.Kind)), kindName(n.Kind))
		return
	}
	d.description(path, o.Description, n.Description)
	switch o.Kind {
	case ast.Object, ast.Interface:
		d.fields(o, n)
		d.members(InterfaceRemoved, InterfaceAdded, path, "implements", o.Interfaces, n.Interfaces)
	case ast.InputObject:
		d.inputs(inputFieldRules(), path+".", fieldValues(o.Fields), fieldValues(n.Fields))
	case ast.Enum:
		d.enumValues(o, n)
	case ast.Union:
		d.members(UnionMemberRemoved, UnionMemberAdded, path, "member", o.Types, n.Types)
	}
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func (d *differ) fields(o, n *ast.Definition) {
	_, root := d.rootNames[o.Name]
	for _, of := range o.Fields {
		path := o.Name + "." + of.Name
		nf := n.Fields.ForName(of.Name)
		if nf == nil {
			d.add(FieldRemoved, path, "field removed%s", wasDeprecated(of.Directives))
			if root {
				d.rootRemoved[o.Name] = append(d.rootRemoved[o.Name], of)
			}
			continue
		}
		d.description(path, of.Description, nf.Description)
		d.deprecation(path, "field", of.Directives, nf.Directives)
		d.outputType(path, of.Type, nf.Type)
		d.inputs(argumentRules(), path+"(", argValues(of.Arguments), argValues(nf.Arguments))
	}
	for _, nf := range n.Fields {
		if o.Fields.ForName(nf.Name) == nil {
			d.add(FieldAdded, o.Name+"."+nf.Name, "field added: %s", nf.Type)
			if root {
				d.rootAdded[o.Name] = append(d.rootAdded[o.Name], nf)
			}
		}
	}
}

// wasDeprecated says, for a member removed, that it had been announced.
func wasDeprecated(dirs ast.DirectiveList) string {
	if reason, ok := schemafile.Deprecation(dirs); ok {
		return fmt.Sprintf(" (it was deprecated: %q)", reason)
	}
	return ""
}

func (d *differ) description(path, o, n string) {
	if o != n {
		switch {
		case o == "":
			d.add(DescriptionChanged, path, "description added")
		case n == "":
			d.add(DescriptionChanged, path, "description removed")
		default:
			d.add(DescriptionChanged, path, "description changed")
		}
	}
}

func (d *differ) deprecation(path, what string, o, n ast.DirectiveList) {
	or, od := schemafile.Deprecation(o)
	nr, nd := schemafile.Deprecation(n)
	switch {
	case !od && nd:
		d.add(Deprecated, path, "%s deprecated: %q", what, nr)
	case od && !nd:
		d.add(DeprecationRemoved, path, "%s no longer deprecated (it was: %q)", what, or)
	case od && nd && or != nr:
		d.add(DeprecationReasonChanged, path, "deprecation reason changed from %q to %q", or, nr)
	}
}

// outputType classifies a field's type change as graphql-js does: a
// value the new type allows must have been allowed by the old.
func (d *differ) outputType(path string, o, n *ast.Type) {
	if o.String() == n.String() {
		return
	}
	switch {
	case outputSafe(o, n):
		d.add(FieldTypeNarrowed, path, "type %s → %s", o, n)
	case o.NonNull && !n.NonNull && sameType(nonNull(o, false), n):
		d.add(FieldMadeNullable, path, "type %s → %s: the field can now be null", o, n)
	default:
		d.add(FieldTypeChanged, path, "type %s → %s", o, n)
	}
}

// outputSafe: every value of n is a value of o (non-null may be added,
// at any level).
func outputSafe(o, n *ast.Type) bool {
	if o.NonNull && !n.NonNull {
		return false
	}
	if o.Elem == nil || n.Elem == nil {
		return o.Elem == nil && n.Elem == nil && o.NamedType == n.NamedType
	}
	return outputSafe(o.Elem, n.Elem)
}

// inputSafe: every value o accepts, n accepts (non-null may be dropped,
// at any level).
func inputSafe(o, n *ast.Type) bool {
	if n.NonNull && !o.NonNull {
		return false
	}
	if o.Elem == nil || n.Elem == nil {
		return o.Elem == nil && n.Elem == nil && o.NamedType == n.NamedType
	}
	return inputSafe(o.Elem, n.Elem)
}

func nonNull(t *ast.Type, nn bool) *ast.Type {
	c := *t
	c.NonNull = nn
	return &c
}

func sameType(a, b *ast.Type) bool { return a.String() == b.String() }

// inputValue is an argument or an input field: both are input values.
type inputValue struct {
	name, description string
	typ               *ast.Type
	def               *ast.Value
	directives        ast.DirectiveList
}

func argValues(l ast.ArgumentDefinitionList) []inputValue {
	out := make([]inputValue, 0, len(l))
	for _, a := range l {
		out = append(out, inputValue{a.Name, a.Description, a.Type, a.DefaultValue, a.Directives})
	}
	return out
}

func fieldValues(l ast.FieldList) []inputValue {
	out := make([]inputValue, 0, len(l))
	for _, f := range l {
		out = append(out, inputValue{f.Name, f.Description, f.Type, f.DefaultValue, f.Directives})
	}
	return out
}

// inputRules are the rules of one kind of input value.
type inputRules struct {
	what                                          string
	removed, requiredAdded, optionalAdded         Rule
	madeRequired, typeChanged, relaxed, defaulted Rule
	nullRefused                                   Rule
	// path of the value name under the prefix: "Type.field(" + "arg" + ":)"
	suffix string
}

func argumentRules() inputRules {
	return inputRules{"argument", ArgumentRemoved, RequiredArgumentAdded, OptionalArgumentAdded,
		ArgumentMadeRequired, ArgumentTypeChanged, ArgumentTypeRelaxed, ArgumentDefaultChanged, ArgumentNullRefused, ":)"}
}

func inputFieldRules() inputRules {
	return inputRules{"input field", InputFieldRemoved, RequiredInputFieldAdded, OptionalInputFieldAdded,
		InputFieldMadeRequired, InputFieldTypeChanged, InputFieldTypeRelaxed, InputFieldDefaultChange, InputFieldNullRefused, ""}
}

func required(v inputValue) bool { return v.typ.NonNull && v.def == nil }

func valueText(v *ast.Value) string {
	if v == nil {
		return "none"
	}
	return v.String()
}

func (d *differ) inputs(r inputRules, prefix string, old, new []inputValue) {
	find := func(l []inputValue, name string) *inputValue {
		for i := range l {
			if l[i].name == name {
				return &l[i]
			}
		}
		return nil
	}
	for _, o := range old {
		path := prefix + o.name + r.suffix
		n := find(new, o.name)
		if n == nil {
			d.add(r.removed, path, "%s removed%s", r.what, wasDeprecated(o.directives))
			continue
		}
		d.description(path, o.description, n.description)
		d.deprecation(path, r.what, o.directives, n.directives)
		if !required(o) && required(*n) {
			d.add(r.madeRequired, path, "%s made required: %s → %s%s", r.what, o.typ, n.typ, defaultNote(o.def, n.def))
			continue
		}
		if !sameType(o.typ, n.typ) {
			switch {
			case inputSafe(o.typ, n.typ):
				d.add(r.relaxed, path, "type %s → %s", o.typ, n.typ)
			case !o.typ.NonNull && n.typ.NonNull && sameType(o.typ, nonNull(n.typ, false)):
				d.add(r.nullRefused, path, "type %s → %s (the default %s stays)", o.typ, n.typ, valueText(n.def))
			default:
				d.add(r.typeChanged, path, "type %s → %s", o.typ, n.typ)
			}
		}
		if valueText(o.def) != valueText(n.def) {
			d.add(r.defaulted, path, "default %s → %s", valueText(o.def), valueText(n.def))
		}
	}
	for _, n := range new {
		if find(old, n.name) != nil {
			continue
		}
		path := prefix + n.name + r.suffix
		if required(n) {
			d.add(r.requiredAdded, path, "required %s added: %s", r.what, n.typ)
		} else {
			d.add(r.optionalAdded, path, "optional %s added: %s", r.what, n.typ)
		}
	}
}

func defaultNote(o, n *ast.Value) string {
	if o != nil && n == nil {
		return " (its default " + o.String() + " was removed)"
	}
	return ""
}

func (d *differ) enumValues(o, n *ast.Definition) {
	for _, ov := range o.EnumValues {
		path := o.Name + "." + ov.Name
		nv := n.EnumValues.ForName(ov.Name)
		if nv == nil {
			d.add(EnumValueRemoved, path, "enum value removed%s", wasDeprecated(ov.Directives))
			continue
		}
		d.description(path, ov.Description, nv.Description)
		d.deprecation(path, "enum value", ov.Directives, nv.Directives)
	}
	for _, nv := range n.EnumValues {
		if o.EnumValues.ForName(nv.Name) == nil {
			d.add(EnumValueAdded, o.Name+"."+nv.Name, "enum value added")
		}
	}
}

// members compares a union's members or a type's interfaces.
func (d *differ) members(removed, added Rule, path, what string, o, n []string) {
	for _, m := range o {
		if !slices.Contains(n, m) {
			if what == "member" {
				d.add(removed, path, "member %s removed", m)
			} else {
				d.add(removed, path, "no longer implements %s", m)
			}
		}
	}
	for _, m := range n {
		if !slices.Contains(o, m) {
			if what == "member" {
				d.add(added, path, "member %s added", m)
			} else {
				d.add(added, path, "now implements %s", m)
			}
		}
	}
}

func (d *differ) directives() {
	names := map[string]bool{}
	for name, dir := range d.old.Directives {
		if !builtInDirective(dir) {
			names[name] = true
		}
	}
	for name, dir := range d.new.Directives {
		if !builtInDirective(dir) {
			names[name] = true
		}
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range names {
			if !yield(n) {
				return
			}
		}
	}) {
		o, n := d.old.Directives[name], d.new.Directives[name]
		path := "@" + name
		switch {
		case o == nil:
			d.add(DirectiveAdded, path, "directive added")
			continue
		case n == nil:
			d.add(DirectiveRemoved, path, "directive removed")
			continue
		}
		d.description(path, o.Description, n.Description)
		for _, l := range o.Locations {
			if !slices.Contains(n.Locations, l) {
				d.add(DirectiveLocationRemoved, path, "no longer allowed on %s", l)
			}
		}
		for _, l := range n.Locations {
			if !slices.Contains(o.Locations, l) {
				d.add(DirectiveLocationAdded, path, "now allowed on %s", l)
			}
		}
		switch {
		case o.IsRepeatable && !n.IsRepeatable:
			d.add(DirectiveNoLongerRepeats, path, "no longer repeatable")
		case !o.IsRepeatable && n.IsRepeatable:
			d.add(DirectiveMadeRepeatable, path, "now repeatable")
		}
		d.inputs(argumentRules(), path+"(", argValues(o.Arguments), argValues(n.Arguments))
	}
}

func builtInDirective(d *ast.DirectiveDefinition) bool {
	return d.Position != nil && d.Position.Src != nil && d.Position.Src.BuiltIn
}

// simulationRenames pairs each root field removed with the one added that
// takes the same arguments (the same names, and types that are the same
// or input types of the same shape) and shares a word of its name besides
// "simulate", the closest name winning a tie; a pair is reported as one
// rename, and the input types renamed with it say so.
func (d *differ) simulationRenames() {
	for oldRoot, removed := range d.rootRemoved {
		newRoot := d.rootNames[oldRoot]
		added := d.rootAdded[newRoot]
		taken := map[string]bool{}
		type pair struct{ o, n *ast.FieldDefinition }
		var pairs []pair
		for _, r := range removed {
			var best *ast.FieldDefinition
			bestDist, tie := 0, false
			for _, a := range added {
				if taken[a.Name] || !shareWord(r.Name, a.Name) || !d.sameArguments(r.Arguments, a.Arguments) {
					continue
				}
				dist := levenshtein.ComputeDistance(r.Name, a.Name)
				switch {
				case best == nil || dist < bestDist:
					best, bestDist, tie = a, dist, false
				case dist == bestDist:
					tie = true
				}
			}
			if best != nil && !tie {
				taken[best.Name] = true
				pairs = append(pairs, pair{r, best})
			}
		}
		for _, p := range pairs {
			oldPath, newPath := oldRoot+"."+p.o.Name, newRoot+"."+p.n.Name
			d.changes = slices.DeleteFunc(d.changes, func(c Change) bool {
				return (c.Rule == FieldRemoved && c.Path == oldPath) || (c.Rule == FieldAdded && c.Path == newPath)
			})
			d.add(SimulationRenamed, oldPath, "Testing API simulation renamed %s%s", p.n.Name, wasDeprecated(p.o.Directives))
			for i, oa := range p.o.Arguments {
				on, nn := oa.Type.Name(), p.n.Arguments[i].Type.Name()
				if on == nn {
					continue
				}
				for j := range d.changes {
					if c := &d.changes[j]; c.Rule == TypeRemoved && c.Path == on {
						c.Message += fmt.Sprintf(" (renamed %s with the simulation %s → %s)", nn, p.o.Name, p.n.Name)
					}
				}
			}
		}
	}
}

// sameArguments: the same argument names in the same order, each of the
// same type, or of input types of the same shape.
func (d *differ) sameArguments(o, n ast.ArgumentDefinitionList) bool {
	if len(o) != len(n) {
		return false
	}
	for i := range o {
		if o[i].Name != n[i].Name || !d.sameShape(o[i].Type, n[i].Type) {
			return false
		}
	}
	return true
}

func (d *differ) sameShape(o, n *ast.Type) bool {
	if o.NonNull != n.NonNull || (o.Elem == nil) != (n.Elem == nil) {
		return false
	}
	if o.Elem != nil {
		return d.sameShape(o.Elem, n.Elem)
	}
	if o.NamedType == n.NamedType {
		return true
	}
	ot, nt := d.old.Types[o.NamedType], d.new.Types[n.NamedType]
	if ot == nil || nt == nil || ot.Kind != ast.InputObject || nt.Kind != ast.InputObject || len(ot.Fields) != len(nt.Fields) {
		return false
	}
	for i, f := range ot.Fields {
		if g := nt.Fields[i]; g.Name != f.Name || g.Type.String() != f.Type.String() {
			return false
		}
	}
	return true
}

// shareWord: the camel-case words of a and b, "simulate" aside, meet.
func shareWord(a, b string) bool {
	wa := words(a)
	for _, w := range words(b) {
		if w != "simulate" && slices.Contains(wa, w) {
			return true
		}
	}
	return false
}

func words(name string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || (name[i] >= 'A' && name[i] <= 'Z') {
			out = append(out, strings.ToLower(name[start:i]))
			start = i
		}
	}
	return out
}
