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

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/emulator/internal/answer"
	"github.com/partnertui/partnertui/emulator/internal/bind"
	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/exec"
	"github.com/partnertui/partnertui/emulator/internal/gen"
	"github.com/partnertui/partnertui/emulator/internal/oauth"
)

// Introspector validates bearer tokens; the oauth server implements it and
// tests use a fake with fixed tokens.
type Introspector interface {
	Introspect(ctx context.Context, token string) (oauth.TokenInfo, error)
}

// endpoint serves one GraphQL path. It is its own handler because the
// platform answers bad requests with HTTP 4xx and GraphQL-shaped errors.
type endpoint struct {
	env string // realm whose tokens are accepted
	// load builds the schema and its answerer on first use: many runs
	// never call Live.
	load   func() (*loadedSchema, error)
	tokens Introspector
}

// loadedSchema is what an endpoint executes with: its schema, the limits
// checked before an operation runs, and the answerer of its fields.
type loadedSchema struct {
	schema *exec.Schema
	limits *Limits
	answer exec.Resolver
	root   any
}

// Partner is what a partner API endpoint serves.
type Partner struct {
	Store       *data.Store
	ClientID    string // the project's OAuth client
	RedirectURI string // its registered redirect URI, where consents end
	Tokens      Introspector
	Limited     bool // the Sandbox's operation limits
	Events      *Events
	// Supplied is the schema a user brought for the partner API; nil
	// serves the model's own.
	Supplied *Supplied
}

// Supplied is a schema a user brings for one API, served whole: the
// fields the model answers as the schema says are the model's, the rest
// generated for the seed, with the fixtures' objects set.
type Supplied struct {
	Schema *ast.Schema
	Seed   int64
	// Fixtures sets the fixtures' objects in an environment's new world;
	// nil when there are none.
	Fixtures func(*gen.World)
}

// NewPartnerEndpoint builds the partner GraphQL endpoint of an
// environment. The model's own schema loads on first use (many runs never
// call Live); a supplied one at once, so a mismatch is reported at start.
func NewPartnerEndpoint(p Partner) (http.Handler, error) {
	e := &endpoint{env: p.Store.Env(), tokens: p.Tokens}
	load := func() (*loadedSchema, error) {
		root := &partnerRoot{&partnerResolver{store: p.Store, clientID: p.ClientID, redirectURI: p.RedirectURI, events: p.Events}, &webhookResolver{hub: p.Events.hub}}
		return load(PartnerAPI, root, p.Limited, p.Supplied, p.Events.generated(PartnerAPI))
	}
	if p.Supplied == nil {
		e.load = sync.OnceValues(load)
		return e, nil
	}
	ls, err := load()
	if err != nil {
		return nil, err
	}
	e.load = func() (*loadedSchema, error) { return ls, nil }
	return e, nil
}

// NewTestingEndpoint builds the Sandbox Testing API endpoint; sup is the
// schema a user brought for it, nil for the model's own.
func NewTestingEndpoint(store *data.Store, tokens Introspector, ev *Events, sup *Supplied) (http.Handler, error) {
	ls, err := load(TestingAPI, &adminRoot{&adminResolver{store: store}, ev}, true, sup, ev.generated(TestingAPI))
	if err != nil {
		return nil, err
	}
	return &endpoint{env: store.Env(), load: func() (*loadedSchema, error) { return ls, nil }, tokens: tokens}, nil
}

// load builds what an endpoint executes with: the model's schema, or the
// supplied one with the model checked against it and a world for the
// rest.
func load(api string, root any, limited bool, sup *Supplied, mutated func(string, *gen.Mutation)) (*loadedSchema, error) {
	model, err := ModelSchema(api)
	if err != nil {
		return nil, err
	}
	c := answer.Config{Model: &bind.Binder{}, Root: root}
	served := model
	if sup != nil {
		served = sup.Schema
		c.Modelled = answer.CheckModel(model, served)
	}
	c.Schema = exec.NewSchema(served)
	if sup != nil {
		c.World = gen.New(c.Schema, sup.Seed)
		if sup.Fixtures != nil {
			sup.Fixtures(c.World)
		}
		c.Mutated = mutated
	}
	return &loadedSchema{schema: c.Schema, limits: endpointLimits(served, limited), answer: answer.New(c), root: root}, nil
}

// ModelSchema is the schema the model answers for an API (PartnerAPI or
// TestingAPI), parsed from the embedded files once per process: it is a
// constant of the binary, only ever read, and every endpoint of every
// emulator of the process (three per emulator, and a test binary starts
// hundreds) parsed it again, about 15 ms of CPU each.
func ModelSchema(api string) (*ast.Schema, error) {
	parse, ok := modelSchemas[api]
	if !ok {
		return parseModelSchema(api)
	}
	return parse()
}

// modelSchemas parse each API's embedded schema the first time it is
// asked for; the map itself is never written after initialisation.
var modelSchemas = map[string]func() (*ast.Schema, error){
	PartnerAPI: sync.OnceValues(func() (*ast.Schema, error) { return parseModelSchema(PartnerAPI) }),
	TestingAPI: sync.OnceValues(func() (*ast.Schema, error) { return parseModelSchema(TestingAPI) }),
}

func parseModelSchema(api string) (*ast.Schema, error) {
	src, err := sdl(api)
	if err != nil {
		return nil, err
	}
	s, err := gqlparser.LoadSchema(&ast.Source{Name: api, Input: src})
	if err != nil {
		return nil, fmt.Errorf("parse the %s schema: %w", api, err)
	}
	return s, nil
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

// refusal is a request the endpoint answers with an HTTP error before
// running anything.
type refusal struct {
	status    int
	code, msg string
	header    [2]string // a header to set first, if any
}

func refuse(status int, code, msg string) *refusal {
	return &refusal{status: status, code: code, msg: msg}
}

func (r *refusal) write(w http.ResponseWriter) {
	if r.header[0] != "" {
		w.Header().Set(r.header[0], r.header[1])
	}
	WriteError(w, r.status, r.code, r.msg)
}

// operation is a request read, parsed and admitted: what run executes.
type operation struct {
	req  gqlRequest
	vars map[string]any // as sent, numbers as json.Number
	doc  *ast.QueryDocument
	op   *ast.OperationDefinition
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o, ref := readRequest(r)
	if ref != nil {
		ref.write(w)
		return
	}
	ctx, ref := e.admit(r, o)
	if ref != nil {
		ref.write(w)
		return
	}
	status, resp := e.run(ctx, o)
	if r, ok := resp.(*exec.Response); ok {
		writeResponse(w, status, r)
		return
	}
	writeJSON(w, status, resp)
}

// writeResponse writes an execution's answer as it is: exec writes valid
// JSON, which encoding/json would only scan again.
func writeResponse(w http.ResponseWriter, status int, r *exec.Response) {
	b, err := r.MarshalJSON()
	if err != nil {
		WriteError(w, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "the answer could not be written, a bug in the emulator: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// readRequest reads a GraphQL-over-HTTP request: a POST of one JSON
// object with a query and, optionally, an object of variables.
func readRequest(r *http.Request) (*operation, *refusal) {
	if r.Method != http.MethodPost {
		ref := refuse(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "GraphQL operations are sent with POST: retry as a POST with a JSON body")
		ref.header = [2]string{"Allow", http.MethodPost}
		return nil, ref
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, refuse(http.StatusUnsupportedMediaType, "BAD_REQUEST", "the request body must be JSON: set Content-Type: application/json")
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, refuse(http.StatusRequestEntityTooLarge, "BAD_REQUEST", fmt.Sprintf("the request body is larger than %d bytes: send a smaller operation", tooBig.Limit))
		}
		return nil, refuse(http.StatusBadRequest, "BAD_REQUEST", "the request body could not be read: retry the request")
	}
	o := &operation{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&o.req); err != nil {
		return nil, refuse(http.StatusBadRequest, "BAD_REQUEST", describeJSONError(err))
	}
	if dec.More() {
		return nil, refuse(http.StatusBadRequest, "BAD_REQUEST", "the request body has data after its JSON object: send exactly one object")
	}
	if o.req.Query == nil || strings.TrimSpace(*o.req.Query) == "" {
		return nil, refuse(http.StatusBadRequest, "BAD_REQUEST", "the request has no query: put the operation text in the \"query\" member")
	}
	if o.vars, err = decodeVariables(o.req.Variables); err != nil {
		return nil, refuse(http.StatusBadRequest, "BAD_REQUEST", err.Error())
	}
	return o, nil
}

// admit records the operation in the request log, parses it and
// authenticates its caller: the platform serves its schema without a
// token, everything else needs one of this endpoint's environment.
func (e *endpoint) admit(r *http.Request, o *operation) (context.Context, *refusal) {
	ctx := r.Context()
	oplog := operationLogFrom(ctx)
	if oplog != nil {
		oplog.set(*o.req.Query, o.req.OperationName, o.req.Variables)
	}
	var err error
	if o.doc, o.op, err = parseOperation(*o.req.Query, o.req.OperationName); err != nil {
		return nil, refuse(http.StatusBadRequest, "GRAPHQL_PARSE_FAILED", err.Error())
	}
	if oplog != nil && oplog.Name == "" {
		oplog.Name = o.op.Name
	}
	token, hasToken := bearer(r)
	if !hasToken && onlyIntrospection(o.op) {
		return ctx, nil
	}
	c, msg := e.authenticate(ctx, token, hasToken)
	if msg != "" {
		ref := refuse(http.StatusUnauthorized, "UNAUTHENTICATED", msg)
		ref.header = [2]string{"WWW-Authenticate", `Bearer error="invalid_token"`}
		return nil, ref
	}
	c.base = "http://" + r.Host
	if r.TLS != nil {
		c.base = "https://" + r.Host
	}
	return withCaller(ctx, c), nil
}

// run checks the operation against the endpoint's limits and schema and
// executes it: a request the schema refuses is a 400 with its errors, one
// that ran is a 200 whatever its fields' errors.
func (e *endpoint) run(ctx context.Context, o *operation) (int, any) {
	ls, err := e.load()
	if err != nil {
		return http.StatusInternalServerError, errorBody("INTERNAL_SERVER_ERROR", "the emulator's schema does not load, a bug in the emulator: "+err.Error())
	}
	// The limits come first: validating a fragment bomb costs what its
	// expansion does.
	if msg, ok := ls.limits.check(analyze(o.doc, o.op, ls.limits, o.vars)); !ok {
		return http.StatusBadRequest, errorBody("QUERY_TOO_COMPLEX", msg)
	}
	if errs := ls.schema.Validate(o.doc); len(errs) > 0 {
		return http.StatusBadRequest, &exec.Response{Errors: errs}
	}
	vars, errs := ls.schema.CoerceVariables(o.op, o.vars)
	if len(errs) > 0 {
		for _, e := range errs {
			e.Extensions = map[string]any{"code": "BAD_USER_INPUT"}
		}
		return http.StatusBadRequest, &exec.Response{Errors: errs}
	}
	return http.StatusOK, exec.Execute(ctx, exec.Params{
		Schema: ls.schema, Doc: o.doc, Operation: o.op, Variables: vars, Root: ls.root, Resolver: ls.answer,
	})
}

func errorBody(code, msg string) any {
	return map[string]any{"errors": []gqlError{{Message: msg, Extensions: map[string]any{"code": code}}}}
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
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&vars); err != nil {
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
