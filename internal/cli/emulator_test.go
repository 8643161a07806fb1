package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/listen"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/apptest"
	"github.com/partnertui/partnertui/internal/testkit/signin"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
)

// startEmulator runs the kit's emulator for one test and writes a
// configuration for its Sandbox client (token "user" or "project") into
// home.
func startEmulator(t *testing.T, home, token string, opts emulator.Options) (*testkit.Emulator, string) {
	t.Helper()
	e := testkit.StartEmulator(t, opts)
	cfg := filepath.Join(home, "emulator.toml")
	e.WriteConfig(t, cfg, testkit.Config{Token: token})
	return e, cfg
}

// userClient is the Sandbox API client of an app built on the emulator as
// the binary builds it, signed in as the first Sandbox demo user.
func userClient(t *testing.T, e *testkit.Emulator) *api.Client {
	t.Helper()
	env := apptest.Env(t, apptest.New(t, e, apptest.Options{}), config.Sandbox)
	signin.AsDemoUser(t, e, env.Session, config.Sandbox)
	return env.API
}

// projectClient is the Sandbox API client of an app built on the emulator
// with --project.
func projectClient(t *testing.T, e *testkit.Emulator) *api.Client {
	t.Helper()
	return apptest.Env(t, apptest.New(t, e, apptest.Options{Project: true}), config.Sandbox).API
}

// TestListenBadInput: a malformed URL is a usage error; an unreachable
// receiver is reported per event and retried, never a crash; with no
// subscription and no --create, listen says how to make one.
func TestListenBadInput(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{})
	for _, bad := range []string{"localhost:8080", "ftp://x/y", "http://"} {
		code, _, errOut := runCLI(t, "listen", "--config", cfg, "--forward-to", bad)
		if code != ExitUsage || !strings.Contains(errOut, "--forward-to") {
			t.Errorf("--forward-to %q: exit %d, %q", bad, code, errOut)
		}
	}
	code, _, errOut := runCLI(t, "listen", "--config", cfg, "--forward-to", "http://127.0.0.1:1/x")
	if code != ExitFailure || !strings.Contains(errOut, "no webhook subscription") || !strings.Contains(errOut, "--create") {
		t.Errorf("no subscription: exit %d, %q", code, errOut)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestListenLatency measures, with listen's default interval, the time
// from a simulated transfer to the local receiver's POST of its first
// event, over 20 transfers. Run it with:
//
//	PARTNERTUI_LISTEN_LATENCY=1 go test -run TestListenLatency -v ./internal/cli
func TestListenLatency(t *testing.T) {
	// Not parallel: a measurement, which other tests' load would distort.
	if os.Getenv("PARTNERTUI_LISTEN_LATENCY") == "" {
		t.Skip("measurement: set PARTNERTUI_LISTEN_LATENCY=1 to run it")
	}
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{})
	rec, url := webhooktest.NewReceiver(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	go func() {
		Run(ctx, process(t, IO{In: strings.NewReader(""), Out: io.Discard, Err: pw}),
			[]string{"listen", "--config", cfg, "--create", "--type", "Transaction.Pending", "--forward-to", url})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "Ready:") {
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	user := userClient(t, e)
	accounts, err := user.Accounts(ctx, api.AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	var acc api.Account
	for _, a := range accounts.Items {
		if a.IBAN != "" {
			acc = a
			break
		}
	}
	var lat []time.Duration
	for range 20 {
		// Transfers come at any moment of listen's polling cycle.
		time.Sleep(rand.N(listen.DefaultInterval))
		start := time.Now()
		if _, err := user.SimulateIncomingTransfer(ctx, api.IncomingTransfer{Amount: api.Amount{Value: "1.00", Currency: acc.Currency},
			CreditorIBAN: acc.IBAN, CreditorName: "x", DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "y"}); err != nil {
			t.Fatal(err)
		}
		<-rec.Got()
		lat = append(lat, time.Since(start))
	}
	s := append([]time.Duration(nil), lat...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	t.Logf("simulated transfer → local POST under listen (interval %s): median %v, min %v, max %v over %d transfers",
		listen.DefaultInterval, s[len(s)/2], s[0], s[len(s)-1], len(s))
}

// TestAccountCommandsOnTheEmulator runs the commands that explore an
// account, with a project token, through the whole stack.
func TestAccountCommandsOnTheEmulator(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{})
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, append(args, "--config", cfg)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	var accounts []map[string]any
	if err := json.Unmarshal([]byte(run("accounts", "--first", "50", "--json")), &accounts); err != nil {
		t.Fatal(err)
	}
	var open, limited string
	for _, a := range accounts {
		id := fmt.Sprint(a["id"])
		if _, has := a["IBAN"]; !has && limited == "" {
			limited = id
		}
		if st, _ := a["statusInfo"].(map[string]any); st["status"] == "Opened" && open == "" {
			if _, has := a["IBAN"]; has {
				open = id
			}
		}
	}
	if open == "" || limited == "" {
		t.Fatalf("the emulator's first accounts lack an open or a limited one: %v", accounts)
	}

	if out := run("account", limited); !strings.Contains(out, "IBAN           hidden: the account's payment level is Limited") {
		t.Errorf("a limited account's IBAN line does not say why it is hidden:\n%s", out)
	}
	var members []api.AccountMembership
	if err := json.Unmarshal([]byte(run("members", open, "--json")), &members); err != nil || len(members) == 0 {
		t.Fatalf("members: %v %v", members, err)
	}
	if table := run("members", open); !strings.Contains(table, "RIGHTS") || !strings.Contains(table, "V") {
		t.Errorf("members table:\n%s", table)
	}
	if out := run("cards", "--account", open, "--jsonl"); out != "" {
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var c api.Card
			if err := json.Unmarshal([]byte(l), &c); err != nil || c.CardMaskedNumber == "" {
				t.Errorf("card line %q: %v", l, err)
			}
		}
	}
	if out := run("statements", open, "--jsonl"); strings.Count(out, "\n") == 0 || !strings.Contains(out, `"openingBalance"`) {
		t.Errorf("statements:\n%s", out)
	}

	since := time.Now().AddDate(-1, 0, 0).UTC().Truncate(24 * time.Hour)
	var txs []api.TransactionDetail
	if err := json.Unmarshal([]byte(run("transactions", "--status", "Booked", "--min", "100", "--since", since.Format(time.DateOnly), "--first", "30", "--json")), &txs); err != nil {
		t.Fatal(err)
	}
	if len(txs) == 0 {
		t.Fatal("no booked transaction above 100 in the last year")
	}
	for _, tx := range txs {
		v, _ := strconv.ParseFloat(tx.Amount.Value, 64)
		if tx.StatusInfo.Status != "Booked" || v <= 100 || tx.ExecutionDate.Before(since) {
			t.Errorf("the filters let %s through: %s %s %s", tx.ID, tx.StatusInfo.Status, tx.Amount.Value, tx.ExecutionDate)
		}
	}
	if out := run("transaction", txs[0].ID); !strings.Contains(out, "Counterparty") || !strings.Contains(out, txs[0].ID) {
		t.Errorf("transaction detail:\n%s", out)
	}
	var log []api.WebhookEventLog
	if err := json.Unmarshal([]byte(run("events", "--json")), &log); err != nil {
		t.Errorf("events --json is not one array: %v", err)
	}
}

// TestStatusExitCodes: status checks the session end to end and exits 0
// only when it works, 4 when a sign-in is needed, 1 for anything else; it
// works with --project.
func TestStatusExitCodes(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "user", emulator.Options{})
	code, out, errOut := runCLI(t, "status", "--config", cfg)
	if code != ExitSignIn || !strings.Contains(out, "Signed in:    no") || !strings.Contains(errOut, "partnertui login --env sandbox") {
		t.Errorf("not signed in: exit %d\n%s%s", code, out, errOut)
	}
	// A rejected client secret: not a sign-in problem. (Checked before a
	// valid project token is stored, which the next command would reuse.)
	bad := filepath.Join(home, "bad.toml")
	e.WriteConfig(t, bad, testkit.Config{Secret: "wrong"})
	code, _, errOut = runCLI(t, "status", "--config", bad, "--project")
	if code != ExitFailure || !strings.Contains(errOut, "invalid_client") {
		t.Errorf("wrong secret: exit %d: %s", code, errOut)
	}
	// Without --env, --json is an array of every configured environment's
	// report (here Sandbox alone).
	code, out, errOut = runCLI(t, "status", "--config", cfg, "--project", "--json")
	var reps []statusReport
	if err := json.Unmarshal([]byte(out), &reps); code != ExitOK || err != nil || len(reps) != 1 || !reps[0].Works || reps[0].Token != "project" || reps[0].Project == nil {
		t.Errorf("--project: exit %d, %+v, %v: %s", code, reps, err, errOut)
	}
	// The API cannot be reached.
	down := filepath.Join(home, "down.toml")
	e.WriteConfig(t, down, testkit.Config{APIURL: "http://127.0.0.1:1"})
	code, out, errOut = runCLI(t, "status", "--config", down, "--project")
	if code != ExitFailure || !strings.Contains(out, "Works:        no") || !strings.Contains(errOut, "could not reach") {
		t.Errorf("unreachable API: exit %d\n%s%s", code, out, errOut)
	}
}

// TestEmulatorSchemaFlags: --coverage counts a brought schema's
// operations by how they are answered (a field the model types otherwise
// is named and generated); a file that is no schema, or fixtures naming an
// unknown type, is a usage error that says the file and line.
func TestEmulatorSchemaFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	schema := filepath.Join(dir, "partner.graphql")
	if err := os.WriteFile(schema, []byte("type Query { projectInfo: ProjectInfo! accounts: Int }\ntype ProjectInfo { id: ID! name: String! }\ntype Mutation { closeAccount(accountId: ID!): Boolean }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "emulator", "--schema", schema, "--coverage")
	for _, want := range []string{"partner API (" + schema + "): 3 operations, 1 modelled, 2 generated, 0 missing", "| accounts | 0 | 2 | 0 |", "Query.accounts: the schema's type is Int", "Testing API (the model's own)"} {
		if code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("--coverage: exit %d, stdout lacks %q:\n%s\nstderr: %s", code, want, out, errOut)
		}
	}
	code, out, _ = runCLI(t, "emulator", "--schema", schema, "--coverage", "--json")
	var rep emulator.CoverageReport
	if err := json.Unmarshal([]byte(out), &rep); code != ExitOK || err != nil || len(rep.APIs) != 2 || rep.APIs[0].Total.Generated != 2 {
		t.Errorf("--coverage --json: exit %d, %v: %s", code, err, out)
	}
	notSchema := filepath.Join(dir, "notes.txt")
	fixtures := filepath.Join(dir, "fixtures.toml")
	if err := os.WriteFile(notSchema, []byte("remember the milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fixtures, []byte("\n[Nope.x]\nname = \"y\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--schema", notSchema}, notSchema + ":1:1: Unexpected Name"},
		{[]string{"--schema", schema, "--fixtures", fixtures}, fixtures + ":2: unknown type Nope"},
		{[]string{"--fixtures", fixtures}, "give the schemas too"},
		{[]string{"--schema", filepath.Join(dir, "absent.graphql")}, "absent.graphql"},
	} {
		code, out, errOut := runCLI(t, append([]string{"emulator", "--listen", "127.0.0.1:0"}, c.args...)...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errOut, ExitUsage, c.want)
		}
	}
}
