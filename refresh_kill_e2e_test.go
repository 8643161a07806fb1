package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// TestKillRealBinaryDuringRefresh drives the real binary against the
// emulator through the refresh of an expired user session, and measures
// the kill window. A TCP proxy in front of the authorization server notes
// when the refresh request was handed to the server (which then rotates
// the refresh token whatever the client does) and when the answer's last
// byte was handed to the binary's connection; the binary says, with
// PARTNERTUI_DEBUG=auth, when that last byte was in its journal ("refresh
// answered": safe from a kill from then on). All are the machine's wall
// clock.
//
// It first lets PARTNERTUI_KILL_MEASURE refreshes (default 5) run to their
// end and reports, median and maximum: the process's part (last byte to
// journal), the server's part (request to last byte, and rotation to last
// byte), their sum (the time in which a kill loses the session) and, for
// comparison, the time to the renamed token file. Then PARTNERTUI_KILL_RUNS
// processes (default 10) are killed with SIGKILL at random points from the
// rotation to well after the journal, and a fresh session on the same
// files says what each kill left. A kill after the binary said "answered"
// never loses the session; none leaves a corrupt file.
// PARTNERTUI_KILL_START=N more are killed at a random point of the
// command's first PARTNERTUI_KILL_START_SPAN (default 60ms), as a user
// would, refresh or not. PARTNERTUI_KILL_LOAD=N keeps N busy processes
// running meanwhile (2: both cores of a 2-core machine busy).
//
//	PARTNERTUI_KILL_MEASURE=100 PARTNERTUI_KILL_RUNS=100 PARTNERTUI_KILL_START=110 PARTNERTUI_KILL_LOAD=2 \
//	  go test -run TestKillRealBinaryDuringRefresh -v .
func TestKillRealBinaryDuringRefresh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	measure, runs, load := envCount(t, "PARTNERTUI_KILL_MEASURE", 5), envCount(t, "PARTNERTUI_KILL_RUNS", 10), envCount(t, "PARTNERTUI_KILL_LOAD", 0)
	t.Parallel()
	home := testenv.NewHome(t)
	rotated := make(chan time.Time, 1)
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 3, OnRefreshRotated: func() {
		select {
		case rotated <- time.Now():
		default:
		}
	}})
	px := startAnswerProxy(t, strings.TrimPrefix(e.Info.AuthURL, "http://"))
	cfgPath := filepath.Join(home.Dir, "config.toml")
	kc := testkit.Config{SecretEnv: "PT_KILL_SECRET", AuthURL: px.url}
	e.WriteConfig(t, cfgPath, kc)
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	// The binary reads the secret from the variable the file names; the
	// sessions of this process are given it.
	env := cfg.Env(config.Sandbox)
	env.ClientSecret = e.Env(t, config.Sandbox).ClientSecret
	r := &killRig{t: t, e: e, px: px, rotated: rotated, bin: realBinary.Path(t), cfgPath: cfgPath,
		procEnv: append(home.Environ(), e.SecretVar(t, kc), "PARTNERTUI_DEBUG=auth"),
		env:     env, direct: e.Env(t, config.Sandbox), stateDir: home.Locations.State}
	r.signIn()
	startBusy(t, load)

	var window, wire, server, whole, saved []time.Duration
	for range measure {
		ro := r.round(-1)
		if ro.outcome != killOK || ro.answered.IsZero() {
			t.Fatalf("an uninterrupted refresh ended %s (answered %v)", ro.outcome, ro.answered)
		}
		window = append(window, ro.answered.Sub(ro.lastByte))
		wire = append(wire, ro.lastByte.Sub(ro.rotation))
		server = append(server, ro.lastByte.Sub(ro.request))
		whole = append(whole, ro.answered.Sub(ro.request))
		saved = append(saved, ro.saved.Sub(ro.lastByte))
	}
	if measure > 0 {
		t.Logf("%d refreshes, %d busy processes: from the last byte of the answer to the rotated refresh token in the journal (safe from a kill): median %v, max %v; "+
			"the server's part, from the request with it to that last byte: median %v, max %v (of which from its rotation: median %v, max %v); "+
			"so a kill loses the session from the request on for: median %v, max %v; the renamed token file came after the last byte: median %v, max %v",
			measure, load, median(window), slices.Max(window), median(server), slices.Max(server), median(wire), slices.Max(wire),
			median(whole), slices.Max(whole), median(saved), slices.Max(saved))
	} else {
		window, wire = []time.Duration{time.Millisecond}, []time.Duration{time.Millisecond}
	}

	// Kills from the rotation to three times the slowest journal (at
	// least 2 ms), so they land on the wire, in the window and after it.
	span := max(3*slices.Max(window)+slices.Max(wire), 2*time.Millisecond)
	counts := map[string]int{}
	var lostAfterByte []time.Duration
	for range runs {
		ro := r.round(time.Duration(rand.Int64N(int64(span))))
		counts[ro.outcome]++
		if ro.outcome == killLost && !ro.lastByte.IsZero() && ro.killedAt.After(ro.lastByte) {
			lostAfterByte = append(lostAfterByte, ro.killedAt.Sub(ro.lastByte))
		}
	}
	t.Logf("%d kills within %v of the rotation: kept %d (%d recovered from the journal), lost %d (%d of them killed after the last byte: %v), lost after \"answered\" %d, corrupt %d",
		runs, span, counts[killOK], r.recovered, counts[killLost]+counts[killLostAfterAnswer], len(lostAfterByte), lostAfterByte, counts[killLostAfterAnswer], counts[killCorrupt])
	if counts[killLostAfterAnswer] != 0 || counts[killCorrupt] != 0 {
		t.Errorf("a kill after the answer was in the journal lost the session, or a kill left a corrupt file")
	}

	// As a user kills: at a random point of the command's first
	// PARTNERTUI_KILL_START_SPAN (60 ms), refresh or not.
	starts := envCount(t, "PARTNERTUI_KILL_START", 0)
	startSpan := 60 * time.Millisecond
	if v := os.Getenv("PARTNERTUI_KILL_START_SPAN"); v != "" {
		if startSpan, err = time.ParseDuration(v); err != nil || startSpan <= 0 {
			t.Fatalf("PARTNERTUI_KILL_START_SPAN=%q is not a positive duration", v)
		}
	}
	clear(counts)
	r.recovered = 0
	for range starts {
		ro := r.roundFrom(time.Duration(rand.Int64N(int64(startSpan))), true)
		counts[ro.outcome]++
	}
	if starts > 0 {
		t.Logf("%d kills within %v of the start of accounts: kept %d (%d recovered from the journal), lost %d, lost after \"answered\" %d, corrupt %d",
			starts, startSpan, counts[killOK], r.recovered, counts[killLost]+counts[killLostAfterAnswer], counts[killLostAfterAnswer], counts[killCorrupt])
	}
	if counts[killLostAfterAnswer] != 0 || counts[killCorrupt] != 0 {
		t.Errorf("a kill after the answer was in the journal lost the session, or a kill left a corrupt file")
	}
}

// Outcomes of a round of TestKillRealBinaryDuringRefresh.
const (
	killOK              = "kept"
	killLost            = "lost"                // killed before the answer was in the journal
	killLostAfterAnswer = "lost-after-answered" // a defect
	killCorrupt         = "corrupt"
)

type killRig struct {
	t         *testing.T
	e         *testkit.Emulator
	px        *answerProxy
	rotated   <-chan time.Time
	bin       string
	cfgPath   string
	procEnv   []string            // the binary's variables
	env       *config.Environment // the binary's: its auth_url is the proxy
	direct    *config.Environment // the emulator's own, to sign in
	stateDir  string
	recovered int
}

// roundResult is what one round saw, on the wall clock.
type roundResult struct {
	outcome  string
	request  time.Time // the refresh request was with the server
	rotation time.Time // the server rotated the refresh token
	lastByte time.Time // the answer's last byte was handed to the binary's connection
	answered time.Time // the binary: the answer's last byte in the journal
	saved    time.Time // the binary: the new token file renamed into place
	killedAt time.Time
}

// signIn signs the demo user in on the emulator itself, then names the
// proxy as the session's issuer: the binary reaches the token endpoint
// through the proxy, and the store checks that the session is the
// configured auth_url's.
func (r *killRig) signIn() {
	s := signin.NewSession(r.t, r.direct, r.stateDir)
	signin.AsDemoUser(r.t, r.e, s, config.Sandbox)
	editStore(r.t, s.StorePath(), func(m map[string]any) { m["issuer"] = r.px.url })
}

// round ages the stored access token, runs `accounts` (which refreshes
// first) and, when kill >= 0, kills it kill after the server rotated the
// refresh token. A fresh session on the same files then says what is left.
func (r *killRig) round(kill time.Duration) roundResult {
	return r.roundFrom(kill, false)
}

// roundFrom is round; with fromStart the kill comes kill after the
// binary was started instead, wherever it then is (maybe before the
// refresh), as a user's kill would.
func (r *killRig) roundFrom(kill time.Duration, fromStart bool) roundResult {
	t := r.t
	storePath := signin.NewSession(t, r.env, r.stateDir).StorePath()
	editStore(t, storePath, func(m map[string]any) {
		m["expiry"] = time.Now().Add(-time.Minute).UTC().Format(time.RFC3339Nano)
	})
	select {
	case <-r.rotated: // left by an earlier round's next run
	default:
	}
	cmd := exec.Command(r.bin, "--config", r.cfgPath, "accounts", "--first", "1", "--json")
	cmd.Env = r.procEnv
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
	}()
	var ro roundResult
	if fromStart {
		time.Sleep(time.Until(started.Add(kill)))
		ro.killedAt = time.Now()
		cmd.Process.Kill()
	} else {
		select {
		case ro.rotation = <-r.rotated:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the binary sent no refresh within 30 s")
		}
		if kill >= 0 {
			time.Sleep(time.Until(ro.rotation.Add(kill)))
			ro.killedAt = time.Now()
			cmd.Process.Kill()
		}
	}
	<-read
	werr := cmd.Wait()
	if !fromStart {
		select {
		case ex := <-r.px.last: // the token connection has ended
			ro.request, ro.lastByte = ex.request, ex.lastByte
		case <-time.After(30 * time.Second):
			t.Fatal("the proxy saw no end of the token connection within 30 s")
		}
	}
	for _, l := range lines {
		if at, ok := refreshStepAt(l, auth.RefreshAnswered); ok {
			ro.answered = at
		}
		if at, ok := refreshStepAt(l, auth.RefreshSaved); ok {
			ro.saved = at
		}
	}
	if fromStart {
		// Whatever the kill let through is no later round's.
		select {
		case <-r.rotated:
		default:
		}
		select {
		case <-r.px.last:
		default:
		}
	}
	if kill < 0 && werr != nil {
		t.Fatalf("accounts: %v\n%s", werr, strings.Join(lines, "\n"))
	}

	// What the kill left, as the next run sees it (on the emulator
	// itself: the proxy reports the binary's connections only).
	next, err := auth.NewSession(auth.SessionOptions{Env: r.env, StateDir: r.stateDir, HTTPClient: r.directClient()})
	if err != nil {
		t.Fatal(err)
	}
	storeDir := filepath.Dir(next.StorePath())
	journals, _ := filepath.Glob(filepath.Join(storeDir, "."+filepath.Base(next.StorePath())+".tmp-*"))
	_, err = next.TokenSource().Token()
	switch {
	case err == nil:
		if len(journals) > 0 {
			r.recovered++
		}
		ro.outcome = killOK
	case errors.Is(err, auth.ErrSignInRequired):
		var se *auth.SessionEndedError
		if errors.As(err, &se) && strings.Contains(se.Reason, "damaged") {
			ro.outcome = killCorrupt
		} else if !ro.answered.IsZero() {
			ro.outcome = killLostAfterAnswer
		} else {
			ro.outcome = killLost
		}
		if fromStart {
			t.Logf("lost: killed %v after the start; the binary had said %q", ro.killedAt.Sub(started), lines)
		} else {
			t.Logf("lost: killed %v after the rotation, the last byte of the answer %v after it; the binary had said %q",
				ro.killedAt.Sub(ro.rotation), sinceOrNever(ro.lastByte, ro.rotation), lines)
		}
		r.signIn()
	default:
		t.Fatalf("the next run failed: %v", err)
	}
	return ro
}

// sinceOrNever is at-from, or "never" when at is zero.
func sinceOrNever(at, from time.Time) string {
	if at.IsZero() {
		return "never"
	}
	return at.Sub(from).String()
}

// directClient connects to the emulator whatever host a URL names.
func (r *killRig) directClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	addr := strings.TrimPrefix(r.direct.AuthURL, "http://")
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: tr, Timeout: time.Minute}
}

// refreshStepAt reads the time of step from a PARTNERTUI_DEBUG=auth line
// ("auth sandbox refresh answered 2026-…Z +1.2ms").
func refreshStepAt(line string, step auth.RefreshStep) (time.Time, bool) {
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "auth" || f[2] != "refresh" || f[3] != string(step) {
		return time.Time{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, f[4])
	return at, err == nil
}

// editStore rewrites fields of the token file at path.
func editStore(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	raw, _ = json.Marshal(m)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// answerProxy forwards TCP connections to an authorization server and
// reports, as each connection of its token endpoint ends, the moment the
// answer's last byte was handed to the client's connection (just before
// that write, so the window measured from it is never shorter than the
// real one), or zero when the answer was not passed on whole.
type answerProxy struct {
	url  string
	last chan exchange
}

// exchange is what the proxy saw of one token request, on the wall clock.
type exchange struct {
	request  time.Time // its last byte was handed to the server (which then answers whatever the client does)
	lastByte time.Time // the answer's last byte was handed to the client's connection; zero when never
}

func startAnswerProxy(t *testing.T, target string) *answerProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &answerProxy{url: "http://" + ln.Addr().String(), last: make(chan exchange, 16)}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { p.forward(c, target) })
		}
	})
	return p
}

func (p *answerProxy) forward(c net.Conn, target string) {
	defer c.Close()
	s, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer s.Close()
	const tokenPost = "POST /oauth2/token "
	br := bufio.NewReader(c)
	head, _ := br.Peek(len(tokenPost))
	token := string(head) == tokenPost
	// When the request's last bytes so far were handed to the server (just
	// before: the server may answer before this goroutine runs again).
	var sentAt atomic.Int64
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := br.Read(buf)
			if n > 0 {
				sentAt.Store(time.Now().UnixNano())
				if _, werr := s.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		s.(*net.TCPConn).CloseWrite()
	}()
	var ex exchange
	if token {
		defer func() {
			select {
			case p.last <- ex:
			default: // nobody reads (kills from the start): forget it
			}
		}()
	}
	buf := make([]byte, 64<<10)
	var answer []byte
	want := -1 // the answer's length once its header is read
	for {
		n, err := s.Read(buf)
		if n > 0 && ex.request.IsZero() {
			ex.request = time.Unix(0, sentAt.Load())
		}
		if n > 0 {
			if token && ex.lastByte.IsZero() {
				answer = append(answer, buf[:n]...)
				if want < 0 {
					want = answerLength(answer)
				}
			}
			before := time.Now()
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
			if token && ex.lastByte.IsZero() && want > 0 && len(answer) >= want {
				ex.lastByte = before
			}
		}
		if err != nil {
			return
		}
	}
}

// answerLength is the length of the HTTP response that b begins, -1 while
// its header is incomplete (or says no Content-Length).
func answerLength(b []byte) int {
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		return -1
	}
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(b[:end+4])))
	if _, err := tp.ReadLine(); err != nil {
		return -1
	}
	h, err := tp.ReadMIMEHeader()
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(http.Header(h).Get("Content-Length"))
	if err != nil {
		return -1
	}
	return end + 4 + n
}

// TestBusyHelperProcess is not a test of its own: it is a busy process of
// TestKillRealBinaryDuringRefresh (PARTNERTUI_KILL_LOAD), spinning until
// it is killed.
func TestBusyHelperProcess(t *testing.T) {
	if os.Getenv("PARTNERTUI_BUSY_HELPER") == "" {
		t.Skip("runs only as a busy process of TestKillRealBinaryDuringRefresh")
	}
	for n := 0; ; n++ {
		if n < 0 {
			fmt.Println(n)
		}
	}
}

// startBusy runs n busy processes until the test ends.
func startBusy(t *testing.T, n int) {
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBusyHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PARTNERTUI_BUSY_HELPER=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
}

// envCount is the count in the environment variable name, else def.
func envCount(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q is not a count", name, v)
	}
	return n
}
