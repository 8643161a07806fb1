package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/shellcmd"
)

// APIOptions are `partnertui api`'s.
type APIOptions struct {
	IO            IO
	F             *Factory
	Operation     string   // the argument: the text, @file or -
	OperationName string   // --operation-name
	Typed         []string // -F name=value
	Raw           []string // -f name=value
	Input         string   // --input vars.json
	Testing       bool     // --testing
	Paginate      bool
	Slurp         bool
	JQ            string
	RefreshSchema bool
	DryRun        bool
}

const apiLong = `Sends a GraphQL operation to the environment's partner API (or, with --testing, to the Sandbox
Testing API) with your session's token, and prints the answer's JSON: indented on a terminal, compact
when piped. An answer with "errors" prints them on stderr and exits 1 (its data, if any, still goes to
stdout).

The operation is checked before it is sent, and nothing is sent when it fails (exit 2, with the field
or limit at fault and its line and column): against the endpoint's schema (read by introspection once,
then kept in the cache with its date; --refresh-schema reads it again) and, on Sandbox, against the
documented operation limits (1,000 fields, depth 15, 5 top-level fields, fragments expanded). A
mutation on Live is refused: Live is read-only.

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
	opts := &APIOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:     "api OPERATION",
		Short:   "Send a GraphQL operation (text, @file or - for stdin) and print the answer",
		Long:    apiLong,
		Example: apiExample,
		Args:    exactlyOne("api", "operation (its text, @file.graphql, or - for standard input)", "api --help"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Operation = args[0]
			return sendAPI(cmd.Context(), opts)
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

func sendAPI(ctx context.Context, opts *APIOptions) error {
	if opts.Slurp && !opts.Paginate {
		return usageErrorf("--slurp gathers the pages of --paginate: add --paginate")
	}
	text, err := readOperation(opts.Operation, opts.IO.In)
	if err != nil {
		return err
	}
	vars, err := readVariables(opts.Input, opts.Typed, opts.Raw)
	if err != nil {
		return err
	}
	var code *jqCode
	if opts.JQ != "" {
		if code, err = compileJQ(opts.JQ); err != nil {
			return err
		}
	}
	op, err := gqlop.Parse(text, opts.OperationName)
	if err != nil {
		return operationError(err, endpointSchema{})
	}
	var conn *gqlop.Connection
	if opts.Paginate {
		if conn, err = op.Connection(); err != nil {
			return operationError(err, endpointSchema{})
		}
	}
	e, err := opts.F.selected()
	if err != nil {
		return err
	}
	if op.Mutation() && e.ReadOnly {
		return &api.ReadOnlyError{Env: string(e.Name)}
	}
	if e.Name == config.Sandbox {
		if err := op.CheckLimits(gqlop.SandboxLimits()); err != nil {
			return operationError(err, endpointSchema{})
		}
	}
	if !opts.DryRun {
		if err := opts.F.App().EnsureSignedIn(ctx, e); err != nil {
			return err
		}
	}
	es, err := schemaFor(ctx, opts.F.App(), e, opts.Testing, opts.RefreshSchema, opts.DryRun)
	if err != nil {
		return err
	}
	if err := checkAgainstSchema(op, es, vars); err != nil {
		return err
	}
	if es.note != "" {
		fmt.Fprintln(opts.IO.Err, "note:", es.note)
	}
	req := api.Request{Query: text, OperationName: opts.OperationName, Variables: vars, Testing: opts.Testing}
	if len(vars) == 0 {
		req.Variables = nil
	}
	if opts.DryRun {
		return printCurl(opts.IO, e, req)
	}
	out := &apiOutput{ctx: ctx, out: opts.IO.Out, errw: opts.IO.Err, indent: opts.IO.OutIsTerminal(), jq: code, slurp: opts.Slurp}
	if err := sendPages(ctx, e, req, conn, out); err != nil {
		return err
	}
	if err := out.finish(); err != nil {
		return err
	}
	if out.failed {
		return &exitError{code: ExitFailure}
	}
	return nil
}

// checkAgainstSchema validates the operation and its variables against the
// endpoint's schema, when there is one.
func checkAgainstSchema(op *gqlop.Operation, es endpointSchema, vars map[string]any) error {
	if es.schema == nil {
		return nil
	}
	if err := op.Validate(es.schema); err != nil {
		return operationError(err, es)
	}
	if err := op.ValidateVariables(es.schema, vars); err != nil {
		return operationError(err, es)
	}
	return nil
}

// operationError is a refused operation, a usage error (exit 2) whose
// problems, each with its line and column, say what to fix; a cached
// schema's refusal adds the schema's date (it may be older than the
// platform's).
func operationError(err error, es endpointSchema) error {
	if !errors.Is(err, gqlop.ErrInvalid) {
		return err
	}
	if errors.Is(err, gqlop.ErrSchema) && es.cached {
		err = fmt.Errorf("%w (schema read %s; --refresh-schema reads it again)", err, es.fetched.Local().Format("2006-01-02 15:04"))
	}
	return &UsageError{Err: err, Explained: true}
}

// printCurl writes the request as a curl command that reads the token from
// $PARTNERTUI_TOKEN: never the token itself.
func printCurl(s IO, e *app.Env, req api.Request) error {
	url, err := e.API.Endpoint(req.Testing)
	if err != nil {
		return err
	}
	body, err := req.Body()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(s.Out, shellcmd.Curl(url, body))
	return err
}

// sendPages sends the request, then, with --paginate, the next page after
// each answer whose connection has one, until the last page or an answer
// with errors.
func sendPages(ctx context.Context, e *app.Env, req api.Request, conn *gqlop.Connection, out *apiOutput) error {
	for {
		resp, err := e.API.Do(ctx, req)
		if err != nil {
			return err
		}
		var decoded map[string]any
		if err := json.Unmarshal(resp.Body, &decoded); err != nil {
			return fmt.Errorf("the answer is not JSON: %w", err)
		}
		if err := out.page(resp.Body, decoded); err != nil {
			return err
		}
		if conn == nil || out.failed {
			return nil
		}
		cursor, more, err := conn.Next(decoded["data"])
		if err != nil || !more {
			return err
		}
		vars := make(map[string]any, len(req.Variables)+1)
		for k, v := range req.Variables {
			vars[k] = v
		}
		vars[conn.Variable] = cursor
		req.Variables = vars
	}
}
