package api

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Every operation this package sends is declared once, as a package
// variable: its name, its shape (the Go type its answer decodes into,
// whose field tags are its selection and from which its text is built),
// the variables it declares and the endpoint it goes to. The call site
// sends the declaration; Operations lists the declarations; the tests
// that answer every operation (the hostile server, the emulator run) read
// their shapes from them. A simulation of the Testing API is declared the
// same way, with its input and result (simulation.go), and reaches the
// Testing API through a service of its own (Testing).

// service is where an operation is sent: the platform keeps the partner
// API and the Sandbox Testing API on endpoints of their own.
type service int

const (
	partnerAPI service = iota // the environment's GraphQL endpoint
	testingAPI                // the Sandbox Testing API (partner-admin schema)
)

// op is one operation of shape T, declared once.
type op[T any] struct {
	name     string
	mutation bool // sent once, never retried; refused on a read-only client
	at       service
}

// declaration is an operation without its Go type: what the operation
// list and the tests read.
type declaration struct {
	name     string
	mutation bool
	at       service
	shape    func() any // a new value of the operation's shape
	// example is a set of variables of the types the operation declares
	// (their values do not matter: the text depends on their types).
	example func() map[string]any
	sim     *Spec // a simulation's, nil for any other operation
}

// registry is every operation declared in this package, in the order of
// their declarations. It is filled while the package's variables are
// initialised (each declare adds its own) and never changes afterwards.
var registry []declaration

// declare records an operation of shape T and returns its declaration.
func declare[T any](o op[T], example func() map[string]any) *op[T] {
	if slices.ContainsFunc(registry, func(d declaration) bool { return d.name == o.name }) {
		panic("api: operation " + o.name + " declared twice")
	}
	if example == nil {
		example = func() map[string]any { return nil }
	}
	registry = append(registry, declaration{name: o.name, mutation: o.mutation, at: o.at,
		shape: func() any { return new(T) }, example: example})
	return &o
}

// declareBuilt declares a query of the partner API whose shape is built
// when it is sent, from what the caller asks for (the account view's,
// accountview.go): shape is its largest, as Operations lists it.
func declareBuilt(name string, shape func() any, example func() map[string]any) {
	if slices.ContainsFunc(registry, func(d declaration) bool { return d.name == name }) {
		panic("api: operation " + name + " declared twice")
	}
	registry = append(registry, declaration{name: name, shape: shape, example: example})
}

// declareQuery declares a query of the partner API.
func declareQuery[T any](name string, example func() map[string]any) *op[T] {
	return declare(op[T]{name: name}, example)
}

// declareMutation declares a mutation of the partner API.
func declareMutation[T any](name string, example func() map[string]any) *op[T] {
	return declare(op[T]{name: name, mutation: true}, example)
}

// input is the variables of an operation whose one variable is $input.
func input(in any) func() map[string]any {
	return func() map[string]any { return map[string]any{"input": in} }
}

// url is where o is sent by c; "" when c has no such endpoint (the Testing
// API on Live).
func (o *op[T]) url(c *Client) string {
	if o.at == testingAPI {
		return c.testingURL
	}
	return c.gqlURL
}

// query runs the query and returns the decoded result: with a nil error,
// or with a *GraphQLError when the server sent partial data alongside
// errors. Any other failure returns a nil result.
func (o *op[T]) query(ctx context.Context, c *Client, vars map[string]any) (*T, error) {
	var q *T
	err := c.run(ctx, false, func(ctx context.Context) error {
		q = new(T)
		return c.exchange(ctx, o.url(c), false, q, vars, o.name)
	})
	if err != nil && !isPartial(err) {
		return nil, err
	}
	return q, err
}

// mutate sends the mutation once (never retried on 429; refused on a
// read-only client), and keeps secret out of whatever error comes back.
func (o *op[T]) mutate(ctx context.Context, c *Client, vars map[string]any, secret Secret) (*T, error) {
	var m *T
	err := c.run(ctx, true, func(ctx context.Context) error {
		m = new(T)
		return c.exchange(ctx, o.url(c), true, m, vars, o.name)
	})
	if err != nil {
		return nil, redactErr(err, secret)
	}
	return m, nil
}

// isPartial reports whether err may come with data worth keeping.
func isPartial(err error) bool {
	_, ok := err.(*GraphQLError)
	return ok
}

// Operation is one GraphQL document this package sends.
type Operation struct {
	Name  string
	Query string // exactly the text sent
	Admin bool   // sent to the Testing API (partner-admin schema)
}

// Operations lists every operation the client sends, built from the same
// declarations that send them; tests check them against the Sandbox
// limits and the schema.
func Operations() ([]Operation, error) {
	ops := make([]Operation, 0, len(registry))
	for _, d := range registry {
		q, err := constructOperation(d.mutation, d.shape(), d.example(), d.name)
		if err != nil {
			return nil, fmt.Errorf("building operation %s: %w", d.name, err)
		}
		ops = append(ops, Operation{Name: d.name, Query: q, Admin: d.at == testingAPI})
	}
	split, err := splitOperations()
	if err != nil {
		return nil, fmt.Errorf("building the split walks' operations: %w", err)
	}
	return append(ops, split...), nil
}

// fieldOf is the schema field a shape selects at its top: its one field's
// tag up to the arguments ("simulateOutgoingCardDebit" of
// `graphql:"simulateOutgoingCardDebit(input: $input)"`).
func fieldOf(t reflect.Type) string {
	if t.Kind() != reflect.Struct || t.NumField() != 1 {
		panic(fmt.Sprintf("api: %s is not the shape of a mutation of one field", t))
	}
	tag := t.Field(0).Tag.Get("graphql")
	name, _, _ := strings.Cut(tag, "(")
	if name == "" {
		panic(fmt.Sprintf("api: %s's field has no graphql tag", t))
	}
	return strings.TrimSpace(name)
}
