package trigger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/remedy"
	"github.com/partnertui/partnertui/internal/scenario"
	"github.com/partnertui/partnertui/internal/usage"
)

// Bounds of the search for a suitable account (pages) or card (one page)
// when none is given.
const (
	pickPages = 5
	pickCards = 20
)

// resolve finds the objects the scenario's steps refer to: those the
// command line names, else the first suitable ones, said on stderr.
func (r *run) resolve(ctx context.Context) (scenario.Objects, error) {
	objs := r.opts.Given()
	if id := r.opts.Transaction; id != "" {
		// Transactions by id belong to the project.
		tx, err := r.env.ProjectAPI.Transaction(ctx, id)
		if err != nil {
			return nil, err
		}
		objs[scenario.Transaction] = map[string]string{"id": tx.ID}
		if tx.Account != nil {
			objs[scenario.Transaction]["accountId"] = tx.Account.ID
		}
	}
	for _, kind := range r.sc.Needs(objs) {
		var err error
		switch kind {
		case scenario.Account:
			objs[kind], err = r.account(ctx, r.sc.AccountCurrency(r.Ops(), objs))
		case scenario.Card:
			objs[kind], err = r.card(ctx)
		case scenario.Transaction:
			switch {
			case objs[kind] != nil:
			case r.sc.Pick != nil:
				objs[kind], err = r.transaction(ctx, *r.sc.Pick)
			default:
				err = usage.Errorf("%s runs on an existing transaction: pass --transaction ID (`partnertui transactions` lists them)", r.sc.Name)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return objs, nil
}

// transaction is the project's latest transaction of the pick's type and
// status.
func (r *run) transaction(ctx context.Context, pick scenario.TransactionPick) (map[string]string, error) {
	page, err := r.env.ProjectAPI.TransactionList(ctx, api.TransactionsParams{First: 1, Status: []string{pick.Status}, Type: []string{pick.Type}})
	if err != nil {
		return nil, err
	}
	if len(page.Items) == 0 {
		return nil, usage.Errorf("the project has no %s %s transaction for %s: pass --transaction ID", pick.Status, pick.Type, r.sc.Name)
	}
	tx := &page.Items[0]
	obj := map[string]string{"id": tx.ID}
	where := ""
	if tx.Account != nil {
		obj["accountId"] = tx.Account.ID
		where = " of account " + tx.Account.ID
	}
	fmt.Fprintf(r.out.Err, "Using %s %s %s%s; --transaction ID picks another.\n", pick.Status, pick.Type, tx.ID, where)
	return obj, nil
}

func accountObject(a *api.Account) map[string]string {
	return map[string]string{"id": a.ID, "iban": a.IBAN, "name": a.Name, "holder": a.Holder.Info.Name, "currency": a.Currency}
}

// account is --account's, else the first Opened account with an IBAN, in
// currency when the steps need one (a SEPA transfer's account is in euros).
func (r *run) account(ctx context.Context, currency string) (map[string]string, error) {
	if r.opts.Account != "" {
		a, err := r.env.API.Account(ctx, r.opts.Account)
		if err != nil {
			return nil, err
		}
		if currency != "" && a.Currency != currency {
			return nil, usage.Errorf("account %s (%s) holds %s, but %s moves money by SEPA, in %s only: pass the id of an account in %s (`partnertui accounts` shows each one's currency)",
				a.Name, a.ID, a.Currency, r.sc.Name, currency, currency)
		}
		return accountObject(a), nil
	}
	var found *api.Account
	pages := 0
	stop := errors.New("found")
	err := api.Walk(ctx, api.Pages(r.env.API.Accounts, api.AccountsQuery("")), func(p *api.Page[api.Account]) error {
		for i := range p.Items {
			if a := &p.Items[i]; a.StatusInfo.Status == "Opened" && a.IBAN != "" && (currency == "" || a.Currency == currency) {
				found = a
				return stop
			}
		}
		if pages++; pages == pickPages {
			return stop
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return nil, err
	}
	in := ""
	if currency != "" {
		in = " in " + currency
	}
	if found == nil {
		return nil, usage.Errorf("none of your first accounts is Opened%s with an IBAN: pass --account ID", in)
	}
	fmt.Fprintf(r.out.Err, "Using account %s (%s)%s; --account ID picks another.\n", found.Name, found.ID, in)
	return accountObject(found), nil
}

// card is --card's, else the first Enabled card of an Opened account; a
// card's object carries its account's id and currency.
func (r *run) card(ctx context.Context) (map[string]string, error) {
	if r.opts.Card != "" {
		c, err := r.env.API.Card(ctx, r.opts.Card)
		if err != nil {
			return nil, err
		}
		if c.AccountMembership == nil {
			return nil, usage.Errorf("card %s has no account membership to pay from: pass another --card", c.ID)
		}
		a, err := r.env.API.Account(ctx, c.AccountMembership.AccountID)
		if err != nil {
			return nil, err
		}
		return map[string]string{"id": c.ID, "accountId": a.ID, "currency": a.Currency}, nil
	}
	cards, err := r.env.API.Cards(ctx, api.CardsParams{First: pickCards, Statuses: []string{"Enabled"}, OrderBy: "createdAt", Direction: api.DirectionDesc})
	if err != nil {
		return nil, err
	}
	for _, c := range cards.Items {
		if c.AccountMembership == nil {
			continue
		}
		a, err := r.env.API.Account(ctx, c.AccountMembership.AccountID)
		if err != nil || a.StatusInfo.Status != "Opened" {
			continue
		}
		fmt.Fprintf(r.out.Err, "Using card %s (%s) of account %s; --card ID picks another.\n", c.CardMaskedNumber, c.ID, a.Name)
		return map[string]string{"id": c.ID, "accountId": a.ID, "currency": a.Currency}, nil
	}
	return nil, usage.Errorf("none of your first %d Enabled cards pays from an Opened account: pass --card ID", len(cards.Items))
}

// NoSubscriptionForError reports expected event types that no enabled
// webhook subscription receives: the platform logs deliveries only, so
// the log would never show them.
type NoSubscriptionForError struct {
	Env   string
	Types []string
}

func (e *NoSubscriptionForError) Error() string {
	return fmt.Sprintf("no enabled webhook subscription of the %s project receives %s, so the event log will never show it: "+
		"run `partnertui listen --create --forward-to URL` alongside, or pass --timeout 0 to run without waiting",
		e.Env, strings.Join(e.Types, ", "))
}

// Remedy is none: the sentence itself says what to do.
func (e *NoSubscriptionForError) Remedy() remedy.Remedy { return remedy.Remedy{Kind: remedy.None} }

// checkSubscriptions fails when an expected type has no enabled
// subscription: waiting for it could only time out.
func (r *run) checkSubscriptions(ctx context.Context) error {
	covered := map[string]bool{}
	err := api.Walk(ctx, api.Pages(r.env.ProjectAPI.WebhookSubscriptions, api.WebhookSubscriptionsParams{}),
		func(p *api.Page[api.WebhookSubscription]) error {
			for _, s := range p.Items {
				if s.StatusInfo.Status == "Enabled" {
					for _, t := range s.EventTypes {
						covered[t] = true
					}
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	var lacking []string
	for _, t := range r.expect {
		if !covered[t] && !slices.Contains(lacking, t) {
			lacking = append(lacking, t)
		}
	}
	if len(lacking) > 0 {
		return &NoSubscriptionForError{Env: r.env.Name, Types: lacking}
	}
	return nil
}

// read is every event the log shows since since, newest first.
func (r *run) read(ctx context.Context, since time.Time) ([]api.WebhookEventLog, error) {
	var out []api.WebhookEventLog
	p := api.WebhookEventLogsParams{StartDate: since}
	err := api.Walk(ctx, api.Pages(r.env.ProjectAPI.WebhookEventLogs, p), func(page *api.Page[api.WebhookEventLog]) error {
		out = append(out, page.Items...)
		return nil
	})
	return out, err
}

// history is the set of events the log held before the run: none of
// them is the run's.
func (r *run) history(ctx context.Context, since time.Time) (map[string]bool, error) {
	logs, err := r.read(ctx, since)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(logs))
	for _, l := range logs {
		seen[l.EventID] = true
	}
	return seen, nil
}

// wait reads the log every interval until every expected event of the
// run's resources is there, or the timeout; it says so on stderr first,
// and on a terminal counts down.
func (r *run) wait(ctx context.Context, since time.Time, before map[string]bool) error {
	resources := scenario.Resources(r.results, r.objects)
	fmt.Fprintf(r.out.Err, "Waiting up to %s for %d events in the %s event log (%s), reading it every %s.\n",
		r.opts.Timeout, len(r.expect), r.env.Name, strings.Join(r.expect, ", "), r.opts.Interval)
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	deadline := time.Now().Add(r.opts.Timeout)
	progress := r.out.Progress
	defer progress.Clear()
	t := time.NewTicker(r.opts.Interval)
	defer t.Stop()
	shown := 0
	for {
		logs, err := r.read(ctx, since)
		switch {
		case err == nil:
			var events []scenario.Event
			for _, l := range slices.Backward(logs) {
				if !before[l.EventID] && slices.Contains(resources, l.ResourceID) {
					events = append(events, scenario.Event{ID: l.EventID, Type: l.EventType, ResourceID: l.ResourceID})
				}
			}
			r.verdict = scenario.Match(r.expect, events)
			shown = r.printEvents(shown)
			if r.verdict.Met() {
				return nil
			}
		case ctx.Err() == nil:
			fmt.Fprintf(r.out.Err, "could not read the event log: %s\n", remedy.Sentence(err))
		}
		progress.Set(fmt.Sprintf("waiting for %s · %s left", strings.Join(r.verdict.Missing, ", "), left(time.Until(deadline))))
		select {
		case <-ctx.Done():
			if r.verdict.Missing == nil {
				r.verdict = scenario.Match(r.expect, nil)
			}
			return nil
		case <-t.C:
		}
	}
}

// printStep writes what one step did (not with --json, which writes the
// whole run at the end).
func (r *run) printStep(res scenario.Result) {
	if r.opts.JSON {
		return
	}
	keys := make([]string, 0, len(res.Outputs))
	for k := range res.Outputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var outs []string
	for _, k := range keys {
		if res.Outputs[k] != "" {
			outs = append(outs, k+"="+res.Outputs[k])
		}
	}
	if res.Given {
		outs = append(outs, "(given)")
	}
	fmt.Fprintf(r.out.Out, "%-10s %-46s %s\n", res.Step, res.Op, strings.Join(outs, " "))
}

// printEvents writes the events that arrived since the first shown.
func (r *run) printEvents(shown int) int {
	if r.opts.JSON {
		return shown
	}
	for _, e := range r.verdict.Arrived[shown:] {
		fmt.Fprintf(r.out.Out, "%-10s %-46s %s %s\n", "event", e.Type, e.ResourceID, e.ID)
	}
	return len(r.verdict.Arrived)
}

// Report is a run as --json writes it.
type Report struct {
	Scenario string            `json:"scenario"`
	Env      string            `json:"env"`
	Objects  scenario.Objects  `json:"objects"`
	Steps    []scenario.Result `json:"steps"`
	Expected []string          `json:"expected"`
	Waited   bool              `json:"waited"`
	Arrived  []scenario.Event  `json:"arrived"`
	Missing  []string          `json:"missing"`
}

// report ends the run: the JSON object with --json, and the verdict.
func (r *run) report() error {
	if r.opts.JSON {
		rep := Report{Scenario: r.sc.Name, Env: r.env.Name, Objects: r.objects, Steps: r.results,
			Expected: r.expect, Waited: r.waits(), Arrived: r.verdict.Arrived, Missing: r.verdict.Missing}
		if rep.Steps == nil {
			rep.Steps = []scenario.Result{}
		}
		if rep.Arrived == nil {
			rep.Arrived, rep.Missing = []scenario.Event{}, []string{}
		}
		enc := json.NewEncoder(r.out.Out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("could not write the JSON output: %w", err)
		}
	}
	if !r.waits() || len(r.results) < len(r.sc.Steps) {
		return nil
	}
	if !r.verdict.Met() {
		return &MissingEventsError{Missing: r.verdict.Missing, Expect: len(r.expect), Timeout: r.opts.Timeout}
	}
	fmt.Fprintf(r.out.Err, "All %d expected events arrived.\n", len(r.expect))
	return nil
}
