package oauth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/compose"
	"github.com/ory/fosite/handler/openid"
	"github.com/ory/fosite/storage"
	"github.com/ory/fosite/token/jwt"
)

// Grant types and scopes the emulator supports; anything else is refused.
const (
	grantAuthorizationCode = "authorization_code"
	grantRefreshToken      = "refresh_token"
	grantClientCredentials = "client_credentials"

	scopeOpenID  = "openid"
	scopeOffline = "offline"
)

// bcryptCost keeps client-secret hashing cheap: the secrets are demo values
// printed on the console, so a slow hash would only slow every token call.
const bcryptCost = 4

// realm is one environment's token authority. Each realm has its own fosite
// provider, store and HMAC secret, so a token minted in one realm is neither
// signed nor stored in the other and cannot be confused across environments.
type realm struct {
	env      string
	provider fosite.OAuth2Provider
	store    *codeStore
}

// codeStore is fosite's memory store with one fix: fosite's memory store
// does not hydrate the session passed to GetAuthorizeCodeSession, so an
// expired code slips through the first expiry check and is reported later as
// invalid_request. Copying the stored session in lets fosite see the expiry
// where it answers invalid_grant, as RFC 6749 §5.2 requires.
type codeStore struct {
	*storage.MemoryStore
}

func (s *codeStore) GetAuthorizeCodeSession(ctx context.Context, code string, session fosite.Session) (fosite.Requester, error) {
	req, err := s.MemoryStore.GetAuthorizeCodeSession(ctx, code, session)
	if err == nil && req != nil {
		hydrate(session, req.GetSession())
	}
	return req, err
}

func hydrate(dst, src fosite.Session) {
	d, ok := dst.(*openid.DefaultSession)
	if !ok || d == nil {
		return
	}
	s, ok := src.(*openid.DefaultSession)
	if !ok || s == nil || s == d {
		return
	}
	if c, ok := s.Clone().(*openid.DefaultSession); ok && c != nil {
		*d = *c
	}
}

func newRealm(env string, opts Options, key *rsa.PrivateKey) (*realm, error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("generate the %s token secret: %w", env, err)
	}
	cfg := &fosite.Config{
		AccessTokenLifespan:   opts.TokenTTL,
		AuthorizeCodeLifespan: opts.CodeTTL,
		// -1: refresh tokens never expire by time (spec §3); they die by use.
		RefreshTokenLifespan: -1,
		IDTokenLifespan:      opts.TokenTTL,
		IDTokenIssuer:        opts.Issuer,
		AccessTokenIssuer:    opts.Issuer,
		GlobalSecret:         secret,
		HashCost:             bcryptCost,
		RefreshTokenScopes:   []string{scopeOffline},
		ScopeStrategy:        fosite.ExactScopeStrategy,
		// Sign-in is always interactive, so prompt=none is refused before
		// fosite sees it (see validateAuthorize).
		AllowedPromptValues: allowedPrompts,
		// fosite's getters fill these two on first use, which races when
		// the first token requests arrive together: set them here.
		AudienceMatchingStrategy: fosite.DefaultAudienceMatchingStrategy,
		JWKSFetcherStrategy:      fosite.NewDefaultJWKSFetcherStrategy(),
	}
	store := &codeStore{MemoryStore: storage.NewMemoryStore()}
	hasher := &fosite.BCrypt{Config: cfg}
	cfg.ClientSecretsHasher = hasher
	for _, c := range opts.Clients {
		if c.Env != env {
			continue
		}
		hash, err := hasher.Hash(context.Background(), []byte(c.Secret))
		if err != nil {
			return nil, fmt.Errorf("hash the secret of client %s: %w", c.ID, err)
		}
		store.Clients[c.ID] = &fosite.DefaultOpenIDConnectClient{
			DefaultClient: &fosite.DefaultClient{
				ID:            c.ID,
				Secret:        hash,
				RedirectURIs:  append([]string(nil), c.RedirectURIs...),
				GrantTypes:    []string{grantAuthorizationCode, grantRefreshToken, grantClientCredentials},
				ResponseTypes: []string{"code"},
				Scopes:        []string{scopeOpenID, scopeOffline},
			},
			TokenEndpointAuthMethod: c.AuthMethod,
		}
	}
	keyGetter := func(context.Context) (interface{}, error) { return key, nil }
	strategy := &compose.CommonStrategy{
		CoreStrategy:               compose.NewOAuth2HMACStrategy(cfg),
		OpenIDConnectTokenStrategy: compose.NewOpenIDConnectStrategy(keyGetter, cfg),
		Signer:                     &jwt.DefaultSigner{GetPrivateKey: keyGetter},
	}
	// Only the flows the platform offers: no implicit, hybrid, password,
	// JWT-bearer or pushed requests.
	provider := compose.Compose(cfg, store, strategy,
		compose.OAuth2AuthorizeExplicitFactory,
		compose.OAuth2ClientCredentialsGrantFactory,
		compose.OAuth2RefreshTokenGrantFactory,
		compose.OpenIDConnectExplicitFactory,
		compose.OpenIDConnectRefreshFactory,
		compose.OAuth2TokenIntrospectionFactory,
		compose.OAuth2TokenRevocationFactory,
		compose.OAuth2PKCEFactory,
	)
	return &realm{env: env, provider: provider, store: store}, nil
}

// fositeClient returns the registered client as fosite sees it.
func (r *realm) fositeClient(id string) (fosite.Client, bool) {
	c, err := r.store.GetClient(context.Background(), id)
	if err != nil {
		return nil, false
	}
	return c, true
}

// userSession is the session a signed-in user's tokens carry; its claims
// become the id_token.
func userSession(issuer, kid, userID, phone string, requestedAt, authTime time.Time) *openid.DefaultSession {
	return &openid.DefaultSession{
		Subject: userID,
		Claims: &jwt.IDTokenClaims{
			Issuer:      issuer,
			Subject:     userID,
			RequestedAt: requestedAt,
			AuthTime:    authTime,
			Extra: map[string]interface{}{
				"phone_number":          phone,
				"phone_number_verified": true,
			},
		},
		Headers: &jwt.Headers{Extra: map[string]interface{}{"kid": kid}},
	}
}

// emptySession is what fosite fills from storage on token and
// introspection requests; a client_credentials token keeps it empty (no
// subject), which is how a project token is recognised.
func emptySession(kid string) *openid.DefaultSession {
	return &openid.DefaultSession{
		Claims:  &jwt.IDTokenClaims{},
		Headers: &jwt.Headers{Extra: map[string]interface{}{"kid": kid}},
	}
}
