package main

import (
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/partnertui/partnertui"

// TestPackageEdges guards the layout the README's code map describes: which
// package may import which. Test files are not counted.
func TestPackageEdges(t *testing.T) {
	t.Parallel()
	direct := moduleImports(t)
	deps := func(pkg string) []string { return closure(direct, pkg) }

	rules := []struct {
		from, to   string
		why        string
		onlyDirect bool
	}{
		{"api", "auth", "the API client asks token errors for their behaviour instead", false},
		{"auth", "api", "sign-in knows nothing of GraphQL", false},
		{"api", "charm.land/bubbletea/v2", "the API client knows nothing of the terminal UI", false},
		{"api", "ui", "the API client knows nothing of the terminal UI", false},
		{"ui", "net/http", "the UI reaches the network only through its API interface", true},
		{"ui", "internal/app", "the UI is given its environments; it does not build them", false},
		{"ui", "internal/cli", "the UI is one surface, the command line another", false},
		{"config", "auth", "the configuration is read before anything signs in", false},
		{"config", "api", "the configuration is read before anything calls the API", false},
	}
	leafPkgs := leaves(direct)
	for _, leaf := range knownLeaves {
		if !slices.Contains(leafPkgs, leaf) {
			t.Errorf("%s is no longer checked as a leaf; keep it out of internalTops", leaf)
		}
	}
	for _, leaf := range leafPkgs {
		for pkg := range direct {
			rules = append(rules, struct {
				from, to   string
				why        string
				onlyDirect bool
			}{leaf, pkg, "an internal package is a leaf (imports no other package of the module) unless internalTops names it", false})
		}
	}
	for _, client := range []string{"api", "auth", "config", "ui", "internal/app", "internal/cli", "internal/safetext", "internal/iban", "internal/platform", "internal/paths", "internal/gqlop", "internal/shellcmd"} {
		for pkg := range direct {
			if pkg == "emulator" || strings.HasPrefix(pkg, "emulator/") {
				rules = append(rules, struct {
					from, to   string
					why        string
					onlyDirect bool
				}{pkg, client, "the emulator shares no code with the client, so a client bug cannot hide behind a matching emulator bug", false})
			}
		}
	}
	for _, r := range rules {
		if r.from == r.to {
			continue
		}
		if _, ok := direct[r.from]; !ok {
			t.Fatalf("rule names package %q, which does not exist", r.from)
		}
		got := deps(r.from)
		if r.onlyDirect {
			got = direct[r.from]
		}
		if slices.Contains(got, r.to) {
			t.Errorf("%s imports %s: %s", r.from, r.to, r.why)
		}
	}
}

// internalTops are the internal packages that may import the rest of the
// module; every other internal/* package is a leaf, so a new one is
// constrained until it is named here. "/..." also admits the sub-packages.
// A name whose package does not exist (yet) is simply unused.
var internalTops = []string{
	"internal/cli",         // the command line: wires every other package
	"internal/app",         // config → session, API client, emulator per environment
	"internal/remedy",      // the one error classifier: knows every typed error
	"internal/testkit/...", // for tests only: emulator, session, config and clock fixtures
	"internal/testenv",     // for tests only: points the XDG paths at a temporary tree
	"internal/gqlop",       // a hand-written operation, checked against the limits of internal/platform
	"internal/schemafile",  // a schema file, and which endpoint it is by the queries internal/platform names
	"internal/schemadiff",  // two schemas compared, read by internal/schemafile
	"internal/opcheck",     // the partner's operations checked: internal/opfind, gqlop, schemafile
	"internal/schemacache", // the schemas read by introspection: files of ours, through internal/paths
	"internal/apicall",     // partnertui api: gqlop, the schema cache and the API client
	"internal/schemapull",  // partnertui schema pull: introspection through the API client, kept by the schema cache
	"internal/listen",      // partnertui listen: the event log through the API client, its position through internal/paths
	"internal/trigger",     // partnertui trigger: internal/scenario's steps bound to the API client
	"internal/explore",     // the app's view of anything: gqlop's checks, sent through the API client, its errors advised to internal/remedy
}

// knownLeaves must stay leaves: naming one of them a top would silently
// drop the rules the README's code map promises for it.
var knownLeaves = []string{"internal/safetext", "internal/iban", "internal/platform", "internal/paths", "internal/budget", "internal/shellcmd", "internal/usage"}

// leaves are the packages under internal/ that internalTops does not name,
// nor places under a named top.
func leaves(direct map[string][]string) []string {
	var out []string
	for pkg := range direct {
		if !strings.HasPrefix(pkg, "internal/") || isTop(pkg) {
			continue
		}
		out = append(out, pkg)
	}
	slices.Sort(out)
	return out
}

func isTop(pkg string) bool {
	for _, top := range internalTops {
		if tree, ok := strings.CutSuffix(top, "/..."); ok && strings.HasPrefix(pkg, tree+"/") {
			return true
		}
		if pkg == strings.TrimSuffix(top, "/...") {
			return true
		}
	}
	return false
}

// moduleImports maps each package of the module (relative path) to what
// its non-test files import: module packages by relative path, others by
// import path.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel := filepath.ToSlash(path)
		for _, imp := range p.Imports {
			if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				imp = r
			}
			out[rel] = append(out[rel], imp)
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// closure is everything pkg imports, directly or through other packages of
// the module.
func closure(direct map[string][]string, pkg string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, imp := range direct[p] {
			if !seen[imp] {
				seen[imp] = true
				walk(imp)
			}
		}
	}
	walk(pkg)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	return out
}

func TestClosureFollowsModulePackages(t *testing.T) {
	t.Parallel()
	direct := map[string][]string{"api": {"internal/x", "fmt"}, "internal/x": {"auth"}, "auth": {"net/http"}}
	got := closure(direct, "api")
	for _, want := range []string{"internal/x", "auth", "net/http", "fmt"} {
		if !slices.Contains(got, want) {
			t.Errorf("closure(api) = %v lacks %s", got, want)
		}
	}
}

func TestNewInternalPackagesAreLeaves(t *testing.T) {
	t.Parallel()
	direct := map[string][]string{
		"internal/cli": nil, "internal/new": nil, "internal/new/sub": nil, "internal/cli/sub": nil,
		"internal/testkit": nil, "internal/testkit/emu": nil, "internal/testkitten": nil, "api": nil, "api/internal/x": nil,
	}
	got := leaves(direct)
	want := []string{"internal/cli/sub", "internal/new", "internal/new/sub", "internal/testkitten"}
	if !slices.Equal(got, want) {
		t.Errorf("leaves = %v, want %v", got, want)
	}
}

// TestHeavyDependenciesStayOut guards third_party/README.md: packages whose
// initialisation every command would pay before its first request, for an
// emulator feature nobody uses (traces), stay out of the binary.
func TestHeavyDependenciesStayOut(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, heavy := range []string{"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/gogo/protobuf",
			"go.opentelemetry.io/otel/sdk", "go.opentelemetry.io/otel/exporters", "github.com/ory/x/logrusx"} {
			if pkg == heavy || strings.HasPrefix(pkg, heavy+"/") {
				t.Errorf("%s is linked into partnertui again; see third_party/README.md", pkg)
			}
		}
	}
}
