// Package config reads and validates partnertui's TOML configuration: one
// table per platform environment (sandbox, live), each with its own URLs and
// OAuth client.
package config

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// EnvName names one of the platform's two fully separate environments.
type EnvName string

const (
	Sandbox EnvName = "sandbox"
	Live    EnvName = "live"
)

// Other returns the environment that is not e.
func (e EnvName) Other() EnvName {
	if e == Live {
		return Sandbox
	}
	return Live
}

// ParseEnv accepts "sandbox" or "live" (any case) and nothing else.
func ParseEnv(s string) (EnvName, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case string(Sandbox):
		return Sandbox, nil
	case string(Live):
		return Live, nil
	}
	return "", fmt.Errorf("unknown environment %q: use \"sandbox\" or \"live\"", safetext.Truncate(s, 40))
}

// Token kinds an environment may use for API calls.
const (
	TokenUser    = "user"    // the signed-in user's token (default)
	TokenProject = "project" // a client-credentials project token
)

// Public addresses of the platform (platform-facts.md §1).
const (
	DefaultAPIURL      = "https://api.swan.io"
	DefaultAuthURL     = "https://oauth.swan.io"
	DefaultRedirectURI = "http://127.0.0.1/callback"
	DefaultPageSize    = platform.PageMax
)

// SecretCommandTimeout bounds client_secret_command so a hung password
// manager cannot hang every command.
const SecretCommandTimeout = 15 * time.Second

// Config is the whole configuration file.
type Config struct {
	// Path is the file the configuration came from; empty for defaults or
	// an in-memory configuration (such as --demo).
	Path       string
	DefaultEnv EnvName
	Sandbox    Environment
	Live       Environment
}

// Env returns the named environment's settings.
func (c *Config) Env(name EnvName) *Environment {
	if name == Live {
		return &c.Live
	}
	return &c.Sandbox
}

// Environment is one [sandbox] or [live] table.
type Environment struct {
	Name                EnvName
	APIURL              string // base, e.g. https://api.swan.io; GraphQL paths are appended
	AuthURL             string // base, e.g. https://oauth.swan.io; /oauth2/... paths are appended
	ClientID            string
	ClientSecret        string
	ClientSecretEnv     string
	ClientSecretCommand string
	RedirectURI         string // default http://127.0.0.1/callback
	// PageSize is how many items one request for a page of any list asks
	// for, 1 to platform.PageMax; 0 means the default (the maximum).
	PageSize            int
	IdentificationLevel string // "", PVID, QES, Expert or Auto
	AuthParams          map[string]string
	Token               string // TokenUser (default) or TokenProject
	// LaunchSnapshot: the app keeps its first screen on disk and shows it
	// at once on the next launch. On in Sandbox and off in Live unless
	// launch_snapshot says otherwise; a top-level launch_snapshot = false
	// turns it off in both.
	LaunchSnapshot bool
	// pageSizeSet: the file wrote page_size, so 0 is a mistake, not
	// the default.
	pageSizeSet bool
}

// Default returns the configuration used when no file exists: both
// environments on the platform's public URLs, no client configured.
func Default() *Config {
	return &Config{
		DefaultEnv: Sandbox,
		Sandbox:    defaultEnvironment(Sandbox),
		Live:       defaultEnvironment(Live),
	}
}

func defaultEnvironment(name EnvName) Environment {
	return Environment{
		Name:        name,
		APIURL:      DefaultAPIURL,
		AuthURL:     DefaultAuthURL,
		RedirectURI: DefaultRedirectURI,
		Token:       TokenUser,
		// Live's accounts are real customers': kept on disk only when
		// the config asks for it.
		LaunchSnapshot: name == Sandbox,
	}
}

// GraphQLURL is the environment's partner GraphQL endpoint:
// {api_url}/sandbox-partner/graphql or {api_url}/live-partner/graphql.
func (e *Environment) GraphQLURL() string {
	return strings.TrimRight(e.apiBase(), "/") + "/" + string(e.envName()) + "-partner/graphql"
}

// TestingGraphQLURL is the Sandbox Testing API endpoint
// ({api_url}/sandbox-partner-admin/graphql); empty for Live, which has none.
func (e *Environment) TestingGraphQLURL() string {
	if e.envName() == Live {
		return ""
	}
	return strings.TrimRight(e.apiBase(), "/") + "/sandbox-partner-admin/graphql"
}

// AuthorizeURL is {auth_url}/oauth2/auth.
func (e *Environment) AuthorizeURL() string { return e.authBase() + "/oauth2/auth" }

// TokenURL is {auth_url}/oauth2/token.
func (e *Environment) TokenURL() string { return e.authBase() + "/oauth2/token" }

// RevokeURL is {auth_url}/oauth2/revoke, used when discovery does not name
// a revocation endpoint.
func (e *Environment) RevokeURL() string { return e.authBase() + "/oauth2/revoke" }

// Issuer is the OpenID issuer the id_token must name: the auth_url without a
// trailing slash.
func (e *Environment) Issuer() string { return e.authBase() }

// EffectivePageSize is PageSize, or the default when unset.
func (e *Environment) EffectivePageSize() int {
	if e.PageSize <= 0 {
		return DefaultPageSize
	}
	return e.PageSize
}

// UsesProjectToken reports whether API calls use the project token.
func (e *Environment) UsesProjectToken() bool { return e.Token == TokenProject }

// EffectiveRedirectURI is RedirectURI, or the default when unset.
func (e *Environment) EffectiveRedirectURI() string {
	if e.RedirectURI == "" {
		return DefaultRedirectURI
	}
	return e.RedirectURI
}

// Ready reports whether the environment has what a sign-in or project token
// needs (a client id and some source for the secret); a *NotConfiguredError
// names the missing key otherwise.
func (e *Environment) Ready() error {
	if strings.TrimSpace(e.ClientID) == "" {
		return &NotConfiguredError{Env: e.envName(), Keys: "client_id"}
	}
	if e.ClientSecret == "" && e.ClientSecretEnv == "" && e.ClientSecretCommand == "" {
		return &NotConfiguredError{Env: e.envName(), Keys: "client_secret, client_secret_env or client_secret_command"}
	}
	return nil
}

// NotConfiguredError reports that an environment lacks what signing in
// needs.
type NotConfiguredError struct {
	Env  EnvName
	Keys string // the key, or the alternatives, that must be set under [Env]
}

func (e *NotConfiguredError) Error() string {
	return fmt.Sprintf("%s is not configured: set %s under [%s]", e.Env, e.Keys, e.Env)
}

// Is makes every NotConfiguredError match ErrNotConfigured.
func (e *NotConfiguredError) Is(target error) bool { return target == ErrNotConfigured }

// ErrNotConfigured matches a *NotConfiguredError.
var ErrNotConfigured = errors.New("environment not configured")

// Secret resolves the client secret from client_secret, the variable named
// by client_secret_env, or the output of client_secret_command (first line,
// trimmed). The error never contains the secret.
func (e *Environment) Secret(ctx context.Context) (string, error) {
	table := string(e.envName())
	switch {
	case e.ClientSecret != "":
		return e.ClientSecret, nil
	case e.ClientSecretEnv != "":
		v := strings.TrimSpace(os.Getenv(e.ClientSecretEnv))
		if v == "" {
			return "", fmt.Errorf("the environment variable %s named by client_secret_env under [%s] is unset or empty: export it with the client secret from the dashboard", e.ClientSecretEnv, table)
		}
		return v, nil
	case e.ClientSecretCommand != "":
		return runSecretCommand(ctx, e.ClientSecretCommand, table)
	}
	return "", fmt.Errorf("no client secret is configured for %s: set client_secret, client_secret_env or client_secret_command under [%s]", table, table)
}

// runSecretCommand runs the command through sh so users can write pipes, and
// keeps its output (the secret, or a password manager's chatter) out of every
// error message.
func runSecretCommand(parent context.Context, command, table string) (string, error) {
	ctx, cancel := context.WithTimeout(parent, SecretCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = nil
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if err != nil && parent.Err() != nil {
		return "", fmt.Errorf("client_secret_command under [%s] was interrupted because the command that needed the secret was cancelled: run it again: %w", table, parent.Err())
	}
	if ctx.Err() == context.DeadlineExceeded {
		return "", fmt.Errorf("client_secret_command under [%s] did not finish within %s: check that it runs without prompting", table, SecretCommandTimeout)
	}
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return "", fmt.Errorf("client_secret_command under [%s] failed with exit status %d: run it in a shell to see why", table, exitErr.ExitCode())
		}
		return "", fmt.Errorf("client_secret_command under [%s] could not be started (check that sh is installed): %w", table, err)
	}
	line, _, _ := bufio.NewReader(&out).ReadLine()
	secret := strings.TrimSpace(string(line))
	if secret == "" {
		return "", fmt.Errorf("client_secret_command under [%s] printed nothing on its first line: it must print the client secret", table)
	}
	return secret, nil
}

func (e *Environment) envName() EnvName {
	if e.Name == Live {
		return Live
	}
	return Sandbox
}

func (e *Environment) apiBase() string {
	if e.APIURL == "" {
		return DefaultAPIURL
	}
	return e.APIURL
}

func (e *Environment) authBase() string {
	base := e.AuthURL
	if base == "" {
		base = DefaultAuthURL
	}
	base = strings.TrimRight(base, "/")
	// The docs sometimes give the server as https://oauth.swan.io/oauth2;
	// accept that spelling rather than building /oauth2/oauth2/auth.
	return strings.TrimSuffix(base, "/oauth2")
}

// ErrNoConfig is returned (wrapped) by Load when the file does not exist.
var ErrNoConfig = errors.New("no configuration file")
