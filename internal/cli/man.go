package cli

import (
	"fmt"

	mango "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// NewCmdMan writes the man page, generated from the commands themselves.
func NewCmdMan(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "man",
		Short:   "Write the man page to stdout",
		Example: "  partnertui man > partnertui.1",
		Hidden:  true,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			page, err := mango.NewManPage(1, cmd.Root())
			if err != nil {
				return fmt.Errorf("could not build the man page: %w", err)
			}
			_, err = fmt.Fprint(f.IO.Out, page.Build(roff.NewDocument()))
			return err
		},
	}
}
