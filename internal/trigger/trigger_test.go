package trigger

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/landing"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/scenario"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
	"github.com/partnertui/partnertui/internal/usage"
)

// TestStepArgumentsAreTheInputsSchemaNames: an operation's arguments are
// its input's fields by their schema names, nested ones dotted and an
// embedded input's fields its own; optional ones are not required.
func TestStepArgumentsAreTheInputsSchemaNames(t *testing.T) {
	t.Parallel()
	ops := Ops(nil, nil)
	want := map[string]map[string]bool{
		"updateSandboxUser":                 {"id": true, "firstName": true, "nationalityCCA3": true, "birthCountryCCA3": false},
		"simulateOutgoingCardAuthorization": {"cardId": true, "amount.value": false, "outcome": false},
		"initiateCreditTransfers":           {"accountId": true, "creditTransfers.amount.value": true, "creditTransfers.sepaBeneficiary.iban": true},
	}
	for op, args := range want {
		for name, required := range args {
			i := slices.IndexFunc(ops[op].Args, func(a scenario.Arg) bool { return a.Name == name })
			if i < 0 || ops[op].Args[i].Required != required {
				t.Errorf("%s: argument %s missing or required=%v wrong: %+v", op, name, required, ops[op].Args)
			}
		}
	}
}

// TestEverySimulationIsAnOp: trigger's table derives from the api
// package's declarations: each simulation is the operation of its schema
// name, with its input's fields as arguments and its outputs.
func TestEverySimulationIsAnOp(t *testing.T) {
	t.Parallel()
	ops := Ops(nil, nil)
	sims := api.Simulations()
	if len(sims) < 20 {
		t.Fatalf("%d simulations declared", len(sims))
	}
	for _, s := range sims {
		op, ok := ops[s.Field]
		if !ok {
			t.Errorf("%s (%s) is no operation of trigger", s.Field, s.Name)
			continue
		}
		if !slices.Equal(op.Outputs, s.Outputs) || len(op.Args) == 0 {
			t.Errorf("%s: outputs %v, args %v; want outputs %v and the input's fields", s.Field, op.Outputs, op.Args, s.Outputs)
		}
	}
	if len(ops) != len(sims)+1 {
		t.Errorf("%d operations for %d simulations and initiateCreditTransfers", len(ops), len(sims))
	}
}

// TestEveryBuiltinFitsTheOps: each built-in scenario's steps name
// operations the client has, with their arguments, and expect webhook
// event types the platform has.
func TestEveryBuiltinFitsTheOps(t *testing.T) {
	t.Parallel()
	all, err := scenario.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	ops := Ops(nil, nil)
	for _, sc := range all {
		if err := sc.At(time.Now()).With(scenario.ConsentRedirect, "http://127.0.0.1:9/").Check(ops); err != nil {
			t.Errorf("%s: %v", sc.Name, err)
		}
		for _, e := range sc.Expected(nil) {
			if !slices.Contains(platform.WebhookEventTypes(), e) {
				t.Errorf("%s expects %s, not a webhook event type", sc.Name, e)
			}
		}
	}
}

// world is an emulator whose demo user runs the scenarios, with a webhook
// subscription to every event type pointing at a local receiver, unless
// bare.
type world struct {
	*webhooktest.World
	rec *webhooktest.Receiver
}

func newWorld(t *testing.T, bare bool) *world {
	t.Helper()
	w := &world{World: webhooktest.NewWorld(t, emulator.Options{})}
	if bare {
		return w
	}
	rec, url := webhooktest.NewReceiver(t)
	w.rec = rec
	types, err := w.Project.WebhookEventTypes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{
		Label: "trigger test receiver", Endpoint: url, Secret: "trigger-test-secret", EventTypes: types,
	}); err != nil {
		t.Fatal(err)
	}
	return w
}

// builtin is the built-in scenario name.
func builtin(t *testing.T, name string) scenario.Scenario {
	t.Helper()
	all, err := scenario.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all, func(sc scenario.Scenario) bool { return sc.Name == name })
	if i < 0 {
		t.Fatalf("no built-in scenario %s", name)
	}
	return all[i]
}

// runOf is a run of sc on w with opts, prepared as the command line
// prepares it, waiting for expect (nil: the scenario's own); start runs
// it, report reads its JSON report once it has ended.
type runOf struct {
	tr     *Trigger
	sc     scenario.Scenario
	expect []string
	out    *testkit.Buffer
}

func (w *world) prepare(t *testing.T, opts Options, sc scenario.Scenario, expect []string, errw io.Writer) *runOf {
	t.Helper()
	opts.JSON = true
	if opts.Interval == 0 {
		opts.Interval = 20 * time.Millisecond
	}
	r := &runOf{out: testkit.NewBuffer()}
	r.tr = New(opts, Env{Name: "sandbox", API: w.User, ProjectAPI: w.Project}, Output{Out: r.out, Err: errw})
	// The page a consent returns to, as the command line serves it.
	page, err := landing.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = page.Close() })
	r.sc = sc.At(time.Now()).With(scenario.ConsentRedirect, page.URL())
	if err := r.sc.Check(r.tr.Ops()); err != nil {
		t.Fatal(err)
	}
	r.expect = expect
	if expect == nil {
		r.expect = r.sc.Expected(opts.Given())
	}
	return r
}

func (r *runOf) start() error { return r.tr.Run(context.Background(), r.sc, r.expect) }

func (r *runOf) report(t *testing.T) Report {
	t.Helper()
	var rep Report
	if s := r.out.String(); s != "" {
		if err := json.Unmarshal([]byte(s), &rep); err != nil {
			t.Fatalf("the report is not one JSON object: %v\n%s", err, s)
		}
	}
	return rep
}

// run runs sc on w and returns its report and error.
func (w *world) run(t *testing.T, opts Options, sc scenario.Scenario, expect []string, errw io.Writer) (Report, error) {
	t.Helper()
	r := w.prepare(t, opts, sc, expect, errw)
	err := r.start()
	return r.report(t), err
}

// TestRunWaitsForTheExpectedEvents: a run makes its resources, and ends
// once every expected event of theirs arrived (those the receiver got in
// the meantime); waiting for an event it does not cause ends at the
// timeout with a *MissingEventsError naming it.
func TestRunWaitsForTheExpectedEvents(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	sc := builtin(t, "transfer-received")
	from := w.rec.Count()
	rep, err := w.run(t, Options{Timeout: 30 * time.Second}, sc, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := sc.Expected(nil)
	slices.Sort(want)
	var got, ids []string
	for _, e := range rep.Arrived {
		got, ids = append(got, e.Type), append(ids, e.ID)
	}
	slices.Sort(got)
	slices.Sort(ids)
	if !slices.Equal(got, want) || len(rep.Missing) != 0 || !rep.Waited || rep.Env != "sandbox" || rep.Objects[scenario.Account]["iban"] == "" {
		t.Errorf("report %+v; want exactly %v on an account with an IBAN", rep, want)
	}
	if rec := w.rec.Received(from); !slices.Equal(rec, ids) {
		t.Errorf("the receiver got %v, the run waited for %v", rec, ids)
	}

	rep, err = w.run(t, Options{Timeout: time.Second}, sc, []string{"Transaction.Pending", "Transaction.Released"}, io.Discard)
	var missing *MissingEventsError
	if !errors.As(err, &missing) || !slices.Equal(missing.Missing, []string{"Transaction.Released"}) || !strings.Contains(err.Error(), "missing Transaction.Released") {
		t.Fatalf("%v, want Transaction.Released missing", err)
	}
	if !slices.Equal(rep.Missing, []string{"Transaction.Released"}) || !slices.ContainsFunc(rep.Arrived, func(e scenario.Event) bool { return e.Type == "Transaction.Pending" }) {
		t.Errorf("arrived %v, missing %v", rep.Arrived, rep.Missing)
	}
}

// TestRunRefusesWhatCannotEnd: with no subscription receiving an expected
// type the run stops before anything is sent; an account or transaction
// it cannot find is a usage error naming the flag that gives one.
func TestRunRefusesWhatCannotEnd(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	errw := testkit.NewBuffer()
	rep, err := w.run(t, Options{Timeout: time.Second}, builtin(t, "transfer-received"), nil, errw)
	var none *NoSubscriptionForError
	if !errors.As(err, &none) || none.Env != "sandbox" || len(rep.Steps) != 0 {
		t.Errorf("%v (steps %v), want a *NoSubscriptionForError before any step", err, rep.Steps)
	}
	var ue *usage.Error
	if _, err := w.run(t, Options{Account: "no-such-account"}, builtin(t, "transfer-received"), []string{}, errw); err == nil || errors.As(err, &ue) {
		t.Errorf("an unknown --account: %v, want the API's not found", err)
	}
	if _, err := w.run(t, Options{}, builtin(t, "transfer-returned"), []string{}, errw); err != nil {
		// transfer-returned makes its transfer when none is given.
		t.Errorf("transfer-returned without --transaction: %v", err)
	}
	if !strings.Contains(errw.String(), "Using account ") || !strings.Contains(errw.String(), "; --account ID picks another.") {
		t.Errorf("the account picked is not named: %s", errw.String())
	}
}

// TestSEPAScenariosRunOnAnEURAccount: a scenario whose steps move money
// by SEPA on the run's account picks the first Opened account in EUR with
// an IBAN, passing over an earlier one in another currency, and refuses an
// --account in another currency before anything is sent; a card scenario
// takes any currency.
func TestSEPAScenariosRunOnAnEURAccount(t *testing.T) {
	t.Parallel()
	ops := Ops(nil, nil)
	for name, want := range map[string]string{"transfer-received": "EUR", "direct-debit-rejected": "EUR", "transfer-sent-booked": "EUR", "card-debited": "", "fee": ""} {
		if got := builtin(t, name).AccountCurrency(ops, nil); got != want {
			t.Errorf("%s needs an account in %q, want %q", name, got, want)
		}
	}

	w := newWorld(t, true)
	page, err := w.User.Accounts(context.Background(), api.AccountsQuery(""))
	if err != nil {
		t.Fatal(err)
	}
	first := slices.IndexFunc(page.Items, func(a api.Account) bool { return a.StatusInfo.Status == "Opened" && a.IBAN != "" })
	if first < 0 || page.Items[first].Currency == platform.SEPACurrency {
		t.Fatalf("the demo user's first Opened account with an IBAN must not be in EUR for this test: %+v", page.Items[max(first, 0)])
	}
	other := page.Items[first]
	errw := testkit.NewBuffer()
	rep, err := w.run(t, Options{}, builtin(t, "transfer-received"), []string{}, errw)
	if err != nil {
		t.Fatal(err)
	}
	if acc := rep.Objects[scenario.Account]; acc["currency"] != "EUR" || acc["iban"] == "" || acc["id"] == other.ID {
		t.Errorf("transfer-received ran on %v, want an EUR account with an IBAN", acc)
	}
	if !strings.Contains(errw.String(), " in EUR; --account ID picks another.") {
		t.Errorf("the account picked is not said to be in EUR: %s", errw.String())
	}
	before := len(w.Emu.Log.Operations(t))
	_, err = w.run(t, Options{Account: other.ID}, builtin(t, "transfer-received"), []string{}, io.Discard)
	var ue *usage.Error
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "holds "+other.Currency) || !strings.Contains(err.Error(), "in EUR only") {
		t.Errorf("--account of a %s account: %v, want a usage error", other.Currency, err)
	}
	for _, op := range w.Emu.Log.Operations(t)[before:] {
		if strings.HasPrefix(op, "Simulate") {
			t.Errorf("sent %s for a run refused", op)
		}
	}
	rep, err = w.run(t, Options{Timeout: 0}, builtin(t, "fee"), []string{}, io.Discard)
	if err != nil || rep.Objects[scenario.Account]["id"] != other.ID {
		t.Errorf("fee ran on %v (%v), want the first Opened account with an IBAN, %s", rep.Objects[scenario.Account], err, other.ID)
	}
}
