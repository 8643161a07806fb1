package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/remedy"
)

// Doer sends an operation built at run time through the API client's
// whole stack (budget, waits, environment guard, request log), and
// returns its answer with every string made safe for a terminal:
// *api.Client.
type Doer interface {
	Do(ctx context.Context, r api.Request) (*api.Response, error)
}

// FieldError is one error of an answer, where the answer put it.
type FieldError struct {
	// Path is the answer's path of the field in error: names and list
	// positions, as the answer gives it ("account", "holder").
	Path []any
	// Message is sanitised (the answer's strings are).
	Message string
}

func pathKey(p []any) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ".")
}

// NotServedError reports that the endpoint does not serve a root query,
// or a field on the way to what a view shows, which the schema the app
// knows has.
type NotServedError struct {
	Type, Field string
}

func (e *NotServedError) Error() string {
	what := e.Type + "." + e.Field
	if e.Type == "Query" {
		what = e.Field
	}
	return "the endpoint does not serve " + what + ", which the schema the app knows has: it models only part of the platform, or it is older than the schema"
}

// Remedy is none: there is nothing to retry.
func (e *NotServedError) Remedy() remedy.Remedy { return remedy.Remedy{Kind: remedy.None} }

// AnswerError is an answer with errors and no value where the view
// reads: the endpoint's own words.
type AnswerError struct{ Errors []FieldError }

func (e *AnswerError) Error() string {
	msgs := make([]string, 0, len(e.Errors))
	for _, x := range e.Errors {
		msgs = append(msgs, x.Message)
	}
	return "the endpoint answered: " + strings.Join(msgs, "; ")
}

// Remedy is none: the endpoint's words say what is wrong.
func (e *AnswerError) Remedy() remedy.Remedy { return remedy.Remedy{Kind: remedy.None} }

// ArgError reports an argument given for a root query that does not fit
// the type the schema declares for it.
type ArgError struct{ Err error }

func (e *ArgError) Error() string {
	return strings.TrimPrefix(e.Err.Error(), "a variable does not fit the operation (nothing was sent): ")
}
func (e *ArgError) Unwrap() error { return e.Err }

// Remedy is none: the message names the argument and what it must be.
func (e *ArgError) Remedy() remedy.Remedy { return remedy.Remedy{Kind: remedy.None} }

// BuildError reports an operation this package built that the schema or
// the limits refuse, before it is sent: a fault of the package.
type BuildError struct{ Err error }

func (e *BuildError) Error() string {
	return "the view built an operation it must not send: " + e.Err.Error()
}
func (e *BuildError) Unwrap() error { return e.Err }

// Remedy is none: nothing the user can do but report it.
func (e *BuildError) Remedy() remedy.Remedy { return remedy.Remedy{Kind: remedy.None} }

// answer is an answer's data and errors.
type answer struct {
	data map[string]any
	errs []FieldError
}

// retries bounds the requests sent again without what the endpoint
// turned out not to serve.
const retries = 3

// send checks the operation build makes (syntax, schema, variables, the
// Sandbox limits), sends it, and, when the endpoint refuses fields or
// types the schema has, learns them and sends the operation build makes
// then, a few times at most.
func (c *Catalog) send(ctx context.Context, d Doer, build func() (op, error)) (answer, error) {
	for attempt := 0; ; attempt++ {
		o, err := build()
		if err != nil {
			return answer{}, err
		}
		if err := c.check(o); err != nil {
			return answer{}, err
		}
		resp, err := d.Do(ctx, api.Request{Query: o.text, OperationName: o.name, Variables: o.vars})
		if err != nil {
			var ge *api.GraphQLError
			if errors.As(err, &ge) && attempt < retries && c.learnFrom(detailMessages(ge.Errors)) {
				continue
			}
			return answer{}, err
		}
		a, err := decode(resp.Body)
		if err != nil {
			return answer{}, err
		}
		if a.data == nil && len(a.errs) > 0 && attempt < retries && c.learnFrom(errMessages(a.errs)) {
			continue
		}
		return a, nil
	}
}

// check refuses an operation before it is sent: the schema, the
// variables' values, the Sandbox limits.
func (c *Catalog) check(o op) error {
	parsed, err := gqlop.Parse(o.text, o.name)
	if err != nil {
		return &BuildError{err}
	}
	if err := parsed.Validate(c.s); err != nil {
		return &BuildError{err}
	}
	if err := parsed.ValidateVariables(c.s, o.vars); err != nil {
		return &ArgError{err}
	}
	if err := parsed.CheckLimits(gqlop.SandboxLimits()); err != nil {
		return &BuildError{err}
	}
	return nil
}

func detailMessages(ds []api.GraphQLErrorDetail) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Message
	}
	return out
}

func errMessages(es []FieldError) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Message
	}
	return out
}

// What an endpoint says of a field or a type it lacks, as graphql-js and
// gqlparser word it.
var (
	unknownField    = regexp.MustCompile(`Cannot query field "(\w+)" on type "(\w+)"`)
	unknownType     = regexp.MustCompile(`Unknown type "(\w+)"`)
	neverOfType     = regexp.MustCompile(`can never be of type "(\w+)"`)
	unknownArgument = regexp.MustCompile(`Unknown argument "(\w+)" on field "(\w+)\.(\w+)"`)
)

// learnFrom records what the messages say the endpoint lacks; it reports
// whether any of it is news (the operation can be built again without
// it).
func (c *Catalog) learnFrom(msgs []string) bool {
	news := false
	for _, m := range msgs {
		for _, g := range unknownField.FindAllStringSubmatch(m, -1) {
			news = c.learn(g[2]+"."+g[1]) || news
		}
		for _, g := range unknownType.FindAllStringSubmatch(m, -1) {
			news = c.learn(g[1]) || news
		}
		for _, g := range neverOfType.FindAllStringSubmatch(m, -1) {
			news = c.learn(g[1]) || news
		}
		for _, g := range unknownArgument.FindAllStringSubmatch(m, -1) {
			// The field is asked for with an argument the endpoint
			// does not take: it is not the field the schema has.
			news = c.learn(g[2]+"."+g[3]) || news
		}
	}
	return news
}

// decode reads a GraphQL answer, numbers kept as they are written.
func decode(body []byte) (answer, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw struct {
		Data   map[string]any `json:"data"`
		Errors []struct {
			Message string `json:"message"`
			Path    []any  `json:"path"`
		} `json:"errors"`
	}
	if err := dec.Decode(&raw); err != nil {
		return answer{}, fmt.Errorf("the answer is not a GraphQL response: %w", err)
	}
	a := answer{data: raw.Data}
	for _, e := range raw.Errors {
		path := make([]any, len(e.Path))
		for i, p := range e.Path {
			if n, ok := p.(json.Number); ok {
				if at, err := strconv.Atoi(n.String()); err == nil {
					path[i] = at
					continue
				}
			}
			path[i] = p
		}
		a.errs = append(a.errs, FieldError{Path: path, Message: e.Message})
	}
	return a, nil
}

// follow is the value at the end of l in data, and the answer's path to
// it; ok is false when a value on the way is null or missing.
func follow(data map[string]any, l Locator) (v any, path []any, ok bool) {
	v = data
	for _, st := range l.Path {
		obj, isObj := v.(map[string]any)
		if !isObj {
			return nil, path, false
		}
		v, path = obj[st.Field], append(path, st.Field)
		if st.Edge {
			conn, _ := v.(map[string]any)
			edges, _ := conn["edges"].([]any)
			if len(edges) == 0 {
				return nil, path, false
			}
			edge, _ := edges[0].(map[string]any)
			v, path = edge["node"], append(path, "edges", 0, "node")
		}
		if st.Index >= 0 {
			items, _ := v.([]any)
			if st.Index >= len(items) {
				return nil, path, false
			}
			v, path = items[st.Index], append(path, st.Index)
		}
		if v == nil {
			return nil, path, false
		}
	}
	return v, path, true
}
