package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/schemacache"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// schemaSource is where `check` and `schema diff` find the schemas no file
// names: an endpoint's newest schema in an environment, and its two
// newest snapshots. `schema pull` keeps dated snapshots; wiring it is one
// implementation of this interface, set in newSchemaSource.
type schemaSource interface {
	// Latest is the newest schema of the endpoint (testing: the Testing
	// API's) in env, nil when there is none.
	Latest(ctx context.Context, env string, testing bool) (*schemafile.Schema, error)
	// LastTwo are the endpoint's two newest snapshots, the older first.
	LastTwo(ctx context.Context, env string, testing bool) (older, newer *schemafile.Schema, err error)
}

// errNoSnapshots: the source keeps one schema per endpoint, not a history.
var errNoSnapshots = errors.New("no earlier schema is kept to compare with")

// newSchemaSource is the source the commands use.
func newSchemaSource(f *Factory, cmd *cobra.Command) schemaSource {
	return &apiCacheSource{f: f, cmd: cmd}
}

// apiCacheSource reads the schema `partnertui api` caches for each
// endpoint after its first introspection. It knows one schema per
// endpoint, without deprecations (the api command does not ask for them).
type apiCacheSource struct {
	f   *Factory
	cmd *cobra.Command
}

func (s *apiCacheSource) Latest(ctx context.Context, env string, testing bool) (*schemafile.Schema, error) {
	if s.f.app == nil {
		// Built here, not before the command runs: with schema files
		// named, check needs no configuration at all.
		a, err := app.New(ctx, s.f.appOptions(s.cmd))
		if err != nil {
			return nil, err
		}
		s.f.app = a
	}
	name, err := s.f.app.EnvName(env)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	e, err := s.f.app.Env(name)
	if errors.Is(err, config.ErrNotConfigured) {
		return nil, nil // no environment, so nothing was ever cached for it
	}
	if err != nil {
		return nil, err
	}
	if s.f.app.Demo() {
		return nil, nil // the demo's emulator listens on a new port each run: nothing of it is cached
	}
	url, err := e.API.Endpoint(testing)
	if err != nil {
		return nil, err
	}
	dir, err := s.f.Locations.CacheDir()
	if err != nil {
		return nil, nil
	}
	entry, err := schemacache.New(dir).Load(url)
	if err != nil {
		return nil, nil // nothing usable is cached: the caller says so
	}
	what := "partner API"
	if testing {
		what = "Testing API"
	}
	label := fmt.Sprintf("the %s %s schema `partnertui api` cached on %s", config.EnvName(name), what, entry.Fetched.Format("2006-01-02"))
	sch, err := gqlop.SchemaFromIntrospection(entry.Introspection)
	if err != nil {
		return nil, nil
	}
	return schemafile.FromAST(label, sch, anyDeprecated(sch)), nil
}

// anyDeprecated: the schema marks a field or an enum value deprecated, so
// the introspection that read it asked which are (an entry cached before
// the query asked says nothing of them; the platform's schemas always
// have some).
func anyDeprecated(s *ast.Schema) bool {
	for _, t := range s.Types {
		for _, f := range t.Fields {
			if _, ok := schemafile.Deprecation(f.Directives); ok {
				return true
			}
		}
		for _, v := range t.EnumValues {
			if _, ok := schemafile.Deprecation(v.Directives); ok {
				return true
			}
		}
	}
	return false
}

func (s *apiCacheSource) LastTwo(context.Context, string, bool) (*schemafile.Schema, *schemafile.Schema, error) {
	return nil, nil, errNoSnapshots
}

// loadSchemaFile reads a schema named on the command line; a file that
// cannot be read or is not a schema is a usage error.
func loadSchemaFile(path string) (*schemafile.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &UsageError{Err: err, Explained: true}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, &UsageError{Err: err, Explained: true}
	}
	if !info.Mode().IsRegular() {
		return nil, &UsageError{Err: fmt.Errorf("%s is not a regular file", path), Explained: true}
	}
	b, err := io.ReadAll(io.LimitReader(f, schemafile.MaxFileSize+1))
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("%s: %w", path, err), Explained: true}
	}
	s, err := schemafile.Load(path, b)
	if err != nil {
		return nil, &UsageError{Err: err, Explained: true}
	}
	return s, nil
}
