package explore

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/apptest"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// publicSchema is the platform's public partner schema.
func publicSchema(t testing.TB) *ast.Schema {
	t.Helper()
	s, err := schemafile.Load(reference.PartnerSchema, reference.Read(t, reference.PartnerSchema))
	if err != nil {
		t.Fatal(err)
	}
	return s.AST
}

// endpoint is an emulator's Sandbox partner API with a project token, and
// the schema it serves, read by introspection.
type endpoint struct {
	emu    *testkit.Emulator
	client *api.Client
	served *ast.Schema
	// sent are the operations this test sent, as the recorder saw them.
	rec *recorder
}

func newEndpoint(t *testing.T, opts emulator.Options) *endpoint {
	t.Helper()
	e := testkit.StartEmulator(t, opts)
	env := apptest.Env(t, apptest.New(t, e, apptest.Options{Project: true}), config.Sandbox)
	resp, err := env.API.Do(context.Background(), api.Request{Query: gqlop.IntrospectionQuery, Verbatim: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := gqlop.SchemaFromIntrospection(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &endpoint{emu: e, client: env.API, served: s, rec: &recorder{d: env.API}}
}

// recorder is a Doer that keeps each operation it sends.
type recorder struct {
	d   Doer
	mu  sync.Mutex
	ops []api.Request
}

func (r *recorder) Do(ctx context.Context, req api.Request) (*api.Response, error) {
	r.mu.Lock()
	r.ops = append(r.ops, req)
	r.mu.Unlock()
	return r.d.Do(ctx, req)
}

func (r *recorder) sent() []api.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]api.Request(nil), r.ops...)
}

// TestRootsOfThePublicSchema: every root query of the public schema is
// sorted into what the view does with it.
func TestRootsOfThePublicSchema(t *testing.T) {
	t.Parallel()
	c := New(publicSchema(t))
	want := map[string]struct {
		kind  Kind
		typ   string
		idArg string
		args  string
	}{
		"accounts":                {Connection, "Account", "", ""},
		"account":                 {Object, "Account", "accountId", ""},
		"transaction":             {Object, "Transaction", "id", ""},
		"trustedBeneficiary":      {Object, "TrustedBeneficiary", "id", ""},
		"legalForms":              {List, "LegalForm", "", "country"},
		"webhookEventTypes":       {Value, "String", "", ""},
		"projectInfo":             {Object, "ProjectInfo", "", ""},
		"companyInfoRegistryData": {Object, "CompanyInfo", "", "input"},
		"merchantPayments":        {Connection, "MerchantPayment", "", ""},
	}
	for name, w := range want {
		r := c.Root(name)
		if r == nil {
			t.Errorf("no root %s", name)
			continue
		}
		var args []string
		for _, a := range r.Args {
			args = append(args, a.Name)
		}
		if r.Kind != w.kind || r.Type != w.typ || r.IDArg != w.idArg || strings.Join(args, ",") != w.args {
			t.Errorf("%s: kind %d type %s id %q args %v; want %+v", name, r.Kind, r.Type, r.IDArg, args, w)
		}
	}
	if n := len(c.Roots()); n != 62 {
		t.Errorf("%d roots, want the schema's 62", n)
	}
	for typ, root := range map[string]string{"Account": "account", "SEPACreditTransferTransaction": "transaction", "Card": "card", "AccountMembership": "accountMembership"} {
		if r := c.ByID(typ); r == nil || r.Name != root {
			t.Errorf("ByID(%s) = %v, want %s", typ, r, root)
		}
	}
	for field, typ := range map[string]string{"accountId": "Account", "cardId": "Card", "accountMembershipId": "AccountMembership", "resourceId": "", "id": ""} {
		if got := c.Names(field); got != typ {
			t.Errorf("Names(%s) = %q, want %q", field, got, typ)
		}
	}
}

// TestEveryObjectQueryFitsTheLimits: the object read of every root type of
// the public schema, and of every type a root reads by id, is valid and
// within the Sandbox limits, as gqlop counts them.
func TestEveryObjectQueryFitsTheLimits(t *testing.T) {
	t.Parallel()
	c := New(publicSchema(t))
	maxFields := 0
	for _, r := range c.Roots() {
		if r.Kind == Value {
			continue
		}
		args := map[string]any{}
		if r.IDArg != "" {
			args[r.IDArg] = "x"
		}
		for _, a := range r.Args {
			args[a.Name] = "x" // not checked: its variable's type is the argument's
		}
		l := At(r.Name, args)
		if r.Kind == Connection {
			tb, err := c.Table(l)
			if err != nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			o, err := c.build("PartnertuiList", l, map[string]any{"first": 50}, tb.body)
			if err != nil {
				t.Fatal(err)
			}
			checkOp(t, c, r.Name, o, len(r.Args) == 0)
			continue
		}
		w, err := c.walk(l)
		if err != nil {
			t.Fatal(err)
		}
		b := Limits()
		b.fields -= pathFields(l)
		sel := c.selection(w.target.Name, "", w.depth+1, Levels, &b)
		o, err := c.build("PartnertuiObject", l, nil, sel.write)
		if err != nil {
			t.Fatal(err)
		}
		n := checkOp(t, c, r.Name, o, len(r.Args) == 0)
		maxFields = max(maxFields, n)
		t.Logf("%-34s %4d fields", r.Name, n) // the README's figures: go test -v -run Limits
	}
	if maxFields < 300 {
		t.Errorf("the largest object read selects %d fields: the budget goes unused", maxFields)
	}
}

// checkOp fails unless o is valid against the schema (with its variables
// when vars) and within the Sandbox limits; it returns its fields.
func checkOp(t *testing.T, c *Catalog, what string, o op, vars bool) int {
	t.Helper()
	parsed, err := gqlop.Parse(o.text, o.name)
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, o.text)
	}
	if err := parsed.Validate(c.s); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, o.text)
	}
	if vars {
		if err := parsed.ValidateVariables(c.s, o.vars); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, o.text)
		}
	}
	n := parsed.Count(gqlop.SandboxLimits())
	if len(n.Broken) > 0 {
		t.Fatalf("%s: %v\n%s", what, n.Broken, o.text)
	}
	return n.Fields
}

// readEveryRoot reads the first page of every connection and list the
// catalog has that needs no argument, and the object of each page's first
// row; it returns the roots read.
func readEveryRoot(t *testing.T, c *Catalog, d Doer) (tables, objects int) {
	t.Helper()
	ctx := context.Background()
	for _, r := range c.Roots() {
		if len(r.Args) > 0 || r.Kind == Object || r.Kind == Value {
			continue
		}
		tb, err := c.Table(At(r.Name, nil))
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		p, err := tb.Page(ctx, d, 5, "")
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		tables++
		if len(p.Rows) == 0 {
			continue
		}
		tree, err := c.Read(ctx, d, tb.Locate(p.Rows[0]), p.Rows[0].Type)
		objects++
		if err != nil {
			t.Errorf("%s's first row: %v", r.Name, err)
			continue
		}
		if tree.Missing && tree.Root.Err == "" && len(tree.Errors) == 0 {
			t.Errorf("%s's first row is missing, and the answer does not say why", r.Name)
			continue
		}
		if tree.Missing {
			// Said on screen: the endpoint's own words.
			t.Logf("%s's first row %s: %v %s", r.Name, tb.Locate(p.Rows[0]).Key(), tree.Errors, tree.Root.Err)
			continue
		}
		if tree.Root.Shape != Obj || len(tree.Root.Children) == 0 {
			t.Errorf("%s's first row read as %+v (errors %v)", r.Name, tree.Root, tree.Errors)
		}
	}
	return tables, objects
}

// TestReadsTheCompleteEmulator: every root list of the public schema, and
// its first row's object, read from an emulator serving it whole.
func TestReadsTheCompleteEmulator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEndpoint(t, testkit.WholeSchema(t, emulator.Options{Accounts: 5}))
	c := New(publicSchema(t))
	tables, objects := readEveryRoot(t, c, e.rec)
	if tables < 15 || objects < 10 {
		t.Errorf("read %d tables and %d objects", tables, objects)
	}
	if u := c.Unserved(); len(u) > 0 {
		t.Errorf("the complete emulator does not serve %v", u)
	}
	if sent := len(e.rec.sent()); sent != tables+objects {
		t.Errorf("%d requests for %d tables and %d objects: one each", sent, tables, objects)
	}
}

// TestReadsTheModelledEmulator: the roots of the emulator's model, read
// with the schema it serves.
func TestReadsTheModelledEmulator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEndpoint(t, emulator.Options{Accounts: 5})
	c := New(e.served)
	tables, objects := readEveryRoot(t, c, e.rec)
	if tables < 4 || objects < 4 {
		t.Errorf("read %d tables and %d objects", tables, objects)
	}
}

// TestTheModelledSubsetWithThePublicSchema: the app knows the public
// schema, the endpoint serves the emulator's model. A root it lacks is an
// error that says so, nothing sent twice for it; the fields and types it
// lacks are learnt from its refusals, left out of the request sent again,
// and shown as not served.
func TestTheModelledSubsetWithThePublicSchema(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEndpoint(t, emulator.Options{Accounts: 5})
	c := New(publicSchema(t))
	ctx := context.Background()

	tb, err := c.Table(At("onboardings", nil))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tb.Page(ctx, e.rec, 10, "")
	var ns *NotServedError
	if !errors.As(err, &ns) || ns.Field != "onboardings" || !strings.Contains(err.Error(), "does not serve onboardings") {
		t.Fatalf("onboardings: %v, want a NotServedError", err)
	}
	before := len(e.rec.sent())
	if _, err := tb.Page(ctx, e.rec, 10, ""); !errors.As(err, &ns) || len(e.rec.sent()) != before {
		t.Errorf("asked again, onboardings was sent again (%v)", err)
	}

	accounts, err := c.Table(At("accounts", nil))
	if err != nil {
		t.Fatal(err)
	}
	sent := len(e.rec.sent())
	p, err := accounts.Page(ctx, e.rec, 3, "")
	if err != nil || len(p.Rows) != 3 || !p.HasTotal || p.Total != 5 {
		t.Fatalf("accounts: %+v, %v", p, err)
	}
	if n := len(e.rec.sent()) - sent; n != 2 {
		t.Errorf("the first page took %d requests: want the one refused and the one sent again", n)
	}
	sent = len(e.rec.sent())
	if _, err := accounts.Page(ctx, e.rec, 3, p.EndCursor); err != nil || len(e.rec.sent())-sent != 1 {
		t.Errorf("the next page took %d requests (%v): what was learnt is not asked for again", len(e.rec.sent())-sent, err)
	}
	for _, col := range accounts.Columns() {
		if e.served.Types["Account"].Fields.ForName(col.Name) == nil {
			t.Errorf("the column %s is not served, yet still asked for", col.Name)
		}
	}
	sent = len(e.rec.sent())
	tree, err := c.Read(ctx, e.rec, accounts.Locate(p.Rows[0]), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the account took %d requests", len(e.rec.sent())-sent)
	var unserved, shown int
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Absent == Unserved {
			unserved++
		}
		if n.Absent == Present && n.Name != "" {
			shown++
		}
		for _, ch := range n.Children {
			walk(ch)
		}
	}
	walk(tree.Root)
	if unserved == 0 || shown < 10 || tree.Missing {
		t.Errorf("the account shows %d fields and %d not served (missing %v)", shown, unserved, tree.Missing)
	}
	if len(c.Unserved()) == 0 {
		t.Error("nothing learnt")
	}
	t.Logf("unserved: %v", c.Unserved())
}

// TestReadsEveryShapeOfRoot: a value, a list read whole with an argument
// and its element alone, and a row whose type no root reads by id, read as
// the node after the row before it.
func TestReadsEveryShapeOfRoot(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEndpoint(t, testkit.WholeSchema(t, emulator.Options{Accounts: 5}))
	c := New(publicSchema(t))
	ctx := context.Background()

	v, err := c.Read(ctx, e.rec, At("webhookEventTypes", nil), "")
	if err != nil || v.Root.Shape != Leaf || v.Root.Name != "webhookEventTypes" {
		t.Fatalf("webhookEventTypes: %+v, %v", v, err)
	}
	if types, ok := v.Root.Value.([]any); !ok || len(types) == 0 {
		t.Errorf("webhookEventTypes is %v", v.Root.Value)
	}

	forms, err := c.Table(At("legalForms", map[string]any{"country": "FRA"}))
	if err != nil {
		t.Fatal(err)
	}
	p, err := forms.Page(ctx, e.rec, 100, "")
	if err != nil || len(p.Rows) == 0 || p.HasNext {
		t.Fatalf("legalForms: %+v, %v", p, err)
	}
	last := p.Rows[len(p.Rows)-1]
	el, err := c.Read(ctx, e.rec, forms.Locate(last), last.Type)
	if err != nil || el.Missing || el.Root.Index != last.Index {
		t.Fatalf("the last legal form: %+v, %v", el, err)
	}
	for _, ch := range el.Root.Children {
		if ch.Shape == Leaf && ch.Value != last.Values[ch.Name] {
			t.Errorf("the element read alone has %s %v, its row %v", ch.Name, ch.Value, last.Values[ch.Name])
		}
	}

	if c.ByID("User") != nil {
		t.Fatal("a root reads a User by id: pick another type")
	}
	users, err := c.Table(At("users", nil))
	if err != nil {
		t.Fatal(err)
	}
	p, err = users.Page(ctx, e.rec, 3, "")
	if err != nil || len(p.Rows) < 2 {
		t.Fatalf("users: %+v, %v", p, err)
	}
	second := p.Rows[1]
	at := users.Locate(second)
	if st := at.Path[len(at.Path)-1]; !st.Edge || st.Args["after"] != p.Rows[0].Cursor {
		t.Fatalf("the second user is located at %s", at.Key())
	}
	u, err := c.Read(ctx, e.rec, at, "")
	if err != nil || u.Missing || u.Root.Children[0].Name != "id" || u.Root.Children[0].Value != second.Values["id"] {
		t.Fatalf("the second user read alone: %+v, %v", u.Root, err)
	}
}

// TestTooDeepIsRefusedBeforeSending: a list or an object whose fields
// would be past the Sandbox's depth is refused before anything is built.
func TestTooDeepIsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	c := New(publicSchema(t))
	l := At("account", map[string]any{"accountId": "x"})
	for range 6 {
		l = l.Then(Step{Field: "legalRepresentativeMembership", Index: -1}).Then(Step{Field: "account", Index: -1})
	}
	_, err := c.Table(l.Then(Step{Field: "transactions", Index: -1}))
	var be *BuildError
	if !errors.As(err, &be) {
		t.Errorf("a table at depth 14: %v, want a BuildError", err)
	}
	rec := &recorder{d: nil}
	// At depth 15, the deepest field allowed, an object's own fields would be
	// at 16.
	l = l.Then(Step{Field: "legalRepresentativeMembership", Index: -1}).Then(Step{Field: "account", Index: -1})
	if _, err := c.Read(context.Background(), rec, l, ""); !errors.As(err, &be) || len(rec.sent()) != 0 {
		t.Errorf("an object at depth 15: %v, %d sent; want a BuildError and nothing sent", err, len(rec.sent()))
	}
}
