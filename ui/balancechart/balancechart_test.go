package balancechart

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
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

// drawnEighths reads the plot back from the view: for each column, the
// height of its area in eighths of a cell.
func drawnEighths(t *testing.T, view string) (heights []int, labels []string) {
	t.Helper()
	eighths := map[rune]int{' ': 0, '▁': 1, '▂': 2, '▃': 3, '▄': 4, '▅': 5, '▆': 6, '▇': 7, '█': 8}
	var rows [][]rune
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		r := []rune(l)
		i := strings.IndexAny(l, "┤│")
		if i < 0 || strings.Contains(l, "└") {
			continue
		}
		at := len([]rune(l[:i])) + 1
		if strings.Contains(l, "┤") {
			labels = append(labels, strings.TrimSpace(string(r[:at-1])))
		}
		rows = append(rows, r[at:])
	}
	if len(rows) == 0 {
		t.Fatalf("no plot in the view:\n%s", view)
	}
	heights = make([]int, len(rows[0]))
	for r := len(rows) - 1; r >= 0; r-- {
		for j, c := range rows[r] {
			e, ok := eighths[c]
			if !ok {
				t.Fatalf("unexpected %q in the plot", c)
			}
			heights[j] += e
		}
	}
	return heights, labels
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
		view := m.View()

		// The independent fold: every Booked transaction, forwards from zero.
		var txs []api.TransactionDetail
		if err := api.Walk(ctx, api.Pages(c.TransactionList, api.TransactionsParams{AccountID: acct.ID}), func(p *api.Page[api.TransactionDetail]) error {
			txs = append(txs, p.Items...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		period := ledger.LastDays(now, days)
		closes := make([]*big.Rat, days)
		in, out := new(big.Rat), new(big.Rat)
		outBy := map[string]*big.Rat{}
		for d := range days {
			end := period.First.AddDate(0, 0, d+1)
			closes[d] = new(big.Rat)
			for _, tx := range txs {
				if tx.StatusInfo.Status != "Booked" || !tx.StatusInfo.BookingDate.Before(end) {
					continue
				}
				v, _ := new(big.Rat).SetString(tx.Amount.Value)
				if tx.Side == "Debit" {
					v.Neg(v)
				}
				closes[d].Add(closes[d], v)
			}
		}
		for _, tx := range txs {
			if b := tx.StatusInfo.BookingDate; tx.StatusInfo.Status != "Booked" || b.Before(period.Start()) || !b.Before(period.End()) {
				continue
			}
			v, _ := new(big.Rat).SetString(tx.Amount.Value)
			if tx.Side == "Debit" {
				out.Add(out, v)
				if outBy[tx.PaymentProduct] == nil {
					outBy[tx.PaymentProduct] = new(big.Rat)
				}
				outBy[tx.PaymentProduct].Add(outBy[tx.PaymentProduct], v)
			} else {
				in.Add(in, v)
			}
		}
		lo, hi := closes[0], closes[0]
		for _, v := range closes {
			if v.Cmp(lo) < 0 {
				lo = v
			}
			if v.Cmp(hi) > 0 {
				hi = v
			}
		}
		heights, labels := drawnEighths(t, view)
		rows := 0
		for _, l := range strings.Split(ansi.Strip(view), "\n") {
			if strings.ContainsAny(l, "┤│") && !strings.Contains(l, "└") {
				rows++
			}
		}
		if len(labels) < 2 || labels[0] != new(big.Rat).Set(hi).FloatString(2) || labels[len(labels)-1] != lo.FloatString(2) {
			t.Errorf("%s: axis labels %v, the independent highest %s and lowest %s", when, labels, hi.FloatString(2), lo.FloatString(2))
		}
		cols := Columns(days, len(heights))
		levels := int64(rows * 8)
		for j, d := range cols {
			want := int64(levels / 2)
			if span := new(big.Rat).Sub(hi, lo); span.Sign() != 0 {
				// 1 + round((v − lo)·(levels − 1)/span), half up, in exact rationals.
				x := new(big.Rat).Mul(new(big.Rat).Sub(closes[d], lo), big.NewRat(levels-1, 1))
				x.Quo(x, span)
				x.Add(x, big.NewRat(1, 2))
				want = 1 + new(big.Int).Quo(x.Num(), x.Denom()).Int64()
			}
			if int64(heights[j]) != want {
				t.Errorf("%s: column %d (day %s, balance %s) is %d eighths high, the independent fold gives %d", when, j,
					period.First.AddDate(0, 0, d).Format(time.DateOnly), closes[d].FloatString(2), heights[j], want)
			}
		}
		bars := map[string]string{}
		for _, l := range strings.Split(ansi.Strip(view), "\n") {
			f := strings.Fields(strings.TrimRight(l, " █▏▎▍▌▋▊▉"))
			if len(f) < 2 || strings.ContainsAny(l, "┤│└") || strings.HasPrefix(l, "Pending") {
				continue
			}
			if _, isAmount := new(big.Rat).SetString(strings.TrimPrefix(f[len(f)-1], "+")); isAmount {
				bars[strings.Join(f[:len(f)-1], " ")] = f[len(f)-1]
			}
		}
		want := map[string]*big.Rat{"In": in, "Out": new(big.Rat).Neg(out)}
		for p, v := range outBy {
			want[ledger.ProductLabel(p)] = new(big.Rat).Neg(v)
		}
		for label, v := range want {
			got, ok := bars[label]
			if g, _ := new(big.Rat).SetString(strings.TrimPrefix(got, "+")); !ok || g == nil || g.Cmp(v) != 0 {
				t.Errorf("%s: bar %q shows %q, the independent fold %s (bars %v)", when, label, got, v.FloatString(2), bars)
			}
		}
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
