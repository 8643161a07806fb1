package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/testenv"
)

// TestProcessBenchmarkExport measures `partnertui export` as a user runs
// it, the real binary against the emulator: the wall time and the peak
// RSS of a camt.053 statement of an account with 10,000 and then 100,000
// bookings in the period (fees simulated on two accounts beforehand). The
// statement streams: its pages go to a spool on disk and memory holds 32
// bytes a booking to sort them, so the peak grows far slower than the
// bookings. It reports figures, never asserts on time. Run it with:
//
//	PARTNERTUI_PROCESS_BENCH=1 go test -run TestProcessBenchmarkExport -v -timeout 30m .
func TestProcessBenchmarkExport(t *testing.T) {
	if os.Getenv("PARTNERTUI_PROCESS_BENCH") == "" {
		t.Skip("whole-process benchmark: set PARTNERTUI_PROCESS_BENCH=1 to run it")
	}
	home := testenv.NewHome(t)
	bin := realBinary.Path(t)
	emu := startEmulatorProcess(t, bin, 20, "100000000/1m")
	cfg := filepath.Join(home.Dir, "bench-export.toml")
	writeProjectConfig(t, cfg, emu)
	token := emu.projectToken(t)
	accounts := openedEURAccounts(t, emu, token)
	sizes := []int{10_000, 100_000}
	if len(accounts) < len(sizes) {
		t.Fatalf("%d Opened EUR accounts, want %d", len(accounts), len(sizes))
	}
	type figure struct {
		time, cpu time.Duration
		rss       int64
	}
	got := map[int]figure{}
	for i, n := range sizes {
		start := time.Now()
		simulateFees(t, emu, token, accounts[i], n)
		t.Logf("%d fees simulated on %s in %v", n, accounts[i], time.Since(start).Round(time.Second))
		from := time.Now().UTC().Format(time.DateOnly)
		var times, cpus []time.Duration
		var peaks []int64
		var size int64
		for range 3 {
			// Each run gets its own state directory: a run of 1,000
			// requests would otherwise wait for the machine's request
			// budget (2,000 per 5 minutes).
			out := filepath.Join(t.TempDir(), "statement.xml")
			total, _, peak, cpu := timeProcess(t, []string{bin, "--config", cfg, "export", "--account", accounts[i], "--from", from,
				"--format", "camt053", "-o", out}, append(home.Environ(), "XDG_STATE_HOME="+t.TempDir()))
			fi, err := os.Stat(out)
			if err != nil {
				t.Fatalf("the export wrote no statement: %v", err)
			}
			times, cpus, peaks, size = append(times, total), append(cpus, cpu), append(peaks, peak), fi.Size()
		}
		slices.Sort(peaks)
		got[n] = figure{median(times), median(cpus), peaks[1]}
		t.Logf("export of %d bookings (camt.053, %d MB, %d pages), median of 3 runs: %v (partnertui's CPU %v), peak RSS %d KiB",
			n, size>>20, (n+99)/100, got[n].time.Round(time.Millisecond), got[n].cpu.Round(time.Millisecond), got[n].rss)
	}
	a, b := got[sizes[0]], got[sizes[1]]
	t.Logf("export: 10× the bookings takes %.1f× the time, %.1f× partnertui's CPU and %.2f× the peak RSS (%d KiB against %d KiB)",
		float64(b.time)/float64(a.time), float64(b.cpu)/float64(a.cpu), float64(b.rss)/float64(a.rss), b.rss, a.rss)
}

// graphql posts query to url with the token and decodes the answer's data
// into out (nil: only checked); a GraphQL error is an error.
func graphql(url, token, query string, out any) error {
	body, _ := json.Marshal(map[string]string{"query": query})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var answer struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		return fmt.Errorf("HTTP %d: %w", resp.StatusCode, err)
	}
	if len(answer.Errors) > 0 {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, answer.Errors[0].Message)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(answer.Data, out)
}

// openedEURAccounts are the ids of the project's Opened accounts in EUR.
func openedEURAccounts(t *testing.T, emu *emulatorProcess, token string) []string {
	t.Helper()
	var page struct {
		Accounts struct {
			Edges []struct {
				Node struct {
					ID         string `json:"id"`
					Currency   string `json:"currency"`
					StatusInfo struct {
						Status string `json:"status"`
					} `json:"statusInfo"`
				} `json:"node"`
			} `json:"edges"`
		} `json:"accounts"`
	}
	if err := graphql(emu.graphqlURL, token, `{ accounts(first: 100) { edges { node { id currency statusInfo { status } } } } }`, &page); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range page.Accounts.Edges {
		if e.Node.StatusInfo.Status == "Opened" && e.Node.Currency == "EUR" {
			ids = append(ids, e.Node.ID)
		}
	}
	return ids
}

// simulateFees books n manual banking fees on the account, as many to a
// request as the Sandbox allows (5 root fields), from a few connections
// at once.
func simulateFees(t *testing.T, emu *emulatorProcess, token, accountID string, n int) {
	t.Helper()
	const perRequest, workers = 5, 4
	url := emu.kit.Info.Environments["sandbox"].TestingGraphQLURL
	if url == "" {
		t.Fatal("the emulator serves no Testing API")
	}
	at := time.Now().UTC().Format(time.RFC3339)
	batches := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for first := range batches {
				var q strings.Builder
				q.WriteString("mutation {")
				for i := first; i < min(first+perRequest, n); i++ {
					fmt.Fprintf(&q, ` f%d: simulateManualBankingFee(input: {accountId: %q, type: DocumentIssuance, effectiveDate: %q, dueAmount: {value: "0.%02d", currency: "EUR"}}) { __typename }`,
						i-first, accountID, at, 1+i%99)
				}
				q.WriteString(" }")
				if err := graphql(url, token, q.String(), nil); err != nil {
					errs <- err
					for range batches {
					}
					return
				}
			}
		})
	}
	for first := 0; first < n; first += perRequest {
		batches <- first
	}
	close(batches)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatalf("simulating fees: %v", err)
	}
}
