package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
)

// TestDryRunCurlRunsAsIs: the curl command `api --dry-run` prints runs in
// bash as it is, with PARTNERTUI_TOKEN=$(partnertui token), and answers the
// same JSON as `api` itself; neither the printed command nor anything on
// stderr holds the token.
func TestDryRunCurlRunsAsIs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	home := testenv.Isolate(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := emulator.Start(ctx, emulator.Options{Accounts: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	info := srv.Info()
	sb := info.Environments["sandbox"]
	cfg := filepath.Join(home, "config.toml")
	body := fmt.Sprintf("[sandbox]\napi_url = %q\nauth_url = %q\nclient_id = %q\nclient_secret = %q\ntoken = \"project\"\n",
		info.APIURL, info.AuthURL, sb.ClientID, sb.ClientSecret)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := realBinary.get(t)
	run := func(script string) (string, string) {
		t.Helper()
		cmd := exec.Command("bash", "-c", script)
		cmd.Env = append(os.Environ(), "PT="+bin, "CFG="+cfg)
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
