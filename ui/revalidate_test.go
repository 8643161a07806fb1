package ui

import (
	"strings"
	"testing"
	"time"

	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
)

// revisitAndLeave opens account 0, goes back, lets the server rename it
// 40 s later, opens it again (shown from memory) and leaves it before its
// revalidation is sent: it returns that revalidation, to run after.
func revisitAndLeave(t *testing.T, d *driver, clk *testclock.Fake) (revalidate func()) {
	t.Helper()
	d.press("enter")
	d.wantScreen("Your rights")
	d.press("esc")
	clk.Advance(40 * time.Second)
	d.sbx.mu.Lock()
	d.sbx.accounts[0].Name = "Renamed account"
	d.sbx.mu.Unlock()
	cmd := d.update(d.update(keyMsg("enter"))())
	d.wantScreen("updated 40s ago")
	d.press("esc")
	if _, ok := d.m.top().(*accountsScreen); !ok {
		t.Fatalf("esc left %T on top, want the account list", d.m.top())
	}
	return func() { d.run(cmd) }
}

// Leaving an account shown from memory before its revalidation answers
// does not cancel it: it completes (the fake fails a read whose context
// has ended) and refreshes what is kept, so the next visit shows the
// fresh account at once, and costs its one request, not two.
func TestLeavingARevisitedAccountKeepsItsRevalidation(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	clk := testclock.New(testNow)
	d.m.c.now = clk.Now
	revalidate := revisitAndLeave(t, d, clk)
	revalidate()
	v, read, ok := d.m.env.views.get("acc-0")
	if !ok || v.Detail.Account.Name != "Renamed account" || !read.Equal(clk.Now()) {
		t.Fatalf("the revalidation of a screen left did not refresh the kept view: %v %v", ok, read)
	}
	if d.sbx.viewCalls != 2 {
		t.Fatalf("%d view requests, want 2 (the first visit, the revalidation)", d.sbx.viewCalls)
	}

	clk.Advance(5 * time.Second)
	d.update(d.update(keyMsg("enter"))())
	d.wantScreen("Renamed account")
	d.wantScreen("updated 5s ago")
}

// A revalidation that answers after the user signed out does not put the
// account back among those kept: whoever signs in next must not see it.
func TestRevalidationAfterSignOutKeepsNothing(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	clk := testclock.New(testNow)
	d.m.c.now = clk.Now
	revalidate := revisitAndLeave(t, d, clk)
	d.m.env.forgetUser()
	revalidate()
	if _, _, ok := d.m.env.views.get("acc-0"); ok {
		t.Fatal("a revalidation answered after sign-out was kept")
	}
}

// Leaving the Events view shown from memory before its first page is
// read again does not cancel that read: the fresh page is kept, and the
// next visit shows the event that came meanwhile at once.
func TestLeavingTheEventsViewKeepsItsRevalidation(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	clk := testclock.New(testNow)
	d.m.c.now = clk.Now
	d.press("E")
	d.wantScreen("row 1 of 12/12")
	d.press("esc")

	clk.Advance(40 * time.Second)
	d.sbxP.add("Transaction.Booked", "tx-new")
	before := d.sbxP.requests()
	revalidate := d.update(d.update(keyMsg("E"))())
	d.wantScreen("updated 40s ago")
	d.press("esc")
	d.run(revalidate)
	if n := d.sbxP.requests() - before; n != 1 {
		t.Fatalf("the revalidation cost %d requests, want 1", n)
	}

	clk.Advance(5 * time.Second)
	d.update(d.update(keyMsg("E"))())
	d.wantScreen("tx-new")
	if s := d.screen(); !strings.Contains(s, "13/13") || !strings.Contains(s, "updated 5s ago") {
		t.Fatalf("the next visit does not show the page read after the view was left:\n%s", s)
	}
}
