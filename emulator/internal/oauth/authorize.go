package oauth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ory/fosite"
)

// Bounds on what a sign-in request may carry; beyond them the request is
// refused rather than stored.
const (
	maxQueryBytes  = 16 << 10 // the whole /oauth2/auth query string
	maxParamChars  = 2048     // one parameter value
	maxFormBytes   = 16 << 10 // a sign-in form POST
	maxTokenBody   = 64 << 10 // a token or revocation POST
	maxTokenLen    = 4096     // a bearer token presented to Introspect
	maxFlows       = 10000    // sign-ins in progress at once
	maxOTPAttempts = 5        // wrong codes before a flow is abandoned
	authPath       = "/oauth2/auth"
)

// identificationLevels are the values spec 4.3 allows, case-sensitive.
var identificationLevels = []string{"PVID", "QES", "Expert", "Auto"}

// allowedPrompts are the OIDC prompt values an interactive sign-in can honour.
var allowedPrompts = []string{"login", "consent", "select_account"}

// prefillParams are spec 4.3's optional parameters shown back on the first
// page, in the spec's order. phoneNumber goes into the phone field instead.
var prefillParams = []string{
	"firstName", "lastName", "birthDate", "birthCity", "birthCountry", "nationality", "language",
	"birthPlacePostalCode", "residencyAddress", "residencyAddressCity", "residencyAddressCountry",
	"residencyAddressPostalCode", "email", "onboardingId", "identificationLevel", "accountMembershipId",
}

type stage int

const (
	stagePhone stage = iota
	stageOTP
	stageConsent
)

// flow is one sign-in in progress, kept server-side and addressed by the
// random hidden "flow" field, so the browser never carries the
// authorization request or the code.
type flow struct {
	id       string
	env      string
	clientID string
	ar       fosite.AuthorizeRequester
	prefill  []prefillField
	stage    stage
	phone    string
	otp      string
	attempts int
	expires  time.Time
}

type flowStore struct {
	mu    sync.Mutex
	flows map[string]*flow
	max   int
}

func newFlowStore(max int) *flowStore {
	return &flowStore{flows: make(map[string]*flow), max: max}
}

var errTooManyFlows = errors.New("too many sign-ins are in progress")

func (fs *flowStore) add(f *flow, now time.Time) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.flows) >= fs.max {
		for id, g := range fs.flows {
			if !now.Before(g.expires) {
				delete(fs.flows, id)
			}
		}
	}
	if len(fs.flows) >= fs.max {
		return errTooManyFlows
	}
	fs.flows[f.id] = f
	return nil
}

// serveAuthorize is the sign-in page: GET starts a flow from an
// authorization request, POST advances a flow one form at a time.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.startFlow(w, r)
	case http.MethodPost:
		s.advanceFlow(w, r)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		errorPage(w, http.StatusMethodNotAllowed, "", "", "The sign-in page accepts GET and POST only; open the sign-in link in a browser.")
	}
}

func (s *Server) startFlow(w http.ResponseWriter, r *http.Request) {
	if len(r.URL.RawQuery) > maxQueryBytes {
		errorPage(w, http.StatusBadRequest, "", "", fmt.Sprintf("The sign-in link is longer than %d bytes; the application must send shorter parameters.", maxQueryBytes))
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		errorPage(w, http.StatusBadRequest, "", "", "The sign-in link is malformed (bad percent-encoding); the application must URL-encode its parameters.")
		return
	}
	clientID := q.Get("client_id")
	rl, client, ok := s.realmOf(clientID)
	switch {
	case clientID == "":
		errorPage(w, http.StatusBadRequest, "", "", "The sign-in link has no client_id; the application must send the client ID from its dashboard.")
		return
	case len(q["client_id"]) > 1:
		errorPage(w, http.StatusBadRequest, "", "", "The sign-in link repeats client_id; the application must send it once.")
		return
	case !ok:
		errorPage(w, http.StatusBadRequest, "", "", fmt.Sprintf("The client ID %q is not registered with this emulator; check the client ID (SANDBOX_… or LIVE_…).", clip(clientID, 80)))
		return
	}
	fc, ok := rl.fositeClient(clientID)
	if !ok {
		errorPage(w, http.StatusInternalServerError, client.Env, clientID, "The client is registered but its realm lost it; restart the emulator.")
		return
	}
	rawRedirect := q.Get("redirect_uri")
	if rawRedirect == "" || len(q["redirect_uri"]) > 1 {
		errorPage(w, http.StatusBadRequest, client.Env, clientID, "The sign-in link must carry exactly one redirect_uri, registered for this client (for example http://127.0.0.1:PORT/callback).")
		return
	}
	redirect, err := fosite.MatchRedirectURIWithClientRedirectURIs(rawRedirect, fc)
	if err != nil || !fosite.IsValidRedirectURI(redirect) {
		errorPage(w, http.StatusBadRequest, client.Env, clientID, fmt.Sprintf("The redirect_uri %q is not registered for %s; registered: %s (any port on a loopback IP matches).",
			clip(rawRedirect, 200), clientID, strings.Join(client.RedirectURIs, ", ")))
		return
	}
	// From here on the redirect_uri is trusted, so every problem goes back
	// to the application as an RFC 6749 error redirect.
	target := fosite.NewAuthorizeRequest()
	target.Client = fc
	target.RedirectURI = redirect
	target.State = q.Get("state")
	target.ResponseMode = fosite.ResponseModeQuery
	ctx := r.Context()
	if rfcErr := validateAuthorize(q); rfcErr != nil {
		rl.provider.WriteAuthorizeError(ctx, w, target, rfcErr)
		return
	}
	ar, err := rl.provider.NewAuthorizeRequest(ctx, r)
	if err != nil {
		rl.provider.WriteAuthorizeError(ctx, w, target, err)
		return
	}
	id, err := randomID()
	if err != nil {
		errorPage(w, http.StatusInternalServerError, client.Env, clientID, "The emulator could not start a sign-in (no randomness); try again.")
		return
	}
	f := &flow{
		id:       id,
		env:      client.Env,
		clientID: clientID,
		ar:       ar,
		prefill:  prefill(q),
		stage:    stagePhone,
		phone:    strings.TrimSpace(q.Get("phoneNumber")),
		expires:  s.now().Add(s.codeTTL),
	}
	view := s.view(f, "") // before add: afterwards only the flows lock may touch f
	if err := s.flows.add(f, s.now()); err != nil {
		errorPage(w, http.StatusServiceUnavailable, client.Env, clientID, "Too many sign-ins are in progress on this emulator; finish or abandon some and try again in a few minutes.")
		return
	}
	writePage(w, http.StatusOK, view)
}

// validateAuthorize checks spec 4.3 beyond what fosite checks, and earlier,
// so the user never fills a form for a request that cannot succeed.
func validateAuthorize(q url.Values) *fosite.RFC6749Error {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if len(q[k]) > 1 {
			return fosite.ErrInvalidRequest.WithHintf("The parameter '%s' is repeated; send each parameter once.", clip(k, 40))
		}
		v := q.Get(k)
		if len(v) > maxParamChars || !utf8.ValidString(v) {
			return fosite.ErrInvalidRequest.WithHintf("The parameter '%s' is longer than %d characters or not UTF-8.", clip(k, 40), maxParamChars)
		}
	}
	switch rt := q.Get("response_type"); {
	case rt == "":
		return fosite.ErrInvalidRequest.WithHint("The parameter 'response_type' is missing; use response_type=code.")
	case rt != "code":
		return fosite.ErrUnsupportedResponseType.WithHint("Only response_type=code (the authorization code flow) is supported.")
	}
	if rm := q.Get("response_mode"); rm != "" && rm != string(fosite.ResponseModeQuery) {
		return fosite.ErrInvalidRequest.WithHint("Only response_mode=query is supported.")
	}
	scopes := strings.Fields(q.Get("scope"))
	if !slices.Contains(scopes, scopeOpenID) {
		return fosite.ErrInvalidScope.WithHint("The scope must contain 'openid' (use scope=openid offline).")
	}
	for _, sc := range scopes {
		if sc != scopeOpenID && sc != scopeOffline {
			return fosite.ErrInvalidScope.WithHintf("The scope '%s' is not offered; use 'openid' and 'offline'.", clip(sc, 40))
		}
	}
	if st := q.Get("state"); len(st) < fosite.MinParameterEntropy {
		return fosite.ErrInvalidState.WithHintf("The parameter 'state' is missing or shorter than %d characters; send a random value.", fosite.MinParameterEntropy)
	}
	if q.Has("request") {
		return fosite.ErrRequestNotSupported.WithHint("Request objects are not supported; send plain query parameters.")
	}
	if q.Has("request_uri") {
		return fosite.ErrRequestURINotSupported.WithHint("Request URIs are not supported; send plain query parameters.")
	}
	if q.Has("id_token_hint") {
		return fosite.ErrInvalidRequest.WithHint("The parameter 'id_token_hint' is not supported; the user always signs in.")
	}
	for _, p := range strings.Fields(q.Get("prompt")) {
		if p == "none" {
			return fosite.ErrLoginRequired.WithHint("Sign-in is always interactive here, so prompt=none cannot succeed.")
		}
		if !slices.Contains(allowedPrompts, p) {
			return fosite.ErrInvalidRequest.WithHintf("The prompt value '%s' is not one of login, consent, select_account.", clip(p, 40))
		}
	}
	// fosite checks the nonce and PKCE only when the code is issued, after
	// the user has filled every form; checking here fails fast instead.
	if n := q.Get("nonce"); q.Has("nonce") && len(n) < fosite.MinParameterEntropy {
		return fosite.ErrInvalidRequest.WithHintf("The parameter 'nonce' is shorter than %d characters; send a random value.", fosite.MinParameterEntropy)
	}
	challenge, method := q.Get("code_challenge"), q.Get("code_challenge_method")
	switch {
	case challenge == "" && method != "":
		return fosite.ErrInvalidRequest.WithHint("The parameter 'code_challenge_method' needs a 'code_challenge'.")
	case challenge != "" && method != "S256":
		return fosite.ErrInvalidRequest.WithHint("Only code_challenge_method=S256 is supported (plain is refused).")
	case challenge != "" && !validChallenge(challenge):
		return fosite.ErrInvalidRequest.WithHint("The 'code_challenge' must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636).")
	}
	if q.Has("identificationLevel") {
		level := q.Get("identificationLevel")
		if !slices.Contains(identificationLevels, level) {
			return fosite.ErrInvalidRequest.WithHintf("The identificationLevel '%s' is not one of PVID, QES, Expert, Auto (case-sensitive).", clip(level, 40))
		}
		// Spec 4.3: Auto is for a known onboarding or an invitation, and an
		// invitation must carry accountMembershipId. The emulator cannot
		// tell an invitation from a re-engagement, so it requires one of
		// the two identifiers: a link with neither is almost always a
		// client that forgot accountMembershipId.
		if level == "Auto" && q.Get("onboardingId") == "" && q.Get("accountMembershipId") == "" {
			return fosite.ErrInvalidRequest.WithHint("identificationLevel=Auto needs onboardingId (onboarding) or accountMembershipId (invitation).")
		}
	}
	return nil
}

func validChallenge(c string) bool {
	if len(c) < 43 || len(c) > 128 {
		return false
	}
	for _, r := range c {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' || r == '~') {
			return false
		}
	}
	return true
}

func prefill(q url.Values) []prefillField {
	var out []prefillField
	for _, k := range prefillParams {
		if v := strings.TrimSpace(q.Get(k)); v != "" {
			out = append(out, prefillField{Name: k, Value: v})
		}
	}
	return out
}

// advanceFlow handles one form POST. The field present decides the step
// (phoneNumber, otp or decision), so a user who goes back in the browser and
// resubmits an earlier form simply redoes that step; a later step is only
// accepted once the earlier ones succeeded.
func (s *Server) advanceFlow(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		status := http.StatusBadRequest
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			status = http.StatusRequestEntityTooLarge
		}
		errorPage(w, status, "", "", "The form could not be read; submit the sign-in page as it was served.")
		return
	}
	form := r.PostForm
	now := s.now()

	s.flows.mu.Lock()
	f, ok := s.flows.flows[form.Get("flow")]
	if ok && !now.Before(f.expires) {
		delete(s.flows.flows, f.id)
		ok = false
	}
	if !ok {
		s.flows.mu.Unlock()
		errorPage(w, http.StatusBadRequest, "", "", fmt.Sprintf("This sign-in is unknown or has expired (a sign-in lasts %s); start again from the application.", s.codeTTL))
		return
	}
	view, decision, dead := s.step(f, form)
	env, clientID, ar, phone := f.env, f.clientID, f.ar, f.phone
	s.flows.mu.Unlock()

	switch {
	case dead != "":
		errorPage(w, http.StatusBadRequest, env, clientID, dead)
	case decision == "approve":
		s.approve(w, r, env, ar, phone)
	case decision == "deny":
		s.realms[env].provider.WriteAuthorizeError(r.Context(), w, ar,
			fosite.ErrAccessDenied.WithHint("The user denied the request on the sign-in page."))
	case decision == "locked":
		s.realms[env].provider.WriteAuthorizeError(r.Context(), w, ar,
			fosite.ErrAccessDenied.WithHintf("A wrong code was entered %d times; start the sign-in again.", maxOTPAttempts))
	default:
		writePage(w, http.StatusOK, view)
	}
}

// step advances flow f by one submitted form, with s.flows.mu held: the
// page to show next, or the decision that ends the flow ("approve",
// "deny", or "locked" after too many wrong codes), or why it died.
func (s *Server) step(f *flow, form url.Values) (view pageData, decision, dead string) {
	switch {
	case form.Has("decision"):
		if f.stage != stageConsent {
			view = s.view(f, "Verify your phone number before approving.")
			break
		}
		decision = form.Get("decision")
		if decision != "approve" && decision != "deny" {
			view = s.view(f, "Choose Approve or Deny.")
			decision = ""
			break
		}
		delete(s.flows.flows, f.id) // a flow ends once: no second code
	case form.Has("otp"):
		if f.stage == stagePhone {
			view = s.view(f, "Enter your phone number first.")
			break
		}
		code := strings.TrimSpace(form.Get("otp"))
		if subtle.ConstantTimeCompare([]byte(code), []byte(f.otp)) != 1 {
			f.attempts++
			if f.attempts >= maxOTPAttempts {
				// The application is told at once (it may be waiting on its
				// callback) rather than left hanging behind a dead page.
				delete(s.flows.flows, f.id)
				decision = "locked"
				break
			}
			f.stage = stageOTP
			view = s.view(f, fmt.Sprintf("That code is not the one shown; check it and try again (%d attempts left).", maxOTPAttempts-f.attempts))
			break
		}
		f.stage = stageConsent
		view = s.view(f, "")
	case form.Has("phoneNumber"):
		phone, problem := normalisePhone(form.Get("phoneNumber"))
		if problem != "" {
			f.stage = stagePhone
			f.phone = clip(form.Get("phoneNumber"), 40)
			view = s.view(f, problem)
			break
		}
		otp, err := randomOTP()
		if err != nil {
			delete(s.flows.flows, f.id)
			dead = "The emulator could not generate a code (no randomness); start the sign-in again."
			break
		}
		f.phone, f.otp, f.attempts, f.stage = phone, otp, 0, stageOTP
		view = s.view(f, "")
	default:
		view = s.view(f, "The form was incomplete; fill in the field and submit again.")
	}
	return view, decision, dead
}

// approve signs the user in and redirects with a fresh authorization code.
func (s *Server) approve(w http.ResponseWriter, r *http.Request, env string, ar fosite.AuthorizeRequester, phone string) {
	ctx := r.Context()
	rl := s.realms[env]
	userID := s.users.SignIn(env, phone)
	if userID == "" {
		rl.provider.WriteAuthorizeError(ctx, w, ar, fosite.ErrServerError.WithHint("The user directory returned no user for this phone number; try again."))
		return
	}
	claimPhone := phone
	if p, ok := s.users.Phone(env, userID); ok && p != "" {
		claimPhone = p
	}
	for _, sc := range ar.GetRequestedScopes() {
		ar.GrantScope(sc)
	}
	now := time.Now().UTC()
	requestedAt := ar.GetRequestedAt()
	if requestedAt.After(now) {
		requestedAt = now
	}
	sess := userSession(s.issuer, s.kid, userID, claimPhone, requestedAt, now)
	resp, err := rl.provider.NewAuthorizeResponse(ctx, ar, sess)
	if err != nil {
		rl.provider.WriteAuthorizeError(ctx, w, ar, err)
		return
	}
	rl.provider.WriteAuthorizeResponse(ctx, w, ar, resp)
}

// view is the page for a flow's current stage. Called with the flows lock
// held, it copies what the template needs.
func (s *Server) view(f *flow, errMsg string) pageData {
	d := pageData{
		Env:      f.env,
		ClientID: f.clientID,
		Action:   authPath,
		Flow:     f.id,
		Phone:    f.phone,
		Error:    errMsg,
		Scopes:   strings.Join(f.ar.GetRequestedScopes(), " "),
		Prefill:  f.prefill,
	}
	switch f.stage {
	case stagePhone:
		d.Step = stepPhone
	case stageOTP:
		d.Step, d.OTP = stepOTP, f.otp
	default:
		d.Step = stepConsent
	}
	return d
}

// normalisePhone accepts E.164 with the usual visual separators a person
// types (spaces, dashes, dots, parentheses) and returns the bare form, or
// the problem to show the user.
func normalisePhone(raw string) (phone, problem string) {
	if len(raw) > 40 {
		return "", "That phone number is too long; use the international format, for example +33612345678."
	}
	var b strings.Builder
	for i, r := range strings.TrimSpace(raw) {
		switch {
		case r == '+' && i == 0:
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return "", "A phone number has only digits after the leading +; use the international format, for example +33612345678."
		}
	}
	p := b.String()
	if len(p) < 8 || len(p) > 16 || p[0] != '+' || p[1] == '0' {
		return "", "Enter the number in international format: + then the country code and number, for example +33612345678."
	}
	return p, ""
}

func randomID() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("read random bytes for a sign-in id: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func randomOTP() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1000000))
	if err != nil {
		return "", fmt.Errorf("draw a one-time code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// clip bounds a value echoed back in a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
