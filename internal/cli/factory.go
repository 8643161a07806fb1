package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/schemacache"
)

// Factory is what every command is given: the streams, the session flags
// and, for the commands that need one, the App built from them.
type Factory struct {
	IO      IO
	Session SessionFlags
	// Locations are where the process keeps its files (Process.Locations).
	Locations paths.Locations
	// Getenv reads the process's variables (Process.Getenv); nil reads
	// none (see env).
	Getenv func(string) string
	// Now is the app's clock, read once when a command starts: --demo's
	// data and `partnertui emulator`'s are generated up to the start of
	// its UTC day (unless --epoch says otherwise). nil is time.Now; tests
	// give a fixed one, so that data does not move with the calendar.
	Now func() time.Time

	app      *app.App
	progress *progressLine
}

// env reads the process's variable name ("" when there is no Getenv).
func (f *Factory) env(name string) string {
	if f.Getenv == nil {
		return ""
	}
	return f.Getenv(name)
}

// now reads the app's clock.
func (f *Factory) now() time.Time {
	if f.Now == nil {
		return time.Now()
	}
	return f.Now()
}

// progressLine is the command's one line of stderr for progress and waits.
func (f *Factory) progressLine() *progressLine {
	if f.progress == nil {
		f.progress = newProgressLine(f.IO)
	}
	return f.progress
}

// SessionFlags are the flags of every command that talks to the platform.
type SessionFlags struct {
	Env     string // --env
	Config  string // --config
	Demo    bool   // --demo
	Project bool   // --project
	Verbose bool   // --verbose
}

// needsSession is the annotation on commands that use the configuration and
// a session; the root builds the App before they run.
const needsSession = "partnertui/needs-session"

// ownsScreen is the annotation on the terminal UI: it draws every wait in
// its own footer, and a line written to stderr would land over its screen
// where the renderer never redraws it.
const ownsScreen = "partnertui/owns-screen"

// withSession declares that cmd needs a session and gives it the session
// flags; project adds --project (not for sign-in and sign-out, which are
// about the user).
func (f *Factory) withSession(cmd *cobra.Command, project bool) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[needsSession] = "true"
	fl := cmd.Flags()
	fl.StringVar(&f.Session.Env, "env", "", "`environment`: sandbox or live (default: the config's default_env)")
	fl.StringVar(&f.Session.Config, "config", "", configFlagUsage)
	fl.BoolVar(&f.Session.Demo, "demo", false, "use the embedded emulator with demo credentials; nothing real is read or written")
	if cmd.Use != "partnertui" {
		fl.BoolVar(&f.Session.Verbose, "verbose", false, "print one line per API request on stderr (also PARTNERTUI_DEBUG=api; api,body adds the operation)")
	}
	if project {
		fl.BoolVar(&f.Session.Project, "project", false, "call the API with a project token (client credentials) instead of your user token")
	}
	_ = cmd.RegisterFlagCompletionFunc("env", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"sandbox\tthe Sandbox environment", "live\tthe Live environment (read-only)"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// loadApp builds the App for a command annotated with needsSession.
func (f *Factory) loadApp(ctx context.Context, cmd *cobra.Command) error {
	if cmd.Annotations[needsSession] != "true" || f.app != nil {
		return nil
	}
	if f.Session.Env != "" {
		if _, err := config.ParseEnv(f.Session.Env); err != nil {
			return &UsageError{Err: err}
		}
	}
	opts := f.appOptions(cmd)
	a, err := app.New(ctx, opts)
	if err != nil && len(opts.DemoSchemas) > 0 && errors.Is(err, emulator.ErrBadInput) {
		fmt.Fprintln(f.IO.Err, "warning: --demo cannot serve the schemas pulled, so it serves what it models:", err)
		opts.DemoSchemas = nil
		a, err = app.New(ctx, opts)
	}
	if err != nil {
		return err
	}
	if served := a.DemoServes(); len(served) > 0 {
		fmt.Fprintln(f.IO.Err, demoServes(served))
	}
	for _, w := range a.Warnings {
		fmt.Fprintln(f.IO.Err, "warning:", safetext.StripLines(w))
	}
	f.app = a
	return nil
}

// appOptions are the App's options for cmd: the session flags, and the
// progress line hears the waits unless cmd owns the screen.
func (f *Factory) appOptions(cmd *cobra.Command) app.Options {
	opts := app.Options{ConfigPath: f.Session.Config, Demo: f.Session.Demo, Project: f.Session.Project, Locations: f.Locations, Now: f.now}
	if opts.Demo {
		// The schemas pulled, if any, are served whole; none (or a cache
		// that cannot be read): the modelled part.
		opts.DemoSchemas, _ = f.pulledSchemas()
	}
	if cmd.Annotations[ownsScreen] != "true" {
		opts.OnWait = f.progressLine().onWait
	}
	opts.OnRequest = f.requestHook(cmd)
	opts.OnRefresh = f.refreshHook(cmd)
	return opts
}

// schemaStore is the schemas' snapshots, in the cache directory.
func (f *Factory) schemaStore() (*schemacache.Store, error) {
	dir, err := f.Locations.CacheDir()
	if err != nil {
		return nil, err
	}
	return schemacache.New(dir), nil
}

// demoServes says which schemas --demo's emulator serves whole.
func demoServes(served map[string]string) string {
	var parts []string
	for _, api := range []string{"partner API", "Testing API"} {
		if p, ok := served[api]; ok {
			parts = append(parts, "the "+api+"'s, "+safetext.Strip(p))
		}
	}
	return "--demo serves the schemas pulled whole, generating what it does not model: " + strings.Join(parts, "; ")
}

// App is the App built for the running command.
func (f *Factory) App() *app.App { return f.app }

// Env is the environment the flags select, with its session and client;
// under --demo the demo user is signed in first.
func (f *Factory) Env(ctx context.Context) (*app.Env, error) {
	e, err := f.selected()
	if err != nil {
		return nil, err
	}
	if err := f.app.EnsureSignedIn(ctx, e); err != nil {
		return nil, err
	}
	return e, nil
}

// selected is the environment the flags select, as it is: commands about
// the session itself (login, logout, status) decide what to do about it.
func (f *Factory) selected() (*app.Env, error) {
	name, err := f.envName()
	if err != nil {
		return nil, err
	}
	return f.app.Env(name)
}

// envName is the name of the environment the flags select: --env, else
// the configuration's default_env, else Sandbox.
func (f *Factory) envName() (config.EnvName, error) {
	name, err := f.app.EnvName(f.Session.Env)
	if err != nil {
		return "", &UsageError{Err: err}
	}
	return name, nil
}

// exactlyOne accepts exactly one argument, and otherwise says what it is
// and how to find one.
func exactlyOne(cmd, what, findWith string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return fmt.Errorf("%s needs exactly one %s: run `partnertui %s` to find one", cmd, what, findWith)
		}
		return nil
	}
}

// usesProjectToken reports whether the selected environment calls the API
// with a project token (--project, or token = "project" in the config).
func (f *Factory) usesProjectToken() bool {
	if f.Session.Project {
		return true
	}
	if f.app == nil {
		return false
	}
	name, err := f.envName()
	return err == nil && f.app.Config.Env(name).UsesProjectToken()
}

// Close releases the App (the demo's emulator and temporary directory).
func (f *Factory) Close() {
	if f.app != nil {
		f.app.Close()
	}
}
