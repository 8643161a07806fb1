package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/remedy"
)

// LogoutOptions are `partnertui logout`'s.
type LogoutOptions struct {
	IO IO
	F  *Factory
}

// NewCmdLogout revokes and forgets the session.
func NewCmdLogout(f *Factory) *cobra.Command {
	opts := &LogoutOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:     "logout",
		Short:   "Revoke and forget this environment's session",
		Long:    "Revokes the refresh token (when the server offers /oauth2/revoke), then deletes the stored session.",
		Example: "  partnertui logout\n  partnertui logout --env live",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogout(cmd.Context(), opts)
		},
	}
	return f.withSession(cmd, false)
}

func runLogout(ctx context.Context, opts *LogoutOptions) error {
	e, err := opts.F.selected()
	if err != nil {
		return err
	}
	name := e.Name
	// A token file that cannot be read counts as a session: Logout
	// removes it.
	st, stErr := e.Session.Status()
	signedIn := stErr != nil || (st != nil && st.SignedIn)
	// The app's first screen kept for the next launch goes with the
	// session, whoever's it was.
	if err := opts.F.App().ForgetSnapshots(name); err != nil {
		fmt.Fprintln(opts.IO.Err, "warning: the launch snapshot could not be deleted:", remedy.Sentence(err))
	}
	if err := e.Session.Logout(ctx); err != nil {
		if !errors.Is(err, auth.ErrRevocationFailed) {
			return err
		}
		// The local session is gone either way; say what the server did
		// not confirm.
		fmt.Fprintln(opts.IO.Err, "warning:", remedy.Sentence(err))
	}
	if !signedIn {
		fmt.Fprintf(opts.IO.Err, "Nothing to do: you were not signed in to %s.\n", name)
		return nil
	}
	fmt.Fprintf(opts.IO.Err, "Signed out of %s.\n", name)
	return nil
}
