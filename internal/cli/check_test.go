package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// plantedTree is internal/opcheck's fixture tree: a problem of each kind
// planted in each language.
const plantedTree = "../opcheck/testdata/planted"

func referenceFlags(t *testing.T) []string {
	t.Helper()
	return []string{"--schema", reference.Path(t, reference.PartnerSchema), "--schema", reference.Path(t, reference.TestingSchema)}
}

func TestCheckGroupsFindingsByFileWithTheirFix(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, append([]string{"check", plantedTree}, referenceFlags(t)...)...)
	if code != ExitFailure {
		t.Fatalf("exit %d, want 1 (findings); stderr %s", code, errOut)
	}
	for _, want := range []string{
		plantedTree + "/web/api.ts\n  5:7      deprecated  User.emailAddresses is deprecated: Use verifiedEmails field instead\n" +
			"                       fix: use verifiedEmails field\n  20:7     error       Cannot query field \"lastNam\" on type \"User\". Did you mean \"lastName\"?\n",
		plantedTree + "/operations.graphql\n",
		"36:33    limit       Deep: totalCount is at depth 16; the Sandbox limit is a depth of 15",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "note:") {
		t.Errorf("notes on stdout, which holds findings only:\n%s", out)
	}
	for _, want := range []string{"note: " + plantedTree + "/web/legacy.js:10: skipped: a string that starts like an operation",
		"7 errors, 6 deprecated uses, 4 limits broken in 6 files; 16 operations and 2 fragments in 6 files checked against the partner API"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestCheckJSON(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, append([]string{"check", plantedTree, "--json"}, referenceFlags(t)...)...)
	if code != ExitFailure || errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 1 and nothing on stderr", code, errOut)
	}
	var got struct {
		Files      int
		Fragments  int
		Summary    struct{ Errors, Deprecated, Limits int }
		Schemas    []struct{ Endpoint string }
		Operations []struct {
			Name, Endpoint string
			Depth, Fields  int
			TopLevel       int `json:"top_level_fields"`
		}
		Findings []struct {
			File, Kind, Message, Reason, Fix, Endpoint string
			Line, Column                               int
		}
		Notes []struct{ File, Message string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.Files != 6 || got.Fragments != 2 || len(got.Operations) != 16 || got.Summary.Errors != 7 || got.Summary.Deprecated != 6 ||
		got.Summary.Limits != 4 || len(got.Findings) != 17 || len(got.Notes) != 1 || len(got.Schemas) != 2 ||
		got.Schemas[0].Endpoint != "partner" || got.Schemas[1].Endpoint != "testing" {
		t.Errorf("report %+v", got)
	}
	for _, o := range got.Operations {
		if o.Name == "SixGo" && (o.TopLevel != 6 || o.Depth != 2 || o.Fields != 12 || o.Endpoint != "partner API") {
			t.Errorf("SixGo: %+v, want 6 top-level fields, depth 2, 12 fields, the partner API", o)
		}
	}
	for _, f := range got.Findings {
		if f.Kind == "deprecated" && (f.Reason == "" || f.Endpoint == "" || f.Line == 0) {
			t.Errorf("deprecated finding without its reason, endpoint or place: %+v", f)
		}
	}
}

func TestCheckGitHubAnnotations(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, append([]string{"check", plantedTree, "--format", "github"}, referenceFlags(t)...)...)
	if code != ExitFailure {
		t.Fatalf("exit %d, want 1", code)
	}
	counts := map[string]int{}
	annotation := regexp.MustCompile(`^::(error|warning|notice) file=[^,:]+(,line=\d+(,col=\d+,title=partnertui check%3A (error|limit|deprecated))?)?::\S`)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if m := annotation.FindStringSubmatch(line); m != nil {
			counts[m[1]]++
		} else if !strings.HasPrefix(line, "7 errors, 6 deprecated uses") {
			t.Errorf("not a workflow command nor the summary: %q", line)
		}
	}
	if counts["error"] != 11 || counts["warning"] != 6 || counts["notice"] != 1 {
		t.Errorf("annotations %v, want 11 errors (7 errors, 4 limits), 6 warnings, 1 notice", counts)
	}
	if want := "::warning file=" + plantedTree + "/web/api.ts,line=5,col=7,title=partnertui check%3A deprecated::User.emailAddresses is deprecated: Use verifiedEmails field instead (fix: use verifiedEmails field)\n"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}

func TestCheckCleanTreeExitsZero(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "q.ts"), []byte("export const Q = gql`query Q { projectInfo { id name } }`;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, append([]string{"check", dir, "--operations"}, referenceFlags(t)...)...)
	if code != ExitOK || !strings.Contains(errOut, "No problem found: 1 operation and 0 fragments in 1 file checked against the partner API") ||
		!strings.Contains(out, "q.ts:1:22 query Q → partner API: depth 2/15, fields 3/1000, top-level 1/5") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCheckAndSchemaDiffUsageErrors(t *testing.T) {
	t.Parallel()
	ref := referenceFlags(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{append([]string{"check", "--format", "xml"}, ref...), `--format "xml"`},
		{append([]string{"check", "--json", "--format", "github"}, ref...), "two outputs"},
		{[]string{"check", "--schema", "nope.graphql"}, "nope.graphql"},
		{[]string{"check", "--schema", "check_test.go"}, "check_test.go:"},
		{append([]string{"check", "no/such/dir"}, ref...), "no/such/dir"},
		{[]string{"schema", "diff", "one.graphql"}, "two schema files"},
		{[]string{"schema", "diff", "a.graphql", "b.graphql", "c.graphql"}, "two schema files"},
		{[]string{"schema", "nope"}, "unknown command"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 saying %q", c.args, code, errOut, c.want)
		}
	}
}

// TestCheckWithoutSchemaUsesWhatAPICached: as a user would, run `api` once
// against each endpoint, then check with no schema named: what api read
// is kept as a snapshot, as `schema pull` keeps one.
func TestCheckWithoutSchemaUsesWhatAPICached(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	if code, _, errOut := runCLI(t, "check", "."); code != ExitUsage || !strings.Contains(errOut, "no schema to check against") {
		t.Fatalf("no schema anywhere: exit %d, stderr %q; want 2 and what to do", code, errOut)
	}
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 1})
	for _, args := range [][]string{{"api", "--config", cfg, "{ projectInfo { id } }"}, {"api", "--config", cfg, "--testing", "{ __typename }"}} {
		if code, _, errOut := runCLI(t, args...); code != ExitOK {
			t.Fatalf("%v: exit %d, stderr %s", args, code, errOut)
		}
	}
	dir := t.TempDir()
	src := "const a = `query A($id: ID!) { account(accountId: $id) { nmae statusInfo { ... on AccountSuspendedStatus { reason } } } }`\nconst b = `mutation B($input: SimulateOutgoingCardCreditInput!) { simulateOutgoingCardCredit(input: $input) { __typename } }`\n"
	if err := os.WriteFile(filepath.Join(dir, "ops.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "check", dir, "--config", cfg, "--json")
	var got struct {
		Schemas    []struct{ Name, Endpoint string }
		Operations []struct{ Name, Endpoint string }
		Findings   []struct{ Message string }
		Notes      []struct{ Message string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != ExitFailure {
		t.Fatalf("exit %d (%v), stdout %s, stderr %s", code, err, out, errOut)
	}
	if len(got.Schemas) != 2 || !strings.HasPrefix(got.Schemas[0].Name, "sandbox partner API pulled ") ||
		!strings.HasPrefix(got.Schemas[1].Name, "sandbox Testing API pulled ") || got.Schemas[1].Endpoint != "testing" {
		t.Errorf("schemas %+v, want the snapshots `partnertui api` kept of the partner API and the Testing API", got.Schemas)
	}
	if len(got.Findings) != 2 || !strings.Contains(got.Findings[0].Message, `"nmae"`) ||
		!strings.Contains(got.Findings[1].Message, "AccountSuspendedStatus.reason is deprecated: Use `reasonInfo` instead.") ||
		len(got.Operations) != 2 || got.Operations[1].Endpoint != "Testing API" {
		t.Errorf("findings %+v, operations %+v: want nmae refused, reason deprecated, and B sent to the Testing API", got.Findings, got.Operations)
	}
	if len(got.Notes) != 0 {
		t.Errorf("notes %+v: the introspection asked which fields are deprecated", got.Notes)
	}
}

func TestCheckSaysWhenASchemaCannotTellDeprecations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	schema := filepath.Join(dir, "answer.json")
	body := `{"data":{"__schema":{"queryType":{"name":"Query"},"types":[{"kind":"OBJECT","name":"Query","fields":[
{"name":"projectInfo","args":[],"type":{"kind":"SCALAR","name":"String"}}]}]}}}`
	ops := filepath.Join(dir, "q.graphql")
	for path, text := range map[string]string{schema: body, ops: "{ projectInfo }"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, errOut := runCLI(t, "check", ops, "--schema", schema)
	if code != ExitOK || !strings.Contains(errOut, "note: "+schema+": this schema does not say what is deprecated") {
		t.Errorf("exit %d, stderr %q; want 0 and the note", code, errOut)
	}
}
