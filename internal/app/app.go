// Package app builds what every surface (the command line, the terminal UI)
// needs for each platform environment: the configuration, then a session
// and an API client per environment; --demo's embedded emulator; the Live
// read-only policy; the log path. The surfaces decide how to word and show
// things; this package decides what is used.
package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/landing"
	"github.com/partnertui/partnertui/internal/paths"
)

// Options are the choices the user made on the command line.
type Options struct {
	ConfigPath string // --config; "" means Locations.ConfigFile
	Demo       bool   // --demo: the embedded emulator, nothing real read or written
	// DemoSchemas are schemas --demo's emulator serves whole (contents or
	// paths, one per API); none serves its modelled part.
	DemoSchemas []emulator.Source
	Project     bool // --project: API calls use a project token
	// Now is the app's clock, read once when New starts --demo: the demo's
	// data is generated up to the start of that UTC day. nil is time.Now;
	// tests give a fixed one, so the demo's data is the same any day.
	Now func() time.Time
	// OnWait hears every wait of every API client the app builds (a spent
	// request budget, a 429): the command line prints it; nil ignores it.
	OnWait func(api.Wait)
	// OnRequest hears of every request of every API client the app builds,
	// as the request log records it (--verbose prints it); nil ignores it.
	OnRequest func(api.Entry)
	// OnRefresh hears each step of each refresh of a user session
	// (PARTNERTUI_DEBUG=auth prints them); nil ignores them.
	OnRefresh func(auth.RefreshEvent)
	// Locations are where the app keeps its files: the configuration
	// read unless ConfigPath names one, the state directory (token files,
	// their locks, the request budget, the launch snapshots, the log) and
	// where --demo makes its temporary one. The command line resolves
	// them when the process starts; a test gives its own.
	Locations paths.Locations
}

// ReadOnly is the Live read-only policy, decided here and nowhere else: no
// mutation (Testing API, webhook replays, subscriptions) is ever sent to
// Live. The API client refuses them and the surfaces do not offer them.
func ReadOnly(env config.EnvName) bool { return env == config.Live }

// App holds the configuration and the environments built from it. Close it
// when done: --demo's emulator and temporary token directory go with it.
type App struct {
	Config     *config.Config
	ConfigFile string   // the file read ("" under --demo)
	Warnings   []string // configuration problems that do not stop the program
	StateDir   string   // token files and locks
	// Requests keeps the process's last requests, of every environment
	// and client: the app's Requests screen reads it.
	Requests *api.RequestLog

	locations paths.Locations
	project   bool
	onWait    func(api.Wait)
	onRefresh func(auth.RefreshEvent)
	demo      *demo // nil unless --demo
	// landing is the page a consent sends the browser back to, started
	// on first use (ConsentRedirect); nil until then.
	landingMu sync.Mutex
	landing   *landing.Page

	mu     sync.Mutex
	envs   map[config.EnvName]*Env
	public map[config.EnvName]*api.Client // PublicAPI's
}

// Env is one environment, ready to use.
type Env struct {
	Name    config.EnvName
	Config  *config.Environment
	Session *auth.Session
	API     *api.Client
	// ProjectAPI calls the API with the project's token whatever the
	// environment's token setting: the webhook event log and transaction
	// lookups by id belong to the project. It is API itself in project
	// mode.
	ProjectAPI *api.Client
	ReadOnly   bool
	// Project is true when API calls use a project token (token = "project"
	// or --project): there is no user to sign in.
	Project bool
	// DemoApprove plays the browser on the emulator's sign-in forms as the
	// environment's demo user (--demo only; nil otherwise).
	DemoApprove func(ctx context.Context, url string) error
	// Snapshot keeps the app's first screen between runs; nil when the
	// configuration turns it off (config.Environment.LaunchSnapshot).
	Snapshot *Snapshot
}

// New loads the configuration, or starts the embedded emulator for --demo.
// A missing configuration file is not an error here: the defaults are used
// and Env says what is missing when an environment is asked for.
func New(ctx context.Context, opts Options) (*App, error) {
	a := &App{locations: opts.Locations, project: opts.Project, onWait: opts.OnWait, onRefresh: opts.OnRefresh, envs: map[config.EnvName]*Env{},
		Requests: api.NewRequestLog(0, opts.OnRequest)}
	if opts.Demo {
		now := opts.Now
		if now == nil {
			now = time.Now
		}
		d, err := startDemo(ctx, opts.Locations.Temp, opts.DemoSchemas, emulator.StartOfDay(now()))
		if err != nil {
			return nil, err
		}
		a.demo = d
		a.Config = d.config()
		a.StateDir = d.stateDir
		return a, nil
	}
	a.ConfigFile = opts.ConfigPath
	if a.ConfigFile == "" {
		a.ConfigFile = opts.Locations.ConfigFile
	}
	cfg, warnings, err := config.Load(a.ConfigFile)
	if err != nil && !errors.Is(err, config.ErrNoConfig) {
		return nil, err
	}
	if opts.ConfigPath != "" && errors.Is(err, config.ErrNoConfig) {
		// A file named on the command line must exist; the default one
		// may not, yet.
		return nil, err
	}
	a.Config, a.Warnings = cfg, warnings
	if a.StateDir, err = opts.Locations.StateDir(); err != nil {
		return nil, err
	}
	return a, nil
}

// Close stops --demo's emulator and removes its temporary token directory.
func (a *App) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, e := range a.envs {
		e.API.Close()
		if e.ProjectAPI != e.API {
			e.ProjectAPI.Close()
		}
	}
	for _, c := range a.public {
		c.Close()
	}
	if a.demo != nil {
		a.demo.close()
	}
	a.landingMu.Lock()
	defer a.landingMu.Unlock()
	if a.landing != nil {
		_ = a.landing.Close()
		a.landing = nil
	}
}

// ConsentRedirect is the consentRedirectUrl of the payments this process
// initiates: a page of its own on 127.0.0.1 (internal/landing) that a
// browser loads once the user has answered the consent, saying to go back
// to the terminal. It is started on first use and served until Close.
func (a *App) ConsentRedirect() (string, error) {
	a.landingMu.Lock()
	defer a.landingMu.Unlock()
	if a.landing == nil {
		p, err := landing.Start()
		if err != nil {
			return "", fmt.Errorf("serving the page a consent returns to: %w", err)
		}
		a.landing = p
	}
	return a.landing.URL(), nil
}

// Demo reports whether the app runs on the embedded emulator.
func (a *App) Demo() bool { return a.demo != nil }

// DemoPlace is where another partnertui reaches this --demo while it runs:
// its configuration file (the emulator's clients) and the XDG_STATE_HOME
// of its state directory (the tokens of its session); "" when not a demo.
func (a *App) DemoPlace() (configFile, stateHome string) {
	if a.demo == nil {
		return "", ""
	}
	return a.demo.configFile, a.demo.root
}

// DemoServes names the schema files --demo's emulator serves whole, by API
// ("partner API", "Testing API"); empty when it serves its modelled part.
func (a *App) DemoServes() map[string]string {
	if a.demo == nil {
		return nil
	}
	return a.demo.info.Schemas
}

// EnvName is the environment to use: flag when given, else the
// configuration's default_env, else Sandbox.
func (a *App) EnvName(flag string) (config.EnvName, error) {
	if flag != "" {
		return config.ParseEnv(flag)
	}
	if a.Config != nil && a.Config.DefaultEnv != "" {
		return a.Config.DefaultEnv, nil
	}
	return config.Sandbox, nil
}

// Env builds (once) the named environment's session and API client. An
// environment without a client id or secret is a *config.NotConfiguredError.
func (a *App) Env(name config.EnvName) (*Env, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e := a.envs[name]; e != nil {
		return e, nil
	}
	ec := a.Config.Env(name)
	s, err := auth.NewSession(auth.SessionOptions{Env: ec, StateDir: a.StateDir, Project: a.project, OnRefresh: a.onRefresh})
	if err != nil {
		if errors.Is(err, config.ErrNotConfigured) && a.ConfigFile != "" {
			return nil, &NotConfiguredError{File: a.ConfigFile, Err: err}
		}
		return nil, err
	}
	e := &Env{Name: name, Config: ec, Session: s, ReadOnly: ReadOnly(name), Project: s.UsesProjectToken()}
	opts := api.Options{
		Env: string(name), GraphQLURL: ec.GraphQLURL(), TestingURL: ec.TestingGraphQLURL(),
		TokenSource: s.APITokenSource(), PageSize: ec.PageSize, ReadOnly: e.ReadOnly,
		// The platform counts requests per IP: every partnertui process on
		// this machine shares one budget per API host, kept in the state
		// directory (--demo's is temporary, like its tokens).
		BudgetDir: a.StateDir, OnWait: a.onWait,
		Log: a.Requests, Project: e.Project,
		// One pool per environment: the project client's first request
		// reuses the user client's warm connection. Environments never
		// share one (each client's guard still refuses other hosts).
		Transport: api.NewTransport(),
	}
	if !e.Project {
		// Another process's refresh revokes the access token we hold: a 401
		// re-reads the store once before anyone is sent back to sign in.
		opts.OnUnauthorized = s.Rejected
	}
	if e.API, err = api.New(opts); err != nil {
		return nil, err
	}
	e.ProjectAPI = e.API
	if !e.Project {
		popts := opts
		popts.TokenSource, popts.OnUnauthorized, popts.Project = s.ProjectTokenSource(), nil, true
		if e.ProjectAPI, err = api.New(popts); err != nil {
			return nil, err
		}
	}
	if a.demo != nil {
		e.DemoApprove = a.demo.approver(name)
	}
	if ec.LaunchSnapshot {
		e.Snapshot = &Snapshot{dir: a.StateDir, env: name, project: e.Project, status: func() (string, string, bool) {
			st, err := s.Status()
			if err != nil || st == nil {
				return "", "", false
			}
			return st.ClientID, st.Subject, st.SignedIn
		}}
	}
	a.envs[name] = e
	return e, nil
}

// EnsureSignedIn signs the demo user in under --demo, so that one-shot
// commands work without a browser. Anywhere else it does nothing: signing
// in is the user's decision (`login`, or the terminal UI).
func (a *App) EnsureSignedIn(ctx context.Context, e *Env) error {
	if a.demo == nil || e.Project || e.Session.SignedIn() {
		return nil
	}
	_, err := e.Session.Login(ctx, auth.LoginOptions{Open: e.DemoApprove, FailOnOpenError: true})
	return err
}

// LogPath is the terminal UI's log file. Under --demo it is still the real
// state directory's: a crash log must outlive the demo's temporary one.
func (a *App) LogPath() (string, error) { return a.locations.LogFile() }

// NotConfiguredError reports that an environment lacks its client settings
// in File.
type NotConfiguredError struct {
	File string
	Err  error // a *config.NotConfiguredError
}

func (e *NotConfiguredError) Error() string { return fmt.Sprintf("%v in %s", e.Err, e.File) }
func (e *NotConfiguredError) Unwrap() error { return e.Err }

// demoHTTPTimeout bounds each request of the demo's form-filling browser.
const demoHTTPTimeout = 30 * time.Second

func demoHTTPClient() *http.Client { return &http.Client{Timeout: demoHTTPTimeout} }

// errNoDemoUser: the emulator lists no demo user for an environment.
var errNoDemoUser = errors.New("the embedded emulator has no demo user for this environment")

func wrapDemo(err error) error { return fmt.Errorf("could not start the embedded emulator: %w", err) }
