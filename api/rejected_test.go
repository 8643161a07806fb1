package api

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"

	"golang.org/x/oauth2"
)

// rotatingSource hands out "old" until told the token was rejected, then
// "new", as auth.Session does when another process rotated the session.
type rotatingSource struct {
	mu       sync.Mutex
	rejected []string
	rotated  bool
	stuck    bool // never has anything newer
}

func (s *rotatingSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok := "old-token"
	if s.rotated && !s.stuck {
		tok = "new-token"
	}
	return &oauth2.Token{AccessToken: tok, TokenType: "Bearer"}, nil
}

func (s *rotatingSource) reject(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rejected = append(s.rejected, tok)
	s.rotated = true
}

func onlyNewToken(t *testing.T, sent *[]string, mu *sync.Mutex) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		decodeReq(t, r)
		mu.Lock()
		*sent = append(*sent, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer new-token" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"token revoked","extensions":{"code":"UNAUTHENTICATED"}}]}`))
			return
		}
		writeJSON200(w, accountsPage(0, 1, 1))
	})
}

func TestUnauthorizedRetriesOnceWithARotatedToken(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		sent []string
	)
	src := &rotatingSource{}
	c, _, _ := newTestClient(t, onlyNewToken(t, &sent, &mu), func(o *Options) {
		o.TokenSource = src
		o.OnUnauthorized = src.reject
	})
	page, err := c.Accounts(context.Background(), AccountsParams{First: 1})
	if err != nil {
		t.Fatalf("Accounts after another process rotated the token: %v", err)
	}
	if len(page.Items) != 1 {
		t.Fatalf("got %d accounts, want 1", len(page.Items))
	}
	if len(src.rejected) != 1 || src.rejected[0] != "old-token" {
		t.Errorf("rejected tokens %q, want exactly the old one", src.rejected)
	}
	if len(sent) != 2 || sent[0] != "Bearer old-token" || sent[1] != "Bearer new-token" {
		t.Errorf("sent %q, want the old token then the new one", sent)
	}
	if s := c.Status(); s.Used != 2 || s.LastStatus != http.StatusOK || s.InFlight != 0 {
		t.Errorf("status = %+v, want both sends counted against the budget", s)
	}
}

func TestUnauthorizedWithNothingNewerIsReported(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		sent []string
	)
	src := &rotatingSource{stuck: true}
	c, _, _ := newTestClient(t, onlyNewToken(t, &sent, &mu), func(o *Options) {
		o.TokenSource = src
		o.OnUnauthorized = src.reject
	})
	_, err := c.Accounts(context.Background(), AccountsParams{First: 1})
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	if len(sent) != 1 {
		t.Errorf("sent %d requests, want 1: the same token is never re-sent", len(sent))
	}
}
