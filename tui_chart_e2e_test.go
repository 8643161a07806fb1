package main

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// TestTmuxChartRedrawsAfterASimulatedTransfer: the real binary under
// --demo draws an account's booked balance on its Overview; a transfer
// received from the Overview's simulations is booked by the demo's
// platform a few seconds later, and the chart redraws by itself, r never
// pressed: one booking more, and in over the period that much higher.
func TestTmuxChartRedrawsAfterASimulatedTransfer(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	var accounts []struct {
		ID         string `json:"id"`
		IBAN       string `json:"IBAN"`
		Currency   string `json:"currency"`
		StatusInfo struct {
			Status string `json:"status"`
		} `json:"statusInfo"`
	}
	demoJSON(t, tm, bin, &accounts, "accounts", "--json")
	id := ""
	for _, a := range accounts {
		if a.StatusInfo.Status == "Opened" && a.IBAN != "" && a.Currency == "EUR" {
			id = a.ID
			break
		}
	}
	if id == "" {
		t.Fatalf("none of the demo user's %d accounts is an Opened EUR account with an IBAN", len(accounts))
	}

	startDemoAt(tm, 120, 40, bin, "account "+id)
	tm.waitFor("the chart", "Booked balance · last 30 days", "; adds up with", "Pending")
	screen := tm.capture()
	bookings, in := chartFigures(t, screen)

	tm.keys("s")
	tm.waitFor("the transfer's form", "Simulate ▸ receive a transfer", "Amount:")
	tm.keys("321.09", "Enter")
	tm.waitFor("the transfer received", "Received 321.09 EUR")
	in.Add(in, big.NewRat(32109, 100))
	tm.waitFor("the chart redrawn with the transfer booked", fmt.Sprintf("✓ %d bookings;", bookings+1), "+"+in.FloatString(2)+" ")
	tm.keys("q")
	tm.waitExit()
}

// TestTmuxChartWalksOnFromTheAccountsRequest: the real binary against an
// emulator, on an account whose last 30 days' bookings are more than a
// page (a page of transfers received just before): from enter through
// every tab, the account's one request, which brought the chart's first
// page and the booking before the period, then the chart's pages after
// that page, and nothing else; the chart drawn complete.
func TestTmuxChartWalksOnFromTheAccountsRequest(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	emu := startEmulatorProcess(t, bin, 30, "1000000/1m")
	cfgPath := writeUserConfig(t, filepath.Join(tm.tmpdir, "config.toml"), emu, "")
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	env := cfg.Env(config.Sandbox)
	sess := signin.Session(t, emu.kit, env, tm.home.Locations.State)
	user, err := api.New(api.Options{Env: "sandbox", GraphQLURL: env.GraphQLURL(), TestingURL: env.TestingGraphQLURL(), TokenSource: sess.TokenSource()})
	if err != nil {
		t.Fatal(err)
	}
	defer user.Close()
	ctx := context.Background()
	page, err := user.Accounts(ctx, api.AccountsParams{First: 50, Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(page.Items, func(a api.Account) bool { return a.IBAN != "" && a.Currency == "EUR" })
	if i < 0 {
		t.Fatalf("none of %d opened accounts is a EUR account with an IBAN", len(page.Items))
	}
	acct := page.Items[i]
	for i := range platform.PageMax + 1 {
		if _, err := user.SimulateIncomingTransfer(ctx, api.IncomingTransfer{Amount: api.Amount{Value: fmt.Sprintf("%d.00", 1+i), Currency: "EUR"},
			CreditorIBAN: acct.IBAN, CreditorName: acct.Holder.Info.Name, DebtorIBAN: "DE89370400440532013000", DebtorName: "Debtor"}); err != nil {
			t.Fatalf("transfer %d: %v", i, err)
		}
	}
	booked := 0
	since := ledger.LastDays(time.Now(), 30).Start()
	if err := user.BookedSince(ctx, acct.ID, since, func(p *api.Page[api.TransactionDetail]) error { booked += len(p.Items); return nil }); err != nil {
		t.Fatal(err)
	}
	pages := (booked + platform.PageMax - 1) / platform.PageMax
	want := []string{api.OpAccountViewUser}
	for range pages - 1 {
		want = append(want, api.OpAccountTransactionList)
	}

	tm.start(120, 40, bin, "--config", cfgPath)
	tm.waitFor("account list", "Accounts", "row 1 of")
	_, seen := tm.requestsAfter(0, "row 1 of")
	tm.keys(":")
	tm.waitFor("palette", "accounts  transactions  members  cards")
	tm.keys("account "+acct.ID, "Enter")
	tm.waitFor("the account", "Your rights", "tab/1-8 to change")
	tm.waitFor("the balance chart", "Booked balance · last 30 days", "; adds up with")
	if n, _ := chartFigures(t, tm.capture()); n <= platform.PageMax {
		t.Fatalf("the chart has %d bookings, not the transfers received:\n%s", n, tm.capture())
	}
	for _, k := range []string{"2", "3", "4", "5", "6", "7", "8", "1"} {
		tm.keys(k)
	}
	title := "Accounts › " + acct.Name + "\n"
	tm.waitFor("the Overview again", title, "Your rights")
	ops, _ := tm.requestsAfter(seen, title)
	if !slices.Equal(ops, want) {
		t.Fatalf("from enter through every tab, %d bookings in 30 days: %q, want the account's one request and the chart's %d pages after its page: %q",
			booked, ops, pages-1, want)
	}
	tm.keys("q")
	tm.waitExit()
}

var (
	chartBookings = regexp.MustCompile(`✓ (\d+) bookings?;`)
	chartIn       = regexp.MustCompile(`(?m)^In +\+?([0-9]+\.[0-9]{2}) `)
)

// chartFigures reads the chart's bookings and its in over the period off
// the screen.
func chartFigures(t *testing.T, screen string) (int, *big.Rat) {
	t.Helper()
	b, in := chartBookings.FindStringSubmatch(screen), chartIn.FindStringSubmatch(screen)
	if b == nil || in == nil {
		t.Fatalf("no bookings or in on the chart:\n%s", screen)
	}
	n, _ := strconv.Atoi(b[1])
	v, ok := new(big.Rat).SetString(in[1])
	if !ok {
		t.Fatalf("in is %q", in[1])
	}
	return n, v
}
