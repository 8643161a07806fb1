package api

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/ledger"
)

// TestBalanceHistoryRequests counts the requests of a 90-day balance
// history of an account with 10,000 booked transactions, all booked within
// the period (the emulator books a simulated fee when it is simulated): the
// worst case, every page of the account read. It takes a minute to make the
// account, so it runs only when asked:
//
//	PARTNERTUI_LEDGER_BENCH=1 go test ./api -run TestBalanceHistoryRequests -v
func TestBalanceHistoryRequests(t *testing.T) {
	if os.Getenv("PARTNERTUI_LEDGER_BENCH") == "" {
		t.Skip("set PARTNERTUI_LEDGER_BENCH=1 to make a 10,000-transaction account and count the requests")
	}
	e := newSplitEmulator(t, 20)
	env := e.info.Environments["sandbox"]
	// A budget of its own: 10,000 simulations would wait out the
	// platform's 2,000 requests per 5 minutes.
	c := emulatorClient(t, e.info, "sandbox", projectTokenSource(t, e.info, "sandbox"), func(o *Options) {
		o.GraphQLURL = strings.Replace(env.GraphQLURL, e.info.APIURL, e.proxyURL, 1)
		o.TestingURL = strings.Replace(env.TestingGraphQLURL, e.info.APIURL, e.proxyURL, 1)
		o.Budget, o.Window = 1<<30, time.Hour
	})
	ctx := context.Background()
	page, err := c.Accounts(ctx, AccountsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var acct *Account
	for i := range page.Items {
		if a := &page.Items[i]; a.StatusInfo.Status == "Opened" && a.Balances != nil && a.Balances.Available.Currency == "EUR" {
			acct = a
			break
		}
	}
	start := time.Now()
	const n = 10_000
	for i := range n {
		if _, err := SimulateManualBankingFee.Run(ctx, c.Testing(), ManualBankingFeeInput{AccountID: acct.ID, Type: "DocumentIssuance",
			EffectiveDate: time.Now().UTC().Format(time.RFC3339), DueAmount: &Amount{Value: fmt.Sprintf("0.%02d", 1+i%99), Currency: "EUR"}}); err != nil {
			t.Fatalf("fee %d: %v", i, err)
		}
	}
	t.Logf("%d fees simulated in %v", n, time.Since(start))
	before := e.requests.Load()
	full, err := c.Account(ctx, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	bal, err := LedgerBalances(full)
	if err != nil {
		t.Fatal(err)
	}
	fold := ledger.NewFold(ledger.LastDays(time.Now(), 90), bal)
	start = time.Now()
	if err := c.ReadBooked(ctx, acct.ID, fold, nil); err != nil {
		t.Fatal(err)
	}
	fold.Done()
	h := fold.History()
	if h.Mismatch != nil || h.Bookings < n {
		t.Fatalf("%d bookings, mismatch %v", h.Bookings, h.Mismatch)
	}
	t.Logf("90-day history of %d bookings in the period: %d requests (1 account, %d pages of %d, 1 for the opening) in %v; %d balances checked",
		h.Bookings, e.requests.Load()-before, (h.Read+c.PageSize()-1)/c.PageSize(), c.PageSize(), time.Since(start), h.Checked)
}
