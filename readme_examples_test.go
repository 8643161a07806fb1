package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/reference"
	"github.com/partnertui/partnertui/internal/testkit/signin"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
)

// readmeExample is one command the README shows: a line of a sh block
// whose first word is partnertui (or that exports one's output), a
// `$ partnertui …` line of a text block, or a CI recipe's `run:` line;
// with the output the README shows under it, if any.
type readmeExample struct {
	line  int
	cmd   string
	shown []string
}

// readmeExamples reads every command example of README.md, backslash
// continuations joined, in the README's order.
func readmeExamples(t *testing.T) []readmeExample {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []readmeExample
	lines := strings.Split(string(b), "\n")
	lang, inBlock, prompted := "", false, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if fence, ok := strings.CutPrefix(strings.TrimSpace(l), "```"); ok {
			inBlock, lang, prompted = !inBlock, fence, false
			continue
		}
		if !inBlock {
			continue
		}
		start := i
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[i])
		}
		text := strings.TrimSpace(l)
		cmd, isPrompt := strings.CutPrefix(text, "$ ")
		switch {
		case lang == "yaml":
			_, run, ok := strings.Cut(text, "run: ")
			if ok && strings.HasPrefix(run, "partnertui ") {
				out = append(out, readmeExample{line: start + 1, cmd: run})
			}
		case isPrompt && (lang == "sh" || lang == "text"):
			prompted = true
			out = append(out, readmeExample{line: start + 1, cmd: cmd})
		case lang == "sh" && (strings.HasPrefix(text, "partnertui ") || strings.Contains(text, "$(partnertui ")):
			out = append(out, readmeExample{line: start + 1, cmd: text})
		case prompted && text != "" && len(out) > 0:
			out[len(out)-1].shown = append(out[len(out)-1].shown, text)
		}
	}
	return out
}

// readmeWorld is what the examples run against: an emulator whose first
// demo user is signed in with a configuration PARTNERTUI_CONFIG names, a
// webhook subscription to every event type pointing at a local receiver,
// events in the log, the files the examples name in their folder, and the
// values the README writes as placeholders.
type readmeWorld struct {
	bin, dir, cfg string
	home          string // the examples' $HOME
	emu           *testkit.Emulator
	env           []string
	values        map[string]string // placeholder → value
}

func newReadmeWorld(t *testing.T) *readmeWorld {
	t.Helper()
	home := testenv.NewHome(t)
	e := testkit.StartEmulator(t, emulator.Options{})
	w := &readmeWorld{bin: realBinary.Path(t), dir: t.TempDir(), home: home.Dir, cfg: filepath.Join(home.Dir, "config.toml"), emu: e}
	e.WriteConfig(t, w.cfg, testkit.Config{Token: "user"})
	stateDir, err := home.Locations.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	signin.Session(t, e, e.Env(t, config.Sandbox), stateDir)

	world := webhooktest.WorldOf(t, e)
	rec, hook := webhooktest.NewReceiver(t)
	types, err := world.Project.WebhookEventTypes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sub, err := world.Project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{
		Label: "README examples", Endpoint: hook, Secret: "readme-secret", EventTypes: types})
	if err != nil {
		t.Fatal(err)
	}
	world.Transfer(t)
	rec.Wait(t, 1)
	eur := euroAccount(t, world)
	w.values = map[string]string{
		"1c3f…":                          sub.ID,
		"7a1e…":                          rec.EventIDs()[0],
		"0f1e…":                          eur.ID,
		"3f2a…":                          eur.ID,
		"ACCOUNT_ID":                     eur.ID,
		"http://localhost:8080/webhooks": hook,
		"http://localhost:3000/hook":     hook,
		"127.0.0.1:8080":                 "127.0.0.1:0", // a port of its own, whatever else listens
	}
	w.writeFiles(t, eur)

	binDir := t.TempDir()
	if err := os.Symlink(w.bin, filepath.Join(binDir, "partnertui")); err != nil {
		t.Fatal(err)
	}
	w.env = append(home.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PARTNERTUI_CONFIG="+w.cfg, "HANDLER_SECRET=readme-handler-secret", "NO_COLOR=1")
	return w
}

// euroAccount is the demo user's first Opened account in EUR with an IBAN.
func euroAccount(t *testing.T, world *webhooktest.World) api.Account {
	t.Helper()
	page, err := world.User.Accounts(context.Background(), api.AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range page.Items {
		if a.IBAN != "" && a.Currency == "EUR" {
			return a
		}
	}
	t.Fatal("the demo user has no Opened EUR account with an IBAN")
	return api.Account{}
}

// writeFiles writes the files the examples name, in their folder (and
// the secret file in the home folder, where the README puts it).
func (w *readmeWorld) writeFiles(t *testing.T, eur api.Account) {
	t.Helper()
	files := map[string]string{
		"transfer.json": fmt.Sprintf(`{"amount": {"value": "10.00", "currency": "EUR"}, "creditorIban": %q, "creditorName": "README",
  "debtorIban": "FR2730003000706315734174B93", "debtorName": "partnertui README"}`, eur.IBAN),
		"simulate.graphql": "mutation Simulate($input: IncomingSepaCreditTransferInput!) {\n  simulateIncomingSepaCreditTransferReception(input: $input) { __typename }\n}\n",
		// What the README shows each check refuse, at the line and column
		// it shows.
		"bad.graphql":                          "query Bad {\n  accounts(first: 1) {\n    edges { node { iban } }\n  }\n}\n",
		"deep.graphql":                         "query Deep { " + strings.Repeat("x { ", 15) + "p" + strings.Repeat(" }", 16) + "\n",
		"ids.graphql":                          "query Ids($after: String) {\n  accounts(first: 40, after: $after) {\n    pageInfo { hasNextPage endCursor }\n    edges { node { id } }\n  }\n}\n",
		"src/accounts.go":                      "package src\n\nconst accountsQuery = `query Accounts { accounts(first: 10) { edges { node { id name } } } }`\n",
		"partner-schema.graphql":               string(reference.Read(t, reference.PartnerSchema)),
		"partner-admin-schema.graphql":         string(reference.Read(t, reference.TestingSchema)),
		"yesterday/partner-schema.graphql":     string(reference.Read(t, reference.PartnerSchema)),
		"partner.graphql":                      string(reference.Read(t, reference.PartnerSchema)),
		"partner-admin.graphql":                string(reference.Read(t, reference.TestingSchema)),
		"fixtures.toml":                        readmeBlock(t, "toml", "[AccountHolder."),
		"../home/.config/myapp/webhook-secret": "readme-file-secret\n",
	}
	for name, body := range files {
		path := filepath.Join(w.dir, name)
		if strings.HasPrefix(name, "../home/") {
			path = filepath.Join(w.home, strings.TrimPrefix(name, "../home/"))
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeBlock is the README's first code block of lang holding marker.
func readmeBlock(t *testing.T, lang, marker string) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(b), "```"+lang+"\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		if strings.Contains(block, marker) {
			return block
		}
	}
	t.Fatalf("the README has no %s block holding %q", lang, marker)
	return ""
}

// pendingExamples are examples of a command this build does not have yet
// (another branch builds it), each with the command's group and name:
// once the group's help lists it, the entry must go, so the example runs.
var pendingExamples = map[string][2]string{}

// longRunning are the commands that run until interrupted, and what they
// print (on stdout or stderr) once they are ready.
var longRunning = []struct{ prefix, ready string }{
	{"partnertui listen ", "Ready:"},
	{"partnertui emulator ", "partnertui emulator is running"},
}

// findingsExitOne are commands whose exit 1 means they found something,
// which is what they are for.
var findingsExitOne = []string{"partnertui check"}

var digits = regexp.MustCompile(`[0-9]+`)

// TestREADMEExamples runs every command example of the README against the
// emulator, as a user types it into a shell: the real binary on PATH,
// PARTNERTUI_CONFIG naming a signed-in configuration, the README's
// placeholders (an id written 1c3f…, a port, a local endpoint) replaced by
// real ones. Each must exit 0 (or 1 for a check that finds something, 2
// where the README shows an error), a command that serves must start and
// stop on Ctrl+C, and the output the README shows under a `$` line must
// be what it prints: each line's first word, and "Error:" and curl lines
// whole. An example with a placeholder the test does not know fails, so
// none is ever left unrun.
func TestREADMEExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	t.Parallel()
	for _, tool := range []string{"sh", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README's examples need %s (.ci/run installs it)", tool)
		}
	}
	examples := readmeExamples(t)
	if len(examples) < 30 {
		t.Fatalf("found %d examples in the README; the parser has lost some", len(examples))
	}
	w := newReadmeWorld(t)
	for _, ex := range examples {
		t.Run(fmt.Sprintf("line %d", ex.line), func(t *testing.T) { w.run(t, ex) })
	}
}

// secretOnCommandLine is the value an example's command line gives
// --secret, "" when it gives none or "-" (stdin).
func secretOnCommandLine(cmd string) string {
	words := strings.Fields(cmd)
	for i, w := range words {
		v, ok := strings.CutPrefix(w, "--secret=")
		if !ok && w == "--secret" && i+1 < len(words) {
			v, ok = words[i+1], true
		}
		if ok && v != "-" {
			return v
		}
	}
	return ""
}

// TestREADMEExamplesKeepWebhookSecretsOffTheCommandLine: no example of the
// README passes a webhook secret as --secret VALUE, which the process list
// and the shell's history would keep (issue 31, item 6): they read it from
// stdin (--secret -), an environment variable (--secret-env) or a file
// (--secret-file).
func TestREADMEExamplesKeepWebhookSecretsOffTheCommandLine(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]string{
		"partnertui listen --create --secret s3cr3t --forward-to http://localhost:8080": "s3cr3t",
		"partnertui listen --create --secret=s3cr3t":                                    "s3cr3t",
		`partnertui events replay 7a1e… --secret "$S"`:                                  `"$S"`,
		"partnertui listen --create --secret - --forward-to http://localhost:8080":      "",
		"partnertui listen --create --secret-env HANDLER_SECRET":                        "",
		"partnertui events replay 7a1e… --secret-file ~/.config/myapp/webhook-secret":   "",
	} {
		if got := secretOnCommandLine(cmd); got != want {
			t.Errorf("secretOnCommandLine(%q) = %q, want %q", cmd, got, want)
		}
	}
	examples := readmeExamples(t)
	safe := 0
	for _, ex := range examples {
		if v := secretOnCommandLine(ex.cmd); v != "" {
			t.Errorf("README line %d passes a webhook secret on the command line (--secret %s): use --secret -, --secret-env or --secret-file\n%s", ex.line, v, ex.cmd)
		}
		if strings.Contains(ex.cmd, "--secret-env ") || strings.Contains(ex.cmd, "--secret-file ") {
			safe++
		}
	}
	if safe == 0 {
		t.Fatalf("none of the README's %d examples gives a secret with --secret-env or --secret-file; the parser has lost them", len(examples))
	}
}

// run runs one example and checks what it did.
func (w *readmeWorld) run(t *testing.T, ex readmeExample) {
	for key, probe := range pendingExamples {
		if strings.Contains(ex.cmd, key) {
			help, err := exec.Command(w.bin, probe[0], "--help").Output()
			if err != nil {
				t.Fatalf("partnertui %s --help: %v", probe[0], err)
			}
			if regexp.MustCompile(`(?m)^  ` + probe[1] + ` `).Match(help) {
				t.Errorf("README line %d: `partnertui %s %s` is built now: remove %q from pendingExamples so the example runs", ex.line, probe[0], probe[1], key)
			} else {
				t.Logf("README line %d: %s is not in this build yet: %s", ex.line, key, ex.cmd)
			}
			return
		}
	}
	cmd := ex.cmd
	for placeholder, value := range w.values {
		cmd = strings.ReplaceAll(cmd, placeholder, value)
	}
	if strings.Contains(cmd, "…") {
		t.Fatalf("README line %d: %q has a placeholder the test cannot fill: add it to readmeWorld.values", ex.line, ex.cmd)
	}
	env := w.env
	if len(ex.shown) > 0 {
		// What the README shows is a first run's: no schema cached yet.
		env = append(env, "XDG_CACHE_HOME="+t.TempDir())
	}
	if strings.HasPrefix(cmd, "partnertui config init") {
		env = append(env, "PARTNERTUI_CONFIG="+filepath.Join(t.TempDir(), "config.toml"))
	}
	var out bytes.Buffer
	code, err := w.shell(t, cmd, env, &out)
	if err != nil {
		t.Fatalf("README line %d: %s: %v\n%s", ex.line, cmd, err, out.String())
	}
	text := strings.ReplaceAll(out.String(), w.emu.Info.APIURL, "https://api.swan.io")
	t.Logf("$ %s  (exit %d)\n%s", cmd, code, text)
	wantError := false
	for _, s := range ex.shown {
		wantError = wantError || strings.HasPrefix(s, "Error:")
	}
	ok := code == 0
	switch {
	case wantError:
		ok = code == 2
	case code == 1 && hasPrefixOf(cmd, findingsExitOne):
		ok = true
	}
	if !ok {
		t.Fatalf("README line %d: %s exited %d:\n%s", ex.line, cmd, code, text)
	}
	w.checkShown(t, ex, text)
}

// checkShown checks the output the README shows under the example against
// what it printed: each shown line's first word (its digits aside) as
// often as shown, and its error and curl lines whole.
func (w *readmeWorld) checkShown(t *testing.T, ex readmeExample, text string) {
	t.Helper()
	firsts := map[string]int{}
	lines := strings.Split(text, "\n")
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 {
			firsts[digits.ReplaceAllString(f[0], "N")]++
		}
	}
	for _, s := range ex.shown {
		first := digits.ReplaceAllString(strings.Fields(s)[0], "N")
		if firsts[first] == 0 {
			t.Errorf("README line %d shows %q, but %s printed no line starting %q:\n%s", ex.line, s, ex.cmd, first, text)
		}
		firsts[first]--
		if (strings.HasPrefix(s, "Error:") || strings.HasPrefix(s, "curl ")) && !slices.Contains(lines, s) {
			t.Errorf("README line %d shows\n%s\nbut %s printed\n%s", ex.line, s, ex.cmd, text)
		}
	}
}

// shell runs cmd in sh in the examples' folder, stdout and stderr into
// out as a terminal interleaves them; a long-running command is stopped
// with SIGINT once it says it is ready, and must then end.
func (w *readmeWorld) shell(t *testing.T, cmd string, env []string, out *bytes.Buffer) (int, error) {
	t.Helper()
	ready := ""
	// The last command of a chain (pull && pull && emulator) is the one
	// that runs until interrupted: it is exec'd, so the interrupt reaches it.
	head, last := "", cmd
	if i := strings.LastIndex(cmd, " && "); i >= 0 {
		head, last = cmd[:i+len(" && ")], cmd[i+len(" && "):]
	}
	for _, l := range longRunning {
		if strings.HasPrefix(last, l.prefix) && !strings.Contains(last, "--coverage") {
			ready, cmd = l.ready, head+"exec "+last
			if strings.Contains(last, "--json") {
				ready = `"api_url"`
			}
		}
	}
	c := exec.Command("sh", "-c", cmd)
	c.Dir, c.Env = w.dir, env
	buf := testkit.NewBuffer()
	c.Stdout, c.Stderr = buf, buf
	if err := c.Start(); err != nil {
		return 0, err
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	timeout := time.After(2 * time.Minute)
	if ready != "" {
		t.Cleanup(func() { _ = c.Process.Kill() })
		buf.WaitFor(t, "the command to say it is ready ("+ready+")", func(s string) bool { return strings.Contains(s, ready) })
		_ = c.Process.Signal(syscall.SIGINT)
	}
	var err error
	select {
	case err = <-done:
	case <-timeout:
		_ = c.Process.Kill()
		err = <-done
		out.WriteString(buf.String())
		return 0, fmt.Errorf("did not end within 2 minutes (%v)", err)
	}
	out.WriteString(buf.String())
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	return 0, err
}

func hasPrefixOf(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
