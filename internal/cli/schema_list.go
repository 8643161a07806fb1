package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/schemacache"
)

// SchemaPathOptions are `partnertui schema path`'s.
type SchemaPathOptions struct {
	IO      IO
	Env     string
	Testing bool
	Dir     bool
}

// NewCmdSchemaPath prints where the newest snapshot of an endpoint is.
func NewCmdSchemaPath(f *Factory) *cobra.Command {
	opts := &SchemaPathOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "path",
		Short: "Print the file of the newest schema pulled from an endpoint (--dir: where all are kept)",
		Example: "  partnertui schema path\n  partnertui schema path --testing\n  partnertui schema path --dir\n" +
			"  partnertui check --schema \"$(partnertui schema path)\" src/",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSchemaPath(cmd.Context(), f, cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Env, "env", "", "`environment`: sandbox or live (default: the config's default_env)")
	fl.BoolVar(&opts.Testing, "testing", false, "the Sandbox Testing API's schema instead of the partner API's")
	fl.BoolVar(&opts.Dir, "dir", false, "print the folder where every snapshot is kept instead")
	fl.StringVar(&f.Session.Config, "config", "", configFlagUsage)
	return cmd
}

func runSchemaPath(ctx context.Context, f *Factory, cmd *cobra.Command, opts *SchemaPathOptions) error {
	store, err := f.schemaStore()
	if err != nil {
		return err
	}
	if opts.Dir {
		_, err := fmt.Fprintln(opts.IO.Out, store.Dir())
		return err
	}
	ep, err := f.resolveEndpoint(ctx, cmd, opts.Env, opts.Testing)
	if err != nil {
		return err
	}
	if ep.url == "" {
		return noTestingAPI(ep.env)
	}
	sn, err := store.Latest(ep.url)
	if errors.Is(err, schemacache.ErrNotCached) {
		return fmt.Errorf("no schema of the %s (%s) is kept yet: `partnertui schema pull --env %s%s` reads it", ep, safetext.Strip(ep.url), ep.env, testingFlag(ep.testing))
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(opts.IO.Out, sn.Path)
	return err
}

// SchemaListOptions are `partnertui schema list`'s.
type SchemaListOptions struct {
	IO   IO
	JSON bool
}

// NewCmdSchemaList lists the snapshots kept.
func NewCmdSchemaList(f *Factory) *cobra.Command {
	opts := &SchemaListOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the schema snapshots kept: endpoint, environment, API, date and hash of each pull",
		Long: "Lists the snapshots `partnertui schema pull` (and `partnertui api`) keep, by endpoint, the\n" +
			"oldest first: the last of each endpoint is the one api and check use. A run of identical\n" +
			"pulls is kept as its first and its last.",
		Example: "  partnertui schema list\n  partnertui schema list --json | jq -r '.[] | select(.api == \"testing\") | .path'",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			return runSchemaList(f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON array on stdout")
	return cmd
}

func runSchemaList(f *Factory, opts *SchemaListOptions) error {
	store, err := f.schemaStore()
	if err != nil {
		return err
	}
	kept, err := store.List()
	if err != nil {
		return err
	}
	if opts.JSON {
		if kept == nil {
			kept = []schemacache.Snapshot{}
		}
		return writeJSON(opts.IO.Out, kept)
	}
	if len(kept) == 0 {
		_, err := fmt.Fprintf(opts.IO.Err, "No schema is kept in %s yet: `partnertui schema pull` reads one.\n", store.Dir())
		return err
	}
	return writeSnapshots(opts.IO.Out, kept)
}

func writeSnapshots(w io.Writer, kept []schemacache.Snapshot) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ENVIRONMENT\tAPI\tPULLED\tSHA256\tENDPOINT")
	for _, sn := range kept {
		env, api := sn.Environment, sn.API.Title()
		if env == "" {
			env = "—" // cached by an earlier partnertui, which did not say
		}
		if sn.Partial {
			api += " (partial)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", safetext.Strip(env), api, sn.Pulled.UTC().Format("2006-01-02 15:04:05 MST"),
			sn.ShortHash(), safetext.Strip(sn.Endpoint))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}
