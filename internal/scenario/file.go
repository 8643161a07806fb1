package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// fileScenario is a scenario's TOML: the built-in ones and a user's
// --file alike.
//
//	name = "card-released"
//	description = "a card payment authorized, then released"
//	[vars]
//	amount = "12.50"
//	[transaction]          # without --transaction, the latest of these
//	type = "CardOutAuthorization"
//	status = "Pending"
//	[[step]]
//	name = "authorize"
//	op = "simulateOutgoingCardAuthorization"
//	given = "transaction"
//	expect = ["Transaction.Pending", "Transaction.Enriched"]
//	args = { cardId = "${card.id}", amount = { value = "${amount}", currency = "${card.currency}" } }
//	[[step]]
//	name = "release"
//	op = "simulateOutgoingCardAuthorizationRelease"
//	expect = ["Transaction.Released"]
//	args = { transactionId = "${authorize.transactionId}" }
type fileScenario struct {
	Name        string            `toml:"name"`
	Description string            `toml:"description"`
	Expect      []string          `toml:"expect"`
	Vars        map[string]string `toml:"vars"`
	Pick        *TransactionPick  `toml:"transaction"`
	Steps       []fileStep        `toml:"step"`
}

type fileStep struct {
	Name   string         `toml:"name"`
	Op     string         `toml:"op"`
	Given  string         `toml:"given"`
	Expect []string       `toml:"expect"`
	Args   map[string]any `toml:"args"`
}

// Parse reads a scenario's TOML; path names it in errors. A scenario
// without a name takes path's.
func Parse(path string, data []byte) (Scenario, error) {
	var f fileScenario
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Scenario{}, decodeError(path, err)
	}
	sc := Scenario{Name: f.Name, Description: f.Description, Expect: f.Expect, Vars: f.Vars, Pick: f.Pick}
	if p := sc.Pick; p != nil && (p.Type == "" || p.Status == "") {
		return Scenario{}, fmt.Errorf("%s: [transaction] picks the transaction to work on by type and status: give both", path)
	}
	if sc.Name == "" {
		sc.Name = path
	}
	if sc.Vars == nil {
		sc.Vars = map[string]string{}
	}
	for i, s := range f.Steps {
		args := map[string]string{}
		if err := flatten("", s.Args, args); err != nil {
			return Scenario{}, fmt.Errorf("%s: step %d (%s): %w", path, i+1, s.Name, err)
		}
		sc.Steps = append(sc.Steps, Step{Name: s.Name, Op: s.Op, Given: s.Given, Expect: s.Expect, Args: args})
	}
	return sc, nil
}

// decodeError names the file, the line and the key of a TOML mistake.
func decodeError(path string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var errs []error
		for i := range strict.Errors {
			de := &strict.Errors[i]
			row, _ := de.Position()
			errs = append(errs, fmt.Errorf("%s:%d: unknown key %s: a scenario has name, description, expect, [vars], [transaction] (type, status) and [[step]]s of name, op, given, expect and args",
				path, row, strings.Join(de.Key(), ".")))
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return fmt.Errorf("%s:%d: %w", path, row, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// flatten writes a step's args table into out, nested tables as dotted
// names (amount.value); numbers and booleans as the text GraphQL takes.
func flatten(prefix string, in map[string]any, out map[string]string) error {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		name := prefix + k
		switch v := in[k].(type) {
		case map[string]any:
			if err := flatten(name+".", v, out); err != nil {
				return err
			}
		case string:
			out[name] = v
		case bool:
			out[name] = strconv.FormatBool(v)
		case int64:
			out[name] = strconv.FormatInt(v, 10)
		case float64:
			out[name] = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			return fmt.Errorf("args.%s: %T is not taken; write a string, a number, true or false", name, v)
		}
	}
	return nil
}
