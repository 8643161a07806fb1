package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
)

// TestParseEpoch: --epoch is a date (its first instant, UTC) or an RFC
// 3339 time; none is the start of the clock's UTC day; anything else is
// a usage error that names the flag and the forms it takes.
func TestParseEpoch(t *testing.T) {
	t.Parallel()
	// 23:30 in UTC+1 is 22:30 UTC: still the 29th in UTC.
	now := time.Date(2026, time.November, 29, 23, 30, 0, 0, time.FixedZone("CET", 3600))
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"", time.Date(2026, time.November, 29, 0, 0, 0, 0, time.UTC)},
		{"2026-01-15", time.Date(2026, time.January, 15, 0, 0, 0, 0, time.UTC)},
		{"2026-01-15T09:30:00Z", time.Date(2026, time.January, 15, 9, 30, 0, 0, time.UTC)},
		{"2026-01-15T09:30:00+01:00", time.Date(2026, time.January, 15, 8, 30, 0, 0, time.UTC)},
		{"2026-01-15T09:30:00.250Z", time.Date(2026, time.January, 15, 9, 30, 0, 250_000_000, time.UTC)},
	} {
		got, err := parseEpoch(c.in, now)
		if err != nil || !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("parseEpoch(%q) = %s, %v; want %s (UTC)", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"yesterday", "15/01/2026", "2026-1-15", "2026-01-32", "2026-01-15 09:30", "2026-01-15T09:30:00", "1768464000"} {
		_, err := parseEpoch(bad, now)
		if err == nil || exitCode(err) != ExitUsage {
			t.Errorf("parseEpoch(%q): %v, want a usage error (exit %d)", bad, err, ExitUsage)
			continue
		}
		for _, want := range []string{`--epoch "` + bad + `"`, "YYYY-MM-DD", "RFC 3339"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("parseEpoch(%q): %q does not say %q", bad, err, want)
			}
		}
	}
}

// TestEmulatorEpochIsRefused: a value that is no date, or data that would
// be dated in the future or before 2000, stops the command with exit 2
// before it serves anything.
func TestEmulatorEpochIsRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ epoch, want string }{
		{"15/01/2026", `--epoch "15/01/2026" is neither a date (YYYY-MM-DD`},
		{"2999-01-01", "is after now"},
		{"1999-12-31T23:00:00Z", "before 2000"},
	} {
		code, out, errOut := runCLI(t, "emulator", "--listen", "127.0.0.1:0", "--accounts", "5", "--epoch", c.epoch)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("--epoch %s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.epoch, code, out, errOut, ExitUsage, c.want)
		}
	}
}

// runEmulatorCommand runs `partnertui emulator` with args on a free port
// and the app's clock at now, waits for what it prints once it serves,
// gives that to while, then interrupts it: it must exit 0.
func runEmulatorCommand(t *testing.T, now time.Time, args []string, while func(out string)) {
	t.Helper()
	out, errOut := testkit.NewBuffer(), testkit.NewBuffer()
	p := process(t, IO{In: strings.NewReader(""), Out: out, Err: errOut})
	p.Now = func() time.Time { return now }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, p, append([]string{"emulator", "--listen", "127.0.0.1:0", "--accounts", "20"}, args...))
	}()
	timeout := time.After(30 * time.Second)
	// The banner and the JSON line are each written at once.
	for !strings.HasSuffix(out.String(), "\n") {
		select {
		case <-out.Wrote():
		case code := <-done:
			t.Fatalf("%v: exit %d before serving: %s", args, code, errOut.String())
		case <-timeout:
			t.Fatalf("%v: printed nothing within 30 s: %s", args, errOut.String())
		}
	}
	while(out.String())
	cancel()
	if code := <-done; code != ExitOK {
		t.Errorf("%v: exit %d after the interrupt: %s", args, code, errOut.String())
	}
}

// TestEmulatorBannerSaysTheEpoch: the emulator command's data is
// generated up to the start of the app's day, or to --epoch; its banner
// says which, and --json carries it.
func TestEmulatorBannerSaysTheEpoch(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, time.November, 20, 17, 45, 0, 0, time.UTC)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "  Data           generated up to 2026-11-20 00:00 UTC\n"},
		{[]string{"--epoch", "2026-01-15"}, "  Data           generated up to 2026-01-15 00:00 UTC\n"},
		{[]string{"--epoch", "2026-01-15T09:30:00+01:00"}, "  Data           generated up to 2026-01-15 08:30 UTC\n"},
	} {
		runEmulatorCommand(t, now, c.args, func(out string) {
			if !strings.HasPrefix(out, "partnertui emulator is running\n") || !strings.Contains(out, c.want) {
				t.Errorf("%v: the banner does not say %q:\n%s", c.args, c.want, out)
			}
		})
	}
}

// TestEmulatorEpochDatesItsData: with --epoch, the emulator command
// serves data generated up to that day whatever the day it runs: its
// newest booking is of the day before, its accounts of the three years
// before.
func TestEmulatorEpochDatesItsData(t *testing.T) {
	t.Parallel()
	epoch := time.Date(2026, time.January, 15, 0, 0, 0, 0, time.UTC)
	runEmulatorCommand(t, time.Date(2026, time.November, 20, 17, 45, 0, 0, time.UTC), []string{"--epoch", "2026-01-15", "--json"}, func(out string) {
		var info emulator.Info
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Fatalf("the JSON line: %v\n%s", err, out)
		}
		if !info.Epoch.Equal(epoch) || !strings.Contains(out, `"epoch":"2026-01-15T00:00:00Z"`) {
			t.Errorf("the JSON line's epoch is %s, want %s:\n%s", info.Epoch, epoch, out)
		}
		c := projectClient(t, &testkit.Emulator{Info: info})
		ctx := context.Background()
		page, err := c.TransactionList(ctx, api.TransactionsParams{First: 1, Status: []string{"Booked"}, OrderBy: "createdAt", Direction: api.DirectionDesc})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 1 {
			t.Fatal("the emulator has no booking")
		}
		if newest := page.Items[0].CreatedAt; newest.After(epoch) || epoch.Sub(newest) > 24*time.Hour {
			t.Errorf("the newest booking is at %s, want within the day before %s", newest, epoch)
		}
		accounts, err := c.Accounts(ctx, api.AccountsParams{First: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, listed := range accounts.Items {
			a, err := c.Account(ctx, listed.ID)
			if err != nil {
				t.Fatal(err)
			}
			if a.CreatedAt.After(epoch) || a.CreatedAt.Before(epoch.AddDate(-3, 0, -1)) {
				t.Errorf("account %s was created at %s, outside the three years before %s", a.ID, a.CreatedAt, epoch)
			}
		}
	})
}

// TestDemoDataRunsUpToTheAppsDay: --demo's data is generated up to the
// start of the app's day (UTC): under the tests' clock, its newest booking
// is of the day before 2026-11-01, whatever the day the tests run.
func TestDemoDataRunsUpToTheAppsDay(t *testing.T) {
	t.Parallel()
	const newest = `{ transactions(first: 1, orderBy: {field: createdAt, direction: Desc}, filters: {status: [Booked]}) { edges { node { createdAt } } } }`
	code, out, errOut := runCLI(t, "--demo", "--project", "api", newest)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var answer struct {
		Data struct {
			Transactions struct {
				Edges []struct {
					Node struct {
						CreatedAt time.Time `json:"createdAt"`
					} `json:"node"`
				} `json:"edges"`
			} `json:"transactions"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil || len(answer.Data.Transactions.Edges) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	epoch := emulator.StartOfDay(testClock())
	if at := answer.Data.Transactions.Edges[0].Node.CreatedAt; at.After(epoch) || epoch.Sub(at) > 24*time.Hour {
		t.Errorf("--demo's newest booking is at %s, want within the day before %s", at, epoch)
	}
}
