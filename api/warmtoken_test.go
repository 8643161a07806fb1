package api

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"golang.org/x/oauth2"
)

// countingSource counts the tokens asked of it; err, when set, is every
// answer.
type countingSource struct {
	calls atomic.Int32
	err   error
}

func (s *countingSource) Token() (*oauth2.Token, error) {
	s.calls.Add(1)
	if s.err != nil {
		return nil, s.err
	}
	return &oauth2.Token{AccessToken: secretToken, TokenType: "Bearer"}, nil
}

// WarmToken asks the token source once and sends no request; a source's
// failure comes back wrapped, never a token.
func TestWarmTokenAsksTheSourceOnly(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	src := &countingSource{}
	c, _, _ := newTestClient(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { requests.Add(1) }),
		func(o *Options) { o.TokenSource = src })
	if err := c.WarmToken(); err != nil {
		t.Fatalf("WarmToken: %v", err)
	}
	if n, r := src.calls.Load(), requests.Load(); n != 1 || r != 0 {
		t.Fatalf("WarmToken asked the source %d times and sent %d requests, want 1 and 0", n, r)
	}

	refused := errors.New("invalid_client")
	c, _, _ = newTestClient(t, http.NotFoundHandler(), func(o *Options) { o.TokenSource = &countingSource{err: refused} })
	if err := c.WarmToken(); !errors.Is(err, refused) {
		t.Fatalf("WarmToken = %v, want the source's error", err)
	}
}
