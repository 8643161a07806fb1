package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
)

// TestProcessBenchmark compares whole processes, as a user runs them:
// `partnertui accounts --project --all --json` against the emulator, and a
// plain net/http loop sending the same query with a token in hand
// (testdata/plainloop), interleaved. It reports ratios, never asserts on
// time. Run it with:
//
//	PARTNERTUI_PROCESS_BENCH=1 go test -run TestProcessBenchmark -v -timeout 30m .
func TestProcessBenchmark(t *testing.T) {
	if os.Getenv("PARTNERTUI_PROCESS_BENCH") == "" {
		t.Skip("whole-process benchmark: set PARTNERTUI_PROCESS_BENCH=1 to run it")
	}
	// Not parallel: a measurement, which other tests' load would distort.
	home := testenv.NewHome(t)
	bin := realBinary.Path(t)
	loop := filepath.Join(t.TempDir(), "plainloop")
	build := exec.Command("go", "build", "-o", loop, "./testdata/plainloop")
	build.Env = realBinary.GoEnv()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building plainloop: %v\n%s", err, out)
	}
	ops, err := api.Operations()
	if err != nil {
		t.Fatal(err)
	}
	var query string
	for _, op := range ops {
		if op.Name == api.OpAccounts {
			query = op.Query
		}
	}
	runs := 8
	rss := map[int]int64{}
	for _, accounts := range []int{10_000, 100_000} {
		emu := startEmulatorProcess(t, bin, accounts, "1000000/1m")
		cfg := filepath.Join(home.Dir, fmt.Sprintf("bench-%d.toml", accounts))
		writeProjectConfig(t, cfg, emu)
		cli := []string{bin, "--config", cfg, "accounts", "--project", "--all", "--json"}
		plain := []string{loop, emu.graphqlURL, query}
		loopEnv := append(home.Environ(), "PLAINLOOP_TOKEN="+emu.projectToken(t))
		if accounts == 10_000 {
			// One untimed run each: partnertui's first run fetches the
			// project token it then keeps, the loop's warms the page cache.
			timeProcess(t, cli, home.Environ())
			timeProcess(t, plain, loopEnv)
			var cliTimes, loopTimes, cliFirst, loopFirst []time.Duration
			for i := range runs {
				// Alternate which goes first, so neither always meets a
				// warmer cache.
				order := [][]string{cli, plain}
				if i%2 == 1 {
					order = [][]string{plain, cli}
				}
				for _, args := range order {
					env := home.Environ()
					if args[0] == loop {
						env = loopEnv
					}
					total, first, _, _ := timeProcess(t, args, env)
					if args[0] == bin {
						cliTimes, cliFirst = append(cliTimes, total), append(cliFirst, first)
					} else {
						loopTimes, loopFirst = append(loopTimes, total), append(loopFirst, first)
					}
				}
			}
			c, l := median(cliTimes), median(loopTimes)
			t.Logf("10,000 accounts, median of %d interleaved runs: partnertui %v, plain loop %v, ratio %.2f", runs, c, l, float64(c)/float64(l))
			t.Logf("time to the first account: partnertui %v, plain loop's first page %v, difference %v (one page round trip ≈ %v)",
				median(cliFirst), median(loopFirst), median(cliFirst)-median(loopFirst), l/time.Duration(accounts/100))
		}
		var peaks []int64
		for range 3 {
			// Each run gets its own state directory: 3 runs of 1,000
			// requests would otherwise wait for the machine's request
			// budget (2,000 per 5 minutes).
			_, _, peak, _ := timeProcess(t, cli, append(home.Environ(), "XDG_STATE_HOME="+t.TempDir()))
			peaks = append(peaks, peak)
		}
		slices.Sort(peaks)
		rss[accounts] = peaks[1]
		emu.stop()
	}
	t.Logf("peak RSS of accounts --all --json: %d KiB at 10,000, %d KiB at 100,000, ratio %.2f",
		rss[10_000], rss[100_000], float64(rss[100_000])/float64(rss[10_000]))
}

type emulatorProcess struct {
	cmd                                   *exec.Cmd
	graphqlURL, tokenURL, apiURL, authURL string
	clientID, secret                      string
	// kit is the emulator for the test kit's helpers (config, sign-in).
	kit *testkit.Emulator
}

func (e *emulatorProcess) stop() {
	_ = e.cmd.Process.Signal(os.Interrupt)
	_ = e.cmd.Wait()
}

// startEmulatorProcess runs `partnertui emulator` with accounts accounts
// and the rate limit given as --rate-limit takes it ("2000/5m"), and the
// flags in extra. Its data is the in-process emulators' (--epoch at
// emulator.DefaultEpoch), whatever the day the tests run.
func startEmulatorProcess(t *testing.T, bin string, accounts int, rateLimit string, extra ...string) *emulatorProcess {
	t.Helper()
	args := append([]string{"emulator", "--json", "--accounts", fmt.Sprint(accounts), "--rate-limit", rateLimit,
		"--epoch", emulator.DefaultEpoch().Format(time.RFC3339)}, extra...)
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("emulator: %v", err)
	}
	var info emulator.Info
	if err := json.Unmarshal([]byte(line), &info); err != nil {
		t.Fatal(err)
	}
	sb := info.Environments["sandbox"]
	return &emulatorProcess{cmd: cmd, graphqlURL: sb.GraphQLURL, tokenURL: info.AuthURL + "/oauth2/token",
		apiURL: info.APIURL, authURL: info.AuthURL, clientID: sb.ClientID, secret: sb.ClientSecret,
		kit: &testkit.Emulator{Info: info}}
}

// projectToken fetches the plain loop's token once, before any timing: the
// loop runs with a token in hand, as partnertui does with its token store.
func (e *emulatorProcess) projectToken(t *testing.T) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {e.clientID}, "client_secret": {e.secret}}
	resp, err := http.PostForm(e.tokenURL, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("client_credentials token: HTTP %d: %v", resp.StatusCode, err)
	}
	return tok.AccessToken
}

func writeProjectConfig(t *testing.T, path string, e *emulatorProcess) {
	t.Helper()
	cfg := fmt.Sprintf("[sandbox]\napi_url = %q\nauth_url = %q\nclient_id = %q\nclient_secret = %q\ntoken = \"project\"\n",
		e.apiURL, e.authURL, e.clientID, e.secret)
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// timeProcess runs args to completion with stdout read as it comes: the
// total wall time, the time to the first account on stdout, the peak RSS
// in KiB and the CPU time the process used (user and system).
func timeProcess(t *testing.T, args, env []string) (total, first time.Duration, peakKiB int64, cpu time.Duration) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := out.Read(buf)
		if first == 0 && n > 0 && (bytes.Contains(buf[:n], []byte(`"id"`)) || bytes.Contains(buf[:n], []byte("first"))) {
			first = time.Since(start)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args[:2], " "), err, stderr.String())
	}
	total = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peakKiB = ru.Maxrss
	}
	return total, first, peakKiB, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
