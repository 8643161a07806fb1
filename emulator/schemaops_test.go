package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// The tests of the whole schema: every root operation of the schemas a
// user brings (here the public ones, from the shared reference files)
// answers without a GraphQL error, and every answer is checked against
// the schema by a walk independent of the executor: types, nullability,
// enum values, the members of abstract types.

// referenceOptions are Options serving the public schemas.
func referenceOptions(t testing.TB) Options {
	t.Helper()
	return Options{Accounts: 5, Schemas: []Source{
		{Path: referencePath(t, "partner-schema.graphql")},
		{Path: referencePath(t, "partner-admin-schema.graphql")},
	}}
}

// opBuilder writes an operation that selects a root field and, below it,
// every field of every type it reaches to a depth, within the Sandbox's
// field limit: arguments required are given realistic values, pages are
// short, abstract types are selected by each member.
type opBuilder struct {
	s      *ast.Schema
	fields int
	// ids are the ids of objects the model has, by the root field that
	// reads one: the model answers an id it does not know with an error.
	ids map[string]string
}

const (
	opMaxDepth  = 4
	opMaxFields = 700
)

// operation is the document for the root field f of root.
func (b *opBuilder) operation(root *ast.Definition, f *ast.FieldDefinition) string {
	b.fields = 1
	kind := "query"
	if root == b.s.Mutation {
		kind = "mutation"
	}
	args := b.args(f, true)
	if id, ok := b.ids[f.Name]; ok && len(f.Arguments) > 0 {
		args = fmt.Sprintf("(%s: %q)", f.Arguments[0].Name, id)
	}
	return fmt.Sprintf("%s Op { %s%s%s }", kind, f.Name, args, b.selection(f.Type.Name(), 1))
}

// args writes the arguments of a field: every required one (and first, to
// keep pages short).
func (b *opBuilder) args(f *ast.FieldDefinition, root bool) string {
	var parts []string
	for _, a := range f.Arguments {
		switch {
		case a.Name == "first":
			parts = append(parts, "first: 2")
		case a.Type.NonNull && a.DefaultValue == nil:
			parts = append(parts, a.Name+": "+b.literal(a.Name, a.Type, 0))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// literal is a realistic value of type t for an input named name.
func (b *opBuilder) literal(name string, t *ast.Type, depth int) string {
	if t.Elem != nil {
		return "[" + b.literal(name, t.Elem, depth) + "]"
	}
	def := b.s.Types[t.NamedType]
	lower := strings.ToLower(name)
	switch def.Kind {
	case ast.Enum:
		for _, v := range def.EnumValues {
			if v.Directives.ForName("deprecated") == nil {
				return v.Name
			}
		}
		return def.EnumValues[0].Name
	case ast.InputObject:
		var parts []string
		for _, f := range def.Fields {
			// An amount too: the model's simulations need one.
			if (f.Type.NonNull && f.DefaultValue == nil || f.Name == "amount") && depth < 6 {
				parts = append(parts, f.Name+": "+b.literal(f.Name, f.Type, depth+1))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch def.Name {
	case "Int":
		return "1"
	case "Float":
		return "1.5"
	case "Boolean":
		return "false"
	case "IBAN":
		return `"FR7630006000011234567890189"`
	case "BIC":
		return `"SWNBFR22"`
	case "AmountValue":
		return `"10.00"`
	case "Currency":
		return `"EUR"`
	case "Date":
		return `"1990-05-17"`
	case "DateTime":
		return `"2026-11-01T09:00:00.000Z"`
	case "CCA3":
		return `"FRA"`
	case "CCA2":
		return `"FR"`
	case "PhoneNumber":
		return `"+33612345678"`
	case "EmailAddress":
		return `"alice.martin@example.com"`
	case "URL":
		return `"https://example.com/callback"`
	case "HexColorCode":
		return `"#1A2B3C"`
	}
	switch {
	case strings.HasSuffix(lower, "iban"):
		return `"FR7630006000011234567890189"`
	case strings.Contains(lower, "email"):
		return `"alice.martin@example.com"`
	case strings.Contains(lower, "phone"):
		return `"+33612345678"`
	case strings.Contains(lower, "url"):
		return `"https://example.com/callback"`
	case strings.Contains(lower, "amount") || strings.Contains(lower, "value"):
		return `"10.00"`
	case strings.Contains(lower, "date") || strings.HasSuffix(lower, "at"):
		return `"2026-11-01T09:00:00.000Z"`
	case strings.Contains(lower, "country") || strings.Contains(lower, "nationality"):
		return `"FRA"`
	case strings.Contains(lower, "currency"):
		return `"EUR"`
	case strings.Contains(lower, "name"):
		return `"Alice"`
	}
	return `"0f2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b"`
}

// selection selects the fields of a type to opMaxDepth; "" for a leaf.
func (b *opBuilder) selection(typeName string, depth int) string {
	def := b.s.Types[typeName]
	if def.Kind == ast.Scalar || def.Kind == ast.Enum {
		return ""
	}
	parts := []string{"__typename"}
	b.fields++
	parts = append(parts, b.fieldsOf(def, depth, "")...)
	if def.Kind == ast.Interface || def.Kind == ast.Union {
		// Each member's fields under aliases of their own: two members
		// may have a field of one name and two types.
		for _, m := range b.s.PossibleTypes[def.Name] {
			if inner := b.fieldsOf(m, depth, m.Name+"_"); len(inner) > 0 {
				parts = append(parts, "... on "+m.Name+" { "+strings.Join(inner, " ")+" }")
			}
		}
	}
	return " { " + strings.Join(parts, " ") + " }"
}

func (b *opBuilder) fieldsOf(def *ast.Definition, depth int, alias string) []string {
	var out []string
	for _, f := range def.Fields {
		if strings.HasPrefix(f.Name, "__") || b.fields >= opMaxFields {
			continue
		}
		required := slices.ContainsFunc(f.Arguments, func(a *ast.ArgumentDefinition) bool { return a.Type.NonNull && a.DefaultValue == nil })
		if required && depth > 1 {
			continue
		}
		nd := b.s.Types[f.Type.Name()]
		name := f.Name
		if alias != "" {
			name = alias + f.Name + ": " + f.Name
		}
		if nd.Kind == ast.Scalar || nd.Kind == ast.Enum {
			out = append(out, name+b.args(f, false))
			b.fields++
			continue
		}
		if depth >= opMaxDepth {
			continue
		}
		b.fields++
		out = append(out, name+b.args(f, false)+b.selection(nd.Name, depth+1))
	}
	return out
}

// checkAnswer walks the data of an answer alongside the operation's
// selection and the schema; it returns every way the data breaks the
// schema.
func checkAnswer(s *ast.Schema, doc *ast.QueryDocument, data any, vars map[string]any) []string {
	var problems []string
	// skipped evaluates @skip and @include as the executor must.
	skipped := func(dirs ast.DirectiveList) bool {
		for _, d := range dirs {
			if d.Name != "skip" && d.Name != "include" {
				continue
			}
			v, _ := d.Arguments.ForName("if").Value.Value(vars)
			if b, _ := v.(bool); b == (d.Name == "skip") {
				return true
			}
		}
		return false
	}
	op := doc.Operations[0]
	root := s.Query
	if op.Operation == ast.Mutation {
		root = s.Mutation
	}
	var object func(def *ast.Definition, ss ast.SelectionSet, v map[string]any, path string)
	var value func(t *ast.Type, ss ast.SelectionSet, v any, path string)
	value = func(t *ast.Type, ss ast.SelectionSet, v any, path string) {
		if v == nil {
			if t.NonNull {
				problems = append(problems, path+": null for "+t.String())
			}
			return
		}
		if t.Elem != nil {
			list, ok := v.([]any)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: %T for the list %s", path, v, t))
				return
			}
			for i, item := range list {
				value(t.Elem, ss, item, fmt.Sprintf("%s.%d", path, i))
			}
			return
		}
		def := s.Types[t.NamedType]
		switch def.Kind {
		case ast.Enum:
			str, ok := v.(string)
			if !ok || def.EnumValues.ForName(str) == nil {
				problems = append(problems, fmt.Sprintf("%s: %v is not a value of %s", path, v, def.Name))
			}
		case ast.Scalar:
			if msg := scalarProblem(def.Name, v); msg != "" {
				problems = append(problems, path+": "+msg)
			}
		default:
			obj, ok := v.(map[string]any)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: %T for the object %s", path, v, def.Name))
				return
			}
			if def.Kind == ast.Object {
				object(def, ss, obj, path)
				return
			}
			if tn, ok := obj["__typename"].(string); ok {
				concrete := s.Types[tn]
				if concrete == nil || !slices.ContainsFunc(s.PossibleTypes[def.Name], func(d *ast.Definition) bool { return d.Name == tn }) {
					problems = append(problems, fmt.Sprintf("%s: __typename %q is not a type of %s", path, tn, def.Name))
					return
				}
				object(concrete, ss, obj, path)
				return
			}
			// No __typename selected: the value must be one of the
			// members, whichever it is.
			var first []string
			for i, m := range s.PossibleTypes[def.Name] {
				saved := problems
				problems = nil
				object(m, ss, obj, path)
				found := problems
				problems = saved
				if len(found) == 0 {
					return
				}
				if i == 0 {
					first = found
				}
			}
			problems = append(problems, first...)
		}
	}
	object = func(def *ast.Definition, ss ast.SelectionSet, v map[string]any, path string) {
		for _, sel := range ss {
			switch x := sel.(type) {
			case *ast.Field:
				if skipped(x.Directives) {
					continue
				}
				got, present := v[x.Alias]
				if !present {
					problems = append(problems, path+"."+x.Alias+": missing")
					continue
				}
				if x.Name == "__typename" {
					if got != def.Name {
						problems = append(problems, fmt.Sprintf("%s.__typename: %v, want %s", path, got, def.Name))
					}
					continue
				}
				f := def.Fields.ForName(x.Name)
				value(f.Type, x.SelectionSet, got, path+"."+x.Alias)
			case *ast.InlineFragment:
				if skipped(x.Directives) {
					continue
				}
				if x.TypeCondition == "" || x.TypeCondition == def.Name || slices.ContainsFunc(s.PossibleTypes[x.TypeCondition], func(d *ast.Definition) bool { return d.Name == def.Name }) {
					object(def, x.SelectionSet, v, path)
				}
			case *ast.FragmentSpread:
				f := doc.Fragments.ForName(x.Name)
				if f != nil && !skipped(x.Directives) && (f.TypeCondition == def.Name || slices.ContainsFunc(s.PossibleTypes[f.TypeCondition], func(d *ast.Definition) bool { return d.Name == def.Name })) {
					object(def, f.SelectionSet, v, path)
				}
			}
		}
	}
	m, ok := data.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("data is %T", data)}
	}
	object(root, op.SelectionSet, m, "data")
	return problems
}

func scalarProblem(name string, v any) string {
	switch name {
	case "Int":
		n, ok := v.(json.Number)
		if i, err := n.Int64(); !ok || err != nil || i < math.MinInt32 || i > math.MaxInt32 {
			return fmt.Sprintf("%v is not an Int", v)
		}
	case "Float":
		if _, ok := v.(json.Number); !ok {
			return fmt.Sprintf("%v is not a Float", v)
		}
	case "Boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%v is not a Boolean", v)
		}
	case "String", "ID":
		if _, ok := v.(string); !ok {
			return fmt.Sprintf("%v is not a %s", v, name)
		}
	case "IBAN":
		if s, ok := v.(string); !ok || !validIBAN(s) {
			return fmt.Sprintf("%v is not an IBAN", v)
		}
	case "AmountValue":
		if s, ok := v.(string); !ok || !isDecimal(s) {
			return fmt.Sprintf("%v is not a decimal string", v)
		}
	case "DateTime", "Date":
		if s, ok := v.(string); !ok || len(s) < 10 || s[4] != '-' || s[7] != '-' {
			return fmt.Sprintf("%v is not a %s", v, name)
		}
	}
	return ""
}

// validIBAN checks an IBAN's check digits (ISO 13616 mod 97).
func validIBAN(s string) bool {
	if len(s) < 15 || len(s) > 34 {
		return false
	}
	rearranged := s[4:] + s[:4]
	rem := 0
	for _, c := range rearranged {
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return rem == 1
}

func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" {
		return false
	}
	for _, c := range whole + frac {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// rootOperation is one root field of a reference schema and the endpoint
// that serves it.
type rootOperation struct {
	path  string
	root  *ast.Definition
	field *ast.FieldDefinition
}

func referenceOperations(t testing.TB) (map[string]*ast.Schema, []rootOperation) {
	partner, admin := referenceSchema(t, "partner-schema.graphql"), referenceSchema(t, "partner-admin-schema.graphql")
	schemas := map[string]*ast.Schema{pathSandbox: partner, pathAdmin: admin}
	var ops []rootOperation
	for _, path := range []string{pathSandbox, pathAdmin} {
		s := schemas[path]
		for _, root := range []*ast.Definition{s.Query, s.Mutation} {
			for _, f := range root.Fields {
				if !strings.HasPrefix(f.Name, "__") {
					ops = append(ops, rootOperation{path: path, root: root, field: f})
				}
			}
		}
	}
	return schemas, ops
}

// runOperation sends one built operation: the Testing API with a user's
// token, the partner API with the project's, or a user's when the field
// is a user's own.
func runOperation(e *testEnv, s *ast.Schema, op rootOperation, ids map[string]string) (string, gqlResult) {
	b := &opBuilder{s: s, ids: ids}
	q := b.operation(op.root, op.field)
	tok := tokSandboxProject
	if op.path == pathAdmin {
		tok = tokSandboxUser0
	}
	r := e.query(op.path, tok, q, nil)
	if len(r.Errors) > 0 && tok == tokSandboxProject {
		r = e.query(op.path, tokSandboxUser0, q, nil) // the field is a user's own
	}
	return q, r
}

// modelIDs are ids of a transaction, a payment, a statement and a consent the model
// has, for the root fields that read one.
func modelIDs(e *testEnv) map[string]string {
	e.t.Helper()
	var tx struct {
		Transactions struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `{ transactions(first: 1) { edges { node { id } } } }`, nil, &tx)
	var st struct {
		Accounts struct {
			Edges []struct {
				Node struct {
					Statements struct {
						Edges []struct{ Node struct{ ID string } }
					}
				}
			}
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `{ accounts(first: 10) { edges { node { statements(first: 1) { edges { node { id } } } } } } }`, nil, &st)
	statement := ""
	for _, a := range st.Accounts.Edges {
		if s := a.Node.Statements.Edges; len(s) > 0 && statement == "" {
			statement = s[0].Node.ID
		}
	}
	p := (&simEnv{testEnv: e}).initiate(tokSandboxUser0, e.transferTarget().ID, "1.00")
	if len(tx.Transactions.Edges) == 0 || p.Payment.ID == "" || statement == "" {
		e.t.Fatalf("no transaction (%+v), no payment (%+v) or no statement", tx, p)
	}
	// A beneficiary the project adds waits for its consent.
	b, err := e.sandbox.AddBeneficiary(data.Viewer{Project: true}, data.NewBeneficiary{AccountID: e.transferTarget().ID,
		Name: "Atelier Moreau", IBAN: "FR7630006000011234567890189", ConsentURL: "https://consent.example.com/"})
	if err != nil || b.Consent.ID == "" {
		e.t.Fatalf("no consent: %+v, %v", b, err)
	}
	return map[string]string{"transaction": tx.Transactions.Edges[0].Node.ID, "payment": p.Payment.ID, "accountStatement": statement, "consent": b.Consent.ID}
}

// TestEveryOperationAnswers: with the public schemas served, every root
// operation of both answers without a GraphQL error, and its answer is
// what the schema says.
func TestEveryOperationAnswers(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, referenceOptions(t))
	schemas, ops := referenceOperations(t)
	ids := modelIDs(e)
	answered := 0
	for _, op := range ops {
		s := schemas[op.path]
		q, r := runOperation(e, s, op, ids)
		if r.Status != 200 || len(r.Errors) > 0 {
			t.Errorf("%s %s: status %d, %d errors, the first %+v\n%.300s", op.path, op.field.Name, r.Status, len(r.Errors), r.Errors[0], q)
			continue
		}
		doc := parseDoc(t, q)
		dec := json.NewDecoder(bytes.NewReader(r.Data))
		dec.UseNumber()
		var data any
		if err := dec.Decode(&data); err != nil {
			t.Fatal(err)
		}
		if problems := checkAnswer(s, doc, data, nil); len(problems) > 0 {
			t.Errorf("%s %s: the answer breaks the schema:\n  %s", op.path, op.field.Name, strings.Join(problems[:min(len(problems), 10)], "\n  "))
			continue
		}
		answered++
	}
	t.Logf("%d of %d root operations answered without a GraphQL error, their answers valid", answered, len(ops))
	if len(ops) != 280 {
		t.Errorf("the reference schemas have %d root operations, the issue counted 280", len(ops))
	}
}

func parseDoc(t testing.TB, q string) *ast.QueryDocument {
	t.Helper()
	s, err := parserParse(q)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	return s
}

func parserParse(q string) (*ast.QueryDocument, error) {
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		return nil, err
	}
	return doc, nil
}
