package cli

import (
	"fmt"
	"strings"

	"github.com/muesli/mango"
	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// NewCmdMan writes the man page, generated from the commands themselves.
func NewCmdMan(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "man",
		Short:   "Write the man page to stdout",
		Example: "  partnertui man > partnertui.1\n  partnertui man | man -l -",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			page, err := mcobra.NewManPage(1, cmd.Root())
			if err != nil {
				return fmt.Errorf("could not build the man page: %w", err)
			}
			page.WithLongDescription(manParagraphs(cmd.Root().Long))
			unquoteFlags(&page.Root)
			_, err = fmt.Fprint(f.IO.Out, page.Build(roff.NewDocument()))
			return err
		},
	}
}

// manParagraphs joins the lines of each paragraph of a help text: the man
// page starts a paragraph at every line break, while the help breaks its
// lines to fit a terminal and separates paragraphs with a blank line.
func manParagraphs(help string) string {
	paras := strings.Split(strings.TrimSpace(help), "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n")
}

// unquoteFlags removes from every flag's usage the backticks that name its
// value in the help (`--search text`): a man page would show them as they
// are.
func unquoteFlags(c *mango.Command) {
	for name, fl := range c.Flags {
		fl.Usage = strings.ReplaceAll(fl.Usage, "`", "")
		c.Flags[name] = fl
	}
	for _, sub := range c.Commands {
		unquoteFlags(sub)
	}
}
