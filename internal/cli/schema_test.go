package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/schemacache"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// cacheDirOf is the cache directory of t's home, which every runCLI of
// the test shares: a test never reads the developer's pulled schemas,
// and a pull is there for the test's next command.
func cacheDirOf(t *testing.T) string {
	dir, err := homeOf(t).Locations.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// switchable is a server in front of an emulator that can be swapped for
// another, as the platform is restarted with a new schema at the same
// address.
type switchable struct {
	URL    string
	target atomic.Pointer[httputil.ReverseProxy]
}

func newSwitchable(t *testing.T, e *testkit.Emulator) *switchable {
	t.Helper()
	s := &switchable{}
	s.point(t, e)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.target.Load().ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *switchable) point(t *testing.T, e *testkit.Emulator) {
	t.Helper()
	u, err := url.Parse(e.Info.APIURL)
	if err != nil {
		t.Fatal(err)
	}
	s.target.Store(httputil.NewSingleHostReverseProxy(u))
}

// servingReference is an emulator serving the public schemas (or files of
// the test's own) whole.
func servingReference(t *testing.T, partner, testing string) *testkit.Emulator {
	t.Helper()
	return testkit.StartEmulator(t, emulator.Options{Accounts: 1, Schemas: []emulator.Source{{Path: partner}, {Path: testing}}})
}

// TestSchemaPullKeepsDatedSnapshots: both endpoints of Sandbox and Live's
// partner API pulled, as a user would, without credentials; list shows
// each pull, path the newest file, and a pull unchanged says so.
func TestSchemaPullKeepsDatedSnapshots(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e := servingReference(t, reference.Path(t, reference.PartnerSchema), reference.Path(t, reference.TestingSchema))
	cfg := filepath.Join(home, "emulator.toml")
	e.WriteConfig(t, cfg, testkit.Config{Envs: []config.EnvName{config.Sandbox, config.Live}, Secret: "not-needed-to-pull"})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"schema", "pull", "--config", cfg}, "Pulled the sandbox partner API schema from " + e.Info.APIURL + "/sandbox-partner/graphql: "},
		{[]string{"schema", "pull", "--config", cfg, "--testing"}, "Pulled the sandbox Testing API schema from " + e.Info.APIURL + "/sandbox-partner-admin/graphql: "},
		{[]string{"schema", "pull", "--config", cfg, "--env", "live"}, "Pulled the live partner API schema from " + e.Info.APIURL + "/live-partner/graphql: "},
	} {
		code, out, errOut := runCLI(t, c.args...)
		if code != ExitOK || !strings.HasPrefix(out, c.want) || !strings.HasSuffix(out, "The first pull of this endpoint.\n") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "schema", "pull", "--config", cfg, "--env", "live", "--testing"); code != ExitUsage || !strings.Contains(errOut, "live has no Testing API") {
		t.Errorf("live --testing: exit %d, %q", code, errOut)
	}

	code, out, _ := runCLI(t, "schema", "list", "--json")
	var kept []schemacache.Snapshot
	if err := json.Unmarshal([]byte(out), &kept); err != nil || code != ExitOK || len(kept) != 3 {
		t.Fatalf("list --json: exit %d, %v, %s", code, err, out)
	}
	for _, sn := range kept {
		raw, err := os.ReadFile(sn.Path)
		if err != nil || len(sn.Hash) != 64 || sn.Pulled.IsZero() || !strings.Contains(string(raw), "# sha256: "+sn.Hash+"\n") {
			t.Errorf("%+v: %v", sn, err)
		}
	}
	if kept[0].Environment != "live" || kept[1].Environment != "sandbox" || kept[1].API != "testing" || kept[2].API != "partner" {
		t.Errorf("list %+v: want by endpoint (live-partner, sandbox-partner-admin, sandbox-partner)", kept)
	}
	code, out, _ = runCLI(t, "schema", "list")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != ExitOK || len(lines) != 4 ||
		!strings.HasPrefix(lines[0], "ENVIRONMENT  API          PULLED") || !strings.HasPrefix(lines[2], "sandbox      Testing API  ") ||
		!strings.Contains(lines[2], kept[1].ShortHash()+"  "+e.Info.APIURL+"/sandbox-partner-admin/graphql") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	for args, want := range map[string]string{"": kept[2].Path, "--testing": kept[1].Path, "--env live": kept[0].Path, "--dir": filepath.Join(cacheDirOf(t), "schemas")} {
		code, out, errOut := runCLI(t, append([]string{"schema", "path", "--config", cfg}, strings.Fields(args)...)...)
		if code != ExitOK || out != want+"\n" {
			t.Errorf("path %s: exit %d, %q (%s); want %s", args, code, out, errOut, want)
		}
	}

	code, out, _ = runCLI(t, "schema", "pull", "--config", cfg)
	if code != ExitOK || !strings.Contains(out, "Unchanged since the pull of ") {
		t.Errorf("a second pull: exit %d, %q", code, out)
	}
	code, out, errOut := runCLI(t, "schema", "diff", "--config", cfg)
	if code != ExitOK || !strings.HasSuffix(out, ": 0 breaking, 0 dangerous, 0 safe.\n") {
		t.Errorf("diff of two identical pulls: exit %d, %q, %q", code, out, errOut)
	}
}

// TestSchemaDiffComparesTheLastTwoPulls: the platform is restarted with a
// schema that removes a field, adds an enum value and a field; the second
// pull says it changed, `schema diff` with no files classifies each
// change, and `check` with no schema named finds the operation that
// selects the removed field.
func TestSchemaDiffComparesTheLastTwoPulls(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	old, changed := plantedSchemas(t)
	testingSchema := reference.Path(t, reference.TestingSchema)
	before := servingReference(t, old, testingSchema)
	platform := newSwitchable(t, before)
	cfg := filepath.Join(home, "platform.toml")
	before.WriteConfig(t, cfg, testkit.Config{APIURL: platform.URL})
	ops := t.TempDir()
	if err := os.WriteFile(filepath.Join(ops, "ops.graphql"), []byte("query Numbers {\n  accounts(first: 1) {\n    edges { node { number } }\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	if code, _, errOut := runCLI(t, "schema", "diff", "--config", cfg); code != ExitUsage || !strings.Contains(errOut, "run `partnertui schema pull`") {
		t.Errorf("no pull yet: exit %d, %q", code, errOut)
	}
	if code, out, errOut := runCLI(t, "schema", "pull", "--config", cfg); code != ExitOK {
		t.Fatalf("first pull: exit %d, %s %s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, "schema", "diff", "--config", cfg)
	if code != ExitOK || out != "" || !strings.HasPrefix(errOut, "Only one pull is kept (sandbox partner API pulled ") {
		t.Errorf("one pull: exit %d, stdout %q, stderr %q; want 0 and nothing to compare yet", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "check", ops, "--config", cfg); code != ExitOK || !strings.Contains(errOut, "No problem found: 1 operation") {
		t.Errorf("check before the change: exit %d, %q", code, errOut)
	}

	platform.point(t, servingReference(t, changed, testingSchema))
	code, out, _ = runCLI(t, "schema", "pull", "--config", cfg)
	if code != ExitOK || !strings.Contains(out, "Changed since the pull of ") || !strings.Contains(out, "`partnertui schema diff --env sandbox` lists what changed.") {
		t.Errorf("second pull: exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "schema", "diff", "--config", cfg)
	for _, want := range []string{"BREAKING\n  Account.number ", "DANGEROUS\n  AccountStatus.Frozen ", "SAFE\n  Account.nickname ", ": 1 breaking, 1 dangerous, 1 safe.\n"} {
		if code != ExitFailure || !strings.Contains(out, want) {
			t.Errorf("diff: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	code, out, errOut = runCLI(t, "check", ops, "--config", cfg)
	if code != ExitFailure || !strings.Contains(out, `3:20     error       Cannot query field "number" on type "Account"`) ||
		!strings.Contains(errOut, "checked against the partner API (sandbox partner API pulled ") {
		t.Errorf("check after the change: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// plantPulls keeps the reference schemas in the test's cache as pulls of
// a Sandbox of its own, as `schema pull` would have.
func plantPulls(t *testing.T) map[string]string {
	t.Helper()
	store := schemacache.New(cacheDirOf(t))
	paths := map[string]string{}
	for name, file := range map[string]string{"partner API": reference.PartnerSchema, "Testing API": reference.TestingSchema} {
		sn, err := store.Save(schemacache.Pull{Endpoint: "https://api.example.test/" + file, Environment: "sandbox",
			Pulled: time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC), SDL: reference.Read(t, file)})
		if err != nil {
			t.Fatal(err)
		}
		paths[name] = sn.Path
	}
	return paths
}

// TestEmulatorSchemaAutoServesThePulledSchemas: --schema auto is the
// newest pull of each API; with none pulled it says what to do.
func TestEmulatorSchemaAutoServesThePulledSchemas(t *testing.T) {
	t.Parallel()
	if code, _, errOut := runCLI(t, "emulator", "--schema", "auto", "--coverage"); code != ExitUsage || !strings.Contains(errOut, "run `partnertui schema pull`") {
		t.Errorf("nothing pulled: exit %d, %q", code, errOut)
	}
	paths := plantPulls(t)
	code, out, errOut := runCLI(t, "emulator", "--schema", "auto", "--coverage", "--json")
	var rep emulator.CoverageReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitOK || len(rep.APIs) != 2 {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errOut)
	}
	for _, a := range rep.APIs {
		if a.Schema != paths[a.API] || a.Total.Missing != 0 || a.Total.Generated == 0 {
			t.Errorf("%s: serves %s (%+v), want the pulled %s, every operation answered", a.API, a.Schema, a.Total, paths[a.API])
		}
	}
}

// TestDemoServesThePulledSchemasWhole: with schemas pulled, --demo
// answers what it does not model, and says which schemas it serves.
func TestDemoServesThePulledSchemasWhole(t *testing.T) {
	t.Parallel()
	const notModelled = `{ accountInvoice(invoiceId: "invoice-1") { id } }`
	if code, _, errOut := runCLI(t, "--demo", "api", notModelled); code != ExitUsage || !strings.Contains(errOut, `Cannot query field "accountInvoice"`) {
		t.Errorf("nothing pulled: exit %d, %q; want the field refused by the modelled schema", code, errOut)
	}
	paths := plantPulls(t)
	code, out, errOut := runCLI(t, "--demo", "api", notModelled)
	if code != ExitOK || !strings.Contains(out, `"accountInvoice":{"id":"invoice-1"}`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := "--demo serves the schemas pulled whole, generating what it does not model: the partner API's, " + paths["partner API"] +
		"; the Testing API's, " + paths["Testing API"] + "\n"
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr %q lacks %q", errOut, want)
	}
}

// recipeSteps are the partnertui commands of the README's CI recipe, by
// step: each `run:` line of its workflow, split at &&.
func recipeSteps(t *testing.T) [][][]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "```yaml\n# .github/workflows/graphql.yml")
	if start < 0 {
		t.Fatal("README.md has no CI recipe (a yaml block for .github/workflows/graphql.yml)")
	}
	end := strings.Index(readme[start+3:], "```")
	var steps [][][]string
	for _, line := range strings.Split(readme[start:start+3+end], "\n") {
		run, ok := strings.CutPrefix(strings.TrimSpace(line), "run: ")
		if !ok || !strings.HasPrefix(run, "partnertui ") {
			continue
		}
		var step [][]string
		for _, c := range strings.Split(run, " && ") {
			step = append(step, strings.Fields(strings.TrimPrefix(strings.TrimSpace(c), "partnertui ")))
		}
		steps = append(steps, step)
	}
	return steps
}

// TestTheREADMEsCIRecipeRuns runs the README's workflow as a scheduled
// job would, on two mornings: the platform changes in between (a field
// removed that the code selects). The first morning passes; the second,
// check annotates the line and schema diff reports the breaking change.
func TestTheREADMEsCIRecipeRuns(t *testing.T) {
	// Not parallel: the recipe runs in its repository's folder (t.Chdir),
	// which is the process's.
	home := homeOf(t).Dir
	steps := recipeSteps(t)
	var names []string
	for _, s := range steps {
		names = append(names, strings.Join(s[0][:min(2, len(s[0]))], " "))
	}
	if strings.Join(names, ", ") != "schema pull, check --format, schema diff" {
		t.Fatalf("the recipe's steps are %q; this test runs pull, check and diff", names)
	}
	old, changed := plantedSchemas(t)
	testingSchema := reference.Path(t, reference.TestingSchema)
	before := servingReference(t, old, testingSchema)
	platform := newSwitchable(t, before)
	cfg := filepath.Join(home, "config.toml")
	before.WriteConfig(t, cfg, testkit.Config{APIURL: platform.URL})
	homeOf(t).Locations.ConfigFile = cfg
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "ops.graphql"), []byte("query Numbers {\n  accounts(first: 1) {\n    edges { node { number } }\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)

	morning := func() (codes []int, outs []string) {
		for _, step := range steps {
			code, out := 0, ""
			for _, args := range step { // as the shell runs a && b
				var o, e string
				code, o, e = runCLI(t, args...)
				out += o + e
				if code != ExitOK {
					break
				}
			}
			codes, outs = append(codes, code), append(outs, out)
		}
		return codes, outs
	}
	codes, outs := morning()
	if codes[0] != ExitOK || codes[1] != ExitOK || codes[2] != ExitOK || strings.Count(outs[2], "Only one pull is kept") != 2 {
		t.Errorf("the first morning: exits %v\n%s", codes, strings.Join(outs, "\n---\n"))
	}
	platform.point(t, servingReference(t, changed, testingSchema))
	codes, outs = morning()
	if codes[0] != ExitOK || codes[1] != ExitFailure || codes[2] != ExitFailure {
		t.Errorf("the second morning: exits %v, want 0, 1 (check) and 1 (diff)\n%s", codes, strings.Join(outs, "\n---\n"))
	}
	if want := "::error file=ops.graphql,line=3,col=20,title=partnertui check%3A error::Cannot query field"; !strings.Contains(outs[1], want) {
		t.Errorf("check's annotations lack %q:\n%s", want, outs[1])
	}
	if !strings.Contains(outs[2], "BREAKING\n  Account.number ") {
		t.Errorf("schema diff did not report the field removed:\n%s", outs[2])
	}
}

// TestSchemaPullAsksWithATokenWhenRefusedWithout: an endpoint that gives
// its schema only with a token is asked again with the project's (no one
// is signed in), and a note says so; with no secret to get one, the
// error says the endpoint wants a token and what is missing.
func TestSchemaPullAsksWithATokenWhenRefusedWithout(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 1})
	u, err := url.Parse(e.Info.APIURL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	var withToken atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"a token is needed"}]}`))
			return
		}
		withToken.Add(1)
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg := filepath.Join(home, "guarded.toml")
	e.WriteConfig(t, cfg, testkit.Config{APIURL: srv.URL})
	code, out, errOut := runCLI(t, "schema", "pull", "--config", cfg)
	if code != ExitOK || !strings.Contains(out, "Pulled the sandbox partner API schema") || withToken.Load() != 1 ||
		errOut != "note: "+srv.URL+"/sandbox-partner/graphql refused introspection without a token (HTTP 401: a token is needed): it was read with your token.\n" {
		t.Errorf("exit %d, stdout %q, stderr %q, %d requests with a token", code, out, errOut, withToken.Load())
	}

	bare := filepath.Join(home, "bare.toml")
	if err := os.WriteFile(bare, []byte("[sandbox]\napi_url = \""+srv.URL+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "schema", "pull", "--config", bare)
	if code == ExitOK || !strings.Contains(errOut, srv.URL+"/sandbox-partner/graphql gives its schema only with a token") || !strings.Contains(errOut, "client_id") {
		t.Errorf("no credentials: exit %d, stderr %q", code, errOut)
	}
}

// TestDemoServesItsModelWhenThePulledSchemasCannotBeServed: pulled
// schemas the emulator refuses leave --demo on its model, with a warning
// that says why, rather than no demo at all.
func TestDemoServesItsModelWhenThePulledSchemasCannotBeServed(t *testing.T) {
	t.Parallel()
	store := schemacache.New(cacheDirOf(t))
	at := time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)
	for i, sdl := range []string{
		"type Query { projectInfo: String accounts: String }",
		// The Testing API by its own query, but sharing more root fields
		// with the partner API: the emulator takes it for a second one.
		"type Query { sandboxUser: String projectInfo: String accounts: String }",
	} {
		if _, err := store.Save(schemacache.Pull{Endpoint: fmt.Sprintf("https://api.example.test/%d", i), Environment: "sandbox", Pulled: at, SDL: []byte(sdl)}); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "--demo", "accounts", "--json", "--first", "1")
	if code != ExitOK || !strings.HasPrefix(out, "[") || !strings.HasPrefix(errOut, "warning: --demo cannot serve the schemas pulled, so it serves what it models: ") ||
		!strings.Contains(errOut, "both the partner API") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
