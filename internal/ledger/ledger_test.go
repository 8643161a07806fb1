package ledger

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

var day0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// book makes n bookings of alternating credits and debits from balance 0,
// one every 12 hours from start, each with its balance after.
func book(n int, start time.Time) ([]Entry, decimal.Decimal) {
	var out []Entry
	bal := decimal.Zero
	for i := range n {
		a := decimal.New(int64(1000+i*7), -2)
		if i%3 == 2 {
			a = a.Neg()
		}
		bal = bal.Add(a)
		at := start.Add(time.Duration(i) * 12 * time.Hour)
		out = append(out, Entry{ID: fmt.Sprintf("tx%06d", i), BookingDate: at, UpdatedAt: at, Amount: a, Currency: "EUR",
			Product: "Card", Label: "=SUM(A1)", Reference: "R" + fmt.Sprint(i), BalanceAfter: bal, HasBalanceAfter: true, Sequence: i + 1, Status: "Booked"})
	}
	return out, bal
}

func TestParseAmountIsExactAndStrict(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "1e3", "1,50", "+1", "1.", ".5", " 1", "0x10", "--1"} {
		if _, err := ParseAmount(bad); err == nil {
			t.Errorf("ParseAmount(%q) took it", bad)
		}
	}
	a, _ := ParseAmount("0.1")
	b, _ := ParseAmount("0.2")
	if got := Format(a.Add(b), "EUR"); got != "0.30" {
		t.Errorf("0.1 + 0.2 = %s", got)
	}
	c, _ := ParseAmount("12.345")
	if Format(c, "EUR") != "12.345" || Format(decimal.New(5, 0), "JPY") != "5" || Format(decimal.New(5, 0), "KWD") != "5.000" {
		t.Errorf("Format rounds or pads wrongly: %s", Format(c, "EUR"))
	}
}

// TestFoldChecksEveryBalance: a complete set of bookings adds up; one
// missing, one changed, or an opening that the last booking before the
// period contradicts, is a Mismatch that names the difference.
func TestFoldChecksEveryBalance(t *testing.T) {
	t.Parallel()
	entries, bal := book(40, day0.AddDate(0, 0, -5))
	period := Period{First: day0, Last: day0.AddDate(0, 0, 14)}
	fold := func(es []Entry, before *Entry) History {
		f := NewFold(period, Balances{Currency: "EUR", Booked: bal})
		for _, e := range es {
			if e.BookingDate.Before(period.Start()) {
				continue
			}
			if err := f.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		f.Before(before)
		f.Done()
		return f.History()
	}
	var before *Entry
	for i := range entries {
		if entries[i].BookingDate.Before(period.Start()) {
			before = &entries[i]
		}
	}
	h := fold(entries, before)
	if h.Mismatch != nil || !h.Opening.Equal(before.BalanceAfter) || !h.Closing.Equal(bal) || h.Checked < 10 {
		t.Fatalf("complete: mismatch %v, opening %s (want %s), closing %s, %d checked", h.Mismatch, h.Opening, before.BalanceAfter, h.Closing, h.Checked)
	}
	missing := append(append([]Entry{}, entries[:25]...), entries[26:]...)
	if h := fold(missing, before); h.Mismatch == nil || !h.Mismatch.Gap().Equal(entries[25].Amount) {
		t.Errorf("a missing booking of %s: mismatch %v", entries[25].Amount, h.Mismatch)
	}
	changed := append([]Entry{}, entries...)
	changed[30].Amount = changed[30].Amount.Add(decimal.New(1, -2))
	if h := fold(changed, before); h.Mismatch == nil || !h.Mismatch.Gap().Equal(decimal.New(-1, -2)) {
		t.Errorf("a booking changed by 0.01: mismatch %v", h.Mismatch)
	}
	wrongOpening := *before
	wrongOpening.BalanceAfter = wrongOpening.BalanceAfter.Add(decimal.New(5, 0))
	if h := fold(entries, &wrongOpening); h.Mismatch == nil || !h.Mismatch.Opening || !strings.Contains(h.Mismatch.Error(), "-5.00 EUR apart") {
		t.Errorf("an opening 5.00 off: %v", h.Mismatch)
	}
	if h := fold(entries, nil); h.Mismatch == nil || !h.Mismatch.Opening {
		t.Errorf("no booking before, yet a non-zero opening: %v", h.Mismatch)
	}
}

// TestStatementWritesInBookingOrder: entries added newest first come out
// oldest first, their running balances the platform's, in CSV (read back,
// the formula guard taken off) and camt.053 (read back, adding up).
func TestStatementWritesInBookingOrder(t *testing.T) {
	t.Parallel()
	entries, bal := book(30, day0)
	period := Period{First: day0, Last: day0.AddDate(0, 0, 20)}
	st, err := NewStatement(Account{ID: "acc", IBAN: "FR7630006000011234567890189", Currency: "EUR", Name: "A & B <x>"}, period,
		Balances{Currency: "EUR", Booked: bal}, day0.AddDate(0, 0, 21), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := len(entries) - 1; i >= 0; i-- {
		if err := st.Add(entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	st.Before(nil)
	if _, err := st.Finish(); err != nil {
		t.Fatal(err)
	}
	var csvOut, xmlOut bytes.Buffer
	if err := st.WriteCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	rows, err := ParseCSV(&csvOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(entries) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if r.ID != entries[i].ID || !r.Amount.Equal(entries[i].Amount) || !r.RunningBalance.Equal(entries[i].BalanceAfter) || r.Label != "=SUM(A1)" {
			t.Errorf("row %d = %+v, want %s %s after %s", i, r, entries[i].ID, entries[i].Amount, entries[i].BalanceAfter)
		}
	}
	if err := st.WriteCamt053(&xmlOut); err != nil {
		t.Fatal(err)
	}
	c, err := ParseCamt053(&xmlOut)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil || len(c.Ntries) != len(entries) || c.Name != "A & B <x>" || !c.Closing.Equal(bal) {
		t.Errorf("camt.053: %v, %d entries, name %q, closing %s", err, len(c.Ntries), c.Name, c.Closing)
	}
}

// TestCSVGuardsFormulas: a text field a spreadsheet would run is written
// after a quote.
func TestCSVGuardsFormulas(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w, _ := NewCSVWriter(&b)
	e := Entry{ID: "x", Counterparty: "@evil", Label: `He said "hi", twice`, Amount: decimal.New(-5, 0), Currency: "EUR"}
	_ = w.Row(&e, day0, "")
	_ = w.Flush()
	if !strings.Contains(b.String(), `'@evil,"He said ""hi"", twice"`) || !strings.Contains(b.String(), "\r\n") {
		t.Errorf("CSV: %q", b.String())
	}
}

// BenchmarkStatement folds and writes a camt.053 statement of 10,000 and
// 100,000 bookings, handed over in pages of 100 newest first as the
// platform gives them (each page made when it is handed over, as if it
// came from the wire), and reports the live heap at its highest, sampled
// every 10,000 bookings and after writing: the spool keeps 32 bytes per
// booking in memory and the bookings on disk.
//
//	go test ./internal/ledger -run '^$' -bench Statement -benchtime 1x
func BenchmarkStatement(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("bookings=%d", n), func(b *testing.B) {
			start := day0.AddDate(-1, 0, 0)
			amount := func(i int) int64 {
				if i%3 == 2 {
					return -int64(1000 + i%500)
				}
				return int64(1000 + i%700)
			}
			after := make([]int64, n) // cents: 8 bytes a booking, the test's own
			var total int64
			for i := range n {
				total += amount(i)
				after[i] = total
			}
			entry := func(i int) Entry {
				at := start.Add(time.Duration(i) * 5 * time.Minute)
				return Entry{ID: fmt.Sprintf("bosci_%032d", i), BookingDate: at, ValueDate: at, UpdatedAt: at, Amount: decimal.New(amount(i), -2),
					Currency: "EUR", Product: "Card", Type: "CardOutDebit", Label: "Card payment", Counterparty: "A merchant",
					Reference: fmt.Sprintf("E2E%013d", i), BalanceAfter: decimal.New(after[i], -2), HasBalanceAfter: true, Sequence: i + 1, Status: "Booked"}
			}
			period := Period{First: Day(start), Last: Day(start.Add(time.Duration(n-1) * 5 * time.Minute))}
			var peak uint64
			sample := func() {
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
			page := make([]Entry, 0, 100)
			for b.Loop() {
				peak = 0
				st, err := NewStatement(Account{ID: "acc", Currency: "EUR"}, period, Balances{Currency: "EUR", Booked: decimal.New(total, -2)}, time.Now(), b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				for i := n; i > 0; i -= 100 {
					page = page[:0]
					for k := i - 1; k >= max(0, i-100); k-- {
						page = append(page, entry(k))
					}
					if err := st.Add(page...); err != nil {
						b.Fatal(err)
					}
					if i%10_000 == 0 {
						sample()
					}
				}
				st.Before(nil)
				if _, err := st.Finish(); err != nil {
					b.Fatal(err)
				}
				if err := st.WriteCamt053(io.Discard); err != nil {
					b.Fatal(err)
				}
				sample()
				_ = st.Close()
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-live-MB")
		})
	}
}
