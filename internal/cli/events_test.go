package cli

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/platform"
)

// TestEventsTypeIsChecked: an event type the platform does not know is a
// usage error, before anything is sent, that names the closest known ones.
func TestEventsTypeIsChecked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typ, want string }{
		{"Transaction.Booke", "did you mean Transaction.Booked?"},
		{"transaction.booked", "did you mean Transaction.Booked?"},
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
