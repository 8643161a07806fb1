package cli

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
)

// keysOf are the keys of a JSON object, in the order written.
func keysOf(t *testing.T, obj string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%q is not a JSON object: %v", obj, err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestJSONFieldsAndJQOnEveryCommand: gh's --json field,field and
// --jq/-q work on the lists and on the single-item commands: --json with
// fields writes those fields in that order (with a space or an =), --jq
// filters the list as one array (or, with --jsonl, each item), a field
// the items lack is a usage error with the fields meant.
func TestJSONFieldsAndJQOnEveryCommand(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 5})
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, append(args, "--config", cfg)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	var accounts []json.RawMessage
	if err := json.Unmarshal([]byte(run("accounts", "--json", "id,name", "--first", "3")), &accounts); err != nil || len(accounts) != 3 {
		t.Fatalf("accounts --json id,name: %v, %d items", err, len(accounts))
	}
	for _, a := range accounts {
		if k := keysOf(t, string(a)); !slices.Equal(k, []string{"id", "name"}) {
			t.Errorf("accounts --json id,name wrote the keys %v", k)
		}
	}
	lines := 0
	for line := range strings.Lines(run("accounts", "--jsonl", "--json", "IBAN,id", "--first", "3")) {
		if k := keysOf(t, line); !slices.Equal(k, []string{"IBAN", "id"}) {
			t.Errorf("accounts --jsonl --json IBAN,id wrote the keys %v", k)
		}
		lines++
	}
	if lines != 3 {
		t.Errorf("accounts --jsonl --json IBAN,id wrote %d lines, want 3", lines)
	}
	ids := strings.Fields(run("accounts", "--jq", ".[].id", "--first", "3"))
	if len(ids) != 3 {
		t.Fatalf("accounts --jq .[].id: %v", ids)
	}
	if got := strings.TrimSpace(run("accounts", "-q", "length", "--first", "3")); got != "3" {
		t.Errorf("accounts -q length: %q, want 3 (the list as one array)", got)
	}
	if got := strings.Fields(run("accounts", "--jsonl", "--jq", ".id", "--first", "3")); !slices.Equal(got, ids) {
		t.Errorf("accounts --jsonl --jq .id: %v, want %v", got, ids)
	}
	if k := keysOf(t, run("account", ids[0], "--json", "name,id")); !slices.Equal(k, []string{"name", "id"}) {
		t.Errorf("account --json name,id wrote the keys %v", k)
	}
	// A word after --json that is not a list of fields stays an argument.
	if k := keysOf(t, run("account", "--json", ids[0])); len(k) < 5 || !slices.Contains(k, "holder") {
		t.Errorf("account --json ID wrote the keys %v, want every field", k)
	}
	if got := strings.TrimSpace(run("account", ids[0], "--jq", ".id")); got != ids[0] {
		t.Errorf("account --jq .id: %q", got)
	}
	if got := strings.TrimSpace(run("status", "--jq", ".[0].token")); got != "project" {
		t.Errorf("status --jq .[0].token: %q", got)
	}
	txID := strings.TrimSpace(run("transactions", "--first", "1", "--jq", ".[0].id"))
	if got := strings.TrimSpace(run("transaction", txID, "--jq", ".id")); got != txID {
		t.Errorf("transaction --jq .id: %q, want %q", got, txID)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"accounts", "--json", "nmae"}},
		{[]string{"accounts", "--json=id,bogus"}},
		{[]string{"account", ids[0], "--json=nmae"}},
		{[]string{"accounts", "--jq", ".["}},
		{[]string{"accounts", "--json", "--jsonl"}},
	} {
		code, out, errOut := runCLI(t, append(c.args, "--config", cfg)...)
		if code != ExitUsage || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", c.args, code, out, errOut)
		}
	}
	if _, _, errOut := runCLI(t, "accounts", "--json", "nmae", "--config", cfg); !strings.Contains(errOut, `no field "nmae": did you mean name?`) {
		t.Errorf("a mistyped field: %q", errOut)
	}
}

// TestEveryListAndItemCommandTakesJSONFieldsAndJQ: the lists and the
// single-item commands all take --json field,field and --jq (-q), and
// their help names the fields.
func TestEveryListAndItemCommandTakesJSONFieldsAndJQ(t *testing.T) {
	t.Parallel()
	f := &Factory{IO: IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}}
	root := NewCmdRoot(f)
	for _, name := range []string{"accounts", "account", "transactions", "transaction", "cards", "card", "events", "members", "member", "statements", "statement", "subscriptions", "status"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Flags().Lookup("jq") == nil || cmd.Flags().ShorthandLookup("q") == nil || cmd.Annotations[jsonFieldsAnnotation] == "" {
			t.Errorf("%s lacks --jq, -q or --json's fields", name)
		}
		if !strings.Contains(cmd.Long, "JSON fields (--json field,field): ") {
			t.Errorf("%s's help does not name its JSON fields:\n%s", name, cmd.Long)
		}
	}
}
