package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/partnertui/partnertui/internal/platform"
)

const template = `# partnertui configuration.
# Written by ` + "`partnertui config init`" + `; keep this file private (chmod 600) if it holds a secret.
# The location is $XDG_CONFIG_HOME/partnertui/config.toml, or PARTNERTUI_CONFIG, or --config PATH.

# Environment used when --env is not given: "sandbox" or "live".
default_env = "sandbox"
# The app keeps its first screen (who you are, the first accounts) on disk,
# per environment and identity, and shows it at once on the next launch until
# the first answer replaces it; logout deletes it. On in Sandbox, off in Live
# unless [live] sets launch_snapshot = true. false here turns it off in both.
# launch_snapshot = false

# The Sandbox and Live environments are fully separate: tokens, clients and
# users of one never work in the other.
[sandbox]
# Base address of the GraphQL API; /sandbox-partner/graphql (and the Testing
# API's /sandbox-partner-admin/graphql) are appended.
api_url = "https://api.swan.io"
# Base address of the authorization server; /oauth2/auth and /oauth2/token
# are appended.
auth_url = "https://oauth.swan.io"
# OAuth client of your project, from the dashboard (starts with SANDBOX_).
client_id = ""
# The client secret, given in exactly one of three ways:
#   client_secret = "..."                  # in this file (then chmod 600 it)
#   client_secret_env = "PARTNERTUI_SANDBOX_SECRET"    # read from this variable
#   client_secret_command = "pass show partnertui/sandbox"  # first line printed
client_secret_env = "PARTNERTUI_SANDBOX_SECRET"
# Where the browser comes back after sign-in. Register exactly this address in
# the dashboard; any port on 127.0.0.1 is accepted, so a port here is only
# needed when you forward one (ssh -L 8400:127.0.0.1:8400).
redirect_uri = "http://127.0.0.1/callback"
# Items asked for per request, in every list (accounts, transactions, members,
# cards, statements, the event log), 1 to {{page_max}}; --first overrides it.
page_size = {{page_max}}
# Token used for API calls: "user" (the signed-in user's, sees the accounts
# the user belongs to) or "project" (client credentials, sees every account).
token = "user"
# Preferred identification level on the sign-in page: PVID, QES, Expert or
# Auto. Auto needs accountMembershipId or onboardingId in auth_params.
# identification_level = "Auto"

# Optional authorization-URL parameters that prefill the sign-in page:
# onboardingId, email, accountMembershipId, phoneNumber, firstName, lastName,
# birthDate, birthCity, birthCountry, nationality, language,
# birthPlacePostalCode, residencyAddress, residencyAddressCity,
# residencyAddressCountry, residencyAddressPostalCode.
# A prefilled phoneNumber does not prove who signed in: partnertui checks the
# signed-in user and warns when the numbers differ.
[sandbox.auth_params]
# phoneNumber = "+33612345678"
# language = "en"

[live]
api_url = "https://api.swan.io"
auth_url = "https://oauth.swan.io"
# Live client id from the dashboard (starts with LIVE_).
client_id = ""
client_secret_env = "PARTNERTUI_LIVE_SECRET"
redirect_uri = "http://127.0.0.1/callback"
page_size = {{page_max}}
token = "user"
# Keep the app's first screen (real customers' accounts) on disk between runs.
# launch_snapshot = false

[live.auth_params]
`

// Template returns the commented configuration `config init` writes; every
// key is explained and the result loads without errors.
func Template() string {
	return strings.ReplaceAll(template, "{{page_max}}", strconv.Itoa(platform.PageMax))
}

// WriteTemplate writes Template to path with mode 0600, creating missing
// directories with mode 0700. It never overwrites an existing file.
func WriteTemplate(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot create the configuration directory for %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists: edit it, or move it away and run `partnertui config init` again: %w", path, err)
	}
	if err != nil {
		return fmt.Errorf("cannot create the configuration file %s: %w", path, err)
	}
	if _, err := f.WriteString(Template()); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("cannot write the configuration file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("cannot write the configuration file %s: %w", path, err)
	}
	// The umask may have narrowed 0600 further, never widened it; chmod
	// anyway so an odd umask cannot leave it without owner write.
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("cannot set mode 0600 on %s: %w", path, err)
	}
	return nil
}
