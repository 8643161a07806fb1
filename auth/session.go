// Package auth signs users in through their browser (authorization code +
// PKCE + state on a 127.0.0.1 loopback callback), obtains project tokens
// (client credentials), and keeps tokens in a store that never loses a
// single-use refresh token, even with several processes running.
package auth

import (
	"context"
	"net/http"
	"time"

	"github.com/partnertui/partnertui/config"
	"golang.org/x/oauth2"
)

// SessionOptions configure one environment's Session.
type SessionOptions struct {
	Env *config.Environment
	// StateDir holds the token files and locks; "" means
	// $XDG_STATE_HOME/partnertui. --demo passes a temporary directory.
	StateDir string
	// HTTPClient is used for token-endpoint, discovery and revocation calls;
	// nil means a client with sane timeouts.
	HTTPClient *http.Client
	Now        func() time.Time // clock; default time.Now
}

// Session is one environment's sign-in state: its token store entry, its
// persisting token source and its project token source.
type Session struct{}

// NewSession builds the Session for one environment. It does no I/O beyond
// creating the state directory.
func NewSession(opts SessionOptions) (*Session, error) { panic("implemented by the auth owner") }

// LoginOptions tune one browser sign-in.
type LoginOptions struct {
	NoBrowser bool // never open a browser (also implied by SSH_CONNECTION/SSH_TTY)
	// ShowURL receives the authorization URL before any browser is opened.
	ShowURL func(url string)
	// Open opens the URL; nil means github.com/cli/browser (honours $BROWSER).
	// --demo's "approve as the demo user" passes an ApproveWithForms func.
	Open    func(ctx context.Context, url string) error
	Timeout time.Duration // default 10 minutes (the code lifetime)
}

// Identity is who signed in, from the verified id_token.
type Identity struct {
	Subject  string         // the user id (id_token sub)
	Claims   map[string]any // all verified claims
	Warnings []string       // e.g. the prefilled phoneNumber differs from the signed-in user's
}

// Login runs the browser sign-in and saves the tokens before returning.
func (s *Session) Login(ctx context.Context, opts LoginOptions) (*Identity, error) {
	panic("implemented by the auth owner")
}

// TokenSource is the persisting user-token source (refresh under a
// cross-process lock, new refresh token on disk before it is used). It is
// built on a background context, never a request-scoped one.
func (s *Session) TokenSource() oauth2.TokenSource { panic("implemented by the auth owner") }

// ProjectTokenSource is the client-credentials token source (kept until 60 s
// before expiry).
func (s *Session) ProjectTokenSource() oauth2.TokenSource { panic("implemented by the auth owner") }

// APITokenSource is what API calls should use: ProjectTokenSource when the
// environment's token setting is "project" (or --project), else TokenSource.
func (s *Session) APITokenSource() oauth2.TokenSource { panic("implemented by the auth owner") }

// SignedIn reports whether a stored session exists (offline check).
func (s *Session) SignedIn() bool { panic("implemented by the auth owner") }

// StatusInfo describes the stored session, offline.
type StatusInfo struct {
	Env           string    `json:"env"`
	ClientID      string    `json:"client_id"`
	SignedIn      bool      `json:"signed_in"`
	Subject       string    `json:"subject,omitempty"`
	AccessExpiry  time.Time `json:"access_token_expiry,omitzero"`
	HasRefresh    bool      `json:"has_refresh_token"`
	StorePath     string    `json:"store_path"`
	UsesProjectID bool      `json:"project_token"`
}

// Status reads the store (no network).
func (s *Session) Status() (*StatusInfo, error) { panic("implemented by the auth owner") }

// Logout revokes the refresh token when the server offers /oauth2/revoke,
// then deletes the stored session even if revocation failed.
func (s *Session) Logout(ctx context.Context) error { panic("implemented by the auth owner") }

// ApproveWithForms returns a LoginOptions.Open func that plays the browser on
// the emulator's server-rendered sign-in forms: it enters phone, reads the
// 6-digit code shown on the page, enters it, presses Approve (or Deny when
// deny is true) and follows the redirect to the loopback callback.
func ApproveWithForms(client *http.Client, phone string, deny bool) func(ctx context.Context, url string) error {
	panic("implemented by the auth owner")
}
