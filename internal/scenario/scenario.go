// Package scenario is what `partnertui trigger` runs: a named chain of
// steps, each one operation of the platform, whose arguments may name the
// objects the run works on (${account.iban}), a variable (${amount}) or an
// earlier step's output (${authorize.transactionId}), together with the
// webhook events the chain should cause. Scenarios are TOML, the built-in
// ones as much as a user's own file. The package knows nothing of GraphQL:
// the operations are given to it (Ops), so it is a leaf.
package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Scenario is one chain of steps.
type Scenario struct {
	Name        string
	Description string // one line: what it does
	// Expect are webhook event types the run should cause besides its
	// steps' (Step.Expect), a type once per event.
	Expect []string
	// Vars are the defaults of ${name} references (amount); the command
	// line may replace them.
	Vars map[string]string
	// Pick says which transaction a run without --transaction works on:
	// the project's latest of this type (TransactionTypeEnum) and status
	// (TransactionStatus).
	Pick  *TransactionPick
	Steps []Step
}

// Step is one operation of a scenario.
type Step struct {
	Name string // how later steps refer to its outputs
	Op   string // the operation's schema name, such as simulateOutgoingCardDebit
	// Args are the operation's arguments by their schema names, nested
	// input fields dotted (amount.value); values may hold references.
	Args map[string]string
	// Given names an object the run may be given instead of running the
	// step: with a transaction given (--transaction), a step with Given
	// "transaction" is skipped and its transactionId is the given one's id.
	Given string
	// Expect are the webhook event types the step causes, a type once per
	// event (twice for two transactions that each go Pending).
	Expect []string
}

// TransactionPick is the transaction a scenario works on when none is
// given.
type TransactionPick struct {
	Type   string `toml:"type"`
	Status string `toml:"status"`
}

// Objects are the objects a run works on, by kind (account, card,
// transaction), each a map of its fields (id, iban, currency…).
type Objects map[string]map[string]string

// Object kinds a scenario may refer to; no step may take their names.
const (
	Account     = "account"
	Card        = "card"
	Transaction = "transaction"
)

// Kinds are the object kinds, in the order a run resolves them.
func Kinds() []string { return []string{Account, Card, Transaction} }

// refPattern matches one reference: ${name} or ${name.field}.
var refPattern = regexp.MustCompile(`\$\{([A-Za-z][A-Za-z0-9_-]*)(?:\.([A-Za-z][A-Za-z0-9_.]*))?\}`)

// ref is one reference found in an argument.
type ref struct{ name, field string }

func (r ref) String() string {
	if r.field == "" {
		return "${" + r.name + "}"
	}
	return "${" + r.name + "." + r.field + "}"
}

// refsOf lists the references in value, or says what is malformed.
func refsOf(value string) ([]ref, error) {
	var out []ref
	for _, m := range refPattern.FindAllStringSubmatch(value, -1) {
		out = append(out, ref{name: m[1], field: m[2]})
	}
	if rest := refPattern.ReplaceAllString(value, ""); strings.Contains(rest, "${") {
		return nil, fmt.Errorf("%q has a malformed reference: write ${step.output}, ${account.id} or ${amount}", value)
	}
	return out, nil
}

// At returns sc with the clock's variables set, unless sc sets them:
// ${now}, the run's start, and ${tomorrow}, a day later (RFC 3339, UTC),
// for the dates simulations take (an execution date not in the past).
func (sc Scenario) At(now time.Time) Scenario {
	out := sc.clone()
	for name, t := range map[string]time.Time{"now": now, "tomorrow": now.Add(24 * time.Hour)} {
		if _, ok := out.Vars[name]; !ok {
			out.Vars[name] = t.UTC().Format(time.RFC3339)
		}
	}
	return out
}

// ConsentRedirect is the variable a payment's consentRedirectUrl names
// (${consentRedirect}): the page the user's browser is sent back to once
// they answer the consent, which the command line serves while it runs.
const ConsentRedirect = "consentRedirect"

// Refers reports whether a step of sc refers to the variable name.
func (sc Scenario) Refers(name string) bool {
	for _, s := range sc.Steps {
		for _, v := range s.Args {
			refs, _ := refsOf(v)
			for _, r := range refs {
				if r.name == name && r.field == "" {
					return true
				}
			}
		}
	}
	return false
}

// With returns sc with the variable name set to value, unless sc sets it.
func (sc Scenario) With(name, value string) Scenario {
	out := sc.clone()
	if _, ok := out.Vars[name]; !ok {
		out.Vars[name] = value
	}
	return out
}

// runs reports whether step s is run when the objects in given are given.
func (s Step) runs(given Objects) bool {
	return s.Given == "" || given[s.Given]["id"] == ""
}

// Needs lists the object kinds the steps that run refer to, in Kinds
// order: what the command line must find (or be given) before it starts.
func (sc Scenario) Needs(given Objects) []string {
	used := map[string]bool{}
	for _, s := range sc.Steps {
		if !s.runs(given) {
			continue
		}
		for _, v := range s.Args {
			refs, _ := refsOf(v)
			for _, r := range refs {
				used[r.name] = true
			}
		}
	}
	var out []string
	for _, k := range Kinds() {
		if used[k] {
			out = append(out, k)
		}
	}
	return out
}

// Expected lists the event types a run with the objects in given should
// cause: the scenario's own and those of the steps that run.
func (sc Scenario) Expected(given Objects) []string {
	out := slices.Clone(sc.Expect)
	for _, s := range sc.Steps {
		if s.runs(given) {
			out = append(out, s.Expect...)
		}
	}
	return out
}

// Givens lists the object kinds the scenario can be given instead of
// running a step (its steps' Given).
func (sc Scenario) Givens() []string {
	var out []string
	for _, s := range sc.Steps {
		if s.Given != "" && !slices.Contains(out, s.Given) {
			out = append(out, s.Given)
		}
	}
	return out
}

// Set replaces arguments from the command line's --set: "arg=value" sets
// arg on every step whose operation takes it, "step.arg=value" on that
// step only. Nested fields are dotted (amount.value=12.00).
func (sc Scenario) Set(assignments []string, ops Ops) (Scenario, error) {
	out := sc.clone()
	for _, a := range assignments {
		key, value, ok := strings.Cut(a, "=")
		if !ok || key == "" {
			return sc, fmt.Errorf("--set %q: write field=value or step.field=value", a)
		}
		hit := false
		for i := range out.Steps {
			s := &out.Steps[i]
			arg := key
			if rest, ok := strings.CutPrefix(key, s.Name+"."); ok {
				arg = rest
			} else if strings.Contains(key, ".") && out.stepNamed(strings.SplitN(key, ".", 2)[0]) {
				continue // meant for another step
			}
			if op, ok := ops[s.Op]; ok && op.takes(arg) {
				s.Args[arg] = value
				hit = true
			}
		}
		if !hit {
			return sc, fmt.Errorf("--set %q: no step of %s takes %s; they take %s", a, sc.Name, key, strings.Join(out.argNames(ops), ", "))
		}
	}
	return out, nil
}

func (sc Scenario) stepNamed(name string) bool {
	return slices.ContainsFunc(sc.Steps, func(s Step) bool { return s.Name == name })
}

// argNames lists step.arg for every argument the steps' operations take.
func (sc Scenario) argNames(ops Ops) []string {
	var out []string
	for _, s := range sc.Steps {
		for _, a := range ops[s.Op].Args {
			out = append(out, s.Name+"."+a.Name)
		}
	}
	return out
}

func (sc Scenario) clone() Scenario {
	out := sc
	out.Expect = slices.Clone(sc.Expect)
	out.Vars = map[string]string{}
	for k, v := range sc.Vars {
		out.Vars[k] = v
	}
	out.Steps = make([]Step, len(sc.Steps))
	for i, s := range sc.Steps {
		s.Expect = slices.Clone(s.Expect)
		s.Args = map[string]string{}
		for k, v := range sc.Steps[i].Args {
			s.Args[k] = v
		}
		out.Steps[i] = s
	}
	return out
}
