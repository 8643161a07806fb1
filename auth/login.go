package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cli/browser"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/partnertui/partnertui/internal/safetext"
	"golang.org/x/oauth2"
)

// DefaultLoginTimeout is the authorization code's lifetime: waiting longer
// cannot succeed.
const DefaultLoginTimeout = 10 * time.Minute

// LoginOptions tune one browser sign-in.
type LoginOptions struct {
	// NoBrowser: never open a browser or call Open. SSH_CONNECTION/SSH_TTY
	// imply it for the default opener only, not for a caller's Open.
	NoBrowser bool
	// ShowURL receives the authorization URL before any browser is opened.
	ShowURL func(url string)
	// Open opens the URL; nil means $BROWSER (a command given the URL as its
	// argument) when set, else github.com/cli/browser.
	// --demo's "approve as the demo user" passes an ApproveWithForms func.
	Open    func(ctx context.Context, url string) error
	Timeout time.Duration // default 10 minutes (the code lifetime)
	// FailOnOpenError ends the sign-in as soon as Open fails, instead of
	// waiting for the user to open the URL by hand: for automated Open
	// funcs such as ApproveWithForms, whose failure nobody can make up for.
	FailOnOpenError bool
	// Warn receives notes worth showing while waiting (a stray callback
	// with the wrong state, a browser that failed to open); nil drops them.
	// It is called from other goroutines, never after Login returns.
	Warn func(msg string)
}

// Identity is who signed in, from the verified id_token.
type Identity struct {
	Subject  string         // the user id (id_token sub)
	Claims   map[string]any // all verified claims
	Warnings []string       // e.g. the prefilled phoneNumber differs from the signed-in user's
}

// callbackResult ends the wait.
type callbackResult struct {
	id  *Identity
	err error
}

// Login runs the browser sign-in and saves the tokens before returning.
func (s *Session) Login(ctx context.Context, opts LoginOptions) (*Identity, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultLoginTimeout
	}
	// Warn runs on the callback and browser goroutines; it is muted once
	// Login returns so no note arrives after the caller moved on.
	var warnMu sync.Mutex
	warnOpen := true
	warn := func(msg string) {
		warnMu.Lock()
		defer warnMu.Unlock()
		if warnOpen && opts.Warn != nil {
			opts.Warn(msg)
		}
	}
	defer func() {
		warnMu.Lock()
		warnOpen = false
		warnMu.Unlock()
	}()
	// Resolve the secret first: a broken secret command should fail before
	// the user spends time in the browser.
	if _, err := s.clientSecret(ctx); err != nil {
		return nil, err
	}
	redirect, err := url.Parse(s.env.EffectiveRedirectURI())
	if err != nil || redirect.Hostname() != "127.0.0.1" {
		return nil, fmt.Errorf("redirect_uri %q of %s is not an http://127.0.0.1[:port]/path address", s.env.EffectiveRedirectURI(), s.envName)
	}
	port := redirect.Port()
	if port == "" {
		port = "0"
	}
	ln, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		return nil, &CallbackListenError{Addr: net.JoinHostPort("127.0.0.1", port), Err: err}
	}
	callbackPath := redirect.EscapedPath()
	if callbackPath == "" {
		callbackPath = "/"
	}
	redirectURL := (&url.URL{Scheme: "http", Host: ln.Addr().String(), Path: redirect.Path, RawPath: redirect.RawPath, RawQuery: redirect.RawQuery}).String()

	fl := &flow{
		s:            s,
		state:        randomToken(),
		nonce:        randomToken(),
		verifier:     oauth2.GenerateVerifier(),
		redirectURL:  redirectURL,
		callbackPath: callbackPath,
		results:      make(chan callbackResult, 1),
		warn:         warn,
	}
	authURL := s.AuthorizationURL(redirectURL, fl.state, fl.nonce, oauth2.S256ChallengeFromVerifier(fl.verifier))

	srv := &http.Server{
		Handler:           fl,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      TokenCallTimeout + 30*time.Second,
		IdleTimeout:       30 * time.Second,
		MaxHeaderBytes:    32 << 10,
	}
	go srv.Serve(ln)
	defer func() {
		shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutCtx)
	}()

	if opts.ShowURL != nil {
		opts.ShowURL(authURL)
	}
	waitCtx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	openErr := make(chan error, 1)
	// Over SSH a browser would open on the remote machine, if at all; a
	// caller-supplied Open (such as the demo's form filler) still runs.
	if !opts.NoBrowser && (opts.Open != nil || !IsSSH()) {
		open := opts.Open
		if open == nil {
			open = OpenBrowser
		}
		go func() {
			err := open(waitCtx, authURL)
			if err != nil && waitCtx.Err() == nil {
				warn(fmt.Sprintf("could not open a browser: %s", safetext.Truncate(err.Error(), 200)))
			}
			openErr <- err
		}()
	}
	var lastOpenErr error
	for {
		select {
		case r := <-fl.results:
			return r.id, r.err
		case err := <-openErr:
			lastOpenErr = err
			if err != nil && opts.FailOnOpenError {
				fl.finish()
				select {
				case r := <-fl.results:
					return r.id, r.err
				default:
				}
				return nil, &SignInError{Env: s.envName, Reason: "the automated sign-in failed", Err: sanitizeErr(err)}
			}
		case <-waitCtx.Done():
			// finish waits for an exchange in progress; a result that raced
			// the deadline still wins, since its tokens are already saved.
			fl.finish()
			select {
			case r := <-fl.results:
				return r.id, r.err
			default:
			}
			if ctx.Err() != nil {
				return nil, fmt.Errorf("sign-in to %s cancelled: %w", s.envName, ctx.Err())
			}
			reason := fmt.Sprintf("no answer from the browser within %s, after which the authorization code would have expired", opts.Timeout)
			if lastOpenErr != nil {
				reason += "; the browser could not be opened: " + safetext.Truncate(lastOpenErr.Error(), 200)
			}
			return nil, &SignInError{Env: s.envName, Reason: reason, Timeout: opts.Timeout}
		}
	}
}

// AuthorizationURL builds the spec 4.3 authorization URL. The query is
// encoded by hand because url.Values writes a space as '+', and the spec
// asks for scope=openid%20offline.
func (s *Session) AuthorizationURL(redirectURL, state, nonce, codeChallenge string) string {
	params := [][2]string{
		{"response_type", "code"},
		{"client_id", s.env.ClientID},
		{"redirect_uri", redirectURL},
		{"scope", "openid offline"},
		{"state", state},
		{"nonce", nonce},
		{"code_challenge", codeChallenge},
		{"code_challenge_method", "S256"},
	}
	if s.env.IdentificationLevel != "" {
		params = append(params, [2]string{"identificationLevel", s.env.IdentificationLevel})
	}
	keys := make([]string, 0, len(s.env.AuthParams))
	for k := range s.env.AuthParams {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s.env.AuthParams[k]
		if k == "phoneNumber" {
			v = strings.ReplaceAll(v, " ", "")
		}
		params = append(params, [2]string{k, v})
	}
	var b strings.Builder
	b.WriteString(s.env.AuthorizeURL())
	for i, p := range params {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(queryEscape(p[0]))
		b.WriteByte('=')
		b.WriteString(queryEscape(p[1]))
	}
	return b.String()
}

// queryEscape is url.QueryEscape with %20 for spaces; line breaks and other
// controls come out percent-encoded, so the URL holds no raw line break.
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// IsSSH reports whether we run in an SSH session, where a browser would open
// on the remote machine (or not at all).
func IsSSH() bool { return os.Getenv("SSH_CONNECTION") != "" || os.Getenv("SSH_TTY") != "" }

// OpenBrowser opens url with $BROWSER (a command that receives the URL as
// its argument; "%s" in it is replaced by the URL) when set, else with
// github.com/cli/browser. It waits for the command so a failure is seen.
func OpenBrowser(ctx context.Context, target string) error {
	if cmdline := strings.TrimSpace(os.Getenv("BROWSER")); cmdline != "" {
		// The Unix convention allows a colon-separated list; the first
		// entry is the preferred browser.
		first := strings.Split(cmdline, ":")[0]
		fields := strings.Fields(first)
		if len(fields) == 0 {
			return errors.New("$BROWSER is blank")
		}
		args := fields[1:]
		substituted := false
		for i, a := range args {
			if strings.Contains(a, "%s") {
				args[i] = strings.ReplaceAll(a, "%s", target)
				substituted = true
			}
		}
		if !substituted {
			args = append(args, target)
		}
		cmd := exec.CommandContext(ctx, fields[0], args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.WaitDelay = time.Second
		if err := cmd.Run(); err != nil {
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				return fmt.Errorf("$BROWSER command %s failed: %w: %s", fields[0], err, safetext.Truncate(lastLine(msg), 200))
			}
			return fmt.Errorf("$BROWSER command %s failed: %w", fields[0], err)
		}
		return nil
	}
	return browser.OpenURL(target)
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// CallbackParams is what the authorization server put on the redirect.
type CallbackParams struct {
	State            string
	Code             string
	Error            string
	ErrorDescription string
}

// ParseCallback reads a callback query string. Parameters that appear more
// than once are refused: a genuine redirect carries each one once.
func ParseCallback(rawQuery string) (CallbackParams, error) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return CallbackParams{}, fmt.Errorf("malformed callback query: %w", err)
	}
	get := func(k string) (string, error) {
		v := q[k]
		if len(v) > 1 {
			return "", fmt.Errorf("the callback carries %s more than once", k)
		}
		if len(v) == 0 {
			return "", nil
		}
		return v[0], nil
	}
	var p CallbackParams
	for _, f := range []struct {
		k   string
		dst *string
	}{{"state", &p.State}, {"code", &p.Code}, {"error", &p.Error}, {"error_description", &p.ErrorDescription}} {
		v, err := get(f.k)
		if err != nil {
			return CallbackParams{}, err
		}
		*f.dst = v
	}
	return p, nil
}

// flow is one sign-in's callback handler.
type flow struct {
	s            *Session
	state        string
	nonce        string
	verifier     string
	redirectURL  string
	callbackPath string
	warn         func(string)

	mu      sync.Mutex
	done    bool
	results chan callbackResult
}

// finish stops the handler from accepting anything more.
func (f *flow) finish() {
	f.mu.Lock()
	f.done = true
	f.mu.Unlock()
}

func (f *flow) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.EscapedPath() != f.callbackPath {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		page(w, http.StatusMethodNotAllowed, "Wrong request", "The sign-in callback only accepts GET.")
		return
	}
	p, err := ParseCallback(r.URL.RawQuery)
	if err != nil || subtle.ConstantTimeCompare([]byte(p.State), []byte(f.state)) != 1 {
		f.warn("ignored a sign-in callback whose state does not match this sign-in (an old tab or another program): still waiting")
		page(w, http.StatusBadRequest, "This sign-in link is not the current one",
			"partnertui is waiting for a different sign-in. Close this tab and use the link partnertui printed most recently.")
		return
	}
	// One callback wins; the exchange runs under the lock so a double
	// request cannot spend the single-use code twice.
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		page(w, http.StatusConflict, "Sign-in already handled", "This sign-in has already finished. You can close this tab.")
		return
	}
	switch {
	case p.Error != "":
		f.done = true
		err := &SignInError{Env: f.s.envName, Reason: "the authorization server ended the sign-in",
			Code: safetext.Truncate(p.Error, 60), Description: safetext.Truncate(p.ErrorDescription, 300)}
		if p.Error == "access_denied" {
			err.Reason = "access was denied in the browser"
		}
		page(w, http.StatusOK, "Sign-in not completed", "The sign-in was not completed: "+err.Code+". You can close this tab and return to the terminal.")
		f.results <- callbackResult{err: err}
	case p.Code == "":
		page(w, http.StatusBadRequest, "No authorization code", "The callback carries neither a code nor an error. partnertui is still waiting.")
	default:
		f.done = true
		id, err := f.s.completeLogin(p.Code, f.verifier, f.redirectURL, f.nonce)
		if err != nil {
			page(w, http.StatusOK, "Sign-in failed", "partnertui could not complete the sign-in. See the terminal for what to do next.")
		} else {
			page(w, http.StatusOK, "Signed in", "You are signed in to partnertui ("+f.s.envName+"). You can close this tab and return to the terminal.")
		}
		f.results <- callbackResult{id: id, err: err}
	}
}

func page(w http.ResponseWriter, status int, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body><h1>%s</h1><p>%s</p></body></html>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(body))
}

// completeLogin exchanges the code at once, saves the tokens, and only then
// checks who signed in.
func (s *Session) completeLogin(code, verifier, redirectURL, nonce string) (*Identity, error) {
	// Not the callback request's context, which would end if the browser
	// gave up: the code is single-use, so the exchange gets its own deadline.
	ctx, cancel := s.tokenCallContext()
	defer cancel()
	cfg, err := s.oauthConfig(ctx, redirectURL)
	if err != nil {
		return nil, err
	}
	tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return nil, newTokenEndpointError(s.envName, "authorization_code", re, s.now())
		}
		return nil, &TokenEndpointUnreachableError{Env: s.envName, Grant: "authorization_code", Err: sanitizeErr(err)}
	}
	if tok.AccessToken == "" {
		return nil, &SignInError{Env: s.envName, Reason: "the token endpoint returned no access token"}
	}
	saved := s.merge(nil, tok)
	unlock, err := s.lock(context.Background())
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Saved before anything else can fail: these tokens are the only copy.
	if err := s.store.write(saved); err != nil {
		return nil, fmt.Errorf("signed in, but the session could not be saved: %w", err)
	}
	s.store.removeStaleTemps()
	id, verr := s.verifyIdentity(ctx, saved.IDToken, nonce)
	if verr != nil {
		// The tokens are live, but we cannot say whose they are: nothing
		// is kept, and the refresh token is revoked best-effort.
		s.store.remove()
		if saved.RefreshToken != "" {
			s.revoke(ctx, saved.RefreshToken)
		}
		return nil, verr
	}
	if id.Subject != "" {
		saved.Subject = id.Subject
		if err := s.store.write(saved); err != nil {
			return nil, fmt.Errorf("signed in, but the session could not be saved: %w", err)
		}
	}
	s.userMu.Lock()
	s.userTok = saved
	s.userMu.Unlock()
	if prefilled := s.env.AuthParams["phoneNumber"]; prefilled != "" {
		actual, _ := id.Claims["phone_number"].(string)
		if PhoneMismatch(prefilled, actual) {
			id.Warnings = append(id.Warnings, fmt.Sprintf("the signed-in user's phone number (%s) is not the prefilled %s: a prefilled number does not prove who signs in", safetext.Truncate(orUnknown(actual), 40), safetext.Truncate(prefilled, 40)))
		}
	}
	return id, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// errNonceMismatch: the id_token was not issued for this sign-in.
var errNonceMismatch = errors.New("the id_token does not carry this sign-in's nonce, so it may be replayed")

// verifyIdentity checks the id_token against the server's published keys
// (issuer, audience, expiry, nonce). Without discovery it decodes the
// claims unverified and says so in a warning.
func (s *Session) verifyIdentity(ctx context.Context, rawIDToken, nonce string) (*Identity, error) {
	if rawIDToken == "" {
		return nil, &SignInError{Env: s.envName, Reason: "the token endpoint returned no id_token, so the signed-in user cannot be checked (the client may lack the openid scope)"}
	}
	d, err := s.discover(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot check who signed in: %w", err)
	}
	if d == nil || d.JWKSURI == "" {
		claims, err := unverifiedClaims(rawIDToken)
		if err != nil {
			return nil, err
		}
		sub, _ := claims["sub"].(string)
		if n, _ := claims["nonce"].(string); n != nonce {
			return nil, errNonceMismatch
		}
		return &Identity{Subject: sub, Claims: claims, Warnings: []string{
			"the authorization server publishes no OpenID configuration, so the id_token signature could not be verified",
		}}, nil
	}
	kctx := oidc.ClientContext(ctx, s.httpClient)
	keys := oidc.NewRemoteKeySet(kctx, d.JWKSURI)
	verifier := oidc.NewVerifier(d.Issuer, keys, &oidc.Config{ClientID: s.env.ClientID, SupportedSigningAlgs: d.Algorithms, Now: s.now})
	idt, err := verifier.Verify(kctx, rawIDToken)
	if err != nil {
		return nil, fmt.Errorf("the id_token could not be verified, so the signed-in user is unknown: %w", sanitizeErr(err))
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(nonce)) != 1 {
		return nil, errNonceMismatch
	}
	claims := map[string]any{}
	if err := idt.Claims(&claims); err != nil {
		return nil, fmt.Errorf("cannot decode the id_token claims: %w", err)
	}
	return &Identity{Subject: idt.Subject, Claims: claims}, nil
}

func unverifiedClaims(raw string) (map[string]any, error) {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return nil, errors.New("the id_token is not a JWT")
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, errors.New("the id_token payload is not base64url")
	}
	claims := map[string]any{}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return nil, errors.New("the id_token payload is not JSON")
	}
	return claims, nil
}

// PhoneMismatch reports whether the prefilled phone number differs from the
// signed-in user's (spaces, dots, dashes and brackets ignored). An unknown
// actual number counts as a mismatch: a prefill proves nothing about who
// signed in.
func PhoneMismatch(prefilled, actual string) bool {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch r {
			case ' ', '.', '-', '(', ')', '\u00a0', '\t':
				return -1
			}
			return r
		}, s)
	}
	p, a := norm(prefilled), norm(actual)
	if p == "" {
		return false
	}
	return p != a
}
