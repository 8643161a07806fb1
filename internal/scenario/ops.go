package scenario

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Op is one operation a step can run.
type Op struct {
	Args    []Arg    // every argument it takes
	Outputs []string // the fields its result gives later steps (transactionId)
	// Currency is the currency the account a step of it refers to must
	// hold (a SEPA transfer's account is in euros); "" takes any.
	Currency string
	// Do runs it with the arguments set (references resolved) and returns
	// its outputs.
	Do func(ctx context.Context, args map[string]string) (map[string]string, error)
}

// Arg is one argument of an operation.
type Arg struct {
	Name     string // schema name; a nested input field dotted (amount.value)
	Required bool
}

// Ops are the operations steps may run, by schema name.
type Ops map[string]Op

func (o Op) takes(arg string) bool {
	return slices.ContainsFunc(o.Args, func(a Arg) bool { return a.Name == arg })
}

// AccountCurrency is the currency the run's account must hold when the
// objects in given are given: that of the first step that runs and refers
// to the account with an operation that needs one; "" when none does.
func (sc Scenario) AccountCurrency(ops Ops, given Objects) string {
	for _, s := range sc.Steps {
		if !s.runs(given) || ops[s.Op].Currency == "" {
			continue
		}
		for _, v := range s.Args {
			refs, _ := refsOf(v)
			if slices.ContainsFunc(refs, func(r ref) bool { return r.name == Account }) {
				return ops[s.Op].Currency
			}
		}
	}
	return ""
}

// Names lists the operations, sorted.
func (ops Ops) Names() []string {
	out := make([]string, 0, len(ops))
	for n := range ops {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Check lists every problem of sc against ops, so that nothing is sent for
// a scenario that cannot run to its end: an unknown operation or argument,
// a required argument missing, a reference to a later or unknown step, an
// output the step does not give, a variable never set.
func (sc Scenario) Check(ops Ops) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if len(sc.Steps) == 0 {
		bad("%s has no step", sc.Name)
	}
	outputs := map[string][]string{}
	for i, s := range sc.Steps {
		where := fmt.Sprintf("step %d (%s)", i+1, s.Name)
		switch {
		case s.Name == "":
			bad("step %d has no name: later steps refer to its outputs by name", i+1)
		case slices.Contains(Kinds(), s.Name) || sc.Vars[s.Name] != "":
			bad("%s: the name %s is taken by an object or a variable", where, s.Name)
		case outputs[s.Name] != nil:
			bad("%s: another step is named %s", where, s.Name)
		}
		if s.Given != "" && !slices.Contains(Kinds(), s.Given) {
			bad("%s: given %q is not one of %s", where, s.Given, strings.Join(Kinds(), ", "))
		}
		op, ok := ops[s.Op]
		if !ok {
			bad("%s: unknown operation %q; the operations are %s", where, s.Op, strings.Join(ops.Names(), ", "))
			outputs[s.Name] = []string{}
			continue
		}
		errs = append(errs, sc.checkArgs(where, s, op, outputs)...)
		outputs[s.Name] = append([]string{}, op.Outputs...)
	}
	return errors.Join(errs...)
}

// checkArgs checks one step's arguments against its operation and the
// outputs of the steps before it.
func (sc Scenario) checkArgs(where string, s Step, op Op, outputs map[string][]string) []error {
	var errs []error
	for _, a := range op.Args {
		if _, ok := s.Args[a.Name]; a.Required && !ok {
			errs = append(errs, fmt.Errorf("%s: %s needs %s", where, s.Op, a.Name))
		}
	}
	for name, v := range s.Args {
		if !op.takes(name) {
			errs = append(errs, fmt.Errorf("%s: %s takes no argument %s", where, s.Op, name))
		}
		refs, err := refsOf(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", where, name, err))
		}
		for _, r := range refs {
			if err := sc.checkRef(r, outputs); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", where, name, err))
			}
		}
	}
	return errs
}

func (sc Scenario) checkRef(r ref, outputs map[string][]string) error {
	switch {
	case slices.Contains(Kinds(), r.name):
		if r.field == "" {
			return fmt.Errorf("%s names no field: write ${%s.id}", r, r.name)
		}
		return nil
	case r.field == "":
		if _, ok := sc.Vars[r.name]; !ok {
			return fmt.Errorf("%s is not a variable of the scenario (declare it under [vars])", r)
		}
		return nil
	}
	outs, ok := outputs[r.name]
	if !ok {
		return fmt.Errorf("%s refers to no earlier step", r)
	}
	if !slices.Contains(outs, r.field) {
		return fmt.Errorf("%s: step %s gives %s", r, r.name, strings.Join(outs, ", "))
	}
	return nil
}
