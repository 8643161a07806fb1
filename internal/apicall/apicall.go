// Package apicall is what `partnertui api` does: an operation written by
// hand and its variables read (the text, @file or standard input; -F, -f,
// --input), checked before anything is sent (internal/gqlop: its syntax,
// the Sandbox limits, the endpoint's schema kept by internal/schemacache),
// sent through the environment's API client (every page of the connection
// --paginate follows) and its answers printed (indented or compact,
// slurped, through jq). The command line maps its flags to Options; a
// mistake in them is a *usage.Error.
package apicall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/schemacache"
	"github.com/partnertui/partnertui/internal/shellcmd"
	"github.com/partnertui/partnertui/internal/usage"
)

// Options are the call's, as the command line gives them.
type Options struct {
	Operation     string   // the text, @file or - (standard input)
	OperationName string   // the operation to send when the document has several
	Typed         []string // typed variables, name=value (-F)
	Raw           []string // string variables, name=value (-f)
	Input         string   // a JSON file of variables (--input)
	Testing       bool     // send it to the Sandbox Testing API
	Paginate      bool     // follow the connection whose after argument is $after or $endCursor
	Slurp         bool     // with Paginate: every page in one JSON array
	JQ            string   // a jq filter of each answer, or of the slurped array
	RefreshSchema bool     // read the endpoint's schema again instead of the cached one
	DryRun        bool     // print the request as a curl command instead of sending it
}

// Env is the environment the call goes to.
type Env struct {
	Name     config.EnvName
	ReadOnly bool // Live: a mutation is refused
	API      *api.Client
	// SignIn makes sure there is a session to send with; nil when there
	// is nothing to do. It is not called for a dry run.
	SignIn func(ctx context.Context) error
	// Schemas keeps the schemas read by introspection; nil keeps none
	// (--demo: the emulator's port changes every run).
	Schemas *schemacache.Store
}

// Output is where the answers go: data on Out, the answers' errors and
// notes on Err; Indent for a terminal, compact for a pipe.
type Output struct {
	Out    io.Writer
	Err    io.Writer
	Indent bool
}

// ErrAnswerErrors reports that an answer carried "errors": they are
// printed on Output.Err, one line each, and its data (if any) on Out.
var ErrAnswerErrors = errors.New("the answer carried errors")

// Call is an operation read and parsed, ready to be checked against an
// environment and sent.
type Call struct {
	opts Options
	text string
	vars map[string]any
	jq   *gojq.Code
	op   *gqlop.Operation
	conn *gqlop.Connection // the connection --paginate follows
}

// Prepare reads the operation (from stdin for -) and its variables,
// compiles --jq and parses the operation: what needs no environment.
func Prepare(opts Options, stdin io.Reader) (*Call, error) {
	if opts.Slurp && !opts.Paginate {
		return nil, usage.Errorf("--slurp gathers the pages of --paginate: add --paginate")
	}
	c := &Call{opts: opts}
	var err error
	if c.text, err = readOperation(opts.Operation, stdin); err != nil {
		return nil, err
	}
	if c.vars, err = readVariables(opts.Input, opts.Typed, opts.Raw); err != nil {
		return nil, err
	}
	if opts.JQ != "" {
		if c.jq, err = compileJQ(opts.JQ); err != nil {
			return nil, err
		}
	}
	if c.op, err = gqlop.Parse(c.text, opts.OperationName); err != nil {
		return nil, operationError(err, endpointSchema{})
	}
	if opts.Paginate {
		if c.conn, err = c.op.Connection(); err != nil {
			return nil, operationError(err, endpointSchema{})
		}
	}
	return c, nil
}

// Send checks the call against e (read-only, the Sandbox limits, the
// endpoint's schema) and sends it, or with DryRun prints it as a curl
// command; nothing is sent when a check fails. An answer with errors is
// ErrAnswerErrors, once every page asked for is printed.
func (c *Call) Send(ctx context.Context, e Env, o Output) error {
	if c.op.Mutation() && e.ReadOnly {
		return &api.ReadOnlyError{Env: string(e.Name)}
	}
	if e.Name == config.Sandbox {
		if err := c.op.CheckLimits(gqlop.SandboxLimits()); err != nil {
			return operationError(err, endpointSchema{})
		}
	}
	if !c.opts.DryRun && e.SignIn != nil {
		if err := e.SignIn(ctx); err != nil {
			return err
		}
	}
	es, err := schemaFor(ctx, e, c.opts.Testing, c.opts.RefreshSchema, c.opts.DryRun)
	if err != nil {
		return err
	}
	if err := checkAgainstSchema(c.op, es, c.vars); err != nil {
		return err
	}
	if es.note != "" {
		fmt.Fprintln(o.Err, "note:", safetext.Strip(es.note))
	}
	req := api.Request{Query: c.text, OperationName: c.opts.OperationName, Variables: c.vars, Testing: c.opts.Testing}
	if len(c.vars) == 0 {
		req.Variables = nil
	}
	if c.opts.DryRun {
		return printCurl(o, e.API, req)
	}
	out := &output{ctx: ctx, out: o.Out, errw: o.Err, indent: o.Indent, jq: c.jq, slurp: c.opts.Slurp}
	if err := sendPages(ctx, e.API, req, c.conn, out); err != nil {
		return err
	}
	if err := out.finish(); err != nil {
		return err
	}
	if out.failed {
		return ErrAnswerErrors
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
	return &usage.Error{Err: err, Explained: true}
}

// printCurl writes the request as a curl command that reads the token from
// $PARTNERTUI_TOKEN: never the token itself, nor a secret the operation
// carries (the request log's rule, api.Request.Redacted); when one was
// replaced, a note on stderr says to put it back before running it.
func printCurl(o Output, c *api.Client, req api.Request) error {
	url, err := c.Endpoint(req.Testing)
	if err != nil {
		return err
	}
	body, err := req.Redacted().Body()
	if err != nil {
		return err
	}
	if bytes.Contains(body, []byte(api.Redacted)) {
		fmt.Fprintf(o.Err, "note: the operation carries a secret, printed as %s: put it back in the command before you run it\n", api.Redacted)
	}
	_, err = fmt.Fprintln(o.Out, shellcmd.Curl(url, body))
	return err
}

// sendPages sends the request, then, with --paginate, the next page after
// each answer whose connection has one, until the last page or an answer
// with errors.
func sendPages(ctx context.Context, c *api.Client, req api.Request, conn *gqlop.Connection, out *output) error {
	for {
		resp, err := c.Do(ctx, req)
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
