package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadValid(t *testing.T) {
	t.Parallel()
	p := writeFile(t, `default_env = "live"
[sandbox]
client_id = "SANDBOX_abc"
client_secret_env = "X_SECRET"
page_size = 25
identification_level = "Auto"
token = "project"
[sandbox.auth_params]
onboardingId = "onb-1"
phoneNumber = "+33 6 12 34 56 78"
[live]
api_url = "https://api.example.com/"
auth_url = "https://oauth.example.com/oauth2"
client_id = "LIVE_xyz"
client_secret_command = "echo s"
`, 0o644)
	cfg, warns, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings without a secret in the file: %v", warns)
	}
	if cfg.DefaultEnv != Live || cfg.Path != p {
		t.Errorf("DefaultEnv=%q Path=%q", cfg.DefaultEnv, cfg.Path)
	}
	sb := cfg.Env(Sandbox)
	if sb.Name != Sandbox || sb.ClientID != "SANDBOX_abc" || sb.PageSize != 25 || !sb.UsesProjectToken() || sb.AuthParams["onboardingId"] != "onb-1" {
		t.Errorf("sandbox = %+v", sb)
	}
	if sb.APIURL != DefaultAPIURL || sb.AuthURL != DefaultAuthURL || sb.RedirectURI != DefaultRedirectURI {
		t.Errorf("defaults not applied: %+v", sb)
	}
	if got := sb.GraphQLURL(); got != "https://api.swan.io/sandbox-partner/graphql" {
		t.Errorf("sandbox GraphQLURL = %s", got)
	}
	if got := sb.TestingGraphQLURL(); got != "https://api.swan.io/sandbox-partner-admin/graphql" {
		t.Errorf("TestingGraphQLURL = %s", got)
	}
	lv := cfg.Env(Live)
	if got := lv.GraphQLURL(); got != "https://api.example.com/live-partner/graphql" {
		t.Errorf("live GraphQLURL = %s", got)
	}
	if lv.TestingGraphQLURL() != "" {
		t.Error("live has no Testing API")
	}
	if got := lv.TokenURL(); got != "https://oauth.example.com/oauth2/token" {
		t.Errorf("TokenURL = %s", got)
	}
	if lv.EffectivePageSize() != DefaultPageSize {
		t.Errorf("EffectivePageSize = %d", lv.EffectivePageSize())
	}
}

func TestLoadMissingFile(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "nope.toml")
	cfg, _, err := Load(p)
	if !errors.Is(err, ErrNoConfig) {
		t.Fatalf("err = %v, want ErrNoConfig", err)
	}
	if cfg == nil || cfg.DefaultEnv != Sandbox || cfg.Sandbox.APIURL != DefaultAPIURL || cfg.Live.Name != Live {
		t.Fatalf("defaults = %+v", cfg)
	}
	if !strings.Contains(err.Error(), p) {
		t.Errorf("error does not name the file: %v", err)
	}
}

func TestValidationErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, doc string
		line      int
		key, want string
	}{
		{"syntax", "default_env = \"sandbox\"\n[sandbox\nclient_id = 1\n", 2, "", "syntax"},
		{"unknown top key", "default_env = \"sandbox\"\ncolour = \"red\"\n", 2, "colour", "unknown key"},
		{"unknown env key", "[sandbox]\nclient_id = \"SANDBOX_a\"\nclientid = \"x\"\n", 3, "sandbox.clientid", "unknown key"},
		{"unknown auth param", "[sandbox]\n[sandbox.auth_params]\nemail = \"a@b.c\"\nfavouriteColour = \"red\"\n", 4, "sandbox.auth_params.favouriteColour", "not an authorization parameter"},
		{"bad url", "[sandbox]\napi_url = \"not a url\"\n", 2, "sandbox.api_url", "not an absolute"},
		{"http remote", "[live]\n\nauth_url = \"http://oauth.example.com\"\n", 3, "live.auth_url", "https://"},
		{"live id under sandbox", "[sandbox]\nclient_id = \"LIVE_123\"\n", 2, "sandbox.client_id", "Live client id under [sandbox]"},
		{"sandbox id under live", "[sandbox]\nclient_id = \"SANDBOX_1\"\n[live]\nclient_id = \"SANDBOX_123\"\n", 4, "live.client_id", "Sandbox client id under [live]"},
		{"identification level", "[sandbox]\nidentification_level = \"pvid\"\n", 2, "sandbox.identification_level", "PVID, QES, Expert or Auto"},
		{"auto without membership", "[sandbox]\nclient_id = \"SANDBOX_1\"\nidentification_level = \"Auto\"\n", 3, "sandbox.identification_level", "accountMembershipId"},
		{"page size zero", "[sandbox]\npage_size = 0\n", 2, "sandbox.page_size", "between 1 and 100"},
		{"page size big", "[live]\npage_size = 101\n", 2, "live.page_size", "between 1 and 100"},
		{"page size type", "[live]\npage_size = \"ten\"\n", 2, "", "page_size"},
		{"default env", "\ndefault_env = \"prod\"\n", 2, "default_env", "\"sandbox\" or \"live\""},
		{"token kind", "[sandbox]\ntoken = \"admin\"\n", 2, "sandbox.token", "\"user\" or \"project\""},
		{"two secrets", "[sandbox]\nclient_secret = \"a\"\nclient_secret_env = \"B\"\n", 2, "sandbox.client_secret", "only one"},
		{"redirect not loopback", "[sandbox]\nredirect_uri = \"http://localhost/callback\"\n", 2, "sandbox.redirect_uri", "127.0.0.1"},
		{"redirect https", "[sandbox]\nredirect_uri = \"https://example.com/cb\"\n", 2, "sandbox.redirect_uri", "127.0.0.1"},
		{"inline auth params", "[sandbox]\nauth_params = { phoneNumber = \"0612\" }\n", 2, "sandbox.auth_params.phoneNumber", "E.164"},
		{"line break in param", "[sandbox.auth_params]\nfirstName = \"a\\nb\"\n", 2, "sandbox.auth_params.firstName", "line break"},
		{"id param in params", "[sandbox.auth_params]\nidentificationLevel = \"PVID\"\n", 2, "sandbox.auth_params.identificationLevel", "identification_level"},
		{"dotted key", "sandbox.client_id = \"LIVE_1\"\n", 1, "sandbox.client_id", "Live client id"},
		{"bad env var name", "[live]\nclient_secret_env = \"MY-SECRET\"\n", 2, "live.client_secret_env", "not an environment variable name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.doc, 0o600)
			cfg, _, err := Load(p)
			if err == nil {
				t.Fatalf("no error, cfg = %+v", cfg)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err %T %v is not a *ValidationError", err, err)
			}
			pr := ve.Problems[0]
			if pr.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", pr.Line, tc.line, err)
			}
			if tc.key != "" && pr.Key != tc.key {
				t.Errorf("key = %q, want %q", pr.Key, tc.key)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), p+":") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

// TestUnknownKeyHidesNoOtherProblem: an unknown key is one problem among
// the others of the file, all listed at once in the file's order.
func TestUnknownKeyHidesNoOtherProblem(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "[sandbox]\nclient_id = \"LIVE_1\"\nclientid = \"x\"\npage_size = 500\n[live]\ncolour = 1\n", 0o600)
	_, _, err := Load(p)
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v", err)
	}
	var got []string
	for _, pr := range ve.Problems {
		got = append(got, fmt.Sprintf("%d %s", pr.Line, pr.Key))
	}
	want := []string{"2 sandbox.client_id", "3 sandbox.clientid", "4 sandbox.page_size", "6 live.colour"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q:\n%v", got, want, err)
	}
}

// TestNoCitationOfADocumentUsersLack: the template and the messages never
// send people to "spec 4.3", a document they do not have.
func TestNoCitationOfADocumentUsersLack(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "[sandbox]\nclient_id = \"SANDBOX_1\"\nidentification_level = \"Auto\"\n", 0o600)
	_, _, err := Load(p)
	for _, text := range []string{Template(), fmt.Sprint(err)} {
		if strings.Contains(text, "spec ") {
			t.Errorf("cites the spec:\n%s", text)
		}
	}
}

func TestSeveralProblemsAllReported(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "[sandbox]\nclient_id = \"LIVE_1\"\npage_size = 500\n", 0o600)
	_, _, err := Load(p)
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 2 || ve.Problems[0].Line != 2 || ve.Problems[1].Line != 3 {
		t.Fatalf("err = %v", err)
	}
}

func TestValidateInMemory(t *testing.T) {
	t.Parallel()
	cfg := Default()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	cfg.Sandbox.APIURL = "http://127.0.0.1:4000"
	cfg.Sandbox.AuthURL = "http://127.0.0.1:4000"
	cfg.Sandbox.ClientID = "SANDBOX_x"
	cfg.Sandbox.RedirectURI = "http://127.0.0.1/callback"
	if err := cfg.Validate(); err != nil {
		t.Fatalf("loopback http rejected: %v", err)
	}
	cfg.Live.APIURL = "http://example.com"
	err := cfg.Validate()
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Problems[0].Key != "live.api_url" || strings.Contains(err.Error(), ":0:") {
		t.Fatalf("err = %v", err)
	}
}

func TestPermissionWarning(t *testing.T) {
	t.Parallel()
	doc := "[sandbox]\nclient_id = \"SANDBOX_1\"\nclient_secret = \"hunter2\"\n"
	p := writeFile(t, doc, 0o644)
	_, warns, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "chmod 600 "+p) {
		t.Fatalf("warnings = %q", warns)
	}
	if strings.Contains(warns[0], "hunter2") {
		t.Fatal("warning leaks the secret")
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, warns, _ = Load(p); len(warns) != 0 {
		t.Fatalf("warnings for a 0600 file: %q", warns)
	}
}

func TestParseEnv(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]EnvName{"sandbox": Sandbox, "LIVE": Live, " Live ": Live} {
		if got, err := ParseEnv(in); err != nil || got != want {
			t.Errorf("ParseEnv(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseEnv("prod"); err == nil {
		t.Error("ParseEnv(prod) accepted")
	}
	if Sandbox.Other() != Live || Live.Other() != Sandbox {
		t.Error("Other")
	}
}

func TestTemplate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "b")
	p := filepath.Join(dir, "config.toml")
	if err := WriteTemplate(p); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, %v", st.Mode(), err)
	}
	if dst, _ := os.Stat(dir); dst.Mode().Perm() != 0o700 {
		t.Errorf("dir mode = %v", dst.Mode())
	}
	cfg, warns, err := Load(p)
	if err != nil || len(warns) != 0 {
		t.Fatalf("template does not load cleanly: %v %v", err, warns)
	}
	if cfg.Sandbox.ClientSecretEnv != "PARTNERTUI_SANDBOX_SECRET" || cfg.DefaultEnv != Sandbox {
		t.Errorf("template values: %+v", cfg.Sandbox)
	}
	for _, key := range []string{"api_url", "auth_url", "client_id", "client_secret", "client_secret_env", "client_secret_command", "redirect_uri", "page_size", "identification_level", "token", "auth_params", "default_env", "launch_snapshot"} {
		if !strings.Contains(Template(), key) {
			t.Errorf("template does not explain %s", key)
		}
	}
	if err := WriteTemplate(p); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("overwrote an existing file: %v", err)
	}
}

// TestSecretFromAVariable: client_secret_env names a variable of the
// process, read trimmed; an unset one is named in the error. Not parallel:
// the variable is the process's, which only t.Setenv sets.
func TestSecretFromAVariable(t *testing.T) {
	ctx := context.Background()
	t.Setenv("PT_TEST_SECRET", " fromenv \n")
	e := &Environment{Name: Live, ClientSecretEnv: "PT_TEST_SECRET"}
	if s, err := e.Secret(ctx); err != nil || s != "fromenv" {
		t.Errorf("env: %q %v", s, err)
	}
	e = &Environment{Name: Live, ClientSecretEnv: "PT_TEST_UNSET_VAR"}
	if _, err := e.Secret(ctx); err == nil || !strings.Contains(err.Error(), "PT_TEST_UNSET_VAR") {
		t.Errorf("unset env: %v", err)
	}
}

func TestSecret(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := &Environment{Name: Live, ClientSecret: "inline"}
	if s, err := e.Secret(ctx); err != nil || s != "inline" {
		t.Errorf("inline: %q %v", s, err)
	}
	e = &Environment{Name: Sandbox, ClientSecretCommand: "printf '  cmdsecret  \\nsecond line\\n'"}
	if s, err := e.Secret(ctx); err != nil || s != "cmdsecret" {
		t.Errorf("command: %q %v", s, err)
	}
	e = &Environment{Name: Sandbox, ClientSecretCommand: "echo leaked-output; echo more >&2; exit 3"}
	_, err := e.Secret(ctx)
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || strings.Contains(err.Error(), "leaked-output") || strings.Contains(err.Error(), "echo") {
		t.Errorf("failing command: %v", err)
	}
	e = &Environment{Name: Sandbox, ClientSecretCommand: "true"}
	if _, err := e.Secret(ctx); err == nil {
		t.Error("empty output accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	e = &Environment{Name: Sandbox, ClientSecretCommand: "sleep 5; echo late"}
	if _, err := e.Secret(cctx); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context still ran the command, or the error does not say so: %v", err)
	}
	e = &Environment{Name: Sandbox}
	if _, err := e.Secret(ctx); err == nil || !strings.Contains(err.Error(), "[sandbox]") {
		t.Errorf("no secret: %v", err)
	}
	if err := e.Ready(); err == nil || !strings.Contains(err.Error(), "client_id") {
		t.Errorf("Ready without client id: %v", err)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(Template()))
	f.Add([]byte("[sandbox]\nclient_id = \"LIVE_1\"\nauth_params = { phoneNumber = \"x\" }\n"))
	f.Add([]byte("[[sandbox]]\n"))
	f.Add([]byte("a.b.c = 1\n[x.y]\nz = [1, {a=2}]\n"))
	f.Add([]byte("default_env = \"\\u0000\"\n[live.auth_params]\n'' = ''\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("fuzz.toml", data)
		if err == nil {
			if cfg == nil {
				t.Fatal("nil config without an error")
			}
			if verr := cfg.Validate(); verr != nil {
				t.Fatalf("Parse accepted a config Validate rejects: %v", verr)
			}
			return
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) == 0 {
			t.Fatalf("error is not a ValidationError with problems: %v", err)
		}
	})
}

// A file named on the command line that does not exist says so: the error
// wraps ErrNoConfig (the caller decides whether that is fatal) and names the
// file, even under a missing directory.
func TestLoadMissingNamedFile(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "no", "such", "dir", "missing.toml")
	_, _, err := Load(p)
	if !errors.Is(err, ErrNoConfig) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v", err)
	}
}

// Each problem is one line of bounded length, however long or strange the
// offending text: a 100 KB key once made a 100 KB message.
func TestProblemsAreBoundedLines(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("k", 100_000)
	docs := map[string]string{
		"huge top-level key":     huge + " = 1\n",
		"huge env key":           "[sandbox]\n" + huge + " = 1\n",
		"huge inline auth param": "[sandbox]\nauth_params = { " + huge + " = \"x\" }\n",
		"huge table name":        "[" + huge + "]\nx = 1\n",
		"huge value":             "[sandbox]\nclient_id = \"LIVE_" + huge + "\"\n",
		"escape in key":          "[sandbox]\n\"a\\u001b[31mred\" = 1\n",
		"line break in key":      "[sandbox]\n\"a\\nb\" = 1\n",
		"thousands of keys":      "[sandbox]\n" + manyKeys(500),
	}
	for name, doc := range docs {
		p := writeFile(t, doc, 0o600)
		_, _, err := Load(p)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v", name, err)
			continue
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) > maxProblemsShown+1 {
			t.Errorf("%s: %d lines", name, len(lines))
		}
		for _, l := range lines {
			if len(l) > len(p)+maxKeyShown+maxMessageShown+40 || strings.ContainsAny(l, "\x1b\r") || !strings.HasPrefix(l, p+":") {
				t.Errorf("%s: line of %d bytes: %.120q", name, len(l), l)
			}
		}
	}
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "unknown_%d = 1\n", i)
	}
	return b.String()
}

// The launch snapshot is on in Sandbox and off in Live by default; each
// environment's key changes that, and a top-level false turns both off.
func TestLaunchSnapshotKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file          string
		sandbox, live bool
	}{
		{"", true, false},
		{"[live]\nlaunch_snapshot = true\n", true, true},
		{"[sandbox]\nlaunch_snapshot = false\n", false, false},
		{"launch_snapshot = false\n[live]\nlaunch_snapshot = true\n", false, false},
		{"launch_snapshot = true\n", true, false},
	} {
		cfg, err := Parse("c.toml", []byte(tc.file))
		if err != nil {
			t.Fatalf("%q: %v", tc.file, err)
		}
		if cfg.Sandbox.LaunchSnapshot != tc.sandbox || cfg.Live.LaunchSnapshot != tc.live {
			t.Errorf("%q: sandbox %v, live %v; want %v, %v", tc.file, cfg.Sandbox.LaunchSnapshot, cfg.Live.LaunchSnapshot, tc.sandbox, tc.live)
		}
	}
}
