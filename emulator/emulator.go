// Package emulator is an in-process emulation of the whole platform: the
// OAuth 2.0 / OpenID Connect authorization server and the Sandbox, Sandbox
// Testing and Live GraphQL endpoints, faithful to the platform
// specification. It imports nothing from auth, api or ui, so a client bug
// cannot hide behind a matching emulator bug.
package emulator

import (
	"context"
	"io"
	"time"
)

// Options configure an emulator; zero values take the defaults in brackets.
type Options struct {
	Listen     string        // [127.0.0.1:0]
	Accounts   int           // accounts to generate [120], up to 100,000
	Seed       int64         // data seed [1]
	RateLimit  int           // requests per RateWindow per client IP per endpoint [2000]
	RateWindow time.Duration // [5m]
	TokenTTL   time.Duration // access-token lifetime [1h]
	CodeTTL    time.Duration // authorization-code lifetime [10m]
	RequestLog io.Writer     // one JSON line per request (no tokens); nil for none
}

// EnvInfo is what a client needs to use one environment of the emulator.
type EnvInfo struct {
	ClientID          string `json:"client_id"`
	ClientSecret      string `json:"client_secret"`
	RedirectURI       string `json:"redirect_uri"`
	GraphQLURL        string `json:"graphql_url"`
	TestingGraphQLURL string `json:"testing_graphql_url,omitempty"`
}

// DemoUser is a user who can sign in on the emulator's forms.
type DemoUser struct {
	Phone     string `json:"phone"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	UserID    string `json:"user_id"`
	Env       string `json:"env"`
}

// Info is printed by `partnertui emulator` (one JSON line with --json).
type Info struct {
	APIURL       string             `json:"api_url"`
	AuthURL      string             `json:"auth_url"`
	Environments map[string]EnvInfo `json:"environments"` // "sandbox", "live"
	DemoUsers    []DemoUser         `json:"demo_users"`
}

// Server is a running emulator.
type Server struct{}

// Start listens on opts.Listen and serves until ctx is done or Close is
// called.
func Start(ctx context.Context, opts Options) (*Server, error) {
	panic("implemented by the emulator owner")
}

// Info returns the URLs and demo credentials.
func (s *Server) Info() Info { panic("implemented by the emulator owner") }

// Close stops the listener and waits for in-flight requests.
func (s *Server) Close() error { panic("implemented by the emulator owner") }
