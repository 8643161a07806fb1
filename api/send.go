package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	graphql "github.com/hasura/go-graphql-client"
)

// Bounds on what is read of a body the client will not decode: an error
// status's body is parsed for {"errors":[…]}, anything else is only
// drained so the connection can be reused.
const (
	maxErrorBody = 1 << 20
	maxDrain     = 64 << 10
)

// constructOperation builds the text of the operation named name from v's
// type and the variables' types. It is the one place query text is built:
// for sending and for Operations().
func constructOperation(mutation bool, v any, vars map[string]any, name string) (string, error) {
	if mutation {
		return graphql.ConstructMutation(v, vars, graphql.OperationName(name))
	}
	return graphql.ConstructQuery(v, vars, graphql.OperationName(name))
}

// opTexts remembers each operation's request body around its variables,
// so the text is built by reflection once, not on every request. The text
// depends only on v's type, the variables' names and types, and the name:
// the package's variable types name their GraphQL type from the type alone
// and no result type selects through an ordered-map slice (the two ways
// the graphql client lets a value change the text). Concurrent misses may
// both build a text; either serves.
type opTexts struct {
	mu sync.Mutex
	m  map[opKey][]*opText
}

type opKey struct {
	t        reflect.Type
	mutation bool
	name     string
}

// opText is one operation's body without its variables, already encoded.
type opText struct {
	vars []varType // sorted by name
	head []byte    // {"query":"…"
	tail []byte    // ,"operationName":"…"}
}

type varType struct {
	name string
	t    reflect.Type
}

// fits reports whether vars declare exactly the variables the text was
// built for.
func (o *opText) fits(vars map[string]any) bool {
	if len(vars) != len(o.vars) {
		return false
	}
	for _, vt := range o.vars {
		x, ok := vars[vt.name]
		if !ok || reflect.TypeOf(x) != vt.t {
			return false
		}
	}
	return true
}

func (ts *opTexts) get(mutation bool, v any, vars map[string]any, name string) (*opText, error) {
	k := opKey{t: reflect.TypeOf(v), mutation: mutation, name: name}
	ts.mu.Lock()
	for _, o := range ts.m[k] {
		if o.fits(vars) {
			ts.mu.Unlock()
			return o, nil
		}
	}
	ts.mu.Unlock()

	text, err := constructOperation(mutation, v, vars, name)
	if err != nil {
		return nil, err
	}
	o := &opText{vars: make([]varType, 0, len(vars))}
	for n, x := range vars {
		o.vars = append(o.vars, varType{name: n, t: reflect.TypeOf(x)})
	}
	slices.SortFunc(o.vars, func(a, b varType) int { return cmp.Compare(a.name, b.name) })
	q, err := json.Marshal(text)
	if err != nil {
		return nil, err
	}
	n, err := json.Marshal(name)
	if err != nil {
		return nil, err
	}
	o.head = append([]byte(`{"query":`), q...)
	o.tail = append(append([]byte(`,"operationName":`), n...), '}')

	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.m == nil {
		ts.m = make(map[opKey][]*opText)
	}
	ts.m[k] = append(ts.m[k], o)
	return o, nil
}

// body is the request body: {"query":…,"variables":…,"operationName":…},
// the payload the graphql client itself sends.
func (o *opText) body(vars map[string]any) ([]byte, error) {
	var vj []byte
	if len(vars) > 0 {
		var err error
		if vj, err = json.Marshal(vars); err != nil {
			return nil, err
		}
	}
	b := make([]byte, 0, len(o.head)+len(`,"variables":`)+len(vj)+len(o.tail))
	b = append(b, o.head...)
	if vj != nil {
		b = append(append(b, `,"variables":`...), vj...)
	}
	return append(b, o.tail...), nil
}

// statusError is an HTTP answer other than 200 or 201; body holds the
// first maxErrorBody bytes of a 4xx/5xx body for classify to read.
type statusError struct {
	status int
	body   []byte
}

func (e *statusError) Error() string {
	return fmt.Sprintf("HTTP %d %s", e.status, http.StatusText(e.status))
}

// serverErrors are the "errors" of a 200 answer.
type serverErrors struct{ errs []wireError }

func (e *serverErrors) Error() string {
	return fmt.Sprintf("the server answered with %d GraphQL errors", len(e.errs))
}

// bodyError: a 200 answer whose body is not a GraphQL JSON response.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return "reading the response: " + e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// decodeError: the response was JSON but its data did not have the shape
// the operation asked for.
type decodeError struct{ err error }

func (e *decodeError) Error() string { return "decoding the response data: " + e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }

// exchange sends the operation built from v's type to url (the GraphQL
// endpoint or the Testing API) through the client's whole transport stack
// and decodes the answer's data into v, a fresh value on every call. Every
// string of the result is then made safe for a terminal, once, here: no
// caller strips again. It returns nil, *serverErrors (v holds whatever
// partial data came with them), *decodeError (the data did not fit v),
// *bodyError, *statusError or the transport's error; classify words them.
//
// A query's body is read into a recycled buffer and decoded once, by
// encoding/json, straight into v. A mutation's data goes through the
// graphql client's decoder, which flattens the inline fragments its union
// members are selected with.
func (c *Client) exchange(ctx context.Context, url string, mutation bool, v any, vars map[string]any, name string) error {
	op, err := c.ops.get(mutation, v, vars, name)
	if err != nil {
		return err
	}
	return c.exchangeOp(ctx, url, mutation, op, v, vars)
}

// exchangeOp is exchange with the operation's text already built.
func (c *Client) exchangeOp(ctx context.Context, url string, mutation bool, op *opText, v any, vars map[string]any) error {
	body, err := op.body(vars)
	if err != nil {
		return err
	}
	resp, err := c.post(ctx, url, body)
	if err != nil {
		return err
	}
	defer drainClose(resp)

	buf := c.bufs.get()
	defer c.bufs.put(buf)
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return &bodyError{err: err}
	}
	if seen, ok := ctx.Value(rawAnswerKey{}).(func([]byte)); ok && !mutation {
		// Walk reads the next page's cursor here, before the decoding,
		// so that the next request is on the wire while this one decodes.
		seen(buf.Bytes())
	}
	var raw json.RawMessage
	target := v
	if mutation {
		target = &raw
	}
	errs, shapeErr, err := decodeResponse(buf.Bytes(), target)
	if err != nil {
		return &bodyError{err: err}
	}
	if mutation && len(raw) > 0 {
		shapeErr = graphql.UnmarshalGraphQL(raw, v)
		if shapeErr != nil && len(errs) == 0 {
			// The graphql client reported its decoder's failures as a body
			// that is not GraphQL JSON; so does this.
			return &bodyError{err: shapeErr}
		}
	}
	c.strip.StripFields(v)
	switch {
	case len(errs) > 0:
		return &serverErrors{errs: errs}
	case shapeErr != nil:
		return &decodeError{err: shapeErr}
	}
	return nil
}

// post sends a GraphQL request body to url through the whole transport
// stack. An answer other than 200 or 201 is a *statusError (with the first
// maxErrorBody bytes of a 4xx/5xx body), its body already closed;
// otherwise the caller reads the body and closes it with drainClose.
func (c *Client) post(ctx context.Context, url string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	switch st := resp.StatusCode; {
	case st >= 400:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		drainClose(resp)
		return nil, &statusError{status: st, body: b}
	case st != http.StatusOK && st != http.StatusCreated:
		drainClose(resp)
		return nil, &statusError{status: st}
	}
	return resp, nil
}

// drainClose reads what is left of a body, up to maxDrain, so that the
// connection can be reused, and closes it.
func drainClose(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	_ = resp.Body.Close()
}

// decodeResponse reads a GraphQL response {"data":…,"errors":[…]} in one
// pass, decoding data straight into v. shapeErr is data that did not fit v
// (the rest of v is still filled, as encoding/json does); err is a body
// that is not a GraphQL response object at all.
func decodeResponse(body []byte, v any) (errs []wireError, shapeErr, err error) {
	if b := bytes.TrimLeft(body, " \t\r\n"); len(b) > 0 && b[0] != '{' {
		// JSON null would decode into nothing without an error.
		return nil, nil, errors.New("the response is not a JSON object")
	}
	env := struct {
		Data   any         `json:"data"`
		Errors []wireError `json:"errors"`
	}{Data: v}
	err = json.Unmarshal(body, &env)
	if err == nil {
		return env.Errors, nil, nil
	}
	var ute *json.UnmarshalTypeError
	if !errors.As(err, &ute) || (ute.Field != "data" && !strings.HasPrefix(ute.Field, "data.")) {
		return nil, nil, err
	}
	// encoding/json reports only the first value of the wrong type: errors
	// of the wrong shape may hide behind the data's.
	var only struct {
		Errors []wireError `json:"errors"`
	}
	if err := json.Unmarshal(body, &only); err != nil {
		return nil, nil, err
	}
	return only.Errors, ute, nil
}

// bufPool recycles response buffers: a page of a hundred accounts is tens
// of kilobytes, which encoding/json's own reader would grow to, copying,
// on every request.
type bufPool struct{ p sync.Pool }

// maxPooled keeps an unusually large answer's buffer from being held.
const maxPooled = 4 << 20

func (b *bufPool) get() *bytes.Buffer {
	if buf, ok := b.p.Get().(*bytes.Buffer); ok {
		return buf
	}
	return new(bytes.Buffer)
}

func (b *bufPool) put(buf *bytes.Buffer) {
	if buf.Cap() > maxPooled {
		return
	}
	buf.Reset()
	b.p.Put(buf)
}
