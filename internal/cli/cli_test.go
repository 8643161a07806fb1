package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/testenv"
)

// homes holds each test's home (testenv.Home), made the first time the
// test asks for it: a test's runs of the command line share it (a login,
// then a status), no two tests do, and nothing process-wide is changed, so
// the tests run in parallel.
var homes sync.Map // *testing.T → *testenv.Home

// homeOf is t's home.
func homeOf(t *testing.T) *testenv.Home {
	if h, ok := homes.Load(t); ok {
		return h.(*testenv.Home)
	}
	h := testenv.NewHome(t)
	homes.Store(t, h)
	t.Cleanup(func() { homes.Delete(t) })
	return h
}

// process is the command line's process with streams, in t's home.
func process(t *testing.T, streams IO) Process {
	h := homeOf(t)
	return Process{IO: streams, Locations: h.Locations, Getenv: h.Getenv, Now: testClock}
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code = Run(ctx, process(t, IO{In: strings.NewReader(""), Out: &out, Err: &errb}), args)
	return code, out.String(), errb.String()
}

// testClock is the app's clock of the commands the tests run: --demo's
// data and the emulator command's are generated up to the start of its
// day, the same whatever the day the tests run.
func testClock() time.Time { return time.Date(2026, time.November, 1, 9, 0, 0, 0, time.UTC) }

func TestHelpListsEveryCommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "--help")
	if code != ExitOK {
		t.Fatalf("--help exited %d, stderr: %s", code, errOut)
	}
	for _, c := range []string{"login", "logout", "status", "accounts", "account", "config", "emulator", "version", "--env", "--demo", "--config"} {
		if !strings.Contains(out, c) {
			t.Errorf("--help does not mention %q:\n%s", c, out)
		}
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	var outs []string
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := runCLI(t, args...)
		if code != ExitOK || !strings.Contains(out, Version()) || Version() == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and the version %s", args, code, out, errOut, Version())
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("--version says %q but version says %q", outs[0], outs[1])
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "unknown flag"},
		{[]string{"nosuchcommand"}, "unknown command"},
		{[]string{"account"}, "account ID"},
		{[]string{"accounts", "--first", "0"}, "--first"},
		{[]string{"--env", "staging", "status"}, "staging"},
		{[]string{"status", "extra"}, "no arguments"},
		{[]string{"emulator", "--accounts", "100001"}, "--accounts"},
		{[]string{"emulator", "--token-ttl", "10ms"}, "at least 1s"},
		{[]string{"emulator", "--rate-limit", "lots"}, "rate limit"},
		// Built-in commands' mistakes are typed too, whatever their wording.
		{[]string{"man", "extra"}, "no arguments"},
		{[]string{"completion", "tcsh"}, "tcsh"},
		{[]string{"config", "path", "extra"}, "no arguments"},
		// A flag that does not apply to a command is not accepted there.
		{[]string{"version", "--env", "live"}, "unknown flag: --env"},
		{[]string{"emulator", "--demo"}, "unknown flag: --demo"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, ExitUsage, errOut)
		}
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%v: stderr %q does not mention %q", c.args, errOut, c.want)
		}
		if out != "" {
			t.Errorf("%v: wrote %q to stdout; errors belong on stderr", c.args, out)
		}
	}
}

func TestConfigInitAndPath(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	code, out, errOut := runCLI(t, "config", "path")
	want := filepath.Join(home, "config", "partnertui", "config.toml")
	if code != ExitOK || strings.TrimSpace(out) != want {
		t.Fatalf("config path: exit %d, %q (stderr %q); want %q", code, out, errOut, want)
	}
	p := filepath.Join(home, "custom.toml")
	if code, _, errOut := runCLI(t, "--config", p, "config", "init"); code != ExitOK {
		t.Fatalf("config init: exit %d: %s", code, errOut)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("template mode %v, want 0600", fi.Mode().Perm())
	}
	if code, _, _ := runCLI(t, "--config", p, "config", "init"); code == ExitOK {
		t.Errorf("config init overwrote an existing file")
	}
}

func TestNoConfigSaysWhatToDo(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, "accounts")
	if code != ExitFailure {
		t.Fatalf("exit %d, want %d", code, ExitFailure)
	}
	if !strings.Contains(errOut, "config init") || !strings.Contains(errOut, "--demo") {
		t.Errorf("error %q should point at `config init` and --demo", errOut)
	}
}

// TestDemoCommands runs the one-shot commands on the embedded emulator: the
// whole stack (emulator, demo sign-in through the forms, token store, API
// client, output) in one process.
func TestDemoCommands(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	tmp := homeOf(t).Locations.Temp

	code, out, errOut := runCLI(t, "--demo", "accounts", "--json", "--first", "5")
	if code != ExitOK {
		t.Fatalf("--demo accounts: exit %d: %s", code, errOut)
	}
	var accounts []map[string]any
	if err := json.Unmarshal([]byte(out), &accounts); err != nil {
		t.Fatalf("--json output is not one JSON array: %v\n%s", err, out)
	}
	if len(accounts) != 5 {
		t.Fatalf("got %d accounts, want 5", len(accounts))
	}
	// IBAN is written when the platform returned one (a Limited account's
	// is null and left out, as every field not returned is).
	var id string
	for _, a := range accounts {
		if a["id"] == nil {
			t.Fatalf("account lacks the schema's id: %v", a)
		}
		if a["IBAN"] != nil && id == "" {
			id, _ = a["id"].(string)
		}
	}
	if id == "" {
		t.Fatalf("no account of the demo user has an IBAN: %v", accounts)
	}

	code, out, errOut = runCLI(t, "--demo", "account", id, "--json")
	if code != ExitOK {
		t.Fatalf("--demo account: exit %d: %s", code, errOut)
	}
	var one map[string]any
	if err := json.Unmarshal([]byte(out), &one); err != nil || one["id"] != id {
		t.Fatalf("account --json: %v %v\n%s", err, one["id"], out)
	}

	code, out, errOut = runCLI(t, "--demo", "--env", "live", "status", "--json")
	if code != ExitOK {
		t.Fatalf("--demo status: exit %d: %s", code, errOut)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil || st["signed_in"] != true || st["env"] != "live" {
		t.Fatalf("status --json: %v\n%s", err, out)
	}

	// A demo leaves nothing behind: no token directory, no config.
	left, _ := filepath.Glob(filepath.Join(tmp, "partnertui-demo-*"))
	if len(left) > 0 {
		t.Errorf("demo token directories left behind: %v", left)
	}
	if _, err := os.Stat(filepath.Join(home, "config", "partnertui")); err == nil {
		t.Errorf("--demo created a real config directory")
	}
	if matches, _ := filepath.Glob(filepath.Join(home, "state", "partnertui", "*.json")); len(matches) > 0 {
		t.Errorf("--demo wrote token files into the real state directory: %v", matches)
	}
}

// TestEmulatorCommandPrintsOneJSONLine: `partnertui emulator --json` prints
// exactly one JSON object on one line, serves until interrupted, then exits 0.
func TestEmulatorCommandPrintsOneJSONLine(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- Run(ctx, process(t, IO{In: strings.NewReader(""), Out: pw, Err: &errb}), []string{"emulator", "--json", "--accounts", "10", "--rate-limit", "50/1m"})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the first line: %v (stderr %q)", err, errb.String())
	}
	var info struct {
		APIURL       string `json:"api_url"`
		AuthURL      string `json:"auth_url"`
		Environments map[string]struct {
			ClientID          string `json:"client_id"`
			ClientSecret      string `json:"client_secret"`
			RedirectURI       string `json:"redirect_uri"`
			GraphQLURL        string `json:"graphql_url"`
			TestingGraphQLURL string `json:"testing_graphql_url"`
		} `json:"environments"`
		DemoUsers []struct {
			Phone string `json:"phone"`
		} `json:"demo_users"`
	}
	if err := json.Unmarshal([]byte(line), &info); err != nil {
		t.Fatalf("first line is not one JSON object: %v\n%s", err, line)
	}
	sb, lv := info.Environments["sandbox"], info.Environments["live"]
	if !strings.HasPrefix(sb.ClientID, "SANDBOX_") || !strings.HasPrefix(lv.ClientID, "LIVE_") ||
		!strings.HasSuffix(sb.GraphQLURL, "/sandbox-partner/graphql") || !strings.HasSuffix(lv.GraphQLURL, "/live-partner/graphql") ||
		!strings.HasSuffix(sb.TestingGraphQLURL, "/sandbox-partner-admin/graphql") || lv.TestingGraphQLURL != "" ||
		sb.ClientSecret == "" || sb.RedirectURI == "" || len(info.DemoUsers) == 0 || info.APIURL == "" || info.AuthURL == "" {
		t.Fatalf("incomplete emulator info: %+v", info)
	}
	resp, err := http.Get(info.AuthURL + "/.well-known/openid-configuration")
	if err != nil {
		t.Fatalf("the emulator does not answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("discovery answered %d", resp.StatusCode)
	}
	cancel()
	if code := <-done; code != ExitOK {
		t.Fatalf("emulator exited %d after the interrupt: %s", code, errb.String())
	}
	if rest, _ := io.ReadAll(pr); len(bytes.TrimSpace(rest)) != 0 {
		t.Errorf("more than one line on stdout: %q", rest)
	}
}

// TestHelpShowsOnlyTheFlagsThatApply: each command lists its own flags with
// value placeholders and examples, and not the flags of others.
func TestHelpShowsOnlyTheFlagsThatApply(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args       []string
		want, deny []string
	}{
		{[]string{"accounts", "--help"}, []string{"--search text", "--first N", "--env environment", "--project", "Examples:"}, nil},
		{[]string{"login", "--help"}, []string{"--no-browser", "--env environment", "Examples:"}, []string{"--project"}},
		{[]string{"version", "--help"}, []string{"Examples:"}, []string{"--env", "--demo", "--config", "--project"}},
		{[]string{"emulator", "--help"}, []string{"--listen address", "--accounts N", "Examples:"}, []string{"--env", "--demo", "--project"}},
		{[]string{"config", "path", "--help"}, []string{"--config file"}, []string{"--env", "--demo"}},
		{[]string{"--help"}, []string{"login", "accounts", "emulator", "--demo", "Exit codes: 0 success, 1 failure, 2 usage error, 4 sign-in needed."}, nil},
		{[]string{"status", "--help"}, []string{"4 a sign-in is needed", "--json"}, nil},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: help lacks %q:\n%s", c.args, w, out)
			}
		}
		for _, d := range c.deny {
			if strings.Contains(out, d) {
				t.Errorf("%v: help lists %q, which does not apply:\n%s", c.args, d, out)
			}
		}
	}
}

// TestTUINeedsATerminal: with stdout redirected, the terminal UI says to use
// a command with --json instead of drawing escape sequences into a file.
func TestTUINeedsATerminal(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "--demo")
	if code != ExitUsage || out != "" || !strings.Contains(errOut, "--json") || !strings.Contains(errOut, "not") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestEnvCompletes: --env completes in the shell.
func TestEnvCompletes(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, "__complete", "accounts", "--env", "")
	if code != ExitOK || !strings.Contains(out, "sandbox") || !strings.Contains(out, "live") {
		t.Fatalf("exit %d, completions %q", code, out)
	}
}

// fakePlatform answers client-credentials token requests and, on the
// GraphQL endpoint, first a 429 with Retry-After then accounts pages.
func fakePlatform(t *testing.T, retryAfter string) (url string, graphqlCalls *atomic.Int32) {
	t.Helper()
	graphqlCalls = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/oauth2/token":
			_, _ = io.WriteString(w, `{"access_token":"tok","token_type":"bearer","expires_in":3600,"scope":""}`)
		case "/sandbox-partner/graphql":
			if graphqlCalls.Add(1) == 1 {
				w.Header().Set("Retry-After", retryAfter)
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = io.WriteString(w, `{"errors":[{"message":"too many requests"}]}`)
				return
			}
			_, _ = io.WriteString(w, `{"data":{"accounts":{"totalCount":1,"pageInfo":{"hasNextPage":false,"endCursor":"1"},`+
				`"edges":[{"node":{"id":"acc-1","name":"Main","IBAN":"FR7630006000011234567890189","BIC":"SWNBFR22","currency":"EUR",`+
				`"statusInfo":{"status":"Opened"},"holder":{"info":{"name":"Marie"}},"balances":{"available":{"value":"1.00","currency":"EUR"}}}}]}}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, graphqlCalls
}

// TestWaitIsSaidOnStderr: a 429 with Retry-After makes the command wait,
// and stderr says for how long and why, while stdout carries only data.
func TestWaitIsSaidOnStderr(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	url, calls := fakePlatform(t, "2")
	cfg := filepath.Join(home, "c.toml")
	body := fmt.Sprintf("[sandbox]\napi_url = %q\nauth_url = %q\nclient_id = \"SANDBOX_test\"\nclient_secret = \"s\"\ntoken = \"project\"\n", url, url)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "accounts", "--config", cfg, "--jsonl")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(errOut, "waiting 2s, until ") || !strings.Contains(errOut, "429 Too Many Requests") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr = %q, want one line saying how long and why it waits", errOut)
	}
	if strings.TrimSpace(out) == "" || strings.Contains(out, "waiting") || calls.Load() != 2 {
		t.Errorf("stdout = %q after %d requests", out, calls.Load())
	}
}

// TestTUIWaitsStayOffStderr: the terminal UI says its waits in its footer;
// the command line's wait line on stderr would be drawn over its screen,
// so only the other commands' clients report to it.
func TestTUIWaitsStayOffStderr(t *testing.T) {
	t.Parallel()
	f := &Factory{IO: IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}}
	root := NewCmdRoot(f)
	if f.appOptions(root).OnWait != nil {
		t.Error("the terminal UI's API clients report their waits to the command line's stderr line")
	}
	accounts, _, err := root.Find([]string{"accounts"})
	if err != nil {
		t.Fatal(err)
	}
	if f.appOptions(accounts).OnWait == nil {
		t.Error("the accounts command no longer says on stderr how long it waits")
	}
}

// --all --jsonl walks accounts and the project's transactions in parts:
// the same items as --ordered's single walk, each once.
func TestAllInPartsEqualsOrdered(t *testing.T) {
	t.Parallel()
	ids := func(args ...string) []string {
		t.Helper()
		code, out, errOut := runCLI(t, append([]string{"--demo", "--project", "--all", "--jsonl", "--first", "9"}, args...)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var got []string
		for line := range strings.Lines(out) {
			var item struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &item); err != nil || item.ID == "" {
				t.Fatalf("%v: bad line %q: %v", args, line, err)
			}
			got = append(got, item.ID)
		}
		return got
	}
	for _, list := range []string{"accounts", "transactions"} {
		ordered, parts := ids(list, "--ordered"), ids(list)
		if len(ordered) < 50 {
			t.Fatalf("%s: only %d items", list, len(ordered))
		}
		slices.Sort(ordered)
		slices.Sort(parts)
		if !slices.Equal(ordered, parts) {
			t.Errorf("%s in parts: %d items, --ordered %d, not the same", list, len(parts), len(ordered))
		}
	}
}
