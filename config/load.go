package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// MaxFileSize bounds the configuration file; anything larger is not a
// hand-written configuration.
const MaxFileSize = 1 << 20

// AuthParamNames are the optional authorization-URL parameters of spec 4.3
// that [env.auth_params] may set (identificationLevel has its own key). A
// fresh slice each call, so no caller can change what another one sees.
func AuthParamNames() []string {
	return []string{
		"onboardingId", "email", "accountMembershipId", "phoneNumber", "firstName",
		"lastName", "birthDate", "birthCity", "birthCountry", "nationality", "language",
		"birthPlacePostalCode", "residencyAddress", "residencyAddressCity",
		"residencyAddressCountry", "residencyAddressPostalCode",
	}
}

// IdentificationLevels are the values spec 4.3 allows.
func IdentificationLevels() []string { return []string{"PVID", "QES", "Expert", "Auto"} }

// Problem is one thing wrong with a configuration.
type Problem struct {
	Key     string // dotted key, e.g. "sandbox.client_id"; "" for syntax errors
	Line    int    // 1-based line in the file; 0 when unknown (in-memory config)
	Message string // a sentence saying what is wrong and how to fix it
}

// ValidationError lists every problem found in one configuration.
type ValidationError struct {
	Path     string // the file; "" for an in-memory configuration
	Problems []Problem
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i == maxProblemsShown {
			b.WriteString("\n" + Problem{Message: fmt.Sprintf("… and %d more problems", len(e.Problems)-i)}.render(e.Path))
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.render(e.Path))
	}
	return b.String()
}

// Bounds of one problem's line: a malformed file must not turn into a wall
// of text (a 100 KB key once made a 100 KB message).
const (
	maxKeyShown     = 80
	maxMessageShown = 300
	maxPathShown    = 200
	// A file of thousands of unknown keys is listed by its first few.
	maxProblemsShown = 20
)

// render is the problem as one line of bounded length: "path:line: key:
// message", with the file's own text cut short and stripped of controls.
func (p Problem) render(path string) string {
	var b strings.Builder
	switch {
	case path != "" && p.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", safetext.Truncate(path, maxPathShown), p.Line)
	case path != "":
		fmt.Fprintf(&b, "%s: ", safetext.Truncate(path, maxPathShown))
	}
	if p.Key != "" {
		fmt.Fprintf(&b, "%s: ", safetext.Truncate(p.Key, maxKeyShown))
	}
	b.WriteString(safetext.Truncate(p.Message, maxMessageShown))
	return b.String()
}

// fileEnv mirrors one [sandbox]/[live] table; pointers tell "absent" from
// "set to the zero value" so an explicit page_size = 0 is reported.
type fileEnv struct {
	APIURL              *string           `toml:"api_url"`
	AuthURL             *string           `toml:"auth_url"`
	ClientID            string            `toml:"client_id"`
	ClientSecret        string            `toml:"client_secret"`
	ClientSecretEnv     string            `toml:"client_secret_env"`
	ClientSecretCommand string            `toml:"client_secret_command"`
	RedirectURI         *string           `toml:"redirect_uri"`
	PageSize            *int64            `toml:"page_size"`
	IdentificationLevel string            `toml:"identification_level"`
	Token               string            `toml:"token"`
	AuthParams          map[string]string `toml:"auth_params"`
	LaunchSnapshot      *bool             `toml:"launch_snapshot"`
}

type fileConfig struct {
	DefaultEnv     *string  `toml:"default_env"`
	LaunchSnapshot *bool    `toml:"launch_snapshot"`
	Sandbox        *fileEnv `toml:"sandbox"`
	Live           *fileEnv `toml:"live"`
}

// Load reads and validates the file at path. A missing file gives the
// defaults and an error wrapping ErrNoConfig, so callers can carry on with
// defaults or say how to write one. Warnings are problems that do not stop
// the program (a readable file holding a secret).
func Load(path string) (*Config, []string, error) {
	data, err := readLimited(path)
	if errors.Is(err, fs.ErrNotExist) {
		cfg := Default()
		cfg.Path = path
		return cfg, nil, fmt.Errorf("%w at %s", ErrNoConfig, path)
	}
	if err != nil {
		return nil, nil, err
	}
	cfg, err := Parse(path, data)
	if err != nil {
		return nil, nil, err
	}
	return cfg, permissionWarnings(path, cfg), nil
}

// readLimited reads a regular file of at most MaxFileSize bytes. Anything
// else is refused before a byte is read: opening a FIFO would block until
// some writer appears (and a blocked open ignores Ctrl+C), and a device or
// directory is not a configuration.
func readLimited(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("cannot read the configuration file: %w", err)
	}
	if err := regularFile(path, st); err != nil {
		return nil, err
	}
	// Non-blocking, so a FIFO swapped in after the Stat still cannot hang
	// the open; the second check below then refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("cannot open the configuration file: %w", err)
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read the configuration file: %w", err)
	}
	if err := regularFile(path, st); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, fmt.Errorf("cannot read the configuration file %s: %w", path, err)
	}
	if buf.Len() > MaxFileSize {
		return nil, fmt.Errorf("the configuration file %s is larger than %d bytes: it is not a partnertui configuration", path, MaxFileSize)
	}
	return buf.Bytes(), nil
}

// NotAFileError reports that the configuration path names something other
// than a regular file (a directory, a FIFO, a device, a socket).
type NotAFileError struct {
	Path string
	Kind string // "a directory", "a named pipe (FIFO)", "a device", …
}

func (e *NotAFileError) Error() string {
	return fmt.Sprintf("the configuration path %s is %s, not a file: point --config or PARTNERTUI_CONFIG at a TOML file", e.Path, e.Kind)
}

func regularFile(path string, st fs.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return &NotAFileError{Path: path, Kind: kind}
}

// permissionWarnings flags a secret that other users can read; the fix is a
// command to paste.
func permissionWarnings(path string, cfg *Config) []string {
	if cfg.Sandbox.ClientSecret == "" && cfg.Live.ClientSecret == "" {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm()&0o077 == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s holds a client_secret and is readable by other users (mode %04o): run `chmod 600 %s`", path, st.Mode().Perm(), shellQuote(path))}
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+@:,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Parse decodes and validates configuration text; path names it in errors.
func Parse(path string, data []byte) (*Config, error) {
	// The decoder reports syntax errors and unknown keys with their
	// positions; the parser walk below then locates the keys our own
	// validation complains about.
	var fc fileConfig
	var problems []Problem
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		// Unknown keys are found once the whole file is decoded: they are
		// listed with every other problem. Anything else stops here.
		var strict *toml.StrictMissingError
		if !errors.As(err, &strict) {
			return nil, &ValidationError{Path: path, Problems: decodeProblems(err)}
		}
		problems = decodeProblems(err)
	}
	lines := keyLines(data)
	cfg := Default()
	cfg.Path = path
	if fc.DefaultEnv != nil {
		env, err := ParseEnv(*fc.DefaultEnv)
		if err != nil {
			problems = append(problems, Problem{Key: "default_env", Message: fmt.Sprintf("must be \"sandbox\" or \"live\", not %q", safetext.Truncate(*fc.DefaultEnv, 40))})
		} else {
			cfg.DefaultEnv = env
		}
	}
	for _, t := range []struct {
		name EnvName
		src  *fileEnv
	}{{Sandbox, fc.Sandbox}, {Live, fc.Live}} {
		if t.src == nil {
			continue
		}
		problems = append(problems, fillEnv(cfg.Env(t.name), t.src)...)
		if t.src.LaunchSnapshot != nil {
			cfg.Env(t.name).LaunchSnapshot = *t.src.LaunchSnapshot
		}
	}
	if fc.LaunchSnapshot != nil && !*fc.LaunchSnapshot {
		cfg.Sandbox.LaunchSnapshot, cfg.Live.LaunchSnapshot = false, false
	}
	problems = append(problems, cfg.problems()...)
	if len(problems) == 0 {
		return cfg, nil
	}
	for i := range problems {
		if problems[i].Line == 0 {
			problems[i].Line = lines.lineOf(problems[i].Key)
		}
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	return nil, &ValidationError{Path: path, Problems: problems}
}

func fillEnv(dst *Environment, src *fileEnv) []Problem {
	var problems []Problem
	if src.APIURL != nil {
		dst.APIURL = *src.APIURL
	}
	if src.AuthURL != nil {
		dst.AuthURL = *src.AuthURL
	}
	if src.RedirectURI != nil {
		dst.RedirectURI = *src.RedirectURI
	}
	if src.PageSize != nil {
		// Checked with the rest of the environment (problems), which
		// reports a page_size written as 0 too.
		dst.PageSize, dst.pageSizeSet = int(max(min(*src.PageSize, math.MaxInt), math.MinInt)), true
	}
	dst.ClientID = src.ClientID
	dst.ClientSecret = src.ClientSecret
	dst.ClientSecretEnv = src.ClientSecretEnv
	dst.ClientSecretCommand = src.ClientSecretCommand
	dst.IdentificationLevel = src.IdentificationLevel
	if src.Token != "" {
		dst.Token = src.Token
	}
	if len(src.AuthParams) > 0 {
		dst.AuthParams = src.AuthParams
	}
	return problems
}

// Validate checks an in-memory configuration with the same rules Load uses.
func (c *Config) Validate() error {
	problems := c.problems()
	if len(problems) == 0 {
		return nil
	}
	return &ValidationError{Path: c.Path, Problems: problems}
}

func (c *Config) problems() []Problem {
	var problems []Problem
	if c.DefaultEnv != "" && c.DefaultEnv != Sandbox && c.DefaultEnv != Live {
		problems = append(problems, Problem{Key: "default_env", Message: fmt.Sprintf("must be \"sandbox\" or \"live\", not %q", safetext.Truncate(string(c.DefaultEnv), 40))})
	}
	problems = append(problems, c.Sandbox.problems(Sandbox)...)
	problems = append(problems, c.Live.problems(Live)...)
	return problems
}

var e164 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`) })

func (e *Environment) problems(name EnvName) []Problem {
	var problems []Problem
	add := func(key, format string, args ...any) {
		problems = append(problems, Problem{Key: string(name) + "." + key, Message: fmt.Sprintf(format, args...)})
	}
	if e.Name != "" && e.Name != name {
		add("name", "the [%s] table is labelled %q: set Name to %q", name, e.Name, name)
	}
	if e.APIURL != "" {
		if msg := checkBaseURL(e.APIURL); msg != "" {
			add("api_url", "%s", msg)
		}
	}
	if e.AuthURL != "" {
		if msg := checkBaseURL(e.AuthURL); msg != "" {
			add("auth_url", "%s", msg)
		}
	}
	if e.RedirectURI != "" {
		if msg := checkRedirect(e.RedirectURI); msg != "" {
			add("redirect_uri", "%s", msg)
		}
	}
	id := strings.TrimSpace(e.ClientID)
	switch {
	case id != e.ClientID || hasControl(id):
		add("client_id", "contains spaces or control characters: paste the client id exactly as the dashboard shows it")
	case name == Sandbox && strings.HasPrefix(id, "LIVE_"):
		add("client_id", "%q is a Live client id under [sandbox]: move it to [live], or use the SANDBOX_ client id from the dashboard", safetext.Truncate(id, 60))
	case name == Live && strings.HasPrefix(id, "SANDBOX_"):
		add("client_id", "%q is a Sandbox client id under [live]: move it to [sandbox], or use the LIVE_ client id from the dashboard", safetext.Truncate(id, 60))
	}
	sources := 0
	for _, s := range []string{e.ClientSecret, e.ClientSecretEnv, e.ClientSecretCommand} {
		if s != "" {
			sources++
		}
	}
	if sources > 1 {
		add("client_secret", "set only one of client_secret, client_secret_env and client_secret_command")
	}
	if e.ClientSecretEnv != "" && !validEnvVar(e.ClientSecretEnv) {
		add("client_secret_env", "%q is not an environment variable name: use letters, digits and underscores, e.g. PARTNERTUI_SANDBOX_SECRET", safetext.Truncate(e.ClientSecretEnv, 40))
	}
	if (e.PageSize != 0 || e.pageSizeSet) && (e.PageSize < 1 || e.PageSize > platform.PageMax) {
		add("page_size", "must be between 1 and %d (the API maximum), not %d", platform.PageMax, e.PageSize)
	}
	if e.IdentificationLevel != "" && !slices.Contains(IdentificationLevels(), e.IdentificationLevel) {
		add("identification_level", "%q is not an identification level: use one of PVID, QES, Expert or Auto (case matters)", safetext.Truncate(e.IdentificationLevel, 40))
	}
	if e.IdentificationLevel == "Auto" && e.AuthParams["accountMembershipId"] == "" && e.AuthParams["onboardingId"] == "" {
		add("identification_level", "Auto needs an accountMembershipId (when inviting an account member) or an onboardingId: add one under [%s.auth_params]", name)
	}
	switch e.Token {
	case "", TokenUser, TokenProject:
	default:
		add("token", "must be \"user\" or \"project\", not %q", safetext.Truncate(e.Token, 40))
	}
	keys := make([]string, 0, len(e.AuthParams))
	for k := range e.AuthParams {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := e.AuthParams[k]
		key := "auth_params." + k
		switch {
		case k == "identificationLevel":
			add(key, "set identification_level under [%s] instead of auth_params.identificationLevel", name)
		case !slices.Contains(AuthParamNames(), k):
			add(key, "%q is not an authorization parameter: allowed are %s", safetext.Truncate(k, 40), strings.Join(AuthParamNames(), ", "))
		case hasControl(v):
			add(key, "contains a line break or control character, which the authorization URL must not carry: remove it")
		case k == "phoneNumber" && !e164().MatchString(strings.ReplaceAll(v, " ", "")):
			add(key, "%q is not an E.164 phone number: write it like +33612345678", safetext.Truncate(v, 40))
		}
	}
	return problems
}

func validEnvVar(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

func checkBaseURL(raw string) string {
	if hasControl(raw) {
		return "contains a control character: remove it"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Sprintf("%q is not an absolute http(s) URL: write it like https://api.swan.io", safetext.Truncate(raw, 60))
	}
	if u.User != nil {
		return "must not contain a user name or password: put credentials in client_id/client_secret"
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Sprintf("%q must not have a query or fragment: give only scheme, host and optional path", safetext.Truncate(raw, 60))
	}
	if u.Scheme == "http" && !platform.IsLoopback(u.Hostname()) {
		return fmt.Sprintf("%q uses plain http:// for a host that is not this machine, which would send tokens unencrypted: use https://", safetext.Truncate(raw, 60))
	}
	return ""
}

func checkRedirect(raw string) string {
	if hasControl(raw) {
		return "contains a control character: remove it"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("%q is not an absolute URL: use http://127.0.0.1/callback (and register it in the dashboard)", safetext.Truncate(raw, 60))
	}
	if u.Scheme != "http" || u.Hostname() != "127.0.0.1" {
		return fmt.Sprintf("%q must be an http://127.0.0.1[:port]/path address, because the sign-in callback listens on the IPv4 loopback: use http://127.0.0.1/callback", safetext.Truncate(raw, 60))
	}
	if u.User != nil || u.Fragment != "" {
		return "must not carry a user name or a fragment: use http://127.0.0.1/callback"
	}
	if p := u.Port(); p != "" {
		var n int
		if _, err := fmt.Sscanf(p, "%d", &n); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("port %q is not between 1 and 65535: remove it to use a random port", safetext.Truncate(p, 10))
		}
	}
	return ""
}

// lineIndex maps dotted keys ("sandbox.client_id", "sandbox.auth_params.email",
// "sandbox") to the line that defines them.
type lineIndex map[string]int

// lineOf finds the closest recorded line: the key itself, else its table.
func (l lineIndex) lineOf(key string) int {
	for key != "" {
		if n, ok := l[key]; ok {
			return n
		}
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return 0
}

// keyLines walks the document with go-toml's parser to learn where each key
// is, since the decoder reports positions only for its own errors. It runs
// only on documents the decoder accepted.
func keyLines(data []byte) lineIndex {
	idx := lineIndex{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(expr.Key())
			if n := nodeLine(&p, expr.Key()); n > 0 {
				setFirst(idx, strings.Join(table, "."), n)
			}
		case unstable.KeyValue:
			walkKeyValue(&p, idx, table, expr)
		}
	}
	return idx
}

func walkKeyValue(p *unstable.Parser, idx lineIndex, table []string, kv *unstable.Node) {
	path := append(slices.Clone(table), keyParts(kv.Key())...)
	if n := nodeLine(p, kv.Key()); n > 0 {
		setFirst(idx, strings.Join(path, "."), n)
	}
	if v := kv.Value(); v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			if child := it.Node(); child.Kind == unstable.KeyValue {
				walkKeyValue(p, idx, path, child)
			}
		}
	}
}

func setFirst(idx lineIndex, key string, line int) {
	if _, ok := idx[key]; !ok {
		idx[key] = line
	}
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

func nodeLine(p *unstable.Parser, it unstable.Iterator) int {
	if !it.Next() {
		return 0
	}
	n := it.Node()
	if n.Raw.Length == 0 && n.Raw.Offset == 0 {
		return 0
	}
	if int(n.Raw.Offset)+int(n.Raw.Length) > len(p.Data()) {
		return 0
	}
	return p.Shape(n.Raw).Start.Line
}

func decodeProblems(err error) []Problem {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var out []Problem
		for i := range strict.Errors {
			de := &strict.Errors[i]
			row, _ := de.Position()
			key := strings.Join(de.Key(), ".")
			out = append(out, Problem{Key: key, Line: row, Message: unknownKeyMessage(key)})
		}
		return out
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return []Problem{{Key: strings.Join(de.Key(), "."), Line: row, Message: de.Error()}}
	}
	return []Problem{{Message: fmt.Sprintf("cannot decode the file: %v", err)}}
}

func unknownKeyMessage(key string) string {
	switch {
	case key == "default_env" || key == "sandbox" || key == "live":
		if key == "default_env" {
			return "has the wrong type: it must be a string, \"sandbox\" or \"live\""
		}
		return "has the wrong type: it must be a table, [" + key + "]"
	case strings.HasPrefix(key, "sandbox.") || strings.HasPrefix(key, "live."):
		return "unknown key: allowed are api_url, auth_url, client_id, client_secret, client_secret_env, client_secret_command, redirect_uri, page_size, identification_level, token and the auth_params table"
	}
	return "unknown key: the top level allows default_env and the [sandbox] and [live] tables"
}
