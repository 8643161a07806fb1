// Package schemapull is what `partnertui schema pull` does: an endpoint's
// schema read by introspection (internal/gqlop's query, which asks for
// everything a schema rebuilt from its answer needs) and kept as a dated
// snapshot (internal/schemacache). The platform serves its schema to
// anyone, so the query is first sent without a token; an endpoint that
// refuses it is asked again with the environment's token, and the result
// says so.
package schemapull

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/schemacache"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// Target is the endpoint to pull and how to reach it.
type Target struct {
	Env     string // "sandbox" or "live", kept with the snapshot
	Testing bool   // the Sandbox Testing API instead of the partner API
	// Public sends without a token (app.App.PublicAPI).
	Public *api.Client
	// WithToken is the environment's client that sends a token, asked
	// for only when the endpoint refuses Public; its error says why there
	// is none (no credentials configured, no session). nil: there is none.
	WithToken func(ctx context.Context) (*api.Client, error)
}

// Result is a pull kept.
type Result struct {
	Snapshot schemacache.Snapshot
	Schema   *schemafile.Schema
	// Previous is the endpoint's newest snapshot before this pull; nil
	// for its first.
	Previous *schemacache.Snapshot
	// Refused is what the endpoint answered the query sent without a
	// token, when it refused it: the schema was then read with a token.
	Refused string
}

// Pull reads the schema of t's endpoint and keeps it in store, dated now.
func Pull(ctx context.Context, store *schemacache.Store, t Target, now time.Time) (Result, error) {
	url, err := t.Public.Endpoint(t.Testing)
	if err != nil {
		return Result{}, err
	}
	var res Result
	if prev, err := store.Latest(url); err == nil {
		res.Previous = &prev
	}
	answer, refused, err := introspect(ctx, t.Public, t.Testing)
	if err != nil {
		return Result{}, err
	}
	if refused != "" {
		res.Refused = refused
		if answer, err = withToken(ctx, t, url, refused); err != nil {
			return Result{}, err
		}
	}
	res.Snapshot, res.Schema, err = store.SaveIntrospection(url, t.Env, now, answer)
	return res, err
}

// withToken asks again with the environment's token.
func withToken(ctx context.Context, t Target, url, refused string) ([]byte, error) {
	if t.WithToken == nil {
		return nil, &RefusedError{Endpoint: url, Answer: refused}
	}
	c, err := t.WithToken(ctx)
	if err != nil {
		return nil, &RefusedError{Endpoint: url, Answer: refused, Err: err}
	}
	answer, again, err := introspect(ctx, c, t.Testing)
	if err != nil {
		return nil, fmt.Errorf("%s refused introspection without a token (%s), and with one: %w", url, refused, err)
	}
	if again != "" {
		return nil, fmt.Errorf("%s refused introspection without a token (%s), and with one (%s)", url, refused, again)
	}
	return answer, nil
}

// RefusedError reports that the endpoint gives its schema only with a
// token, and none could be had; Err says why (and the error classifier
// what to do).
type RefusedError struct {
	Endpoint string
	Answer   string // what the endpoint answered without a token
	Err      error  // why there is no token; nil when none was offered
}

func (e *RefusedError) Error() string {
	msg := fmt.Sprintf("%s gives its schema only with a token (without one it answered: %s)", e.Endpoint, e.Answer)
	if e.Err == nil {
		return msg
	}
	return msg + ", and there is none to send: " + e.Err.Error()
}

func (e *RefusedError) Unwrap() error { return e.Err }

// introspect sends the introspection query through c. refused is the
// endpoint's answer when it does not give its schema for a reason a
// token may change (401, 403, errors instead of the schema); err is a
// failure a token would not change (the network, a 429 not waited out,
// the server's own error, a cancelled wait).
func introspect(ctx context.Context, c *api.Client, testing bool) (answer []byte, refused string, err error) {
	resp, err := c.Do(ctx, api.Request{Query: gqlop.IntrospectionQuery, Testing: testing, Verbatim: true})
	switch {
	case err == nil:
	case ctx.Err() != nil, errors.Is(err, api.ErrNetwork), errors.Is(err, api.ErrRateLimited), errors.Is(err, api.ErrServer),
		errors.Is(err, api.ErrForeignEndpoint), errors.Is(err, api.ErrNoTestingAPI):
		return nil, "", err
	default:
		return nil, refusal(err), nil
	}
	var body struct {
		Data *struct {
			Schema json.RawMessage `json:"__schema"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		return nil, "an answer that is not JSON", nil
	}
	if body.Data == nil || len(body.Data.Schema) == 0 || string(body.Data.Schema) == "null" {
		if len(body.Errors) > 0 {
			return nil, fmt.Sprintf("HTTP %d: %s", resp.Status, safetext.Strip(body.Errors[0].Message)), nil
		}
		return nil, fmt.Sprintf("HTTP %d without a schema", resp.Status), nil
	}
	return resp.Body, "", nil
}

// refusal says what the endpoint answered, in the words of its answer:
// the client's own errors speak of the token it sent, and there was none.
func refusal(err error) string {
	var ue *api.UnauthorizedError
	var ge *api.GraphQLError
	var be *api.BadResponseError
	switch {
	case errors.As(err, &ue) && ue.Message != "":
		return fmt.Sprintf("HTTP %d: %s", ue.Status, ue.Message)
	case errors.As(err, &ue):
		return fmt.Sprintf("HTTP %d", ue.Status)
	case errors.As(err, &ge) && len(ge.Errors) > 0:
		return fmt.Sprintf("HTTP %d: %s", ge.Status, ge.Errors[0].Message)
	case errors.As(err, &be):
		return fmt.Sprintf("HTTP %d: %s", be.Status, be.Reason)
	}
	return err.Error()
}
