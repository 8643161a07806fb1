package cli

import (
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// signedInUserEmulator starts an emulator of n accounts whose first demo
// user is signed in for the CLI, and returns its config and request log.
func signedInUserEmulator(t *testing.T, n int) (cfg string, log *testkit.RequestLog) {
	t.Helper()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "user", emulator.Options{Accounts: n})
	dir, err := homeOf(t).Locations.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	signin.Session(t, e, e.Env(t, config.Sandbox), dir)
	return cfg, e.Log
}

// TestFirstTransactionsOfAUserSendNoSpareRequest: `transactions --first 5`
// with a user token reads the user's accounts page by page, each only when
// the one before had no transaction, so it sends no request it drops, and
// every request it sends is answered 200.
func TestFirstTransactionsOfAUserSendNoSpareRequest(t *testing.T) {
	t.Parallel()
	cfg, log := signedInUserEmulator(t, 80000)
	before := len(log.Requests(t))
	code, out, errOut := runCLI(t, "transactions", "--first", "5", "--jsonl", "--config", cfg)
	if n := strings.Count(out, "\n"); code != ExitOK || n == 0 || n > 5 {
		t.Fatalf("exit %d, %d lines: %s", code, strings.Count(out, "\n"), errOut)
	}
	accounts := 0
	for _, r := range log.Requests(t)[before:] {
		if r.Status != 200 {
			t.Errorf("a request was answered %d: %s %s", r.Status, r.Operation, r.Variables)
		}
		if strings.Contains(r.Query, "accounts(") {
			accounts++
		}
	}
	if accounts != 1 {
		t.Errorf("%d accounts requests for the first page of transactions, want 1", accounts)
	}
}

// TestUserTransactionsAreOneListNewestFirst: with a user token,
// `transactions --all` is every account's transactions merged, newest
// execution first, each once, five accounts' pages per request.
func TestUserTransactionsAreOneListNewestFirst(t *testing.T) {
	t.Parallel()
	cfg, log := signedInUserEmulator(t, 120)
	before := len(log.Requests(t))
	code, out, errOut := runCLI(t, "transactions", "--all", "--status", "Booked", "--jsonl", "--config", cfg)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	seen := map[string]bool{}
	var last api.TransactionDetail
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, line := range lines {
		var tx api.TransactionDetail
		if err := json.Unmarshal([]byte(line), &tx); err != nil {
			t.Fatal(err)
		}
		if seen[tx.ID] {
			t.Fatalf("transaction %s listed twice", tx.ID)
		}
		seen[tx.ID] = true
		if i > 0 && tx.ExecutionDate.After(last.ExecutionDate) {
			t.Fatalf("line %d (%s) is newer than the line before (%s)", i+1, tx.ExecutionDate, last.ExecutionDate)
		}
		last = tx
	}
	pages, accounts := 0, 0
	for _, r := range log.Requests(t)[before:] {
		switch r.Operation {
		case api.OpAccountsTransactionPages:
			pages++
		case api.OpAccounts, api.OpAccountsTransactionHeads:
			accounts++
		default:
			t.Errorf("a %s request: the merged list asks for accounts and their pages only", r.Operation)
		}
	}
	t.Logf("%d transactions in %d requests for accounts and %d for their pages", len(lines), accounts, pages)
	if len(lines) < 100 || pages == 0 || pages > len(lines)/20 {
		t.Errorf("%d transactions in %d requests of pages", len(lines), pages)
	}
}

// TestMinAmountIgnoresTheSide: --min compares the amount without its sign,
// so a debit shown -125.60 passes --min 100 as a credit of +125.60 does;
// the help says so, and a negative bound, which would match everything,
// is a usage error that says why.
func TestMinAmountIgnoresTheSide(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{})
	code, out, errOut := runCLI(t, "transactions", "--min", "100", "--first", "100", "--json", "--config", cfg)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var txs []api.TransactionDetail
	if err := json.Unmarshal([]byte(out), &txs); err != nil {
		t.Fatal(err)
	}
	sides := map[string]bool{}
	for _, tx := range txs {
		v, err := strconv.ParseFloat(tx.Amount.Value, 64)
		if err != nil || v < 100 {
			t.Errorf("--min 100 let %s %s through", tx.Side, tx.Amount.Value)
		}
		sides[tx.Side] = true
	}
	if !sides["Debit"] || !sides["Credit"] {
		t.Errorf("--min 100 listed the sides %v, want debits and credits alike", sides)
	}
	code, out, errOut = runCLI(t, "transactions", "--min", "-100", "--config", cfg)
	if code != ExitUsage || out != "" || !strings.Contains(errOut, "without their sign") || !strings.Contains(errOut, "--min 100") {
		t.Errorf("--min -100: exit %d, stderr %q", code, errOut)
	}
	_, help, _ := runCLI(t, "transactions", "--help")
	if !strings.Contains(help, "without its sign") || strings.Contains(help, "above this amount") {
		t.Errorf("the help does not say what the sign of --min means:\n%s", help)
	}
}

// TestUntilHelpSaysItIncludesItsDay: every command with --until says in
// its --help that a date D includes the day D (issue 32, item 4), as
// TestUntilIncludesItsDay checks it does.
func TestUntilHelpSaysItIncludesItsDay(t *testing.T) {
	t.Parallel()
	f := &Factory{IO: IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}}
	var withUntil [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Flags().Lookup("until") != nil {
			withUntil = append(withUntil, path)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(slices.Clip(path), sub.Name()))
		}
	}
	walk(NewCmdRoot(f), nil)
	if !slices.ContainsFunc(withUntil, func(p []string) bool { return slices.Equal(p, []string{"transactions"}) }) {
		t.Fatalf("the commands with --until are %q, without transactions", withUntil)
	}
	for _, path := range withUntil {
		code, out, errOut := runCLI(t, append(path, "--help")...)
		if code != ExitOK {
			t.Fatalf("%s --help: exit %d: %s", strings.Join(path, " "), code, errOut)
		}
		line := ""
		for l := range strings.Lines(out) {
			if strings.HasPrefix(strings.TrimSpace(l), "--until ") {
				line = l
			}
		}
		if !strings.Contains(line, "a date includes that day") {
			t.Errorf("%s --help does not say --until D includes the day D: %q\n%s", strings.Join(path, " "), line, out)
		}
	}
}

// TestUntilIncludesItsDay: --since D --until D lists exactly the
// transactions executed on the day D, as the app's From and To do: the
// platform's isBeforeExecutionDate excludes its bound, so --until D sends
// the next midnight.
func TestUntilIncludesItsDay(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 3})
	dates := func(args ...string) []string {
		t.Helper()
		code, out, errOut := runCLI(t, append([]string{"transactions", "--config", cfg, "--all", "--ordered", "--jsonl"}, args...)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var got []string
		for line := range strings.Lines(out) {
			var tx struct {
				ExecutionDate string `json:"executionDate"`
			}
			if err := json.Unmarshal([]byte(line), &tx); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			got = append(got, tx.ExecutionDate)
		}
		return got
	}
	all := dates()
	if len(all) < 20 {
		t.Fatalf("only %d transactions", len(all))
	}
	day := all[len(all)/2][:len("2026-11-22")]
	want := 0
	for _, d := range all {
		if strings.HasPrefix(d, day) {
			want++
		}
	}
	got := dates("--since", day, "--until", day)
	if len(got) != want || want == 0 {
		t.Errorf("--since %s --until %s listed %d transactions, want the %d executed that day", day, day, len(got), want)
	}
	for _, d := range got {
		if !strings.HasPrefix(d, day) {
			t.Errorf("--since %s --until %s listed one executed %s", day, day, d)
		}
	}
}

// TestCrossAccountTableNamesTheAccount: the transactions table of several
// accounts (the project's, or a user's accounts merged) has an ACCOUNT
// column, each row naming its account, as the app's list does; one
// account's table has none.
func TestCrossAccountTableNamesTheAccount(t *testing.T) {
	t.Parallel()
	cfg, _ := signedInUserEmulator(t, 5)
	for _, args := range [][]string{{}, {"--project"}} {
		code, out, errOut := runCLI(t, append([]string{"transactions", "--config", cfg, "--first", "10"}, args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != ExitOK || len(lines) < 2 {
			t.Fatalf("%v: exit %d, %q (%s)", args, code, out, errOut)
		}
		header := strings.Fields(lines[0])
		if len(header) < 2 || header[len(header)-2] != "ACCOUNT" || header[len(header)-1] != "ID" {
			t.Errorf("%v: header %q, want ACCOUNT before the last column, ID", args, lines[0])
		}
		// The header is ASCII; a row's names may not be: count in runes
		// (each one cell wide here).
		at := strings.Index(lines[0], "ACCOUNT")
		for _, row := range lines[1:] {
			rest := string([]rune(row)[at:])
			if name := strings.TrimSpace(rest[:strings.LastIndex(rest, " ")]); name == "" || name == "-" {
				t.Errorf("%v: a row names no account: %q", args, row)
			}
		}
	}
	code, out, _ := runCLI(t, "accounts", "--config", cfg, "--jsonl", "--first", "1")
	var acc struct {
		ID string `json:"id"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &acc) != nil {
		t.Fatalf("accounts: exit %d, %q", code, out)
	}
	if code, out, errOut := runCLI(t, "transactions", "--config", cfg, "--account", acc.ID, "--first", "5"); code != ExitOK || strings.Contains(out, "ACCOUNT") {
		t.Errorf("one account's table: exit %d, %q (%s); want no ACCOUNT column", code, out, errOut)
	}
}
