package ui

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/ui/balancechart"
)

// The account's one request, as the app sends it, counted by the
// project's own operation counter: within the Sandbox limits, with the
// first page of every tab and the balance chart's first reads (the
// account's bookings of the last 30 days fit a page); opening the account,
// drawing its chart and going through every tab is that one request.
func TestEmulatorAccountOneRequestCarriesEveryTab(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	ops := e.opCount()
	e.press("enter")
	if got := e.opsSince(ops); len(got) != 1 || got[0] != api.OpAccountViewUser {
		t.Fatalf("the Overview and its chart sent %q, want one %s", got, api.OpAccountViewUser)
	}
	if h := e.overview().chart.model.History(); h == nil || !h.Complete || h.Mismatch != nil {
		t.Fatalf("the chart from the account's one request: %+v", h)
	}
	e.press("2", "3", "4", "5", "6", "7", "o", "8", "1")
	if got := e.opsSince(ops); len(got) != 1 {
		t.Fatalf("from enter through every tab: %q, want the account's one request: it brought them", got)
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
	for _, list := range []string{"virtualIbanEntries(", "standingOrders(", "trustedBeneficiaries(", "upcoming: transactions(",
		"booked: transactions(", "bookedBefore: transactions("} {
		if !strings.Contains(sent.Query, list) {
			t.Errorf("the account's one request does not read %s", list)
		}
	}
}

// An account whose bookings of the chart's period do not fit the page the
// account's request brought: from enter through every tab, that request
// and the chart's pages after its page, never the booking before the
// period again (the request brought it); the chart is then the one its
// own read would draw.
func TestEmulatorAccountChartWalksOnFromTheOneRequest(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	at, acct := e.openedEURAccount(t)
	ctx := context.Background()
	// One page and one booking more, today.
	for i := range platform.PageMax + 1 {
		if _, err := e.client.SimulateIncomingTransfer(ctx, api.IncomingTransfer{Amount: api.Amount{Value: fmt.Sprintf("%d.00", 1+i), Currency: "EUR"},
			CreditorIBAN: acct.IBAN, CreditorName: acct.Holder.Info.Name, DebtorIBAN: simulatedDebtorIBAN, DebtorName: "Debtor"}); err != nil {
			t.Fatalf("transfer %d: %v", i, err)
		}
	}
	since := ledger.LastDays(e.m.c.now(), balancechart.Periods[0]).Start()
	booked := every(t, api.Pages(e.client.TransactionList, api.TransactionsParams{AccountID: acct.ID, Status: []string{"Booked"},
		IsAfterUpdatedAt: since, OrderBy: api.TxOrderUpdatedAt, Direction: api.DirectionDesc}))
	pages := (len(booked) + platform.PageMax - 1) / platform.PageMax
	if pages < 2 {
		t.Fatalf("%d bookings since %s: one page", len(booked), since)
	}

	e.run(e.accounts().list.SetCursor(at))
	seq := e.m.marks.log.Entries()[0].Seq
	ops := e.opCount()
	e.press("enter", "2", "3", "4", "5", "6", "7", "o", "8", "1")
	want := []string{api.OpAccountViewUser}
	for range pages - 1 {
		want = append(want, api.OpAccountTransactionList)
	}
	if got := e.opsSince(ops); !slices.Equal(got, want) {
		t.Fatalf("from enter through every tab, %d bookings in the chart's period: %q, want the account's one request and the %d pages after its page", len(booked), got, pages-1)
	}
	walked := 0
	for _, en := range e.m.marks.log.Entries() {
		if en.Seq <= seq || en.Name != api.OpAccountTransactionList {
			continue
		}
		walked++
		f, _ := en.Variables["filters"].(map[string]any)
		if en.Variables["after"] == nil || f["isBeforeUpdatedAt"] != nil || f["isAfterUpdatedAt"] == nil {
			t.Errorf("a chart's read after the account's is not a page after the first of the period: %v", en.Variables)
		}
	}
	if walked != pages-1 {
		t.Errorf("the request log has %d of the chart's pages, want %d", walked, pages-1)
	}
	h := e.overview().chart.model.History()
	if h == nil || !h.Complete || h.Mismatch != nil || h.Bookings < platform.PageMax+1 {
		t.Fatalf("the chart walked on from the account's request: %+v", h)
	}
	bal, err := api.LedgerBalances(&e.overview().acct)
	if err != nil {
		t.Fatal(err)
	}
	fold := ledger.NewFold(h.Period, bal)
	if err := e.client.ReadBooked(ctx, acct.ID, fold, nil); err != nil {
		t.Fatal(err)
	}
	fold.Done()
	if alone := fold.History(); !reflect.DeepEqual(*h, alone) {
		t.Errorf("the chart from the account's request:\n%+v\nread alone:\n%+v", *h, alone)
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
