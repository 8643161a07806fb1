package trigger

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/scenario"
)

// Ops are the operations a scenario's steps may run, by their schema
// names, bound to the environment's client: every simulation the api
// package declares (api.Simulations), run through its Testing API, and
// the partner API's initiateCreditTransfers. A step's arguments are its
// operation's input's fields by their schema names (json tags), nested
// ones dotted; its outputs are what the simulation's success names. A new
// simulation of the api package is a new operation here with no line of
// its own. A payment left waiting for the user's consent is handed to
// consent (nil: it is an error at once). With a nil client the operations
// can be checked, not run.
func Ops(c *api.Client, consent func(context.Context, *api.Payment) (*api.Payment, error)) scenario.Ops {
	var sim api.Simulator
	if c != nil {
		sim = c.Testing()
	}
	ops := scenario.Ops{}
	for _, s := range api.Simulations() {
		ops[s.Field] = simulationOp(sim, s)
	}
	ops["initiateCreditTransfers"] = paymentOp(c, consent)
	for name, op := range ops {
		if platform.IsSEPAOperation(name) {
			op.Currency = platform.SEPACurrency
			ops[name] = op
		}
	}
	return ops
}

// simulationOp is the simulation s: it fills its input from a step's
// arguments and runs it through sim.
func simulationOp(sim api.Simulator, s *api.Spec) scenario.Op {
	return scenario.Op{
		Args:    argsOf(s.Input, "", true),
		Outputs: s.Outputs,
		Do: func(ctx context.Context, args map[string]string) (map[string]string, error) {
			in := reflect.New(s.Input).Elem()
			if err := fill(in, args); err != nil {
				return nil, err
			}
			r, err := sim.Simulate(ctx, s, in.Interface())
			if err != nil {
				return nil, err
			}
			return s.OutputsOf(r), nil
		},
	}
}

// fill sets the fields of in a step's arguments name.
func fill(in reflect.Value, args map[string]string) error {
	for name, v := range args {
		if err := setField(in, strings.Split(name, "."), v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// paymentOp starts an outgoing transfer; a payment left waiting for
// consent is handed to consent.
func paymentOp(c *api.Client, consent func(context.Context, *api.Payment) (*api.Payment, error)) scenario.Op {
	return opOf([]string{"payment.id", "transactionId"}, func(ctx context.Context, in api.InitiateCreditTransfersInput) (map[string]string, error) {
		p, err := c.InitiateCreditTransfers(ctx, in)
		if err == nil && p.ConsentURL != "" && consent != nil {
			p, err = consent(ctx, p)
		}
		if err != nil {
			return nil, err
		}
		if len(p.TransactionIDs) == 0 {
			return nil, &PaymentNotSentError{PaymentID: p.ID, Status: p.Status, ConsentURL: p.ConsentURL, Reason: p.RejectedReason}
		}
		return map[string]string{"payment.id": p.ID, "transactionId": p.TransactionIDs[0]}, nil
	})
}

// opOf is the operation that fills an In from a step's arguments and runs
// do with it; its arguments are In's fields.
func opOf[In any](outputs []string, do func(context.Context, In) (map[string]string, error)) scenario.Op {
	return scenario.Op{
		Args:    argsOf(reflect.TypeFor[In](), "", true),
		Outputs: outputs,
		Do: func(ctx context.Context, args map[string]string) (map[string]string, error) {
			var in In
			if err := fill(reflect.ValueOf(&in).Elem(), args); err != nil {
				return nil, err
			}
			return do(ctx, in)
		},
	}
}

// argsOf lists the arguments of the input type t: its fields by their json
// names, a nested input's dotted. A field is required unless omitempty (or
// inside an optional one).
func argsOf(t reflect.Type, prefix string, required bool) []scenario.Arg {
	var out []scenario.Arg
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			// encoding/json writes an embedded struct's fields as its own.
			out = append(out, argsOf(f.Type, prefix, required)...)
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		req := required && !strings.Contains(opts, "omitempty")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft, req = ft.Elem(), false
		}
		if ft.Kind() == reflect.Struct {
			out = append(out, argsOf(ft, prefix+name+".", req)...)
			continue
		}
		out = append(out, scenario.Arg{Name: prefix + name, Required: req})
	}
	return out
}

// setField sets the field of v at path (json names) from its text.
func setField(v reflect.Value, path []string, text string) error {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	if len(path) == 0 {
		switch v.Kind() {
		case reflect.String:
			v.SetString(text)
		case reflect.Bool:
			b, err := strconv.ParseBool(text)
			if err != nil {
				return fmt.Errorf("%q is not true or false", text)
			}
			v.SetBool(b)
		default:
			return fmt.Errorf("cannot be set from text (%s)", v.Kind())
		}
		return nil
	}
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if t.Field(i).Anonymous && name == "" {
			if err := setField(v.Field(i), path, text); err == nil {
				return nil
			}
			continue
		}
		if name == path[0] {
			return setField(v.Field(i), path[1:], text)
		}
	}
	return fmt.Errorf("no such field %s", path[0])
}

// PaymentNotSentError reports a payment whose transfer was not sent: it
// waits for the user's consent, or was rejected.
type PaymentNotSentError struct {
	PaymentID  string
	Status     string
	ConsentURL string
	Reason     string
	Waited     time.Duration // how long the run waited for the consent
}

func (e *PaymentNotSentError) Error() string {
	if e.ConsentURL != "" && e.Waited > 0 {
		return fmt.Sprintf("payment %s got no answer to its consent within %s, so no transfer is sent: give it at %s, or wait longer with --timeout",
			e.PaymentID, e.Waited, e.ConsentURL)
	}
	if e.ConsentURL != "" {
		return fmt.Sprintf("payment %s waits for the user's consent, so no transfer is sent yet: give it at %s, or sign in as a Sandbox user who consents automatically (autoConsent; `partnertui trigger sandbox-user` makes one)",
			e.PaymentID, e.ConsentURL)
	}
	return fmt.Sprintf("payment %s is %s (%s): no transfer was sent", e.PaymentID, e.Status, e.Reason)
}
