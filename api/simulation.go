package api

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Testing API's simulations. Each is a mutation of the partner-admin
// schema, sent once to the Sandbox Testing API, whose payload union is a
// success or a rejection; each is declared once (a Simulation variable,
// in the file of its subject), from which its call (Run), the operation
// list, `partnertui trigger`'s table (Simulations) and the app's
// simulation menus derive. A simulation is one declaration plus what is
// truly its own: its input type, its payload's shape (the union members
// the schema names), and how a success becomes its result.
//
// A payload shape M is a struct of one field, tagged with the mutation and
// its $input (`graphql:"simulateOutgoingCardDebit(input: $input)"`), whose
// type is the payload (a struct, or a pointer to one when the schema's
// payload is nullable) with a __typename field, a field per success
// member (`graphql:"... on SimulateOutgoingCardDebitSuccessPayload"`) and
// a rejectionQL per rejection it names. Each rejection is a field of its
// own: the graphql client decodes a fragment only when its type is the
// payload's own, so an interface fragment on Rejection would never be
// read.

// Simulation is one of the Testing API's simulations, declared once: its
// input In (the variable $input) and its result Out.
type Simulation[In, Out any] struct{ spec *Spec }

// Spec is a simulation without its Go types: what the operation list,
// trigger's table and a Simulator read.
type Spec struct {
	// Name is the operation's name: the schema's mutation, capitalised
	// (SimulateOutgoingCardDebit).
	Name string
	// Field is the Testing API's mutation (simulateOutgoingCardDebit): how
	// a scenario's step names it.
	Field string
	// Input is In, the type of $input, whose fields (by their json names)
	// are a step's arguments.
	Input reflect.Type
	// Outputs name what a success gives a later step (transactionId,
	// sandboxUser.id).
	Outputs []string

	send    func(ctx context.Context, c *Client, input any) (any, error)
	outputs func(result any) map[string]string
}

// OutputsOf is what the result of a run of s gives a later step, by the
// names of Outputs.
func (s *Spec) OutputsOf(result any) map[string]string { return s.outputs(result) }

// Simulator runs the Testing API's simulations: *Testing sends them; a
// test's fake answers as it likes, with each Spec's result type.
type Simulator interface {
	Simulate(ctx context.Context, s *Spec, input any) (any, error)
}

// Spec is s without its Go types.
func (s *Simulation[In, Out]) Spec() *Spec { return s.spec }

// Name is the operation's name.
func (s *Simulation[In, Out]) Name() string { return s.spec.Name }

// Run runs the simulation with in through sim. A rejection is a
// *RejectionError naming its type; on Live, ErrNoTestingAPI, with nothing
// sent.
func (s *Simulation[In, Out]) Run(ctx context.Context, sim Simulator, in In) (Out, error) {
	var zero Out
	v, err := sim.Simulate(ctx, s.spec, in)
	if err != nil {
		return zero, err
	}
	out, ok := v.(Out)
	if !ok {
		return zero, fmt.Errorf("api: %s answered a %T, not a %T", s.spec.Name, v, zero)
	}
	return out, nil
}

// Simulations are every simulation declared, in the order of their
// declarations.
func Simulations() []*Spec {
	var out []*Spec
	for _, d := range registry {
		if d.sim != nil {
			out = append(out, d.sim)
		}
	}
	return out
}

// Testing is the Sandbox Testing API of one environment: a service of its
// own, on its own endpoint, with the partner-admin schema. It sends with
// its client's token, request budget, request log and connections. On
// Live every simulation fails with ErrNoTestingAPI, with nothing sent.
type Testing struct{ c *Client }

// Testing is c's environment's Testing API.
func (c *Client) Testing() *Testing { return &Testing{c: c} }

// Simulate sends the simulation s with input (of s.Input's type) and
// returns its result.
func (t *Testing) Simulate(ctx context.Context, s *Spec, input any) (any, error) {
	if reflect.TypeOf(input) != s.Input {
		return nil, fmt.Errorf("api: %s takes a %s, not a %T", s.Name, s.Input, input)
	}
	return s.send(ctx, t.c, input)
}

// simulation declares the Testing API simulation whose payload shape is
// M: result makes its result of a success (env names the environment in
// its errors), outputs gives a later step what the result names.
func simulation[In, Out, M any](result func(env string, m *M) (Out, error), outputs outputsOf[Out]) *Simulation[In, Out] {
	return declareSimulation[In](result, outputs, words{})
}

// words are how a simulation's errors say what it does; the zero value
// says "run" and its name.
type words struct {
	action string // "simulate a transfer": cannot … in live
	failed string // "the Testing API did not book the transfer"
}

func declareSimulation[In, Out, M any](result func(env string, m *M) (Out, error), outputs outputsOf[Out], w words) *Simulation[In, Out] {
	pay := payloadOf(reflect.TypeFor[M]())
	name := capitalised(pay.field)
	if w.action == "" {
		w = words{action: "run " + name, failed: "the Testing API did not run " + name}
	}
	var zero In
	o := declare(op[M]{name: name, mutation: true, at: testingAPI}, input(zero))
	spec := &Spec{Name: name, Field: pay.field, Input: reflect.TypeFor[In](), Outputs: outputs.names}
	spec.send = func(ctx context.Context, c *Client, in any) (any, error) {
		if c.testingURL == "" {
			return nil, fmt.Errorf("cannot %s in %s: %w", w.action, c.env, ErrNoTestingAPI)
		}
		m, err := o.mutate(ctx, c, map[string]any{"input": in}, "")
		if err != nil {
			return nil, err
		}
		typename, msg := pay.read(m)
		if !slices.Contains(pay.successes, typename) {
			if msg == "" {
				msg = w.failed
			}
			return nil, &RejectionError{Env: c.env, Type: typename, Message: msg}
		}
		return result(c.env, m)
	}
	spec.outputs = func(r any) map[string]string {
		out, _ := r.(Out)
		return outputs.of(out)
	}
	registry[len(registry)-1].sim = spec
	return &Simulation[In, Out]{spec: spec}
}

// outputsOf names what a simulation's result gives a later step.
type outputsOf[Out any] struct {
	names []string
	of    func(Out) map[string]string
}

// named are the outputs names, whose values values gives, in order.
func named[Out any](values func(Out) []string, names ...string) outputsOf[Out] {
	return outputsOf[Out]{names: names, of: func(r Out) map[string]string {
		m := make(map[string]string, len(names))
		for i, v := range values(r) {
			m[names[i]] = v
		}
		return m
	}}
}

// txSimulation declares a simulation whose success names the transaction
// it made or changed (its success member is a txIDQL): its result is that
// transaction's id.
func txSimulation[In, M any]() *Simulation[In, string] {
	return simulation[In](func(_ string, m *M) (string, error) { return txIDIn(m), nil }, txOutputs)
}

// txOutputs are a transaction simulation's: the transaction's id.
var txOutputs = named(func(id string) []string { return []string{id} }, "transactionId")

// txIDQL is the success payload of a simulation that makes or changes a
// transaction.
type txIDQL struct {
	TransactionID string `graphql:"transactionId"`
}

// payload is where a payload shape keeps its facts, found once in the
// shape's type.
type payload struct {
	field     string   // the mutation
	typename  []int    // the __typename field, from the shape's top
	successes []string // the union members that are a success
	// rejections are the rejectionQL fields, from the shape's top.
	rejections [][]int
}

var rejectionType = reflect.TypeFor[rejectionQL]()

// payloadOf reads the shape t (see the top of this file); it panics on a
// shape that does not follow it, which every test then reports.
func payloadOf(t reflect.Type) payload {
	p := payload{field: fieldOf(t)}
	pt := t.Field(0).Type
	if pt.Kind() == reflect.Pointer {
		pt = pt.Elem()
	}
	for i := range pt.NumField() {
		f := pt.Field(i)
		tag := f.Tag.Get("graphql")
		member, isFragment := strings.CutPrefix(tag, "... on ")
		switch {
		case tag == "__typename":
			p.typename = []int{0, i}
		case f.Type == rejectionType:
			p.rejections = append(p.rejections, []int{0, i})
		case isFragment:
			p.successes = append(p.successes, strings.TrimSpace(member))
		}
	}
	if p.typename == nil || len(p.successes) == 0 {
		panic(fmt.Sprintf("api: %s is no simulation payload: it needs a __typename and a success member", t))
	}
	return p
}

// read is the payload's type and, for a rejection, its message. A null
// payload (the schema allows one) is the type "null".
func (p payload) read(m any) (typename, message string) {
	v := reflect.ValueOf(m).Elem()
	if f := v.Field(0); f.Kind() == reflect.Pointer && f.IsNil() {
		return "null", "the Testing API returned no payload"
	}
	for _, idx := range p.rejections {
		if msg := v.FieldByIndex(idx).Interface().(rejectionQL).Message; msg != "" {
			message = msg
			break
		}
	}
	return v.FieldByIndex(p.typename).String(), message
}

// txIDIn is the transaction id of the success member of m of type txIDQL.
func txIDIn(m any) string {
	v := reflect.ValueOf(m).Elem().Field(0)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	for i := range v.NumField() {
		if tx, ok := v.Field(i).Interface().(txIDQL); ok {
			return tx.TransactionID
		}
	}
	panic(fmt.Sprintf("api: %T has no txIDQL success member", m))
}

// capitalised is s with its first letter upper case: an operation's name
// of its mutation's.
func capitalised(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// message is the one rejection message of a payload: at most one of its
// rejection fragments is filled.
func message(msgs ...rejectionQL) string {
	for _, m := range msgs {
		if m.Message != "" {
			return m.Message
		}
	}
	return ""
}
