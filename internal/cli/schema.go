package cli

import (
	"github.com/spf13/cobra"
)

// NewCmdSchema groups the commands about the platform's schemas.
func NewCmdSchema(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Pull the platform's GraphQL schemas, list and compare them",
		Args:  noArgs,
	}
	cmd.AddCommand(NewCmdSchemaPull(f), NewCmdSchemaPath(f), NewCmdSchemaList(f), NewCmdSchemaDiff(f))
	return cmd
}
