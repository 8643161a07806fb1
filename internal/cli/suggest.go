package cli

import (
	"github.com/agnivade/levenshtein"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/partnertui/partnertui/internal/suggest"
)

// maxSuggestDistance is how many edits away a command or flag may be and
// still be suggested, as cobra's SuggestionsMinimumDistance defaults to.
const maxSuggestDistance = 2

// suggestCommand is the command line closest to the word typed where cmd
// takes a subcommand ("partnertui accounts" for "partnertui acounts"), or
// "" when cmd has none close enough.
func suggestCommand(cmd *cobra.Command, args []string) string {
	if !cmd.HasAvailableSubCommands() || len(args) == 0 {
		return ""
	}
	typed := args[0]
	// SuggestionsFor also offers every command the word is a prefix of;
	// the fewest edits win, the first listed on a tie.
	best, bestD := "", -1
	for _, name := range cmd.SuggestionsFor(typed) {
		if d := levenshtein.ComputeDistance(typed, name); bestD < 0 || d < bestD {
			best, bestD = name, d
		}
	}
	if best == "" {
		return ""
	}
	return cmd.CommandPath() + " " + best
}

// suggestFlag is the flag of cmd closest to the unknown long flag err
// reports ("--first" for "--frist"), or "" when none is a typing mistake
// away (suggest.Typo: --csv is not --env). Hidden flags are never
// suggested; neither is anything for a mistyped shorthand, whose one
// letter is as close to most flags as to any.
func suggestFlag(cmd *cobra.Command, err error) string {
	// pflag hands its parse error to cobra's FlagErrorFunc unwrapped.
	unknown, ok := err.(*pflag.NotExistError)
	if !ok || unknown.GetSpecifiedName() == "" {
		return ""
	}
	typed := unknown.GetSpecifiedName()
	best, bestD := "", maxSuggestDistance+1
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || !suggest.Typo(typed, f.Name) {
			return
		}
		if d := suggest.Distance(typed, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	if best == "" {
		return ""
	}
	return "--" + best
}
