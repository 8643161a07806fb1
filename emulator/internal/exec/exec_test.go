package exec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// The executor is checked case by case on the parts of the specification
// an answer depends on: field collection (aliases, merging, fragments,
// @skip/@include), abstract types, null propagation, errors with paths and
// locations, argument and variable coercion, leaf serialisation and
// introspection. The schema is small and the resolver answers from maps,
// so each case states its whole input and its whole output.

const testSDL = `
schema { query: Query mutation: Mutation }
scalar DateTime
interface Node { id: ID! }
interface Character implements Node { id: ID! name: String! friends: [Character] }
type Human implements Character & Node { id: ID! name: String! friends: [Character] homePlanet: String }
type Droid implements Character & Node { id: ID! name: String! friends: [Character] primaryFunction: String }
union SearchResult = Human | Droid | Starship
type Starship { id: ID! name: String! length(unit: LengthUnit = METER): Float }
enum LengthUnit { METER FOOT CUBIT @deprecated(reason: "Use METER.") }
enum Episode { NEWHOPE EMPIRE JEDI }
input ReviewInput { stars: Int! commentary: String episode: Episode = JEDI tags: [String!] }
type Review { stars: Int! commentary: String episode: Episode }
type Query {
  hero(episode: Episode): Character
  search(text: String!): [SearchResult!]!
  human(id: ID!): Human
  strict: Strict
  strictList: [Strict!]
  strictListNonNull: [Strict!]!
  echo(input: ReviewInput, n: Int, f: Float, b: Boolean, s: String, id: ID, list: [Int!]): String
  badEnum: Episode
  bigInt: Int
  when: DateTime
  old: String @deprecated
}
type Strict { id: ID! inner: Strict name: String! }
type Mutation { createReview(episode: Episode!, review: ReviewInput!): Review first: Int second: Int }
`

func testSchema(t testing.TB) *Schema {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "test.graphql", Input: testSDL})
	if err != nil {
		t.Fatal(err)
	}
	return NewSchema(s)
}

// obj is a test object: its fields' values, or functions of the
// arguments; "__typename" names its type when it is reached through an
// abstract type.
type obj map[string]any

type fieldFunc func(args map[string]any) (any, error)

type mapResolver struct{ calls []string }

func (r *mapResolver) ResolveField(_ context.Context, f *Field) (any, error) {
	r.calls = append(r.calls, f.ObjectType.Name+"."+f.Definition.Name)
	v := f.Object.(obj)[f.Definition.Name]
	if fn, ok := v.(fieldFunc); ok {
		return fn(f.Args)
	}
	return v, nil
}

func (r *mapResolver) ResolveType(_ context.Context, abstract *ast.Definition, v any) (string, any, error) {
	name, _ := v.(obj)["__typename"].(string)
	if name == "" {
		return "", nil, fmt.Errorf("no type for a %s", abstract.Name)
	}
	return name, v, nil
}

var (
	luke   = obj{"__typename": "Human", "id": "1000", "name": "Luke", "homePlanet": "Tatooine"}
	r2     = obj{"__typename": "Droid", "id": "2001", "name": "R2-D2", "primaryFunction": "Astromech"}
	falcon = obj{"__typename": "Starship", "id": "3000", "name": "Falcon", "length": fieldFunc(func(a map[string]any) (any, error) {
		if a["unit"] == "FOOT" {
			return 114.8, nil
		}
		return 34.75, nil
	})}
)

func init() {
	luke["friends"] = []any{r2, nil}
	r2["friends"] = []obj{luke}
}

func rootObj() obj {
	return obj{
		"hero": fieldFunc(func(a map[string]any) (any, error) {
			if a["episode"] == "EMPIRE" {
				return luke, nil
			}
			return r2, nil
		}),
		"search": []any{luke, r2, falcon},
		"human": fieldFunc(func(a map[string]any) (any, error) {
			if a["id"] == "1000" {
				return luke, nil
			}
			return nil, nil
		}),
		"echo": fieldFunc(func(a map[string]any) (any, error) {
			b, err := json.Marshal(a)
			return string(b), err
		}),
		"badEnum": "SITH",
		"bigInt":  int64(1) << 40,
		"when":    "2026-11-22T10:00:00.000Z",
		"old":     "still here",
	}
}

// run executes query (with variables as JSON) and returns the response
// as JSON.
func run(t *testing.T, s *Schema, root obj, query, vars string) string {
	t.Helper()
	doc, perr := parser.ParseQuery(&ast.Source{Input: query})
	if perr != nil {
		t.Fatalf("parse: %v", perr)
	}
	if errs := s.Validate(doc); len(errs) > 0 {
		b, _ := json.Marshal(errs)
		return `{"validation":` + string(b) + `}`
	}
	raw := map[string]any{}
	if vars != "" {
		dec := json.NewDecoder(strings.NewReader(vars))
		dec.UseNumber()
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
	}
	op := doc.Operations[0]
	coerced, errs := s.CoerceVariables(op, raw)
	if len(errs) > 0 {
		b, _ := json.Marshal(errs)
		return `{"variables":` + string(b) + `}`
	}
	resp := Execute(context.Background(), Params{Schema: s, Doc: doc, Operation: op, Variables: coerced, Root: root, Resolver: &mapResolver{}})
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameJSON compares two JSON documents, member order aside.
func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation: %v\n%s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestExecute(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	for _, tc := range []struct{ name, query, vars, want string }{
		{"aliases and merged fields",
			`{ a: hero { name } b: hero(episode: EMPIRE) { id } hero { name } hero { id name } }`, "",
			`{"data":{"a":{"name":"R2-D2"},"b":{"id":"1000"},"hero":{"name":"R2-D2","id":"2001"}}}`},
		{"named fragments, nested and repeated",
			`{ hero { ...A ...A } } fragment A on Character { name ...B } fragment B on Node { id }`, "",
			`{"data":{"hero":{"name":"R2-D2","id":"2001"}}}`},
		{"inline fragments on an interface's members",
			`{ hero(episode: EMPIRE) { __typename name ... on Human { homePlanet } ... on Droid { primaryFunction } } }`, "",
			`{"data":{"hero":{"__typename":"Human","name":"Luke","homePlanet":"Tatooine"}}}`},
		{"a union's members and __typename",
			`{ search(text: "x") { __typename ... on Character { name } ... on Starship { name length l2: length(unit: FOOT) } } }`, "",
			`{"data":{"search":[{"__typename":"Human","name":"Luke"},{"__typename":"Droid","name":"R2-D2"},{"__typename":"Starship","name":"Falcon","length":34.75,"l2":114.8}]}}`},
		{"lists of abstract values, null items kept",
			`{ hero(episode: EMPIRE) { friends { name } } }`, "",
			`{"data":{"hero":{"friends":[{"name":"R2-D2"},null]}}}`},
		{"a Go slice as a list",
			`{ hero { friends { ... on Human { homePlanet } } } }`, "",
			`{"data":{"hero":{"friends":[{"homePlanet":"Tatooine"}]}}}`},
		{"@skip and @include, literal and variable",
			`query($no: Boolean!) { hero { name @skip(if: true) id @include(if: $no) ... on Droid @include(if: true) { primaryFunction } } }`, `{"no": false}`,
			`{"data":{"hero":{"primaryFunction":"Astromech"}}}`},
		{"a nullable field returning null",
			`{ human(id: "9") { name } }`, "",
			`{"data":{"human":null}}`},
		{"argument defaults and literals",
			`{ echo(n: 3, f: 2, b: true, s: "x", id: 7, list: 5) }`, "",
			`{"data":{"echo":"{\"b\":true,\"f\":2,\"id\":\"7\",\"list\":[5],\"n\":3,\"s\":\"x\"}"}}`},
		{"variables: defaults, nulls, input object defaults, single value as a list",
			`query($in: ReviewInput = {stars: 4}, $n: Int, $s: String) { echo(input: $in, n: $n, s: $s) }`, `{"s": null}`,
			`{"data":{"echo":"{\"input\":{\"episode\":\"JEDI\",\"stars\":4},\"s\":null}"}}`},
		{"variables inside an input object literal",
			`query($c: String) { echo(input: {stars: 5, commentary: $c, tags: "great"}) }`, `{}`,
			`{"data":{"echo":"{\"input\":{\"episode\":\"JEDI\",\"stars\":5,\"tags\":[\"great\"]}}"}}`},
		{"a custom scalar and a deprecated field",
			`{ when old }`, "",
			`{"data":{"when":"2026-11-22T10:00:00.000Z","old":"still here"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sameJSON(t, run(t, s, rootObj(), tc.query, tc.vars), tc.want)
		})
	}
}

// TestNullPropagation: a null in a non-null field nulls the nearest
// nullable ancestor, with one error at the field's path.
func TestNullPropagation(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	broken := obj{"id": "s1", "name": nil, "inner": obj{"id": "s2", "name": nil}}
	ok := obj{"id": "s3", "name": "fine"}
	root := rootObj()
	root["strict"] = broken
	root["strictList"] = []any{ok, broken}
	root["strictListNonNull"] = []any{ok, broken}
	for _, tc := range []struct{ name, query, want string }{
		{"to the nullable parent field",
			`{ strict { id name } }`,
			`{"errors":[{"message":"cannot return null for the non-null field name of type String!","locations":[{"line":1,"column":15}],"path":["strict","name"]}],"data":{"strict":null}}`},
		{"to the nearest nullable ancestor only",
			`{ strict { id inner { name } } }`,
			`{"errors":[{"message":"cannot return null for the non-null field name of type String!","locations":[{"line":1,"column":23}],"path":["strict","inner","name"]}],"data":{"strict":{"id":"s1","inner":null}}}`},
		{"a non-null item nulls its list",
			`{ strictList { name } }`,
			`{"errors":[{"message":"cannot return null for the non-null field name of type String!","locations":[{"line":1,"column":16}],"path":["strictList",1,"name"]}],"data":{"strictList":null}}`},
		{"a non-null list nulls the data",
			`{ strictListNonNull { name } hero { name } }`,
			`{"errors":[{"message":"cannot return null for the non-null field name of type String!","locations":[{"line":1,"column":23}],"path":["strictListNonNull",1,"name"]}],"data":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sameJSON(t, run(t, s, root, tc.query, ""), tc.want)
		})
	}
}

// TestFieldErrors: a resolver's error, an unserialisable value and a
// wrong runtime type each give one error with its path and location; the
// null goes as far up as the non-null types take it, and no further.
func TestFieldErrors(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	root := rootObj()
	boom := errWithCode{"the droid is out of order"}
	r2b := obj{"__typename": "Droid", "id": "2002", "name": fieldFunc(func(map[string]any) (any, error) { return nil, boom })}
	root["search"] = []any{luke, r2b, obj{"__typename": "Review"}}
	got := run(t, s, root, `{ badEnum bigInt hero(episode: EMPIRE) { name } s: search(text: "") { ... on Droid { id primaryFunction } } }`, "")
	sameJSON(t, got, `{"errors":[
	  {"message":"enum Episode cannot represent the value a string value","locations":[{"line":1,"column":3}],"path":["badEnum"]},
	  {"message":"an Int cannot represent a number value","locations":[{"line":1,"column":11}],"path":["bigInt"]},
	  {"message":"the value's type \"Review\" is not one of the possible types of SearchResult","locations":[{"line":1,"column":49}],"path":["s",2]}
	  ],"data":null}`)
	got = run(t, s, root, `{ hero(episode: EMPIRE) { name } s: search(text: "") { ... on Droid { name } } }`, "")
	sameJSON(t, got, `{"errors":[
	  {"message":"the droid is out of order","locations":[{"line":1,"column":71}],"path":["s",1,"name"],"extensions":{"code":"OUT_OF_ORDER"}}
	  ],"data":null}`)
	// In a list of nullable items, the failing item alone is null.
	root["hero"] = obj{"__typename": "Human", "id": "1001", "name": "Leia", "friends": []any{luke, r2b}}
	got = run(t, s, root, `{ hero { friends { id name } } }`, "")
	sameJSON(t, got, `{"errors":[
	  {"message":"the droid is out of order","locations":[{"line":1,"column":23}],"path":["hero","friends",1,"name"],"extensions":{"code":"OUT_OF_ORDER"}}
	  ],"data":{"hero":{"friends":[{"id":"1000","name":"Luke"},null]}}}`)
}

type errWithCode struct{ msg string }

func (e errWithCode) Error() string              { return e.msg }
func (e errWithCode) Extensions() map[string]any { return map[string]any{"code": "OUT_OF_ORDER"} }

// TestVariableErrors: a variable that does not fit its type stops the
// operation with an error that names it, never its value.
func TestVariableErrors(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	for _, tc := range []struct{ query, vars, want string }{
		{`query($n: Int!) { echo(n: $n) }`, `{}`, `$n of type Int! was not given a value`},
		{`query($n: Int!) { echo(n: $n) }`, `{"n": "secret-ten"}`, `$n must be an Int`},
		{`query($n: Int) { echo(n: $n) }`, `{"n": 3000000000}`, `$n must be an Int`},
		{`query($n: Int!) { echo(n: $n) }`, `{"n": null}`, `$n of type Int! must not be null`},
		{`query($in: ReviewInput) { echo(input: $in) }`, `{"in": {"stars": 1, "secret": "x"}}`, `which the input type ReviewInput lacks`},
		{`query($in: ReviewInput) { echo(input: $in) }`, `{"in": {"commentary": "x"}}`, `lacks the required field stars`},
		{`query($in: ReviewInput) { echo(input: $in) }`, `{"in": {"stars": 1, "episode": "SITH"}}`, `$in.episode must be one of the values of the enum Episode`},
		{`query($l: [Int!]) { echo(list: $l) }`, `{"l": [1, null]}`, `$l[1] of type Int! must not be null`},
	} {
		got := run(t, s, rootObj(), tc.query, tc.vars)
		if !strings.HasPrefix(got, `{"variables":`) || !strings.Contains(got, tc.want) || strings.Contains(got, "secret-ten") {
			t.Errorf("%s with %s: %s, want a variable error with %q", tc.query, tc.vars, got, tc.want)
		}
	}
}

// TestMutationsRunInOrder: the root fields of a mutation run one after
// the other, in the operation's order.
func TestMutationsRunInOrder(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	doc, err := parser.ParseQuery(&ast.Source{Input: `mutation { b: second a: first c: createReview(episode: JEDI, review: {stars: 5}) { stars episode } }`})
	if err != nil {
		t.Fatal(err)
	}
	r := &mapResolver{}
	root := obj{"first": 1, "second": 2, "createReview": fieldFunc(func(a map[string]any) (any, error) {
		in := a["review"].(map[string]any)
		return obj{"stars": in["stars"], "episode": a["episode"]}, nil
	})}
	resp := Execute(context.Background(), Params{Schema: s, Doc: doc, Operation: doc.Operations[0], Root: root, Resolver: r})
	b, _ := json.Marshal(resp)
	sameJSON(t, string(b), `{"data":{"b":2,"a":1,"c":{"stars":5,"episode":"JEDI"}}}`)
	if want := []string{"Mutation.second", "Mutation.first", "Mutation.createReview", "Review.stars", "Review.episode"}; !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls %v, want %v", r.calls, want)
	}
	if !bytes.HasPrefix(resp.Data, []byte(`{"b":2,"a":1,`)) {
		t.Errorf("the answer does not keep the operation's order: %s", resp.Data)
	}
}

// TestIntrospection answers __schema, __type and the __ types' fields
// from the schema.
func TestIntrospection(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	got := run(t, s, rootObj(), `{
	  __schema { queryType { name } mutationType { name } subscriptionType { name } }
	  character: __type(name: "Character") { kind name interfaces { name } possibleTypes { name } fields { name type { kind name ofType { kind name } } } }
	  unit: __type(name: "LengthUnit") { kind enumValues { name } all: enumValues(includeDeprecated: true) { name isDeprecated deprecationReason } }
	  input: __type(name: "ReviewInput") { kind inputFields { name defaultValue type { kind ofType { kind ofType { kind name } } } } }
	  strictList: __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated args { name defaultValue } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } }
	  nope: __type(name: "Nope") { name }
	  __typename
	}`, "")
	var r struct {
		Data struct {
			Schema struct {
				QueryType, MutationType struct{ Name string }
				SubscriptionType        *struct{ Name string }
			} `json:"__schema"`
			Character json.RawMessage
			Unit      json.RawMessage
			Input     json.RawMessage
			Query     struct {
				Fields []struct {
					Name         string
					IsDeprecated bool
					Args         []struct{ Name, DefaultValue *string }
					Type         json.RawMessage
				}
			} `json:"strictList"`
			Nope     *struct{}
			Typename string `json:"__typename"`
		}
		Errors []any
	}
	if err := json.Unmarshal([]byte(got), &r); err != nil || len(r.Errors) > 0 {
		t.Fatalf("%v: %s", err, got)
	}
	d := r.Data
	if d.Schema.QueryType.Name != "Query" || d.Schema.MutationType.Name != "Mutation" || d.Schema.SubscriptionType != nil || d.Nope != nil || d.Typename != "Query" {
		t.Errorf("schema roots, unknown type or __typename wrong: %s", got)
	}
	sameJSON(t, string(d.Character), `{"kind":"INTERFACE","name":"Character","interfaces":[{"name":"Node"}],"possibleTypes":[{"name":"Droid"},{"name":"Human"}],
	  "fields":[{"name":"id","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID"}}},
	            {"name":"name","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"String"}}},
	            {"name":"friends","type":{"kind":"LIST","name":null,"ofType":{"kind":"INTERFACE","name":"Character"}}}]}`)
	sameJSON(t, string(d.Unit), `{"kind":"ENUM","enumValues":[{"name":"METER"},{"name":"FOOT"}],
	  "all":[{"name":"METER","isDeprecated":false,"deprecationReason":null},{"name":"FOOT","isDeprecated":false,"deprecationReason":null},{"name":"CUBIT","isDeprecated":true,"deprecationReason":"Use METER."}]}`)
	sameJSON(t, string(d.Input), `{"kind":"INPUT_OBJECT","inputFields":[
	  {"name":"stars","defaultValue":null,"type":{"kind":"NON_NULL","ofType":{"kind":"SCALAR","ofType":null}}},
	  {"name":"commentary","defaultValue":null,"type":{"kind":"SCALAR","ofType":null}},
	  {"name":"episode","defaultValue":"JEDI","type":{"kind":"ENUM","ofType":null}},
	  {"name":"tags","defaultValue":null,"type":{"kind":"LIST","ofType":{"kind":"NON_NULL","ofType":{"kind":"SCALAR","name":"String"}}}}]}`)
	var names []string
	for _, f := range d.Query.Fields {
		names = append(names, f.Name)
		if f.Name == "strictListNonNull" {
			sameJSON(t, string(f.Type), `{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"NON_NULL","name":null,"ofType":{"kind":"OBJECT","name":"Strict"}}}}`)
		}
		if f.Name == "old" && !f.IsDeprecated {
			t.Error("Query.old is not reported deprecated")
		}
	}
	if strings.Contains(strings.Join(names, " "), "__") || !strings.Contains(strings.Join(names, " "), "old") {
		t.Errorf("Query's fields %v: the meta-fields must be hidden and the deprecated ones listed", names)
	}
	// Without includeDeprecated, the deprecated field is left out.
	got = run(t, s, rootObj(), `{ __type(name: "Query") { fields { name } } }`, "")
	if strings.Contains(got, `"old"`) {
		t.Errorf("a deprecated field is listed without includeDeprecated: %s", got)
	}
	// __schema.types lists every type once, in name order.
	got = run(t, s, rootObj(), `{ __schema { types { name } directives { name locations args { name } } } }`, "")
	for _, want := range []string{`{"name":"Boolean"},{"name":"Character"},{"name":"DateTime"}`, `"name":"skip"`, `"name":"__TypeKind"`} {
		if !strings.Contains(got, want) {
			t.Errorf("__schema lacks %s: %.300s", want, got)
		}
	}
}

// TestValidationErrors: an operation the schema refuses is reported with
// its locations, before anything runs.
func TestValidationErrors(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	for _, q := range []string{
		`{ hero { nope } }`,
		`{ hero(episode: SITH) { name } }`,
		`{ hero { ... on Starship { name } } }`,
		`{ search { name } }`,
		`query($x: Int) { hero(episode: $x) { name } }`,
		`{ hero { ...Missing } }`,
	} {
		if got := run(t, s, rootObj(), q, ""); !strings.HasPrefix(got, `{"validation":[{"message"`) || !strings.Contains(got, `"locations"`) {
			t.Errorf("%s: %s, want validation errors with locations", q, got)
		}
	}
}
