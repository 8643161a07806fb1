package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/iban"
)

// TestAccountsTableShowsTheID: the table has the id that account, members
// and statements take (their usage error sends people to this table).
func TestAccountsTableShowsTheID(t *testing.T) {
	t.Parallel()
	lines := strings.Split(strings.TrimRight(writeList(t, formatTable, accountColumns(), sampleAccounts()).String(), "\n"), "\n")
	if f := strings.Fields(lines[0]); f[len(f)-1] != "ID" {
		t.Errorf("header = %q, want an ID column", lines[0])
	}
	for i, a := range sampleAccounts() {
		if f := strings.Fields(lines[i+1]); f[len(f)-1] != a.ID {
			t.Errorf("row %q does not end with the account's id %s", lines[i+1], a.ID)
		}
	}
}

// emulatorAccounts runs accounts with args on a project token and decodes
// its --json output.
func emulatorAccounts(t *testing.T, cfg string, args ...string) []api.Account {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"accounts", "--json", "--config", cfg}, args...)...)
	if code != ExitOK {
		t.Fatalf("accounts %v: exit %d: %s", args, code, errOut)
	}
	var accounts []api.Account
	if err := json.Unmarshal([]byte(out), &accounts); err != nil {
		t.Fatalf("accounts %v: %v\n%s", args, err, out)
	}
	return accounts
}

// TestAccountsNewestFirstAsInTheApp: the command asks for the app's order
// (api.AccountsQuery, which both use): newest first, by creation.
func TestAccountsNewestFirstAsInTheApp(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{})
	if n := len(emulatorAccounts(t, cfg, "--first", "40")); n != 40 {
		t.Fatalf("%d accounts, want 40", n)
	}
	var sent []string
	for _, r := range e.Log.Requests(t) {
		if r.Operation == api.OpAccounts {
			var v struct {
				OrderBy map[string]string `json:"orderBy"`
			}
			_ = json.Unmarshal(r.Variables, &v)
			sent = append(sent, v.OrderBy["field"]+" "+v.OrderBy["direction"])
		}
	}
	if len(sent) != 1 || sent[0] != api.OrderCreatedAt+" "+api.DirectionDesc {
		t.Errorf("orderBy sent: %q, want one request ordered %s %s", sent, api.OrderCreatedAt, api.DirectionDesc)
	}
}

// TestAccountsSearchFindsAnIBAN: --search with an IBAN, spaced or compact,
// finds its account, as the app's search field does.
func TestAccountsSearchFindsAnIBAN(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{})
	var want api.Account
	for _, a := range emulatorAccounts(t, cfg, "--first", "50") {
		if a.IBAN != "" {
			want = a
			break
		}
	}
	if want.ID == "" {
		t.Fatal("no account with an IBAN among the first 50")
	}
	for _, search := range []string{iban.Format(want.IBAN), want.IBAN, " " + strings.ToLower(want.IBAN) + " "} {
		got := emulatorAccounts(t, cfg, "--search", search)
		if len(got) != 1 || got[0].ID != want.ID {
			t.Errorf("--search %q found %d accounts, want only %s", search, len(got), want.ID)
		}
	}
}

// TestAccountsSearchFindsAPartOfAnIBAN: --search with the start of an
// IBAN or its last digits, spaced or not, finds the accounts whose IBAN
// has it, as the app's search field does (issue 32, item 13): matched
// here, since the platform matches whole IBANs only, at a request per
// 100 accounts read.
func TestAccountsSearchFindsAPartOfAnIBAN(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{})
	all := emulatorAccounts(t, cfg, "--all", "--ordered")
	var want api.Account
	for _, a := range all[len(all)/2:] {
		if strings.HasPrefix(a.IBAN, "FR") {
			want = a
			break
		}
	}
	compact := iban.Compact(want.IBAN)
	last := compact[len(compact)-7:]
	start := iban.Format(compact)[:14]
	for _, tc := range []struct{ search, part string }{
		{last, last}, {last[:3] + " " + last[3:], last}, {start, compact[:12]}, {strings.ToLower(compact[:12]), compact[:12]},
	} {
		before := len(e.Log.Requests(t))
		got := emulatorAccounts(t, cfg, "--all", "--search", tc.search)
		var wantIDs []string
		for _, a := range all {
			if iban.HasPart(a.IBAN, tc.part) {
				wantIDs = append(wantIDs, a.ID)
			}
		}
		var gotIDs []string
		for _, a := range got {
			if iban.HasPart(a.IBAN, tc.part) {
				gotIDs = append(gotIDs, a.ID)
			}
		}
		if strings.Join(gotIDs, ",") != strings.Join(wantIDs, ",") || !strings.Contains(strings.Join(gotIDs, ","), want.ID) {
			t.Errorf("--search %q found %v, want %v", tc.search, gotIDs, wantIDs)
		}
		t.Logf("--search %q: %d of %d accounts in %d requests", tc.search, len(got), len(all), len(e.Log.Requests(t))-before)
	}
	// One page, as asked: no more than --first.
	if got := emulatorAccounts(t, cfg, "--search", start, "--first", "2"); len(got) != 2 {
		t.Errorf("--first 2 gave %d accounts", len(got))
	}
}
