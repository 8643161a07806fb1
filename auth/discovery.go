package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/partnertui/partnertui/internal/safetext"
)

// discovery is the part of the authorization server's OpenID configuration
// partnertui uses: the issuer and keys that verify an id_token (login.go),
// and the revocation endpoint of sign-out (session.go).
type discovery struct {
	Issuer             string   `json:"issuer"`
	JWKSURI            string   `json:"jwks_uri"`
	RevocationEndpoint string   `json:"revocation_endpoint"`
	Algorithms         []string `json:"id_token_signing_alg_values_supported"`
}

// discover fetches {auth_url}/.well-known/openid-configuration once per
// session. (nil, nil) means the server publishes none: verification and
// revocation then fall back to their documented defaults.
func (s *Session) discover(ctx context.Context) (*discovery, error) {
	s.discMu.Lock()
	defer s.discMu.Unlock()
	if s.discDone {
		return s.discDoc, nil
	}
	ctx, cancel := context.WithTimeout(ctx, TokenCallTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.env.Issuer()+"/.well-known/openid-configuration", nil)
	if err != nil {
		return nil, fmt.Errorf("bad auth_url: %w", err)
	}
	resp, err := s.httpClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot fetch the OpenID configuration: %w", sanitizeErr(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		s.discDone = true
		return nil, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the OpenID configuration answered HTTP %d", resp.StatusCode)
	}
	var d discovery
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&d); err != nil {
		return nil, fmt.Errorf("the OpenID configuration is not valid JSON: %w", err)
	}
	if strings.TrimRight(d.Issuer, "/") != s.env.Issuer() {
		return nil, fmt.Errorf("the OpenID configuration names issuer %q, not the configured auth_url %q", safetext.Truncate(d.Issuer, 100), s.env.Issuer())
	}
	s.discDoc, s.discDone = &d, true
	return &d, nil
}
