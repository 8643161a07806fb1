package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
	"golang.org/x/oauth2"
)

// DefaultLoginTimeout is the authorization code's lifetime: waiting longer
// cannot succeed.
const DefaultLoginTimeout = 10 * time.Minute

// LoginOptions tune one browser sign-in.
type LoginOptions struct {
	// NoBrowser: never open a browser or call Open.
	NoBrowser bool
	// ShowURL receives, before any browser is opened, what the user needs
	// to finish the sign-in: the URL, the callback port, whether this is a
	// headless session (then the ssh -L command too), and Paste for the
	// redirected address. It is called once, on Login's goroutine, and
	// must not block.
	ShowURL func(SignInPrompt)
	// Open opens the URL; nil means $BROWSER (a command given the URL as its
	// argument) when set, with or without a display, else the system's
	// opener when there is a display; nothing over SSH, where a browser
	// would not reach the user. A caller's Open runs in any session:
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
	// Getenv reads SSH_CONNECTION, SSH_TTY, DISPLAY, WAYLAND_DISPLAY,
	// BROWSER and USER; nil means os.Getenv.
	Getenv func(string) string
}

// SignInPrompt is what the user needs to finish one sign-in.
type SignInPrompt struct {
	Env          string
	URL          string // the authorization URL to open
	CallbackPort int    // the port the callback listens on, on 127.0.0.1 (redirect_uri's, or a random one)
	// Headless: a browser started here would not reach the user's screen
	// (SSH, or no display). The URL must be opened on another computer,
	// with SSHForward running there or the redirected address pasted back.
	Headless bool
	// Opening: a browser is being opened for the user (Open, $BROWSER or
	// the system's opener). When false the user has to open URL.
	Opening bool
	// SSHForward, when Headless, is the command to run on the computer
	// with the browser so its redirect reaches the callback here, e.g.
	// "ssh -N -L 43123:127.0.0.1:43123 alice@203.0.113.7".
	SSHForward string

	paste func(string) error
}

// Paste hands in the address the browser was sent to after the user
// approved (copied from its address bar when the callback cannot be
// reached, as over SSH without a forward). It runs the same state check
// and code exchange as the callback, and the first of the two to bring a
// code wins. It returns nil once signed in (Login then returns the
// identity); a *PasteError when the text was refused, while Login keeps
// waiting; ErrSignInFinished when the sign-in had already ended; any other
// error ended the sign-in, and Login returns it too. Safe to call from any
// goroutine, also after Login returned.
func (p SignInPrompt) Paste(redirected string) error {
	if p.paste == nil {
		return ErrSignInFinished
	}
	return p.paste(redirected)
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
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	warn, mute := muteOnReturn(opts.Warn)
	defer mute()
	// Resolve the secret first: a broken secret command should fail before
	// the user spends time in the browser.
	if _, err := s.clientSecret(ctx); err != nil {
		return nil, err
	}
	cb, err := s.listenCallback()
	if err != nil {
		return nil, err
	}
	fl := &flow{
		s:            s,
		state:        randomToken(),
		nonce:        randomToken(),
		verifier:     oauth2.GenerateVerifier(),
		redirectURL:  cb.redirectURL,
		callbackPath: cb.path,
		results:      make(chan callbackResult, 1),
		warn:         warn,
	}
	// A paste that comes after Login returned is told so.
	defer fl.finish()
	defer serveCallback(cb.ln, fl)()

	authURL := s.AuthorizationURL(cb.redirectURL, fl.state, fl.nonce, oauth2.S256ChallengeFromVerifier(fl.verifier))
	isHeadless := headless(getenv, runtime.GOOS)
	open := browserOpener(opts, getenv)
	callbackPort := cb.ln.Addr().(*net.TCPAddr).Port
	prompt := SignInPrompt{Env: s.envName, URL: authURL, CallbackPort: callbackPort, Headless: isHeadless, Opening: open != nil, paste: fl.paste}
	if isHeadless {
		prompt.SSHForward = SSHForwardCommand(callbackPort, getenv)
	}
	if opts.ShowURL != nil {
		opts.ShowURL(prompt)
	}
	waitCtx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	openErr := make(chan error, 1)
	if open != nil {
		go func() {
			err := open(waitCtx, authURL)
			if err != nil && waitCtx.Err() == nil {
				warn(fmt.Sprintf("could not open a browser: %s", safetext.Truncate(err.Error(), 200)))
			}
			openErr <- err
		}()
	}
	return s.awaitSignIn(ctx, waitCtx, fl, openErr, opts)
}

// muteOnReturn wraps Warn, which runs on the callback and browser
// goroutines, so that calling mute (when Login returns) silences it: no
// note arrives after the caller moved on.
func muteOnReturn(warnTo func(string)) (warn func(string), mute func()) {
	var mu sync.Mutex
	open := true
	warn = func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if open && warnTo != nil {
			warnTo(msg)
		}
	}
	mute = func() {
		mu.Lock()
		open = false
		mu.Unlock()
	}
	return warn, mute
}

// callback is the loopback listener the browser's redirect comes back to.
type callback struct {
	ln          net.Listener
	redirectURL string // redirect_uri with the port actually listened on
	path        string // the escaped path the redirect arrives on
}

// listenCallback listens on 127.0.0.1 at redirect_uri's port, or a random
// one when it names none (the server accepts any port on a loopback IP,
// RFC 8252).
func (s *Session) listenCallback() (*callback, error) {
	redirect, err := url.Parse(s.env.EffectiveRedirectURI())
	if err != nil || redirect.Hostname() != "127.0.0.1" {
		return nil, fmt.Errorf("redirect_uri %q of %s is not an http://127.0.0.1[:port]/path address", s.env.EffectiveRedirectURI(), platform.EnvTitle(s.envName))
	}
	port := redirect.Port()
	if port == "" {
		port = "0"
	}
	ln, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		return nil, &CallbackListenError{Addr: net.JoinHostPort("127.0.0.1", port), Err: err}
	}
	path := redirect.EscapedPath()
	if path == "" {
		path = "/"
	}
	redirectURL := (&url.URL{Scheme: "http", Host: ln.Addr().String(), Path: redirect.Path, RawPath: redirect.RawPath, RawQuery: redirect.RawQuery}).String()
	return &callback{ln: ln, redirectURL: redirectURL, path: path}, nil
}

// serveCallback serves fl on ln, with timeouts that bound a slow or
// hostile client, until the returned stop is called.
func serveCallback(ln net.Listener, fl *flow) (stop func()) {
	srv := &http.Server{
		Handler:           fl,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      TokenCallTimeout + 30*time.Second,
		IdleTimeout:       30 * time.Second,
		MaxHeaderBytes:    32 << 10,
	}
	go srv.Serve(ln)
	return func() {
		shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutCtx)
	}
}

// browserOpener is what opens the sign-in page: the caller's Open, else
// $BROWSER or the system's opener as defaultOpener decides; nil when
// nothing is to be opened.
func browserOpener(opts LoginOptions, getenv func(string) string) func(context.Context, string) error {
	if opts.NoBrowser {
		return nil
	}
	if opts.Open != nil {
		return opts.Open
	}
	return defaultOpener(getenv, runtime.GOOS)
}

// awaitSignIn waits for the first of: the callback's or a paste's result,
// a failed automated Open (with FailOnOpenError), the timeout (waitCtx) or
// ctx's cancellation. An exchange that ended meanwhile wins over the
// other two, since its tokens are saved.
func (s *Session) awaitSignIn(ctx, waitCtx context.Context, fl *flow, openErr <-chan error, opts LoginOptions) (*Identity, error) {
	var lastOpenErr error
	for {
		select {
		case r := <-fl.results:
			return r.id, r.err
		case err := <-openErr:
			lastOpenErr = err
			if err != nil && opts.FailOnOpenError {
				if r, ok := fl.end(); ok {
					return r.id, r.err
				}
				return nil, &SignInError{Env: s.envName, Reason: "the automated sign-in failed", Err: sanitizeErr(err)}
			}
		case <-waitCtx.Done():
			if r, ok := fl.end(); ok {
				return r.id, r.err
			}
			if ctx.Err() != nil {
				return nil, fmt.Errorf("sign-in to %s cancelled: %w", platform.EnvTitle(s.envName), ctx.Err())
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

// finish stops the flow from accepting anything more.
func (f *flow) finish() {
	f.mu.Lock()
	f.done = true
	f.mu.Unlock()
}

// end finishes the flow and returns the result of an exchange that ended
// meanwhile, if any: finish waits for an exchange in progress, and its
// result wins over whatever ended the wait, since its tokens are saved.
func (f *flow) end() (callbackResult, bool) {
	f.finish()
	select {
	case r := <-f.results:
		return r, true
	default:
		return callbackResult{}, false
	}
}

// delivery is what became of one redirect.
type delivery int

const (
	deliveredWrongState delivery = iota // another sign-in's redirect (or a forgery): ignored
	deliveredTooLate                    // the sign-in had already ended
	deliveredNoCode                     // neither a code nor an error: ignored
	deliveredResult                     // the sign-in ended with the result
)

// deliver takes one redirect, from the loopback callback or pasted by the
// user: the state check, then, for the first redirect that carries a code
// or an error, the code exchange, which ends the sign-in. The exchange
// runs under the lock so two redirects cannot spend the single-use code
// twice.
func (f *flow) deliver(p CallbackParams) (delivery, callbackResult) {
	if subtle.ConstantTimeCompare([]byte(p.State), []byte(f.state)) != 1 {
		return deliveredWrongState, callbackResult{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return deliveredTooLate, callbackResult{}
	}
	var r callbackResult
	switch {
	case p.Error != "":
		err := &SignInError{Env: f.s.envName, Reason: "the authorization server ended the sign-in",
			Code: safetext.Truncate(p.Error, 60), Description: safetext.Truncate(p.ErrorDescription, 300)}
		if p.Error == "access_denied" {
			err.Reason = "access was denied in the browser"
		}
		r.err = err
	case p.Code == "":
		return deliveredNoCode, callbackResult{}
	default:
		r.id, r.err = f.s.completeLogin(p.Code, f.verifier, f.redirectURL, f.nonce)
	}
	f.done = true
	f.results <- r
	return deliveredResult, r
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
	what := deliveredWrongState
	var res callbackResult
	if err == nil {
		what, res = f.deliver(p)
	}
	switch what {
	case deliveredWrongState:
		f.warn("ignored a sign-in callback whose state does not match this sign-in (an old tab or another program): still waiting")
		page(w, http.StatusBadRequest, "This sign-in link is not the current one",
			"partnertui is waiting for a different sign-in. Close this tab and use the link partnertui printed most recently.")
	case deliveredTooLate:
		page(w, http.StatusConflict, "Sign-in already handled", "This sign-in has already finished. You can close this tab.")
	case deliveredNoCode:
		page(w, http.StatusBadRequest, "No authorization code", "The callback carries neither a code nor an error. partnertui is still waiting.")
	case deliveredResult:
		var se *SignInError
		switch {
		case res.err == nil:
			page(w, http.StatusOK, "Signed in", "You are signed in to partnertui ("+f.s.envName+"). You can close this tab and return to the terminal.")
		case p.Error != "" && errors.As(res.err, &se):
			page(w, http.StatusOK, "Sign-in not completed", "The sign-in was not completed: "+se.Code+". You can close this tab and return to the terminal.")
		default:
			page(w, http.StatusOK, "Sign-in failed", "partnertui could not complete the sign-in. See the terminal for what to do next.")
		}
	}
}

// ErrSignInFinished reports that a redirected address was pasted after the
// sign-in had already ended (signed in through the callback, timed out or
// cancelled).
var ErrSignInFinished = errors.New("the sign-in has already finished")

// PasteError reports that a pasted address was refused; the sign-in keeps
// waiting for the callback or a better paste.
type PasteError struct {
	Reason string
}

func (e *PasteError) Error() string { return "the pasted address was not used: " + e.Reason }

// maxPasted bounds a pasted address: a real redirect is a few hundred bytes.
const maxPasted = 8 << 10

// paste is SignInPrompt.Paste.
func (f *flow) paste(text string) error {
	p, err := parsePasted(text)
	if err != nil {
		return err
	}
	what, res := f.deliver(p)
	switch what {
	case deliveredWrongState:
		return &PasteError{Reason: "it belongs to another sign-in (its state is not this one's): paste the address reached from the link shown most recently"}
	case deliveredTooLate:
		return ErrSignInFinished
	case deliveredNoCode:
		return &PasteError{Reason: "it carries neither an authorization code nor an error"}
	}
	return res.err
}

// parsePasted reads the callback parameters out of what the user pasted:
// the whole redirected address, or just its query.
func parsePasted(text string) (CallbackParams, error) {
	s := strings.Trim(strings.TrimSpace(text), "<>\"'")
	switch {
	case s == "":
		return CallbackParams{}, &PasteError{Reason: "nothing was pasted"}
	case len(s) > maxPasted:
		return CallbackParams{}, &PasteError{Reason: fmt.Sprintf("it is longer (%d bytes) than any address the browser is sent back to", len(s))}
	}
	query := s
	if i := strings.IndexByte(s, '?'); i >= 0 {
		query = s[i+1:]
	}
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query = query[:i]
	}
	q, err := url.ParseQuery(query)
	if err != nil || q.Get("state") == "" {
		return CallbackParams{}, &PasteError{Reason: "it is not the address the browser was sent back to, which looks like http://127.0.0.1:PORT/callback?code=…&state=…"}
	}
	if q.Has("response_type") || q.Has("code_challenge") {
		return CallbackParams{}, &PasteError{Reason: "this is the sign-in link itself: open it in a browser, approve, then paste the address the browser lands on"}
	}
	p, err := ParseCallback(query)
	if err != nil {
		return CallbackParams{}, &PasteError{Reason: safetext.Truncate(err.Error(), 120)}
	}
	return p, nil
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
		return nil, s.tokenCallError("authorization_code", err)
	}
	if tok.AccessToken == "" {
		return nil, &SignInError{Env: s.envName, Reason: "the token endpoint returned no access token"}
	}
	saved := s.merge(tok)
	// userMu before the file lock, as userToken takes them.
	s.userMu.Lock()
	defer s.userMu.Unlock()
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
	s.userTok = saved
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
// (issuer, audience, expiry, nonce). A server that publishes no keys gets
// the same checks from go-oidc but the signature's, and a warning that
// says so.
func (s *Session) verifyIdentity(ctx context.Context, rawIDToken, nonce string) (*Identity, error) {
	if rawIDToken == "" {
		return nil, &SignInError{Env: s.envName, Reason: "the token endpoint returned no id_token, so the signed-in user cannot be checked (the client may lack the openid scope)"}
	}
	d, err := s.discover(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot check who signed in: %w", err)
	}
	kctx := oidc.ClientContext(ctx, s.httpClient)
	var verifier *oidc.IDTokenVerifier
	var warnings []string
	if d == nil || d.JWKSURI == "" {
		issuer := s.env.Issuer()
		if d != nil {
			issuer = d.Issuer
		}
		verifier = oidc.NewVerifier(issuer, nil, &oidc.Config{ClientID: s.env.ClientID, SupportedSigningAlgs: unsignedAlgs(), InsecureSkipSignatureCheck: true, Now: s.now})
		warnings = append(warnings, "the authorization server publishes no OpenID configuration with signing keys, so the id_token signature could not be verified (its issuer, audience, expiry and nonce were)")
	} else {
		keys := oidc.NewRemoteKeySet(kctx, d.JWKSURI)
		verifier = oidc.NewVerifier(d.Issuer, keys, &oidc.Config{ClientID: s.env.ClientID, SupportedSigningAlgs: d.Algorithms, Now: s.now})
	}
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
	return &Identity{Subject: idt.Subject, Claims: claims, Warnings: warnings}, nil
}

// unsignedAlgs are the algorithms an id_token may name when its signature
// cannot be checked anyway: go-oidc still has to parse it.
func unsignedAlgs() []string {
	return []string{oidc.RS256, oidc.RS384, oidc.RS512, oidc.ES256, oidc.ES384, oidc.ES512, oidc.PS256, oidc.PS384, oidc.PS512, oidc.EdDSA}
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
