package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/safetext"
)

// emulatorOps lists the operation names of the GraphQL requests in the
// emulator's request log, in order.
func emulatorOps(t *testing.T, log *syncBuffer) []string {
	t.Helper()
	var ops []string
	sc := bufio.NewScanner(strings.NewReader(log.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e struct {
			Endpoint string `json:"endpoint"`
			OpName   string `json:"operation_name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("request log line %q: %v", sc.Text(), err)
		}
		if strings.HasSuffix(e.Endpoint, "/graphql") {
			ops = append(ops, e.OpName)
		}
	}
	return ops
}

func count(ops []string, name string) int {
	n := 0
	for _, o := range ops {
		if o == name {
			n++
		}
	}
	return n
}

const accountIDs = `query Ids($after: String) {
  accounts(first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { node { id } }
  }
}`

func TestAPIPaginatesEveryAccount(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	log := &syncBuffer{}
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 250, RequestLog: log})

	code, out, errOut := runCLI(t, "api", "--config", cfg, "--paginate", "--jq", ".data.accounts.edges[].node.id", accountIDs)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ids := strings.Fields(out)
	unique := map[string]bool{}
	for _, id := range ids {
		unique[id] = true
	}
	if len(ids) != 250 || len(unique) != 250 {
		t.Errorf("printed %d ids, %d unique; want 250 of each", len(ids), len(unique))
	}
	if n := count(emulatorOps(t, log), "Ids"); n != 3 {
		t.Errorf("sent %d requests for 250 accounts at 100 a page, want 3", n)
	}

	// --slurp gathers the pages into one array, which --jq then filters.
	code, out, errOut = runCLI(t, "api", "--config", cfg, "--paginate", "--slurp", "--jq", "length", accountIDs)
	if code != ExitOK || strings.TrimSpace(out) != "3" {
		t.Errorf("--slurp --jq length: exit %d, %q (%s); want 3 pages", code, out, errOut)
	}
	// Without --jq, --slurp is one JSON array of the answers.
	code, out, _ = runCLI(t, "api", "--config", cfg, "--paginate", "--slurp", accountIDs)
	var pages []map[string]any
	if err := json.Unmarshal([]byte(out), &pages); code != ExitOK || err != nil || len(pages) != 3 {
		t.Errorf("--slurp: exit %d, %d pages (%v)", code, len(pages), err)
	}
	// The schema was read once, then kept in the cache.
	if n := count(emulatorOps(t, log), "PartnertuiIntrospection"); n != 1 {
		t.Errorf("introspected %d times over three commands, want once", n)
	}
}

func TestAPIPaginatesANestedConnection(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	log := &syncBuffer{}
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 5, RequestLog: log})
	code, out, errOut := runCLI(t, "api", "--config", cfg, "--jq", ".data.accounts.edges[0].node.id", "{ accounts(first: 1) { edges { node { id } } } }")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(out)
	// jq's halt ends the output there, without an error; halt_error is one.
	code, out, errOut = runCLI(t, "api", "--config", cfg, "--jq", `.data.accounts.edges[0].node.id, halt, "not written"`, "{ accounts(first: 1) { edges { node { id } } } }")
	if code != ExitOK || strings.TrimSpace(out) != id {
		t.Fatalf("--jq with halt: exit %d, %q (%s); want the id alone", code, out, errOut)
	}
	if code, _, _ = runCLI(t, "api", "--config", cfg, "--jq", `"stop" | halt_error`, "{ accounts(first: 1) { edges { node { id } } } }"); code == ExitOK {
		t.Fatal("--jq with halt_error exited 0")
	}
	q := `query Tx($id: ID!, $endCursor: String) {
  account(accountId: $id) {
    transactions(first: 7, after: $endCursor) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id } }
    }
  }
}`
	code, out, errOut = runCLI(t, "api", "--config", cfg, "-f", "id="+id, "--paginate", "--slurp",
		"--jq", `{total: .[0].data.account.transactions.totalCount, ids: [.[].data.account.transactions.edges[].node.id] | unique | length}`, q)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct{ Total, IDs int }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	pages := count(emulatorOps(t, log), "Tx")
	if got.Total <= 7 || got.IDs != got.Total || pages != (got.Total+6)/7 {
		t.Errorf("%d unique transactions of %d in %d requests; want all of them, 7 a page", got.IDs, got.Total, pages)
	}
}

// TestAPIRefusesBeforeSending: an operation that breaks a Sandbox limit or
// does not fit the schema exits 2 with the place at fault, and the
// emulator never sees it.
func TestAPIRefusesBeforeSending(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	log := &syncBuffer{}
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 5, RequestLog: log})
	deep := "query Deep {\n" + strings.Repeat("account(accountId: \"x\") {\nholder {\n", 7) + "info {\nname\n}\n" + strings.Repeat("}\n}\n", 7) + "}"
	six := "query Six { a: user { id } b: user { id } c: user { id } d: user { id } e: user { id } f: user { id } }"
	cases := []struct {
		name, query string
		want        []string
	}{
		{"depth 16", deep, []string{"17:1", "name is at depth 16", "15"}},
		{"6 top-level fields", six, []string{"1:88", "top-level field number 6", "5"}},
		{"unknown field", "query Unknown {\n  accounts(first: 1) {\n    edges { node { iban } }\n  }\n}", []string{"3:20", `"iban"`, "IBAN"}},
		{"syntax", "query Broken { accounts(first: 1) {", []string{"1:36"}},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, "api", "--config", cfg, c.query)
		if code != ExitUsage || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", c.name, code, out)
		}
		for _, w := range append(c.want, "nothing was sent") {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr %q lacks %q", c.name, errOut, w)
			}
		}
	}
	for _, op := range emulatorOps(t, log) {
		if op != "PartnertuiIntrospection" {
			t.Errorf("the emulator received %q", op)
		}
	}
}

func TestAPIErrorsGoToStderrWithTheData(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 5})
	code, out, errOut := runCLI(t, "api", "--config", cfg, `query { user { id } accounts(first: 1) { totalCount } }`)
	if code != ExitFailure {
		t.Fatalf("exit %d, want 1: %s", code, errOut)
	}
	var answer struct {
		Data struct {
			Accounts struct{ TotalCount int }
		}
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil || answer.Data.Accounts.TotalCount != 5 {
		t.Errorf("stdout %q (%v): want the data that came with the errors", out, err)
	}
	if !strings.HasPrefix(errOut, "error: ") || !strings.Contains(errOut, "user") {
		t.Errorf("stderr %q: want the answer's errors", errOut)
	}
}

func TestAPIRefusesALiveMutation(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "--demo", "--env", "live", "api", `mutation { removeWebhookSubscription(input: {id: "x"}) { __typename } }`)
	if code != ExitFailure || out != "" || !strings.Contains(errOut, "read-only") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the Live mutation refused", code, out, errOut)
	}
}

func TestAPIUsageMistakes(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"api", "--slurp", "{ user { id } }"},
		{"api", "--jq", ".[", "{ user { id } }"},
		{"api", "-F", "novalue", "{ user { id } }"},
		{"api", "-F", "x={bad", "{ user { id } }"},
		{"api", "@/nonexistent.graphql"},
		{"api", "--paginate", "{ user { id } }"},
	} {
		code, _, errOut := runCLI(t, append(args, "--demo")...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		}
	}
}

// TestVerboseShowsEveryRequestButNoToken: --verbose prints one line per
// request on stderr, PARTNERTUI_DEBUG=api,body the operation with it, and
// neither ever the token that `token` prints.
func TestVerboseShowsEveryRequestButNoToken(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 150})
	code, tok, errOut := runCLI(t, "token", "--config", cfg)
	tok = strings.TrimSpace(tok)
	if code != ExitOK || tok == "" || strings.Contains(tok, "\n") {
		t.Fatalf("token: exit %d, %q (%s)", code, tok, errOut)
	}
	code, _, errOut = runCLI(t, "api", "--config", cfg, "--verbose", "--paginate", "--jq", ".data.accounts.edges | length", accountIDs)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "#1") || !strings.Contains(lines[0], "PartnertuiIntrospection 200") ||
		!strings.Contains(lines[2], "sandbox Ids 200") || !strings.Contains(lines[2], "budget 3/2000") {
		t.Errorf("--verbose wrote:\n%s\nwant the introspection and two pages, one line each", errOut)
	}
	homeOf(t).Vars[DebugEnv] = "api,body"
	code, _, errOut = runCLI(t, "api", "--config", cfg, "-F", "n=2", "query Two($n: Int!) { accounts(first: $n) { totalCount } }")
	if code != ExitOK || !strings.Contains(errOut, "Two 200") || !strings.Contains(errOut, "  query Two($n: Int!)") || !strings.Contains(errOut, `variables: {"n":2}`) {
		t.Errorf("PARTNERTUI_DEBUG=api,body: exit %d, stderr:\n%s", code, errOut)
	}
	if strings.Contains(errOut, tok) {
		t.Error("the request lines hold the access token")
	}
}

func TestAPIChecksTheTestingAPIAgainstItsOwnSchema(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	log := &syncBuffer{}
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 2, RequestLog: log})
	code, _, errOut := runCLI(t, "api", "--config", cfg, "--testing", "mutation Nope { accounts { id } }")
	if code != ExitUsage || !strings.Contains(errOut, `"accounts" on type "Mutation"`) {
		t.Errorf("exit %d, stderr %q; want the admin schema's refusal", code, errOut)
	}
	if n := count(emulatorOps(t, log), "Nope"); n != 0 {
		t.Errorf("the refused mutation was sent %d times", n)
	}
}

// TestPrintedCommandsHoldNoSecret: a secret an operation carries, in a
// variable's input object or as a literal of its text, is in no printed
// command: not in `--dry-run`'s curl command, not in the request lines of
// --verbose with PARTNERTUI_DEBUG=api,body; and both print the variables
// by the one rule (api.Request.Redacted), so they show the same.
func TestPrintedCommandsHoldNoSecret(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 1})
	const secret = "s3cr3t-dry-run-0123456789"
	const op = `mutation Add($i: AddWebhookSubscriptionInput!) { addWebhookSubscription(input: $i) { __typename } }`
	input := `i={"label":"dry","endpoint":"https://example.com/hook","secret":"` + secret + `","eventTypes":["Account.Updated"],"status":"Enabled"}`

	code, curl, errOut := runCLI(t, "api", "--config", cfg, "--dry-run", "-F", input, op)
	if code != ExitOK || !strings.HasPrefix(curl, "curl ") {
		t.Fatalf("--dry-run: exit %d, %q (%s)", code, curl, errOut)
	}
	if strings.Contains(curl+errOut, secret) || !strings.Contains(curl, `"secret":"[redacted]"`) {
		t.Errorf("--dry-run printed the secret, or no [redacted] in its place:\n%s", curl)
	}
	if !strings.Contains(errOut, "put it back") {
		t.Errorf("--dry-run's stderr %q does not say the secret was replaced", errOut)
	}
	literal := `mutation { addWebhookSubscription(input: {label: "dry", endpoint: "https://example.com/hook", secret: "` + secret + `", eventTypes: ["Account.Updated"], status: Enabled}) { __typename } }`
	if code, out, errOut := runCLI(t, "api", "--config", cfg, "--dry-run", literal); code != ExitOK || strings.Contains(out, secret) || !strings.Contains(out, `secret: \"[redacted]\"`) {
		t.Errorf("--dry-run of a literal secret: exit %d, %q (%s)", code, out, errOut)
	}

	homeOf(t).Vars[DebugEnv] = "api,body"
	code, _, errOut = runCLI(t, "api", "--config", cfg, "-F", input, op)
	if code != ExitOK || strings.Contains(errOut, secret) {
		t.Fatalf("--verbose: exit %d, and the secret must not be in:\n%s", code, errOut)
	}
	_, shown, ok := strings.Cut(errOut, "variables: ")
	if !ok {
		t.Fatalf("no variables in the request lines:\n%s", errOut)
	}
	shown, _, _ = strings.Cut(shown, "\n")
	var fromVerbose, fromCurl map[string]any
	if err := json.Unmarshal([]byte(shown), &fromVerbose); err != nil {
		t.Fatalf("--verbose's variables %q: %v", shown, err)
	}
	body := curl[strings.Index(curl, "--data-binary '")+len("--data-binary '") : strings.LastIndex(curl, "'")]
	var req struct {
		Variables map[string]any `json:"variables"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatalf("--dry-run's body %q: %v", body, err)
	}
	fromCurl = req.Variables
	if a, b := fmt.Sprint(fromVerbose), fmt.Sprint(fromCurl); a != b {
		t.Errorf("--verbose shows the variables as %s, --dry-run as %s: one rule must print both", a, b)
	}
}

// TestJQNeverWritesControlsToTheTerminal: the sanitiser's hostile payloads
// given to --jq, as its output (a string, a string in an object), as
// halt_error's message and as error(…)'s, reach neither stdout nor stderr
// as they are: what the program writes passes internal/safetext, its own
// error messages included.
func TestJQNeverWritesControlsToTheTerminal(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 1})
	const op = `query { projectInfo { id } }`
	payloads := []string{"x\u001b]0;t\u0007\u009b2J\u202ey"} // the issue's
	for _, s := range safetext.HostileSamples() {
		payloads = append(payloads, s.In)
	}
	for _, p := range payloads {
		lit, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "api", "--config", cfg, "--jq", string(lit)+", {a: "+string(lit)+"}", op)
		if code != ExitOK || strings.Count(out, "\n") != 2 {
			t.Errorf("--jq %s: exit %d, stdout %q, stderr %q", lit, code, out, errOut)
		}
		assertCleanLines(t, out)
		var obj map[string]string
		if _, second, _ := strings.Cut(strings.TrimSuffix(out, "\n"), "\n"); json.Unmarshal([]byte(second), &obj) != nil || obj["a"] != strings.ToValidUTF8(p, "\uFFFD") {
			t.Errorf("--jq {a: %s} wrote %q: the JSON must keep the value, escaped", lit, second)
		}
		for _, filter := range []string{string(lit) + " | halt_error", "error(" + string(lit) + ")"} {
			code, out, errOut := runCLI(t, "api", "--config", cfg, "--jq", filter, op)
			if code == ExitOK || !strings.Contains(errOut, "Error:") {
				t.Errorf("--jq %s: exit %d, stderr %q; want the error said", filter, code, errOut)
			}
			assertCleanLines(t, out+errOut)
		}
	}
}

// assertCleanLines fails t when a line of s holds what a terminal acts on.
func assertCleanLines(t *testing.T, s string) {
	t.Helper()
	for line := range strings.SplitSeq(s, "\n") {
		if r, dirty := safetext.Dirty(line); dirty {
			t.Errorf("%q reaches the terminal with %U", line, r)
		}
	}
}
