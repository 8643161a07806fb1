package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/ledger"
)

// TestEveryDemoAccountsExportAddsUp: the export of every account of the
// demo (its whole history, from the day it was created) checks itself and
// adds up, deferred debit cards' Settled payments included, and its
// camt.053 parsed back opens at zero and closes on the booked balance the
// platform reports.
func TestEveryDemoAccountsExportAddsUp(t *testing.T) {
	if testing.Short() {
		t.Skip("exports each of the demo's accounts")
	}
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: emulator.DefaultAccounts})
	c := projectClient(t, e)
	var accounts []api.Account
	if err := api.Walk(context.Background(), api.Pages(c.Accounts, api.AccountsParams{}), func(p *api.Page[api.Account]) error {
		accounts = append(accounts, p.Items...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(accounts) != emulator.DefaultAccounts {
		t.Fatalf("%d accounts, the demo has %d", len(accounts), emulator.DefaultAccounts)
	}
	exported, settled := 0, 0
	for _, listed := range accounts {
		a, err := c.Account(context.Background(), listed.ID)
		if err != nil {
			t.Fatal(err)
		}
		if a.Balances == nil || a.Balances.Booked.Value == "" {
			t.Fatalf("account %s shows no booked balance to the project token", a.ID)
		}
		for _, tx := range allTransactions(t, c, a.ID) {
			if tx.StatusInfo.Status == "Settled" {
				settled++
			}
		}
		from := a.CreatedAt.UTC().Format(time.DateOnly)
		code, out, errOut := runCLI(t, "export", "--account", a.ID, "--from", from, "--format", "camt053", "--config", cfg)
		if code != ExitOK {
			t.Errorf("account %s (%s) from %s: exit %d: %s", a.ID, a.Name, from, code, errOut)
			continue
		}
		st, err := ledger.ParseCamt053(strings.NewReader(out))
		if err != nil {
			t.Fatalf("account %s: %v", a.ID, err)
		}
		if err := st.Check(); err != nil {
			t.Errorf("account %s: the camt.053 does not add up: %v", a.ID, err)
		}
		if rat(t, st.Closing.String()).Cmp(rat(t, a.Balances.Booked.Value)) != 0 || !st.Opening.IsZero() {
			t.Errorf("account %s: the statement opens at %s and closes at %s; want 0 and the booked balance %s", a.ID, st.Opening, st.Closing, a.Balances.Booked.Value)
		}
		exported++
	}
	if settled == 0 {
		t.Error("no account of the demo has a Settled card payment: the deferred debit cards went untested")
	}
	t.Logf("%d exports add up (%d Settled card payments among them)", exported, settled)
}
