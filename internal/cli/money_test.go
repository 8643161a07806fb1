package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/internal/testkit"
)

// rat reads an exact decimal for the independent folds below, which use
// math/big and nothing of the ledger.
func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("not a decimal: %q", s)
	}
	return r
}

// allTransactions is every transaction of the account, each page read.
func allTransactions(t *testing.T, c *api.Client, accountID string) []api.TransactionDetail {
	t.Helper()
	var out []api.TransactionDetail
	err := api.Walk(context.Background(), api.Pages(c.TransactionList, api.TransactionsParams{AccountID: accountID}), func(p *api.Page[api.TransactionDetail]) error {
		out = append(out, p.Items...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// addingUpAccount is an Opened account with an IBAN and bookings in the
// last 90 days (every demo account's history adds up:
// TestEveryDemoAccountsExportAddsUp).
func addingUpAccount(t *testing.T, c *api.Client) api.Account {
	t.Helper()
	page, err := c.Accounts(context.Background(), api.AccountsParams{})
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now().AddDate(0, 0, -90)
	for _, a := range page.Items {
		if a.StatusInfo.Status != "Opened" || a.IBAN == "" {
			continue
		}
		recent := 0
		for _, tx := range allTransactions(t, c, a.ID) {
			if tx.StatusInfo.Status == "Booked" && tx.StatusInfo.BookingDate.After(since) {
				recent++
			}
		}
		if recent >= 5 {
			return a
		}
	}
	t.Fatal("no Opened account with recent bookings")
	return api.Account{}
}

// independentDay is one day of the independent fold.
type independentDay struct {
	close, in, out *big.Rat
	bookings       int
}

// independentFold adds the account's Booked transactions up forwards from
// zero (the account's first booking), day by day over the last days days:
// nothing of the ledger, nor the balance now.
func independentFold(t *testing.T, txs []api.TransactionDetail, days int, now time.Time) (out []independentDay, in, outTotal *big.Rat, outBy map[string]*big.Rat) {
	t.Helper()
	y, m, d := now.UTC().Date()
	first := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(days - 1))
	in, outTotal, outBy = new(big.Rat), new(big.Rat), map[string]*big.Rat{}
	for i := range days {
		start, end := first.AddDate(0, 0, i), first.AddDate(0, 0, i+1)
		day := independentDay{close: new(big.Rat), in: new(big.Rat), out: new(big.Rat)}
		for _, tx := range txs {
			if tx.StatusInfo.Status != "Booked" {
				continue
			}
			v := rat(t, tx.Amount.Value)
			b := tx.StatusInfo.BookingDate
			if b.Before(end) {
				if tx.Side == "Debit" {
					day.close.Sub(day.close, v)
				} else {
					day.close.Add(day.close, v)
				}
			}
			if b.Before(start) || !b.Before(end) {
				continue
			}
			day.bookings++
			if tx.Side == "Debit" {
				day.out.Add(day.out, v)
				if outBy[tx.PaymentProduct] == nil {
					outBy[tx.PaymentProduct] = new(big.Rat)
				}
				outBy[tx.PaymentProduct].Add(outBy[tx.PaymentProduct], v)
			} else {
				day.in.Add(day.in, v)
			}
		}
		in.Add(in, day.in)
		outTotal.Add(outTotal, day.out)
		out = append(out, day)
	}
	return out, in, outTotal, outBy
}

// TestBalanceHistoryEqualsAnIndependentFold: every day's balance, in and
// out, the totals and the out by product that balance-history prints (as
// JSON and as CSV) equal a fold of the account's transactions done here
// forwards from zero, on the generated history and again after a
// simulated incoming transfer and a fee.
func TestBalanceHistoryEqualsAnIndependentFold(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 30})
	c := projectClient(t, e)
	acct := addingUpAccount(t, c)
	const days = 90
	check := func(when string) {
		t.Helper()
		code, out, errOut := runCLI(t, "balance-history", "--account", acct.ID, "--days", "90", "--json", "--config", cfg)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", when, code, errOut)
		}
		var got historyOut
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", when, err, out)
		}
		want, in, outTotal, outBy := independentFold(t, allTransactions(t, c, acct.ID), days, time.Now())
		if len(got.Days) != days {
			t.Fatalf("%s: %d days, want %d", when, len(got.Days), days)
		}
		for i, d := range got.Days {
			w := want[i]
			if rat(t, d.Balance).Cmp(w.close) != 0 || rat(t, d.In).Cmp(w.in) != 0 || rat(t, d.Out).Cmp(w.out) != 0 || d.Bookings != w.bookings {
				t.Errorf("%s: %s = balance %s in %s out %s (%d), the independent fold %s %s %s (%d)", when, d.Date, d.Balance, d.In, d.Out,
					d.Bookings, w.close.FloatString(2), w.in.FloatString(2), w.out.FloatString(2), w.bookings)
			}
		}
		if rat(t, got.In).Cmp(in) != 0 || rat(t, got.Out).Cmp(outTotal) != 0 {
			t.Errorf("%s: in %s out %s, the independent fold %s %s", when, got.In, got.Out, in.FloatString(2), outTotal.FloatString(2))
		}
		if len(got.OutByProduct) != len(outBy) {
			t.Errorf("%s: %d products out, the independent fold %d", when, len(got.OutByProduct), len(outBy))
		}
		for _, p := range got.OutByProduct {
			if w := outBy[p.Product]; w == nil || rat(t, p.Amount).Cmp(w) != 0 {
				t.Errorf("%s: out by %s = %s, the independent fold %v", when, p.Product, p.Amount, w)
			}
		}
		if rat(t, got.Booked).Cmp(want[days-1].close) != 0 || got.Checked == 0 {
			t.Errorf("%s: booked now %s, the fold from zero %s; %d balances checked", when, got.Booked, want[days-1].close.FloatString(2), got.Checked)
		}
		// The CSV is the same series.
		code, csvOut, errOut := runCLI(t, "balance-history", "--account", acct.ID, "--days", "90", "--csv", "--config", cfg)
		lines := strings.Split(strings.TrimSuffix(csvOut, "\r\n"), "\r\n")
		if code != ExitOK || len(lines) != days+1 || lines[0] != strings.Join(historyCSVHeader, ",") {
			t.Fatalf("%s: --csv exit %d, %d lines: %s", when, code, len(lines), errOut)
		}
		for i, l := range lines[1:] {
			if f := strings.Split(l, ","); rat(t, f[1]).Cmp(want[i].close) != 0 {
				t.Errorf("%s: CSV %s balance %s, want %s", when, f[0], f[1], want[i].close.FloatString(2))
			}
		}
	}
	check("generated history")
	ctx := context.Background()
	if _, err := c.SimulateIncomingTransfer(ctx, api.IncomingTransfer{Amount: api.Amount{Value: "123.45", Currency: "EUR"},
		CreditorIBAN: acct.IBAN, CreditorName: acct.Name, DebtorIBAN: "DE89370400440532013000", DebtorName: "Test Debtor", Label: "history test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.SimulateManualBankingFee.Run(ctx, c.Testing(), api.ManualBankingFeeInput{AccountID: acct.ID, Type: "DocumentIssuance",
		EffectiveDate: time.Now().UTC().Format(time.RFC3339), DueAmount: &api.Amount{Value: "7.89", Currency: "EUR"}}); err != nil {
		t.Fatal(err)
	}
	check("after a simulated transfer and fee")
}

// TestExportsRoundTrip: the CSV and the camt.053 of an emulator account,
// parsed back, hold exactly its booked transactions of the period, in
// booking order, and their balances add up to what the platform reports.
func TestExportsRoundTrip(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 30})
	c := projectClient(t, e)
	acct := addingUpAccount(t, c)
	from := time.Now().UTC().AddDate(0, 0, -60).Format(time.DateOnly)
	first, _ := time.Parse(time.DateOnly, from)
	var want []api.TransactionDetail
	for _, tx := range allTransactions(t, c, acct.ID) {
		if tx.StatusInfo.Status == "Booked" && !tx.StatusInfo.BookingDate.Before(first) {
			want = append(want, tx)
		}
	}
	if len(want) < 3 {
		t.Fatalf("only %d bookings since %s", len(want), from)
	}
	byID := map[string]api.TransactionDetail{}
	for _, tx := range want {
		byID[tx.ID] = tx
	}
	signed := func(tx api.TransactionDetail) *big.Rat {
		v := rat(t, tx.Amount.Value)
		if tx.Side == "Debit" {
			v.Neg(v)
		}
		return v
	}
	dir := t.TempDir()

	csvPath := filepath.Join(dir, "period.csv")
	if code, _, errOut := runCLI(t, "export", "--account", acct.ID, "--from", from, "--format", "csv", "-o", csvPath, "--config", cfg); code != ExitOK {
		t.Fatalf("csv: exit %d: %s", code, errOut)
	}
	raw, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ledger.ParseCSV(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) {
		t.Fatalf("CSV: %d rows, %d bookings", len(rows), len(want))
	}
	var prev time.Time
	for _, r := range rows {
		tx, ok := byID[r.ID]
		if !ok {
			t.Fatalf("CSV row %s is no booking of the period", r.ID)
		}
		if rat(t, r.Amount.String()).Cmp(signed(tx)) != 0 || r.Reference != tx.Reference || r.Counterparty != tx.Counterparty ||
			r.Label != tx.Label || r.Date != tx.StatusInfo.BookingDate.Format(time.DateOnly) || r.Currency != tx.Amount.Currency {
			t.Errorf("CSV row %+v, transaction %+v", r, tx)
		}
		// The running balance is the platform's balance after it.
		if r.RunningBalance == nil || rat(t, r.RunningBalance.String()).Cmp(rat(t, tx.StatusInfo.BalanceAfter.Amount.Value)) != 0 {
			t.Errorf("CSV row %s running balance %v, the platform's after it %s", r.ID, r.RunningBalance, tx.StatusInfo.BalanceAfter.Amount.Value)
		}
		if tx.StatusInfo.BookingDate.Before(prev) {
			t.Errorf("CSV row %s is before the row above it", r.ID)
		}
		prev = tx.StatusInfo.BookingDate
	}

	code, xmlOut, errOut := runCLI(t, "export", "--account", acct.ID, "--from", from, "--format", "camt053", "--config", cfg)
	if code != ExitOK {
		t.Fatalf("camt053: exit %d: %s", code, errOut)
	}
	st, err := ledger.ParseCamt053(strings.NewReader(xmlOut))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Check(); err != nil {
		t.Errorf("camt.053 does not add up: %v", err)
	}
	now, err := c.Account(context.Background(), acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Namespace != ledger.Camt053Namespace || st.IBAN != acct.IBAN || st.Currency != "EUR" || st.OpeningDate != from ||
		rat(t, st.Closing.String()).Cmp(rat(t, now.Balances.Booked.Value)) != 0 || len(st.Ntries) != len(want) {
		t.Errorf("camt.053 %s IBAN %s %s opens %s closes %s with %d entries; want IBAN %s closing %s, %d entries",
			st.Namespace, st.IBAN, st.Currency, st.OpeningDate, st.Closing, len(st.Ntries), acct.IBAN, now.Balances.Booked.Value, len(want))
	}
	for i, n := range st.Ntries {
		tx, ok := byID[n.ID]
		if !ok {
			t.Fatalf("camt.053 entry %d (%s) is no booking of the period", i, n.ID)
		}
		if rat(t, n.Amount.String()).Cmp(signed(tx)) != 0 || n.Status != "BOOK" || !n.BookingDate.Equal(tx.StatusInfo.BookingDate) ||
			n.Counterparty != tx.Counterparty || n.Label != tx.Label || n.EndToEndID != tx.Reference || n.BookingCode != tx.Type {
			t.Errorf("camt.053 entry %+v, transaction %+v", n, tx)
		}
	}
}

func readAll(r *http.Response) ([]byte, error) {
	defer r.Body.Close()
	var b bytes.Buffer
	_, err := b.ReadFrom(r.Body)
	return b.Bytes(), err
}

func nopCloser(b []byte) *bodyCloser { return &bodyCloser{bytes.NewReader(b)} }

type bodyCloser struct{ *bytes.Reader }

func (bodyCloser) Close() error { return nil }

// dropOneBooking serves the emulator's API through a proxy that leaves
// the first transaction of the second page of booked transactions out of
// its answer: a page that lost a booking on the way. It returns the
// proxy's URL and what it dropped.
func dropOneBooking(t *testing.T, e *testkit.Emulator) (proxyURL string, droppedOne func() api.TransactionDetail) {
	t.Helper()
	target, err := url.Parse(e.Info.APIURL)
	if err != nil {
		t.Fatal(err)
	}
	// The proxy answers requests at once: what it counts and drops is
	// shared between them.
	var mu sync.Mutex
	dropped := &api.TransactionDetail{}
	pages := 0
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if !strings.HasSuffix(r.Request.URL.Path, "/graphql") {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		body, err := readAll(r)
		if err != nil || !bytes.Contains(body, []byte(`"transactions"`)) || !bytes.Contains(body, []byte(`"balanceAfter"`)) {
			r.Body = nopCloser(body)
			return err
		}
		var doc map[string]any
		if err := json.Unmarshal(body, &doc); err != nil {
			r.Body = nopCloser(body)
			return nil
		}
		acct, _ := doc["data"].(map[string]any)["account"].(map[string]any)
		conn, _ := acct["transactions"].(map[string]any)
		edges, _ := conn["edges"].([]any)
		pages++
		if pages == 2 && len(edges) > 0 && dropped.ID == "" {
			node := edges[0].(map[string]any)["node"]
			b, _ := json.Marshal(node)
			var tx struct {
				ID     string `json:"id"`
				Side   string `json:"side"`
				Amount struct{ Value string }
			}
			_ = json.Unmarshal(b, &tx)
			dropped.ID, dropped.Side, dropped.Amount.Value = tx.ID, tx.Side, tx.Amount.Value
			conn["edges"] = edges[1:]
			body, _ = json.Marshal(doc)
		}
		r.Body = nopCloser(body)
		r.ContentLength = int64(len(body))
		r.Header.Del("Content-Length")
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL, func() api.TransactionDetail {
		mu.Lock()
		defer mu.Unlock()
		return *dropped
	}
}

// TestExportOfAPeriodThatDoesNotAddUp: when a page comes back without one
// of its bookings, the export writes nothing, names the difference (the
// missing booking's amount) and exits 1; a file -o names is not created.
func TestExportOfAPeriodThatDoesNotAddUp(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 30})
	c := projectClient(t, e)
	acct := addingUpAccount(t, c)
	proxyURL, droppedOne := dropOneBooking(t, e)
	cfg := filepath.Join(home, "dropping.toml")
	e.WriteConfig(t, cfg, testkit.Config{Token: "project", APIURL: proxyURL})
	// Pages of 3, so that the period's bookings come in several.
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("page_size = 3\n"); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	out := filepath.Join(t.TempDir(), "statement.xml")
	from := time.Now().UTC().AddDate(0, 0, -89).Format(time.DateOnly)
	code, stdout, errOut := runCLI(t, "export", "--account", acct.ID, "--from", from, "--format", "camt053", "-o", out, "--config", cfg)
	dropped := droppedOne()
	if dropped.ID == "" {
		t.Fatalf("no second page of bookings came through the proxy (exit %d): %s", code, errOut)
	}
	if code != ExitFailure || stdout != "" {
		t.Fatalf("exit %d, stdout %q, want 1 and nothing: %s", code, stdout, errOut)
	}
	// Without a debit the balance rebuilt backwards from now is that much
	// lower than the platform's before it; without a credit, higher.
	gap := "+" + dropped.Amount.Value
	if dropped.Side == "Debit" {
		gap = "-" + dropped.Amount.Value
	}
	if !strings.Contains(errOut, "does not add up") || !strings.Contains(errOut, gap+" EUR apart") {
		t.Errorf("the error does not name the gap %s EUR of the dropped booking %s:\n%s", gap, dropped.ID, errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was written (or stat failed: %v)", out, err)
	}
}
