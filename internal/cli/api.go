package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/apicall"
	"github.com/partnertui/partnertui/internal/schemacache"
)

const apiLong = `Sends a GraphQL operation to the environment's partner API (or, with --testing, to the Sandbox
Testing API) with your session's token, and prints the answer's JSON: indented on a terminal, compact
when piped. An answer with "errors" prints them on stderr and exits 1 (its data, if any, still goes to
stdout).

The operation is checked before it is sent, and nothing is sent when it fails (exit 2, with the field
or limit at fault and its line and column): against the endpoint's newest schema pulled (partnertui
schema pull; else read by introspection once and kept the same way; --refresh-schema reads it again)
and, on Sandbox, against the documented operation limits (1,000 fields, depth 15, 5 top-level fields,
fragments expanded). A mutation on Live is refused: Live is read-only.

Variables: -F name=value is typed (numbers, true, false, null, JSON objects and lists, @file.json for
an input object), -f name=value is a string, --input vars.json gives them all at once.

--paginate follows the connection whose after argument is $after (or $endCursor), wherever it is
nested, until its pageInfo says hasNextPage false; every page counts against the request budget and
waits for it like any request. --slurp prints every page in one JSON array; --jq filters each page, or
the slurped array, with jq (gojq).`

const apiExample = `  partnertui api 'query { user { id firstName } }'
  partnertui api --paginate --jq '.data.accounts.edges[].node.id' \
    'query($after: String) { accounts(first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { id name } } } }'
  partnertui api --paginate --slurp --jq 'map(.data.account.transactions.edges | length) | add' -F id=ACCOUNT_ID @transactions.graphql
  partnertui api --testing -F input=@transfer.json @simulate.graphql
  partnertui api --dry-run @query.graphql     # a curl command reading $PARTNERTUI_TOKEN`

// NewCmdAPI sends a GraphQL operation written by hand.
func NewCmdAPI(f *Factory) *cobra.Command {
	var opts apicall.Options
	cmd := &cobra.Command{
		Use:     "api OPERATION",
		Short:   "Send a GraphQL operation (text, @file or - for stdin) and print the answer",
		Long:    apiLong,
		Example: apiExample,
		Args:    exactlyOne("api", "operation (its text, @file.graphql, or - for standard input)", "api --help"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Operation = args[0]
			return runAPI(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&opts.Typed, "field", "F", nil, "typed variable `name=value`: number, true, false, null, JSON, or @file.json")
	fl.StringArrayVarP(&opts.Raw, "raw-field", "f", nil, "string variable `name=value`")
	fl.StringVar(&opts.Input, "input", "", "read the variables from the JSON object in `file`")
	fl.StringVar(&opts.OperationName, "operation-name", "", "the operation to send when the document has several (`name`)")
	fl.BoolVar(&opts.Testing, "testing", false, "send it to the Sandbox Testing API")
	fl.BoolVar(&opts.Paginate, "paginate", false, "follow the connection whose after argument is $after or $endCursor to its last page")
	fl.BoolVar(&opts.Slurp, "slurp", false, "with --paginate: print every page in one JSON array")
	fl.StringVarP(&opts.JQ, "jq", "q", "", "filter each answer (or the slurped array) with a jq `expression`")
	fl.BoolVar(&opts.RefreshSchema, "refresh-schema", false, "read the endpoint's schema again instead of the cached one")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the request as a curl command (token from $PARTNERTUI_TOKEN) instead of sending it")
	return f.withSession(cmd, true)
}

// schemaCache keeps the schemas read by introspection; nil under --demo,
// whose emulator's port changes every run.
func (f *Factory) schemaCache() *schemacache.Store {
	if f.App().Demo() {
		return nil
	}
	if store, err := f.schemaStore(); err == nil {
		return store
	}
	return nil
}

// runAPI prepares the call (what needs no environment is checked first),
// then sends it to the environment the flags select.
func runAPI(ctx context.Context, f *Factory, opts apicall.Options) error {
	call, err := apicall.Prepare(opts, f.IO.In)
	if err != nil {
		return err
	}
	e, err := f.selected()
	if err != nil {
		return err
	}
	target := apicall.Env{Name: e.Name, ReadOnly: e.ReadOnly, API: e.API,
		SignIn: func(ctx context.Context) error { return f.App().EnsureSignedIn(ctx, e) }, Schemas: f.schemaCache()}
	err = call.Send(ctx, target, apicall.Output{Out: f.IO.Out, Err: f.IO.Err, Indent: f.IO.OutIsTerminal()})
	if errors.Is(err, apicall.ErrAnswerErrors) {
		return &exitError{code: ExitFailure} // the answer's errors are printed
	}
	return err
}
