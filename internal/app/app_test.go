package app

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/testenv"
	"github.com/partnertui/partnertui/internal/testkit/consent"
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
	if !strings.HasPrefix(demo.StateDir, h.Locations.Temp+string(filepath.Separator)) {
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

// A payment's consent sends the browser back to ConsentRedirect: a page
// of this process that loads (under --demo, as against the platform), the
// same one for every payment, gone once the app is closed.
func TestConsentRedirectLandsOnAPageThatLoads(t *testing.T) {
	t.Parallel()
	h := testenv.NewHome(t)
	ctx := context.Background()
	a, err := New(ctx, Options{Demo: true, Locations: h.Locations})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			a.Close()
		}
	})
	e, err := a.Env(config.Sandbox)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.EnsureSignedIn(ctx, e); err != nil {
		t.Fatal(err)
	}
	me, err := e.API.User(ctx)
	if err != nil {
		t.Fatal(err)
	}
	consent.Manual(t, e.API, me.ID)
	page, err := e.API.Accounts(ctx, api.AccountsParams{First: 50, Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	accountID := ""
	for _, acc := range page.Items {
		if acc.IBAN != "" && acc.Currency == "EUR" {
			accountID = acc.ID
			break
		}
	}
	if accountID == "" {
		t.Fatalf("none of %d opened accounts is in EUR with an IBAN", len(page.Items))
	}
	redirect, err := a.ConsentRedirect()
	if err != nil {
		t.Fatal(err)
	}
	if again, err := a.ConsentRedirect(); err != nil || again != redirect {
		t.Fatalf("a second payment returns to %q (%v), the first to %q", again, err, redirect)
	}
	p, err := e.API.InitiateCreditTransfers(ctx, api.InitiateCreditTransfersInput{AccountID: accountID, ConsentRedirectURL: redirect,
		CreditTransfer: api.CreditTransferInput{Amount: api.Amount{Value: "1.00", Currency: "EUR"},
			SepaBeneficiary: api.SepaBeneficiaryInput{IBAN: "DE89370400440532013000", Name: "Landing test"}, Label: "landing"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != "ConsentPending" || p.ConsentURL == "" {
		t.Fatalf("the payment is %s with consent page %q, want ConsentPending with one", p.Status, p.ConsentURL)
	}

	// The browser: it follows the consent page's redirect.
	browser := &http.Client{Timeout: 10 * time.Second}
	resp, err := browser.Get(p.ConsentURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	consentURL, _ := url.Parse(p.ConsentURL)
	form := url.Values{"consentId": {consentURL.Query().Get("consentId")}, "decision": {"accept"}}
	consentURL.RawQuery = ""
	resp, err = browser.PostForm(consentURL.String(), form)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.String(), redirect) ||
		!strings.Contains(string(body), "go back to partnertui") {
		t.Fatalf("the browser landed on %s: HTTP %d\n%s", resp.Request.URL, resp.StatusCode, body)
	}

	a.Close()
	closed = true
	if resp, err := browser.Get(redirect); err == nil {
		resp.Body.Close()
		t.Error("the page still answers once the app is closed")
	}
}

// The launch snapshot's text passes the sanitiser when it is read back
// (issue 31, item 3): a file changed since it was saved (only the user's
// own 0600 file can be) brings no control, escape or bidi override to
// the screen, whichever string of the first screen it hides in.
func TestSnapshotTextIsCleanedWhenReadBack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	snap := &Snapshot{dir: dir, env: config.Sandbox, status: func() (string, string, bool) { return "SANDBOX_a", "user-1", true }}
	for _, sample := range safetext.HostileSamples() {
		bal := api.Balances{Available: api.Amount{Value: sample.In, Currency: sample.In}}
		home := &api.Home{
			User:    &api.User{ID: sample.In, FullName: sample.In, FirstName: sample.In, MobilePhoneNumber: sample.In},
			Project: &api.ProjectInfo{Name: sample.In},
			Accounts: &api.Page[api.Account]{TotalCount: 1, Items: []api.Account{{ID: sample.In, Name: sample.In, IBAN: sample.In,
				StatusInfo: api.StatusInfo{Status: sample.In}, Holder: api.Holder{Info: api.HolderInfo{Name: sample.In}}, Balances: &bal}}},
		}
		// Save writes what it is given: the file holds the hostile text,
		// as a file changed by hand would.
		if err := snap.Save(home); err != nil {
			t.Fatal(err)
		}
		got, _, err := snap.Load()
		if err != nil || got == nil {
			t.Fatalf("%q: Load = %v, %v", sample.In, got, err)
		}
		// JSON keeps invalid UTF-8 as U+FFFD, which the sanitiser keeps.
		want := safetext.Strip(strings.ToValidUTF8(sample.In, "\uFFFD"))
		a := got.Accounts.Items[0]
		for _, s := range []string{got.User.ID, got.User.FullName, got.User.FirstName, got.User.MobilePhoneNumber, got.Project.Name,
			a.ID, a.Name, a.IBAN, a.StatusInfo.Status, a.Holder.Info.Name, a.Balances.Available.Value, a.Balances.Available.Currency} {
			if r, dirty := safetext.Dirty(s); dirty || s != want {
				t.Errorf("%q read back as %q (control %U), want %q", sample.In, s, r, want)
			}
		}
	}
}

// TestDemoDataRunsUpToTheAppsDay: --demo's emulator generates its data
// up to the start of the UTC day of the app's clock, read when the app
// starts, so its newest booking is of the day before whatever the day the
// demo runs.
func TestDemoDataRunsUpToTheAppsDay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// 23:30 in UTC+1 is 22:30 UTC, still the 20th in UTC.
	now := time.Date(2026, time.November, 20, 23, 30, 0, 0, time.FixedZone("CET", 3600))
	a, err := New(ctx, Options{Demo: true, Locations: testenv.NewHome(t).Locations, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	epoch := time.Date(2026, time.November, 20, 0, 0, 0, 0, time.UTC)
	if got := a.demo.info.Epoch; !got.Equal(epoch) {
		t.Fatalf("--demo's data is generated up to %s, want the start of the app's day %s", got, epoch)
	}
	e, err := a.Env(config.Sandbox)
	if err != nil {
		t.Fatal(err)
	}
	page, err := e.ProjectAPI.TransactionList(ctx, api.TransactionsParams{First: 1, Status: []string{"Booked"}, OrderBy: "createdAt", Direction: api.DirectionDesc})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 {
		t.Fatal("--demo has no booking")
	}
	if newest := page.Items[0].CreatedAt; newest.After(epoch) || epoch.Sub(newest) > 24*time.Hour {
		t.Errorf("--demo's newest booking is at %s, want within the day before %s", newest, epoch)
	}
}
