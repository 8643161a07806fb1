package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// TokenOptions are `partnertui token`'s.
type TokenOptions struct {
	IO IO
	F  *Factory
}

// NewCmdToken prints an access token for scripts, as `gh auth token` does.
// It is the only command that ever prints a token.
func NewCmdToken(f *Factory) *cobra.Command {
	opts := &TokenOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Print a valid access token for the environment (for curl and scripts)",
		Long: "Prints a valid access token for the environment, refreshing it first when it is about to expire, " +
			"and nothing else: the user's token, or the project's with --project (or token = \"project\" in the config).\n\n" +
			"It is the only command that prints a token. Keep it out of your shell history: use it as " +
			"PARTNERTUI_TOKEN=$(partnertui token), as the commands `partnertui api --dry-run` prints expect.",
		Example: "  export PARTNERTUI_TOKEN=$(partnertui token)\n  partnertui token --project --env live",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runToken(cmd.Context(), opts)
		},
	}
	return f.withSession(cmd, true)
}

func runToken(ctx context.Context, opts *TokenOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	tok, err := e.Session.APITokenSource().Token()
	if err != nil {
		return err
	}
	if tok == nil || tok.AccessToken == "" {
		return errors.New("the token source returned no access token")
	}
	_, err = fmt.Fprintln(opts.IO.Out, tok.AccessToken)
	return err
}
