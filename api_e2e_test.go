package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
)

// TestDryRunCurlRunsAsIs: the curl command `api --dry-run` prints runs in
// bash as it is, with PARTNERTUI_TOKEN=$(partnertui token), and answers the
// same JSON as `api` itself; neither the printed command nor anything on
// stderr holds the token.
func TestDryRunCurlRunsAsIs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	home := testenv.NewHome(t)
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 5})
	cfg := filepath.Join(home.Dir, "config.toml")
	e.WriteConfig(t, cfg, testkit.Config{Token: "project"})
	bin := realBinary.Path(t)
	run := func(script string) (string, string) {
		t.Helper()
		cmd := exec.Command("bash", "-c", script)
		cmd.Env = append(home.Environ(), "PT="+bin, "CFG="+cfg)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, stderr.String())
		}
		return string(out), stderr.String()
	}
	query := `query Names($n: Int!) { accounts(first: $n) { edges { node { id name IBAN } } } }`
	direct, _ := run(`"$PT" api --config "$CFG" -F n=3 '` + query + `'`)
	curl, dryErr := run(`"$PT" api --config "$CFG" -F n=3 --dry-run '` + query + `'`)
	token, _ := run(`"$PT" token --config "$CFG"`)
	token = strings.TrimSpace(token)
	if token == "" || strings.Contains(curl, token) || strings.Contains(dryErr, token) {
		t.Fatalf("token %q, dry run %q: want a token, and none in the printed command", token, curl)
	}
	if !strings.HasPrefix(curl, "curl ") || !strings.Contains(curl, "$PARTNERTUI_TOKEN") {
		t.Fatalf("--dry-run printed %q, want a curl command reading $PARTNERTUI_TOKEN", curl)
	}
	viaCurl, _ := run(`export PARTNERTUI_TOKEN=$("$PT" token --config "$CFG")` + "\n" + curl)
	var a, b any
	if err := json.Unmarshal([]byte(direct), &a); err != nil {
		t.Fatalf("api: %v\n%s", err, direct)
	}
	if err := json.Unmarshal([]byte(viaCurl), &b); err != nil {
		t.Fatalf("curl: %v\n%s", err, viaCurl)
	}
	if !reflect.DeepEqual(a, b) || !strings.Contains(direct, `"IBAN"`) {
		t.Errorf("api answered %s\nthe dry run's curl answered %s", direct, viaCurl)
	}
}
