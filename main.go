// Command partnertui is a terminal client for a banking-platform partner
// API: browser sign-in, accounts, IBAN details, Sandbox and Live side by
// side. This file only wires the packages together; the logic lives in
// config, auth, api, ui and emulator.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"charm.land/fang/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/cli"
	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/ui"
)

// version is overridden at build time with -ldflags "-X main.version=…".
var version = "0.1.0"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes promised in the README.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks mistakes in how the command was called (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// silentError carries an exit code for a failure that was already reported
// (status prints "not signed in" and exits 1).
type silentError struct{ code int }

func (e silentError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	g := &globals{stdout: stdout, stderr: stderr}
	root := newRoot(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := fang.Execute(ctx, root,
		fang.WithVersion(version),
		fang.WithErrorHandler(func(w io.Writer, styles fang.Styles, err error) {
			var se silentError
			if errors.As(err, &se) {
				return
			}
			if f, ok := stderr.(*os.File); ok && term.IsTerminal(f.Fd()) {
				// fang ends the sentence itself.
				fang.DefaultErrorHandler(w, styles, errors.New(strings.TrimSuffix(err.Error(), ".")))
				return
			}
			// Scripts and logs get the sentence as it is, unstyled.
			msg := err.Error()
			if !strings.HasSuffix(msg, ".") {
				msg += "."
			}
			fmt.Fprintln(stderr, "Error:", msg)
			if isUsage(err) {
				fmt.Fprintln(stderr, "Run `partnertui --help` for usage.")
			}
		}),
	)
	if g.cleanup != nil {
		g.cleanup()
	}
	switch {
	case err == nil:
		return exitOK
	case isUsage(err):
		return exitUsage
	default:
		var se silentError
		if errors.As(err, &se) {
			return se.code
		}
		return exitFailure
	}
}

func isUsage(err error) bool {
	var ue usageError
	if errors.As(err, &ue) {
		return true
	}
	// Our commands return usageError themselves; the commands cobra and fang
	// add (help, completion, man) report argument mistakes as plain errors.
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument",
		"invalid argument", "accepts ", "requires at least", "requires at most"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// globals are the persistent flags and what they resolve to.
type globals struct {
	stdout, stderr io.Writer
	envFlag        string
	configPath     string // --config as given
	configFile     string // the file actually read (--config, $PARTNERTUI_CONFIG or the XDG default)
	demo           bool
	project        bool

	cfg       *config.Config
	demoUsers []emulator.DemoUser // --demo: who may approve sign-ins
	state     string              // token store directory
	cleanup   func()
}

func newRoot(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "partnertui",
		Short: "A terminal client for the banking platform's partner API",
		Long: "partnertui signs you in through your browser, lists your accounts, shows IBANs, balances and\n" +
			"transactions, and switches between Sandbox and Live with one key.\n\n" +
			"Run it with no command for the terminal app. Try it with no credentials: partnertui --demo",
		Example: "  partnertui --demo\n  partnertui login --env sandbox\n  partnertui accounts --json --all",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %q: run `partnertui --help` to see the commands", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return runTUI(cmd.Context(), g) },
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			switch cmd.Name() {
			case "partnertui", "login", "logout", "status", "accounts", "account":
				return g.setup(cmd.Context())
			}
			return nil // emulator, config, version, help, completion, man need neither config nor tokens
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := root.PersistentFlags()
	pf.StringVar(&g.envFlag, "env", "", "environment: sandbox or live (default: the config's default_env)")
	pf.StringVar(&g.configPath, "config", "", "config file (default: $PARTNERTUI_CONFIG or $XDG_CONFIG_HOME/partnertui/config.toml)")
	pf.BoolVar(&g.demo, "demo", false, "use the embedded emulator with demo credentials; nothing real is read or written")
	pf.BoolVar(&g.project, "project", false, "call the API with a project token (client credentials) instead of your user token")

	root.AddCommand(loginCmd(g), logoutCmd(g), statusCmd(g), accountsCmd(g), accountCmd(g),
		configCmd(g), emulatorCmd(g), versionCmd())
	return root
}

// setup loads the configuration, or starts the embedded emulator for --demo.
func (g *globals) setup(ctx context.Context) error {
	if g.demo {
		return g.setupDemo(ctx)
	}
	path := g.configPath
	if path == "" {
		path = paths.ConfigFile()
	}
	g.configFile = path
	cfg, warnings, err := config.Load(path)
	if err != nil && !errors.Is(err, config.ErrNoConfig) {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(g.stderr, "warning:", w)
	}
	g.cfg = cfg
	state, err := stateDir()
	if err != nil {
		return err
	}
	g.state = state
	return nil
}

func stateDir() (string, error) { return paths.StateDir() }

// setupDemo starts the emulator on a random loopback port and points both
// environments at it, with tokens in a temporary directory removed on exit.
func (g *globals) setupDemo(ctx context.Context) error {
	srv, err := emulator.Start(context.WithoutCancel(ctx), emulator.Options{})
	if err != nil {
		return fmt.Errorf("could not start the embedded emulator: %w", err)
	}
	dir, err := os.MkdirTemp("", "partnertui-demo-*")
	if err != nil {
		srv.Close()
		return fmt.Errorf("could not create a temporary token directory: %w", err)
	}
	g.state = dir
	g.cleanup = func() {
		srv.Close()
		os.RemoveAll(dir)
	}
	info := srv.Info()
	g.demoUsers = info.DemoUsers
	envCfg := func(name config.EnvName) config.Environment {
		e := info.Environments[string(name)]
		return config.Environment{
			Name: name, APIURL: info.APIURL, AuthURL: info.AuthURL,
			ClientID: e.ClientID, ClientSecret: e.ClientSecret, RedirectURI: e.RedirectURI,
			Token: config.TokenUser,
		}
	}
	g.cfg = &config.Config{DefaultEnv: config.Sandbox, Sandbox: envCfg(config.Sandbox), Live: envCfg(config.Live)}
	return nil
}

// demoPhone is the first demo user of env, who approves demo sign-ins.
func (g *globals) demoPhone(env config.EnvName) string {
	for _, u := range g.demoUsers {
		if u.Env == string(env) {
			return u.Phone
		}
	}
	return ""
}

func (g *globals) envName() (config.EnvName, error) {
	if g.envFlag != "" {
		e, err := config.ParseEnv(g.envFlag)
		if err != nil {
			return "", usageError{err}
		}
		return e, nil
	}
	if g.cfg != nil && g.cfg.DefaultEnv != "" {
		return g.cfg.DefaultEnv, nil
	}
	return config.Sandbox, nil
}

// session opens env's session. auth validates the environment; when the
// environment is simply not configured yet, the error also says which file
// to edit and that --demo needs no credentials.
func (g *globals) session(env config.EnvName) (*auth.Session, *config.Environment, error) {
	e := g.cfg.Env(env)
	s, err := auth.NewSession(auth.SessionOptions{Env: e, StateDir: g.state, Project: g.project})
	if err != nil {
		if e.Ready() != nil {
			return nil, nil, fmt.Errorf("%w in %s: run `partnertui config init` to write a template, or try `partnertui --demo`, which needs no credentials", err, g.configFile)
		}
		return nil, nil, err
	}
	return s, e, nil
}

// selected is the session of the environment chosen by --env or the config.
func (g *globals) selected() (config.EnvName, *auth.Session, *config.Environment, error) {
	name, err := g.envName()
	if err != nil {
		return "", nil, nil, err
	}
	s, e, err := g.session(name)
	return name, s, e, err
}

func (g *globals) client(s *auth.Session, e *config.Environment) (*api.Client, error) {
	opts := api.Options{
		Env: string(e.Name), GraphQLURL: e.GraphQLURL(), TestingURL: e.TestingGraphQLURL(),
		TokenSource: s.APITokenSource(), PageSize: e.PageSize,
	}
	if !s.UsesProjectToken() {
		// Another process's refresh revokes the access token we hold: a 401
		// re-reads the store once before anyone is sent back to sign in.
		opts.OnUnauthorized = s.Rejected
	}
	return api.New(opts)
}

// demoApprover plays the browser on the emulator's sign-in forms.
func (g *globals) demoApprover(env config.EnvName) func(context.Context, string) error {
	return auth.ApproveWithForms(&http.Client{Timeout: 30 * time.Second}, g.demoPhone(env), false)
}

// ensureDemoSignIn signs the demo user in, so that one-shot commands work
// under --demo without a browser.
func (g *globals) ensureDemoSignIn(ctx context.Context, s *auth.Session) error {
	if !g.demo || s.SignedIn() || s.UsesProjectToken() {
		return nil
	}
	_, err := s.Login(ctx, auth.LoginOptions{ShowURL: func(string) {}, Open: g.demoApprover(s.Env()), FailOnOpenError: true})
	return err
}

func runTUI(ctx context.Context, g *globals) error {
	start, err := g.envName()
	if err != nil {
		return err
	}
	opts := ui.Options{Envs: map[config.EnvName]*ui.Environment{}, Start: start}
	for _, name := range []config.EnvName{config.Sandbox, config.Live} {
		s, e, err := g.session(name)
		if err != nil {
			if name == start {
				return err
			}
			continue // the other environment is simply not configured
		}
		c, err := g.client(s, e)
		if err != nil {
			return err
		}
		env := &ui.Environment{
			Name: name, ClientID: e.ClientID, API: c, Session: s,
			PrefilledPhone: e.AuthParams["phoneNumber"], ReadOnly: name == config.Live,
		}
		if g.demo {
			env.DemoApprove = g.demoApprover(name)
		}
		opts.Envs[name] = env
	}
	logDir := g.state
	if g.demo {
		// The demo's token directory is removed on exit; a crash log must outlive it.
		logDir, _ = stateDir()
	}
	if logDir != "" {
		opts.LogPath = filepath.Join(logDir, "partnertui.log")
	}
	return ui.Run(ctx, opts)
}

func loginCmd(g *globals) *cobra.Command {
	var noBrowser bool
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in through your browser and keep the session",
		Long: "Opens the platform's sign-in page (the URL is always printed first), waits for the\n" +
			"browser to come back to a 127.0.0.1 callback, and stores the tokens for this environment.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			name, s, e, err := g.selected()
			if err != nil {
				return err
			}
			opts := auth.LoginOptions{
				NoBrowser: noBrowser,
				ShowURL: func(u string) {
					fmt.Fprintf(g.stderr, "Sign in to %s in your browser:\n\n  %s\n\nWaiting for the browser (Ctrl+C to cancel)…\n", name, u)
				},
			}
			if g.demo {
				opts.Open, opts.FailOnOpenError = g.demoApprover(name), true
			}
			id, err := s.Login(cmd.Context(), opts)
			if err != nil {
				return err
			}
			for _, w := range id.Warnings {
				fmt.Fprintln(g.stderr, "warning:", w)
			}
			fmt.Fprintf(g.stderr, "Signed in to %s as user %s (client %s).\n", name, id.Subject, e.ClientID)
			return nil
		},
	}
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "print the URL but do not open a browser")
	return cmd
}

func logoutCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "logout",
		Short: "Revoke and forget this environment's session",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			name, s, _, err := g.selected()
			if err != nil {
				return err
			}
			if err := s.Logout(cmd.Context()); err != nil {
				if !errors.Is(err, auth.ErrRevocationFailed) {
					return err
				}
				// The local session is gone either way; say what the server did not confirm.
				fmt.Fprintln(g.stderr, "warning:", err)
			}
			fmt.Fprintf(g.stderr, "Signed out of %s.\n", name)
			return nil
		},
	}
}

func statusCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the environment, user and token expiry (exit 1 when not signed in)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			name, s, e, err := g.selected()
			if err != nil {
				return err
			}
			if err := g.ensureDemoSignIn(cmd.Context(), s); err != nil {
				return err
			}
			st, err := s.Status()
			if err != nil {
				return err
			}
			out := statusOutput{StatusInfo: *st}
			if st.SignedIn || s.UsesProjectToken() {
				// Who the token belongs to, when the API answers; offline
				// status is still useful without it.
				if c, err := g.client(s, e); err == nil {
					qctx, cancel := context.WithTimeout(cmd.Context(), 15*time.Second)
					if u, err := c.User(qctx); err == nil {
						out.User = u
					} else {
						out.UserError = err.Error()
					}
					cancel()
				}
			}
			if asJSON {
				if err := writeJSON(g.stdout, out); err != nil {
					return err
				}
			} else {
				printStatus(g.stdout, out)
			}
			if !st.SignedIn {
				if !asJSON {
					fmt.Fprintf(g.stderr, "Not signed in to %s: run `partnertui login --env %s`.\n", name, name)
				}
				return silentError{exitFailure}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object on stdout")
	return cmd
}

type statusOutput struct {
	auth.StatusInfo
	User      *api.User `json:"user,omitempty"`
	UserError string    `json:"user_error,omitempty"`
}

func printStatus(w io.Writer, s statusOutput) {
	fmt.Fprintf(w, "Environment:  %s\n", s.Env)
	fmt.Fprintf(w, "Client:       %s\n", s.ClientID)
	if !s.SignedIn {
		fmt.Fprintf(w, "Signed in:    no\n")
		return
	}
	who := s.Subject
	if s.User != nil {
		who = fmt.Sprintf("%s (%s, %s)", s.User.FullName, s.User.MobilePhoneNumber, s.User.ID)
	}
	fmt.Fprintf(w, "Signed in:    yes, as %s\n", who)
	if !s.AccessExpiry.IsZero() {
		left := time.Until(s.AccessExpiry).Round(time.Second)
		if left > 0 {
			fmt.Fprintf(w, "Access token: expires in %s (%s)\n", left, s.AccessExpiry.Local().Format(time.DateTime))
		} else {
			fmt.Fprintf(w, "Access token: expired; it is refreshed on the next call\n")
		}
	}
	fmt.Fprintf(w, "Refresh:      %v\n", s.HasRefresh)
	fmt.Fprintf(w, "Token store:  %s\n", s.StorePath)
	if s.UserError != "" {
		fmt.Fprintf(w, "User query:   %s\n", s.UserError)
	}
}

// apiClientFor builds the signed-in client for the selected environment.
func (g *globals) apiClientFor(ctx context.Context) (*api.Client, error) {
	_, s, e, err := g.selected()
	if err != nil {
		return nil, err
	}
	if err := g.ensureDemoSignIn(ctx, s); err != nil {
		return nil, err
	}
	return g.client(s, e)
}

func accountsCmd(g *globals) *cobra.Command {
	var (
		asJSON, all bool
		first       int
		search      string
	)
	cmd := &cobra.Command{
		Use:   "accounts",
		Short: "List accounts (one page, or --all)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if first < 1 || first > 100 {
				return usageError{fmt.Errorf("--first must be between 1 and 100 (the API's page maximum), not %d", first)}
			}
			ctx := cmd.Context()
			c, err := g.apiClientFor(ctx)
			if err != nil {
				return err
			}
			params := api.AccountsParams{First: first, Search: search}
			var accounts []api.Account
			if all {
				if accounts, err = c.AllAccounts(ctx, params); err != nil {
					return err
				}
			} else {
				page, err := c.Accounts(ctx, params)
				if err != nil {
					return err
				}
				accounts = page.Accounts
			}
			if asJSON {
				return cli.WriteAccountsJSON(g.stdout, accounts)
			}
			return cli.WriteAccountsTable(g.stdout, accounts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print one JSON array of accounts on stdout")
	f.BoolVar(&all, "all", false, "walk every page of the connection")
	f.IntVar(&first, "first", 100, "page size (1-100)")
	f.StringVar(&search, "search", "", "server-side search (holder, account name, number, id)")
	return cmd
}

func accountCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "account ID",
		Short: "Show one account in full",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("account needs exactly one account ID: run `partnertui accounts` to find one")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := g.apiClientFor(ctx)
			if err != nil {
				return err
			}
			a, err := c.Account(ctx, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return cli.WriteAccountJSON(g.stdout, a)
			}
			return cli.WriteAccountDetail(g.stdout, a)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object on stdout")
	return cmd
}

func configCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Find or create the configuration file",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	path := func() (string, error) {
		if g.configPath != "" {
			return g.configPath, nil
		}
		return paths.ConfigFile(), nil
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "Print the configuration file's path",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			p, err := path()
			if err != nil {
				return err
			}
			fmt.Fprintln(g.stdout, p)
			return nil
		},
	}, &cobra.Command{
		Use:   "init",
		Short: "Write a commented configuration template (mode 0600)",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			p, err := path()
			if err != nil {
				return err
			}
			if err := config.WriteTemplate(p); err != nil {
				return err
			}
			fmt.Fprintf(g.stderr, "Wrote %s: fill in client_id and the secret for each environment.\n", p)
			return nil
		},
	})
	return cmd
}

func emulatorCmd(g *globals) *cobra.Command {
	var (
		opts             emulator.Options
		rate, requestLog string
		asJSON           bool
	)
	cmd := &cobra.Command{
		Use:   "emulator",
		Short: "Run a local emulation of the platform (OAuth server + GraphQL) until interrupted",
		Long: "Serves /oauth2/*, /sandbox-partner/graphql, /sandbox-partner-admin/graphql and\n" +
			"/live-partner/graphql on one loopback listener, with demo clients and users.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.RateLimit, opts.RateWindow, err = emulator.ParseRateLimit(rate); err != nil {
				return usageError{err}
			}
			if requestLog != "" {
				f, err := os.OpenFile(requestLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
				if err != nil {
					return fmt.Errorf("could not open the request log: %w", err)
				}
				defer f.Close()
				opts.RequestLog = f
			}
			srv, err := emulator.Start(cmd.Context(), opts)
			if errors.Is(err, emulator.ErrInvalidOptions) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			if err := emulator.PrintInfo(g.stdout, srv.Info(), asJSON); err != nil {
				srv.Close()
				return err
			}
			return srv.Run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Listen, "listen", emulator.DefaultListen, "address to listen on")
	f.IntVar(&opts.Accounts, "accounts", emulator.DefaultAccounts, "accounts to generate (up to 100000)")
	f.Int64Var(&opts.Seed, "seed", emulator.DefaultSeed, "seed of the generated data")
	f.StringVar(&rate, "rate-limit", "2000/5m", "requests per window per client IP per endpoint")
	f.DurationVar(&opts.TokenTTL, "token-ttl", time.Hour, "access-token lifetime")
	f.DurationVar(&opts.CodeTTL, "code-ttl", 10*time.Minute, "authorization-code lifetime")
	f.StringVar(&requestLog, "request-log", "", "append one JSON line per request to FILE (no tokens)")
	f.BoolVar(&asJSON, "json", false, "print the URLs and credentials as one JSON line")
	return cmd
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), "partnertui", version)
			return nil
		},
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("%s takes no arguments, got %q", cmd.CommandPath(), strings.Join(args, " "))}
	}
	return nil
}
