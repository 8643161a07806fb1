// Package shellcmd writes requests as commands a POSIX shell runs as they
// are: a curl command and a `partnertui api` command. Neither ever holds a
// token: curl's Authorization header reads $PARTNERTUI_TOKEN, which
// `partnertui token` prints.
package shellcmd

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// TokenVariable is the shell variable the copied curl commands read the
// access token from.
const TokenVariable = "PARTNERTUI_TOKEN"

// Quote single-quotes s for a POSIX shell.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Curl is a curl command that POSTs body to url with the token from
// $PARTNERTUI_TOKEN.
func Curl(url string, body []byte) string {
	return "curl -sS -X POST " + Quote(url) +
		" -H 'Content-Type: application/json'" +
		` -H "Authorization: Bearer $` + TokenVariable + `"` +
		" --data-binary " + Quote(string(body))
}

// API describes a `partnertui api` command.
type API struct {
	Env           string // sandbox or live
	Project       bool   // --project
	Testing       bool   // --testing
	OperationName string
	Query         string
	Variables     map[string]any
	// At, when set, is the partnertui it runs against: a running --demo.
	At *Place
}

// Place is a partnertui setup other than the user's own: the
// configuration file and the XDG_STATE_HOME (its tokens) of a running
// --demo, which exist only while it runs.
type Place struct {
	Config    string // --config
	StateHome string // XDG_STATE_HOME
}

// command is the start of a partnertui command run at p: the variable
// that points at its state, partnertui, the subcommand, --config.
func (p *Place) command(sub string) []string {
	if p == nil {
		return []string{"partnertui", sub}
	}
	return []string{"XDG_STATE_HOME=" + Quote(p.StateHome), "partnertui", sub, "--config", Quote(p.Config)}
}

// Token is the `partnertui token` command whose output is the access
// token of env (the project's with project) at p, the user's own setup
// when p is nil.
func Token(env string, project bool, p *Place) string {
	parts := append(p.command("token"), "--env", Quote(env))
	if project {
		parts = append(parts, "--project")
	}
	return strings.Join(parts, " ")
}

// String is the command: strings as -f, every other value as -F (numbers,
// booleans, null, objects and lists as JSON), in the variables' name order.
func (a API) String() string {
	parts := a.At.command("api")
	if a.Env != "" {
		parts = append(parts, "--env", Quote(a.Env))
	}
	if a.Project {
		parts = append(parts, "--project")
	}
	if a.Testing {
		parts = append(parts, "--testing")
	}
	if a.OperationName != "" {
		parts = append(parts, "--operation-name", Quote(a.OperationName))
	}
	names := make([]string, 0, len(a.Variables))
	for n := range a.Variables {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		switch v := a.Variables[n].(type) {
		case string:
			parts = append(parts, "-f", Quote(n+"="+v))
		default:
			b, err := json.Marshal(v)
			if err != nil {
				b = []byte(fmt.Sprint(v))
			}
			parts = append(parts, "-F", Quote(n+"="+string(b)))
		}
	}
	return strings.Join(append(parts, Quote(a.Query)), " ")
}
