package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/gqlop"
)

// The account's one request, as the app sends it, counted by the
// project's own operation counter: within the Sandbox limits, with the
// first page of every tab; going through every tab then costs nothing.
func TestEmulatorAccountOneRequestCarriesEveryTab(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	ops := e.opCount()
	e.press("enter")
	// The balance chart's two reads (a page of the last 30 days' bookings
	// and the booking before them) follow the account's, and are no tab's.
	if got := e.opsSince(ops); len(got) != 3 || got[0] != api.OpAccountViewUser || got[1] != api.OpAccountTransactionList || got[2] != api.OpAccountTransactionList {
		t.Fatalf("the Overview sent %q, want one %s, then the chart's two %s", got, api.OpAccountViewUser, api.OpAccountTransactionList)
	}
	ops = e.opCount()
	e.press("2", "3", "4", "5", "6", "7", "o", "8", "1")
	if got := e.opsSince(ops); len(got) != 0 {
		t.Fatalf("every tab sent %q, want none: the account's one request brought them", got)
	}
	var sent *api.Entry
	for _, en := range e.m.marks.log.Entries() {
		if en.Name == api.OpAccountViewUser {
			sent = &en
			break
		}
	}
	if sent == nil {
		t.Fatal("the request log has no account view")
	}
	op, err := gqlop.Parse(sent.Query, sent.Name)
	if err != nil {
		t.Fatal(err)
	}
	c := op.Count(gqlop.SandboxLimits())
	t.Logf("the account's one request: %d fields, depth %d, %d top-level fields", c.Fields, c.Depth, c.TopLevel)
	if len(c.Broken) > 0 {
		t.Fatalf("it breaks the Sandbox limits: %v", c.Broken)
	}
	for _, list := range []string{"virtualIbanEntries(", "standingOrders(", "trustedBeneficiaries(", "upcoming: transactions("} {
		if !strings.Contains(sent.Query, list) {
			t.Errorf("the account's one request does not read %s", list)
		}
	}
}

// A virtual IBAN added from its tab is the list's first row, in at most
// four requests from the key; one canceled reads Canceled.
func TestEmulatorVirtualIbanAddedAndCanceled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	acct, _ := e.accounts().list.Selected()
	e.press("enter", "6")
	l := tabOf[*vibansScreen](t, e.account(), "Virtual IBANs")
	ops := e.opCount()
	e.press("n", "y")
	got := e.opsSince(ops)
	if len(got) > 4 || !slices.Contains(got, api.OpAddVirtualIbanEntry) {
		t.Fatalf("adding sent %q, want the mutation and at most 4 requests", got)
	}
	e.wantScreen("Added the virtual IBAN")
	t.Logf("from n to the updated list: %q", got)
	want, err := e.client.VirtualIbans(context.Background(), api.VirtualIbansParams{AccountID: acct.ID, First: 1})
	if err != nil {
		t.Fatal(err)
	}
	if row, _ := l.list.Selected(); l.list.Cursor() != 0 || row.ID != want.Items[0].ID {
		t.Fatalf("after the add the cursor is on row %d, %s; the API lists %s first", l.list.Cursor(), row.ID, want.Items[0].ID)
	}
	rows := walkList(e.driver, l.list)
	i := slices.IndexFunc(rows, func(v api.VirtualIban) bool { return v.Status == "Enabled" })
	if i < 0 {
		t.Fatal("no Enabled virtual IBAN to cancel")
	}
	e.run(l.list.SetCursor(i))
	ops = e.opCount()
	e.press("x", "y")
	if got := e.opsSince(ops); len(got) > 4 || got[0] != api.OpCancelVirtualIbanEntry {
		t.Fatalf("canceling sent %q", got)
	}
	e.wantScreen("is Canceled")
	if row, _ := l.list.Selected(); row.ID != rows[i].ID || row.Status != "Canceled" {
		t.Fatalf("after the cancel the cursor is on %s %s, not on the IBAN canceled, %s Canceled", row.ID, row.Status, rows[i].ID)
	}
}

// A standing order canceled from the Upcoming tab reads Canceled; a
// beneficiary's transfers open from its tab.
func TestEmulatorStandingOrderCanceledAndBeneficiaryTransfers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	e.press("enter", "7", "o")
	u := tabOf[*upcomingScreen](t, e.account(), "Upcoming")
	orders := walkList(e.driver, u.orders.list)
	i := slices.IndexFunc(orders, func(o api.StandingOrder) bool { return canCancel(&o) })
	if i < 0 {
		t.Fatal("no standing order to cancel")
	}
	e.run(u.orders.list.SetCursor(i))
	ops := e.opCount()
	e.press("x", "y")
	if got := e.opsSince(ops); len(got) > 4 || got[0] != api.OpCancelStandingOrder {
		t.Fatalf("canceling sent %q", got)
	}
	e.wantScreen("is Canceled")
	if o, err := e.client.StandingOrder(context.Background(), orders[i].ID); err != nil || o.StatusInfo.Status != "Canceled" {
		t.Fatalf("the canceled order is read back %+v, %v", o, err)
	}
	if row, _ := u.orders.list.Selected(); row.ID != orders[i].ID || row.StatusInfo.Status != "Canceled" {
		t.Fatalf("after the cancel the cursor is on %s %s, not on the order canceled, %s Canceled", row.ID, row.StatusInfo.Status, orders[i].ID)
	}
	e.press("8")
	ops = e.opCount()
	e.press("enter")
	if got := e.opsSince(ops); len(got) != 1 || got[0] != api.OpBeneficiaryTransfers {
		t.Fatalf("opening a beneficiary sent %q, want its transfers alone", got)
	}
	e.wantScreen("Transfers (")
	e.wantScreen("Payee check")
	// Sent since verification of payee began, a transfer carries the
	// Sandbox's answer for its creditor's name.
	e.wantScreen("✓ match")
}
