package gql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"

	graphql "github.com/graph-gophers/graphql-go"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/oauth"
)

// Introspector validates bearer tokens; the oauth server implements it and
// tests use a fake with fixed tokens.
type Introspector interface {
	Introspect(ctx context.Context, token string) (oauth.TokenInfo, error)
}

// endpoint serves one GraphQL path. It is its own handler, not
// relay.Handler, because the platform answers bad requests with HTTP 4xx
// while relay always answers 200.
type endpoint struct {
	env string // realm whose tokens are accepted
	// load parses the schema on first use, with the limits that read its
	// paging arguments: binding the resolvers takes tens of milliseconds
	// per endpoint, and many runs never call Live.
	load   func() (*loadedSchema, error)
	tokens Introspector
}

// loadedSchema is an endpoint's parsed schema and the limits checked
// before it runs an operation.
type loadedSchema struct {
	schema *graphql.Schema
	limits *Limits
}

// Partner is what a partner API endpoint serves.
type Partner struct {
	Store       *data.Store
	ClientID    string // the project's OAuth client
	RedirectURI string // its registered redirect URI, where consents end
	Tokens      Introspector
	Limited     bool // the Sandbox's operation limits
	Events      *Events
}

// NewPartnerEndpoint builds the partner GraphQL endpoint of an
// environment; its schema loads on first use.
func NewPartnerEndpoint(p Partner) http.Handler {
	e := &endpoint{env: p.Store.Env(), tokens: p.Tokens}
	limited := p.Limited
	e.load = sync.OnceValues(func() (*loadedSchema, error) {
		root := &partnerRoot{&partnerResolver{store: p.Store, clientID: p.ClientID, redirectURI: p.RedirectURI, events: p.Events}, &webhookResolver{hub: p.Events.hub}}
		src, err := sdl(partnerAPI)
		if err != nil {
			return nil, err
		}
		s, err := graphql.ParseSchema(src, root, schemaOptions(limited)...)
		if err != nil {
			return nil, fmt.Errorf("parse the partner schema: %w", err)
		}
		return &loadedSchema{schema: s, limits: endpointLimits(s, limited)}, nil
	})
	return e
}

// NewTestingEndpoint builds the Sandbox Testing API endpoint.
func NewTestingEndpoint(store *data.Store, tokens Introspector, ev *Events) (http.Handler, error) {
	src, err := sdl(testingAPI)
	if err != nil {
		return nil, err
	}
	s, err := graphql.ParseSchema(src, &adminRoot{&adminResolver{store: store}, ev}, schemaOptions(true)...)
	if err != nil {
		return nil, fmt.Errorf("parse the testing schema: %w", err)
	}
	ls := &loadedSchema{schema: s, limits: endpointLimits(s, true)}
	return &endpoint{env: store.Env(), load: func() (*loadedSchema, error) { return ls, nil }, tokens: tokens}, nil
}

// schemaOptions keeps graph-gophers' own limits as a second line behind the
// gqlparser check; Live gets generous bounds that only stop abuse.
func schemaOptions(limited bool) []graphql.SchemaOpt {
	// No resolver asks which child fields were selected: not recording
	// them saves a tenth of a page's time.
	if limited {
		// graph-gophers also counts fragment spreads as selections, so its
		// bound is looser than the 1,000 fields gqlparser enforces first.
		return []graphql.SchemaOpt{graphql.MaxDepth(15), graphql.MaxSelections(4000), graphql.DisableFieldSelections()}
	}
	return []graphql.SchemaOpt{graphql.MaxDepth(64), graphql.MaxSelections(100_000), graphql.DisableFieldSelections()}
}

// gqlRequest is the JSON body of a GraphQL-over-HTTP request.
type gqlRequest struct {
	Query         *string         `json:"query"`
	OperationName string          `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
	Extensions    json.RawMessage `json:"extensions"`
}

// gqlError is one entry of a response's errors list.
type gqlError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteError answers with a GraphQL-shaped error body; the emulator's
// middleware answers requests it stops on GraphQL paths with it too.
func WriteError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"errors": []gqlError{{Message: msg, Extensions: map[string]any{"code": code}}}})
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		WriteError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "GraphQL operations are sent with POST: retry as a POST with a JSON body")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		WriteError(w, http.StatusUnsupportedMediaType, "BAD_REQUEST", "the request body must be JSON: set Content-Type: application/json")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			WriteError(w, http.StatusRequestEntityTooLarge, "BAD_REQUEST", fmt.Sprintf("the request body is larger than %d bytes: send a smaller operation", tooBig.Limit))
			return
		}
		WriteError(w, http.StatusBadRequest, "BAD_REQUEST", "the request body could not be read: retry the request")
		return
	}
	var req gqlRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		WriteError(w, http.StatusBadRequest, "BAD_REQUEST", describeJSONError(err))
		return
	}
	if dec.More() {
		WriteError(w, http.StatusBadRequest, "BAD_REQUEST", "the request body has data after its JSON object: send exactly one object")
		return
	}
	if req.Query == nil || strings.TrimSpace(*req.Query) == "" {
		WriteError(w, http.StatusBadRequest, "BAD_REQUEST", "the request has no query: put the operation text in the \"query\" member")
		return
	}
	vars, err := decodeVariables(req.Variables)
	if err != nil {
		WriteError(w, http.StatusBadRequest, "BAD_REQUEST", err.Error())
		return
	}
	ctx := r.Context()
	oplog := operationLogFrom(ctx)
	if oplog != nil {
		oplog.set(*req.Query, req.OperationName, req.Variables)
	}

	doc, op, err := parseOperation(*req.Query, req.OperationName)
	if err != nil {
		WriteError(w, http.StatusBadRequest, "GRAPHQL_PARSE_FAILED", err.Error())
		return
	}
	if oplog != nil && oplog.Name == "" {
		oplog.Name = op.Name
	}
	token, hasToken := bearer(r)
	// The platform serves its schema without a token; everything else
	// needs one of this endpoint's environment.
	if hasToken || !onlyIntrospection(op) {
		c, msg := e.authenticate(ctx, token, hasToken)
		if msg != "" {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			WriteError(w, http.StatusUnauthorized, "UNAUTHENTICATED", msg)
			return
		}
		c.base = "http://" + r.Host
		if r.TLS != nil {
			c.base = "https://" + r.Host
		}
		ctx = withCaller(ctx, c)
	}
	ls, err := e.load()
	if err != nil {
		WriteError(w, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "the emulator's schema does not load, a bug in the emulator: "+err.Error())
		return
	}
	if msg, ok := ls.limits.check(analyze(doc, op, ls.limits, vars)); !ok {
		WriteError(w, http.StatusBadRequest, "QUERY_TOO_COMPLEX", msg)
		return
	}

	resp := ls.schema.Exec(ctx, *req.Query, req.OperationName, vars)
	status := http.StatusOK
	if len(resp.Errors) > 0 && requestError(resp) {
		status = http.StatusBadRequest
		for _, qe := range resp.Errors {
			if errors.Is(qe.Err, graphql.ErrTooManySelections) || qe.Rule == "MaxDepthExceeded" {
				if qe.Extensions == nil {
					qe.Extensions = map[string]any{}
				}
				qe.Extensions["code"] = "QUERY_TOO_COMPLEX"
			}
		}
	}
	writeJSON(w, status, resp)
}

// requestError reports whether the errors come from the request itself
// (parse, validation, variable coercion, limits) rather than from a
// resolver: such errors carry no path, and the answer is a 400.
func requestError(resp *graphql.Response) bool {
	for _, qe := range resp.Errors {
		if qe.ResolverError != nil || len(qe.Path) > 0 {
			return false
		}
	}
	return true
}

// authenticate returns the caller or the 401 message.
func (e *endpoint) authenticate(ctx context.Context, token string, present bool) (caller, string) {
	if !present {
		return caller{}, "the request has no access token: send Authorization: Bearer <access token>"
	}
	info, err := e.tokens.Introspect(ctx, token)
	if err != nil {
		return caller{}, "the access token is invalid, expired or revoked: refresh it or sign in again"
	}
	if info.Env != e.env {
		return caller{}, fmt.Sprintf("the access token belongs to the %s environment, not %s: use a %s token on this endpoint", info.Env, e.env, e.env)
	}
	c := caller{token: info}
	if info.Project || info.Subject == "" {
		c.viewer = data.Viewer{Project: true}
	} else {
		c.viewer = data.Viewer{UserID: info.Subject}
	}
	return c, ""
}

// bearer extracts the token of an Authorization: Bearer header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

// decodeVariables accepts an absent/null variables member or a JSON object.
func decodeVariables(raw json.RawMessage) (map[string]any, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var vars map[string]any
	if err := json.Unmarshal(raw, &vars); err != nil {
		return nil, errors.New("the variables member must be a JSON object: send {\"name\": value, …} or omit it")
	}
	return vars, nil
}

// describeJSONError explains a body that is not a GraphQL request without
// echoing the client's bytes or Go type names.
func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("the request body is not valid JSON (error at byte %d): send {\"query\": \"…\", \"variables\": {…}}", syntax.Offset)
	case errors.As(err, &typ):
		return "the request body must be a JSON object whose \"query\" and \"operationName\" are strings: send {\"query\": \"…\"}"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the request body is empty or cut short: send {\"query\": \"…\"}"
	default:
		return "the request body is not a GraphQL request: send {\"query\": \"…\", \"variables\": {…}}"
	}
}
