package api

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// The Sandbox's documented operation limits.
const (
	maxFields   = 1000
	maxDepth    = 15
	maxTopLevel = 5
)

// measure counts every field selection, the deepest field nesting and the
// root fields of an operation.
func measure(set ast.SelectionSet, depth int) (fields, deepest int) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			fields++
			deepest = max(deepest, depth)
			f, d := measure(s.SelectionSet, depth+1)
			fields += f
			deepest = max(deepest, d)
		case *ast.InlineFragment:
			f, d := measure(s.SelectionSet, depth)
			fields += f
			deepest = max(deepest, d)
		case *ast.FragmentSpread:
			// Not used by this package; the schema test would reject an
			// undefined fragment anyway.
		}
	}
	return fields, deepest
}

func TestOperationsStayWithinSandboxLimits(t *testing.T) {
	t.Parallel()
	ops, err := Operations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 88 {
		t.Errorf("Operations() lists %d operations, want 88", len(ops))
	}
	seen := map[string]bool{}
	for _, op := range ops {
		if seen[op.Name] {
			t.Errorf("operation %s is listed twice", op.Name)
		}
		seen[op.Name] = true
	}
	for _, op := range ops {
		doc, err := parser.ParseQuery(&ast.Source{Name: op.Name, Input: op.Query})
		if err != nil {
			t.Errorf("%s does not parse: %v\n%s", op.Name, err, op.Query)
			continue
		}
		if len(doc.Operations) != 1 || doc.Operations[0].Name != op.Name {
			t.Errorf("%s: want exactly one operation named %s", op.Name, op.Name)
			continue
		}
		o := doc.Operations[0]
		fields, depth := measure(o.SelectionSet, 1)
		top := 0
		for _, sel := range o.SelectionSet {
			if _, ok := sel.(*ast.Field); ok {
				top++
			}
		}
		t.Logf("%-45s fields=%3d depth=%2d top-level=%d", op.Name, fields, depth, top)
		if fields > maxFields || depth > maxDepth || top > maxTopLevel {
			t.Errorf("%s breaks a Sandbox limit: fields %d/%d, depth %d/%d, top-level %d/%d",
				op.Name, fields, maxFields, depth, maxDepth, top, maxTopLevel)
		}
	}
}

func TestMeasureCountsNestedFieldsAndFragments(t *testing.T) {
	t.Parallel()
	doc, err := parser.ParseQuery(&ast.Source{Input: `query Q { a { b { c } ... on T { d e { f } } } g }`})
	if err != nil {
		t.Fatal(err)
	}
	fields, depth := measure(doc.Operations[0].SelectionSet, 1)
	if fields != 7 || depth != 3 {
		t.Errorf("fields, depth = %d, %d; want 7, 3", fields, depth)
	}
}

var schemas sync.Map // file name → *ast.Schema; the partner schema takes a while to load

func loadSchema(t *testing.T, name string) *ast.Schema {
	t.Helper()
	if s, ok := schemas.Load(name); ok {
		return s.(*ast.Schema)
	}
	path := filepath.Join("..", "..", "shared", "reference", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("schema %s not available (%v); the conformance check needs the shared reference files", path, err)
	}
	s, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: string(src)})
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	schemas.Store(name, s)
	return s
}

func TestOperationsConformToSchema(t *testing.T) {
	t.Parallel()
	// The check must be able to fail: a wrong field name is caught.
	if _, errs := gqlparser.LoadQueryWithRules(loadSchema(t, "partner-schema.graphql"), `query Bad { accounts(first: 1) { edges { node { iban } } } }`, nil); len(errs) == 0 {
		t.Fatal("the validator accepted a field the schema lacks (iban)")
	}
	ops, err := Operations()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		name := "partner-schema.graphql"
		if op.Admin {
			name = "partner-admin-schema.graphql"
		}
		schema := loadSchema(t, name)
		if _, errs := gqlparser.LoadQueryWithRules(schema, op.Query, nil); len(errs) > 0 {
			t.Errorf("%s is not valid against %s: %v\n%s", op.Name, name, errs, op.Query)
		}
	}
}
