package ui

import (
	"context"
	"testing"

	"github.com/partnertui/partnertui/config"
)

// The command line sends the first screen's request before the program
// starts (Prefetch): the account list shows that answer and does not ask
// again, and a session that is not signed in still leads to the sign-in.
func TestPrefetchedFirstScreenIsTheOnlyRequest(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, prefetch: true})
	d.wantScreen("row 1 of 3")
	if got := len(d.sbx.homes); got != 1 {
		t.Fatalf("%d first-screen requests, want 1 (the prefetched one)", got)
	}

	// r asks again: the prefetched answer is taken once.
	d.press("r")
	d.wantScreen("row 1 of 3")
	if got := len(d.sbx.homes) + len(d.sbx.calls); got != 2 {
		t.Fatalf("after r, %d requests in all, want 2", got)
	}

	d = newDriver(t, fixture{rows: 3, prefetch: true})
	d.wantScreen(TextSignIn)
	if got := len(d.sbx.homes); got != 0 {
		t.Fatalf("signed out, %d first-screen requests were sent, want 0", got)
	}
}

// Prefetch and New change nothing in the environments they are given: the
// answer goes to the UI through Options.FirstScreen, and the UI names its
// own copy of an environment after its key.
func TestPrefetchAndNewLeaveTheCallersEnvironmentAlone(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(3)
	e := &Environment{ClientID: "SANDBOX_test", API: api, Session: &fakeSession{t: t, signedIn: true}}
	first := Prefetch(context.Background(), e)
	m := New(Options{Envs: map[config.EnvName]*Environment{config.Sandbox: e}, FirstScreen: first})
	defer m.Close()
	if e.Name != "" {
		t.Errorf("New named the caller's environment %q", e.Name)
	}
	if got := m.envs[config.Sandbox]; got.Environment == e || got.Name != config.Sandbox || got.early == nil {
		t.Errorf("the UI's environment: %+v", got)
	}
}
