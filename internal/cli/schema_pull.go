package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/schemapull"
)

// SchemaPullOptions are `partnertui schema pull`'s.
type SchemaPullOptions struct {
	IO      IO
	Env     string
	Testing bool
}

// NewCmdSchemaPull reads an endpoint's schema and keeps it as a snapshot.
func NewCmdSchemaPull(f *Factory) *cobra.Command {
	opts := &SchemaPullOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "pull",
		Short: "Read the platform's schema of an endpoint and keep it, dated, as SDL in the cache",
		Long: "Reads the schema of --env's partner API (--testing: the Sandbox Testing API) by introspection\n" +
			"and keeps it as a dated snapshot in the cache directory: a file of SDL headed by its endpoint,\n" +
			"environment, date and SHA-256. The newest snapshot of an endpoint is what `partnertui api`\n" +
			"validates against and what `partnertui check` checks with; `partnertui schema diff` with no\n" +
			"files compares the last two; `partnertui emulator --schema auto` serves them.\n\n" +
			"The platform serves its schema to anyone, so no token is sent; an endpoint that refuses is\n" +
			"asked again with your session's token (or the project's), and a note says so.",
		Example: "  partnertui schema pull\n  partnertui schema pull --testing\n  partnertui schema pull --env live\n" +
			"  partnertui schema pull && partnertui schema diff   # what changed since the last pull",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSchemaPull(cmd.Context(), f, cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Env, "env", "", "`environment`: sandbox or live (default: the config's default_env)")
	fl.BoolVar(&opts.Testing, "testing", false, "pull the Sandbox Testing API's schema instead of the partner API's")
	fl.StringVar(&f.Session.Config, "config", "", configFlagUsage)
	fl.BoolVar(&f.Session.Verbose, "verbose", false, "print one line per API request on stderr (also PARTNERTUI_DEBUG=api)")
	return cmd
}

func runSchemaPull(ctx context.Context, f *Factory, cmd *cobra.Command, opts *SchemaPullOptions) error {
	ep, err := f.resolveEndpoint(ctx, cmd, opts.Env, opts.Testing)
	if err != nil {
		return err
	}
	if ep.url == "" {
		return noTestingAPI(ep.env)
	}
	store, err := f.schemaStore()
	if err != nil {
		return err
	}
	public, err := f.app.PublicAPI(ep.env)
	if err != nil {
		return err
	}
	target := schemapull.Target{Env: string(ep.env), Testing: opts.Testing, Public: public,
		WithToken: func(context.Context) (*api.Client, error) {
			e, err := f.app.Env(ep.env)
			if err != nil {
				return nil, err
			}
			if e.Project || e.Session.SignedIn() {
				return e.API, nil
			}
			return e.ProjectAPI, nil // client credentials: no one need sign in
		}}
	res, err := schemapull.Pull(ctx, store, target, time.Now())
	if err != nil {
		return err
	}
	if res.Refused != "" {
		fmt.Fprintf(opts.IO.Err, "note: %s refused introspection without a token (%s): it was read with your token.\n",
			safetext.Strip(res.Snapshot.Endpoint), safetext.Strip(res.Refused))
	}
	return writePulled(opts.IO.Out, ep, res)
}

// writePulled says what was pulled, where it is kept, and whether it
// changed since the pull before.
func writePulled(w io.Writer, ep schemaEndpoint, res schemapull.Result) error {
	sn, s := res.Snapshot, res.Schema.AST
	types, queries, mutations := 0, 0, 0
	for _, t := range s.Types {
		if !t.BuiltIn {
			types++
		}
	}
	if s.Query != nil {
		queries = len(s.Query.Fields)
	}
	if s.Mutation != nil {
		mutations = len(s.Mutation.Fields)
	}
	since := "The first pull of this endpoint."
	if p := res.Previous; p != nil {
		at := p.Pulled.UTC().Format("2006-01-02 15:04:05 MST")
		since = "Unchanged since the pull of " + at + "."
		if p.Hash != sn.Hash {
			since = "Changed since the pull of " + at + ": `partnertui schema diff --env " + string(ep.env) + testingFlag(ep.testing) + "` lists what changed."
		}
	}
	q := fmt.Sprintf("%d queries", queries)
	if queries == 1 {
		q = "1 query"
	}
	_, err := fmt.Fprintf(w, "Pulled the %s schema from %s: %s, %s, %s.\nKept as %s (sha256 %s).\n%s\n",
		ep, safetext.Strip(sn.Endpoint), plural(types, "type"), q, plural(mutations, "mutation"),
		sn.Path, sn.ShortHash(), since)
	return err
}

func testingFlag(testing bool) string {
	if testing {
		return " --testing"
	}
	return ""
}
