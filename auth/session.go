// Package auth signs users in through their browser (authorization code +
// PKCE + state on a 127.0.0.1 loopback callback), obtains project tokens
// (client credentials), and keeps tokens in a store that never loses a
// single-use refresh token, even with several processes running.
package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/platform"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Default timings; SessionOptions can shorten them for tests.
const (
	// RefreshMargin: a token with less than this left is refreshed first.
	RefreshMargin = 60 * time.Second
	// TokenCallTimeout bounds every token-endpoint call on its own context.
	TokenCallTimeout = 30 * time.Second
	// DefaultLockTimeout bounds the wait for another process's refresh or
	// sign-in to release the session lock.
	DefaultLockTimeout = 2 * time.Minute
)

// SessionOptions configure one environment's Session.
type SessionOptions struct {
	Env *config.Environment
	// StateDir holds the token files and locks (the app's state directory, or a
	// temporary directory for --demo). Required.
	StateDir string
	// HTTPClient is used for token-endpoint, discovery and revocation calls;
	// nil means a client with sane timeouts.
	HTTPClient *http.Client
	Now        func() time.Time // clock; default time.Now
	// Project forces the project token for API calls (--project), whatever
	// the environment's token setting.
	Project bool
	// LockTimeout bounds the wait for the cross-process lock; default 2 min.
	LockTimeout time.Duration
	// OnRefresh, when set, hears each step of each refresh of the user
	// session, in order, as it is reached (PARTNERTUI_DEBUG=auth prints
	// them). It runs between the steps, so it must return quickly; a
	// test may stop there to kill the process at that step.
	OnRefresh func(RefreshEvent)
}

// RefreshStep is a step of a refresh that spends the single-use refresh
// token.
type RefreshStep string

// The steps of a refresh, in order.
const (
	// RefreshSending: the journal is open and the request leaves. From
	// here until RefreshAnswered a kill can lose the session: the server
	// may rotate the refresh token while its answer is on the wire.
	RefreshSending RefreshStep = "sending"
	// RefreshAnswered: the answer's last byte is in the journal. From
	// here on a kill loses nothing: the next run recovers the new token.
	RefreshAnswered RefreshStep = "answered"
	// RefreshParsed: the answer is parsed into the new token.
	RefreshParsed RefreshStep = "parsed"
	// RefreshWritten: the new token file is written and synced, next to
	// the old one.
	RefreshWritten RefreshStep = "written"
	// RefreshSaved: the new token file has replaced the old one.
	RefreshSaved RefreshStep = "saved"
	// RefreshDone: the journal is removed.
	RefreshDone RefreshStep = "done"
)

// RefreshEvent is one step of a refresh and when it was reached, on the
// real clock; for RefreshAnswered, when the answer's last byte reached the
// journal.
type RefreshEvent struct {
	Env  string
	Step RefreshStep
	At   time.Time
}

// Session is one environment's sign-in state: its token store entry, its
// persisting token source and its project token source.
type Session struct {
	env         *config.Environment
	envName     string
	store       *store // the user session
	projStore   *store // the project token
	httpClient  *http.Client
	now         func() time.Time
	project     bool
	lockTimeout time.Duration
	onRefresh   func(RefreshEvent)

	secretMu sync.Mutex
	secret   string

	// userMu makes refreshes single-flight inside the process; the file
	// lock does the same across processes. Lock order: userMu, then
	// projMu, then the file lock; never the other way round.
	userMu       sync.Mutex
	userTok      *storedToken
	userRejected string // an access token the API refused; never handed out again
	projMu       sync.Mutex
	projTok      *storedToken
	projRejected string
	discMu       sync.Mutex
	discDoc      *discovery
	discDone     bool
}

// NewSession builds the Session for one environment. It does no I/O beyond
// creating the state directory.
func NewSession(opts SessionOptions) (*Session, error) {
	if opts.Env == nil {
		return nil, errors.New("auth.NewSession needs an environment: pass the sandbox or live settings from the configuration")
	}
	env := *opts.Env
	if env.Name == "" {
		env.Name = config.Sandbox
	}
	if err := env.Ready(); err != nil {
		return nil, err
	}
	dir := opts.StateDir
	if dir == "" {
		return nil, errors.New("auth.NewSession needs a state directory for the token files")
	}
	if err := paths.EnsureDir(dir); err != nil {
		return nil, err
	}
	s := &Session{
		env:         &env,
		envName:     string(env.Name),
		store:       newStore(dir, string(env.Name), env.ClientID, env.Issuer(), kindUser),
		projStore:   newStore(dir, string(env.Name), env.ClientID, env.Issuer(), kindProject),
		httpClient:  opts.HTTPClient,
		now:         opts.Now,
		project:     opts.Project,
		lockTimeout: opts.LockTimeout,
		onRefresh:   opts.OnRefresh,
	}
	if s.httpClient == nil {
		s.httpClient = defaultHTTPClient()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.lockTimeout <= 0 {
		s.lockTimeout = DefaultLockTimeout
	}
	return s, nil
}

func defaultHTTPClient() *http.Client {
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: TokenCallTimeout,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   4,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{Transport: tr, Timeout: TokenCallTimeout + 5*time.Second}
}

// StorePath is the file holding this environment's session.
func (s *Session) StorePath() string { return s.store.path }

// Env is the environment this session belongs to.
func (s *Session) Env() config.EnvName { return s.env.Name }

func (s *Session) clientSecret(ctx context.Context) (string, error) {
	s.secretMu.Lock()
	defer s.secretMu.Unlock()
	if s.secret != "" {
		return s.secret, nil
	}
	sec, err := s.env.Secret(ctx)
	if err != nil {
		return "", err
	}
	s.secret = sec
	return sec, nil
}

// oauthConfig pins ClientAuthMethod (client_secret_post): auto-detection
// would replay a single-use code or refresh token after any error, and the
// server revokes the grant on reuse.
func (s *Session) oauthConfig(ctx context.Context, redirectURL string) (*oauth2.Config, error) {
	secret, err := s.clientSecret(ctx)
	if err != nil {
		return nil, err
	}
	return &oauth2.Config{
		ClientID:     s.env.ClientID,
		ClientSecret: secret,
		RedirectURL:  redirectURL,
		Scopes:       []string{"openid", "offline"},
		Endpoint: oauth2.Endpoint{
			AuthURL:   s.env.AuthorizeURL(),
			TokenURL:  s.env.TokenURL(),
			AuthStyle: oauth2.AuthStyleInParams,
		},
	}, nil
}

// tokenCallContext is a fresh context for one token call, detached from any
// request context so a cancelled UI action cannot abandon a refresh midway
// (the server would have rotated the token we never saved).
func (s *Session) tokenCallContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), TokenCallTimeout)
	return context.WithValue(ctx, oauth2.HTTPClient, s.httpClient), cancel
}

// fresh reports whether a token can be used without refreshing: more than
// RefreshMargin left, or, for tokens that live shorter than two margins,
// more than half their lifetime (otherwise every use would refresh).
func (s *Session) fresh(tok *storedToken) bool {
	if tok == nil || tok.AccessToken == "" {
		return false
	}
	if tok.Expiry.IsZero() {
		return true
	}
	margin := RefreshMargin
	if life := tok.Expiry.Sub(tok.ObtainedAt); !tok.ObtainedAt.IsZero() && life > 0 && life < 2*RefreshMargin {
		margin = life / 2
	}
	return tok.Expiry.Sub(s.now()) > margin
}

// TokenSource is the persisting user-token source (refresh under a
// cross-process lock, new refresh token on disk before it is used). It is
// built on a background context, never a request-scoped one.
func (s *Session) TokenSource() oauth2.TokenSource { return userSource{s} }

// ProjectTokenSource is the client-credentials token source. Project
// tokens are kept in the token store like user sessions (same file rules,
// same lock) until shortly before they expire, so consecutive commands
// share one.
func (s *Session) ProjectTokenSource() oauth2.TokenSource { return projectSource{s} }

// APITokenSource is what API calls should use: ProjectTokenSource when the
// environment's token setting is "project" (or --project), else TokenSource.
func (s *Session) APITokenSource() oauth2.TokenSource {
	if s.UsesProjectToken() {
		return s.ProjectTokenSource()
	}
	return s.TokenSource()
}

// UsesProjectToken reports whether APITokenSource hands out project tokens.
func (s *Session) UsesProjectToken() bool { return s.project || s.env.UsesProjectToken() }

type userSource struct{ s *Session }

func (u userSource) Token() (*oauth2.Token, error) { return u.s.userToken() }

type projectSource struct{ s *Session }

func (p projectSource) Token() (*oauth2.Token, error) { return p.s.projectToken() }

func (s *Session) userToken() (*oauth2.Token, error) {
	s.userMu.Lock()
	defer s.userMu.Unlock()
	if s.usable(s.userTok, s.userRejected) {
		return s.userTok.oauth2(), nil
	}
	// Another process may have refreshed since we last looked: a plain
	// read is enough to pick that up without taking the lock, unless a
	// temporary file says a writer is at work or died at work.
	tok, err := s.store.read()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		s.userTok = nil
		return nil, s.notSignedIn()
	}
	if s.usable(tok, s.userRejected) && !s.store.hasTemps() {
		s.userTok = tok
		return tok.oauth2(), nil
	}
	unlock, err := s.lock(context.Background())
	if err != nil {
		return nil, err
	}
	defer unlock()
	tok, err = s.refreshLocked()
	if err != nil {
		return nil, err
	}
	s.userTok = tok
	return tok.oauth2(), nil
}

// lock takes the cross-process session lock, waiting at most lockTimeout;
// the deadline only bounds the wait, not how long the lock is held.
func (s *Session) lock(ctx context.Context) (unlock func(), err error) {
	ctx, cancel := context.WithTimeout(ctx, s.lockTimeout)
	defer cancel()
	return s.store.lock(ctx)
}

// usable is fresh, and not the access token the API last refused.
func (s *Session) usable(tok *storedToken, rejected string) bool {
	return s.fresh(tok) && (rejected == "" || tok.AccessToken != rejected)
}

// Rejected tells the session that the API answered 401 to accessToken
// although it looked valid (the server revokes the old access token when
// another process rotates the refresh token). The next Token call re-reads
// the store and, if it still holds that token, refreshes (or fetches a new
// project token).
func (s *Session) Rejected(accessToken string) {
	if accessToken == "" {
		return
	}
	// One mutex at a time: Logout holds userMu while it waits for projMu.
	s.userMu.Lock()
	s.userRejected = accessToken
	if s.userTok != nil && s.userTok.AccessToken == accessToken {
		s.userTok = nil
	}
	s.userMu.Unlock()
	s.projMu.Lock()
	s.projRejected = accessToken
	if s.projTok != nil && s.projTok.AccessToken == accessToken {
		s.projTok = nil
	}
	s.projMu.Unlock()
}

func (s *Session) notSignedIn() error {
	return &SessionEndedError{Env: s.envName, Reason: "nobody is signed in"}
}

// refreshLocked runs with the file lock held: recover what a killed
// writer left, re-read, refresh if still needed, save, return.
func (s *Session) refreshLocked() (*storedToken, error) {
	if err := s.store.recoverTemps(); err != nil {
		return nil, err
	}
	// Two rounds at most: a second one only when invalid_grant revealed
	// that someone replaced the refresh token under us.
	for attempt := 0; attempt < 2; attempt++ {
		tok, err := s.store.read()
		if err != nil {
			return nil, err
		}
		if tok == nil {
			return nil, s.notSignedIn()
		}
		if s.usable(tok, s.userRejected) {
			return tok, nil
		}
		if tok.RefreshToken == "" {
			return nil, &SessionEndedError{Env: s.envName, Reason: "the access token expired and no refresh token is stored"}
		}
		next, err := s.refreshAndSave(tok)
		if err == nil {
			return next, nil
		}
		var te *TokenEndpointError
		if !errors.As(err, &te) || te.Code != "invalid_grant" {
			return nil, err
		}
		now, rerr := s.store.read()
		if rerr == nil && now != nil && now.RefreshToken != tok.RefreshToken {
			continue
		}
		if rerr == nil && now != nil {
			s.store.remove()
		}
		s.userTok = nil
		return nil, &SessionEndedError{Env: s.envName, Reason: "the refresh token was already used or revoked", Err: te}
	}
	return nil, &SessionEndedError{Env: s.envName, Reason: "the stored session kept changing while it was being refreshed"}
}

// refreshAndSave spends prev's single-use refresh token. The answer is
// journaled as it is read, before x/oauth2 even parses it, so a process
// killed at any point after reading it loses nothing: the next run
// recovers the new token from the journal. Between the answer and the
// journal there is nothing but the read itself (see journal); parsing,
// saving in the store's format and cleaning up all come after. A state
// directory that cannot take the journal stops the refresh before the
// token is spent.
func (s *Session) refreshAndSave(prev *storedToken) (*storedToken, error) {
	ctx, cancel := s.tokenCallContext()
	defer cancel()
	cfg, err := s.oauthConfig(ctx, "")
	if err != nil {
		return nil, err
	}
	base := *prev
	base.ObtainedAt = s.now()
	j, err := s.store.openJournal(&base)
	if err != nil {
		return nil, err
	}
	answered := func() { s.refreshStep(RefreshAnswered, j.writtenAt()) }
	ctx = context.WithValue(ctx, oauth2.HTTPClient, j.client(s.httpClient, cfg.Endpoint.TokenURL, answered))
	s.refreshStep(RefreshSending, time.Time{})
	// An already-expired token makes x/oauth2 refresh at once; the refresh
	// happens exactly once and only here, under our locks.
	tok, err := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: prev.RefreshToken, Expiry: time.Unix(1, 0)}).Token()
	if err != nil {
		j.remove()
		return nil, s.tokenCallError("refresh_token", err)
	}
	next := prev.next(answerOf(tok), s.now())
	s.refreshStep(RefreshParsed, time.Time{})
	tmp, err := s.store.writeTemp(next)
	if err == nil {
		s.refreshStep(RefreshWritten, time.Time{})
		err = s.store.commit(tmp)
	}
	if err != nil {
		// The old refresh token is spent. The journal stays for the next
		// run to recover, and this process goes on with the new token.
		j.f.Close()
		s.userTok = next
		return nil, fmt.Errorf("the %s token was refreshed but could not be saved, so other processes may have to sign in again: %w", platform.EnvTitle(s.envName), err)
	}
	s.refreshStep(RefreshSaved, time.Time{})
	j.remove()
	s.store.removeStaleTemps()
	s.refreshStep(RefreshDone, time.Time{})
	return next, nil
}

// refreshStep tells OnRefresh that step was reached at at (now when zero).
func (s *Session) refreshStep(step RefreshStep, at time.Time) {
	if s.onRefresh == nil {
		return
	}
	if at.IsZero() {
		at = time.Now()
	}
	s.onRefresh(RefreshEvent{Env: s.envName, Step: step, At: at})
}

// tokenCallError keeps what the server said about a failed token call, or
// that it said nothing at all.
func (s *Session) tokenCallError(grant string, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		return newTokenEndpointError(s.envName, grant, re, s.now())
	}
	return &TokenEndpointUnreachableError{Env: s.envName, Grant: grant, Err: sanitizeErr(err)}
}

// merge builds the record to save from a sign-in's token answer.
func (s *Session) merge(tok *oauth2.Token) *storedToken {
	return (&storedToken{Issuer: s.env.Issuer()}).next(answerOf(tok), s.now())
}

func (s *Session) projectToken() (*oauth2.Token, error) {
	s.projMu.Lock()
	defer s.projMu.Unlock()
	if s.usable(s.projTok, s.projRejected) {
		return s.projTok.oauth2(), nil
	}
	tok, err := s.projStore.read()
	var unsafe *UnsafeStoreError
	if errors.As(err, &unsafe) {
		return nil, err
	}
	// A damaged or foreign file is replaced under the lock below.
	if err == nil && s.usable(tok, s.projRejected) && !s.projStore.hasTemps() {
		s.projTok = tok
		return tok.oauth2(), nil
	}
	unlock, err := s.lock(context.Background())
	if err != nil {
		return nil, err
	}
	defer unlock()
	tok, err = s.projectLocked()
	if err != nil {
		return nil, err
	}
	s.projTok = tok
	return tok.oauth2(), nil
}

// projectLocked runs with the file lock held: another process may have
// stored a fresh project token meanwhile; otherwise one is fetched and
// stored.
func (s *Session) projectLocked() (*storedToken, error) {
	if err := s.projStore.recoverTemps(); err != nil && !isSessionEnded(err) {
		return nil, err
	}
	if tok, err := s.projStore.read(); err == nil && s.usable(tok, s.projRejected) {
		return tok, nil
	} else if err != nil && !isSessionEnded(err) {
		return nil, err
	}
	ctx, cancel := s.tokenCallContext()
	defer cancel()
	secret, err := s.clientSecret(ctx)
	if err != nil {
		return nil, err
	}
	cc := clientcredentials.Config{
		ClientID:     s.env.ClientID,
		ClientSecret: secret,
		TokenURL:     s.env.TokenURL(),
		AuthStyle:    oauth2.AuthStyleInParams,
	}
	obtained := s.now()
	tok, err := cc.Token(ctx)
	if err != nil {
		return nil, s.tokenCallError("client_credentials", err)
	}
	// expires_in counted from before the request: the token is renewed a
	// little early rather than used a little late.
	next := (&storedToken{Issuer: s.env.Issuer()}).next(answerOf(tok), obtained)
	// A project token that cannot be stored still serves this process;
	// the next command merely fetches its own, so this is not an error.
	_ = s.projStore.write(next)
	return next, nil
}

// isSessionEnded: a stored file that is damaged or belongs elsewhere.
func isSessionEnded(err error) bool {
	var se *SessionEndedError
	return errors.As(err, &se)
}

// SignedIn reports whether a stored session exists (offline check).
func (s *Session) SignedIn() bool {
	tok, err := s.store.read()
	return err == nil && tok != nil
}

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

// Status reads the store (no network). A damaged or unsafe store is an
// error; no session is SignedIn=false with no error.
func (s *Session) Status() (*StatusInfo, error) {
	info := &StatusInfo{
		Env:           s.envName,
		ClientID:      s.env.ClientID,
		StorePath:     s.store.path,
		UsesProjectID: s.UsesProjectToken(),
	}
	tok, err := s.store.read()
	if err != nil {
		return info, err
	}
	if tok == nil {
		return info, nil
	}
	info.SignedIn = true
	info.Subject = tok.Subject
	info.AccessExpiry = tok.Expiry
	info.HasRefresh = tok.RefreshToken != ""
	return info, nil
}

// Logout revokes the refresh token when the server offers /oauth2/revoke,
// then deletes the stored session even if revocation failed. When only the
// revocation failed the error wraps ErrRevocationFailed: the user is signed
// out locally.
func (s *Session) Logout(ctx context.Context) error {
	// The lock order of userToken and projectToken: no refresh or project
	// fetch of this process can start while the files go.
	s.userMu.Lock()
	defer s.userMu.Unlock()
	s.projMu.Lock()
	defer s.projMu.Unlock()
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	tok, readErr := s.store.read()
	var revokeErr error
	if readErr == nil && tok != nil && tok.RefreshToken != "" {
		revokeErr = s.revoke(ctx, tok.RefreshToken)
	}
	for _, st := range []*store{s.store, s.projStore} {
		if err := st.remove(); err != nil {
			return err
		}
		st.removeStaleTemps()
	}
	s.userTok, s.projTok = nil, nil
	if revokeErr != nil {
		return fmt.Errorf("signed out of %s locally, but the server did not confirm revoking the refresh token (%v), so it stays valid until it is revoked: %w", platform.EnvTitle(s.envName), revokeErr, ErrRevocationFailed)
	}
	return nil
}

func (s *Session) revoke(ctx context.Context, refreshToken string) error {
	endpoint := s.env.RevokeURL()
	ignore404 := true
	if d, err := s.discover(ctx); err == nil && d != nil {
		if d.RevocationEndpoint == "" {
			return nil
		}
		endpoint = d.RevocationEndpoint
		ignore404 = false
	}
	secret, err := s.clientSecret(ctx)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, TokenCallTimeout)
	defer cancel()
	form := strings.NewReader(url.Values{
		"token":           {refreshToken},
		"token_type_hint": {"refresh_token"},
		"client_id":       {s.env.ClientID},
		"client_secret":   {secret},
	}.Encode())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, form)
	if err != nil {
		return fmt.Errorf("bad revocation endpoint: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.httpClient.Do(req)
	if err != nil {
		return sanitizeErr(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
		return nil
	case resp.StatusCode == http.StatusNotFound && ignore404:
		return nil
	}
	return fmt.Errorf("the revocation endpoint answered HTTP %d", resp.StatusCode)
}
