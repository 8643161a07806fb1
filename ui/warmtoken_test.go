package ui

import (
	"errors"
	"testing"
)

// The launch, and a switch of environment, fetch the environment's project
// token once, so the Events view's first read is its only request; a
// failure there is the Events view's to show, not the launch's.
func TestLaunchFetchesTheProjectTokenAhead(t *testing.T) {
	t.Parallel()
	warmedBeforeHome := -1
	d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, func(d *driver) {
		d.sbx.onHome = func() { warmedBeforeHome = d.sbxP.warmed() }
	})
	// After the first screen's answer, not beside its request.
	if warmedBeforeHome != 0 {
		t.Fatalf("the project token was fetched %d times before the first screen's request, want 0", warmedBeforeHome)
	}
	if got := d.sbxP.warmed(); got != 1 {
		t.Fatalf("the launch fetched the Sandbox project token %d times, want 1", got)
	}
	if got := d.liveP.warmed(); got != 0 {
		t.Fatalf("the launch fetched the Live project token %d times, want 0 (Live is not open)", got)
	}
	d.press("E")
	d.wantScreen(TextEvents)
	if got, reads := d.sbxP.warmed(), d.sbxP.requests(); got != 1 || reads != 1 {
		t.Fatalf("E: %d token fetches ahead and %d event log reads, want 1 and 1", got, reads)
	}

	// Switching to Live fetches Live's (a token kept is no request).
	d.press("e", "y")
	d.wantScreen("LIVE")
	if got := d.liveP.warmed(); got != 1 {
		t.Fatalf("the switch to Live fetched its project token %d times, want 1", got)
	}

	// Not signed in: the token is still fetched ahead for the Events view.
	d = newDriver(t, fixture{rows: 3})
	d.wantScreen(TextSignIn)
	if got := d.sbxP.warmed(); got != 1 {
		t.Fatalf("signed out, the launch fetched the project token %d times, want 1", got)
	}

	// No project client: nothing to fetch, nothing breaks.
	d = newDriver(t, fixture{rows: 3, signedIn: true, noEvents: true})
	d.wantScreen("row 1 of")

	// A refused token does not stop the launch.
	d = newDriverWith(t, fixture{rows: 3, signedIn: true}, func(d *driver) { d.sbxP.err = errors.New("invalid_client") })
	d.wantScreen("row 1 of")
	if got := d.sbxP.warmed(); got != 1 {
		t.Fatalf("the refused fetch ran %d times, want 1", got)
	}
}
