package oauth

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"

	"github.com/ory/fosite"
)

// serveToken is /oauth2/token: authorization_code, refresh_token and
// client_credentials, each client with its registered authentication
// method. Errors are fosite's RFC 6749 JSON with Cache-Control: no-store.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w)
		return
	}
	ctx := r.Context()
	rl, ok := s.realmForPost(w, r)
	if !ok {
		return
	}
	req, err := rl.provider.NewAccessRequest(ctx, r, emptySession(s.kid))
	if err != nil {
		rl.provider.WriteAccessError(ctx, w, req, err)
		return
	}
	// A project token carries no scope (the response says "scope":""), so
	// asking for one is a client mistake worth reporting.
	if req.GetGrantTypes().ExactOne(grantClientCredentials) && len(req.GetRequestedScopes()) > 0 {
		rl.provider.WriteAccessError(ctx, w, req, fosite.ErrInvalidScope.WithHint("A client_credentials (project) token has no scope; omit the 'scope' parameter."))
		return
	}
	resp, err := rl.provider.NewAccessResponse(ctx, req)
	if err != nil {
		rl.provider.WriteAccessError(ctx, w, req, err)
		return
	}
	// fosite derives expires_in from the rounded expiry and can say 3599;
	// the spec's response says the lifetime itself.
	resp.SetExpiresIn(s.tokenTTL)
	resp.SetScopes(req.GetGrantedScopes())
	// NewAccessResponse has spent the old refresh token and stored the new
	// one: the rotation happened, whether or not the client ever reads the
	// answer.
	if s.rotated != nil && req.GetGrantTypes().ExactOne(grantRefreshToken) {
		s.rotated(ctx, req.GetClient().GetID(), rl.env)
	}
	rl.provider.WriteAccessResponse(ctx, w, req, resp)
}

// serveRevoke is /oauth2/revoke (RFC 7009). fosite revokes every token of
// the grant, so revoking a refresh token ends the whole sign-in.
func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w)
		return
	}
	rl, ok := s.realmForPost(w, r)
	if !ok {
		return
	}
	rl.provider.WriteRevocationResponse(r.Context(), w, rl.provider.NewRevocationRequest(r.Context(), r))
}

// realmForPost reads the bounded form and picks the realm of the client it
// names. An unknown client still goes through a realm, whose fosite answers
// invalid_client like any unknown client.
func (s *Server) realmForPost(w http.ResponseWriter, r *http.Request) (*realm, bool) {
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenBody)
	if err := r.ParseMultipartForm(maxTokenBody); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		rl := s.realms[EnvSandbox]
		rl.provider.WriteAccessError(r.Context(), w, fosite.NewAccessRequest(emptySession(s.kid)),
			fosite.ErrInvalidRequest.WithHint("The body could not be read; send application/x-www-form-urlencoded fields under 64 KiB."))
		return nil, false
	}
	id := r.PostForm.Get("client_id")
	if id == "" {
		id, _, _ = r.BasicAuth()
	}
	if rl, _, ok := s.realmOf(id); ok {
		return rl, true
	}
	return s.realms[EnvSandbox], true
}

func methodNotAllowed(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Allow", http.MethodPost)
	h.Set("Content-Type", "application/json;charset=UTF-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusMethodNotAllowed)
	_, _ = w.Write([]byte(`{"error":"invalid_request","error_description":"This endpoint accepts POST with form fields only."}`))
}

// serveDiscovery is the OpenID Provider metadata (OIDC Discovery 1.0 §3).
func (s *Server) serveDiscovery(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Use GET for the discovery document.", http.StatusMethodNotAllowed)
		return
	}
	writeJSON(w, map[string]any{
		"issuer":                                     s.issuer,
		"authorization_endpoint":                     s.issuer + authPath,
		"token_endpoint":                             s.issuer + "/oauth2/token",
		"revocation_endpoint":                        s.issuer + "/oauth2/revoke",
		"jwks_uri":                                   s.issuer + "/.well-known/jwks.json",
		"response_types_supported":                   []string{"code"},
		"response_modes_supported":                   []string{"query"},
		"grant_types_supported":                      []string{grantAuthorizationCode, grantRefreshToken, grantClientCredentials},
		"subject_types_supported":                    []string{"public"},
		"id_token_signing_alg_values_supported":      []string{"RS256"},
		"code_challenge_methods_supported":           []string{"S256"},
		"token_endpoint_auth_methods_supported":      s.methods,
		"revocation_endpoint_auth_methods_supported": s.methods,
		"scopes_supported":                           []string{scopeOpenID, scopeOffline},
		"claims_supported":                           []string{"sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "phone_number", "phone_number_verified"},
		"prompt_values_supported":                    []string{"login", "consent", "select_account"},
		"request_parameter_supported":                false,
		"request_uri_parameter_supported":            false,
		"claims_parameter_supported":                 false,
	})
}

// serveJWKS publishes the id_token verification key (RFC 7517).
func (s *Server) serveJWKS(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Use GET for the key set.", http.StatusMethodNotAllowed)
		return
	}
	pub := s.key.PublicKey
	writeJSON(w, map[string]any{"keys": []map[string]string{{
		"kty": "RSA",
		"use": "sig",
		"alg": "RS256",
		"kid": s.kid,
		"n":   base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e":   base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}})
}

func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "The document could not be encoded; try again.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
