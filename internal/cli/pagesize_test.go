package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// pageSizesAsked is the page size each GraphQL request of reqs asked for:
// its first, and each part's (first0…) in a request for several pages.
func pageSizesAsked(t *testing.T, reqs []testkit.Request) []int {
	t.Helper()
	var sizes []int
	for _, r := range reqs {
		if !strings.HasSuffix(r.Endpoint, "/graphql") {
			continue
		}
		var vars map[string]any
		if err := json.Unmarshal(r.Variables, &vars); err != nil {
			t.Fatalf("%s: variables %s: %v", r.Operation, r.Variables, err)
		}
		for k, v := range vars {
			if n, ok := v.(float64); ok && strings.HasPrefix(k, "first") {
				sizes = append(sizes, int(n))
			}
		}
	}
	return sizes
}

// TestPageSizeIsEveryListsPage: the configuration's page_size is the page
// every list command asks for, whether it reads one page, every page in
// order, or every item in parts; --first sets another for one command.
func TestPageSizeIsEveryListsPage(t *testing.T) {
	t.Parallel()
	const size = 7
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 20})
	cfg := filepath.Join(homeOf(t).Dir, "paged.toml")
	e.WriteConfig(t, cfg, testkit.Config{Token: "project", PageSize: size})

	// run runs a list command and returns its output and the page sizes
	// its requests asked for; ops are their operations.
	var ops []string
	run := func(args ...string) (string, []int) {
		t.Helper()
		before := len(e.Log.Requests(t))
		code, out, errOut := runCLI(t, append(args, "--config", cfg)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		reqs := e.Log.Requests(t)[before:]
		ops = ops[:0]
		for _, r := range reqs {
			if r.Operation != "" {
				ops = append(ops, r.Operation)
			}
		}
		sizes := pageSizesAsked(t, reqs)
		if len(sizes) == 0 {
			t.Fatalf("%v sent no request for a page", args)
		}
		return out, sizes
	}
	every := func(args []string, sizes []int, want int) {
		t.Helper()
		for _, n := range sizes {
			if n != want {
				t.Errorf("%v asked for pages of %v, want %d each", args, sizes, want)
				return
			}
		}
	}

	ordered := []string{"accounts", "--all", "--jsonl", "--ordered"}
	out, sizes := run(ordered...)
	every(ordered, sizes, size)
	var first string
	if n := strings.Count(out, "\n"); n != 20 || len(sizes) != 3 {
		t.Errorf("%v: %d accounts in %d requests, want 20 in 3", ordered, n, len(sizes))
	} else {
		var a struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &a); err != nil || a.ID == "" {
			t.Fatalf("first line %q: %v", out, err)
		}
		first = a.ID
	}
	for _, c := range []struct {
		args []string
		op   string // how api read it
	}{
		{[]string{"accounts", "--all", "--jsonl"}, api.OpAccountPages}, // in parts, from both ends
		{[]string{"transactions", "--all", "--jsonl"}, api.OpProjectTransactionPages},
		{[]string{"transactions", "--all", "--jsonl", "--ordered"}, api.OpProjectTransactions},
		{[]string{"transactions", "--account", first, "--json"}, api.OpAccountTransactionList},
		{[]string{"members", first, "--json"}, api.OpAccountMembers},
		{[]string{"cards", "--json"}, api.OpCards},
		{[]string{"statements", first, "--json"}, api.OpStatements},
		{[]string{"events", "--json"}, api.OpWebhookEventLogs},
		{[]string{"subscriptions", "--json"}, api.OpWebhookSubscriptions},
		{[]string{"virtual-ibans", "--account", first, "--json"}, api.OpVirtualIbans},
		{[]string{"standing-orders", "--account", first, "--json"}, api.OpStandingOrders},
		{[]string{"beneficiaries", "--account", first, "--json"}, api.OpBeneficiaries},
		{[]string{"account-holders", "--all", "--json"}, api.OpAccountHolders},
		{[]string{"onboardings", "--json"}, api.OpOnboardings},
		{[]string{"capital-deposits", "--json"}, api.OpCapitalDeposits},
		{[]string{"merchant-profiles", "--all", "--json"}, api.OpMerchantProfiles},
	} {
		_, sizes := run(c.args...)
		every(c.args, sizes, size)
		if !slices.Contains(ops, c.op) {
			t.Errorf("%v sent %v, not %s", c.args, ops, c.op)
		}
	}

	// A merchant profile's payment links, the profile the first that has
	// some.
	profiles, _ := run("merchant-profiles", "--all", "--json")
	var ps []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(profiles), &ps); err != nil || len(ps) == 0 {
		t.Fatalf("merchant-profiles --all --json: %d profiles (%v)", len(ps), err)
	}
	linked := false
	for _, p := range ps {
		out, sizes := run("payment-links", p.ID, "--json")
		every([]string{"payment-links", p.ID}, sizes, size)
		if !slices.Contains(ops, api.OpPaymentLinks) {
			t.Errorf("payment-links sent %v, not %s", ops, api.OpPaymentLinks)
		}
		if linked = strings.TrimSpace(out) != "[]"; linked {
			break
		}
	}
	if !linked {
		t.Error("no merchant profile has a payment link to list")
	}

	// --first is the page of one command.
	out, sizes = run("accounts", "--first", "3", "--json")
	var three []json.RawMessage
	if err := json.Unmarshal([]byte(out), &three); err != nil || len(three) != 3 {
		t.Errorf("accounts --first 3 printed %d accounts (%v)", len(three), err)
	}
	every([]string{"accounts", "--first", "3"}, sizes, 3)
}

// TestPageSizeIsTheMergedListsPage: with a user token, the transactions of
// every account merged into one list come page_size at a time.
func TestPageSizeIsTheMergedListsPage(t *testing.T) {
	t.Parallel()
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 40})
	cfg := filepath.Join(homeOf(t).Dir, "paged.toml")
	e.WriteConfig(t, cfg, testkit.Config{PageSize: 4})
	dir, err := homeOf(t).Locations.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	signin.Session(t, e, e.Env(t, config.Sandbox), dir)
	code, out, errOut := runCLI(t, "transactions", "--jsonl", "--config", cfg)
	if n := strings.Count(out, "\n"); code != ExitOK || n != 4 {
		t.Fatalf("the first page of the merged list: exit %d, %d transactions, want 4: %s", code, n, errOut)
	}
	code, out, errOut = runCLI(t, "transactions", "--jsonl", "--first", "9", "--config", cfg)
	if n := strings.Count(out, "\n"); code != ExitOK || n != 9 {
		t.Fatalf("--first 9: exit %d, %d transactions, want 9: %s", code, n, errOut)
	}
}
