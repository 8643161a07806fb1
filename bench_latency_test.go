package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// latencyRTT is the round trip the latency benchmark's emulator plays.
const latencyRTT = 100 * time.Millisecond

// TestLatencyBenchmark drives the real binary in tmux against an emulator
// 100 ms of round trip away (--latency 100ms) with 10,000 accounts, and
// reports each step of issue 22 in round trips: the time from the key (or
// the launch) to the screen showing what the step is for, polled every
// 2 ms, median of several runs, and the requests the emulator logged for
// it. It never asserts on time. Run it with:
//
//	PARTNERTUI_PROCESS_BENCH=1 go test -run TestLatencyBenchmark -v -timeout 30m .
func TestLatencyBenchmark(t *testing.T) {
	if os.Getenv("PARTNERTUI_PROCESS_BENCH") == "" {
		t.Skip("whole-process benchmark: set PARTNERTUI_PROCESS_BENCH=1 to run it")
	}
	// Not parallel: a measurement, which other tests' load would distort.
	tm := newTmux(t)
	tm.fresh = true
	home := tm.home.Dir
	bin := realBinary.Path(t)
	logPath := filepath.Join(t.TempDir(), "requests.jsonl")
	emu := startEmulatorProcess(t, bin, 10_000, "1000000/1m", "--latency", latencyRTT.String(), "--request-log", logPath)
	b := &latencyBench{tm: tm, bin: bin, log: logPath, steps: map[string][]stepResult{}}
	b.cfg = writeUserConfig(t, filepath.Join(home, "snapshot.toml"), emu, "")
	b.cfgOff = writeUserConfig(t, filepath.Join(home, "no-snapshot.toml"), emu, "launch_snapshot = false\n")
	cfg, _, err := config.Load(b.cfg)
	if err != nil {
		t.Fatal(err)
	}
	b.stateDir = tm.home.Locations.State
	signin.Session(t, emu.kit, cfg.Env(config.Sandbox), b.stateDir)

	// A session of its own keeps the tmux server up between launches, so
	// a launch's time is the binary's, not a tmux server's start.
	if out, err := tm.cmd("new-session", "-d", "-s", "keep", "sleep", "3600").CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = tm.cmd("kill-server").Run() })
	// An untimed session writes the launch snapshot, as an earlier run of
	// the user's would.
	b.session(true)
	b.steps, b.order = map[string][]stepResult{}, nil
	const runs = 5
	for i := range runs {
		b.session(i%2 == 0)
		b.session(i%2 == 1)
		b.backAndForth()
		b.harness()
	}
	b.report(t, runs)
}

// stepResult is one step of one run: how long, and how many requests.
type stepResult struct {
	took     time.Duration
	requests int
}

type latencyBench struct {
	tm          *tmux
	bin, log    string
	cfg, cfgOff string // with and without the launch snapshot
	stateDir    string
	steps       map[string][]stepResult
	order       []string
	firstFrame  time.Time // of the last step: when the screen first showed anything
}

// The steps, in the order they are reported.
const (
	stepLaunchSnap  = "launch with a saved session and a snapshot → account rows"
	stepLaunch      = "first launch: a saved session, no snapshot, no project token kept → account rows"
	stepFirstFrame  = "first launch → the first frame (no answer needed)"
	stepOpen        = "`enter` → the Overview complete"
	stepTx          = "`2` → Transactions rows (a tab switch)"
	stepMembers     = "`3` → Members rows (a tab switch)"
	stepRevisit     = "the same account opened again → complete"
	stepEvents      = "`E` → the Events view (project token kept from an earlier run)"
	stepEventsAhead = "`E` → the Events view (project token fetched at launch)"
	stepEventsAfter = "`E` after a quick back-and-forth (`enter`, `esc` before the revalidation answers) → the Events view"
	stepHarness     = "the harness alone: tmux launches `sh` printing the awaited texts → seen"
)

// harness times what the measuring itself costs a launch: tmux starting a
// process and the polling noticing its output, with a shell that prints
// the texts a launch waits for at once. The steps above include it.
func (b *latencyBench) harness() {
	b.step(stepHarness, func() {
		b.tm.start(120, 40, "sh", "-c", "printf '%s row 1 of' \"$1\"; exec sleep 60", "sh", "Accounts")
	}, "Accounts", "row 1 of")
	if out, err := b.tm.cmd("kill-session", "-t", b.tm.session).CombinedOutput(); err != nil {
		b.tm.t.Fatalf("tmux kill-session: %v\n%s", err, out)
	}
}

// session launches the binary, walks one account's Overview,
// Transactions and Members, opens it again, opens the Events view and
// quits. With snapshot, the launch has the last session's snapshot and
// project token; without, it is a first launch: neither.
func (b *latencyBench) session(snapshot bool) {
	cfg, launch, events := b.cfgOff, stepLaunch, stepEventsAhead
	if snapshot {
		cfg, launch, events = b.cfg, stepLaunchSnap, stepEvents
	} else {
		kept, err := filepath.Glob(filepath.Join(b.stateDir, "*.project.json"))
		if err != nil {
			b.tm.t.Fatal(err)
		}
		for _, f := range kept {
			if err := os.Remove(f); err != nil {
				b.tm.t.Fatal(err)
			}
		}
	}
	start := time.Now()
	b.step(launch, func() { b.tm.start(120, 40, b.bin, "--config", cfg) }, "Accounts", "row 1 of")
	if !snapshot {
		b.record(stepFirstFrame, b.firstFrame.Sub(start), 0)
	}
	// The rows on screen may be the snapshot's: wait for the fresh ones
	// before the account is opened.
	b.waitGone("last session's")
	b.settle()
	b.step(stepOpen, func() { b.tm.keys("Enter") }, "IBAN", "Your rights")
	b.step(stepTx, func() { b.tm.keys("2") }, "Counterparty · label", "row 1 of")
	b.step(stepMembers, func() { b.tm.keys("3") }, "V B P M C", "row 1 of")
	b.tm.keys("1")
	b.tm.waitFor("the Overview", "IBAN", "Your rights")
	b.tm.keys("Escape")
	b.tm.waitFor("the account list", "Accounts", "row 1 of")
	b.settle()
	b.step(stepRevisit, func() { b.tm.keys("Enter") }, "IBAN", "Your rights")
	b.step(events, func() { b.tm.keys("E") }, "Events (", "live · updated")
	b.tm.keys("q")
	b.tm.waitExit()
}

// backAndForth launches the binary (with the snapshot), opens an
// account, goes back to the list, opens the account again and leaves it
// before the revalidation it sends can answer, then times `E` once that
// revalidation has ended: the Events view's read must find the
// connection the revalidation used still open. The Events view is opened
// from the list, so it is its first visit.
func (b *latencyBench) backAndForth() {
	b.tm.start(120, 40, b.bin, "--config", b.cfg)
	b.tm.waitFor("the account list", "Accounts", "row 1 of")
	b.waitGone("last session's")
	b.settle()
	b.tm.keys("Enter")
	b.tm.waitFor("the Overview", "IBAN", "Your rights")
	b.tm.keys("Escape")
	b.tm.waitFor("the account list", "Accounts", "row 1 of")
	b.settle()
	before := b.logLines()
	start := time.Now()
	b.tm.keys("Enter")
	b.waitQuick("the kept Overview", "IBAN", "Your rights")
	b.tm.keys("Escape")
	left := time.Since(start)
	if left >= latencyRTT/2 {
		b.tm.t.Logf("the back-and-forth took %v: its revalidation may have answered before it was left", left)
	}
	b.tm.waitFor("the account list", "Accounts", "row 1 of")
	b.settle()
	b.tm.t.Logf("the back-and-forth: left after %v, requests %v", left, b.operations(before))
	b.step(stepEventsAfter, func() { b.tm.keys("E") }, "Events", "live · updated")
	b.tm.keys("q")
	b.tm.waitExit()
}

// waitQuick waits for texts polling every 2 ms, as a step does.
func (b *latencyBench) waitQuick(what string, texts ...string) {
	if !poll2ms(time.Minute, func() bool { return containsAll(b.tm.capture(), texts) }) {
		b.tm.t.Fatalf("waiting for %s (%q), the screen is:\n%s", what, texts, b.tm.capture())
	}
}

func poll2ms(timeout time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// step runs do and times it until every text is on the screen; then it
// waits for the requests to end and counts those do caused.
func (b *latencyBench) step(name string, do func(), texts ...string) {
	t := b.tm.t
	before := b.logLines()
	start := time.Now()
	do()
	var screen string
	b.firstFrame = time.Time{}
	for {
		screen = b.tm.capture()
		if b.firstFrame.IsZero() && strings.Contains(screen, "SANDBOX") {
			b.firstFrame = time.Now()
		}
		if containsAll(screen, texts) {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("%s: waiting for %q, the screen is:\n%s", name, texts, screen)
		}
		time.Sleep(2 * time.Millisecond)
	}
	took := time.Since(start)
	b.settle()
	ops := b.operations(before)
	b.record(name, took, len(ops))
	t.Logf("%s: %v, requests %v", name, took, ops)
}

func (b *latencyBench) record(name string, took time.Duration, requests int) {
	if _, seen := b.steps[name]; !seen {
		b.order = append(b.order, name)
	}
	b.steps[name] = append(b.steps[name], stepResult{took: took, requests: requests})
}

// waitGone waits until text is no longer on the screen.
func (b *latencyBench) waitGone(text string) {
	if !poll(time.Minute, func() bool { return !strings.Contains(b.tm.capture(), text) }) {
		b.tm.t.Fatalf("%q stays on the screen:\n%s", text, b.tm.capture())
	}
}

// operations names the requests logged after the first skip lines (the
// GraphQL operation, or the token grant) with the emulator's own time.
func (b *latencyBench) operations(skip int) []string {
	raw, err := os.ReadFile(b.log)
	if err != nil {
		b.tm.t.Fatal(err)
	}
	var ops []string
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var e struct {
			OpName    string  `json:"operation_name"`
			GrantType string  `json:"grant_type"`
			Endpoint  string  `json:"endpoint"`
			Took      float64 `json:"duration_ms"`
			Status    int     `json:"status"`
		}
		if i < skip || json.Unmarshal([]byte(line), &e) != nil {
			continue
		}
		status := ""
		if e.Status != 200 {
			status = fmt.Sprintf(", HTTP %d", e.Status)
		}
		ops = append(ops, fmt.Sprintf("%s (server %.0fms%s)", cmp.Or(e.OpName, e.GrantType, e.Endpoint), e.Took, status))
	}
	return ops
}

// settle waits until no request has been logged for three round trips:
// the background reads of a step end before the next one starts.
func (b *latencyBench) settle() {
	last, quiet := b.logLines(), time.Now()
	for time.Since(quiet) < 3*latencyRTT {
		time.Sleep(latencyRTT / 4)
		if n := b.logLines(); n != last {
			last, quiet = n, time.Now()
		}
	}
}

func (b *latencyBench) logLines() int {
	raw, err := os.ReadFile(b.log)
	if err != nil && !os.IsNotExist(err) {
		b.tm.t.Fatal(err)
	}
	return bytes.Count(raw, []byte("\n"))
}

func containsAll(screen string, texts []string) bool {
	for _, s := range texts {
		if !strings.Contains(screen, s) {
			return false
		}
	}
	return true
}

func (b *latencyBench) report(t *testing.T, runs int) {
	var out strings.Builder
	fmt.Fprintf(&out, "10,000 accounts, --latency %v, median of %d runs:\n", latencyRTT, runs)
	fmt.Fprintf(&out, "| step | time | round trips | requests |\n|---|---|---|---|\n")
	for _, name := range b.order {
		rs := b.steps[name]
		var reqs []int
		for _, r := range rs {
			reqs = append(reqs, r.requests)
		}
		m := medianOf(rs)
		fmt.Fprintf(&out, "| %s | %v | %.2f | %v |\n", name, m.Round(time.Millisecond), float64(m)/float64(latencyRTT), reqs)
	}
	if launch, frame := b.steps[stepLaunch], b.steps[stepFirstFrame]; len(launch) > 0 && len(frame) > 0 {
		after := medianOf(launch) - medianOf(frame)
		fmt.Fprintf(&out, "first launch after its first frame: %v, %.2f round trips\n",
			after.Round(time.Millisecond), float64(after)/float64(latencyRTT))
	}
	t.Log(out.String())
}

func medianOf(rs []stepResult) time.Duration {
	took := make([]time.Duration, len(rs))
	for i, r := range rs {
		took[i] = r.took
	}
	return median(took)
}

// writeUserConfig writes a Sandbox config for the emulator's user token,
// with the client secret so the project token (the Events view's) is
// there, and extra at the top.
func writeUserConfig(t *testing.T, path string, e *emulatorProcess, extra string) string {
	t.Helper()
	e.kit.WriteConfig(t, path, testkit.Config{})
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append([]byte(extra), raw...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
