package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/paths"
)

// configFlagUsage is --config's help, on the session commands and on config's
// own.
const configFlagUsage = "configuration `file` (default: $" + paths.ConfigEnv + " or $XDG_CONFIG_HOME/partnertui/config.toml)"

// ConfigOptions are those of `partnertui config path` and `config init`.
type ConfigOptions struct {
	IO      IO
	Path    string // --config
	Default string // the process's configuration file (Locations.ConfigFile)
}

func (o *ConfigOptions) file() string {
	if o.Path != "" {
		return o.Path
	}
	return o.Default
}

// NewCmdConfig finds or writes the configuration file.
func NewCmdConfig(f *Factory) *cobra.Command {
	opts := &ConfigOptions{IO: f.IO, Default: f.Locations.ConfigFile}
	cmd := &cobra.Command{
		Use:     "config",
		Short:   "Find or create the configuration file",
		Example: "  partnertui config path\n  partnertui config init\n  partnertui config init --config ./partnertui.toml",
		Args:    noArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	pathCmd := &cobra.Command{
		Use:     "path",
		Short:   "Print the configuration file's path",
		Long:    "Prints $PARTNERTUI_CONFIG, else $XDG_CONFIG_HOME/partnertui/config.toml (or --config).",
		Example: "  partnertui config path\n  $EDITOR \"$(partnertui config path)\"",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(opts.IO.Out, opts.file())
			return err
		},
	}
	initCmd := &cobra.Command{
		Use:     "init",
		Short:   "Write a commented configuration template (mode 0600)",
		Long:    "Writes a commented template with one table per environment; it never overwrites a file.",
		Example: "  partnertui config init\n  partnertui config init --config ./partnertui.toml",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			p := opts.file()
			if err := config.WriteTemplate(p); err != nil {
				return err
			}
			fmt.Fprintf(opts.IO.Err, "Wrote %s: fill in client_id and the secret for each environment.\n", p)
			return nil
		},
	}
	for _, c := range []*cobra.Command{pathCmd, initCmd} {
		c.Flags().StringVar(&opts.Path, "config", "", configFlagUsage)
		cmd.AddCommand(c)
	}
	return cmd
}
