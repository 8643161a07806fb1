package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
)

// manyAccounts are n accounts with varied content (unicode, missing
// balances, HTML-ish characters JSON must not escape).
func manyAccounts(n int) []api.Account {
	out := make([]api.Account, n)
	for i := range out {
		out[i] = api.Account{
			ID: fmt.Sprintf("acc-%05d", i), Name: fmt.Sprintf("Compte <%d> & Zoë", i), IBAN: "FR7630006000011234567890189",
			Currency: "EUR", StatusInfo: api.StatusInfo{Status: "Opened"}, Holder: api.Holder{Info: api.HolderInfo{Name: "Holder"}},
		}
		if i%3 != 0 {
			out[i].Balances = &api.Balances{Available: api.Amount{Value: fmt.Sprintf("%d.00", i), Currency: "EUR"}}
		}
	}
	return out
}

// pagesOf walks items in pages of size, then fails with failAfter's error
// once that many pages were given (0: never).
func pagesOf[T any](items []T, size, failAfter int, fail error) walkFunc[T] {
	return func(ctx context.Context, each func([]T, int) error) error {
		pages := 0
		for from := 0; from < len(items); from += size {
			if failAfter > 0 && pages == failAfter {
				return fail
			}
			if err := each(items[from:min(from+size, len(items))], len(items)); err != nil {
				return err
			}
			pages++
		}
		return nil
	}
}

// TestStreamedJSONEqualsBufferedJSON: writing page by page gives, byte for
// byte, what encoding the whole list at once gives: compact for a pipe (as
// the command writes it when stdout is not a terminal), indented for people.
func TestStreamedJSONEqualsBufferedJSON(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 7, 250} {
		items := manyAccounts(n)
		var indented bytes.Buffer
		if err := writeJSON(&indented, items); err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(items); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			indented.Reset()
			indented.WriteString("[]\n")
			compact.Reset()
			compact.WriteString("[]\n")
		}
		var streamed bytes.Buffer
		r := &listRun[api.Account]{io: IO{Out: &streamed, Err: &bytes.Buffer{}}, format: formatJSON, noun: "accounts", cols: accountColumns()}
		if err := r.run(context.Background(), pagesOf(items, 100, 0, nil), nil); err != nil {
			t.Fatal(err)
		}
		if streamed.String() != compact.String() {
			t.Fatalf("n=%d: streamed JSON differs from the buffered encoding:\n%s\n--- want ---\n%s", n, streamed.String(), compact.String())
		}
		var pretty bytes.Buffer
		w := newItemWriterIndent(&pretty, formatJSON, accountColumns(), 100, true)
		for from := 0; from < n; from += 100 {
			if err := w.write(items[from:min(from+100, n)]); err != nil {
				t.Fatal(err)
			}
		}
		_ = w.close()
		if pretty.String() != indented.String() {
			t.Fatalf("n=%d: streamed indented JSON differs from the buffered encoding", n)
		}
	}
}

func TestJSONLinesParse(t *testing.T) {
	t.Parallel()
	items := manyAccounts(205)
	var out bytes.Buffer
	r := &listRun[api.Account]{io: IO{Out: &out, Err: &bytes.Buffer{}}, format: formatJSONL, noun: "accounts", cols: accountColumns()}
	if err := r.run(context.Background(), pagesOf(items, 100, 0, nil), nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(items) {
		t.Fatalf("%d lines for %d items", len(lines), len(items))
	}
	for i, l := range lines {
		var a api.Account
		if err := json.Unmarshal([]byte(l), &a); err != nil || a.ID != items[i].ID {
			t.Fatalf("line %d %q: %v", i, l, err)
		}
	}
}

// TestFailureMidListing: the error says how many items were written, a JSON
// array stays unclosed (no script can take it for the whole list), and JSON
// lines keep every complete line.
func TestFailureMidListing(t *testing.T) {
	t.Parallel()
	items := manyAccounts(350)
	cause := &api.NetworkError{Env: "sandbox", Host: "api.example", Err: errors.New("connection reset")}
	for _, f := range []listFormat{formatJSON, formatJSONL, formatTable} {
		var out bytes.Buffer
		r := &listRun[api.Account]{io: IO{Out: &out, Err: &bytes.Buffer{}}, format: f, noun: "accounts", cols: accountColumns(), screenful: 500}
		err := r.run(context.Background(), pagesOf(items, 100, 2, cause), nil)
		var pe *PartialListError
		if !errors.As(err, &pe) || pe.Written != 200 || !errors.Is(err, cause) || exitCode(err) != ExitFailure {
			t.Fatalf("format %d: err = %v", f, err)
		}
		if !strings.Contains(err.Error(), "200 accounts had been written") {
			t.Errorf("format %d: %q does not say how many were written", f, err)
		}
		text := out.String()
		switch f {
		case formatJSON:
			if !strings.Contains(err.Error(), "left unclosed") {
				t.Errorf("message %q does not say the array is unclosed", err)
			}
			if json.Valid(out.Bytes()) || strings.HasSuffix(strings.TrimSpace(text), "]") {
				t.Errorf("a partial JSON array was closed: ...%s", text[max(len(text)-40, 0):])
			}
			var partial []api.Account
			if json.Unmarshal([]byte(text+"\n]"), &partial) != nil || len(partial) != 200 {
				t.Errorf("the written part is not the first 200 elements")
			}
		case formatJSONL:
			if n := strings.Count(text, "\n"); n != 200 || !strings.HasSuffix(text, "\n") {
				t.Errorf("%d complete lines, want 200", n)
			}
		case formatTable:
			if n := strings.Count(text, "\n"); n != 201 {
				t.Errorf("table has %d lines after the failure, want the header and 200 rows", n)
			}
		}
	}
}

// TestTableStreamsAfterAScreenful: the first screenful sizes the columns;
// later rows keep those widths (cut with an ellipsis) and are written at
// once.
func TestTableStreamsAfterAScreenful(t *testing.T) {
	t.Parallel()
	items := manyAccounts(30)
	items[25].Name = strings.Repeat("W", 31)
	var out bytes.Buffer
	w := newItemWriter(&out, formatTable, accountColumns(), 10)
	if err := w.write(items[:5]); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Fatal("rows were written before a screenful was there to size the columns")
	}
	if err := w.write(items[5:12]); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "\n"); got != 13 {
		t.Fatalf("after a screenful: %d lines, want the header and 12 rows", got)
	}
	if err := w.write(items[12:]); err != nil {
		t.Fatal(err)
	}
	_ = w.close()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if !strings.Contains(lines[26], "…") {
		t.Errorf("a name longer than the sized column was not cut: %q", lines[26])
	}
	if len(lines[26]) != len(lines[25]) && !strings.Contains(lines[26], "…") {
		t.Errorf("rows are not aligned")
	}
}

// BenchmarkTableWriter writes 10,000 accounts as a table in pages of 100,
// the first screenful buffered: the per-row cost of `accounts --all` when
// stdout is a file.
func BenchmarkTableWriter(b *testing.B) {
	items := manyAccounts(10_000)
	for i := range items {
		if i%7 == 0 {
			items[i].Name = strings.Repeat("Très long nom ", 4) // cut at the column's maximum
		}
	}
	cols := accountColumns()
	b.ReportAllocs()
	for b.Loop() {
		w := newItemWriter(io.Discard, formatTable, cols, 100)
		for from := 0; from < len(items); from += 100 {
			if err := w.write(items[from : from+100]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.close(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEveryListTakesTheSameFlags: every list command pages with --first
// and writes --json, --jsonl and --all the same way.
func TestEveryListTakesTheSameFlags(t *testing.T) {
	t.Parallel()
	f := &Factory{IO: IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}}
	root := NewCmdRoot(f)
	for _, list := range []string{"accounts", "transactions", "cards", "events", "members", "statements", "subscriptions",
		"virtual-ibans", "standing-orders", "beneficiaries", "account-holders", "onboardings", "capital-deposits",
		"merchant-profiles", "payment-links"} {
		cmd, _, err := root.Find([]string{list})
		if err != nil {
			t.Fatal(err)
		}
		for _, flag := range []string{"first", "json", "jsonl", "all"} {
			if cmd.Flags().Lookup(flag) == nil {
				t.Errorf("%s has no --%s", list, flag)
			}
		}
		// Without --first a page is the configuration's page_size (api.List).
		if fl := cmd.Flags().Lookup("first"); fl != nil && (fl.DefValue != "0" || !strings.Contains(fl.Usage, "page_size")) {
			t.Errorf("%s --first defaults to %s (%q), want 0, the configuration's page_size", list, fl.DefValue, fl.Usage)
		}
	}
}

// TestTimeFlagsReadDurationsDatesAndTimes: --since and --until read the
// same values on every command: a duration back, a date (an --until's
// day included) or a time.
func TestTimeFlagsReadDurationsDatesAndTimes(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	at := time.Date(2026, 11, 25, 11, 58, 3, 123456789, time.UTC)
	day := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		v       string
		through bool
		want    time.Time
	}{
		{"3m", false, now.Add(-3 * time.Minute)},
		{"2h", true, now.Add(-2 * time.Hour)},
		{"3d", false, now.Add(-72 * time.Hour)},
		{"2026-11-22", false, day},
		{"2026-11-22", true, day.AddDate(0, 0, 1)},
		{at.Format(time.RFC3339Nano), true, at},
	} {
		if got, err := parseTime("--until", c.v, now, c.through); err != nil || !got.Equal(c.want) {
			t.Errorf("parseTime(%q, through %v) = %v, %v; want %v", c.v, c.through, got, err, c.want)
		}
	}
	for _, bad := range []string{"yesterday", "-2h", "0s", "3x"} {
		if _, err := parseTime("--since", bad, now, false); exitCode(err) != ExitUsage || !strings.Contains(err.Error(), `--since "`+bad+`"`) {
			t.Errorf("parseTime(%q): %v, want a usage error naming --since", bad, err)
		}
	}
}

// TestEnumFlagsFoldCaseAndSuggest: an enum flag takes its values in any
// case; a mistaken one names the flag as typed and the values meant (a
// few, never the whole list), before anything is sent.
func TestEnumFlagsFoldCaseAndSuggest(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 3})
	for _, args := range [][]string{
		{"transactions", "--status", "booked,PENDING", "--type", "cardoutdebit", "--first", "5"},
		{"cards", "--status", "enabled", "--first", "5"},
		{"events", "--type", "transaction.booked", "--since", "3m", "--first", "5"},
	} {
		if code, _, errOut := runCLI(t, append(args, "--config", cfg, "--jsonl")...); code != ExitOK {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	for _, c := range []struct {
		args       []string
		want, deny string
	}{
		{[]string{"transactions", "--status", "Bookd"}, `--status "Bookd" is not a transaction status: did you mean Booked?`, ""},
		{[]string{"transactions", "--type", "CardOut"}, `--type "CardOut" is not a transaction type: did you mean CardOut`, "SepaCreditTransferIn"},
		{[]string{"transactions", "--type", "Zzzzzz"}, "nor close to one of the", "CardOutDebit"},
		{[]string{"cards", "--status", "Enabeld"}, "did you mean Enabled?", ""},
		{[]string{"cards", "--status", "x"}, "write ConsentPending, Processing, Enabled, Canceled or Canceling", ""},
		{[]string{"events", "--type", "Transaction.Bookd"}, `--type "Transaction.Bookd" is not a webhook event type: did you mean Transaction.Booked?`, ""},
		{[]string{"trigger", "card-debited", "--expect", "Transaction.Bookd"}, `--expect "Transaction.Bookd" is not a webhook event type`, "--type"},
		{[]string{"listen", "--forward-to", "http://127.0.0.1:1/x", "--type", "Transaction.Bookd"}, `--type "Transaction.Bookd"`, ""},
		{[]string{"cards", "--first", "0"}, "--first must be between 1 and 100", ""},
		{[]string{"events", "--first", "101"}, "--first must be between 1 and 100", ""},
	} {
		code, out, errOut := runCLI(t, append(c.args, "--config", cfg)...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) || (c.deny != "" && strings.Contains(errOut, c.deny)) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestEmptyResultSaysSo: a list with nothing to show exits 0 and says so
// on stderr; its table is not even a header, its --json an empty array.
func TestEmptyResultSaysSo(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	_, cfg := startEmulator(t, home, "project", emulator.Options{Accounts: 3})
	for format, want := range map[string]string{"": "", "--json": "[]\n", "--jsonl": ""} {
		args := []string{"accounts", "--config", cfg, "--search", "no account is named this"}
		if format != "" {
			args = append(args, format)
		}
		code, out, errOut := runCLI(t, args...)
		if code != ExitOK || out != want || errOut != "No accounts found.\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0, %q and the empty result said", args, code, out, errOut, want)
		}
	}
	code, out, errOut := runCLI(t, "events", "--config", cfg, "--type", "User.Joined", "--resource", "nothing")
	if code != ExitOK || out != "" || errOut != "No event log entries found.\n" {
		t.Errorf("events: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
