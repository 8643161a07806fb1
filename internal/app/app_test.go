package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/partnertui/partnertui/api"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testenv"
)

// The user and project clients of an environment share one connection
// pool; Sandbox and Live never do, so no connection (and no token) of one
// environment serves the other.
func TestEnvironmentClientsShareOnePoolPerEnvironment(t *testing.T) {
	t.Parallel()
	a, err := New(context.Background(), Options{Demo: true, Locations: testenv.NewHome(t).Locations})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	sb, err := a.Env(config.Sandbox)
	if err != nil {
		t.Fatal(err)
	}
	live, err := a.Env(config.Live)
	if err != nil {
		t.Fatal(err)
	}
	if sb.API == sb.ProjectAPI {
		t.Fatal("a user-token environment's project client is its user client")
	}
	for _, e := range []*Env{sb, live} {
		if !e.API.SharesConnectionsWith(e.ProjectAPI) {
			t.Errorf("%s: the user and project clients have separate connection pools", e.Name)
		}
	}
	for _, pair := range [][2]*Env{{sb, live}, {live, sb}} {
		if pair[0].API.SharesConnectionsWith(pair[1].API) || pair[0].ProjectAPI.SharesConnectionsWith(pair[1].ProjectAPI) ||
			pair[0].API.SharesConnectionsWith(pair[1].ProjectAPI) {
			t.Errorf("%s shares a connection pool with %s", pair[0].Name, pair[1].Name)
		}
	}
}

// The launch snapshot is the identity's own: another user, another client
// or the other environment never sees it; its file is 0600, written by
// rename, never read through a link, and gone after ForgetSnapshots.
func TestSnapshotIsPerIdentityAndGoesAtLogout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	who := struct{ client, subject string }{"SANDBOX_a", "user-1"}
	snap := func(env config.EnvName) *Snapshot {
		return &Snapshot{dir: dir, env: env, status: func() (string, string, bool) { return who.client, who.subject, who.subject != "" }}
	}
	home := &api.Home{User: &api.User{ID: "user-1"}, Accounts: &api.Page[api.Account]{Items: []api.Account{{ID: "acc-1", Name: "Kept"}}, TotalCount: 1}}
	if err := snap(config.Sandbox).Save(home); err != nil {
		t.Fatal(err)
	}
	got, saved, err := snap(config.Sandbox).Load()
	if err != nil || got == nil || got.Accounts.Items[0].Name != "Kept" || saved.IsZero() {
		t.Fatalf("Load = %+v, %v, %v", got, saved, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("files left: %v", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("snapshot mode %v, %v", fi.Mode(), err)
	}
	for _, other := range []struct {
		env             config.EnvName
		client, subject string
	}{{config.Live, "SANDBOX_a", "user-1"}, {config.Sandbox, "SANDBOX_a", "user-2"}, {config.Sandbox, "SANDBOX_b", "user-1"}, {config.Sandbox, "SANDBOX_a", ""}} {
		who.client, who.subject = other.client, other.subject
		if h, _, err := snap(other.env).Load(); h != nil || err != nil {
			t.Errorf("%+v sees the snapshot of SANDBOX_a/user-1: %+v, %v", other, h, err)
		}
	}
	who.client, who.subject = "SANDBOX_a", "user-1"

	// A link where the file goes is refused, not followed.
	target := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(target, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, files[0]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := snap(config.Sandbox).Load(); err == nil {
		t.Error("a snapshot read through a symbolic link")
	}
	if err := snap(config.Sandbox).Save(home); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "{}" {
		t.Error("saving wrote through the link")
	}

	a := &App{StateDir: dir}
	if err := a.ForgetSnapshots(config.Sandbox); err != nil {
		t.Fatal(err)
	}
	if h, _, _ := snap(config.Sandbox).Load(); h != nil {
		t.Error("the snapshot is still there after logout")
	}
}

// TestDemoServesASchema: --demo's emulator serves a schema it is given
// whole, and says which; without one it serves its modelled part.
func TestDemoServesASchema(t *testing.T) {
	t.Parallel()
	loc := testenv.NewHome(t).Locations
	schema := []byte("type Query { projectInfo: ProjectInfo! accounts: Int }\ntype ProjectInfo { id: ID! name: String! }\n")
	a, err := New(context.Background(), Options{Demo: true, Locations: loc, DemoSchemas: []emulator.Source{{Path: "pulled/partner.graphql", Data: schema}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	if got := a.DemoServes(); got["partner API"] != "pulled/partner.graphql" || len(got) != 1 {
		t.Errorf("DemoServes = %v", got)
	}
	plain, err := New(context.Background(), Options{Demo: true, Locations: loc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(plain.Close)
	if got := plain.DemoServes(); len(got) != 0 {
		t.Errorf("without a schema, DemoServes = %v", got)
	}
}

// TestFilesGoWhereTheLocationsSay: the app reads the configuration file
// and keeps its state in the directories it is given, made 0700, and
// --demo's throw-away token directory is made in the temporary directory
// given and gone once the app is closed.
func TestFilesGoWhereTheLocationsSay(t *testing.T) {
	t.Parallel()
	h := testenv.NewHome(t)
	a, err := New(context.Background(), Options{Locations: h.Locations})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	if a.ConfigFile != h.Locations.ConfigFile || a.StateDir != h.Locations.State {
		t.Errorf("config file %q, state %q; want %q, %q", a.ConfigFile, a.StateDir, h.Locations.ConfigFile, h.Locations.State)
	}
	if fi, err := os.Stat(h.Locations.State); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the state directory: %v, %v", fi, err)
	}
	if log, err := a.LogPath(); err != nil || log != filepath.Join(h.Locations.State, "partnertui.log") {
		t.Errorf("LogPath = %q, %v", log, err)
	}

	demo, err := New(context.Background(), Options{Demo: true, Locations: h.Locations})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(demo.StateDir) != h.Locations.Temp {
		t.Errorf("--demo keeps its tokens in %q, not in the temporary directory %q", demo.StateDir, h.Locations.Temp)
	}
	if log, err := demo.LogPath(); err != nil || log != filepath.Join(h.Locations.State, "partnertui.log") {
		t.Errorf("--demo's LogPath = %q, %v; want the real state directory's", log, err)
	}
	demo.Close()
	if left, _ := filepath.Glob(filepath.Join(h.Locations.Temp, "*")); len(left) > 0 {
		t.Errorf("--demo left %v behind", left)
	}
}
