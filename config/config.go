// Package config reads and validates partnertui's TOML configuration: one
// table per platform environment (sandbox, live), each with its own URLs and
// OAuth client.
package config

import (
	"context"
	"errors"
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
	panic("config.ParseEnv: implemented by the config owner")
}

// Token kinds an environment may use for API calls.
const (
	TokenUser    = "user"    // the signed-in user's token (default)
	TokenProject = "project" // a client-credentials project token
)

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
	PageSize            int    // 0 means the default (100)
	IdentificationLevel string // "", PVID, QES, Expert or Auto
	AuthParams          map[string]string
	Token               string // TokenUser (default) or TokenProject
}

// GraphQLURL is the environment's partner GraphQL endpoint:
// {api_url}/sandbox-partner/graphql or {api_url}/live-partner/graphql.
func (e *Environment) GraphQLURL() string {
	panic("implemented by the config owner")
}

// TestingGraphQLURL is the Sandbox Testing API endpoint
// ({api_url}/sandbox-partner-admin/graphql); empty for Live, which has none.
func (e *Environment) TestingGraphQLURL() string {
	panic("implemented by the config owner")
}

// Secret resolves the client secret from client_secret, the variable named
// by client_secret_env, or the output of client_secret_command (first line,
// trimmed). The error never contains the secret.
func (e *Environment) Secret(ctx context.Context) (string, error) {
	panic("implemented by the config owner")
}

// ErrNoConfig is returned (wrapped) by Load when the file does not exist.
var ErrNoConfig = errors.New("no configuration file")
