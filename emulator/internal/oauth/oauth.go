// Package oauth is the emulator's authorization server, built on
// github.com/ory/fosite (the engine of Ory Hydra): the sign-in forms, the
// token endpoint, revocation, OIDC discovery and JWKS.
package oauth

import (
	"context"
	"net/http"
	"time"
)

// Client is one registered OAuth client; its environment decides which
// token realm its tokens belong to.
type Client struct {
	ID           string
	Secret       string
	Env          string   // "sandbox" | "live"
	RedirectURIs []string // e.g. http://127.0.0.1/callback (any loopback port matches, RFC 8252)
}

// Users is the emulator's user directory, owned by the data side.
type Users interface {
	// SignIn returns the id of the user with this phone in env, creating a
	// user with no accounts when none has it.
	SignIn(env, phone string) (userID string)
	// Phone returns the user's phone number in env.
	Phone(env, userID string) (phone string, ok bool)
}

// Options configure the authorization server.
type Options struct {
	Issuer   string // http://127.0.0.1:PORT (no trailing slash)
	Clients  []Client
	Users    Users
	TokenTTL time.Duration // access-token lifetime [1h]
	CodeTTL  time.Duration // authorization-code lifetime [10m]
}

// TokenInfo is what an access token stands for.
type TokenInfo struct {
	Env      string // realm of the client that obtained it
	ClientID string
	Subject  string // user id; empty for a project token
	Project  bool   // client_credentials token
	Expiry   time.Time
}

// Server is the authorization server.
type Server struct{}

// New builds the server (RSA key, fosite provider, client store).
func New(opts Options) (*Server, error) { panic("implemented by the oauth owner") }

// Handler serves /oauth2/auth, /oauth2/token, /oauth2/revoke,
// /.well-known/openid-configuration and /.well-known/jwks.json.
func (s *Server) Handler() http.Handler { panic("implemented by the oauth owner") }

// Introspect validates an access token (signature, expiry, revocation) and
// says what it stands for; any failure is an error (the caller answers 401).
func (s *Server) Introspect(ctx context.Context, token string) (TokenInfo, error) {
	panic("implemented by the oauth owner")
}
