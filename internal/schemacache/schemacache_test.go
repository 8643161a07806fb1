package schemacache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

const (
	sandboxURL = "https://api.example.test/sandbox-partner/graphql"
	liveURL    = "https://api.example.test/live-partner/graphql"
)

// partnerSDL is a schema the partner API's query names (internal/platform)
// make a partner API schema; v tells versions apart.
func partnerSDL(v string) []byte {
	return []byte(fmt.Sprintf("type Query {\n  projectInfo: String\n  v%s: Int @deprecated(reason: \"gone soon\")\n}\n", v))
}

var t0 = time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)

func save(t testing.TB, s *Store, endpoint, env string, at time.Time, sdl []byte) Snapshot {
	t.Helper()
	sn, err := s.Save(Pull{Endpoint: endpoint, Environment: env, Pulled: at, SDL: sdl})
	if err != nil {
		t.Fatal(err)
	}
	return sn
}

// TestEachPullIsADatedSnapshotOfSDL: a pull is kept as a file of SDL
// (any tool reads it) headed by its endpoint, environment, API, date and
// hash; an endpoint's snapshots come oldest first, the newest is Latest,
// List has every endpoint's.
func TestEachPullIsADatedSnapshotOfSDL(t *testing.T) {
	t.Parallel()
	s := New(t.TempDir())
	first := save(t, s, sandboxURL, "sandbox", t0, partnerSDL("1"))
	second := save(t, s, sandboxURL, "sandbox", t0.Add(24*time.Hour), partnerSDL("2"))
	live := save(t, s, liveURL, "live", t0.Add(time.Hour), partnerSDL("1"))

	sum := sha256.Sum256(partnerSDL("1"))
	if first.Hash != hex.EncodeToString(sum[:]) || first.API != schemafile.Partner || first.Environment != "sandbox" ||
		!first.Pulled.Equal(t0) || filepath.Dir(first.Path) != s.EndpointDir(sandboxURL) || live.Hash != first.Hash {
		t.Errorf("first pull %+v", first)
	}
	if got := filepath.Base(s.EndpointDir(sandboxURL)); !strings.HasPrefix(got, "api.example.test-sandbox-partner-graphql-") {
		t.Errorf("the endpoint's folder is %q: want its host and path, readable", got)
	}
	raw, err := os.ReadFile(second.Path)
	if err != nil {
		t.Fatal(err)
	}
	wantHead := magic + "\n# endpoint: " + sandboxURL + "\n# environment: sandbox\n# api: partner\n# pulled: 2026-11-26T06:00:00Z\n# sha256: " + second.Hash + "\n\n"
	if string(raw) != wantHead+string(partnerSDL("2")) {
		t.Errorf("the file is\n%s\nwant\n%s%s", raw, wantHead, partnerSDL("2"))
	}
	if _, err := schemafile.Load(second.Path, raw); err != nil {
		t.Errorf("the file is not SDL a tool reads as it is: %v", err)
	}

	kept, err := s.Snapshots(sandboxURL)
	if err != nil || len(kept) != 2 || kept[0] != first || kept[1] != second {
		t.Fatalf("Snapshots = %+v, %v; want the two pulls, oldest first", kept, err)
	}
	if latest, err := s.Latest(sandboxURL); err != nil || latest != second {
		t.Errorf("Latest = %+v, %v", latest, err)
	}
	if _, err := s.Latest("https://other.example.test/graphql"); !errors.Is(err, ErrNotCached) {
		t.Errorf("another endpoint: %v, want ErrNotCached", err)
	}
	all, err := s.List()
	if err != nil || len(all) != 3 || all[0] != live || all[1] != first || all[2] != second {
		t.Errorf("List = %+v, %v; want by endpoint, each oldest first", all, err)
	}
	sch, err := s.Load(second)
	if err != nil || sch.Name != "sandbox partner API pulled 2026-11-26 06:00:00 UTC" || !sch.Deprecations || sch.AST.Query.Fields.ForName("v2") == nil {
		t.Errorf("Load = %+v, %v", sch, err)
	}
	newest, err := s.NewestOfEachAPI()
	if err != nil || len(newest) != 1 || newest[schemafile.Partner] != second {
		t.Errorf("NewestOfEachAPI = %+v, %v", newest, err)
	}
}

// TestARunOfIdenticalPullsKeepsItsFirstAndLast: identical pulls in a row
// are kept as the first and the last (the last two pulls are then the
// same schema: nothing changed), and no endpoint keeps more than
// MaxKept.
func TestARunOfIdenticalPullsKeepsItsFirstAndLast(t *testing.T) {
	t.Parallel()
	s := New(t.TempDir())
	for i := range 4 {
		save(t, s, sandboxURL, "sandbox", t0.Add(time.Duration(i)*time.Hour), partnerSDL("1"))
	}
	kept, _ := s.Snapshots(sandboxURL)
	if len(kept) != 2 || !kept[0].Pulled.Equal(t0) || !kept[1].Pulled.Equal(t0.Add(3*time.Hour)) {
		t.Fatalf("kept %+v; want the first and the last of the run", kept)
	}
	save(t, s, sandboxURL, "sandbox", t0.Add(4*time.Hour), partnerSDL("2"))
	save(t, s, sandboxURL, "sandbox", t0.Add(5*time.Hour), partnerSDL("1"))
	if kept, _ = s.Snapshots(sandboxURL); len(kept) != 4 {
		t.Fatalf("kept %d, want 4: a schema seen again after another is a new run", len(kept))
	}
	for i := range MaxKept + 3 {
		save(t, s, sandboxURL, "sandbox", t0.Add(time.Duration(10+i)*time.Hour), partnerSDL(fmt.Sprint(10+i)))
	}
	kept, _ = s.Snapshots(sandboxURL)
	if len(kept) != MaxKept || !kept[0].Pulled.Equal(t0.Add(13*time.Hour)) || !kept[MaxKept-1].Pulled.Equal(t0.Add(time.Duration(12+MaxKept)*time.Hour)) {
		t.Errorf("kept %d from %v to %v; want the newest %d", len(kept), kept[0].Pulled, kept[len(kept)-1].Pulled, MaxKept)
	}
	if files, _ := filepath.Glob(filepath.Join(s.EndpointDir(sandboxURL), "*")); len(files) != MaxKept {
		t.Errorf("%d files left in the folder, want %d", len(files), MaxKept)
	}
}

// TestSnapshotsAreNeverReadThroughALink: a link planted among the
// snapshots, or in place of an endpoint's folder, is not followed; a file
// changed since it was pulled is refused; what is not a snapshot is left
// out; a schema that does not load is not kept.
func TestSnapshotsAreNeverReadThroughALink(t *testing.T) {
	t.Parallel()
	s := New(t.TempDir())
	sn := save(t, s, sandboxURL, "sandbox", t0, partnerSDL("1"))
	dir := s.EndpointDir(sandboxURL)
	target := filepath.Join(t.TempDir(), "elsewhere.graphql")
	raw, _ := os.ReadFile(sn.Path)
	if err := os.WriteFile(target, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	later := filepath.Join(dir, "20270101T000000.000000000Z-000000000000.graphql")
	if err := os.Symlink(target, later); err != nil {
		t.Skip(err)
	}
	for name, body := range map[string]string{"notes.graphql": "type Query { a: Int }", "damaged.graphql": magic + "\n# endpoint: x\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if kept, err := s.Snapshots(sandboxURL); err != nil || len(kept) != 1 || kept[0] != sn {
		t.Errorf("Snapshots = %+v, %v; want the one pull, not the link nor the other files", kept, err)
	}
	if _, err := s.Load(Snapshot{Path: later}); err == nil {
		t.Error("a snapshot was read through a link")
	}

	changed := strings.Replace(string(raw), "projectInfo", "projectInf0", 1)
	if err := os.WriteFile(sn.Path, []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(sn); err == nil || !strings.Contains(err.Error(), "was changed since it was pulled") {
		t.Errorf("a changed file: %v", err)
	}

	if _, err := s.Save(Pull{Endpoint: sandboxURL, Pulled: t0, SDL: []byte("type Query {")}); err == nil {
		t.Error("a schema that does not load was kept")
	}

	// A link in place of an endpoint's folder is refused, never written
	// through.
	other := New(t.TempDir())
	elsewhere := t.TempDir()
	if err := os.MkdirAll(other.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, other.EndpointDir(liveURL)); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Save(Pull{Endpoint: liveURL, Pulled: t0, SDL: partnerSDL("1")}); err == nil {
		t.Error("a pull was written through a linked folder")
	}
	if _, err := other.Snapshots(liveURL); err == nil {
		t.Error("a linked folder was read")
	}
	if left, _ := os.ReadDir(elsewhere); len(left) != 0 {
		t.Errorf("the link's target holds %v", left)
	}
}

// TestAnEarlierCacheBecomesSnapshots: the one introspection answer per
// endpoint an earlier partnertui kept becomes a snapshot of its date,
// marked partial, and its file goes.
func TestAnEarlierCacheBecomesSnapshots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	answer := `{"data":{"__schema":{"queryType":{"name":"Query"},"types":[{"kind":"OBJECT","name":"Query","fields":[
{"name":"projectInfo","args":[],"type":{"kind":"SCALAR","name":"String"},"isDeprecated":false,"deprecationReason":null},
{"name":"old","args":[],"type":{"kind":"SCALAR","name":"String"},"isDeprecated":true,"deprecationReason":"use projectInfo"}]}]}}}`
	entry, _ := json.Marshal(map[string]any{"endpoint": sandboxURL, "fetched": t0, "introspection": json.RawMessage(answer)})
	for name, body := range map[string][]byte{"schema-0123456789abcdef.json": entry, "schema-damaged.json": []byte("{")} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := New(dir)
	sn, err := s.Latest(sandboxURL)
	if err != nil || !sn.Partial || !sn.Pulled.Equal(t0) || sn.Environment != "" || sn.API != schemafile.Partner {
		t.Fatalf("Latest = %+v, %v; want the earlier cache's schema, partial, of its date", sn, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "schema-*.json")); len(left) != 0 {
		t.Errorf("the earlier files are still there: %v", left)
	}
	sch, err := s.Load(sn)
	if err != nil || !sch.Deprecations || !strings.HasPrefix(sch.Name, "the partner API cached by an earlier partnertui on 2026-11-25 06:00:00 UTC, without deprecated arguments and input fields") {
		t.Errorf("Load = %+v, %v", sch, err)
	}
	if raw, _ := os.ReadFile(sn.Path); !strings.Contains(string(raw), "# partial: ") || !strings.Contains(string(raw), `old: String @deprecated(reason: "use projectInfo")`) {
		t.Errorf("the snapshot reads\n%s", raw)
	}
}

// BenchmarkLoadPartnerSnapshot: what `partnertui api` and `check` pay to
// read the newest snapshot of the partner API (the header, the hash
// checked, the SDL parsed).
func BenchmarkLoadPartnerSnapshot(b *testing.B) {
	s := New(b.TempDir())
	save(b, s, sandboxURL, "sandbox", t0, reference.Read(b, reference.PartnerSchema))
	b.ResetTimer()
	for b.Loop() {
		sn, err := s.Latest(sandboxURL)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Load(sn); err != nil {
			b.Fatal(err)
		}
	}
}
