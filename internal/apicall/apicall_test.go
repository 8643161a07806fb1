package apicall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/schemacache"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/apptest"
	"github.com/partnertui/partnertui/internal/usage"
)

func TestTypedVariables(t *testing.T) {
	t.Parallel()
	vars, err := readVariables("", []string{"n=100", "f=1.5", "b=true", "z=null", "o={\"a\":[1]}", "s=abc"}, []string{"r=100"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(vars)
	if want := `{"b":true,"f":1.5,"n":100,"o":{"a":[1]},"r":"100","s":"abc","z":null}`; string(b) != want {
		t.Errorf("variables %s, want %s", b, want)
	}
}

// TestPrepareRefusesMistakes: what cannot work is a usage error before any
// environment is asked for.
func TestPrepareRefusesMistakes(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{
		{Slurp: true, Operation: "{ user { id } }"},
		{JQ: ".[", Operation: "{ user { id } }"},
		{Typed: []string{"novalue"}, Operation: "{ user { id } }"},
		{Typed: []string{"x={bad"}, Operation: "{ user { id } }"},
		{Operation: "@/nonexistent.graphql"},
		{Paginate: true, Operation: "{ user { id } }"},
		{Input: "-", Operation: "{ user { id } }"},
		{Operation: "-"}, // standard input is empty: no operation
	} {
		_, err := Prepare(o, strings.NewReader(""))
		var ue *usage.Error
		if !errors.As(err, &ue) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
	c, err := Prepare(Options{Operation: "-", Raw: []string{"id=x"}}, strings.NewReader("query Q($id: ID!) { account(accountId: $id) { id } }"))
	if err != nil || c.vars["id"] != "x" || !strings.HasPrefix(c.text, "query Q") {
		t.Errorf("standard input: %+v, %v", c, err)
	}
}

const accountIDs = `query Ids($after: String) {
  accounts(first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { node { id } }
  }
}`

// world is an emulator and its Sandbox environment with a project token,
// and a schema cache of the test's own.
type world struct {
	emu *testkit.Emulator
	env Env
}

func newWorld(t *testing.T, opts emulator.Options) *world {
	t.Helper()
	e := testkit.StartEmulator(t, opts)
	env := apptest.Env(t, apptest.New(t, e, apptest.Options{Project: true}), config.Sandbox)
	return &world{emu: e, env: Env{Name: env.Name, ReadOnly: env.ReadOnly, API: env.API, Schemas: schemacache.New(t.TempDir())}}
}

// send runs the call of o on w, and returns what it printed.
func (w *world) send(t *testing.T, o Options) (out, errOut string, err error) {
	t.Helper()
	c, err := Prepare(o, strings.NewReader(""))
	if err != nil {
		t.Fatalf("%+v: %v", o, err)
	}
	var ob, eb bytes.Buffer
	err = c.Send(context.Background(), w.env, Output{Out: &ob, Err: &eb})
	return ob.String(), eb.String(), err
}

func countOf(ops []string, name string) int {
	n := 0
	for _, o := range ops {
		if o == name {
			n++
		}
	}
	return n
}

// TestSendPaginatesAndKeepsTheSchema: --paginate follows the connection to
// its last page, one request a page; --slurp gathers the pages; the
// endpoint's schema is read once, then kept in the cache.
func TestSendPaginatesAndKeepsTheSchema(t *testing.T) {
	t.Parallel()
	w := newWorld(t, emulator.Options{Accounts: 250})
	out, errOut, err := w.send(t, Options{Operation: accountIDs, Paginate: true, JQ: ".data.accounts.edges[].node.id"})
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	ids := strings.Fields(out)
	if len(ids) != 250 || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != 250 {
		t.Errorf("printed %d ids; want 250 distinct", len(ids))
	}
	if n := countOf(w.emu.Log.Operations(t), "Ids"); n != 3 {
		t.Errorf("sent %d requests for 250 accounts at 100 a page, want 3", n)
	}
	if out, _, err := w.send(t, Options{Operation: accountIDs, Paginate: true, Slurp: true, JQ: "length"}); err != nil || strings.TrimSpace(out) != "3" {
		t.Errorf("--slurp --jq length: %q, %v; want 3 pages", out, err)
	}
	out, _, err = w.send(t, Options{Operation: accountIDs, Paginate: true, Slurp: true})
	var pages []map[string]any
	if jerr := json.Unmarshal([]byte(out), &pages); err != nil || jerr != nil || len(pages) != 3 {
		t.Errorf("--slurp: %d pages (%v, %v)", len(pages), err, jerr)
	}
	if n := countOf(w.emu.Log.Operations(t), "PartnertuiIntrospection"); n != 1 {
		t.Errorf("introspected %d times over three calls, want once", n)
	}
	if kept, err := w.env.Schemas.List(); err != nil || len(kept) != 1 || kept[0].Environment != "sandbox" || kept[0].API != "partner" {
		t.Errorf("the cache holds %+v (%v), want a snapshot of the Sandbox partner endpoint's schema", kept, err)
	}
}

// TestSendRefusesBeforeSending: an operation that breaks a Sandbox limit or
// does not fit the schema is a usage error that explains itself, and the
// emulator never sees it.
func TestSendRefusesBeforeSending(t *testing.T) {
	t.Parallel()
	w := newWorld(t, emulator.Options{Accounts: 5})
	deep := "query Deep {\n" + strings.Repeat("account(accountId: \"x\") {\nholder {\n", 7) + "info {\nname\n}\n" + strings.Repeat("}\n}\n", 7) + "}"
	for name, q := range map[string]string{"depth 16": deep, "unknown field": "query Unknown {\n  accounts(first: 1) {\n    edges { node { iban } }\n  }\n}"} {
		out, _, err := w.send(t, Options{Operation: q})
		var ue *usage.Error
		if !errors.As(err, &ue) || !ue.Explained || out != "" {
			t.Errorf("%s: %v, stdout %q; want an explained usage error and nothing printed", name, err, out)
		}
	}
	for _, op := range w.emu.Log.Operations(t) {
		if op != "PartnertuiIntrospection" {
			t.Errorf("the emulator received %q", op)
		}
	}
}

// TestSendAnswerErrors: an answer's errors go to Err, its data to Out,
// and the call ends with ErrAnswerErrors.
func TestSendAnswerErrors(t *testing.T) {
	t.Parallel()
	w := newWorld(t, emulator.Options{Accounts: 5})
	out, errOut, err := w.send(t, Options{Operation: `query { user { id } accounts(first: 1) { totalCount } }`})
	if !errors.Is(err, ErrAnswerErrors) {
		t.Fatalf("%v, want ErrAnswerErrors", err)
	}
	if !strings.Contains(out, `"totalCount":5`) || !strings.HasPrefix(errOut, "error: ") || !strings.Contains(errOut, "user") {
		t.Errorf("stdout %q, stderr %q: want the data and the errors", out, errOut)
	}
}

// TestSendRefusesALiveMutation: a mutation to a read-only environment is
// refused before anything is read or sent.
func TestSendRefusesALiveMutation(t *testing.T) {
	t.Parallel()
	w := newWorld(t, emulator.Options{Accounts: 1})
	w.env.Name, w.env.ReadOnly = config.Live, true
	_, _, err := w.send(t, Options{Operation: `mutation { removeWebhookSubscription(input: {id: "x"}) { __typename } }`})
	var ro *api.ReadOnlyError
	if !errors.As(err, &ro) {
		t.Errorf("%v, want a *api.ReadOnlyError", err)
	}
	if ops := w.emu.Log.Operations(t); len(ops) != 0 {
		t.Errorf("sent %v", ops)
	}
}

// TestDryRunSendsNothing: --dry-run prints a curl command that reads the
// token from $PARTNERTUI_TOKEN; with no schema cached it says only the
// syntax and the limits were checked; nothing reaches the platform.
func TestDryRunSendsNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t, emulator.Options{Accounts: 1})
	out, errOut, err := w.send(t, Options{Operation: "query Me { projectInfo { id } }", DryRun: true})
	if err != nil || !strings.HasPrefix(out, "curl ") || !strings.Contains(out, "$PARTNERTUI_TOKEN") || !strings.Contains(out, "query Me") {
		t.Errorf("%v, stdout %q", err, out)
	}
	if !strings.Contains(errOut, "only the syntax and the limits were checked") {
		t.Errorf("stderr %q: want the note that no schema was used", errOut)
	}
	if ops := w.emu.Log.Operations(t); len(ops) != 0 {
		t.Errorf("a dry run sent %v", ops)
	}
}
