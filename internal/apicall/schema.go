package apicall

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/gqlop"
)

// endpointSchema is what an operation is validated against.
type endpointSchema struct {
	schema  *ast.Schema // nil: only the syntax and the limits can be checked
	fetched time.Time
	cached  bool   // read from the cache, not just now: it may be out of date
	note    string // why there is no schema, for stderr
	cause   error  // what refused the introspection, when there is no schema
}

// EndpointSchema is the schema of e's partner API, or with testing of its
// Testing API, as `partnertui api` checks operations against it: from the
// cache, else read by introspection and cached. With none (introspection
// refused), note says why.
func EndpointSchema(ctx context.Context, e Env, testing bool) (schema *ast.Schema, note string, err error) {
	es, err := schemaFor(ctx, e, testing, false, false)
	return es.schema, es.note, err
}

// schemaFor is the schema of the endpoint the operation goes to: its
// newest snapshot, else read by introspection (once: it is then kept as a
// snapshot, as `partnertui schema pull` keeps one). Offline (--dry-run)
// nothing is sent, so only a kept schema is used. A refused introspection
// leaves only the syntax and the limits to check, and says so.
func schemaFor(ctx context.Context, e Env, testing, refresh, offline bool) (endpointSchema, error) {
	url, err := e.API.Endpoint(testing)
	if err != nil {
		return endpointSchema{}, err
	}
	if e.Schemas != nil && !refresh {
		if sn, err := e.Schemas.Latest(url); err == nil {
			if s, err := e.Schemas.Load(sn); err == nil {
				return endpointSchema{schema: s.AST, fetched: sn.Pulled, cached: true}, nil
			}
		}
	}
	if offline {
		return endpointSchema{note: "no schema of " + url + " is kept yet, so only the syntax and the limits were checked"}, nil
	}
	resp, err := e.API.Do(ctx, api.Request{Query: gqlop.IntrospectionQuery, Testing: testing, Verbatim: true})
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, api.ErrUnauthorized) || errors.Is(err, api.ErrNetwork) {
			return endpointSchema{}, err
		}
		return endpointSchema{note: fmt.Sprintf("the schema could not be read (%v), so only the syntax and the limits were checked", err), cause: err}, nil
	}
	now := time.Now().UTC()
	if e.Schemas != nil {
		// Kept as a snapshot, as a pull keeps it. One that cannot be
		// written only costs the next command one more introspection.
		if _, s, err := e.Schemas.SaveIntrospection(url, string(e.Name), now, resp.Body); err == nil {
			return endpointSchema{schema: s.AST, fetched: now}, nil
		}
	}
	s, err := gqlop.SchemaFromIntrospection(resp.Body)
	if err != nil {
		return endpointSchema{note: fmt.Sprintf("the server refused introspection (%v), so only the syntax and the limits were checked", err), cause: err}, nil
	}
	return endpointSchema{schema: s, fetched: now}, nil
}

// Source is an environment's partner API schema as `partnertui api` knows
// it, for the app's view of anything (the terminal UI's SchemaSource).
type Source struct{ Env Env }

// Schema is the endpoint's newest snapshot, else its schema read by
// introspection (kept as a snapshot when Env.Schemas is set, as `api`
// keeps it); from says which, as the screen says it. It reads files or
// sends a request: the UI calls it off its event loop.
func (s Source) Schema(ctx context.Context) (schema *ast.Schema, from string, err error) {
	es, err := schemaFor(ctx, s.Env, false, false, false)
	if err != nil {
		return nil, "", err
	}
	if es.schema == nil {
		return nil, "", fmt.Errorf("the partner API's schema could not be read by introspection: %w", es.cause)
	}
	if es.cached {
		return es.schema, "the snapshot of " + es.fetched.UTC().Format("2006-01-02 15:04 UTC"), nil
	}
	return es.schema, "read by introspection", nil
}
