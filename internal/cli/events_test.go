package cli

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testkit/webhooktest"
)

// TestEventsTypeIsChecked: an event type the platform does not know is a
// usage error, before anything is sent, that names the closest known ones.
func TestEventsTypeIsChecked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typ, want string }{
		{"Transaction.Booke", "did you mean Transaction.Booked?"},
		{"transaction.bookd", "did you mean Transaction.Booked?"},
		{"Acount.Updated", "did you mean Account.Updated"},
		{"Transaction", "Transaction.Booked"},
		{"Nonsense", "Resource.Event, such as Transaction.Booked"},
	} {
		code, out, errOut := runCLI(t, "events", "--type", "Account.Updated", "--type", c.typ)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, `"`+c.typ+`"`) {
			t.Errorf("--type %s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.typ, code, out, errOut, ExitUsage, c.want)
		}
	}
}

// TestEventsKnowsThePlatformsTypes: every type the emulator's
// webhookEventTypes lists is one events --type accepts, and a known type
// lists the log.
func TestEventsKnowsThePlatformsTypes(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{})
	types, err := projectClient(t, e).WebhookEventTypes(context.Background())
	if err != nil || len(types) == 0 {
		t.Fatalf("webhookEventTypes: %v %v", types, err)
	}
	for _, typ := range types {
		if !slices.Contains(platform.WebhookEventTypes(), typ) {
			t.Errorf("the platform's event type %s is unknown to events --type", typ)
		}
	}
	if code, _, errOut := runCLI(t, "events", "--type", "Transaction.Booked", "--json", "--config", cfg); code != ExitOK {
		t.Errorf("--type Transaction.Booked: exit %d: %s", code, errOut)
	}
}

// TestEventTablesReadAtAGlance: the event log's dates have their seconds;
// a subscription to every event type reads "all N", one to many a count,
// one to a few its types, each on one short row.
func TestEventTablesReadAtAGlance(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e, cfg := startEmulator(t, home, "project", emulator.Options{})
	project := projectClient(t, e)
	all := platform.WebhookEventTypes()
	for label, types := range map[string][]string{"every": all, "many": all[:10], "few": {"Transaction.Booked", "Account.Updated"}} {
		if _, err := project.AddWebhookSubscription(context.Background(), api.WebhookSubscriptionInput{Label: label,
			Endpoint: "https://partnertui.invalid/" + label, EventTypes: types}); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "subscriptions", "--config", cfg)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for label, want := range map[string]string{"every": fmt.Sprintf("all %d", len(all)), "many": "10 types", "few": "Transaction.Booked, Account.Updated"} {
		row := ""
		for line := range strings.Lines(out) {
			if strings.Contains(line, "invalid/"+label) {
				row = line
			}
		}
		if !strings.HasSuffix(strings.TrimSpace(row), want) || len(row) > 200 {
			t.Errorf("subscription %s: row %q, want it to end with %q", label, row, want)
		}
	}
	w := webhooktest.WorldOf(t, e)
	w.Transfer(t)
	w.WaitLogged(t, api.WebhookEventLogsParams{}, 1)
	code, out, errOut = runCLI(t, "events", "--config", cfg, "--first", "5")
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitOK || len(rows) < 2 {
		t.Fatalf("events: exit %d, %q: %s", code, out, errOut)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC `).MatchString(rows[1]) {
		t.Errorf("events' first row %q: want its date to the second", rows[1])
	}
}
