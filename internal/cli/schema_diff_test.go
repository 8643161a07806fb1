package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// plantedSchemas writes the reference partner schema and a copy with a
// field removed, an enum value added and a field added.
func plantedSchemas(t *testing.T) (old, new string) {
	t.Helper()
	dir := t.TempDir()
	// Each text replaced is the only one of its kind in the schema.
	ref := string(reference.Read(t, reference.PartnerSchema))
	changed := strings.NewReplacer(
		"\n  \"\"\"Unique account number\"\"\"\n  number: AccountNumber!\n", "\n",
		"\n  \"\"\"When the account is closed\"\"\"\n  Closed\n", "\n  \"\"\"When the account is closed\"\"\"\n  Closed\n  Frozen\n",
	).Replace(ref) + "\nextend type Account { nickname: String }\n"
	old, new = filepath.Join(dir, "old.graphql"), filepath.Join(dir, "new.graphql")
	for path, body := range map[string]string{old: ref, new: changed} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return old, new
}

func TestSchemaDiffExitsOneOnABreakingChange(t *testing.T) {
	t.Parallel()
	old, new := plantedSchemas(t)
	code, out, errOut := runCLI(t, "schema", "diff", old, new)
	if code != ExitFailure || errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 1 and nothing on stderr", code, errOut)
	}
	for _, want := range []string{
		"BREAKING\n  Account.number ",
		"  field removed  [field-removed]\n",
		"DANGEROUS\n  AccountStatus.Frozen ",
		"SAFE\n  Account.nickname ",
		"Why:\n  field-removed: operations that select the field are refused\n  enum-value-added: ",
		": 1 breaking, 1 dangerous, 1 safe.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runCLI(t, "schema", "diff", old, new, "--json")
	var got struct {
		Endpoint string
		Summary  struct{ Breaking, Dangerous, Safe int }
		Changes  []struct{ Level, Rule, Path, Message string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != ExitFailure {
		t.Fatalf("exit %d, %v in %s", code, err, out)
	}
	if got.Endpoint != "partner" || got.Summary.Breaking != 1 || len(got.Changes) != 3 || got.Changes[0].Level != "breaking" || got.Changes[0].Rule != "field-removed" {
		t.Errorf("JSON %+v", got)
	}
}

func TestSchemaDiffOfASchemaWithItselfExitsZero(t *testing.T) {
	t.Parallel()
	ref := reference.Path(t, reference.TestingSchema)
	code, out, _ := runCLI(t, "schema", "diff", ref, ref)
	if code != ExitOK || !strings.HasSuffix(out, ": 0 breaking, 0 dangerous, 0 safe.\n") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestSchemaDiffWithoutFilesSaysToNameThem(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, "schema", "diff")
	if code != ExitUsage || !strings.Contains(errOut, "name the two schema files to compare") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
