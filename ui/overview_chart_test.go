package ui

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/internal/platform"
	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
	"github.com/partnertui/partnertui/ui/balancechart"
	"github.com/partnertui/partnertui/ui/balancechart/charttest"
)

// bookedYear is a year of an account's bookings up to testNow, each with
// the balance after it (salaries in; card payments, transfers, direct
// debits and fees out), newest first, and the booked balance they leave.
func bookedYear(accountID string) ([]api.TransactionDetail, string) {
	var out []api.TransactionDetail
	var bal int64 // cents
	start := testNow.AddDate(0, 0, -365)
	add := func(at time.Time, cents int64, product, typ, label string) {
		side := "Credit"
		if cents < 0 {
			side = "Debit"
		}
		bal += cents
		n := len(out) + 1
		amount := fmt.Sprintf("%d.%02d", abs(cents)/100, abs(cents)%100)
		after := fmt.Sprintf("%s%d.%02d", map[bool]string{true: "-"}[bal < 0], abs(bal)/100, abs(bal)%100)
		out = append(out, api.TransactionDetail{ID: fmt.Sprintf("tx-%s-%03d", accountID, n), Side: side, Type: typ,
			Amount: api.Amount{Value: amount, Currency: "EUR"}, Label: label, Counterparty: label, PaymentProduct: product,
			Reference: fmt.Sprintf("REF-%03d", n), ExecutionDate: at, CreatedAt: at, UpdatedAt: at,
			StatusInfo: api.TransactionStatusInfo{Status: "Booked", BookingDate: at, ValueDate: at,
				BalanceAfter: &api.BookedBalanceAfter{Amount: &api.Amount{Value: after, Currency: "EUR"}, SequenceNumber: n}},
			Account: &api.AccountRef{ID: accountID, Name: "Account " + strings.TrimPrefix(accountID, "acc-")}})
	}
	for d := range 365 {
		at := start.AddDate(0, 0, d+1).Add(-14 * time.Hour)
		switch {
		case d%30 == 0:
			add(at, 245000, "SEPACreditTransfer", "SepaCreditTransferIn", "Salary")
		case d%7 == 3:
			add(at, -int64(2000+(d%60)*100+d%100), "Card", "CardOutDebit", "Café du Marché")
		case d%30 == 12:
			add(at, -85000, "SEPACreditTransfer", "SepaCreditTransferOut", "Rent")
		case d%30 == 20:
			add(at, -6499, "SEPADirectDebit", "SepaDirectDebitOut", "Energie SA")
		case d%30 == 27:
			add(at, -990, "Fees", "FeesOut", "Fees")
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, fmt.Sprintf("%d.%02d", bal/100, bal%100)
}

func abs(c int64) int64 {
	if c < 0 {
		return -c
	}
	return c
}

// withBookedYear gives acc-0 a year of bookings and the balance they
// leave.
func withBookedYear(d *driver) {
	txs, bal := bookedYear("acc-0")
	d.sbx.txs["acc-0"] = txs
	d.sbx.accounts[0].Balances.Available = api.Amount{Value: bal, Currency: "EUR"}
}

// TestGoldenOverviewChart snapshots the Overview with its balance chart at
// 80×24 and 120×40 without colour (NO_COLOR): the last 30, 90 and 365
// days, pages still coming, a new account's empty chart, and the chart
// kept from an earlier visit while it is read again. Refresh with
// go test ./ui -run TestGoldenOverviewChart -update.
func TestGoldenOverviewChart(t *testing.T) {
	t.Parallel()
	scenes := []struct {
		name  string
		setup func(*driver)
		// show brings the scene about; nil: open the account.
		show func(*driver)
	}{
		{"days30", withBookedYear, nil},
		{"days90", withBookedYear, func(d *driver) { d.press("enter", "p") }},
		{"days365", withBookedYear, func(d *driver) { d.press("enter", "p", "p") }},
		{"partial", withBookedYear, func(d *driver) {
			d.press("enter")
			// The key starts the 365 days' read; its first page, the
			// newest 40 bookings, comes before the rest.
			d.update(keyMsg("p"))
			d.update(keyMsg("p"))
			ch := d.overview().chart
			bal, err := api.LedgerBalances(&d.overview().acct)
			if err != nil {
				t.Fatal(err)
			}
			fold := ledger.NewFold(ledger.LastDays(testNow, 365), bal)
			for i := range 40 {
				e, err := api.BookedEntry(&d.sbx.txs["acc-0"][i])
				if err != nil {
					t.Fatal(err)
				}
				if err := fold.Add(e); err != nil {
					t.Fatal(err)
				}
			}
			// Taken, not run: the rest of the read never comes.
			d.update(chartPageMsg{envTag: envTag{d.m.env.Name}, id: ch.id, hist: fold.History(), pages: 1})
		}},
		{"empty", func(d *driver) {
			d.sbx.accounts[0].Balances.Available = api.Amount{Value: "0.00", Currency: "EUR"}
		}, nil},
		{"kept", withBookedYear, func(d *driver) {
			clk := testclock.New(testNow)
			d.m.c.now = clk.Now
			d.press("enter", "esc")
			clk.Advance(40 * time.Second)
			// Shown at once, before the account and its chart are read
			// again.
			d.update(d.update(keyMsg("enter"))())
		}},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1]}, sc.setup)
				if sc.show == nil {
					d.press("enter")
				} else {
					sc.show(d)
				}
				view := asciiView(t, d)
				for i, l := range strings.Split(view, "\n") {
					if w := ansi.StringWidth(l); w > sz[0] {
						t.Errorf("line %d is %d cells wide, more than %d", i, w, sz[0])
					}
				}
				if !strings.Contains(d.screen(), "Booked balance · last ") {
					t.Errorf("no chart on the Overview:\n%s", d.screen())
				}
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// The chart of the fake's year adds up: every balance it reports checks,
// and the in and out are the bookings'.
func TestOverviewChartAddsUp(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, withBookedYear)
	d.press("enter")
	for _, days := range []int{30, 90, 365} {
		h := d.overview().chart.model.History()
		if h == nil || !h.Complete || h.Mismatch != nil || h.Period.Days() != days || h.Checked == 0 {
			t.Fatalf("%d days: history %+v", days, h)
		}
		in, out := decimal.Zero, decimal.Zero
		first := ledger.LastDays(testNow, days).Start()
		for _, tx := range d.sbx.txs["acc-0"] {
			if tx.StatusInfo.BookingDate.Before(first) {
				continue
			}
			v := decimal.RequireFromString(tx.Amount.Value)
			if tx.Side == "Debit" {
				out = out.Add(v)
			} else {
				in = in.Add(v)
			}
		}
		if !h.In.Equal(in) || !h.Out.Equal(out) {
			t.Errorf("%d days: in %s out %s, the bookings' %s and %s", days, h.In, h.Out, in, out)
		}
		d.wantScreen("✓ ")
		d.press("p")
	}
}

// TestEmulatorOverviewChartFollowsASimulatedTransfer: on the emulator, the
// Overview's chart is what an independent fold of the account's
// transactions gives, each column and bar; a transfer received from the
// Overview's simulations is then in it, the chart read again by itself
// after the account, and again equal to the fold. p costs the 90 days'
// pages of bookings and the booking before them, nothing more; a revisit
// shows the kept chart at once, before any request.
func TestEmulatorOverviewChartFollowsASimulatedTransfer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	at, acct := e.openedEURAccount(t)
	e.run(e.accounts().list.SetCursor(at))
	e.press("enter")
	check := func(when string, days int) {
		t.Helper()
		ch := e.overview().chart
		h := ch.model.History()
		if h == nil || !h.Complete || h.Mismatch != nil || h.Period.Days() != days {
			t.Fatalf("%s: the chart's history %+v", when, h)
		}
		screen := e.screen() // draws the Overview, the chart in the room it has
		view := ch.model.View()
		if view == "" || !strings.Contains(screen, "Booked balance · last "+fmt.Sprint(days)+" days") {
			t.Fatalf("%s: no chart on the Overview:\n%s", when, screen)
		}
		for _, l := range strings.Split(ansi.Strip(view), "\n") {
			e.wantScreen(strings.TrimRight(l, " "))
		}
		txs := every(t, api.Pages(e.client.TransactionList, api.TransactionsParams{AccountID: acct.ID}))
		charttest.Check(t, when, view, txs, h.Period, balancechart.Columns)
	}
	check("opened", 30)
	in := e.overview().chart.model.History().In

	ops := e.opCount()
	e.press("s")
	e.typeText("123.45")
	e.press("enter")
	e.wantScreen("Received 123.45 EUR")
	check("after a simulated transfer", 30)
	if got := e.overview().chart.model.History().In; !got.Equal(in.Add(decimal.RequireFromString("123.45"))) {
		t.Errorf("in over the period is %s after the transfer, %s before it", got, in)
	}
	if got := e.opsSince(ops); !slices.Contains(got, api.OpAccountTransactionList) {
		t.Errorf("the chart was not read again after the transfer: %q", got)
	}

	// The simulation forgot the account kept: open it afresh, so that it
	// is kept again.
	e.press("esc", "enter")
	check("opened again", 30)

	// p: the 90 days' bookings, a page a hundred, and the one before them.
	period := ledger.LastDays(time.Now(), 90)
	booked := every(t, api.Pages(e.client.TransactionList, api.TransactionsParams{AccountID: acct.ID, Status: []string{"Booked"}, IsAfterUpdatedAt: period.Start()}))
	pages := max(1, (len(booked)+platform.PageMax-1)/platform.PageMax)
	ops = e.opCount()
	e.press("p")
	got := e.opsSince(ops)
	if len(got) != pages+1 || slices.ContainsFunc(got, func(op string) bool { return op != api.OpAccountTransactionList }) {
		t.Errorf("90 days of %d bookings sent %q, want %d pages and the booking before them", len(booked), got, pages)
	}
	check("90 days", 90)

	// Back and in again: the kept chart at once, then read again.
	e.press("esc")
	ops = e.opCount()
	revalidate := e.update(e.update(keyMsg("enter"))())
	if got := e.opsSince(ops); len(got) != 0 {
		t.Fatalf("the revisit sent %q before showing the account", got)
	}
	if h := e.overview().chart.model.History(); h == nil || !h.Complete || h.Period.Days() != 90 {
		t.Fatalf("the revisit does not show the kept 90 days at once: %+v", h)
	}
	e.wantScreen("refreshing")
	e.run(revalidate)
	check("revisited", 90)
	if strings.Contains(e.screen(), "refreshing") {
		t.Errorf("still refreshing once read again:\n%s", e.screen())
	}
}

// p before the account has come changes the period only: the chart is
// read once the account brings the balance it starts from.
func TestOverviewPeriodBeforeTheAccount(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 3, signedIn: true}, withBookedYear)
	open := d.update(d.update(keyMsg("enter"))()) // the account's request, not sent yet
	d.run(d.update(keyMsg("p")))
	ch := d.overview().chart
	if n := d.sbx.chartReads(); n != 0 || ch.hidden != "" || ch.model.Days() != 90 {
		t.Fatalf("p before the account: %d chart reads, hidden %q, %d days", n, ch.hidden, ch.model.Days())
	}
	d.run(open)
	if h := ch.model.History(); h == nil || !h.Complete || h.Period.Days() != 90 || h.Mismatch != nil {
		t.Fatalf("once the account came: %+v", h)
	}
}

// The chart's first page of bookings and the booking before the period
// come with the account's one request; when the period's bookings do not
// fit that page, the chart reads the pages after it, of the same size,
// and never the booking before the period again; it is then the chart
// its own read draws. Another period (p) is read as before: its pages
// and the booking before them.
func TestOverviewChartWalksOnFromTheAccountsRequest(t *testing.T) {
	t.Parallel()
	const size = 3
	d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, func(d *driver) {
		withBookedYear(d)
		d.sbx.pageSize = size
	})
	since := ledger.LastDays(testNow, 30).Start()
	booked := 0
	for _, tx := range d.sbx.txs["acc-0"] {
		if !tx.UpdatedAt.Before(since) {
			booked++
		}
	}
	pages := (booked + size - 1) / size
	if pages < 2 {
		t.Fatalf("%d bookings in 30 days: one page of %d", booked, size)
	}
	before := d.sbx.requests()
	d.press("enter")
	if n, chart := d.sbx.requests()-before, d.sbx.chartReads(); n != pages || chart != pages-1 || d.sbx.viewCalls != 1 || d.sbx.chartProbes() != 0 {
		t.Fatalf("%d bookings in pages of %d: %d requests, %d of them the chart's, %d probes; want the account's and the %d pages after its page",
			booked, size, n, chart, d.sbx.chartProbes(), pages-1)
	}
	d.sbx.mu.Lock()
	for _, p := range d.sbx.txParams {
		if p.After == "" || p.First != size || !p.IsAfterUpdatedAt.Equal(since) {
			t.Errorf("a chart's read after the account's is not a page after the first: %+v", p)
		}
	}
	d.sbx.mu.Unlock()
	h := d.overview().chart.model.History()
	if h == nil || !h.Complete || h.Mismatch != nil || h.Period.Days() != 30 {
		t.Fatalf("the chart walked on from the account's request: %+v", h)
	}
	bal, err := api.LedgerBalances(&d.overview().acct)
	if err != nil {
		t.Fatal(err)
	}
	fold := ledger.NewFold(h.Period, bal)
	if err := api.ReadBooked(context.Background(), d.sbx, "acc-0", fold, nil); err != nil {
		t.Fatal(err)
	}
	fold.Done()
	if alone := fold.History(); !reflect.DeepEqual(*h, alone) {
		t.Errorf("the chart from the account's request:\n%+v\nread alone:\n%+v", *h, alone)
	}

	reads, probes := d.sbx.chartReads(), d.sbx.chartProbes()
	d.press("p")
	if n, p := d.sbx.chartReads()-reads, d.sbx.chartProbes()-probes; n < 2 || p != 1 {
		t.Errorf("90 days: %d reads, %d probes, want its pages and the booking before them", n, p)
	}
	if h := d.overview().chart.model.History(); h == nil || !h.Complete || h.Mismatch != nil || h.Period.Days() != 90 {
		t.Fatalf("90 days: %+v", h)
	}
}

// openedEURAccount is the list's first Opened EUR account with an IBAN
// and balances, and its row: the account the charts' emulator tests draw.
func (e *emu) openedEURAccount(t *testing.T) (int, api.Account) {
	t.Helper()
	rows := walkList(e.driver, e.accounts().list)
	at := slices.IndexFunc(rows, func(a api.Account) bool {
		return a.StatusInfo.Status == "Opened" && a.IBAN != "" && a.Currency == "EUR" && a.Balances != nil
	})
	if at < 0 {
		t.Fatal("no Opened EUR account with an IBAN")
	}
	return at, rows[at]
}
