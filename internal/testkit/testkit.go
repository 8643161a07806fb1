// Package testkit holds the fixtures the client's tests share, each
// defined once: an in-process emulator started for one test, its
// environments and demo users, a configuration file for its clients and
// its request log. Its sub-packages hold the rest of the kit: clock (the
// fake clock), teacmd (the synchronous command runner), signin (sessions
// signed in as the demo users), apptest (environments built through
// internal/app, as the binary builds them) and consent (a payment's
// consent, given by hand).
//
// testkit imports only the emulator and config, so the tests of every
// client package but config can use it. Only tests import it.
package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
)

// Emulator is an in-process emulator serving one test.
type Emulator struct {
	Info   emulator.Info
	Server *emulator.Server // nil when the test wraps an emulator of its own
	// Log is every request the emulator served, unless the test gave its
	// own Options.RequestLog.
	Log *RequestLog
}

// StartEmulator starts an emulator with opts on a random loopback port and
// closes it when the test ends. Unless opts has a signing key, it signs
// id_tokens with the one key every emulator of the test binary shares
// (emulatortest.SigningKey): generating a key is most of what starting
// an emulator costs.
func StartEmulator(t testing.TB, opts emulator.Options) *Emulator {
	t.Helper()
	if opts.SigningKey == nil {
		opts.SigningKey = emulatortest.SigningKey()
	}
	e := &Emulator{}
	if opts.RequestLog == nil {
		e.Log = &RequestLog{}
		opts.RequestLog = e.Log
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := emulator.Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("emulator.Start: %v", err)
	}
	t.Cleanup(func() {
		srv.Close()
		cancel()
	})
	e.Info, e.Server = srv.Info(), srv
	return e
}

// Env is the configuration of the emulator's client for the environment
// name, as a configuration file would give it (token unset: the user's).
func (e *Emulator) Env(t testing.TB, name config.EnvName) *config.Environment {
	t.Helper()
	ei, ok := e.Info.Environments[string(name)]
	if !ok {
		t.Fatalf("the emulator has no %s environment", name)
	}
	return &config.Environment{Name: name, APIURL: e.Info.APIURL, AuthURL: e.Info.AuthURL, ClientID: ei.ClientID,
		ClientSecret: ei.ClientSecret, RedirectURI: ei.RedirectURI}
}

// DemoUser is the first demo user of the environment name: the one
// --demo signs in.
func (e *Emulator) DemoUser(t testing.TB, name config.EnvName) emulator.DemoUser {
	t.Helper()
	for _, u := range e.Info.DemoUsers {
		if u.Env == string(name) {
			return u
		}
	}
	t.Fatalf("the emulator lists no %s demo user", name)
	return emulator.DemoUser{}
}

// Config is what WriteConfig puts in a configuration file.
type Config struct {
	// Envs are the environments given a table; nil means Sandbox only.
	Envs []config.EnvName
	// Token is each table's token setting ("user" or "project"); ""
	// leaves it out.
	Token string
	// SecretEnv, with one environment, is the variable client_secret_env
	// names instead of the secret written in the file. WriteConfig does
	// not set it (the test's process is shared by tests running in
	// parallel): the test gives the processes it starts SecretVar.
	SecretEnv string
	// Secret is written instead of the client's secret (a wrong one).
	Secret string
	// APIURL is written instead of the emulator's (an unreachable one).
	APIURL string
	// AuthURL is written instead of the emulator's (a proxy in front of
	// it).
	AuthURL string
	// PageSize is each table's page_size; 0 leaves it out.
	PageSize int
}

// SecretVar is "NAME=secret" for a process started with a configuration
// that WriteConfig wrote with c.SecretEnv: the variable that carries the
// client's secret for the one environment c names.
func (e *Emulator) SecretVar(t testing.TB, c Config) string {
	t.Helper()
	name := config.Sandbox
	if len(c.Envs) == 1 {
		name = c.Envs[0]
	}
	if c.SecretEnv == "" {
		t.Fatal("SecretVar: the configuration names no variable (Config.SecretEnv)")
	}
	return c.SecretEnv + "=" + e.Env(t, name).ClientSecret
}

// WriteConfig writes a configuration file (mode 0600) at path for the
// emulator's clients.
func (e *Emulator) WriteConfig(t testing.TB, path string, c Config) {
	t.Helper()
	envs := c.Envs
	if envs == nil {
		envs = []config.EnvName{config.Sandbox}
	}
	if c.SecretEnv != "" && len(envs) != 1 {
		t.Fatalf("WriteConfig: SecretEnv names one variable, for one environment, not %v", envs)
	}
	var b strings.Builder
	for _, name := range envs {
		env := e.Env(t, name)
		apiURL := env.APIURL
		if c.APIURL != "" {
			apiURL = c.APIURL
		}
		authURL := env.AuthURL
		if c.AuthURL != "" {
			authURL = c.AuthURL
		}
		fmt.Fprintf(&b, "[%s]\napi_url = %q\nauth_url = %q\nclient_id = %q\n", name, apiURL, authURL, env.ClientID)
		switch {
		case c.SecretEnv != "":
			fmt.Fprintf(&b, "client_secret_env = %q\n", c.SecretEnv)
		case c.Secret != "":
			fmt.Fprintf(&b, "client_secret = %q\n", c.Secret)
		default:
			fmt.Fprintf(&b, "client_secret = %q\n", env.ClientSecret)
		}
		if c.Token != "" {
			fmt.Fprintf(&b, "token = %q\n", c.Token)
		}
		if c.PageSize != 0 {
			fmt.Fprintf(&b, "page_size = %d\n", c.PageSize)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// RequestLog collects an emulator's request log (one JSON line a request,
// never a token) and answers what reached the emulator. It is safe for the
// emulator's goroutines and the test's.
type RequestLog struct {
	mu      sync.Mutex
	partial []byte    // the start of a line whose end has not been written
	reqs    []Request // every line read, in order
	bad     []string  // lines that are not JSON
}

// Request is what a line of the log says about one request.
type Request struct {
	Endpoint  string          `json:"endpoint"`
	Status    int             `json:"status"`
	Operation string          `json:"operation_name"`
	Query     string          `json:"operation"` // the GraphQL document
	Variables json.RawMessage `json:"variables"` // secrets redacted
	GrantType string          `json:"grant_type"`
}

// Write takes lines of the log; each is read once, as it completes.
func (l *RequestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := bytes.TrimSpace(l.partial[:i])
		l.partial = l.partial[i+1:]
		if len(line) == 0 {
			continue
		}
		var r Request
		if err := json.Unmarshal(line, &r); err != nil {
			l.bad = append(l.bad, string(line))
			continue
		}
		l.reqs = append(l.reqs, r)
	}
}

// Requests are the requests logged so far, in order; a line that was not
// JSON fails the test.
func (l *RequestLog) Requests(t testing.TB) []Request {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.bad) > 0 {
		t.Fatalf("request log line is not JSON: %q", l.bad[0])
	}
	return append([]Request(nil), l.reqs...)
}

// Count is how many requests went to an endpoint ending in endpoint, with
// the token grant type grant ("" for any).
func (l *RequestLog) Count(t testing.TB, endpoint, grant string) int {
	t.Helper()
	n := 0
	for _, r := range l.Requests(t) {
		if strings.HasSuffix(r.Endpoint, endpoint) && (grant == "" || r.GrantType == grant) {
			n++
		}
	}
	return n
}

// Refreshes is how many refresh-token grants reached the token endpoint:
// the number the single-use refresh token's guards keep at one.
func (l *RequestLog) Refreshes(t testing.TB) int {
	t.Helper()
	return l.Count(t, "/oauth2/token", "refresh_token")
}

// Operations are the names of the GraphQL operations served, in order.
func (l *RequestLog) Operations(t testing.TB) []string {
	t.Helper()
	var ops []string
	for _, r := range l.Requests(t) {
		if strings.Contains(r.Endpoint, "graphql") {
			ops = append(ops, r.Operation)
		}
	}
	return ops
}

// UnusedPort is a port of 127.0.0.1 nothing listens on: for an address
// that must not answer, or a fixed port a test listens on itself later. It
// is taken outside the systems' ranges of ephemeral ports (32768–60999 on
// Linux, 49152–65535 elsewhere), which every outgoing connection and every
// listener on port 0 draws from: the tests running meanwhile make many,
// and one of them could otherwise take the port before the test uses it.
func UnusedPort(t testing.TB) int {
	t.Helper()
	for range 100 {
		port := 20000 + rand.IntN(12000)
		ln, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			ln.Close()
			return port
		}
	}
	t.Fatal("no unused port of 127.0.0.1 between 20000 and 32000")
	return 0
}
