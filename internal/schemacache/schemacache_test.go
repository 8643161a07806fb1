package schemacache

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCachedSchemaIsNeverReadThroughASymlink: a cached schema is read only
// from a regular file of ours, for the endpoint it was read from.
func TestCachedSchemaIsNeverReadThroughASymlink(t *testing.T) {
	t.Parallel()
	s := New(t.TempDir())
	c := Entry{Endpoint: "https://api.example.test/graphql", Fetched: time.Now().UTC(), Introspection: json.RawMessage(`{}`)}
	if err := s.Save(c); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(c.Endpoint); err != nil || got.Endpoint != c.Endpoint || !got.Fetched.Equal(c.Fetched) || string(got.Introspection) != "{}" {
		t.Fatalf("the cached schema was not read back: %+v, %v", got, err)
	}
	if _, err := s.Load("https://other.example.test/graphql"); !errors.Is(err, ErrNotCached) {
		t.Errorf("another endpoint's schema was used: %v", err)
	}
	// Another endpoint's entry planted at this endpoint's path is not used.
	other := New(t.TempDir())
	if err := other.Save(Entry{Endpoint: "https://other.example.test/graphql"}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(other.Path("https://other.example.test/graphql"))
	planted := New(t.TempDir())
	if err := os.WriteFile(planted.Path(c.Endpoint), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := planted.Load(c.Endpoint); err == nil {
		t.Error("an entry of another endpoint was used")
	}

	file := s.Path(c.Endpoint)
	target := filepath.Join(t.TempDir(), "schema.json")
	before, _ := os.ReadFile(file)
	if err := os.WriteFile(target, before, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, file); err != nil {
		t.Skip(err)
	}
	if _, err := s.Load(c.Endpoint); err == nil {
		t.Error("a schema was read through a symlink")
	}
	// Writing over the link replaces it, leaving its target alone.
	if err := s.Save(Entry{Endpoint: c.Endpoint}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(target)
	if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() || string(before) != string(after) {
		t.Errorf("writing through the link: %v, target changed %v", err, string(before) != string(after))
	}
}

// TestListNamesEachEndpoint: List reports each entry kept, by endpoint,
// with its date and file, and leaves out what is not an entry of ours.
func TestListNamesEachEndpoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := New(dir)
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, ep := range []string{"https://b.example.test/graphql", "https://a.example.test/graphql"} {
		if err := s.Save(Entry{Endpoint: ep, Fetched: at, Introspection: json.RawMessage(`{"data":{}}`)}); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"schema-damaged.json": "{", "other.json": `{"endpoint":"x"}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Endpoint != "https://a.example.test/graphql" || got[1].Endpoint != "https://b.example.test/graphql" {
		t.Fatalf("List = %+v", got)
	}
	for _, l := range got {
		if !l.Fetched.Equal(at) || l.Path != s.Path(l.Endpoint) {
			t.Errorf("%+v: want fetched %v at %s", l, at, s.Path(l.Endpoint))
		}
	}
}
