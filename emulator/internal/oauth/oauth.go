// Package oauth is the emulator's authorization server, built on
// github.com/ory/fosite (the engine of Ory Hydra): the sign-in forms, the
// token endpoint, revocation, OIDC discovery and JWKS.
package oauth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ory/fosite"
)

// Client is one registered OAuth client; its environment decides which
// token realm its tokens belong to.
type Client struct {
	ID           string
	Secret       string
	Env          string   // "sandbox" | "live"
	RedirectURIs []string // e.g. http://127.0.0.1/callback (any loopback port matches, RFC 8252)
	// AuthMethod is the client's token_endpoint_auth_method:
	// AuthSecretPost [default] or AuthSecretBasic. fosite refuses the
	// other one with invalid_client, naming the registered method.
	AuthMethod string
}

// Client authentication methods at the token endpoint (RFC 7591 §2).
const (
	AuthSecretPost  = "client_secret_post"
	AuthSecretBasic = "client_secret_basic"
)

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

	// SigningKey signs id_tokens (RS256); nil generates a fresh 2048-bit
	// key. Tests share one key because generating it costs ~100 ms.
	SigningKey *rsa.PrivateKey

	// OnRefreshRotated, if set, is called once a refresh_token grant has
	// rotated the refresh token (the old one is spent, the new one stored)
	// and before the response carrying the new one is written. ctx is the
	// token request's.
	OnRefreshRotated func(ctx context.Context, clientID, env string)
}

// TokenInfo is what an access token stands for.
type TokenInfo struct {
	Env      string // realm of the client that obtained it
	ClientID string
	Subject  string // user id; empty for a project token
	Project  bool   // client_credentials token
	Expiry   time.Time
}

// Environments, in the order Introspect tries them.
const (
	EnvSandbox = "sandbox"
	EnvLive    = "live"
)

// Defaults from the platform specification (§8).
const (
	DefaultTokenTTL = time.Hour
	DefaultCodeTTL  = 10 * time.Minute
)

// Sentinel errors; callers match them with errors.Is.
var (
	// ErrInvalidToken: the bearer token is missing, unknown, expired,
	// revoked or not an access token. The GraphQL side answers 401.
	ErrInvalidToken = errors.New("invalid access token")
	// ErrInvalidOptions: New was given options it cannot run with.
	ErrInvalidOptions = errors.New("invalid authorization-server options")
)

// Server is the authorization server.
type Server struct {
	issuer   string
	clients  map[string]Client
	realms   map[string]*realm
	users    Users
	tokenTTL time.Duration
	codeTTL  time.Duration
	key      *rsa.PrivateKey
	kid      string
	flows    *flowStore
	now      func() time.Time // sign-in flow clock; fosite itself reads time.Now
	handler  http.Handler
	rotated  func(ctx context.Context, clientID, env string) // nil: no hook
	methods  []string                                        // token_endpoint_auth_methods of the clients
}

// processKey is the id_token signing key of every server of the process
// that is given none, generated the first time one asks and never changed
// after: a 2048-bit key takes about 60 ms of CPU to generate, which every
// emulator a test binary starts (and --demo's) paid again. The servers are
// told apart by their issuers, which the clients check; nothing outlives
// the process.
var processKey = sync.OnceValues(func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) })

// New builds the server (RSA key, fosite provider, client store).
func New(opts Options) (*Server, error) {
	opts, err := normalise(opts)
	if err != nil {
		return nil, err
	}
	key := opts.SigningKey
	if key == nil {
		if key, err = processKey(); err != nil {
			return nil, fmt.Errorf("generate the id_token signing key: %w", err)
		}
	}
	sum := sha256.Sum256(key.PublicKey.N.Bytes())
	s := &Server{
		issuer:   opts.Issuer,
		clients:  make(map[string]Client, len(opts.Clients)),
		realms:   make(map[string]*realm, 2),
		users:    opts.Users,
		tokenTTL: opts.TokenTTL,
		codeTTL:  opts.CodeTTL,
		key:      key,
		kid:      "emulator-" + hex.EncodeToString(sum[:6]),
		flows:    newFlowStore(maxFlows),
		now:      time.Now,
		rotated:  opts.OnRefreshRotated,
	}
	for _, c := range opts.Clients {
		s.clients[c.ID] = c
		if !slices.Contains(s.methods, c.AuthMethod) {
			s.methods = append(s.methods, c.AuthMethod)
		}
	}
	for _, env := range []string{EnvSandbox, EnvLive} {
		r, err := newRealm(env, opts, key)
		if err != nil {
			return nil, err
		}
		s.realms[env] = r
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/oauth2/auth", s.serveAuthorize)
	mux.HandleFunc("/oauth2/token", s.serveToken)
	mux.HandleFunc("/oauth2/revoke", s.serveRevoke)
	mux.HandleFunc("/.well-known/openid-configuration", s.serveDiscovery)
	mux.HandleFunc("/.well-known/jwks.json", s.serveJWKS)
	s.handler = mux
	return s, nil
}

func normalise(opts Options) (Options, error) {
	opts.Issuer = strings.TrimRight(opts.Issuer, "/")
	u, err := url.Parse(opts.Issuer)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return opts, fmt.Errorf("issuer %q must be an absolute http(s) URL such as http://127.0.0.1:8080: %w", opts.Issuer, ErrInvalidOptions)
	}
	if opts.Users == nil {
		return opts, fmt.Errorf("a user directory (Options.Users) is required: %w", ErrInvalidOptions)
	}
	if len(opts.Clients) == 0 {
		return opts, fmt.Errorf("at least one client is required: %w", ErrInvalidOptions)
	}
	seen := make(map[string]bool, len(opts.Clients))
	for i := range opts.Clients {
		if opts.Clients[i].AuthMethod == "" {
			opts.Clients[i].AuthMethod = AuthSecretPost
		}
	}
	for _, c := range opts.Clients {
		switch {
		case c.AuthMethod != AuthSecretPost && c.AuthMethod != AuthSecretBasic:
			return opts, fmt.Errorf("client %s has token auth method %q; use %q or %q: %w", c.ID, c.AuthMethod, AuthSecretPost, AuthSecretBasic, ErrInvalidOptions)
		case c.ID == "":
			return opts, fmt.Errorf("a client has an empty ID: %w", ErrInvalidOptions)
		case seen[c.ID]:
			return opts, fmt.Errorf("client %s is registered twice: %w", c.ID, ErrInvalidOptions)
		case c.Secret == "":
			return opts, fmt.Errorf("client %s has an empty secret: %w", c.ID, ErrInvalidOptions)
		case c.Env != EnvSandbox && c.Env != EnvLive:
			return opts, fmt.Errorf("client %s has environment %q; use %q or %q: %w", c.ID, c.Env, EnvSandbox, EnvLive, ErrInvalidOptions)
		case len(c.RedirectURIs) == 0:
			return opts, fmt.Errorf("client %s has no redirect URI: %w", c.ID, ErrInvalidOptions)
		}
		for _, ru := range c.RedirectURIs {
			if u, err := url.Parse(ru); err != nil || !u.IsAbs() || u.Fragment != "" {
				return opts, fmt.Errorf("client %s has redirect URI %q, which is not an absolute URL without fragment: %w", c.ID, ru, ErrInvalidOptions)
			}
		}
		seen[c.ID] = true
	}
	var ttlErr error
	opts.TokenTTL, ttlErr = ttl("TokenTTL", opts.TokenTTL, DefaultTokenTTL)
	if ttlErr != nil {
		return opts, ttlErr
	}
	opts.CodeTTL, ttlErr = ttl("CodeTTL", opts.CodeTTL, DefaultCodeTTL)
	return opts, ttlErr
}

// ttl applies the default and refuses sub-second lifetimes: fosite rounds
// expiries to whole seconds, so 300ms would become an already-expired token
// with expires_in 0, which clients read as "never expires".
func ttl(name string, d, def time.Duration) (time.Duration, error) {
	if d == 0 {
		return def, nil
	}
	if d < time.Second {
		return 0, fmt.Errorf("%s %s is shorter than one second; use at least 1s: %w", name, d, ErrInvalidOptions)
	}
	return d, nil
}

// Handler serves /oauth2/auth, /oauth2/token, /oauth2/revoke,
// /.well-known/openid-configuration and /.well-known/jwks.json.
func (s *Server) Handler() http.Handler { return s.handler }

// Introspect validates an access token (signature, expiry, revocation) and
// says what it stands for; any failure is an error (the caller answers 401).
func (s *Server) Introspect(ctx context.Context, token string) (TokenInfo, error) {
	if token == "" {
		return TokenInfo{}, fmt.Errorf("no access token was presented; sign in or request a project token first: %w", ErrInvalidToken)
	}
	if len(token) > maxTokenLen {
		return TokenInfo{}, fmt.Errorf("the access token is too long to be one of ours; sign in again: %w", ErrInvalidToken)
	}
	expired := false
	for _, env := range []string{EnvSandbox, EnvLive} {
		rl := s.realms[env]
		use, ar, err := rl.provider.IntrospectToken(ctx, token, fosite.AccessToken, emptySession(s.kid))
		if err != nil {
			if errors.Is(err, fosite.ErrTokenExpired) {
				expired = true
			}
			continue
		}
		// A refresh token also introspects; it is not a bearer credential.
		if use != fosite.AccessToken || ar == nil || ar.GetClient() == nil || ar.GetSession() == nil {
			continue
		}
		sess := ar.GetSession()
		subject := sess.GetSubject()
		return TokenInfo{
			Env:      env,
			ClientID: ar.GetClient().GetID(),
			Subject:  subject,
			Project:  subject == "",
			Expiry:   sess.GetExpiresAt(fosite.AccessToken),
		}, nil
	}
	if expired {
		return TokenInfo{}, fmt.Errorf("the access token has expired; refresh it or sign in again: %w", ErrInvalidToken)
	}
	return TokenInfo{}, fmt.Errorf("the access token is unknown, revoked or from another environment; sign in again: %w", ErrInvalidToken)
}

// realmOf returns the realm of a registered client.
func (s *Server) realmOf(clientID string) (*realm, Client, bool) {
	c, ok := s.clients[clientID]
	if !ok {
		return nil, Client{}, false
	}
	return s.realms[c.Env], c, true
}
