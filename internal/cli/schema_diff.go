package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/schemadiff"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// SchemaDiffOptions are `partnertui schema diff`'s.
type SchemaDiffOptions struct {
	IO      IO
	Old     string // files; both empty: the source's two newest snapshots
	New     string
	Env     string
	Testing bool
	JSON    bool
	Source  schemaSource
}

// NewCmdSchemaDiff lists what changed between two versions of a schema.
func NewCmdSchemaDiff(f *Factory) *cobra.Command {
	opts := &SchemaDiffOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "diff [OLD NEW]",
		Short: "List every change between two schemas, classified breaking, dangerous or safe",
		Long: "Compares two versions of a schema (each a file: SDL or an introspection answer; without\n" +
			"files, the last two pulls of --env's endpoint, --testing for the Testing API's) and lists\n" +
			"every change with the rule that classifies it: breaking (a field, argument, enum value or\n" +
			"union member removed, an argument or input field made required, a type's kind or a\n" +
			"field's type changed), dangerous (an enum value or union member added, a default changed,\n" +
			"something deprecated) or safe (additions, descriptions). Between two Testing API schemas,\n" +
			"a simulation renamed is reported as a rename.\n\n" +
			"Exit codes: 0 no breaking change, 1 a breaking change, 2 usage error.",
		Example: "  partnertui schema pull && partnertui schema diff   # what changed since the last pull\n" +
			"  partnertui schema diff old/partner-schema.graphql partner-schema.graphql\n" +
			"  partnertui schema diff before.json after.json --json | jq '.changes[] | select(.level == \"breaking\")'",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 0 && len(args) != 2 {
				return fmt.Errorf("schema diff takes two schema files, OLD and NEW, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 2 {
				opts.Old, opts.New = args[0], args[1]
			}
			if opts.Source == nil {
				opts.Source = newSchemaSource(f, cmd)
			}
			return runSchemaDiff(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.JSON, "json", false, "print one JSON object on stdout")
	fl.StringVar(&opts.Env, "env", "", "`environment` whose snapshots to compare without files: sandbox or live")
	fl.BoolVar(&opts.Testing, "testing", false, "compare the Testing API's snapshots instead of the partner API's (without files)")
	fl.StringVar(&f.Session.Config, "config", "", configFlagUsage)
	return cmd
}

// schemaDiffOutput is what schema diff prints; --json writes it as it is.
type schemaDiffOutput struct {
	Old      string              `json:"old"`
	New      string              `json:"new"`
	Endpoint schemafile.Endpoint `json:"endpoint"`
	Summary  struct {
		Breaking  int `json:"breaking"`
		Dangerous int `json:"dangerous"`
		Safe      int `json:"safe"`
	} `json:"summary"`
	Changes []schemadiff.Change `json:"changes"`
}

func runSchemaDiff(ctx context.Context, opts *SchemaDiffOptions) error {
	var older, newer *schemafile.Schema
	var err error
	if opts.Old != "" {
		if older, err = loadSchemaFile(opts.Old); err != nil {
			return err
		}
		if newer, err = loadSchemaFile(opts.New); err != nil {
			return err
		}
	} else {
		older, newer, err = opts.Source.LastTwo(ctx, opts.Env, opts.Testing)
		if errors.Is(err, errNoSnapshots) {
			return &UsageError{Explained: true, Err: fmt.Errorf("%w: run `partnertui schema pull` (then again later, to compare), "+
				"or name the two schema files to compare, OLD and NEW (SDL or introspection JSON)", err)}
		}
		if err != nil {
			return err
		}
		if older == nil {
			// A first pull: nothing has changed yet, which a scheduled
			// job must not mistake for a failure.
			if _, err := fmt.Fprintf(opts.IO.Err, "Only one pull is kept (%s): nothing to compare it with yet; the next `partnertui schema pull` will be.\n",
				safetext.Strip(newer.Name)); err != nil || !opts.JSON {
				return err
			}
			return writeJSON(opts.IO.Out, schemaDiffOutput{New: newer.Name, Endpoint: newer.Endpoint, Changes: []schemadiff.Change{}})
		}
	}
	out := schemaDiffOutput{Old: older.Name, New: newer.Name, Endpoint: newer.Endpoint, Changes: schemadiff.Diff(older, newer)}
	out.Summary.Breaking, out.Summary.Dangerous, out.Summary.Safe = schemadiff.Count(out.Changes)
	if out.Changes == nil {
		out.Changes = []schemadiff.Change{}
	}
	if opts.JSON {
		err = writeJSON(opts.IO.Out, out)
	} else {
		err = writeSchemaDiffText(opts.IO.Out, out)
	}
	if err != nil {
		return err
	}
	if out.Summary.Breaking > 0 {
		return &exitError{code: ExitFailure}
	}
	return nil
}

// writeSchemaDiffText lists the changes by level, most harmful first, each
// rule's reason said once at the end; description changes are counted,
// not listed (--json lists them).
func writeSchemaDiffText(w io.Writer, out schemaDiffOutput) error {
	var b strings.Builder
	descriptions := 0
	level := schemadiff.Level(-1)
	var rules []schemadiff.Rule
	width := 0
	for _, c := range out.Changes {
		width = max(width, len(c.Path))
	}
	width = min(width, 60)
	for _, c := range out.Changes {
		if c.Rule == schemadiff.DescriptionChanged {
			descriptions++
			continue
		}
		if c.Level != level {
			level = c.Level
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(strings.ToUpper(c.Level.String()) + "\n")
		}
		fmt.Fprintf(&b, "  %-*s  %s  [%s]\n", width, safetext.Strip(c.Path), safetext.Strip(c.Message), c.Rule)
		if c.Level > schemadiff.Safe && !slices.Contains(rules, c.Rule) {
			rules = append(rules, c.Rule)
		}
	}
	if len(rules) > 0 {
		b.WriteString("\nWhy:\n")
		for _, r := range rules {
			fmt.Fprintf(&b, "  %s: %s\n", r, schemadiff.Info(r).Why)
		}
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s → %s: %d breaking, %d dangerous, %d safe", safetext.Strip(out.Old), safetext.Strip(out.New),
		out.Summary.Breaking, out.Summary.Dangerous, out.Summary.Safe)
	if descriptions > 0 {
		fmt.Fprintf(&b, " (of which %s not listed: --json lists them)", plural(descriptions, "description change"))
	}
	b.WriteString(".\n")
	_, err := io.WriteString(w, b.String())
	return err
}
