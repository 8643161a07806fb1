package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/scenario"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
	"github.com/partnertui/partnertui/internal/trigger"
)

// triggerEmulator starts an emulator whose first demo user is signed in
// for the CLI, with a webhook subscription to every event type pointing at
// a local receiver that records what it gets.
func triggerEmulator(t *testing.T) (cfg string, rec *webhooktest.Receiver) {
	t.Helper()
	_, cfg, rec = triggerEmulatorOf(t)
	return cfg, rec
}

// triggerEmulatorOf is triggerEmulator, with the emulator.
func triggerEmulatorOf(t *testing.T) (e *testkit.Emulator, cfg string, rec *webhooktest.Receiver) {
	t.Helper()
	e, cfg = startEmulator(t, homeOf(t).Dir, "user", emulator.Options{})
	dir, err := homeOf(t).Locations.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	signin.Session(t, e, e.Env(t, config.Sandbox), dir)
	rec, url := webhooktest.NewReceiver(t)
	project := projectClient(t, e)
	types, err := project.WebhookEventTypes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{
		Label: "trigger test receiver", Endpoint: url, Secret: "trigger-test-secret", EventTypes: types,
	}); err != nil {
		t.Fatal(err)
	}
	return e, cfg, rec
}

// runTrigger runs trigger with --json on the emulator of cfg, reading the
// event log every 20 ms.
func runTriggerJSON(t *testing.T, cfg string, args ...string) (int, trigger.Report, string) {
	t.Helper()
	args = append([]string{"trigger", "--config", cfg, "--json", "--interval", "20ms"}, args...)
	code, out, errOut := runCLI(t, args...)
	var rep trigger.Report
	if out != "" {
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: stdout is not one JSON object: %v\n%s", args, err, out)
		}
	}
	return code, rep, errOut
}

// sortedOf is one field of each event, sorted.
func sortedOf(events []scenario.Event, field func(scenario.Event) string) []string {
	var out []string
	for _, e := range events {
		out = append(out, field(e))
	}
	slices.Sort(out)
	return out
}

func eventIDs(events []scenario.Event) []string {
	return sortedOf(events, func(e scenario.Event) string { return e.ID })
}

func eventTypesOf(events []scenario.Event) []string {
	return sortedOf(events, func(e scenario.Event) string { return e.Type })
}

// TestEveryBuiltinScenarioEndToEnd runs each built-in scenario on the
// emulator with its default expectations (runBuiltin).
func TestEveryBuiltinScenarioEndToEnd(t *testing.T) {
	t.Parallel()
	cfg, rec := triggerEmulator(t)
	all, err := scenario.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		if endorses(sc) {
			continue // TestTriggerEndorsedUserActsAfterwards, on an emulator of its own
		}
		runBuiltin(t, cfg, rec, sc)
	}
}

// endorses tells whether sc endorses a Sandbox user, after which the
// signed-in user acts as that user: the scenarios after it would run as
// someone else.
func endorses(sc scenario.Scenario) bool {
	return slices.ContainsFunc(sc.Steps, func(s scenario.Step) bool { return s.Op == "endorseSandboxUser" })
}

// runBuiltin runs the built-in scenario sc with its default expectations:
// it exits 0, every expected event arrived, and the eventIds the local
// receiver got during the run are exactly those trigger waited for.
func runBuiltin(t *testing.T, cfg string, rec *webhooktest.Receiver, sc scenario.Scenario) trigger.Report {
	t.Helper()
	from := rec.Count()
	code, rep, errOut := runTriggerJSON(t, cfg, sc.Name, "--timeout", "30s")
	if code != ExitOK {
		t.Errorf("%s: exit %d: %s", sc.Name, code, errOut)
		return rep
	}
	want := sc.Expected(nil)
	slices.Sort(want)
	if got := eventTypesOf(rep.Arrived); !slices.Equal(got, want) || len(rep.Missing) != 0 {
		t.Errorf("%s: arrived %v, missing %v; want exactly %v", sc.Name, got, rep.Missing, want)
	}
	if got, sent := rec.Received(from), eventIDs(rep.Arrived); !slices.Equal(got, sent) {
		t.Errorf("%s: the receiver got %v, trigger waited for %v", sc.Name, got, sent)
	}
	if len(rep.Steps) != len(sc.Steps) {
		t.Errorf("%s: %d steps reported, want %d", sc.Name, len(rep.Steps), len(sc.Steps))
	}
	for _, s := range rep.Steps {
		if ids := scenario.Resources([]scenario.Result{s}, nil); len(ids) == 0 {
			t.Errorf("%s: step %s printed no id: %v", sc.Name, s.Step, s.Outputs)
		}
	}
	return rep
}

// TestTriggerEndorsedUserActsAfterwards: sandbox-user-endorsed runs end to
// end on an emulator of its own, and afterwards the CLI's sign-in reads as
// the new user.
func TestTriggerEndorsedUserActsAfterwards(t *testing.T) {
	t.Parallel()
	cfg, rec := triggerEmulator(t)
	all, err := scenario.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all, func(sc scenario.Scenario) bool { return sc.Name == "sandbox-user-endorsed" })
	if i < 0 || !endorses(all[i]) {
		t.Fatal("no built-in scenario sandbox-user-endorsed that endorses")
	}
	rep := runBuiltin(t, cfg, rec, all[i])
	if t.Failed() {
		return
	}
	created := rep.Steps[0].Outputs["sandboxUser.id"]
	if endorsed := rep.Steps[2].Outputs["sandboxUser.id"]; created == "" || endorsed != created {
		t.Fatalf("created %q, endorsed %q", created, endorsed)
	}
	code, out, errOut := runCLI(t, "api", "--config", cfg, "--jq", ".data.user.id", "{ user { id } }")
	if code != ExitOK || strings.TrimSpace(out) != created {
		t.Errorf("after the scenario the sign-in reads as %q (exit %d, %s), want the new user %s", out, code, errOut, created)
	}
}

// TestTriggerWrongExpectationExitsOne: waiting for an event the scenario
// does not cause ends at the timeout with exit 1, naming it; what did
// arrive is reported.
func TestTriggerWrongExpectationExitsOne(t *testing.T) {
	t.Parallel()
	cfg, _ := triggerEmulator(t)
	code, rep, errOut := runTriggerJSON(t, cfg, "transfer-received", "--expect", "Transaction.Pending,Transaction.Released", "--timeout", "1s")
	if code != ExitFailure {
		t.Fatalf("exit %d, want %d: %s", code, ExitFailure, errOut)
	}
	if !strings.Contains(errOut, "missing Transaction.Released") {
		t.Errorf("stderr does not name the missing event: %s", errOut)
	}
	if !slices.Equal(rep.Missing, []string{"Transaction.Released"}) || !slices.Contains(eventTypesOf(rep.Arrived), "Transaction.Pending") {
		t.Errorf("arrived %v, missing %v", rep.Arrived, rep.Missing)
	}
}

// TestTriggerFileRefersToAnEarlierStep: a user's scenario whose second
// step debits the authorization its first step made.
func TestTriggerFileRefersToAnEarlierStep(t *testing.T) {
	t.Parallel()
	cfg, _ := triggerEmulator(t)
	file := filepath.Join(t.TempDir(), "pay.toml")
	body := `name = "pay"
[[step]]
name = "authorize"
op = "simulateOutgoingCardAuthorization"
expect = ["Transaction.Pending"]
args = { cardId = "${card.id}", amount = { value = "3.30", currency = "${card.currency}" } }
[[step]]
name = "debit"
op = "simulateOutgoingCardDebit"
expect = ["Transaction.Booked", "Transaction.Released"]
args = { transactionId = "${authorize.transactionId}" }
`
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	code, rep, errOut := runTriggerJSON(t, cfg, "--file", file, "--timeout", "30s")
	if code != ExitOK || len(rep.Steps) != 2 {
		t.Fatalf("exit %d, steps %v: %s", code, rep.Steps, errOut)
	}
	auth := rep.Steps[0].Outputs["transactionId"]
	released := slices.ContainsFunc(rep.Arrived, func(e scenario.Event) bool { return e.Type == "Transaction.Released" && e.ResourceID == auth })
	if auth == "" || !released {
		t.Errorf("the debit did not release authorization %q: arrived %v", auth, rep.Arrived)
	}

	// A reference to a later step is refused before anything is sent.
	bad := strings.Replace(body, "${authorize.transactionId}", "${settle.transactionId}", 1)
	if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	code, rep, errOut = runTriggerJSON(t, cfg, "--file", file)
	if code != ExitUsage || !strings.Contains(errOut, "${settle.transactionId} refers to no earlier step") || len(rep.Steps) != 0 {
		t.Errorf("bad reference: exit %d, steps %v, stderr %q", code, rep.Steps, errOut)
	}
}

// TestTriggerOnAGivenTransaction: --transaction skips the step that would
// make it, and only the later steps' events are expected.
func TestTriggerOnAGivenTransaction(t *testing.T) {
	t.Parallel()
	cfg, _ := triggerEmulator(t)
	code, first, errOut := runTriggerJSON(t, cfg, "transfer-received", "--timeout", "30s")
	if code != ExitOK {
		t.Fatalf("transfer-received: exit %d: %s", code, errOut)
	}
	tx := first.Steps[0].Outputs["transactionId"]
	code, rep, errOut := runTriggerJSON(t, cfg, "transfer-returned", "--transaction", tx, "--timeout", "30s")
	if code != ExitOK {
		t.Fatalf("transfer-returned --transaction: exit %d: %s", code, errOut)
	}
	if !rep.Steps[0].Given || rep.Steps[0].Outputs["transactionId"] != tx || !slices.Equal(rep.Expected, []string{"Transaction.Booked", "Account.Updated"}) {
		t.Errorf("steps %+v, expected %v", rep.Steps, rep.Expected)
	}
}

// TestTriggerRefusals: Live is refused (exit 2) before anything is sent,
// as are an unknown scenario, event type or argument.
func TestTriggerRefusals(t *testing.T) {
	t.Parallel()
	cfg, _ := triggerEmulator(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--env", "live", "card-debited"}, "only the Sandbox has"},
		{[]string{"card-debitd"}, "did you mean card-debited"},
		{[]string{"card-debited", "--expect", "Transaction.Bookd"}, "Transaction.Booked"},
		{[]string{"card-declined", "--set", "bogus=1"}, "authorize.outcome"},
		{[]string{"sandbox-user", "--amount", "3"}, "takes no --amount"},
		{[]string{"sandbox-user", "--card", "x"}, "drop --card"},
		{[]string{}, "--list"},
	} {
		code, out, errOut := runCLI(t, append([]string{"trigger", "--config", cfg}, c.args...)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestTriggerListNamesEveryScenario: each built-in scenario is listed with
// what it does and the events it expects, and each is valid.
func TestTriggerListNamesEveryScenario(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "trigger", "--list")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	all, err := scenario.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	ops := trigger.Ops(nil, nil)
	for _, sc := range all {
		if !strings.Contains(out, sc.Name) || !strings.Contains(out, sc.Description) || !strings.Contains(out, strings.Join(sc.Expected(nil), ", ")) {
			t.Errorf("--list lacks %s:\n%s", sc.Name, out)
		}
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

// TestTriggerPicksThePendingDirectDebit: direct-debit-collected without
// --transaction books the project's latest Pending SepaDirectDebitIn,
// named on stderr, and booking it again is refused.
func TestTriggerPicksThePendingDirectDebit(t *testing.T) {
	t.Parallel()
	cfg, _ := triggerEmulator(t)
	code, rep, errOut := runTriggerJSON(t, cfg, "direct-debit-collected", "--timeout", "30s")
	if code != ExitOK || len(rep.Steps) != 1 {
		t.Fatalf("exit %d, steps %v: %s", code, rep.Steps, errOut)
	}
	booked := rep.Steps[0].Outputs["transactionId"]
	if !strings.Contains(errOut, "Using Pending SepaDirectDebitIn "+booked) {
		t.Errorf("stderr does not name the picked direct debit %s: %s", booked, errOut)
	}
	if !slices.ContainsFunc(rep.Arrived, func(e scenario.Event) bool { return e.Type == "Transaction.Booked" && e.ResourceID == booked }) {
		t.Errorf("no Transaction.Booked for %s: %v", booked, rep.Arrived)
	}
	code, _, errOut = runTriggerJSON(t, cfg, "direct-debit-collected", "--transaction", booked, "--timeout", "0")
	if code == ExitOK || !strings.Contains(errOut, "Booked") {
		t.Errorf("booking %s again: exit %d, stderr %s", booked, code, errOut)
	}
}

// TestTriggerSetValuesAreCheckedAgainstTheSchema: a --set value of an enum
// argument is checked against the Testing API's schema (read once by
// introspection, then cached, as `api` does) before any simulation is
// sent: one the enum does not have is a usage error with the values meant
// (or all of them when none is close); one in another case is the
// schema's value, and the run goes on.
func TestTriggerSetValuesAreCheckedAgainstTheSchema(t *testing.T) {
	t.Parallel()
	e, cfg, _ := triggerEmulatorOf(t)
	for _, c := range []struct {
		set, want string
	}{
		{"outcome=InsufficientFunds", "--set outcome=InsufficientFunds: not a value of CardAuthorizationOutcome, which takes Accepted, AccountClosed"},
		{"outcome=CardExpird", "--set outcome=CardExpird: not a value of CardAuthorizationOutcome: did you mean CardExpired?"},
		{"authorize.outcome=DoNotHonour", "did you mean DoNotHonor?"},
	} {
		code, out, errOut := runCLI(t, "trigger", "--config", cfg, "card-declined", "--set", c.set)
		if code != ExitUsage || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("--set %s: exit %d, stdout %q, stderr %q; want 2 and %q", c.set, code, out, errOut, c.want)
		}
	}
	for _, op := range e.Log.Operations(t) {
		if strings.Contains(strings.ToLower(op), "simulate") {
			t.Errorf("a refused run sent %s", op)
		}
	}
	code, rep, errOut := runTriggerJSON(t, cfg, "card-declined", "--set", "outcome=cardexpired", "--timeout", "30s")
	if code != ExitOK || len(rep.Missing) != 0 || !slices.Equal(eventTypesOf(rep.Arrived), []string{"Transaction.Rejected"}) {
		t.Errorf("--set outcome=cardexpired: exit %d, report %+v, stderr %q", code, rep, errOut)
	}
	if n := count(e.Log.Operations(t), "PartnertuiIntrospection"); n != 1 {
		t.Errorf("the Testing API's schema was read %d times over four runs, want once (then cached)", n)
	}
}
