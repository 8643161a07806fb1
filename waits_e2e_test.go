package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
)

// waitLine is a wait as a command says it off a terminal.
var waitLine = regexp.MustCompile(`(?m)^waiting \d+[0-9hms.]*, until \S+ \S+, because the platform answered 429`)

// waitedRequest is a request line of PARTNERTUI_DEBUG=api that was held
// back before it was sent, and why.
var waitedRequest = regexp.MustCompile(`(?m)^api #\d+ .* waited \S+ \(?([a-z0-9 -]+)`)

// TestRealProcessesWaitingOutA429AllSaySo: the README's promise on waits,
// kept by real processes. Twenty partnertui processes started together
// list an account with the project's token against an emulator that
// accepts 12 requests per window and answers the others 429 with a
// Retry-After. Some processes hear the 429 themselves, the others find
// the hold another one recorded in the shared budget; every one that
// waits says so on stderr, once, with how long. Which processes waited is
// what each says of its own request (PARTNERTUI_DEBUG=api: "waited 2s"),
// and at least as many as the emulator refused.
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
	home := testenv.Isolate(t)
	bin := realBinary.Path(t)
	for round := range rounds {
		waitsOfRealProcesses(t, bin, home, round)
	}
}

// waitsOfRealProcesses runs one round of
// TestRealProcessesWaitingOutA429AllSaySo on an emulator of its own (so
// its window starts empty, and its budget file is new).
func waitsOfRealProcesses(t *testing.T, bin, home string, round int) {
	const procs, limit = 20, 12
	// The window is what a refused request waits: long enough that every
	// process sends inside it, short enough for a test.
	window := 2 * time.Second
	if v := os.Getenv("PARTNERTUI_WAIT_WINDOW"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("PARTNERTUI_WAIT_WINDOW=%q is not a positive duration", v)
		}
		window = d
	}
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 3, RateLimit: limit, RateWindow: window})
	cfg := filepath.Join(home, fmt.Sprintf("config-%d.toml", round))
	e.WriteConfig(t, cfg, testkit.Config{SecretEnv: "PT_WAITS_SECRET"})
	stderr := make([]bytes.Buffer, procs)
	cmds := make([]*exec.Cmd, procs)
	for i := range procs {
		cmd := exec.Command(bin, "--config", cfg, "accounts", "--first", "1", "--project", "--json")
		cmd.Env = append(os.Environ(), "PARTNERTUI_DEBUG=api")
		cmd.Stderr = &stderr[i]
		cmds[i] = cmd
	}
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for i, cmd := range cmds {
		wg.Go(func() { errs[i] = cmd.Run() })
	}
	wg.Wait()
	waited := 0
	for i := range procs {
		out := stderr[i].String()
		if errs[i] != nil {
			t.Errorf("round %d, process %d: %v\n%s", round, i, errs[i], out)
			continue
		}
		held := len(waitedRequest.FindAllString(out, -1))
		said := len(waitLine.FindAllString(out, -1))
		if held > 0 {
			waited++
		}
		if said != held {
			t.Errorf("round %d, process %d: %d request(s) waited and %d wait(s) said:\n%s", round, i, held, said, out)
		}
	}
	refused := 0
	for _, r := range e.Log.Requests(t) {
		if r.Status == http.StatusTooManyRequests {
			refused++
		}
	}
	t.Logf("round %d: %d of %d processes waited; the emulator refused %d requests", round, waited, procs, refused)
	if waited < refused || refused == 0 {
		t.Errorf("round %d: %d processes waited, and the emulator refused %d requests", round, waited, refused)
	}
}
