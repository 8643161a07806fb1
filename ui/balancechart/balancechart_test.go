package balancechart

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/apptest"
	"github.com/partnertui/partnertui/ui/balancechart/charttest"
)

// fixtureNow is the fixed "today" of the goldens.
var fixtureNow = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

// fixtureHistory folds a fixed set of bookings over the last days days:
// salaries in, card payments, transfers, direct debits and fees out.
func fixtureHistory(t testing.TB, days int, complete bool) ledger.History {
	t.Helper()
	period := ledger.LastDays(fixtureNow, days)
	var entries []ledger.Entry
	bal := decimal.RequireFromString("1000.00")
	add := func(at time.Time, amount, product string) {
		a := decimal.RequireFromString(amount)
		bal = bal.Add(a)
		entries = append(entries, ledger.Entry{ID: fmt.Sprintf("tx-%03d", len(entries)), BookingDate: at, UpdatedAt: at,
			Amount: a, Currency: "EUR", Product: product, BalanceAfter: bal, HasBalanceAfter: true, Sequence: len(entries) + 2})
	}
	start := fixtureNow.AddDate(0, 0, -400)
	for d := 0; d < 400; d++ {
		at := start.AddDate(0, 0, d).Add(9 * time.Hour)
		switch {
		case d%30 == 0:
			add(at, "2450.00", "SEPACreditTransfer")
		case d%7 == 3:
			add(at, "-"+fmt.Sprintf("%d.%02d", 20+d%60, d%100), "Card")
		case d%30 == 12:
			add(at, "-850.00", "SEPACreditTransfer")
		case d%30 == 20:
			add(at, "-64.99", "SEPADirectDebit")
		case d%30 == 27:
			add(at, "-9.90", "Fees")
		}
	}
	fold := ledger.NewFold(period, ledger.Balances{Currency: "EUR", Booked: bal, Pending: decimal.RequireFromString("-42.10"), Reserved: decimal.RequireFromString("25.00")})
	var before *ledger.Entry
	for i := range entries {
		if entries[i].BookingDate.Before(period.Start()) {
			before = &entries[i]
			continue
		}
		if err := fold.Add(entries[i]); err != nil {
			t.Fatal(err)
		}
		if !complete && i > len(entries)-10 {
			break
		}
	}
	fold.Before(before)
	if complete {
		fold.Done()
	}
	return fold.History()
}

// ascii is the view as a terminal without colour shows it (NO_COLOR).
func ascii(t testing.TB, s string) string {
	t.Helper()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.Ascii}
	if _, err := w.WriteString(s); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func colourful() Styles {
	s := PlainStyles()
	s.In = s.In.Foreground(lipgloss.Color("#1a7f37"))
	s.Out = s.Out.Foreground(lipgloss.Color("#c0001a"))
	s.Line = s.Line.Foreground(lipgloss.Color("#005f87"))
	return s
}

// TestGoldenCharts snapshots the chart's states at 80×24 and 120×40, as a
// terminal without colour shows them. Refresh with
// go test ./ui/balancechart -run TestGoldenCharts -update.
func TestGoldenCharts(t *testing.T) {
	t.Parallel()
	empty := func() ledger.History {
		f := ledger.NewFold(ledger.LastDays(fixtureNow, 30), ledger.Balances{Currency: "EUR"})
		f.Before(nil)
		f.Done()
		return f.History()
	}
	mismatch := func() ledger.History {
		h := fixtureHistory(t, 90, true)
		h.Mismatch = &ledger.Mismatch{Currency: "EUR", Day: fixtureNow.AddDate(0, 0, -12), Computed: decimal.RequireFromString("1200.00"),
			Reported: decimal.RequireFromString("1210.50"), ReportedBy: "tx-100"}
		return h
	}
	scenes := []struct {
		name string
		set  func(Model) Model
	}{
		{"waiting", func(m Model) Model { return m }},
		{"days30", func(m Model) Model { return m.SetHistory(fixtureHistory(t, 30, true), 1) }},
		{"days90", func(m Model) Model { return m.SetDays(90).SetHistory(fixtureHistory(t, 90, true), 2) }},
		{"days365", func(m Model) Model { return m.SetDays(365).SetHistory(fixtureHistory(t, 365, true), 3) }},
		{"partial", func(m Model) Model { return m.SetDays(90).SetHistory(fixtureHistory(t, 90, false), 1) }},
		{"empty", func(m Model) Model { return m.SetHistory(empty(), 1) }},
		{"mismatch", func(m Model) Model { return m.SetDays(90).SetHistory(mismatch(), 2) }},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				m := sc.set(New(colourful()).SetSize(sz[0], sz[1]))
				view := m.View()
				lines := strings.Split(view, "\n")
				if len(lines) != sz[1] {
					t.Fatalf("%d lines, want %d", len(lines), sz[1])
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > sz[0] {
						t.Errorf("line %d is %d cells wide, more than %d", i, w, sz[0])
					}
				}
				golden.RequireEqual(t, []byte(ascii(t, view)))
			})
		}
	}
}

// TestPeriodKeyAsksTheHost: p cycles 30 → 90 → 365 → 30, the chart then
// waits for that period (a late answer for the old one is ignored), and
// Update does nothing but return a message asking for it.
func TestPeriodKeyAsksTheHost(t *testing.T) {
	t.Parallel()
	m := New(PlainStyles()).SetSize(80, 24).SetHistory(fixtureHistory(t, 30, true), 1)
	for _, want := range []int{90, 365, 30} {
		var cmd tea.Cmd
		m, cmd = m.Update(tea.KeyPressMsg{Code: 'p', Text: "p"})
		if cmd == nil {
			t.Fatal("p returned no command")
		}
		if msg, ok := cmd().(PeriodMsg); !ok || msg.Days != want || m.Days() != want || m.History() != nil {
			t.Fatalf("after p: %#v, days %d, history %v; want %d days, waiting", cmd(), m.Days(), m.History() != nil, want)
		}
		if !strings.Contains(m.View(), "Reading the booked transactions of the last "+fmt.Sprint(want)+" days") {
			t.Errorf("the chart does not say it waits for %d days:\n%s", want, m.View())
		}
		if late := m.SetHistory(fixtureHistory(t, 7, true), 1); late.History() != nil {
			t.Error("a history of another period was taken")
		}
	}
}

// TestEveryPointAndBarIsWhatAnIndependentFoldGives: on an emulator
// account's generated history, and again after a simulated transfer and
// fee, each column of the drawn chart is the height (in eighths) that the
// balance of its day, folded here independently with math/big, gives on
// the axis of the independent lowest and highest balance; the axis labels
// are those balances; and every bar's amount is the independent total.
func TestEveryPointAndBarIsWhatAnIndependentFoldGives(t *testing.T) {
	t.Parallel()
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 20})
	c := apptest.Env(t, apptest.New(t, e, apptest.Options{Project: true}), config.Sandbox).API
	ctx := context.Background()
	page, err := c.Accounts(ctx, api.AccountsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var acct *api.Account
	for i := range page.Items {
		if a := &page.Items[i]; a.StatusInfo.Status == "Opened" && a.IBAN != "" && a.Balances != nil && a.Balances.Available.Currency == "EUR" {
			acct = a
			break
		}
	}
	if acct == nil {
		t.Fatal("no Opened EUR account with an IBAN")
	}
	const days, w, h = 90, 120, 40
	check := func(when string) {
		full, err := c.Account(ctx, acct.ID)
		if err != nil {
			t.Fatal(err)
		}
		bal, err := api.LedgerBalances(full)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		fold := ledger.NewFold(ledger.LastDays(now, days), bal)
		if err := c.ReadBooked(ctx, acct.ID, fold, nil); err != nil {
			t.Fatal(err)
		}
		fold.Done()
		m := New(colourful()).SetDays(days).SetSize(w, h).SetHistory(fold.History(), 1)
		var txs []api.TransactionDetail
		if err := api.Walk(ctx, api.Pages(c.TransactionList, api.TransactionsParams{AccountID: acct.ID}), func(p *api.Page[api.TransactionDetail]) error {
			txs = append(txs, p.Items...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		charttest.Check(t, when, m.View(), txs, ledger.LastDays(now, days), Columns)
	}
	check("generated history")
	if _, err := c.SimulateIncomingTransfer(ctx, api.IncomingTransfer{Amount: api.Amount{Value: "250000.00", Currency: "EUR"},
		CreditorIBAN: acct.IBAN, CreditorName: acct.Name, DebtorIBAN: "DE89370400440532013000", DebtorName: "Chart Test", Label: "chart test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.SimulateManualBankingFee.Run(ctx, c.Testing(), api.ManualBankingFeeInput{AccountID: acct.ID, Type: "DocumentIssuance",
		EffectiveDate: time.Now().UTC().Format(time.RFC3339), DueAmount: &api.Amount{Value: "12.34", Currency: "EUR"}}); err != nil {
		t.Fatal(err)
	}
	check("after a simulated transfer and fee")
}

// BenchmarkChartFrame: what a frame costs. View is what the screen asks
// for on every frame (the drawing is kept); Draw is a full redraw, done
// when the size or the data change.
//
//	go test ./ui/balancechart -run '^$' -bench ChartFrame
func BenchmarkChartFrame(b *testing.B) {
	for _, days := range []int{30, 90, 365} {
		hist := fixtureHistory(b, days, true)
		m := New(colourful()).SetDays(days).SetSize(120, 40).SetHistory(hist, 1)
		b.Run(fmt.Sprintf("View/days=%d", days), func(b *testing.B) {
			for b.Loop() {
				_ = m.View()
			}
		})
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			b.Run(fmt.Sprintf("Draw/days=%d/%dx%d", days, sz[0], sz[1]), func(b *testing.B) {
				for b.Loop() {
					_ = Draw(&hist, days, 1, sz[0], sz[1], colourful())
				}
			})
		}
	}
}

// TestShortChartPairsProducts: with too few lines for the products one to
// a line under a plot of three rows, the chart puts them two to a line,
// each with its exact amount, before it gives any up.
func TestShortChartPairsProducts(t *testing.T) {
	t.Parallel()
	hist := fixtureHistory(t, 90, true)
	if len(hist.OutBy) != 4 {
		t.Fatalf("the fixture goes out by %d products, want 4", len(hist.OutBy))
	}
	// Title, status, 3 rows, axis, dates, in, out, 2 lines of products,
	// pending and reserved.
	const w, h = 80, 12
	view := Draw(&hist, 90, 1, w, h, colourful())
	_, _, rows := charttest.DrawnEighths(t, view)
	if rows != 3 {
		t.Errorf("the plot has %d rows, want 3:\n%s", rows, ascii(t, view))
	}
	for i, l := range strings.Split(view, "\n") {
		if cw := ansi.StringWidth(l); cw > w {
			t.Errorf("line %d is %d cells wide", i, cw)
		}
	}
	bars := charttest.Bars(view)
	for _, pt := range hist.OutBy {
		if got, want := bars[ledger.ProductLabel(pt.Product)], ledger.FormatSigned(pt.Amount.Neg(), "EUR"); got != want {
			t.Errorf("%s shows %q, want %s:\n%s", ledger.ProductLabel(pt.Product), got, want, ascii(t, view))
		}
	}
	if bars["In"] != ledger.FormatSigned(hist.In, "EUR") || bars["Out"] != ledger.FormatSigned(hist.Out.Neg(), "EUR") {
		t.Errorf("in and out show %q and %q:\n%s", bars["In"], bars["Out"], ascii(t, view))
	}
}
