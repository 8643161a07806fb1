package schemacache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// SaveIntrospection keeps an endpoint's answer to the introspection query
// (internal/gqlop's) as a snapshot of its SDL, and returns it with the
// schema it holds. An answer that is no schema is refused: nothing is
// kept.
func (s *Store) SaveIntrospection(endpoint, environment string, pulled time.Time, answer []byte) (Snapshot, *schemafile.Schema, error) {
	if err := s.migrate(); err != nil {
		return Snapshot{}, nil, err
	}
	sdl, _, err := schemafile.SDL(answer)
	if err != nil {
		return Snapshot{}, nil, fmt.Errorf("%s did not answer the introspection query with a schema: %w", endpoint, err)
	}
	sch, err := schemafile.Load(endpoint, []byte(sdl))
	if err != nil {
		return Snapshot{}, nil, fmt.Errorf("the schema read from %w", err)
	}
	sn, err := s.write(Pull{Endpoint: endpoint, Environment: environment, Pulled: pulled, SDL: []byte(sdl)}, sch.Endpoint)
	if err != nil {
		return Snapshot{}, nil, err
	}
	sch.Name = sn.Label()
	return sn, sch, nil
}

// An earlier partnertui kept one introspection answer per endpoint, in
// the cache directory itself: schema-<hash>.json.
const (
	legacyPrefix = "schema-"
	legacySuffix = ".json"
	// maxLegacy bounds what is read of one (a few hundred kilobytes).
	maxLegacy = 32 << 20
)

type legacyEntry struct {
	Endpoint      string          `json:"endpoint"`
	Fetched       time.Time       `json:"fetched"`
	Introspection json.RawMessage `json:"introspection"`
}

// migrate turns each schema an earlier partnertui cached into a snapshot
// of its date, marked partial (its introspection did not read deprecated
// arguments and input fields), and removes its file. A file that is not
// such an entry is removed too (nothing reads it any more), a link left
// alone. Two processes migrating at once write the same snapshot.
func (s *Store) migrate() error {
	des, err := os.ReadDir(s.root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() || !strings.HasPrefix(name, legacyPrefix) || !strings.HasSuffix(name, legacySuffix) {
			continue
		}
		path := filepath.Join(s.root, name)
		if e, err := readLegacy(path); err == nil {
			if err := s.saveLegacy(e); err != nil && !errors.Is(err, errNoSchema) {
				return err
			}
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

var errNoSchema = errors.New("no schema")

func (s *Store) saveLegacy(e legacyEntry) error {
	sdl, _, err := schemafile.SDL(e.Introspection)
	if err != nil {
		return errNoSchema
	}
	sch, err := schemafile.Load(e.Endpoint, []byte(sdl))
	if err != nil {
		return errNoSchema
	}
	_, err = s.write(Pull{Endpoint: e.Endpoint, Pulled: e.Fetched, SDL: []byte(sdl), Partial: true}, sch.Endpoint)
	return err
}

func readLegacy(path string) (legacyEntry, error) {
	f, err := paths.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return legacyEntry{}, err
	}
	defer f.Close()
	var e legacyEntry
	if err := json.NewDecoder(io.LimitReader(f, maxLegacy)).Decode(&e); err != nil {
		return legacyEntry{}, err
	}
	if e.Endpoint == "" || e.Fetched.IsZero() {
		return legacyEntry{}, errNoSchema
	}
	return e, nil
}

// anyDeprecated: the schema marks a field or an enum value deprecated, so
// the introspection that read it asked which are (the platform's schemas
// always have some).
func anyDeprecated(s *schemafile.Schema) bool {
	for _, t := range s.AST.Types {
		for _, f := range t.Fields {
			if deprecated(f.Directives) {
				return true
			}
		}
		for _, v := range t.EnumValues {
			if deprecated(v.Directives) {
				return true
			}
		}
	}
	return false
}

func deprecated(d ast.DirectiveList) bool {
	_, ok := schemafile.Deprecation(d)
	return ok
}
