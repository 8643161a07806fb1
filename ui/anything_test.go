package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/explore"
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

// Do: the fake project API sends no operation built at run time either.
func (f *fakeProjectAPI) Do(context.Context, api.Request) (*api.Response, error) {
	return nil, errors.New("the fake project API sends no operation built at run time")
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

// anyTop is the top screen, a view of anything opened by the palette
// (whose screen is S once the schema is known) or by a link.
func anyTop[S screen](d *driver) S {
	d.t.Helper()
	if a, ok := d.m.top().(*anyScreen); ok {
		if s, ok := a.inner.(S); ok {
			return s
		}
		d.t.Fatalf("the view of anything shows %T (%v)", a.inner, a.err)
	}
	return topAs[S](d)
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
	l := anyTop[*anyList](e.driver)
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

// anyEndpoint is an emulator's Sandbox partner API with a project token,
// and the schema it serves; tests share one (they only read).
type anyEndpoint struct {
	client *api.Client
	served *ast.Schema
}

func newAnyEndpoint(t *testing.T, eo emulator.Options) anyEndpoint {
	t.Helper()
	e := testkit.StartEmulator(t, eo)
	env := apptest.Env(t, apptest.New(t, e, apptest.Options{Project: true}), config.Sandbox)
	return anyEndpoint{client: env.API, served: introspect(t, env.API)}
}

// anyDriver is the UI on the fakes, its view of anything reading the
// endpoint (its rows deterministic for the emulator's seed), the schema
// known being known (the endpoint's own when nil).
func anyDriver(t *testing.T, fx fixture, ep anyEndpoint, known *ast.Schema) (*driver, *rawAPI) {
	t.Helper()
	d := newDriver(t, fx)
	raw := &rawAPI{fakeAPI: d.sbx, raw: ep.client}
	d.m.envs[config.Sandbox].API = raw
	if known == nil {
		known = ep.served
	}
	knowSchema(d.m, known)
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
	complete := newAnyEndpoint(t, testkit.WholeSchema(t, emulator.Options{Accounts: 5}))
	modelled, public := newAnyEndpoint(t, emulator.Options{Accounts: 5}), publicPartnerSchema(t)
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				ep, known := complete, (*ast.Schema)(nil)
				if sc.modelled {
					ep, known = modelled, public
				}
				d, raw := anyDriver(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1], color: true}, ep, known)
				d.press(sc.keys...)
				golden.RequireEqual(t, asciiView(t, d))
				for _, op := range raw.ops() {
					if op != "PartnertuiList" && op != "PartnertuiObject" {
						t.Errorf("the view sent %q", op)
					}
				}
			})
		}
	}
}

// unfoldUntil presses → on every folded line, from the top, until one
// matches (its line returned), reading what needs it.
func unfoldUntil(d *driver, s *anyObject, match func(objLine) bool) objLine {
	d.t.Helper()
	d.press("g")
	for {
		l, ok := s.current()
		if !ok {
			d.t.Fatalf("no line matches:\n%s", d.screen())
		}
		if match(l) {
			return l
		}
		if foldable(l.n) && !s.open[l.place] {
			d.press("right")
		}
		if s.cursor >= len(s.lines)-1 {
			d.t.Fatalf("no line matches:\n%s", d.screen())
		}
		d.press("down")
	}
}

// TestAnythingOnTheCompleteEmulator: the roots the model lacks, read from
// an emulator serving the whole public schema: a table, a row's object in
// one request, a connection of it opened as a table of its own, an object
// past the levels one request reads read when unfolded (one request), an
// id whose type has no rich view opened in this view, the object copied
// as JSON.
func TestAnythingOnTheCompleteEmulator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e, _ := anyOn(t, testkit.WholeSchema(t, emulator.Options{Accounts: 5}), true)
	e.wantScreen("row 1 of")
	e.jump("query accounts")
	e.wantScreen("row 1 of")
	before := e.opCount()
	e.press("enter")
	o := topAs[*anyObject](e.driver)
	e.wantScreen("Account  account(accountId: ")
	if n := e.opCount() - before; n != 1 {
		t.Errorf("the account took %d requests, want 1", n)
	}

	e.press("c")
	var copied map[string]any
	if err := json.Unmarshal([]byte(e.copied[len(e.copied)-1]), &copied); err != nil || copied["__typename"] != "Account" || copied["id"] != o.tree.Root.Children[0].Value {
		t.Errorf("c copied %q (%v)", e.copied[len(e.copied)-1], err)
	}

	// The holder's id: an AccountHolder, which no rich view shows.
	holder := unfoldUntil(e.driver, o, func(l objLine) bool { return l.n.Name == "id" && l.depth == 1 && l.n.Link != nil })
	if holder.n.Link.Type != "AccountHolder" || holder.n.Link.Root.Name != "accountHolder" {
		t.Fatalf("the first nested id links to %+v", holder.n.Link)
	}
	e.press("enter")
	h := topAs[*anyObject](e.driver)
	e.wantScreen("AccountHolder  accountHolder(id: " + holder.n.Link.ID + ")")
	e.wantScreen("Accounts › accounts › Account ")

	// A connection of it: a table of its own.
	conn := lineOf(e.driver, h, "accounts")
	if conn.n.Shape != explore.Conn || !conn.n.HasTotal {
		t.Fatalf("the holder's accounts are %+v", conn.n)
	}
	e.press("enter")
	l := topAs[*anyList](e.driver)
	e.wantScreen("row 1 of")
	if l.list.Len() != conn.n.Total {
		t.Errorf("the holder's accounts list %d rows, its count says %d", l.list.Len(), conn.n.Total)
	}
	e.press("esc")

	// Past the levels one request reads: read when unfolded.
	deep := unfoldUntil(e.driver, h, func(l objLine) bool { return l.n.Absent == explore.NotRead })
	before = e.opCount()
	e.press("enter")
	if n := e.opCount() - before; n != 1 || deep.n.Absent != explore.Present || len(deep.n.Children) == 0 {
		t.Errorf("unfolding %s took %d requests and read %+v", deep.place, n, deep.n)
	}
	if !h.open[deep.place] {
		t.Errorf("%s read but not unfolded", deep.place)
	}

	// r reads it again, as far as it was open: the object, then what it
	// read when unfolded.
	before = e.opCount()
	e.press("r")
	if n := e.opCount() - before; n != 2 {
		t.Errorf("the refresh took %d requests, want 2", n)
	}
	i := slices.IndexFunc(h.lines, func(l objLine) bool { return l.place == deep.place })
	if i < 0 || h.lines[i].n.Absent != explore.Present || h.lines[i+1].depth <= h.lines[i].depth {
		t.Errorf("after r, %s is not unfolded again", deep.place)
	}
}

// TestAnythingSanitisesWhatItShows: a string with escape sequences, set in
// the platform's answer, reaches neither the screen nor the clipboard.
func TestAnythingSanitisesWhatItShows(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	fixture := `{"AccountHolder": {"holder-evil": {"verificationStatus": "Refused", "info": {"__typename": "AccountHolderCompanyInfo", "name": "Evil \u001b[31mred\u001b]52;c;aGk=\u0007 SAS", "type": "Company"}}}}`
	eo := testkit.WholeSchema(t, emulator.Options{Accounts: 5, Fixtures: &emulator.Source{Path: "fixtures.json", Data: []byte(fixture)}})
	e, _ := anyOn(t, eo, true)
	e.wantScreen("row 1 of")
	e.jump("query accountHolder holder-evil")
	o := anyTop[*anyObject](e.driver)
	name := unfoldUntil(e.driver, o, func(l objLine) bool { return l.n.Name == "name" })
	e.press("y")
	for what, text := range map[string]string{"screen": e.m.render(), "value": explore.Text(name.n.Value), "clipboard": e.copied[len(e.copied)-1]} {
		if strings.Contains(text, "\x1b[31m") || strings.Contains(text, "\x1b]52") || strings.Contains(text, "\a") {
			t.Errorf("the %s carries the answer's escape sequences: %q", what, text)
		}
	}
	if !strings.Contains(e.screen(), "Evil") || !strings.Contains(e.screen(), "SAS") {
		t.Errorf("the name is not shown:\n%s", e.screen())
	}
}

// TestAnythingPalette: query's name is completed from the schema, read
// once when the palette first needs it; what a root needs after its name
// is said before anything is sent.
func TestAnythingPalette(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	reads := knowSchema(d.m, publicPartnerSchema(t))
	d.press(":")
	if n := reads.Load(); n != 0 {
		t.Errorf("the palette read the schema %d times before query was typed", n)
	}
	value := func() string { return topAs[*paletteScreen](d).in.Value() }
	for _, c := range []struct{ typed, want, note string }{
		{"q", "query ", "account ID  accountHolder ID  accountHolderOnboarding ID"},
		{"legalF", "query legalForms ", "legalForms country=…: every LegalForm, a table of its fields"},
	} {
		d.typeText(c.typed)
		d.press("tab")
		if value() != c.want {
			t.Errorf("%q then tab: %q, want %q", c.typed, value(), c.want)
		}
		d.wantScreen(c.note)
	}
	d.press("esc")
	for _, c := range []struct{ typed, says string }{
		{"query nope", `The schema has no root query "nope": type its first letters and press tab.`},
		{"query accountHolderO", `"accountHolderO" could be accountHolderOnboarding, accountHolderOnboardings: type more`},
		{"query account", "Account reads one Account by id: account ID."},
		{"query legalForms", "LegalForms needs country: legalForms country=…."},
		{"query accounts x", `Accounts takes nothing after its name: "x" is not name=value.`},
		{"query legalForms land=FR", `LegalForms has no argument "land"; it takes country=….`},
	} {
		d.jump(c.typed)
		flat := strings.Join(strings.Fields(d.screen()), " ")
		if !strings.Contains(flat, c.says) {
			t.Errorf("%s says:\n%s\nwant %q", c.typed, d.screen(), c.says)
		}
		if _, ok := d.m.top().(*paletteScreen); !ok {
			t.Errorf("%s left the palette for %T", c.typed, d.m.top())
		}
		if d.sbx.requests() != 1 {
			t.Fatalf("%s sent a request", c.typed)
		}
		d.press("esc")
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("the schema was read %d times, want once", n)
	}
}

// failingSchema is a SchemaSource that cannot read the schema until told.
type failingSchema struct {
	ok    *atomic.Bool
	s     *ast.Schema
	reads *atomic.Int32
}

func (f failingSchema) Schema(context.Context) (*ast.Schema, string, error) {
	f.reads.Add(1)
	if !f.ok.Load() {
		return nil, "", errors.New("the partner API's schema could not be read by introspection: Sandbox answered HTTP 503")
	}
	return f.s, "read by introspection", nil
}

// TestAnythingWithoutTheSchema: a schema that cannot be read is said where
// it is needed; r reads it again.
func TestAnythingWithoutTheSchema(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	src := failingSchema{ok: &atomic.Bool{}, s: publicPartnerSchema(t), reads: &atomic.Int32{}}
	d.m.envs[config.Sandbox].Schema = src
	d.press(":")
	d.typeText("query acc")
	d.wantScreen("✗ The partner API's schema could not be read by introspection: Sandbox answered HTTP 503.")
	d.press("enter")
	d.wantScreen("Could not open query acc.")
	d.wantScreen("HTTP 503")
	src.ok.Store(true)
	d.press("r")
	d.wantScreen(`"acc" could be account, accountHolder, accountHolderOnboarding, …: type more of its name`)
	d.press("esc")
	d.jump("query accountHolders")
	d.wantScreen("Could not load the accountHolders. The fake API sends no operation built at run time.")
	if n := src.reads.Load(); n != 2 {
		t.Errorf("the schema was read %d times, want twice", n)
	}
}

// TestAnythingHelpFitsAt80x24: the table's and the object's ? help show
// each of their bindings whole at 80×24, and their hint lines are not cut.
func TestAnythingHelpFitsAt80x24(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	ep := newAnyEndpoint(t, emulator.Options{Accounts: 5})
	for name, keys := range map[string][]string{
		"table":  {":", "q", "u", "e", "r", "y", " ", "a", "c", "c", "o", "u", "n", "t", "s", "enter"},
		"object": {":", "q", "u", "e", "r", "y", " ", "a", "c", "c", "o", "u", "n", "t", "s", "enter", "enter", "down", "down", "down"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, _ := anyDriver(t, fixture{rows: 3, signedIn: true, w: 80, h: 24}, ep, nil)
			d.press(keys...)
			hint := strings.Split(d.screen(), "\n")[23-1]
			if strings.HasSuffix(strings.TrimSpace(hint), "…") {
				t.Errorf("the hint line is cut: %q", hint)
			}
			groups := d.m.helpGroups()
			d.press("?")
			screen := d.screen()
			for _, g := range groups {
				for _, b := range g {
					if h := b.Help(); b.Enabled() && !helpEntry(h).MatchString(screen) {
						t.Errorf("the help lacks %q %q:\n%s", h.Key, h.Desc, screen)
					}
				}
			}
		})
	}
}

// TestTheTableOfViewsNamesRealTypes: each GraphQL type a rich view shows is
// a type of the public schema, named by one row only, a row that opens one
// by ID: the view of anything's links lead there.
func TestTheTableOfViewsNamesRealTypes(t *testing.T) {
	t.Parallel()
	s := publicPartnerSchema(t)
	cat := explore.New(s)
	seen := map[string]bool{}
	c := &common{views: views()}
	for _, v := range c.views {
		for _, typ := range v.types {
			if s.Types[typ] == nil {
				t.Errorf("the %s view names the type %s, which the public schema lacks", v.kind, typ)
			}
			if seen[typ] {
				t.Errorf("the type %s is named twice", typ)
			}
			seen[typ] = true
			if v.one == nil {
				t.Errorf("the %s view names %s but opens none by ID", v.kind, typ)
			}
			if r := cat.ByID(typ); r == nil {
				t.Errorf("no root reads a %s by id, yet the %s view shows one", typ, v.kind)
			}
		}
	}
	for typ, kind := range map[string]resourceKind{"Account": resourceAccount, "CardTransaction": resourceTransaction, "Card": resourceCard, "AccountMembership": resourceMembership} {
		if v := c.richView(cat, typ); v == nil || v.kind != kind {
			t.Errorf("a %s opens %v, want the %s view", typ, v, kind)
		}
	}
	// A type no row names opens in the view of anything.
	for _, r := range cat.Roots() {
		if r.IDArg == "" || slices.ContainsFunc(cat.Kinds(r.Type), func(k string) bool { return seen[k] }) {
			continue
		}
		if v := c.richView(cat, r.Type); v != nil {
			t.Errorf("a %s opens the %s view, which does not name it", r.Type, v.kind)
		}
	}
}

// TestAnythingWithTheProjectToken: what a user token may not read, p reads
// with the project's token, and what it opens then too.
func TestAnythingWithTheProjectToken(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e, _ := anyOn(t, emulator.Options{Accounts: 5}, false)
	e.wantScreen("row 1 of")
	e.jump("query transactions")
	flat := strings.Join(strings.Fields(e.screen()), " ")
	if !strings.Contains(flat, "Could not load the transactions. The endpoint answered: user tokens can't call transactions queries") {
		t.Fatalf("a user token's refusal is not said:\n%s", e.screen())
	}
	e.press("?")
	e.wantScreen("read with the project's token")
	e.press("esc")
	e.press("p")
	l := anyTop[*anyList](e.driver)
	e.wantScreen("row 1 of")
	e.wantScreen("project token")
	if !l.spec.project || l.list.Len() == 0 {
		t.Fatalf("p read %d transactions with the project token (%v)", l.list.Len(), l.spec.project)
	}
	e.press("enter")
	o := topAs[*anyObject](e.driver)
	e.wantScreen("line 1 of")
	if !o.project || o.tree == nil || o.tree.Missing {
		t.Fatalf("the transaction was not read with the project token: %v", o.loadErr)
	}
	e.press("esc", "p")
	e.wantScreen("Could not load the transactions.")
}

// TestAnythingThroughLive: the view of anything's trail is there again
// after a trip to Live, the object unfolded as it was.
func TestAnythingThroughLive(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	d, _ := anyDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true, w: 120, h: 40}, newAnyEndpoint(t, emulator.Options{Accounts: 5}), nil)
	d.jump("query accountMemberships")
	d.wantScreen("row 1 of")
	d.press("enter")
	o := topAs[*anyObject](d)
	acc := lineOf(d, o, "account")
	d.press("enter")
	d.wantScreen("▾ account")
	d.press("e", "y")
	d.wantScreen("LIVE")
	d.press("e")
	back := topAs[*anyObject](d)
	if back == o || back.at.Key() != o.at.Key() || !back.open[acc.place] {
		t.Fatalf("back from Live on %T, at %v, open %v", d.m.top(), back.at.Key(), back.open)
	}
	d.wantScreen("▾ account")
	d.wantScreen("Accounts › accountMemberships › AccountMembership ")
	d.press("esc")
	if _, ok := anyTop[*anyList](d).listScreen.list.Selected(); !ok {
		t.Errorf("the table under it is empty:\n%s", d.screen())
	}
}
