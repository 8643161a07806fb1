package cli

import (
	"context"
	"io"
	"reflect"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/app"
)

// itemCommand is a command that shows one object by its id, as the app's
// `:card ID` does: its words, how the environment reads the object, and
// its aligned lines for people (--json and --jq print it for programs).
type itemCommand[T any] struct {
	use, short, long, example string
	args                      cobra.PositionalArgs
	read                      func(ctx context.Context, e *app.Env, id string) (*T, error)
	lines                     func(io.Writer, *T) error
}

// newCmdItem builds c's command.
func newCmdItem[T any](f *Factory, c itemCommand[T]) *cobra.Command {
	var out jsonFlags
	cmd := &cobra.Command{
		Use:     c.use,
		Short:   c.short,
		Long:    c.long,
		Example: c.example,
		Args:    c.args,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			e, err := f.Env(ctx)
			if err != nil {
				return err
			}
			v, err := c.read(ctx, e, args[0])
			if err != nil {
				return err
			}
			return f.writeItem(ctx, out, v, func(w io.Writer) error { return c.lines(w, v) })
		},
	}
	out.register(cmd, reflect.TypeFor[T](), "print one JSON object on stdout")
	return f.withSession(cmd, true)
}
