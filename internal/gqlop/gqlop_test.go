package gqlop

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// nested is a query of the given depth: a { a { … { id } } }.
func nested(depth int) string {
	return "query Deep {\n" + strings.Repeat("a {\n", depth-1) + "id\n" + strings.Repeat("}\n", depth-1) + "}"
}

func limitProblem(t *testing.T, text string) *Problem {
	t.Helper()
	o, err := Parse(text, "")
	if err != nil {
		t.Fatal(err)
	}
	err = o.CheckLimits(SandboxLimits())
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) || e.Kind != Limit || len(e.Problems) != 1 || !errors.Is(err, ErrInvalid) {
		t.Fatalf("CheckLimits: %#v, want one limit problem", err)
	}
	return &e.Problems[0]
}

func TestLimitsAreCountedAsThePlatformCounts(t *testing.T) {
	t.Parallel()
	if p := limitProblem(t, nested(15)); p != nil {
		t.Errorf("depth 15 is within the limit, got %v", p)
	}
	p := limitProblem(t, nested(16))
	if p == nil || p.Line != 17 || p.Column != 1 || !strings.Contains(p.Message, "depth 16") || !strings.Contains(p.Message, "15") {
		t.Errorf("depth 16: %v, want the innermost field at 17:1 named with its depth", p)
	}

	five := "{ a: x b: x c: x d: x e: x }"
	if p := limitProblem(t, five); p != nil {
		t.Errorf("5 top-level fields are allowed, got %v", p)
	}
	// The sixth comes through a fragment: it counts all the same.
	six := "query Six {\n a: x b: x c: x\n d: x e: x ...F\n}\nfragment F on Query { f: x }"
	p = limitProblem(t, six)
	if p == nil || p.Line != 5 || !strings.Contains(p.Message, "f is top-level field number 6") {
		t.Errorf("6 top-level fields: %v, want f at line 5 named", p)
	}

	// 1,000 fields with __typename, expanded from a fragment used twice.
	var sel strings.Builder
	for i := range 499 {
		fmt.Fprintf(&sel, "f%d ", i)
	}
	thousand := "{ a { ...F } b { ...F } }\nfragment F on T { " + sel.String() + "}"
	if p := limitProblem(t, thousand); p != nil {
		t.Errorf("1,000 fields are allowed, got %v", p)
	}
	p = limitProblem(t, strings.Replace(thousand, "b { ...F }", "b { ...F __typename }", 1))
	if p == nil || !strings.Contains(p.Message, "field number 1001") {
		t.Errorf("1,001 fields: %v", p)
	}
}

func TestFragmentBombIsRefusedWithoutExpandingIt(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("{ ...F0 }\n")
	for i := range 30 {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
	}
	b.WriteString("fragment F30 on Query { __typename }\n")
	if p := limitProblem(t, b.String()); p == nil {
		t.Fatal("a fragment bomb passed the limits")
	}
}

func TestSyntaxErrorHasLineAndColumn(t *testing.T) {
	t.Parallel()
	_, err := Parse("query {\n  accounts {\n    id\n", "")
	var e *Error
	if !errors.As(err, &e) || e.Kind != Syntax || e.Problems[0].Line != 4 {
		t.Fatalf("Parse: %v, want a syntax error on line 4", err)
	}
}

func TestConnectionIsFoundWhereverItIsNested(t *testing.T) {
	t.Parallel()
	o, err := Parse(`query Tx($id: ID!, $after: String) {
  account(accountId: $id) {
    t: transactions(first: 100, after: $after) {
      pageInfo { more: hasNextPage endCursor }
      edges { node { id } }
    }
  }
}`, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := o.Connection()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Path, ".") != "account.t" || c.Variable != "after" || c.HasNextPage != "more" || c.EndCursor != "endCursor" {
		t.Fatalf("connection %+v", c)
	}
	data := map[string]any{"account": map[string]any{"t": map[string]any{"pageInfo": map[string]any{"more": true, "endCursor": "c2"}}}}
	if cur, more, err := c.Next(data); cur != "c2" || !more || err != nil {
		t.Errorf("Next = %q %v %v", cur, more, err)
	}
	data["account"].(map[string]any)["t"].(map[string]any)["pageInfo"].(map[string]any)["more"] = false
	if _, more, err := c.Next(data); more || err != nil {
		t.Errorf("last page: more %v, err %v", more, err)
	}
	if _, _, err := c.Next(map[string]any{"account": []any{}}); err == nil {
		t.Error("a connection under a list was followed")
	}
}

func TestConnectionMistakes(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		`{ accounts(first: 1) { pageInfo { hasNextPage endCursor } } }`,
		`query($after: String) { accounts(after: $after) { edges { node { id } } } }`,
		`{ accounts(after: $after) { pageInfo { hasNextPage endCursor } } }`,
		`query($after: String) { a: accounts(after: $after) { pageInfo { hasNextPage endCursor } } b: accounts(after: $after) { pageInfo { hasNextPage endCursor } } }`,
	} {
		o, err := Parse(q, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Connection(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Connection() = %v, want a refusal", q, err)
		}
	}
}

func TestCountReportsEveryLimitOnceWithItsSource(t *testing.T) {
	t.Parallel()
	text := "query Big {\n a: x b: x c: x d: x e: x f: x\n" + nested(17)[len("query Deep {\n"):]
	o, err := Parse(text, "")
	if err != nil {
		t.Fatal(err)
	}
	c := o.Count(SandboxLimits())
	if c.TopLevel != 7 || c.Depth != 17 || c.Fields != 6+17 || c.Partial {
		t.Errorf("count %+v, want 7 top-level fields, depth 17, 23 fields", c)
	}
	if len(c.Broken) != 2 || !strings.Contains(c.Broken[0].Message, "f is top-level field number 6") ||
		!strings.Contains(c.Broken[1].Message, "depth 16") || c.Broken[1].Line != 18 || c.Broken[0].Source == nil {
		t.Errorf("broken %+v, want the sixth top-level field then the field at depth 16, each with its source", c.Broken)
	}
	// CheckLimits names the first of them, as before.
	if p := limitProblem(t, text); p == nil || p.Message != c.Broken[0].Message {
		t.Errorf("CheckLimits: %v, want %q", p, c.Broken[0].Message)
	}
}

// TestIntrospectionQueryFitsTheSandboxLimits: the schema is read in one
// request the Sandbox accepts, counted as the platform counts it.
func TestIntrospectionQueryFitsTheSandboxLimits(t *testing.T) {
	t.Parallel()
	o, err := Parse(IntrospectionQuery, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := o.CheckLimits(SandboxLimits()); err != nil {
		t.Fatal(err)
	}
	c := o.Count(SandboxLimits())
	if c.Depth != 13 || c.TopLevel != 1 {
		t.Errorf("counted %+v, want depth 13 and one top-level field", c)
	}
	t.Logf("the introspection query: depth %d, %d fields", c.Depth, c.Fields)
	for _, want := range []string{"args(includeDeprecated: true) { ...InputValue }", "inputFields(includeDeprecated: true)",
		"fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }"} {
		if !strings.Contains(IntrospectionQuery, want) {
			t.Errorf("the query does not ask %q: a schema rebuilt from its answer would lack deprecated arguments and input fields", want)
		}
	}
}
