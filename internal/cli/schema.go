package cli

import (
	"github.com/spf13/cobra"
)

// NewCmdSchema groups the commands about the platform's schemas.
func NewCmdSchema(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Compare the platform's GraphQL schemas",
		Args:  noArgs,
	}
	cmd.AddCommand(NewCmdSchemaDiff(f))
	return cmd
}
