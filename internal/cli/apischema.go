package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/paths"
)

// maxSchemaFile bounds a cached schema file (the partner schema's
// introspection answer is a few hundred kilobytes).
const maxSchemaFile = 32 << 20

// cachedSchema is one endpoint's introspection answer as kept in the cache,
// with the date it was read.
type cachedSchema struct {
	Endpoint      string          `json:"endpoint"`
	Fetched       time.Time       `json:"fetched"`
	Introspection json.RawMessage `json:"introspection"`
}

// endpointSchema is what an operation is validated against.
type endpointSchema struct {
	schema  *ast.Schema // nil: only the syntax and the limits can be checked
	fetched time.Time
	cached  bool   // read from the cache, not just now: it may be out of date
	note    string // why there is no schema, for stderr
}

// schemaFor is the schema of the endpoint the operation goes to: from the
// cache, else read by introspection (once: it is then cached with its
// date). Under --dry-run (offline) nothing is sent, so only a cached schema
// is used; under --demo nothing is cached (the emulator's port changes
// every run). A refused introspection leaves only the syntax and the
// limits to check, and says so.
func schemaFor(ctx context.Context, a *app.App, e *app.Env, testing, refresh, offline bool) (endpointSchema, error) {
	url, err := e.API.Endpoint(testing)
	if err != nil {
		return endpointSchema{}, err
	}
	var file string
	if !a.Demo() {
		if dir, err := paths.CacheDir(); err == nil {
			sum := sha256.Sum256([]byte(url))
			file = filepath.Join(dir, "schema-"+hex.EncodeToString(sum[:8])+".json")
		}
	}
	if file != "" && !refresh {
		if c, ok := readCachedSchema(file, url); ok {
			if s, err := gqlop.SchemaFromIntrospection(c.Introspection); err == nil {
				return endpointSchema{schema: s, fetched: c.Fetched, cached: true}, nil
			}
		}
	}
	if offline {
		return endpointSchema{note: "no schema of " + url + " is cached yet, so only the syntax and the limits were checked"}, nil
	}
	resp, err := e.API.Do(ctx, api.Request{Query: gqlop.IntrospectionQuery, Testing: testing})
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, api.ErrUnauthorized) || errors.Is(err, api.ErrNetwork) {
			return endpointSchema{}, err
		}
		return endpointSchema{note: fmt.Sprintf("the schema could not be read (%v), so only the syntax and the limits were checked", err)}, nil
	}
	s, err := gqlop.SchemaFromIntrospection(resp.Body)
	if err != nil {
		return endpointSchema{note: fmt.Sprintf("the server refused introspection (%v), so only the syntax and the limits were checked", err)}, nil
	}
	now := time.Now().UTC()
	if file != "" {
		// A cache that cannot be written only costs the next command one
		// more introspection.
		_ = writeCachedSchema(file, cachedSchema{Endpoint: url, Fetched: now, Introspection: resp.Body})
	}
	return endpointSchema{schema: s, fetched: now}, nil
}

// readCachedSchema reads file when it is a regular file (never through a
// symlink: paths.OpenFile) holding url's schema.
func readCachedSchema(file, url string) (cachedSchema, bool) {
	f, err := paths.OpenFile(file, os.O_RDONLY, 0)
	if err != nil {
		return cachedSchema{}, false
	}
	defer f.Close()
	var c cachedSchema
	if err := json.NewDecoder(io.LimitReader(f, maxSchemaFile)).Decode(&c); err != nil || c.Endpoint != url {
		return cachedSchema{}, false
	}
	return c, true
}

// writeCachedSchema replaces file at once (paths.WriteFile: a temporary
// file, then a rename, which replaces a symlink rather than following it).
func writeCachedSchema(file string, c cachedSchema) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return paths.WriteFile(file, b)
}
