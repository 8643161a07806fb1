package ui

import (
	"testing"

	"github.com/partnertui/partnertui/api"
)

// TestPageSizeIsEveryListsPage: the configuration's page_size (the
// client's PageSize) is the page of every list of the app: the account
// list from its first screen on and read from its end, an account's tabs
// from the request that opens the account on, and the Events view (which
// reads at most its own 50).
func TestPageSizeIsEveryListsPage(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 30, signedIn: true, w: 120, h: 40}, func(d *driver) {
		d.sbx.pageSize = 7
		d.sbx.txs["acc-0"] = makeTxs("acc-0", 30)
	})
	// The first screen's request, then the pages that fill the window.
	if n := d.accounts().list.Loaded(); n == 0 || n >= 30 || n%7 != 0 {
		t.Fatalf("%d accounts loaded at launch, want pages of 7", n)
	}
	d.press("G")
	d.wantScreen("row 30 of")
	d.sbx.mu.Lock()
	accounts := d.sbx.calls
	d.sbx.mu.Unlock()
	if len(accounts) == 0 {
		t.Fatal("G read no page of accounts")
	}
	for _, p := range accounts {
		if p.First != 7 {
			t.Fatalf("a page of accounts asked for %d rows, page_size is 7", p.First)
		}
	}

	d.press("g", "enter", "2")
	// The tab's first page came with the account, the rest by itself.
	d.sbx.mu.Lock()
	views := d.sbx.views
	d.sbx.mu.Unlock()
	if len(views) != 1 || views[0].First != 7 {
		t.Fatalf("the account was opened with %+v, want one request of first pages of 7", views)
	}
	d.press("G")
	d.wantScreen("row 30 of")
	d.sbx.mu.Lock()
	txs := d.sbx.txParams
	d.sbx.mu.Unlock()
	if len(txs) == 0 {
		t.Fatal("G read no page of transactions")
	}
	for _, p := range txs {
		if p.First != 7 {
			t.Fatalf("a page of transactions asked for %d rows, page_size is 7", p.First)
		}
		if p.After == "" && p.Direction == api.DirectionDesc {
			t.Fatal("the tab read its first page again instead of taking the one that came with the account")
		}
	}

	d.press("E")
	d.events()
	d.sbxP.mu.Lock()
	last := d.sbxP.calls[len(d.sbxP.calls)-1]
	d.sbxP.mu.Unlock()
	if last.First != 7 {
		t.Fatalf("the event log was asked for %d rows, page_size is 7", last.First)
	}
}
