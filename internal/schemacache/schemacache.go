// Package schemacache keeps the GraphQL schemas partnertui reads from the
// platform by introspection, as dated snapshots: each read of an endpoint
// (`partnertui schema pull`, or `partnertui api`'s first look at one) is a
// file of SDL headed by comments that say its endpoint, environment, API,
// date and the SHA-256 of the SDL, in one directory per endpoint of the
// cache directory. The newest snapshot of an endpoint is what
// `partnertui api` validates against and what `check` checks with; the
// two newest are what `schema diff` compares; the files are what
// `partnertui emulator --schema auto` serves. A file is SDL any tool
// reads. Files are never opened through a symbolic link and are replaced
// at once (internal/paths). The store holds no state of its own: every
// call reads or writes the files, so processes share it.
package schemacache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// MaxKept bounds the snapshots kept of one endpoint: a pull past it
// removes the oldest.
const MaxKept = 20

// Snapshot is one read of an endpoint's schema, as kept.
type Snapshot struct {
	// Endpoint is the GraphQL URL the schema was read from.
	Endpoint string `json:"endpoint"`
	// Environment is "sandbox" or "live"; "" when it is not known (a
	// schema an earlier partnertui cached).
	Environment string `json:"environment"`
	// API is which API the schema is, by its root types.
	API schemafile.Endpoint `json:"api"`
	// Pulled is when it was read (UTC).
	Pulled time.Time `json:"pulled"`
	// Hash is the SHA-256 of the SDL, in hex.
	Hash string `json:"sha256"`
	// Path is the file.
	Path string `json:"path"`
	// Partial: read by an earlier partnertui, whose introspection left
	// out deprecated arguments and input fields and did not say which
	// arguments and input fields are deprecated.
	Partial bool `json:"partial,omitempty"`
}

// ShortHash is the hash's first 12 digits, as listings show it.
func (s Snapshot) ShortHash() string { return s.Hash[:min(len(s.Hash), 12)] }

// Label names the snapshot in messages: "sandbox partner API pulled
// 2026-11-25 06:00:01 UTC".
// A partial one says what it lacks.
func (s Snapshot) Label() string {
	at := s.Pulled.UTC().Format("2006-01-02 15:04:05 MST")
	if s.Partial {
		return fmt.Sprintf("the %s cached by an earlier partnertui on %s, without deprecated arguments and input fields: `partnertui schema pull` reads them",
			s.API.Title(), at)
	}
	return fmt.Sprintf("%s %s pulled %s", s.Environment, s.API.Title(), at)
}

// Pull is a schema read from an endpoint, to keep.
type Pull struct {
	Endpoint    string
	Environment string
	Pulled      time.Time
	// SDL is the schema; it must load (internal/schemafile).
	SDL     []byte
	Partial bool
}

// Store is the snapshots kept in one cache directory, which its caller
// resolved (the cache directory; a test's temporary one).
type Store struct{ root string }

// New is the store in dir, the cache directory: the snapshots go to its
// schemas folder, created when the first is kept.
func New(dir string) *Store { return &Store{root: dir} }

// Dir is the folder of the snapshots, one folder per endpoint in it.
func (s *Store) Dir() string { return filepath.Join(s.root, "schemas") }

// EndpointDir is the folder of endpoint's snapshots: its host and path,
// readable, and a hash of the whole URL, so two URLs never share one.
func (s *Store) EndpointDir(endpoint string) string {
	name := endpoint
	if u, err := url.Parse(endpoint); err == nil && u.Host != "" {
		name = u.Host + u.Path
	}
	var b strings.Builder
	dash := false
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.'
		if ok {
			b.WriteRune(r)
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = !ok
	}
	slug := strings.Trim(b.String(), "-.")
	if len(slug) > 60 {
		slug = slug[:60]
	}
	sum := sha256.Sum256([]byte(endpoint))
	return filepath.Join(s.Dir(), slug+"-"+hex.EncodeToString(sum[:4]))
}

// ErrNotCached reports that the store holds no schema of an endpoint.
var ErrNotCached = errors.New("no schema of this endpoint is kept")

// The header of a snapshot file: comments, so the file is plain SDL.
const (
	magic     = "# partnertui schema snapshot: `partnertui schema list` reads this header"
	maxHeader = 4 << 10
	// maxEndpoint keeps a header within maxHeader.
	maxEndpoint = 2 << 10
	fileSuffix  = ".graphql"
	timeLayout  = "20060102T150405.000000000Z"
)

// Save keeps p as a new snapshot of its endpoint and returns it. A pull
// identical to the two before it replaces the later of them, so a run of
// identical pulls is kept as its first and its last (when the schema was
// first and last seen); past MaxKept the oldest go.
func (s *Store) Save(p Pull) (Snapshot, error) {
	if err := s.migrate(); err != nil {
		return Snapshot{}, err
	}
	sch, err := schemafile.Load(p.Endpoint, p.SDL)
	if err != nil {
		return Snapshot{}, fmt.Errorf("the schema read from %w", err)
	}
	return s.write(p, sch.Endpoint)
}

// write keeps p, a schema of api, then prunes its endpoint's snapshots.
func (s *Store) write(p Pull, api schemafile.Endpoint) (Snapshot, error) {
	if p.Endpoint == "" || len(p.Endpoint) > maxEndpoint {
		return Snapshot{}, fmt.Errorf("schemacache: an endpoint of %d bytes (1 to %d)", len(p.Endpoint), maxEndpoint)
	}
	for _, v := range []string{p.Endpoint, p.Environment} {
		if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return Snapshot{}, fmt.Errorf("schemacache: %q cannot be written in a header line", v)
		}
	}
	sum := sha256.Sum256(p.SDL)
	sn := Snapshot{Endpoint: p.Endpoint, Environment: p.Environment, API: api, Pulled: p.Pulled.UTC(),
		Hash: hex.EncodeToString(sum[:]), Partial: p.Partial}
	dir := s.EndpointDir(p.Endpoint)
	if err := ensureDir(dir); err != nil {
		return Snapshot{}, err
	}
	sn.Path = filepath.Join(dir, sn.Pulled.Format(timeLayout)+"-"+sn.ShortHash()+fileSuffix)
	var b bytes.Buffer
	writeHeader(&b, sn)
	b.Write(p.SDL)
	if err := paths.WriteFile(sn.Path, b.Bytes()); err != nil {
		return Snapshot{}, err
	}
	return sn, s.prune(p.Endpoint)
}

func writeHeader(b *bytes.Buffer, sn Snapshot) {
	fmt.Fprintf(b, "%s\n# endpoint: %s\n# environment: %s\n# api: %s\n# pulled: %s\n# sha256: %s\n",
		magic, sn.Endpoint, sn.Environment, sn.API, sn.Pulled.Format(time.RFC3339Nano), sn.Hash)
	if sn.Partial {
		b.WriteString("# partial: read by an earlier partnertui, without deprecated arguments and input fields\n")
	}
	b.WriteString("\n")
}

// prune removes the middle of a run of three identical pulls, then what
// is past MaxKept. Another process may have removed a file already.
func (s *Store) prune(endpoint string) error {
	kept, err := s.kept(endpoint)
	if err != nil {
		return err
	}
	var drop []Snapshot
	if n := len(kept); n >= 3 && kept[n-1].Hash == kept[n-2].Hash && kept[n-2].Hash == kept[n-3].Hash {
		drop = append(drop, kept[n-2])
		kept = slices.Delete(kept, n-2, n-1)
	}
	if len(kept) > MaxKept {
		drop = append(drop, kept[:len(kept)-MaxKept]...)
	}
	for _, d := range drop {
		if err := os.Remove(d.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Snapshots are endpoint's snapshots, the oldest first. A file that
// cannot be read is left out.
func (s *Store) Snapshots(endpoint string) ([]Snapshot, error) {
	if err := s.migrate(); err != nil {
		return nil, err
	}
	return s.kept(endpoint)
}

func (s *Store) kept(endpoint string) ([]Snapshot, error) {
	all, err := s.readDir(s.EndpointDir(endpoint))
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(sn Snapshot) bool { return sn.Endpoint != endpoint }), nil
}

// Latest is endpoint's newest snapshot; ErrNotCached when there is none.
func (s *Store) Latest(endpoint string) (Snapshot, error) {
	kept, err := s.Snapshots(endpoint)
	if err != nil {
		return Snapshot{}, err
	}
	if len(kept) == 0 {
		return Snapshot{}, fmt.Errorf("%s: %w", endpoint, ErrNotCached)
	}
	return kept[len(kept)-1], nil
}

// List is every snapshot kept, by endpoint, each endpoint's oldest first.
func (s *Store) List() ([]Snapshot, error) {
	if err := s.migrate(); err != nil {
		return nil, err
	}
	des, err := os.ReadDir(s.Dir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Snapshot
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		dir := filepath.Join(s.Dir(), de.Name())
		kept, err := s.readDir(dir)
		if err != nil {
			return nil, err
		}
		// Only the files of the folder their endpoint names.
		out = append(out, slices.DeleteFunc(kept, func(sn Snapshot) bool { return s.EndpointDir(sn.Endpoint) != dir })...)
	}
	slices.SortStableFunc(out, func(a, b Snapshot) int {
		if c := strings.Compare(a.Endpoint, b.Endpoint); c != 0 {
			return c
		}
		return a.Pulled.Compare(b.Pulled)
	})
	return out, nil
}

// NewestOfEachAPI is the newest snapshot of each API (the partner API, the
// Testing API, any other) over every endpoint and environment.
func (s *Store) NewestOfEachAPI() (map[schemafile.Endpoint]Snapshot, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	out := map[schemafile.Endpoint]Snapshot{}
	for _, sn := range all {
		if cur, ok := out[sn.API]; !ok || sn.Pulled.After(cur.Pulled) {
			out[sn.API] = sn
		}
	}
	return out, nil
}

// Load reads the schema of sn, checking that the file still holds what
// its header says (a file changed since is refused), named by its label.
func (s *Store) Load(sn Snapshot) (*schemafile.Schema, error) {
	b, err := paths.ReadFile(sn.Path)
	if err != nil {
		return nil, err
	}
	got, body, err := parse(sn.Path, b)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(body); hex.EncodeToString(sum[:]) != got.Hash {
		return nil, fmt.Errorf("%s was changed since it was pulled (its SHA-256 is not the one its header says): `partnertui schema pull` reads the schema again", sn.Path)
	}
	sch, err := schemafile.Load(sn.Path, body)
	if err != nil {
		return nil, err
	}
	sch.Name = got.Label()
	// SDL says what is deprecated; a partial snapshot said it of fields
	// and enum values only when its introspection asked.
	sch.Deprecations = !got.Partial || anyDeprecated(sch)
	return sch, nil
}

// readDir reads the headers of the snapshots in dir, the oldest first;
// none when dir does not exist. A file that is not a snapshot is left
// out.
func (s *Store) readDir(dir string) ([]Snapshot, error) {
	if fi, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder of ours (a link or a file): remove it and pull again", dir)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Snapshot
	for _, de := range des {
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), fileSuffix) {
			continue
		}
		sn, err := readHeader(filepath.Join(dir, de.Name()))
		if err != nil {
			continue
		}
		out = append(out, sn)
	}
	slices.SortStableFunc(out, func(a, b Snapshot) int { return a.Pulled.Compare(b.Pulled) })
	return out, nil
}

func readHeader(path string) (Snapshot, error) {
	f, err := paths.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return Snapshot{}, err
	}
	defer f.Close()
	head := make([]byte, maxHeader)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Snapshot{}, err
	}
	sn, _, err := parse(path, head[:n])
	return sn, err
}

// parse reads the header of a snapshot file and returns it with the SDL
// after it (what is left of b).
func parse(path string, b []byte) (Snapshot, []byte, error) {
	sn := Snapshot{Path: path}
	rest := b
	line := func() (string, bool) {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return "", false
		}
		l := string(rest[:i])
		rest = rest[i+1:]
		return l, true
	}
	if l, ok := line(); !ok || l != magic {
		return Snapshot{}, nil, fmt.Errorf("%s is not a schema snapshot of partnertui's", path)
	}
	for {
		l, ok := line()
		if !ok {
			return Snapshot{}, nil, fmt.Errorf("%s: its header does not end", path)
		}
		if l == "" {
			break
		}
		key, value, ok := strings.Cut(strings.TrimPrefix(l, "# "), ": ")
		if !ok || !strings.HasPrefix(l, "# ") {
			return Snapshot{}, nil, fmt.Errorf("%s: a header line that is not `# key: value`: %q", path, l)
		}
		switch key {
		case "endpoint":
			sn.Endpoint = value
		case "environment":
			sn.Environment = value
		case "api":
			sn.API = schemafile.Endpoint(value)
		case "pulled":
			t, err := time.Parse(time.RFC3339Nano, value)
			if err != nil {
				return Snapshot{}, nil, fmt.Errorf("%s: its date: %w", path, err)
			}
			sn.Pulled = t.UTC()
		case "sha256":
			sn.Hash = value
		case "partial":
			sn.Partial = true
		}
	}
	if sn.Endpoint == "" || sn.Pulled.IsZero() || len(sn.Hash) != 2*sha256.Size {
		return Snapshot{}, nil, fmt.Errorf("%s: its header lacks the endpoint, the date or the hash", path)
	}
	return sn, rest, nil
}

// ensureDir makes dir (0700) and refuses one that is a link.
func ensureDir(dir string) error {
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is not a folder of ours (a link or a file): remove it and pull again", dir)
	}
	return paths.EnsureDir(dir)
}
