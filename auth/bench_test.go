package auth

import (
	"context"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// BenchmarkTokenCached is the cost every API call pays: a fresh token from
// memory, no file or network access.
func BenchmarkTokenCached(b *testing.B) {
	f := newFakeAS(b)
	s, err := NewSession(SessionOptions{Env: f.env(config.Sandbox), StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Login(context.Background(), LoginOptions{Open: f.approve, Timeout: 10 * time.Second}); err != nil {
		b.Fatal(err)
	}
	ts := s.TokenSource()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ts.Token(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTokenFromStore is a process's first call: read and check the
// file (another process's fresh token), no refresh.
func BenchmarkTokenFromStore(b *testing.B) {
	f := newFakeAS(b)
	dir := b.TempDir()
	s, _ := NewSession(SessionOptions{Env: f.env(config.Sandbox), StateDir: dir})
	if _, err := s.Login(context.Background(), LoginOptions{Open: f.approve, Timeout: 10 * time.Second}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		fresh, _ := NewSession(SessionOptions{Env: f.env(config.Sandbox), StateDir: dir})
		if _, err := fresh.TokenSource().Token(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefresh is one full locked refresh against a local fake server:
// lock, re-read, token call, atomic write with fsync.
func BenchmarkRefresh(b *testing.B) {
	f := newFakeAS(b)
	clk := clock.New(time.Now())
	s, _ := NewSession(SessionOptions{Env: f.env(config.Sandbox), StateDir: b.TempDir(), Now: clk.Now})
	if _, err := s.Login(context.Background(), LoginOptions{Open: f.approve, Timeout: 10 * time.Second}); err != nil {
		b.Fatal(err)
	}
	ts := s.TokenSource()
	for b.Loop() {
		clk.Advance(2 * time.Hour)
		if _, err := ts.Token(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAuthorizationURL(b *testing.B) {
	env := &config.Environment{Name: config.Sandbox, ClientID: "SANDBOX_x", ClientSecret: "s",
		AuthParams: map[string]string{"phoneNumber": "+33612345678", "email": "a@b.c", "firstName": "Zoé"}}
	s, _ := NewSession(SessionOptions{Env: env, StateDir: b.TempDir()})
	b.ReportAllocs()
	for b.Loop() {
		s.AuthorizationURL("http://127.0.0.1:5555/callback", "state", "nonce", "challenge")
	}
}
