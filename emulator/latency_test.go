package emulator

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
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
