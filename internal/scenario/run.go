package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Result is what one step did.
type Result struct {
	Step    string            `json:"step"`
	Op      string            `json:"op"`
	Outputs map[string]string `json:"outputs"`
	// Given is true when the step was not run because its object was given
	// (its outputs are the given object's).
	Given bool `json:"given,omitempty"`
}

// Run runs sc's steps in order with the objects and variables given,
// telling each result to each as it comes. It stops at the first failure,
// returning the results so far: the resources already created are real.
// sc must have passed Check against ops.
func Run(ctx context.Context, sc Scenario, ops Ops, objects Objects, each func(Result)) ([]Result, error) {
	outputs := map[string]map[string]string{}
	var done []Result
	for i, s := range sc.Steps {
		res := Result{Step: s.Name, Op: s.Op}
		if !s.runs(objects) {
			res.Given = true
			res.Outputs = map[string]string{s.Given + "Id": objects[s.Given]["id"]}
		} else {
			args, err := resolve(s.Args, sc.Vars, objects, outputs)
			if err != nil {
				return done, fmt.Errorf("step %d (%s): %w", i+1, s.Name, err)
			}
			out, err := ops[s.Op].Do(ctx, args)
			if err != nil {
				return done, fmt.Errorf("step %d (%s, %s): %w", i+1, s.Name, s.Op, err)
			}
			res.Outputs = out
		}
		outputs[s.Name] = res.Outputs
		done = append(done, res)
		if each != nil {
			each(res)
		}
	}
	return done, nil
}

// resolve replaces every reference in args.
func resolve(args, vars map[string]string, objects Objects, outputs map[string]map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(args))
	for name, v := range args {
		var missing error
		out[name] = refPattern.ReplaceAllStringFunc(v, func(m string) string {
			sub := refPattern.FindStringSubmatch(m)
			r := ref{name: sub[1], field: sub[2]}
			val, ok := lookup(r, vars, objects, outputs)
			if !ok && missing == nil {
				missing = fmt.Errorf("%s: %s has no value", name, r)
			}
			return val
		})
		if missing != nil {
			return nil, missing
		}
	}
	return out, nil
}

func lookup(r ref, vars map[string]string, objects Objects, outputs map[string]map[string]string) (string, bool) {
	if r.field == "" {
		v, ok := vars[r.name]
		return v, ok && v != ""
	}
	if fields, ok := objects[r.name]; ok || slices.Contains(Kinds(), r.name) {
		v := fields[r.field]
		return v, v != ""
	}
	v := outputs[r.name][r.field]
	return v, v != ""
}

// Resources lists the ids a run touched: every output that is an id
// (transactionId, sandboxUser.id…) and the ids of the objects it was given
// or found (a card's and its accountId), without repeats. The events of
// these resources are the run's.
func Resources(results []Result, objects Objects) []string {
	var out []string
	addIDs := func(fields map[string]string) {
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			id := fields[k]
			if (k == "id" || strings.HasSuffix(k, "Id") || strings.HasSuffix(k, ".id")) && id != "" && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	for _, r := range results {
		addIDs(r.Outputs)
	}
	for _, k := range Kinds() {
		addIDs(objects[k])
	}
	return out
}
