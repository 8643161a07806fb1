package cli

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/apicall"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/ui"
)

// TUIOptions are the terminal UI's.
type TUIOptions struct {
	IO IO
	F  *Factory
}

// NewCmdTUI is the root command: with no subcommand partnertui is the
// terminal UI.
func NewCmdTUI(f *Factory) *cobra.Command {
	opts := &TUIOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "partnertui",
		Short: "A terminal client for the banking platform's partner API",
		Long: "partnertui signs you in through your browser, lists your accounts, shows IBANs, balances and\n" +
			"transactions, and switches between Sandbox and Live with one key.\n\n" +
			"Run it with no command for the terminal app. Try it with no credentials: partnertui --demo\n\n" +
			exitCodesHelp,
		Example: "  partnertui --demo\n  partnertui --env live\n  partnertui login --env sandbox\n  partnertui accounts --json --all",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTUI(cmd.Context(), opts, cmd)
		},
	}
	cmd = f.withSession(cmd, true)
	cmd.Annotations[ownsScreen] = "true"
	return cmd
}

// firstRun reports whether partnertui runs with no configuration: not
// under --demo, and no file where it looks for one, or one (exists) in
// which no environment has its credentials yet (a template not filled in).
func firstRun(a *app.App) (first, exists bool) {
	if a.Demo() || a.ConfigFile == "" {
		return false, false
	}
	if _, err := os.Lstat(a.ConfigFile); errors.Is(err, fs.ErrNotExist) {
		return true, false
	}
	for _, name := range []config.EnvName{config.Sandbox, config.Live} {
		if _, err := a.Env(name); !errors.Is(err, config.ErrNotConfigured) {
			return false, true
		}
	}
	return true, true
}

// offerFirstRun shows the first-run screen; true when the user chose the
// demo.
func offerFirstRun(ctx context.Context, opts *TUIOptions, exists bool) (bool, error) {
	path := opts.F.App().ConfigFile
	choice, err := ui.FirstRun(ctx, ui.FirstRunOptions{ConfigPath: path, Exists: exists, NoColor: opts.F.env("NO_COLOR") != "",
		WriteTemplate: func() error { return config.WriteTemplate(path) }})
	return choice == ui.FirstRunDemo, err
}

// errNotATerminal: the terminal UI would draw escape sequences into a file
// or a pipe.
var errNotATerminal = errors.New("the terminal UI needs a terminal, and standard output is not one: for scripts, use a command with --json, such as `partnertui accounts --json`")

func runTUI(ctx context.Context, opts *TUIOptions, cmd *cobra.Command) error {
	if !opts.IO.OutIsTerminal() {
		return &UsageError{Err: errNotATerminal}
	}
	if first, exists := firstRun(opts.F.App()); first {
		demo, err := offerFirstRun(ctx, opts, exists)
		if err != nil || !demo {
			return err
		}
		// The demo, as --demo builds it.
		opts.F.App().Close()
		opts.F.app, opts.F.Session.Demo = nil, true
		if err := opts.F.loadApp(ctx, cmd); err != nil {
			return err
		}
	}
	a := opts.F.App()
	start, err := opts.F.envName()
	if err != nil {
		return err
	}
	uopts := ui.Options{Envs: map[config.EnvName]*ui.Environment{}, Start: start, Requests: a.Requests,
		Getenv: opts.F.env, NoColor: opts.F.env("NO_COLOR") != "", ConsentRedirect: a.ConsentRedirect}
	if cfg, home := a.DemoPlace(); cfg != "" {
		uopts.Demo = &ui.DemoPlace{ConfigFile: cfg, StateHome: home}
	}
	// The first screen's environment first: its request goes before the
	// other environment is built and before the UI starts.
	for _, name := range []config.EnvName{start, start.Other()} {
		e, err := a.Env(name)
		if err != nil {
			if name == start {
				return err
			}
			continue // the other environment is simply not configured
		}
		uopts.Envs[name] = &ui.Environment{
			Name: name, ClientID: e.Config.ClientID, API: e.API, Session: e.Session, ProjectAPI: e.ProjectAPI,
			PrefilledPhone: e.Config.AuthParams["phoneNumber"], ReadOnly: e.ReadOnly,
			DemoApprove: e.DemoApprove, Project: e.Project,
		}
		schemas := apicall.Env{Name: name, API: e.API}
		if !a.Demo() {
			// Not under --demo: the emulator's port changes every run.
			schemas.Schemas, _ = opts.F.schemaStore()
		}
		uopts.Envs[name].Schema = apicall.Source{Env: schemas}
		if e.Snapshot != nil {
			// Not a nil *app.Snapshot in the interface: the UI tests nil.
			uopts.Envs[name].Snapshot = e.Snapshot
		}
		if name == start {
			uopts.FirstScreen = ui.Prefetch(ctx, uopts.Envs[name])
		}
	}
	if uopts.LogPath, err = a.LogPath(); err != nil {
		return err
	}
	return ui.Run(ctx, uopts)
}
