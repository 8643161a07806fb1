package emulator

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sleepLog records the waits the latency asks for instead of waiting.
type sleepLog struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepLog) sleep(_ context.Context, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
}

// take returns the waits since the last take.
func (s *sleepLog) take() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.waits
	s.waits = nil
	return w
}

// With a latency every answer, OAuth and GraphQL alike, waits it once,
// and the first answer of each connection twice (the handshake).
func TestLatencyDelaysEveryAnswerAndNewConnectionsMore(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	const d = 100 * time.Millisecond // recorded, never waited
	var rec sleepLog
	srv, err := Start(t.Context(), Options{Accounts: 5, Latency: d, sleep: rec.sleep, SigningKey: key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	info := srv.Info()
	sb := info.Environments["sandbox"]
	newClient := func() *http.Client {
		tr := &http.Transport{}
		t.Cleanup(tr.CloseIdleConnections)
		return &http.Client{Transport: tr, Timeout: 10 * time.Second}
	}
	send := func(c *http.Client, method, target, contentType, body string) string {
		t.Helper()
		req, err := http.NewRequest(method, target, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body) // read whole, so the connection is reused
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %s %v", method, target, resp.StatusCode, b, err)
		}
		return string(b)
	}
	expect := func(step string, want ...time.Duration) {
		t.Helper()
		if got := rec.take(); !slices.Equal(got, want) {
			t.Fatalf("%s: waits %v, want %v", step, got, want)
		}
	}

	first := newClient()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {sb.ClientID}, "client_secret": {sb.ClientSecret}}.Encode()
	tok := send(first, http.MethodPost, info.AuthURL+"/oauth2/token", "application/x-www-form-urlencoded", form)
	expect("a new connection's token request", 2*d)
	send(first, http.MethodGet, info.AuthURL+"/.well-known/openid-configuration", "", "")
	expect("discovery on the same connection", d)
	access := tok[strings.Index(tok, `"access_token":"`)+len(`"access_token":"`):]
	access = access[:strings.IndexByte(access, '"')]
	req := func(c *http.Client) {
		t.Helper()
		r, err := http.NewRequest(http.MethodPost, sb.GraphQLURL, strings.NewReader(`{"query": "{ projectInfo { id } }"}`))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+access)
		resp, err := c.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if _, err := io.ReadAll(resp.Body); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GraphQL: %d %v", resp.StatusCode, err)
		}
	}
	req(first)
	expect("GraphQL on the same connection", d)
	req(newClient())
	expect("GraphQL on a new connection", 2*d)
}

// Without a latency nothing waits and the handler is the middleware itself.
func TestNoLatencyAddsNothing(t *testing.T) {
	t.Parallel()
	h := http.NewServeMux()
	if got := withLatency(Options{}, h); got != http.Handler(h) {
		t.Fatal("a zero latency wrapped the handler")
	}
}

// A client that goes away is not waited for: the wait ends with its
// request's context (a wait of an hour would otherwise hang the test).
func TestLatencyWaitEndsWithTheRequest(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sleepCtx(ctx, time.Hour)
}

// logLines hands each line of the request log to a channel, so a test
// waits for the line it expects instead of sleeping.
type logLines chan string

func (l logLines) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		l <- line
	}
	return len(p), nil
}

// A client that leaves while its answer is on the way (here: during the
// latency's wait, which it ends) is logged 499, the nginx status for a
// request its client closed, never 400 as if it had sent a bad request;
// a client that stays is logged with the answer's own status.
func TestRequestAbandonedByItsClientIsLogged499(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	lines := make(logLines, 4)
	waiting := make(chan struct{}, 1)
	var leave atomic.Bool
	sleep := func(ctx context.Context, _ time.Duration) {
		if !leave.Load() {
			return
		}
		waiting <- struct{}{}
		// net/http ends ctx only once the body is read: the latency
		// must read it before its wait for this to return.
		<-ctx.Done()
	}
	srv, err := Start(t.Context(), Options{Accounts: 5, Latency: time.Hour, sleep: sleep, SigningKey: key, RequestLog: lines})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr}
	post := func(ctx context.Context) (*http.Response, error) {
		r, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.Info().Environments["sandbox"].GraphQLURL,
			strings.NewReader(`{"query": "{ projectInfo { id } }"}`))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		return client.Do(r)
	}
	status := func(line string) int {
		t.Helper()
		var e logEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if e.Endpoint != "/sandbox-partner/graphql" || e.Operation == "" {
			t.Errorf("the log line does not name the endpoint and operation: %s", line)
		}
		return e.Status
	}

	resp, err := post(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := status(<-lines); got != resp.StatusCode || got != http.StatusUnauthorized {
		t.Fatalf("a request answered %d (no token) was logged %d", resp.StatusCode, got)
	}

	leave.Store(true)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := post(ctx)
		done <- err
	}()
	<-waiting
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the abandoned request returned %v", err)
	}
	if got := status(<-lines); got != statusClientClosed {
		t.Fatalf("a request its client abandoned was logged %d, want %d", got, statusClientClosed)
	}
}
