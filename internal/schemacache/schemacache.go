// Package schemacache keeps the GraphQL schemas partnertui has read by
// introspection: one file per endpoint in the cache directory, with the
// endpoint's URL and the date its schema was read. `partnertui api`
// validates a hand-written operation against the endpoint's entry; the
// store is also what a command that pulls, lists or locates the schemas
// reads and writes. Files are never opened through a symbolic link and are
// replaced at once (internal/paths).
package schemacache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/partnertui/partnertui/internal/paths"
)

// maxFile bounds what is read of one entry (the partner schema's
// introspection answer is a few hundred kilobytes).
const maxFile = 32 << 20

// Entry is one endpoint's schema as kept.
type Entry struct {
	// Endpoint is the GraphQL URL the schema was read from.
	Endpoint string `json:"endpoint"`
	// Fetched is when it was read (UTC).
	Fetched time.Time `json:"fetched"`
	// Introspection is the endpoint's answer to the introspection query,
	// as it came.
	Introspection json.RawMessage `json:"introspection"`
}

// Listed is an entry without its schema: what List reports.
type Listed struct {
	Endpoint string
	Fetched  time.Time
	Path     string
}

// Store is the cache in one directory, which its caller resolved (the
// cache directory; a test's temporary one). It holds no state of its own:
// every call reads or writes the files.
type Store struct{ dir string }

// New is the store in dir, which must exist.
func New(dir string) *Store { return &Store{dir: dir} }

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Path is where the schema of endpoint is kept, whether or not it is yet.
func (s *Store) Path(endpoint string) string {
	sum := sha256.Sum256([]byte(endpoint))
	return filepath.Join(s.dir, filePrefix+hex.EncodeToString(sum[:8])+fileSuffix)
}

const (
	filePrefix = "schema-"
	fileSuffix = ".json"
)

// ErrNotCached reports that the store holds no schema of an endpoint.
var ErrNotCached = errors.New("no schema of this endpoint is cached")

// Load is the schema kept for endpoint. It fails with ErrNotCached when
// there is none, and with another error when its file cannot be used (a
// link, damaged, another endpoint's); either way the endpoint is to be
// read again.
func (s *Store) Load(endpoint string) (Entry, error) {
	path := s.Path(endpoint)
	e, err := read(path, true)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Entry{}, fmt.Errorf("%s: %w", endpoint, ErrNotCached)
	case err != nil:
		return Entry{}, err
	case e.Endpoint != endpoint:
		return Entry{}, fmt.Errorf("%s holds the schema of %s, not of %s", path, e.Endpoint, endpoint)
	}
	return e, nil
}

// Save keeps e, replacing what was kept for its endpoint (a temporary
// file renamed over it, which replaces a symbolic link rather than
// following it).
func (s *Store) Save(e Entry) error {
	if e.Endpoint == "" {
		return errors.New("schemacache: an entry without its endpoint")
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return paths.WriteFile(s.Path(e.Endpoint), b)
}

// List is every schema kept, by endpoint. A file that cannot be read is
// left out: the command that reads it again replaces it.
func (s *Store) List() ([]Listed, error) {
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var out []Listed
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() || !strings.HasPrefix(name, filePrefix) || !strings.HasSuffix(name, fileSuffix) {
			continue
		}
		path := filepath.Join(s.dir, name)
		e, err := read(path, false)
		if err != nil || s.Path(e.Endpoint) != path {
			continue
		}
		out = append(out, Listed{Endpoint: e.Endpoint, Fetched: e.Fetched, Path: path})
	}
	slices.SortFunc(out, func(a, b Listed) int { return strings.Compare(a.Endpoint, b.Endpoint) })
	return out, nil
}

// read decodes the entry at path (with its schema when full), never
// through a symbolic link.
func read(path string, full bool) (Entry, error) {
	f, err := paths.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	var e Entry
	var head struct {
		Endpoint string    `json:"endpoint"`
		Fetched  time.Time `json:"fetched"`
	}
	dec := json.NewDecoder(io.LimitReader(f, maxFile))
	if full {
		err = dec.Decode(&e)
	} else if err = dec.Decode(&head); err == nil {
		e.Endpoint, e.Fetched = head.Endpoint, head.Fetched
	}
	if err != nil {
		return Entry{}, fmt.Errorf("%s is damaged: %w", path, err)
	}
	return e, nil
}
