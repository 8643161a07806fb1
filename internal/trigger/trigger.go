// Package trigger runs a Sandbox scenario (internal/scenario) against an
// environment: `partnertui trigger`. It binds the scenario's operations to
// the environment's API client (the Testing API's simulations, and the
// payments of the partner API, waiting for a consent the user gives by
// hand), finds the objects the steps need when none is named, runs the
// steps, then reads the webhook event log until every event the scenario
// expects of the resources it made has arrived, or the timeout. The
// command line maps its flags to Options and applies them to the
// scenario; a mistake found while running is a *usage.Error.
package trigger

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/scenario"
)

// Options are a run's, as the command line gives them.
type Options struct {
	Account     string // run on this account; "" picks the first suitable one
	Card        string // run on this card; "" picks the first suitable one
	Transaction string // start from this existing transaction instead of making one
	// Timeout is how long the run waits for its events (and for a
	// payment's consent); 0 does not wait.
	Timeout time.Duration
	// Interval is the time between two reads of the event log (or of a
	// payment waiting for its consent).
	Interval time.Duration
	// JSON writes the whole run as one JSON object at its end instead of
	// a line per step and event.
	JSON bool
}

// Given are the objects the options give instead of steps.
func (o Options) Given() scenario.Objects {
	if o.Transaction == "" {
		return scenario.Objects{}
	}
	return scenario.Objects{scenario.Transaction: {"id": o.Transaction}}
}

// Env is the environment a run works on.
type Env struct {
	Name string
	// API runs the steps and reads the accounts and cards a run picks:
	// the user's client, or the project's with a project token.
	API *api.Client
	// ProjectAPI reads the event log, the subscriptions and transactions
	// by id, which belong to the project.
	ProjectAPI *api.Client
}

// Output is where a run writes: what each step made and each event that
// arrived (or the JSON report) on Out, everything else on Err.
type Output struct {
	Out io.Writer
	Err io.Writer
	// Terminal: Err is a terminal, where a consent's URL is also drawn as
	// a QR code to finish on a phone.
	Terminal bool
	// Progress is the line of Err where waits count down; nil shows none.
	Progress Progress
}

// Progress is a line that says what a command waits for, rewritten in
// place.
type Progress interface {
	Set(text string)
	Clear()
}

// Trigger runs scenarios on one environment.
type Trigger struct {
	opts Options
	env  Env
	out  Output
}

// New is a Trigger of opts on env, writing to out.
func New(opts Options, env Env, out Output) *Trigger {
	if out.Progress == nil {
		out.Progress = noProgress{}
	}
	return &Trigger{opts: opts, env: env, out: out}
}

type noProgress struct{}

func (noProgress) Set(string) {}
func (noProgress) Clear()     {}

// Ops are the operations a scenario's steps may run on the environment,
// a payment left waiting for the user's consent waited for (within the
// timeout).
func (tr *Trigger) Ops() scenario.Ops { return Ops(tr.env.API, tr.consentWaiter()) }

// Run runs sc, prepared by the command line, and waits for the events of
// expect. It fails with a *MissingEventsError when some have not arrived
// at the timeout.
func (tr *Trigger) Run(ctx context.Context, sc scenario.Scenario, expect []string) error {
	r := &run{Trigger: tr, sc: sc, expect: expect}
	var err error
	if r.objects, err = r.resolve(ctx); err != nil {
		return err
	}
	var before map[string]bool
	start := time.Now()
	if r.waits() {
		if err := r.checkSubscriptions(ctx); err != nil {
			return err
		}
		if before, err = r.history(ctx, start.Add(-lookBack)); err != nil {
			return err
		}
	}
	r.results, err = scenario.Run(ctx, sc, tr.Ops(), r.objects, r.printStep)
	if err != nil {
		r.report()
		return err
	}
	if r.waits() {
		if err := r.wait(ctx, start.Add(-lookBack), before); err != nil {
			return err
		}
	}
	return r.report()
}

// lookBack is how far before the run the event log is read: what it held
// then is history, so the server's clock may be this far behind ours
// without an event of the run being missed.
const lookBack = 10 * time.Minute

// run is one run's state.
type run struct {
	*Trigger
	sc      scenario.Scenario
	expect  []string
	objects scenario.Objects
	results []scenario.Result
	verdict scenario.Verdict
}

// waits reports whether the run waits for events.
func (r *run) waits() bool { return r.opts.Timeout > 0 && len(r.expect) > 0 }

// MissingEventsError reports that the event log lacks expected events
// when the wait ends.
type MissingEventsError struct {
	Missing []string
	Expect  int
	Timeout time.Duration
}

func (e *MissingEventsError) Error() string {
	return fmt.Sprintf("after %s the event log shows %d of the %d expected events, missing %s: wait longer with --timeout, or compare --expect with what the scenario causes (`partnertui trigger --list`)",
		e.Timeout, e.Expect-len(e.Missing), e.Expect, strings.Join(e.Missing, ", "))
}

// left is a wait's time left as the progress line shows it: to the
// second, never below one.
func left(d time.Duration) time.Duration { return max(d.Round(time.Second), time.Second) }
