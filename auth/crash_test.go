package auth

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// tokenProxy stands between a client and the emulator. Every answer of the
// token endpoint passes its ModifyResponse, which runs once the server has
// answered (for a refresh: after it rotated the refresh token) and before
// a byte of the answer reaches the client. That moment is the crash test's
// anchor, and there an answer can be dropped as if the network lost it.
//
// The emulator's own rotation hook (Options.OnRefreshRotated, coming from
// the emulator branch) marks the same moment from inside the server; the
// proxy needs nothing the emulator does not have yet.
type tokenProxy struct {
	addr     string         // host:port a client connects to instead of the emulator
	answered chan time.Time // one send per token answer, never blocking
	srv      *httptest.Server
}

// newTokenProxy proxies to authURL; drop, when set and true for an answer,
// cuts the connection instead of passing the answer on.
func newTokenProxy(t *testing.T, authURL string, drop func() bool) *tokenProxy {
	t.Helper()
	target, err := url.Parse(authURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &tokenProxy{answered: make(chan time.Time, 1)}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasSuffix(resp.Request.URL.Path, "/oauth2/token") {
			return nil
		}
		select {
		case p.answered <- time.Now():
		default:
		}
		if drop != nil && drop() {
			return errDropAnswer
		}
		return nil
	}
	rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		if errors.Is(err, errDropAnswer) {
			// Abort the connection: the client sees it close, no answer.
			panic(http.ErrAbortHandler)
		}
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
	p.srv = httptest.NewUnstartedServer(rp)
	p.srv.Config.ErrorLog = discardLogger()
	p.srv.Start()
	t.Cleanup(p.srv.Close)
	p.addr = p.srv.Listener.Addr().String()
	return p
}

var errDropAnswer = errors.New("answer dropped by the test proxy")

// client connects to the proxy whatever host the URL names, so the
// configured auth_url (and the issuer the store checks) stays the
// emulator's.
func (p *tokenProxy) client() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, p.addr)
	}
	return &http.Client{Transport: tr, Timeout: time.Minute}
}

// Outcomes of one kill, as the next run sees them.
const (
	crashOK             = "ok"               // the next run carried on without a new sign-in
	crashLostBeforeRead = "lost-before-read" // killed before the answer was read: nothing could have saved it
	crashLostAfterRead  = "lost-after-read"  // killed after the answer was in the journal: a defect
	crashReplay         = "replay"           // the new token was on disk, yet the next run spent the old one
	crashCorrupt        = "corrupt"          // the store file no longer reads
)

// TestEmulatorKillDuringRefresh kills a helper process with SIGKILL at
// random points of a refresh, anchored on the moment the server logs the
// rotation of the refresh token (before it sends the answer), and
// lets a fresh session on the same files classify what the kill left. The
// window the kills fall in is measured first: the median time from the
// anchor to the helper's success, times 1.5, so kills land before the
// answer is read, while it is journaled, parsed and saved, around the
// rename and after the end.
//
// PARTNERTUI_CRASH_RUNS=100 runs 100 kills instead of the default 10 (about
// 4 s more).
func TestEmulatorKillDuringRefresh(t *testing.T) {
	t.Parallel()
	runs := 10
	if v := os.Getenv("PARTNERTUI_CRASH_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("PARTNERTUI_CRASH_RUNS=%q is not a positive count", v)
		}
		runs = n
	}
	_, procBin := buildHelpers(t)
	// The anchor is the moment the server logs the rotation: the emulator
	// calls OnRefreshRotated right after writing that log line, before it
	// sends the answer.
	rotated := make(chan time.Time, 1)
	onRotated := func() {
		select {
		case rotated <- time.Now():
		default:
		}
	}
	e, env, s := signedInEmulator(t, emulator.Options{OnRefreshRotated: onRotated}, nil)
	dir := filepath.Dir(s.StorePath())
	px := newTokenProxy(t, env.AuthURL, nil)
	c := &crashRig{t: t, e: e, env: env, s: s, dir: dir, px: px, rotated: rotated, procBin: procBin}

	var spans []time.Duration
	for range 5 {
		span, outcome := c.round(-1)
		if outcome != crashOK {
			t.Fatalf("an uninterrupted refresh ended %s", outcome)
		}
		spans = append(spans, span)
	}
	slices.Sort(spans)
	window := spans[len(spans)/2] * 3 / 2
	counts := map[string]int{}
	for _, slot := range rand.Perm(runs) {
		// One kill per slot of the window, at a random point of the slot.
		offset := time.Duration((float64(slot) + rand.Float64()) / float64(runs) * float64(window))
		_, outcome := c.round(offset)
		counts[outcome]++
	}
	t.Logf("%d kills within %v of the rotation (uninterrupted refreshes took %v): ok %d (%d of them recovered from the temporary file), lost-before-read %d, lost-after-read %d, replay %d, corrupt %d",
		runs, window.Round(time.Microsecond), spans, counts[crashOK], c.recovered, counts[crashLostBeforeRead], counts[crashLostAfterRead], counts[crashReplay], counts[crashCorrupt])
	if counts[crashReplay] != 0 || counts[crashCorrupt] != 0 || counts[crashLostAfterRead] != 0 {
		t.Errorf("a kill left a corrupt file, lost a session whose answer was in the journal, or made the next run replay a spent refresh token")
	}
}

// crashRig runs the rounds of TestEmulatorKillDuringRefresh.
type crashRig struct {
	t         *testing.T
	e         *testkit.Emulator
	env       *config.Environment
	s         *Session // signs in again after a lost session
	dir       string
	px        *tokenProxy
	rotated   <-chan time.Time // the server's rotation moments
	procBin   string
	n         int // rounds so far
	recovered int // ok rounds that needed the temporary file
}

// round refreshes in a helper process whose clock is ahead of every token
// stored so far, kills it offset after the anchor (never when offset < 0),
// then classifies the outcome with a fresh session further ahead still.
// span is the time from the anchor to the helper's success, when it got
// there.
func (c *crashRig) round(offset time.Duration) (span time.Duration, outcome string) {
	t := c.t
	c.n++
	day := 24 * time.Hour
	before := readStored(t, c.s)
	cmd := testproc(c.procBin, c.env, c.dir, "-ahead", (time.Duration(2*c.n-1) * day).String(), "-via", c.px.addr, "-mark")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	if line, _ := out.ReadString('\n'); strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %q", line)
	}
	select {
	case <-c.rotated: // a stale anchor of an earlier round
	default:
	}
	stdin.Write([]byte("go\n"))
	var anchor time.Time
	select {
	case anchor = <-c.rotated:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the helper sent no token request within 30 s")
	}
	var lines []string
	if offset >= 0 {
		time.Sleep(time.Until(anchor.Add(offset)))
		cmd.Process.Kill()
		rest, _ := io.ReadAll(out)
		lines = strings.Split(string(rest), "\n")
	} else {
		for {
			line, err := out.ReadString('\n')
			lines = append(lines, strings.TrimSpace(line))
			if strings.HasPrefix(line, "ok ") {
				span = time.Since(anchor)
			}
			if err != nil {
				break
			}
		}
	}
	cmd.Wait()
	marked := slices.Contains(lines, "step "+string(RefreshAnswered))
	if offset < 0 && span == 0 {
		t.Fatalf("uninterrupted helper: %q", lines)
	}

	// What the kill left on disk, before anyone touches it.
	stored, err := c.s.store.read()
	if err != nil || stored == nil {
		t.Logf("round %d: store after the kill: %v", c.n, err)
		return span, crashCorrupt
	}
	persisted := stored.RefreshToken != before.RefreshToken
	inTemp := false
	for _, tmp := range c.s.store.temps() {
		if tok := c.s.store.readTemp(tmp); tok != nil && tok.RefreshToken != before.RefreshToken {
			persisted, inTemp = true, true
		}
	}

	clk := clock.New(time.Now().Add(time.Duration(2*c.n) * day))
	_, err = newTestSession(t, c.env, c.dir, clk).TokenSource().Token()
	switch {
	case err == nil:
		if inTemp && stored.RefreshToken == before.RefreshToken {
			c.recovered++
		}
		if left := c.s.store.temps(); len(left) != 0 {
			t.Errorf("round %d: temporary files left after the next run: %v", c.n, left)
		}
		return span, crashOK
	case errors.Is(err, ErrSignInRequired):
		loginEmulator(t, c.e, c.s, config.Sandbox)
		switch {
		case persisted:
			return span, crashReplay
		case marked:
			return span, crashLostAfterRead
		}
		return span, crashLostBeforeRead
	}
	t.Fatalf("round %d: the next run failed: %v", c.n, err)
	return span, ""
}

func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

// TestKillAtEachStepAfterTheAnswer: a helper process refreshes, stops at a
// step of the refresh that follows the answer (auth.RefreshStep) and is
// killed there with SIGKILL. Whatever the step, the next run carries on
// with the rotated refresh token (recovered from the journal or the new
// file, or simply read), never replays the spent one and leaves no
// temporary file; the server saw exactly one refresh per kill.
func TestKillAtEachStepAfterTheAnswer(t *testing.T) {
	t.Parallel()
	_, procBin := buildHelpers(t)
	e, env, s := signedInEmulator(t, emulator.Options{}, nil)
	dir := filepath.Dir(s.StorePath())
	day := 24 * time.Hour
	steps := []RefreshStep{RefreshAnswered, RefreshParsed, RefreshWritten, RefreshSaved, RefreshDone}
	for i, step := range steps {
		before := readStored(t, s)
		refreshes := e.Log.Refreshes(t)
		cmd := testproc(procBin, env, dir, "-ahead", (time.Duration(2*i+1) * day).String(), "-stop", string(step))
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		out := bufio.NewReader(stdout)
		if line, _ := out.ReadString('\n'); strings.TrimSpace(line) != "ready" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("helper: %q", line)
		}
		stdin.Write([]byte("go\n"))
		line, _ := out.ReadString('\n')
		cmd.Process.Kill()
		cmd.Wait()
		if strings.TrimSpace(line) != "stopped "+string(step) {
			t.Fatalf("step %s: the helper said %q", step, line)
		}
		if n := e.Log.Refreshes(t) - refreshes; n != 1 {
			t.Fatalf("step %s: %d refreshes reached the server, want 1", step, n)
		}
		next := newTestSession(t, env, dir, clock.New(time.Now().Add(time.Duration(2*i+1)*day)))
		if _, err := next.TokenSource().Token(); err != nil {
			t.Fatalf("killed at %s: the next run: %v", step, err)
		}
		after := readStored(t, next)
		if after.RefreshToken == before.RefreshToken || after.AccessToken == before.AccessToken {
			t.Errorf("killed at %s: the next run kept the spent refresh token", step)
		}
		if n := e.Log.Refreshes(t) - refreshes; n != 1 {
			t.Errorf("killed at %s: the next run refreshed again (%d refreshes), so it lost the rotated token or replayed the spent one", step, n)
		}
		if left := next.store.temps(); len(left) != 0 {
			t.Errorf("killed at %s: temporary files left: %v", step, left)
		}
		// The session goes on: the recovered refresh token is the live one.
		later := newTestSession(t, env, dir, clock.New(time.Now().Add(time.Duration(2*i+2)*day)))
		if _, err := later.TokenSource().Token(); err != nil {
			t.Fatalf("killed at %s: refreshing with the recovered token: %v", step, err)
		}
	}
}
