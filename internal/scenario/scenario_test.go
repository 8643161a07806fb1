package scenario

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// testOps are two operations: pay makes a transaction, settle acts on one.
func testOps(calls *[]map[string]string) Ops {
	do := func(id string) func(context.Context, map[string]string) (map[string]string, error) {
		return func(_ context.Context, args map[string]string) (map[string]string, error) {
			*calls = append(*calls, args)
			if args["fail"] == "true" {
				return nil, errors.New("refused")
			}
			return map[string]string{"transactionId": id}, nil
		}
	}
	return Ops{
		"pay":    {Args: []Arg{{Name: "cardId", Required: true}, {Name: "amount.value"}, {Name: "fail"}}, Outputs: []string{"transactionId"}, Do: do("tx-1")},
		"settle": {Args: []Arg{{Name: "transactionId", Required: true}}, Outputs: []string{"transactionId"}, Do: do("tx-2")},
	}
}

const payThenSettle = `name = "t"
[vars]
amount = "1.00"
[[step]]
name = "pay"
op = "pay"
given = "transaction"
expect = ["Transaction.Pending"]
args = { cardId = "${card.id}", amount = { value = "${amount}" } }
[[step]]
name = "settle"
op = "settle"
expect = ["Transaction.Booked"]
args = { transactionId = "${pay.transactionId}" }
`

func TestRunResolvesReferencesInOrder(t *testing.T) {
	t.Parallel()
	var calls []map[string]string
	sc, err := Parse("t.toml", []byte(payThenSettle))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Check(testOps(&calls)); err != nil {
		t.Fatal(err)
	}
	objs := Objects{Card: {"id": "card-1", "accountId": "acc-1"}}
	res, err := Run(context.Background(), sc, testOps(&calls), objs, nil)
	if err != nil || len(res) != 2 {
		t.Fatalf("Run = %v, %v", res, err)
	}
	if calls[0]["cardId"] != "card-1" || calls[0]["amount.value"] != "1.00" || calls[1]["transactionId"] != "tx-1" {
		t.Errorf("calls %v", calls)
	}
	if got := Resources(res, objs); !slices.Equal(got, []string{"tx-1", "tx-2", "acc-1", "card-1"}) {
		t.Errorf("Resources = %v", got)
	}
	// Given a transaction, the step that makes one is skipped, and so are
	// its events and its objects.
	given := Objects{Transaction: {"id": "tx-9"}}
	if needs, exp := sc.Needs(given), sc.Expected(given); len(needs) != 0 || !slices.Equal(exp, []string{"Transaction.Booked"}) {
		t.Errorf("given a transaction: needs %v, expects %v", needs, exp)
	}
	calls = nil
	res, err = Run(context.Background(), sc, testOps(&calls), given, nil)
	if err != nil || !res[0].Given || len(calls) != 1 || calls[0]["transactionId"] != "tx-9" {
		t.Errorf("given: %v, %v, calls %v", res, err, calls)
	}
}

func TestRunStopsAtTheFirstFailure(t *testing.T) {
	t.Parallel()
	var calls []map[string]string
	sc, _ := Parse("t.toml", []byte(payThenSettle))
	sc, err := sc.Set([]string{"pay.fail=true"}, testOps(&calls))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), sc, testOps(&calls), Objects{Card: {"id": "c"}}, nil)
	if err == nil || len(res) != 0 || len(calls) != 1 || !strings.Contains(err.Error(), "step 1 (pay, pay): refused") {
		t.Errorf("Run = %v, %v after %d calls", res, err, len(calls))
	}
}

func TestCheckNamesEveryProblem(t *testing.T) {
	t.Parallel()
	var calls []map[string]string
	sc := Scenario{Name: "bad", Vars: map[string]string{}, Steps: []Step{
		{Name: "a", Op: "settle", Args: map[string]string{"transactionId": "${b.transactionId}"}},
		{Name: "b", Op: "pay", Args: map[string]string{"amount.value": "${amount}", "colour": "red"}},
		{Name: "card", Op: "nope"},
	}}
	err := sc.Check(testOps(&calls))
	for _, want := range []string{"${b.transactionId} refers to no earlier step", "pay needs cardId", "takes no argument colour",
		"${amount} is not a variable", "the name card is taken", `unknown operation "nope"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check: %v; want %q", err, want)
		}
	}
}

func TestSetNamesWhatTheStepsTake(t *testing.T) {
	t.Parallel()
	var calls []map[string]string
	sc, _ := Parse("t.toml", []byte(payThenSettle))
	got, err := sc.Set([]string{"amount.value=9.99", "settle.transactionId=tx-x"}, testOps(&calls))
	if err != nil || got.Steps[0].Args["amount.value"] != "9.99" || got.Steps[1].Args["transactionId"] != "tx-x" {
		t.Errorf("Set = %+v, %v", got.Steps, err)
	}
	if sc.Steps[0].Args["amount.value"] != "${amount}" {
		t.Error("Set changed the scenario it was called on")
	}
	for _, bad := range []string{"colour=red", "novalue", "settle.cardId=x"} {
		if _, err := sc.Set([]string{bad}, testOps(&calls)); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	t.Parallel()
	_, err := Parse("s.toml", []byte("name = \"x\"\n[[step]]\nname = \"a\"\ncolour = \"red\"\n"))
	if err == nil || !strings.Contains(err.Error(), "s.toml:4: unknown key step.colour") {
		t.Errorf("unknown key: %v", err)
	}
	_, err = Parse("s.toml", []byte("[[step]]\nname = \"a\"\nargs = { list = [1, 2] }\n"))
	if err == nil || !strings.Contains(err.Error(), "args.list") {
		t.Errorf("a list argument: %v", err)
	}
	sc, err := Parse("s.toml", []byte("[[step]]\nname = \"a\"\nargs = { n = 3, ok = true, x = 1.5 }\n"))
	if err != nil || sc.Name != "s.toml" || sc.Steps[0].Args["n"] != "3" || sc.Steps[0].Args["ok"] != "true" || sc.Steps[0].Args["x"] != "1.5" {
		t.Errorf("Parse = %+v, %v", sc, err)
	}
}

func TestMatchCountsEachEventOnceInAnyOrder(t *testing.T) {
	t.Parallel()
	events := []Event{{"e2", "Transaction.Booked", "t"}, {"e1", "Transaction.Pending", "t"}, {"e2", "Transaction.Booked", "t"}}
	v := Match([]string{"Transaction.Pending", "Transaction.Booked", "Transaction.Booked"}, events)
	if len(v.Arrived) != 2 || !slices.Equal(v.Missing, []string{"Transaction.Booked"}) || v.Met() {
		t.Errorf("Match = %+v", v)
	}
	if v := Match([]string{"Transaction.Booked", "Transaction.Pending"}, events); !v.Met() {
		t.Errorf("Match in another order = %+v", v)
	}
}

func TestBuiltinsParse(t *testing.T) {
	t.Parallel()
	all, err := Builtins()
	if err != nil || len(all) == 0 {
		t.Fatalf("Builtins = %d, %v", len(all), err)
	}
	for _, sc := range all {
		if sc.Description == "" || len(sc.Expected(nil)) == 0 {
			t.Errorf("%s: no description or expectation", sc.Name)
		}
	}
}

// TestParsePick: [transaction] names the transaction a run without one
// works on, by both its type and its status.
func TestParsePick(t *testing.T) {
	t.Parallel()
	const step = `
[[step]]
name = "book"
op = "settle"
args = { transactionId = "${transaction.id}" }
`
	sc, err := Parse("p.toml", []byte("[transaction]\ntype = \"SepaDirectDebitIn\"\nstatus = \"Pending\"\n"+step))
	if err != nil || sc.Pick == nil || *sc.Pick != (TransactionPick{Type: "SepaDirectDebitIn", Status: "Pending"}) {
		t.Fatalf("Parse = %+v, %v", sc.Pick, err)
	}
	if _, err := Parse("p.toml", []byte("[transaction]\ntype = \"SepaDirectDebitIn\"\n"+step)); err == nil || !strings.Contains(err.Error(), "give both") {
		t.Errorf("a pick without its status: %v", err)
	}
}
