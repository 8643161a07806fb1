package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/schemacache"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// schemaSource is where `check` and `schema diff` find the schemas no file
// names: an endpoint's newest schema in an environment, and its two
// newest snapshots.
type schemaSource interface {
	// Latest is the newest schema of the endpoint (testing: the Testing
	// API's) in env, nil when there is none.
	Latest(ctx context.Context, env string, testing bool) (*schemafile.Schema, error)
	// LastTwo are the endpoint's two newest snapshots, the older first;
	// older is nil when only one was pulled, and the error wraps
	// errNoSnapshots when none was.
	LastTwo(ctx context.Context, env string, testing bool) (older, newer *schemafile.Schema, err error)
}

// errNoSnapshots: no schema of the endpoint was pulled.
var errNoSnapshots = errors.New("no schema of this endpoint was pulled")

// newSchemaSource is the source the commands use: the snapshots `schema
// pull` (and `partnertui api`) keep in the cache directory.
func newSchemaSource(f *Factory, cmd *cobra.Command) schemaSource {
	return &snapshotSource{f: f, cmd: cmd}
}

type snapshotSource struct {
	f   *Factory
	cmd *cobra.Command
}

func (s *snapshotSource) Latest(ctx context.Context, env string, testing bool) (*schemafile.Schema, error) {
	ep, err := s.f.resolveEndpoint(ctx, s.cmd, env, testing)
	if err != nil || ep.url == "" {
		return nil, err // Live has no Testing API: nothing to check against
	}
	store, err := s.f.schemaStore()
	if err != nil {
		return nil, err
	}
	sn, err := store.Latest(ep.url)
	if errors.Is(err, schemacache.ErrNotCached) {
		return nil, nil // the caller says what to do
	}
	if err != nil {
		return nil, err
	}
	return store.Load(sn)
}

func (s *snapshotSource) LastTwo(ctx context.Context, env string, testing bool) (*schemafile.Schema, *schemafile.Schema, error) {
	ep, err := s.f.resolveEndpoint(ctx, s.cmd, env, testing)
	if err != nil {
		return nil, nil, err
	}
	if ep.url == "" {
		return nil, nil, noTestingAPI(ep.env)
	}
	store, err := s.f.schemaStore()
	if err != nil {
		return nil, nil, err
	}
	kept, err := store.Snapshots(ep.url)
	if err != nil {
		return nil, nil, err
	}
	if len(kept) == 0 {
		return nil, nil, fmt.Errorf("%w: the %s (%s)", errNoSnapshots, ep, ep.url)
	}
	newer, err := store.Load(kept[len(kept)-1])
	if err != nil || len(kept) == 1 {
		return nil, newer, err
	}
	older, err := store.Load(kept[len(kept)-2])
	return older, newer, err
}

// schemaEndpoint is an endpoint of the platform as the configuration
// names it.
type schemaEndpoint struct {
	env     config.EnvName
	testing bool
	url     string // "" for Live's Testing API, which does not exist
}

func (e schemaEndpoint) String() string {
	if e.testing {
		return string(e.env) + " Testing API"
	}
	return string(e.env) + " partner API"
}

// resolveEndpoint is the endpoint of env (--env; "" the configuration's
// default) that testing selects. Only the configuration is read: no
// credentials are needed.
func (f *Factory) resolveEndpoint(ctx context.Context, cmd *cobra.Command, env string, testing bool) (schemaEndpoint, error) {
	if f.app == nil {
		// Built here, not before the command runs: with schema files
		// named, check and diff need no configuration at all.
		a, err := app.New(ctx, f.appOptions(cmd))
		if err != nil {
			return schemaEndpoint{}, err
		}
		f.app = a
	}
	name, err := f.app.EnvName(env)
	if err != nil {
		return schemaEndpoint{}, &UsageError{Err: err}
	}
	ep := schemaEndpoint{env: name, testing: testing, url: f.app.Config.Env(name).GraphQLURL()}
	if testing {
		ep.url = f.app.Config.Env(name).TestingGraphQLURL()
	}
	return ep, nil
}

// noTestingAPI: --testing with --env live.
func noTestingAPI(env config.EnvName) error {
	return usageErrorf("%s has no Testing API (it exists only in Sandbox): use --env sandbox with --testing", env)
}

// pulledSchemas are the files of the newest snapshots of the partner API
// and of the Testing API, over every environment: what `emulator --schema
// auto` and --demo serve whole.
func (f *Factory) pulledSchemas() ([]emulator.Source, error) {
	store, err := f.schemaStore()
	if err != nil {
		return nil, err
	}
	newest, err := store.NewestOfEachAPI()
	if err != nil {
		return nil, err
	}
	var out []emulator.Source
	for _, api := range []schemafile.Endpoint{schemafile.Partner, schemafile.Testing} {
		if sn, ok := newest[api]; ok {
			out = append(out, emulator.Source{Path: sn.Path})
		}
	}
	return out, nil
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
