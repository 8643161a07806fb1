package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/auth"
)

// LoginOptions are `partnertui login`'s.
type LoginOptions struct {
	IO        IO
	F         *Factory
	NoBrowser bool
}

// NewCmdLogin signs the user in through the browser.
func NewCmdLogin(f *Factory, runF func(context.Context, *LoginOptions) error) *cobra.Command {
	opts := &LoginOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in through your browser and keep the session",
		Long: "Opens the platform's sign-in page (the URL is always printed first), waits for the\n" +
			"browser to come back to a 127.0.0.1 callback, and stores the tokens for this environment.",
		Example: "  partnertui login\n  partnertui login --env live\n  partnertui login --no-browser   # over SSH: open the URL on your own machine",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runLogin(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.NoBrowser, "no-browser", false, "print the URL but do not open a browser")
	return f.withSession(cmd, false)
}

func runLogin(ctx context.Context, opts *LoginOptions) error {
	a := opts.F.App()
	name, err := a.EnvName(opts.F.Session.Env)
	if err != nil {
		return &UsageError{Err: err}
	}
	e, err := a.Env(name)
	if err != nil {
		return err
	}
	lo := auth.LoginOptions{
		NoBrowser: opts.NoBrowser,
		ShowURL: func(p auth.SignInPrompt) {
			fmt.Fprintf(opts.IO.Err, "Sign in to %s in your browser:\n\n  %s\n\nWaiting for the browser (Ctrl+C to cancel)…\n", name, p.URL)
		},
		Warn: func(msg string) { fmt.Fprintln(opts.IO.Err, "warning:", msg) },
	}
	if e.DemoApprove != nil {
		lo.Open, lo.FailOnOpenError = e.DemoApprove, true
	}
	id, err := e.Session.Login(ctx, lo)
	if err != nil {
		return err
	}
	for _, w := range id.Warnings {
		fmt.Fprintln(opts.IO.Err, "warning:", w)
	}
	fmt.Fprintf(opts.IO.Err, "Signed in to %s as user %s (client %s).\n", name, id.Subject, e.Config.ClientID)
	return nil
}
