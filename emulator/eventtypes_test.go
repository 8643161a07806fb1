package emulator

import (
	"slices"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/webhooks"
	"github.com/partnertui/partnertui/internal/platform"
)

// TestEventTypesMatchTheClients: the emulator's webhookEventTypes and the
// client's list of the platform's event types are the same set, checked
// both ways, so neither side can drift from the other again. The two lists
// stay separate facts (the emulator shares no code with the client); this
// test is the only place that reads both.
func TestEventTypesMatchTheClients(t *testing.T) {
	t.Parallel()
	emu, client := webhooks.EventTypes(), platform.WebhookEventTypes()
	for _, typ := range client {
		if !slices.Contains(emu, typ) {
			t.Errorf("the client knows %s, which the emulator's webhookEventTypes lacks", typ)
		}
	}
	for _, typ := range emu {
		if !slices.Contains(client, typ) {
			t.Errorf("the emulator lists %s, which the client's platform.WebhookEventTypes lacks", typ)
		}
	}
	for name, list := range map[string][]string{"emulator": emu, "client": client} {
		sorted := slices.Sorted(slices.Values(list))
		if len(slices.Compact(sorted)) != len(list) {
			t.Errorf("the %s lists an event type twice", name)
		}
	}
}
