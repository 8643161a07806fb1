package schemafile_test

import (
	"encoding/json"
	"strings"
	"testing"

	graphql "github.com/graph-gophers/graphql-go"

	"github.com/partnertui/partnertui/internal/schemadiff"
	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// introspect answers the full introspection query (deprecations and
// descriptions included) for sdl, as a server built on it would.
func introspect(t *testing.T, sdl string) []byte {
	t.Helper()
	s, err := graphql.ParseSchema(sdl, nil, graphql.UseStringDescriptions())
	if err != nil {
		t.Fatalf("graph-gophers cannot read the reference schema: %v", err)
	}
	b, err := s.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestIntrospectionAnswerLoadsAsTheSDLDoes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		want schemafile.Endpoint
	}{{reference.PartnerSchema, schemafile.Partner}, {reference.TestingSchema, schemafile.Testing}} {
		sdl := reference.Read(t, c.name)
		fromSDL, err := schemafile.Load(c.name, sdl)
		if err != nil {
			t.Fatal(err)
		}
		answer := introspect(t, string(sdl))
		// The answer alone, and wrapped as a server sends it.
		wrapped, _ := json.Marshal(map[string]json.RawMessage{"data": answer})
		for _, body := range [][]byte{answer, wrapped} {
			fromJSON, err := schemafile.Load(c.name+".json", body)
			if err != nil {
				t.Fatal(err)
			}
			if fromSDL.Endpoint != c.want || fromJSON.Endpoint != c.want || !fromJSON.Deprecations || !fromSDL.Deprecations {
				t.Errorf("%s: endpoints %s and %s, deprecations %v %v; want %s, with deprecations", c.name, fromSDL.Endpoint, fromJSON.Endpoint, fromSDL.Deprecations, fromJSON.Deprecations, c.want)
			}
			if changes := schemadiff.Diff(fromSDL, fromJSON); len(changes) != 0 {
				t.Errorf("%s: the introspection answer differs from the SDL in %d ways, first %v", c.name, len(changes), changes[0])
			}
		}
	}
}

func TestAnswerWithoutDeprecationsSaysSo(t *testing.T) {
	t.Parallel()
	body := `{"__schema":{"queryType":{"name":"Query"},"types":[
{"kind":"OBJECT","name":"Query","fields":[{"name":"a","args":[],"type":{"kind":"SCALAR","name":"String"}}]}]}}`
	s, err := schemafile.Load("cache.json", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if s.Deprecations || s.Endpoint != schemafile.Other || s.AST.Query.Fields.ForName("a") == nil {
		t.Errorf("loaded %+v: want a schema of another API, without deprecations, with Query.a", s)
	}
}

func TestBadFilesSayWhatIsWrongAndWhere(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, want string }{
		{"type Query {\n  a: Nope\n}\n", "bad.graphql:2:"},
		{"type Query {", "bad.graphql:1:"},
		{`{"data": null}`, "without an introspection answer"},
		{`{"__schema": `, "not SDL, and not JSON either"},
		{`{"__schema":{"queryType":{"name":"Query"},"types":[{"kind":"OBJECT","name":"Query","fields":[{"name":"a","args":[]}]}]}}`, "TypeMissingFromTheIntrospectionAnswer"},
	} {
		_, err := schemafile.Load("bad.graphql", []byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.graphql") {
			t.Errorf("%q: %v, want an error naming the file and saying %q", c.body, err, c.want)
		}
	}
}
