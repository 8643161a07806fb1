// Package charttest checks a drawn balance chart against an independent
// fold of the account's transactions: the chart's own tests and those of
// the screens that embed it read the picture back, character by character,
// and compare it with what math/big makes of the platform's transactions,
// using nothing of internal/ledger's arithmetic. For tests only.
package charttest

import (
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/ledger"
)

// Fold is the account's Booked transactions added up forwards from zero,
// independently of the ledger: the balance at the end of each day of the
// period, in and out over it, and out by payment product.
type Fold struct {
	Closes  []*big.Rat
	In, Out *big.Rat
	OutBy   map[string]*big.Rat
}

// NewFold folds txs (every transaction of the account, any status) over
// period.
func NewFold(txs []api.TransactionDetail, period ledger.Period) Fold {
	days := period.Days()
	f := Fold{Closes: make([]*big.Rat, days), In: new(big.Rat), Out: new(big.Rat), OutBy: map[string]*big.Rat{}}
	for d := range days {
		end := period.First.AddDate(0, 0, d+1)
		f.Closes[d] = new(big.Rat)
		for _, tx := range txs {
			if tx.StatusInfo.Status != "Booked" || !tx.StatusInfo.BookingDate.Before(end) {
				continue
			}
			f.Closes[d].Add(f.Closes[d], signed(tx))
		}
	}
	for _, tx := range txs {
		if b := tx.StatusInfo.BookingDate; tx.StatusInfo.Status != "Booked" || b.Before(period.Start()) || !b.Before(period.End()) {
			continue
		}
		v, _ := new(big.Rat).SetString(tx.Amount.Value)
		if tx.Side == "Debit" {
			f.Out.Add(f.Out, v)
			if f.OutBy[tx.PaymentProduct] == nil {
				f.OutBy[tx.PaymentProduct] = new(big.Rat)
			}
			f.OutBy[tx.PaymentProduct].Add(f.OutBy[tx.PaymentProduct], v)
		} else {
			f.In.Add(f.In, v)
		}
	}
	return f
}

func signed(tx api.TransactionDetail) *big.Rat {
	v, _ := new(big.Rat).SetString(tx.Amount.Value)
	if tx.Side == "Debit" {
		v.Neg(v)
	}
	return v
}

// Check fails t unless view, a chart drawn over period, is what txs give:
// each column of the plot as high (in eighths of a cell) as the balance
// of its day on the axis of the independent lowest and highest balance,
// the axis labelled with those balances, and every bar (in, out, out by
// product) the independent total. columns maps the plot's columns to the
// days (balancechart.Columns). when names the moment in the errors.
func Check(t testing.TB, when, view string, txs []api.TransactionDetail, period ledger.Period, columns func(days, width int) []int) {
	t.Helper()
	f := NewFold(txs, period)
	lo, hi := f.Closes[0], f.Closes[0]
	for _, v := range f.Closes {
		if v.Cmp(lo) < 0 {
			lo = v
		}
		if v.Cmp(hi) > 0 {
			hi = v
		}
	}
	heights, labels, rows := DrawnEighths(t, view)
	if len(labels) == 0 || labels[0] != hi.FloatString(2) || labels[len(labels)-1] != lo.FloatString(2) {
		t.Errorf("%s: axis labels %v, the independent highest %s and lowest %s", when, labels, hi.FloatString(2), lo.FloatString(2))
	}
	levels := int64(rows * 8)
	for j, d := range columns(period.Days(), len(heights)) {
		want := levels / 2
		if span := new(big.Rat).Sub(hi, lo); span.Sign() != 0 {
			// 1 + round((v − lo)·(levels − 1)/span), half up, in exact rationals.
			x := new(big.Rat).Mul(new(big.Rat).Sub(f.Closes[d], lo), big.NewRat(levels-1, 1))
			x.Quo(x, span)
			x.Add(x, big.NewRat(1, 2))
			want = 1 + new(big.Int).Quo(x.Num(), x.Denom()).Int64()
		}
		if int64(heights[j]) != want {
			t.Errorf("%s: column %d (day %s, balance %s) is %d eighths high, the independent fold gives %d", when, j,
				period.First.AddDate(0, 0, d).Format(time.DateOnly), f.Closes[d].FloatString(2), heights[j], want)
		}
	}
	bars := Bars(view)
	want := map[string]*big.Rat{"In": f.In, "Out": new(big.Rat).Neg(f.Out)}
	for p, v := range f.OutBy {
		want[ledger.ProductLabel(p)] = new(big.Rat).Neg(v)
	}
	for label, v := range want {
		got, ok := bars[label]
		if g, _ := new(big.Rat).SetString(strings.TrimPrefix(got, "+")); !ok || g == nil || g.Cmp(v) != 0 {
			t.Errorf("%s: bar %q shows %q, the independent fold %s (bars %v)", when, label, got, v.FloatString(2), bars)
		}
	}
}

// DrawnEighths reads the plot back from the view: for each column, the
// height of its area in eighths of a cell; the axis labels, top first;
// and the plot's rows.
func DrawnEighths(t testing.TB, view string) (heights []int, labels []string, rows int) {
	t.Helper()
	eighths := map[rune]int{' ': 0, '▁': 1, '▂': 2, '▃': 3, '▄': 4, '▅': 5, '▆': 6, '▇': 7, '█': 8}
	var cells [][]rune
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
		cells = append(cells, r[at:])
	}
	if len(cells) == 0 {
		t.Fatalf("no plot in the view:\n%s", view)
	}
	heights = make([]int, len(cells[0]))
	for r := len(cells) - 1; r >= 0; r-- {
		for j, c := range cells[r] {
			e, ok := eighths[c]
			if !ok {
				t.Fatalf("unexpected %q in the plot", c)
			}
			heights[j] += e
		}
	}
	return heights, labels, len(cells)
}

// barText is a bar's label and amount: words, then a signed decimal.
var barText = regexp.MustCompile(`([A-Z][a-z]*(?: [a-z]+)*) +([+-]?[0-9]+(?:\.[0-9]+)?)(?: |$)`)

// Bars are the amounts the view's bars show, by label ("In", "Out",
// "Card"…), one or two to a line.
func Bars(view string) map[string]string {
	bars := map[string]string{}
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.ContainsAny(l, "┤│└") || !strings.ContainsAny(l, "█▏▎▍▌▋▊▉") && !strings.HasSuffix(strings.TrimSpace(l), "0.00") {
			continue
		}
		for _, m := range barText.FindAllStringSubmatch(l, -1) {
			bars[m[1]] = m[2]
		}
	}
	return bars
}
