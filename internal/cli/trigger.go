package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/apicall"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/listen"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/scenario"
	"github.com/partnertui/partnertui/internal/suggest"
	"github.com/partnertui/partnertui/internal/trigger"
)

// TriggerOptions are `partnertui trigger`'s flags: the engine's options,
// and what the command line applies to the scenario.
type TriggerOptions struct {
	trigger.Options
	IO     IO
	List   bool
	File   string
	Amount string
	Set    []string
	Expect []string

	expectSet bool // --expect was given, even empty
}

// triggerTimeout is --timeout's default.
const triggerTimeout = time.Minute

// NewCmdTrigger runs a Sandbox scenario: simulations of the Testing API
// chained, then a wait until the event log shows the webhooks they cause.
func NewCmdTrigger(f *Factory) *cobra.Command {
	opts := &TriggerOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "trigger [NAME | --file scenario.toml | --list]",
		Short: "Run a Sandbox scenario (card payment, transfer, user…) and wait for its webhook events",
		Long: "Runs a chain of Testing API simulations on existing Sandbox objects, prints each created\n" +
			"resource's id, then waits up to --timeout until the webhook event log shows every event the\n" +
			"scenario expects for them, in any order. Exit 0 when all arrived, 1 naming what is missing.\n" +
			"Without --account or --card the first suitable one is used, and named. --file runs your own\n" +
			"chain (TOML; a step refers to an earlier one's output as ${step.transactionId}). The log is\n" +
			"read with the project's token. Sandbox only.",
		Example: "  partnertui trigger --list\n  partnertui trigger card-debited --card 3f2c… --amount 42.00\n" +
			"  partnertui trigger transfer-returned --transaction bosci_… --json\n" +
			"  partnertui trigger card-declined --set outcome=CardExpired --expect Transaction.Rejected\n" +
			"  partnertui trigger --file refund.toml --timeout 2m",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.expectSet = cmd.Flags().Changed("expect")
			if opts.List {
				if len(args) > 0 || opts.File != "" {
					return usageErrorf("--list takes no scenario name and no --file")
				}
				return listScenarios(opts)
			}
			sc, err := loadScenario(opts, args)
			if err != nil {
				return err
			}
			return runTrigger(cmd.Context(), f, opts, sc)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.List, "list", false, "list the built-in scenarios, what each does and the events it expects")
	fl.StringVar(&opts.File, "file", "", "run the scenario of this TOML `file` instead of a built-in one")
	fl.StringVar(&opts.Account, "account", "", "run on this account (`id`; default: your first Opened account with an IBAN, in EUR for a SEPA scenario)")
	fl.StringVar(&opts.Card, "card", "", "run on this card (`id`; default: your first Enabled card of an Opened account)")
	fl.StringVar(&opts.Transaction, "transaction", "", "start from this existing transaction (`id`) instead of creating one")
	fl.StringVar(&opts.Amount, "amount", "", "the scenario's `amount`, such as 42.00")
	fl.StringArrayVar(&opts.Set, "set", nil, "set a step's argument (`[step.]field=value`, repeatable), e.g. outcome=CardExpired; checked against the schema")
	fl.StringSliceVar(&opts.Expect, "expect", nil, "wait for these event `types` instead of the scenario's (comma-separated; a type twice for two events)")
	fl.DurationVar(&opts.Timeout, "timeout", triggerTimeout, "how long to wait for the events (`duration`; 0 does not wait)")
	fl.BoolVar(&opts.JSON, "json", false, "write the run (steps, ids, events arrived and missing) as one JSON object")
	fl.DurationVar(&opts.Interval, "interval", listen.DefaultInterval, "time between two reads of the event log (`duration`)")
	_ = fl.MarkHidden("interval")
	completeChoices(cmd, "expect", platform.WebhookEventTypes())
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		all, _ := scenario.Builtins()
		var names []string
		for _, sc := range all {
			names = append(names, sc.Name+"\t"+sc.Description)
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
	return f.withSession(cmd, true)
}

// listScenarios writes each built-in scenario: its name, what it does and
// the events it expects.
func listScenarios(opts *TriggerOptions) error {
	all, err := scenario.Builtins()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	for _, sc := range all {
		fmt.Fprintf(tw, "%s\t%s\n\texpects %s\n", sc.Name, sc.Description, strings.Join(sc.Expected(nil), ", "))
	}
	return tw.Flush()
}

// loadScenario is the built-in scenario named by args, or --file's.
func loadScenario(opts *TriggerOptions, args []string) (scenario.Scenario, error) {
	switch {
	case opts.File != "" && len(args) > 0:
		return scenario.Scenario{}, usageErrorf("give a scenario name or --file, not both")
	case opts.File != "":
		data, err := readScenarioFile(opts.File)
		if err != nil {
			return scenario.Scenario{}, err
		}
		sc, err := scenario.Parse(opts.File, data)
		if err != nil {
			return scenario.Scenario{}, &UsageError{Err: err}
		}
		return sc, nil
	case len(args) == 0:
		return scenario.Scenario{}, usageErrorf("trigger needs a scenario name or --file: `partnertui trigger --list` names them")
	}
	all, err := scenario.Builtins()
	if err != nil {
		return scenario.Scenario{}, err
	}
	var names []string
	for _, sc := range all {
		if sc.Name == args[0] {
			return sc, nil
		}
		names = append(names, sc.Name)
	}
	if near := suggest.Closest(args[0], names, 3); len(near) > 0 {
		return scenario.Scenario{}, usageErrorf("no scenario is named %q: did you mean %s?", args[0], suggest.JoinOr(near))
	}
	return scenario.Scenario{}, usageErrorf("no scenario is named %q: `partnertui trigger --list` names them", args[0])
}

// maxScenarioFile bounds what is read of --file: a scenario is a few lines.
const maxScenarioFile = 1 << 20

// readScenarioFile reads a regular file of at most maxScenarioFile bytes.
func readScenarioFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("--file: %w", err)}
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxScenarioFile {
		return nil, usageErrorf("--file %s is not a scenario: a regular TOML file of at most 1 MiB", path)
	}
	return os.ReadFile(path)
}

// prepare applies the command line to sc and checks the result, so that
// nothing is sent for a run that cannot end: --set, --amount, the
// operations, the expected events, the objects given but not used. A
// payment's consent returns the browser to the page returnTo serves
// (${consentRedirect}), asked for only when a step names it.
func prepare(opts *TriggerOptions, sc scenario.Scenario, ops scenario.Ops, returnTo func() (string, error)) (scenario.Scenario, []string, error) {
	sc = sc.At(time.Now())
	if sc.Refers(scenario.ConsentRedirect) {
		url, err := returnTo()
		if err != nil {
			return sc, nil, err
		}
		sc = sc.With(scenario.ConsentRedirect, url)
	}
	sc, err := sc.Set(opts.Set, ops)
	if err != nil {
		return sc, nil, &UsageError{Err: err}
	}
	if opts.Amount != "" {
		if _, ok := sc.Vars["amount"]; !ok {
			return sc, nil, usageErrorf("%s takes no --amount", sc.Name)
		}
		sc.Vars["amount"] = opts.Amount
	}
	if err := sc.Check(ops); err != nil {
		return sc, nil, &UsageError{Err: err}
	}
	given := opts.Given()
	expect := sc.Expected(given)
	if opts.expectSet {
		expect = opts.Expect
	}
	if err := foldEventTypes("--expect", expect); err != nil {
		return sc, nil, err
	}
	needs := sc.Needs(given)
	for kind, id := range map[string]string{scenario.Account: opts.Account, scenario.Card: opts.Card} {
		if id != "" && !slices.Contains(needs, kind) {
			return sc, nil, usageErrorf("%s runs on no %s: drop --%s", sc.Name, kind, kind)
		}
	}
	if opts.Transaction != "" && !slices.Contains(sc.Givens(), scenario.Transaction) && !slices.Contains(needs, scenario.Transaction) {
		return sc, nil, usageErrorf("%s cannot start from an existing transaction: drop --transaction", sc.Name)
	}
	return sc, expect, nil
}

// checkValues checks the values the steps give against the schemas of the
// endpoints that serve them, as `partnertui api` checks an operation
// (cached, else read by introspection), before anything is sent: an enum
// value --set mistyped is a usage error with the values meant.
func checkValues(ctx context.Context, f *Factory, e *app.Env, opts *TriggerOptions, sc scenario.Scenario) (scenario.Scenario, error) {
	target := apicall.Env{Name: e.Name, API: e.API, Schemas: f.schemaCache()}
	var schemas trigger.Schemas
	var note string
	var err error
	if schemas.Testing, note, err = apicall.EndpointSchema(ctx, target, true); err != nil {
		return sc, err
	}
	partner := slices.ContainsFunc(sc.Steps, func(s scenario.Step) bool {
		return schemas.Testing == nil || schemas.Testing.Mutation == nil || schemas.Testing.Mutation.Fields.ForName(s.Op) == nil
	})
	if partner && note == "" {
		if schemas.Partner, note, err = apicall.EndpointSchema(ctx, target, false); err != nil {
			return sc, err
		}
	}
	if note != "" {
		fmt.Fprintln(f.IO.Err, "note: the scenario's values were not checked before they were sent:", safetext.Strip(note))
	}
	return trigger.CheckValues(sc, schemas, opts.Set)
}

// liveRefused is the usage error of trigger outside the Sandbox: Live has
// no Testing API, and nothing may be simulated there.
func liveRefused(env config.EnvName) error {
	return usageErrorf("trigger runs the Testing API's simulations, which only the Sandbox has; %s has none: use --env sandbox", env)
}

func runTrigger(ctx context.Context, f *Factory, opts *TriggerOptions, sc scenario.Scenario) error {
	name, err := f.envName()
	if err != nil {
		return err
	}
	if name != config.Sandbox {
		return liveRefused(name)
	}
	e, err := f.Env(ctx)
	if err != nil {
		return err
	}
	tr := trigger.New(opts.Options, trigger.Env{Name: string(e.Name), API: e.API, ProjectAPI: e.ProjectAPI},
		trigger.Output{Out: f.IO.Out, Err: f.IO.Err, Terminal: f.IO.ErrIsTerminal(), Progress: f.progressLine()})
	sc, expect, err := prepare(opts, sc, tr.Ops(), f.App().ConsentRedirect)
	if err != nil {
		return err
	}
	if sc, err = checkValues(ctx, f, e, opts, sc); err != nil {
		return err
	}
	return tr.Run(ctx, sc, expect)
}
