package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
)

// waitLine is a wait as a command says it off a terminal; its group is
// the time the wait ends.
var waitLine = regexp.MustCompile(`(?m)^waiting \d+[0-9hms.]*, until (\S+ \S+), because the platform answered 429`)

// Request lines of PARTNERTUI_DEBUG=api: one held back before it was sent
// ("waited 3s"), one the platform answered 429.
var (
	waitedRequest  = regexp.MustCompile(`(?m)^api #\d+ .* waited `)
	refusedRequest = regexp.MustCompile(`(?m)^api #\d+ \S+ sandbox \S+ 429 `)
)

// TestRealProcessesWaitingOutA429AllSaySo: the README's promise on waits,
// kept by real processes. Twenty partnertui processes started together
// list an account with the project's token against an emulator that
// accepts 12 requests per window and answers the others 429 with a
// Retry-After. Some processes hear the 429 themselves, the others find
// the hold another one recorded in the shared budget. Each process's own
// request lines (PARTNERTUI_DEBUG=api) say which of its requests were
// refused and which waited; every process whose request waited says so on
// stderr, and each wait once (no two lines of a process name the same
// end), and a process that heard a 429 waited before it tried again.
//
// PARTNERTUI_WAIT_ROUNDS=N runs N rounds instead of one.
func TestRealProcessesWaitingOutA429AllSaySo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	rounds := 1
	if v := os.Getenv("PARTNERTUI_WAIT_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("PARTNERTUI_WAIT_ROUNDS=%q is not a positive count", v)
		}
		rounds = n
	}
	t.Parallel()
	home := testenv.NewHome(t)
	bin := realBinary.Path(t)
	for round := range rounds {
		// The round needs requests refused: should the machine be so slow
		// that the twenty processes spread over more than a window, the
		// round is run again (at most twice).
		refused := 0
		for attempt := 0; refused == 0 && attempt < 3; attempt++ {
			refused = waitsOfRealProcesses(t, bin, home, fmt.Sprintf("%d.%d", round, attempt))
		}
		if refused == 0 {
			t.Errorf("round %d: the emulator refused no request in three attempts", round)
		}
	}
}

// waitsOfRealProcesses runs one round of
// TestRealProcessesWaitingOutA429AllSaySo on an emulator of its own (so
// its window starts empty, and its budget file is new).
func waitsOfRealProcesses(t *testing.T, bin string, home *testenv.Home, round string) (refused int) {
	const procs, limit = 20, 12
	// The window is what a refused request waits: long enough that every
	// process sends inside it, short enough for a test.
	window := 3 * time.Second
	if v := os.Getenv("PARTNERTUI_WAIT_WINDOW"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("PARTNERTUI_WAIT_WINDOW=%q is not a positive duration", v)
		}
		window = d
	}
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 3, RateLimit: limit, RateWindow: window})
	cfg := filepath.Join(home.Dir, "config-"+round+".toml")
	kc := testkit.Config{SecretEnv: "PT_WAITS_SECRET"}
	e.WriteConfig(t, cfg, kc)
	env := append(home.Environ(), e.SecretVar(t, kc), "PARTNERTUI_DEBUG=api")
	stderr := make([]bytes.Buffer, procs)
	cmds := make([]*exec.Cmd, procs)
	for i := range procs {
		cmd := exec.Command(bin, "--config", cfg, "accounts", "--first", "1", "--project", "--json")
		cmd.Env = env
		cmd.Stderr = &stderr[i]
		cmds[i] = cmd
	}
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for i, cmd := range cmds {
		wg.Go(func() { errs[i] = cmd.Run() })
	}
	wg.Wait()
	waited, heard := 0, 0
	for i := range procs {
		out := stderr[i].String()
		if errs[i] != nil {
			t.Errorf("round %s, process %d: %v\n%s", round, i, errs[i], out)
			continue
		}
		refused := len(refusedRequest.FindAllString(out, -1))
		held := len(waitedRequest.FindAllString(out, -1))
		var untils []string
		for _, m := range waitLine.FindAllStringSubmatch(out, -1) {
			untils = append(untils, m[1])
		}
		heard += refused
		if held > 0 {
			waited++
		}
		switch {
		case len(untils) < held:
			t.Errorf("round %s, process %d: %d request(s) waited and %d wait(s) said:\n%s", round, i, held, len(untils), out)
		case refused > 0 && held == 0:
			t.Errorf("round %s, process %d: answered 429 %d time(s), it sent again without a wait:\n%s", round, i, refused, out)
		case len(slices.Compact(slices.Clone(untils))) != len(untils):
			t.Errorf("round %s, process %d: a wait was said more than once:\n%s", round, i, out)
		}
	}
	for _, r := range e.Log.Requests(t) {
		if r.Status == http.StatusTooManyRequests {
			refused++
		}
	}
	t.Logf("round %s: %d of %d processes waited; the emulator refused %d requests", round, waited, procs, refused)
	if heard != refused {
		t.Errorf("round %s: the emulator refused %d requests, and the processes heard %d 429s", round, refused, heard)
	}
	return refused
}
