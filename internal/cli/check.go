package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/opcheck"
	"github.com/partnertui/partnertui/internal/opfind"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// CheckOptions are `partnertui check`'s.
type CheckOptions struct {
	IO         IO
	Paths      []string
	Schemas    []string // --schema files
	Env        string   // --env: whose cached schemas, when no file is named
	Format     string   // text, json or github
	JSON       bool
	Operations bool // list every operation with its counts
	Source     schemaSource
}

// NewCmdCheck checks the GraphQL operations of a code base.
func NewCmdCheck(f *Factory) *cobra.Command {
	opts := &CheckOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "check [PATH…]",
		Short: "Check the GraphQL operations of your code against the platform's schemas and limits",
		Long: "Finds the operations and fragments in *.graphql and *.gql files and in the strings of .go,\n" +
			".ts, .tsx, .js and .py files (gql`…` and graphql(…), /* GraphQL */ strings, strings that\n" +
			"start with query, mutation, subscription or fragment), resolves fragments across files,\n" +
			"and checks each operation against the schema of the endpoint it goes to (the partner API;\n" +
			"the Testing API when it only uses the Testing API's root fields): errors, deprecated fields,\n" +
			"arguments and enum values used (with the platform's reason and the fix it suggests), and\n" +
			"the Sandbox's limits (depth, fields, top-level fields). PATH defaults to the current folder.\n\n" +
			"--schema names a schema file (SDL or an introspection answer); give one per endpoint, each\n" +
			"file's root types say which it is, and any other schema is a further endpoint. Without\n" +
			"--schema, the newest schemas pulled for --env are used (partnertui schema pull; partnertui api\n" +
			"keeps what it reads too).\n\n" +
			"Exit codes: 0 no finding, 1 findings, 2 usage error.",
		Example: "  partnertui check\n" +
			"  partnertui check src/ --schema partner-schema.graphql --schema partner-admin-schema.graphql\n" +
			"  partnertui check --format github\n  partnertui check --json | jq '.findings[]'",
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.Source == nil {
				opts.Source = newSchemaSource(f, cmd)
			}
			return runCheck(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&opts.Schemas, "schema", nil, "a schema `file` to check against, SDL or introspection JSON (repeat it: one per endpoint)")
	fl.StringVar(&opts.Env, "env", "", "`environment` whose pulled schemas to use without --schema: sandbox or live")
	fl.StringVar(&f.Session.Config, "config", "", configFlagUsage)
	fl.StringVar(&opts.Format, "format", "text", "output `format`: text, json, or github (workflow annotations)")
	fl.BoolVar(&opts.JSON, "json", false, "print one JSON object on stdout (as --format json)")
	fl.BoolVar(&opts.Operations, "operations", false, "list every operation with its endpoint and Sandbox counts")
	return cmd
}

func runCheck(ctx context.Context, opts *CheckOptions) error {
	format := opts.Format
	if opts.JSON {
		if format != "text" && format != "json" {
			return usageErrorf("--json and --format %s ask for two outputs: give one", format)
		}
		format = "json"
	}
	if !slices.Contains([]string{"text", "json", "github"}, format) {
		return usageErrorf("--format %q: use text, json or github", format)
	}
	schemas, notes, err := checkSchemas(ctx, opts)
	if err != nil {
		return err
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	docs, found, files, err := opfind.Find(paths, opfind.Options{})
	if err != nil {
		return &UsageError{Err: err, Explained: true}
	}
	r := opcheck.Check(docs, opcheck.Options{Schemas: schemas, Limits: gqlop.SandboxLimits()})
	r.Notes = slices.Concat(notes, found, r.Notes)
	out := checkOutput{Report: r, Files: files}
	for _, s := range schemas {
		out.Schemas = append(out.Schemas, checkSchema{Name: s.Name, Endpoint: s.Endpoint, Deprecations: s.Deprecations})
	}
	out.Summary.Errors, out.Summary.Deprecated, out.Summary.Limits = r.Count()
	switch format {
	case "json":
		err = writeJSON(opts.IO.Out, out)
	case "github":
		err = writeCheckGitHub(opts.IO.Out, out)
	default:
		err = writeCheckText(opts.IO.Out, opts.IO.Err, out, opts.Operations)
	}
	if err != nil {
		return err
	}
	if len(r.Findings) > 0 {
		return &exitError{code: ExitFailure}
	}
	return nil
}

// checkSchemas are the schemas named by --schema, the partner API's first,
// else the source's newest of each endpoint.
func checkSchemas(ctx context.Context, opts *CheckOptions) ([]*schemafile.Schema, []opfind.Note, error) {
	var schemas []*schemafile.Schema
	var notes []opfind.Note
	if len(opts.Schemas) > 0 {
		for _, path := range opts.Schemas {
			s, err := loadSchemaFile(path)
			if err != nil {
				return nil, nil, err
			}
			schemas = append(schemas, s)
		}
		rank := map[schemafile.Endpoint]int{schemafile.Partner: 0, schemafile.Testing: 1, schemafile.Other: 2}
		slices.SortStableFunc(schemas, func(a, b *schemafile.Schema) int { return rank[a.Endpoint] - rank[b.Endpoint] })
	} else {
		for _, testing := range []bool{false, true} {
			s, err := opts.Source.Latest(ctx, opts.Env, testing)
			if err != nil {
				return nil, nil, err
			}
			if s != nil {
				schemas = append(schemas, s)
			}
		}
		if len(schemas) == 0 {
			return nil, nil, &UsageError{Explained: true, Err: fmt.Errorf("no schema to check against: name one with --schema FILE " +
				"(SDL or an introspection answer), or pull this environment's with `partnertui schema pull` (and `partnertui schema pull --testing`)")}
		}
	}
	for _, s := range schemas {
		if !s.Deprecations {
			notes = append(notes, opfind.Note{File: s.Name, Message: "this schema does not say what is deprecated, so deprecated uses are not reported: give a schema that does with --schema"})
		}
	}
	return schemas, notes, nil
}

// checkOutput is what check prints; --json writes it as it is.
type checkOutput struct {
	*opcheck.Report
	Files   int           `json:"files"`
	Schemas []checkSchema `json:"schemas"`
	Summary struct {
		Errors     int `json:"errors"`
		Deprecated int `json:"deprecated"`
		Limits     int `json:"limits"`
	} `json:"summary"`
}

type checkSchema struct {
	Name         string              `json:"name"`
	Endpoint     schemafile.Endpoint `json:"endpoint"`
	Deprecations bool                `json:"deprecations"`
}

// writeCheckText prints the findings grouped by file, each with the fix
// its deprecation reason suggests; the notes and the summary go to
// stderr, so stdout holds findings only.
func writeCheckText(w, errw io.Writer, out checkOutput, operations bool) error {
	var b strings.Builder
	file := ""
	for _, f := range out.Findings {
		if f.File != file {
			if file != "" {
				b.WriteString("\n")
			}
			file = f.File
			b.WriteString(safetext.Strip(file) + "\n")
		}
		pos := fmt.Sprintf("%d:%d", f.Line, f.Column)
		fmt.Fprintf(&b, "  %-8s %-11s %s\n", pos, f.Kind, safetext.Strip(f.Message))
		if f.Fix != "" {
			fmt.Fprintf(&b, "  %-8s %-11s fix: %s\n", "", "", safetext.Strip(f.Fix))
		}
	}
	if operations {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		for _, o := range out.Operations {
			name := o.Name
			if name == "" {
				name = "(anonymous)"
			}
			fmt.Fprintf(&b, "%s:%d:%d %s %s → %s: depth %d/%d, fields %d/%d, top-level %d/%d\n", safetext.Strip(o.File), o.Line, o.Column,
				o.Type, name, o.Endpoint, o.Depth, gqlop.SandboxLimits().MaxDepth, o.Fields, gqlop.SandboxLimits().MaxFields, o.TopLevel, gqlop.SandboxLimits().MaxTopLevel)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	b.Reset()
	for _, n := range out.Notes {
		b.WriteString("note: " + safetext.Strip(n.String()) + "\n")
	}
	b.WriteString(checkSummary(out) + "\n")
	_, err := io.WriteString(errw, b.String())
	return err
}

func checkSummary(out checkOutput) string {
	files := map[string]bool{}
	for _, f := range out.Findings {
		files[f.File] = true
	}
	var against []string
	for _, s := range out.Schemas {
		against = append(against, fmt.Sprintf("the %s (%s)", s.Endpoint.Title(), safetext.Strip(s.Name)))
	}
	checked := fmt.Sprintf("%s and %s in %s checked against %s", plural(len(out.Operations), "operation"), plural(out.Fragments, "fragment"),
		plural(out.Files, "file"), strings.Join(against, " and "))
	if len(out.Findings) == 0 {
		return "No problem found: " + checked + "."
	}
	return fmt.Sprintf("%s, %s, %s in %s; %s.", plural(out.Summary.Errors, "error"), plural(out.Summary.Deprecated, "deprecated use"),
		plural(out.Summary.Limits, "limit broken"), plural(len(files), "file"), checked)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if rest, ok := strings.CutSuffix(noun, " broken"); ok {
		return fmt.Sprintf("%d %ss broken", n, rest)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeCheckGitHub prints one workflow command per finding, so GitHub
// Actions marks each on its line of the pull request: errors and limits
// as errors, deprecated uses as warnings, notes as notices.
func writeCheckGitHub(w io.Writer, out checkOutput) error {
	var b strings.Builder
	for _, f := range out.Findings {
		level := "error"
		if f.Kind == opcheck.Deprecated {
			level = "warning"
		}
		msg := f.Message
		if f.Fix != "" {
			msg += " (fix: " + f.Fix + ")"
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level, ghProperty(f.File), f.Line, f.Column,
			ghProperty("partnertui check: "+string(f.Kind)), ghData(msg))
	}
	for _, n := range out.Notes {
		props := "file=" + ghProperty(n.File)
		if n.Line > 0 {
			props += fmt.Sprintf(",line=%d", n.Line)
		}
		fmt.Fprintf(&b, "::notice %s::%s\n", props, ghData(n.Message))
	}
	b.WriteString(safetext.Strip(checkSummary(out)) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ghData escapes a workflow command's message as the runner reads it.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(safetext.Strip(s))
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(safetext.Strip(s))
}
