package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// NewCmdRoot is partnertui itself: the terminal UI, and every command.
func NewCmdRoot(f *Factory) *cobra.Command {
	root := NewCmdTUI(f)
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.Version = Version()
	root.SetVersionTemplate("partnertui version {{.Version}}\n")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		return f.loadApp(cmd.Context(), cmd)
	}
	// Flag mistakes are usage errors on every command.
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &UsageError{Err: err, Suggest: suggestFlag(cmd, err)}
	})
	root.AddCommand(
		NewCmdLogin(f),
		NewCmdLogout(f),
		NewCmdStatus(f),
		NewCmdAccounts(f),
		NewCmdAccount(f),
		NewCmdTransactions(f),
		NewCmdTransaction(f),
		NewCmdBalanceHistory(f),
		NewCmdExport(f),
		NewCmdMembers(f), NewCmdMember(f),
		NewCmdCards(f), NewCmdCard(f),
		NewCmdStatements(f), NewCmdStatement(f),
		NewCmdEvents(f),
		NewCmdListen(f),
		NewCmdSubscriptions(f),
		NewCmdToken(f),
		NewCmdAPI(f),
		NewCmdTrigger(f),
		NewCmdCheck(f), NewCmdSchema(f),
		NewCmdConfig(f),
		NewCmdEmulator(f),
		NewCmdVersion(f),
		NewCmdMan(f),
	)
	// cobra adds help and completion when it runs; add them now so their
	// argument checks are typed like ours.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	typeArgErrors(root)
	return root
}

// exitCodesHelp ends the long help of the root and of status.
const exitCodesHelp = "Exit codes: 0 success, 1 failure, 2 usage error, 4 sign-in needed."

// typeArgErrors makes every argument-count mistake a *UsageError, so the
// exit code never depends on the wording of cobra's messages, and names
// the subcommand closest to a mistyped one.
func typeArgErrors(c *cobra.Command) {
	c.SuggestionsMinimumDistance = maxSuggestDistance
	if c.HasSubCommands() && !c.Runnable() {
		// cobra shows the help of a group for any word it does not know;
		// a mistyped subcommand is a usage error like any other.
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return nil
		}
	}
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			err := check(cmd, args)
			if err == nil {
				return nil
			}
			// The commands' own checks return a *UsageError as it is.
			ue, ok := err.(*UsageError)
			if !ok {
				ue = &UsageError{Err: err}
			}
			if ue.Suggest == "" {
				ue.Suggest = suggestCommand(cmd, args)
			}
			return ue
		}
	}
	for _, sub := range c.Commands() {
		typeArgErrors(sub)
	}
}

// noArgs refuses arguments with a sentence that names the command.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q", cmd.CommandPath(), strings.Join(args, " "))
	}
	return nil
}
