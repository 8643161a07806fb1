package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// TestStatusTimesCarryAZone: the access token's expiry says in which time
// zone it is.
func TestStatusTimesCarryAZone(t *testing.T) {
	t.Parallel()
	expiry := time.Now().Add(time.Hour)
	var b bytes.Buffer
	printStatus(&b, statusReport{Env: "sandbox", Token: "user", SignedIn: true, AccessExpiry: expiry, Works: true})
	want := regexp.MustCompile(`Access token: valid for \S+ \(until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d ` + regexp.QuoteMeta(expiry.Format("MST")) + `\)\n`)
	if !want.Match(b.Bytes()) {
		t.Errorf("status says:\n%s\nwant the expiry with its time zone (%s)", b.String(), expiry.Format("MST"))
	}
}

// TestStatusWithoutEnvSummarisesEveryEnvironment: with no --env, status
// checks each configured environment, the default one first, as gh auth
// status does: a section each, what to do for each that does not work on
// stderr, and the first failure's exit code; --env checks one.
func TestStatusWithoutEnvSummarisesEveryEnvironment(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 3})
	cfg := filepath.Join(home, "both.toml")
	e.WriteConfig(t, cfg, testkit.Config{Envs: []config.EnvName{config.Sandbox, config.Live}})
	dir, err := homeOf(t).Locations.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	signin.Session(t, e, e.Env(t, config.Sandbox), dir)

	code, out, errOut := runCLI(t, "status", "--config", cfg)
	sandbox, live := strings.Index(out, "Environment:  sandbox"), strings.Index(out, "Environment:  live")
	if code != ExitSignIn || sandbox < 0 || live < sandbox || !strings.Contains(out[sandbox:live], "Signed in:    yes") ||
		!strings.Contains(out[live:], "Signed in:    no") {
		t.Errorf("both: exit %d, stdout:\n%s", code, out)
	}
	if !strings.Contains(errOut, "Live: ") || !strings.Contains(errOut, "partnertui login --env live") || strings.Contains(errOut, "Sandbox: ") {
		t.Errorf("both: stderr %q, want what to do for Live alone", errOut)
	}
	var reps []statusReport
	code, out, _ = runCLI(t, "status", "--config", cfg, "--json")
	if err := json.Unmarshal([]byte(out), &reps); err != nil || code != ExitSignIn || len(reps) != 2 || reps[0].Env != "sandbox" || !reps[0].Works || reps[1].Works {
		t.Errorf("both --json: exit %d, %+v (%v)", code, reps, err)
	}
	if code, out, errOut := runCLI(t, "status", "--config", cfg, "--env", "sandbox"); code != ExitOK || strings.Contains(out, "live") {
		t.Errorf("--env sandbox: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
