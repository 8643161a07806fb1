package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
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

// Do: the fake API sends no operation built at run time; rawAPI does.
func (f *fakeAPI) Do(context.Context, api.Request) (*api.Response, error) {
	return nil, errors.New("the fake API sends no operation built at run time")
}

// rawAPI is the fake API whose operations built at run time go to a real
// client (an emulator's), each one's name kept.
type rawAPI struct {
	*fakeAPI
	raw  *api.Client
	mu   sync.Mutex
	sent []string
}

func (r *rawAPI) Do(ctx context.Context, req api.Request) (*api.Response, error) {
	r.mu.Lock()
	r.sent = append(r.sent, req.OperationName)
	r.mu.Unlock()
	return r.raw.Do(ctx, req)
}

func (r *rawAPI) ops() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.sent...)
}

// fixedSchema is a SchemaSource of one schema, counting its reads.
type fixedSchema struct {
	s     *ast.Schema
	from  string
	reads *atomic.Int32
}

func (f fixedSchema) Schema(context.Context) (*ast.Schema, string, error) {
	f.reads.Add(1)
	return f.s, f.from, nil
}

// introspect is the schema c's endpoint serves.
func introspect(t testing.TB, c *api.Client) *ast.Schema {
	t.Helper()
	resp, err := c.Do(context.Background(), api.Request{Query: gqlop.IntrospectionQuery, Verbatim: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := gqlop.SchemaFromIntrospection(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// publicPartnerSchema is the platform's public partner schema.
func publicPartnerSchema(t testing.TB) *ast.Schema {
	t.Helper()
	s, err := schemafile.Load(reference.PartnerSchema, reference.Read(t, reference.PartnerSchema))
	if err != nil {
		t.Fatal(err)
	}
	return s.AST
}

// knowSchema gives the running UI's Sandbox the schema s as the one the
// app knows.
func knowSchema(m *Model, s *ast.Schema) *atomic.Int32 {
	reads := &atomic.Int32{}
	m.envs[config.Sandbox].Schema = fixedSchema{s: s, from: "read by introspection", reads: reads}
	return reads
}

// anyOn is the UI on the emulator with the schema it serves known.
func anyOn(t *testing.T, eo emulator.Options, project bool) (*emu, *atomic.Int32) {
	t.Helper()
	e := newEmu(t, eo, project)
	return e, knowSchema(e.m, introspect(t, e.client))
}

// jump types a : jump and enter.
func (d *driver) jump(to string) {
	d.t.Helper()
	d.press(":")
	d.typeText(to)
	d.press("enter")
}

// lineOf moves the object's cursor down, a key at a time, to the first
// line whose node is named name, and returns it.
func lineOf(d *driver, s *anyObject, name string) objLine {
	d.t.Helper()
	for {
		if l, ok := s.current(); ok && l.n.Name == name {
			return l
		}
		if s.cursor >= len(s.lines)-1 {
			d.t.Fatalf("no line %q below the cursor:\n%s", name, d.screen())
		}
		d.press("down")
	}
}

// TestAnythingFollowsAnIDToItsRichViewAndBack: a root connection from the
// palette, a row's object with all its fields, a nested object unfolded,
// its id followed to the rich view of its type, and back.
func TestAnythingFollowsAnIDToItsRichViewAndBack(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e, reads := anyOn(t, emulator.Options{Accounts: 5}, false)
	e.wantScreen("row 1 of")
	e.press(":")
	e.typeText("query accountMem")
	e.press("tab")
	if v := topAs[*paletteScreen](e.driver).in.Value(); v != "query accountMembership" {
		t.Errorf("tab completed to %q, want the roots' common prefix", v)
	}
	e.typeText("s")
	e.wantScreen("accountMemberships: every AccountMembership, a table of its fields")
	e.press("enter")
	e.wantScreen("accountMemberships")
	e.wantScreen("row 1 of")
	l := topAs[*anyScreen](e.driver).inner.(*anyList)
	if got := l.cols[0].Name; got != "id" {
		t.Errorf("the first column is %q", got)
	}
	before := e.opCount()
	e.press("enter")
	o := topAs[*anyObject](e.driver)
	e.wantScreen("AccountMembership")
	if n := e.opCount() - before; n != 1 {
		t.Errorf("opening the object took %d requests, want 1", n)
	}
	acc := lineOf(e.driver, o, "account")
	if !foldable(acc.n) || o.open[acc.place] {
		t.Fatalf("the account is not a folded object: %+v", acc.n)
	}
	e.press("enter")
	id := lineOf(e.driver, o, "id")
	if id.n.Link == nil || id.n.Link.Type != "Account" || id.depth != 1 {
		t.Fatalf("the account's id is no link to it: %+v", id)
	}
	e.wantScreen("enter open Account")
	e.press("enter")
	if _, got := e.account().resource(); got != id.n.Link.ID {
		t.Errorf("the link opened account %s, want %s", got, id.n.Link.ID)
	}
	e.press("esc")
	if topAs[*anyObject](e.driver) != o {
		t.Fatal("esc did not come back to the object")
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("the schema was read %d times, want once", n)
	}
}

// anyDriver is the UI on the fakes, its view of anything reading an
// emulator (its rows deterministic for the seed) with the project token,
// the schema known being known (the emulator's, unless known is set).
func anyDriver(t *testing.T, fx fixture, eo emulator.Options, known func(t testing.TB) *ast.Schema) (*driver, *rawAPI) {
	t.Helper()
	e := testkit.StartEmulator(t, eo)
	env := apptest.Env(t, apptest.New(t, e, apptest.Options{Project: true}), config.Sandbox)
	d := newDriver(t, fx)
	raw := &rawAPI{fakeAPI: d.sbx, raw: env.API}
	d.m.envs[config.Sandbox].API = raw
	s := introspect(t, env.API)
	if known != nil {
		s = known(t)
	}
	knowSchema(d.m, s)
	return d, raw
}

// TestGoldenAnything snapshots the view of anything at 80×24 and 120×40:
// the palette completing a root query, a table, an object and a nested
// object unfolded, and what an endpoint that models less than the schema
// known does not serve. Refresh with go test ./ui -run TestGoldenAnything
// -update.
func TestGoldenAnything(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	typed := func(s string) []string { return strings.Split(s, "") }
	jump := func(s string) []string { return append(append([]string{":"}, typed(s)...), "enter") }
	scenes := []struct {
		name     string
		modelled bool // the emulator serves its model, the app knows the public schema
		keys     []string
	}{
		{"anypalette", false, append([]string{":"}, append(typed("query acc"), "tab")...)},
		{"anylist", false, jump("query accountHolders")},
		{"anycolumns", false, append(jump("query accountHolders"), "right", "right")},
		{"anyobject", false, append(jump("query accountHolders"), "enter")},
		{"anyunfolded", false, append(jump("query accountHolders"), "enter", "down", "down", "down", "down", "enter")},
		{"anynotserved", true, jump("query onboardings")},
		{"anyunserved", true, append(jump("query accounts"), "enter")},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				eo := testkit.WholeSchema(t, emulator.Options{Accounts: 5})
				var known func(testing.TB) *ast.Schema
				if sc.modelled {
					eo, known = emulator.Options{Accounts: 5}, publicPartnerSchema
				}
				d, _ := anyDriver(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1], color: true}, eo, known)
				d.press(sc.keys...)
				golden.RequireEqual(t, asciiView(t, d))
			})
		}
	}
}
