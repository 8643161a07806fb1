package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// names are the list's rows' names, top down.
func names(d *driver) []string {
	rows, ok := d.accounts().list.All()
	if !ok {
		d.t.Fatal("the list is not whole")
	}
	out := make([]string, len(rows))
	for i, a := range rows {
		out[i] = a.Name
	}
	return out
}

// sortFixture is a few accounts of every kind: names with accents and
// case, balances in the hundreds and thousands and none, each status.
func sortFixture(d *driver) {
	spec := []struct {
		name, holder, balance, status string
	}{
		{"Main account", "Zoé Martin", "90.00", "Opened"},
		{"Élodie Petit", "Élodie Petit", "1200.50", "Closed"},
		{"savings", "Anna Wolf", "", "Suspended"},
		{"Main account", "Camille Petit", "300.10", "Closing"},
		{"Zebra SAS", "Zebra SAS", "15.00", "Opened"},
		{"Elise Roux", "Elise Roux", "2500.00", "Opened"},
	}
	for i, s := range spec {
		a := &d.sbx.accounts[i]
		a.Name, a.Holder.Info.Name, a.StatusInfo.Status = s.name, s.holder, s.status
		if s.balance == "" {
			a.Balances = nil
		} else {
			a.Balances.Available.Value = s.balance
		}
	}
}

// Sort by name, balance and status, with reverse (issue 32, item 20):
// the platform orders accounts by creation or update only, so these are
// sorted here; with every row loaded they cost no request.
func TestAccountsSortByNameBalanceStatus(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 6, signedIn: true, w: 120, h: 40}, sortFixture)
	// Every row is on screen, newest first: the orders of this side sort
	// them again, at no request.
	before := d.sbx.requests()
	cases := []struct {
		keys   []string
		status string
		want   []string
	}{
		{[]string{"o", "o"}, "by name, A to Z", []string{"Elise Roux", "Élodie Petit", "Main account", "Main account", "savings", "Zebra SAS"}},
		{[]string{"I"}, "by name, Z to A", []string{"Zebra SAS", "savings", "Main account", "Main account", "Élodie Petit", "Elise Roux"}},
		{[]string{"o"}, "by balance, lowest first", []string{"Zebra SAS", "Main account", "Main account", "Élodie Petit", "Elise Roux", "savings"}},
		{[]string{"I"}, "by balance, highest first", []string{"Elise Roux", "Élodie Petit", "Main account", "Main account", "Zebra SAS", "savings"}},
		{[]string{"o"}, "by status, Opened first", []string{"Main account", "Zebra SAS", "Elise Roux", "savings", "Main account", "Élodie Petit"}},
	}
	for i, c := range cases {
		d.press(c.keys...)
		if i == 0 {
			// By updated on the way: the platform's order, a request.
			before++
		}
		d.wantScreen(c.status)
		if got := names(d); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.status, got, c.want)
		}
		if i == 0 {
			// The two Main accounts: their holders order them.
			rows, _ := d.accounts().list.All()
			if rows[2].Holder.Info.Name != "Camille Petit" || rows[3].Holder.Info.Name != "Zoé Martin" {
				t.Errorf("equal names are not ordered by holder: %q, %q", rows[2].Holder.Info.Name, rows[3].Holder.Info.Name)
			}
		}
	}
	if n := d.sbx.requests() - before; n != 0 {
		t.Errorf("sorting a whole list on screen cost %d requests", n)
	}
	// Back to the platform's order, reversed: oldest first.
	d.press("o", "I")
	d.wantScreen("by created, oldest first")
	if got := names(d); got[0] != "Elise Roux" || got[5] != "Main account" {
		t.Errorf("oldest first: %q", got)
	}
}

// A list longer than a page is read whole for an order of this side, a
// request per 100 accounts, said on the status line while it is read;
// a change to another such order then costs none, r reads it again.
func TestAccountsSortReadsTheWholeListOnce(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 250, signedIn: true, w: 120, h: 24})
	d.press("o") // by updated: the platform's order, a page
	before := len(d.sbx.calls)
	d.press("o")
	if n := len(d.sbx.calls) - before; n != 3 {
		t.Fatalf("sorting 250 accounts by name took %d requests, want 3", n)
	}
	d.wantScreen("row 1 of 250/250 · by name, A to Z")
	if got := names(d); got[0] != "Account 0" || got[1] != "Account 1" || got[2] != "Account 10" {
		t.Errorf("by name: %q", got[:3])
	}
	before = len(d.sbx.calls)
	d.press("o", "I")
	if n := len(d.sbx.calls) - before; n != 0 {
		t.Errorf("another order of the same list cost %d requests", n)
	}
	d.press("G")
	d.wantScreen("row 250 of 250/250")
	d.press("r")
	if n := len(d.sbx.calls) - before; n != 3 {
		t.Errorf("r read %d pages, want the 3 of the list", n)
	}
	// While the whole list is read, the status line says how far.
	w := d.accounts().whole
	w.reading.Store(true)
	w.read.Store(100)
	w.of.Store(250)
	d.wantScreen("reading every account: 100 of 250")
	w.reading.Store(false)
}

// At 80×24 the Holder column goes, and the name carries it: several
// "Main account" rows stay told apart (issue 32, item 20).
func TestNarrowAccountRowsStayDistinct(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 120} {
		d := newDriverWith(t, fixture{rows: 6, signedIn: true, w: w, h: 24}, sortFixture)
		screen := d.screen()
		switch w {
		case 80:
			for _, want := range []string{"Main account · Zoé M…", "Main account · Camil…", "Élodie Petit   "} {
				if !strings.Contains(screen, want) {
					t.Errorf("80 columns: %q is not on screen:\n%s", want, screen)
				}
			}
		case 120:
			if strings.Contains(screen, "Main account · ") || !strings.Contains(screen, "Holder") {
				t.Errorf("120 columns: the holder is not in its own column:\n%s", screen)
			}
		}
	}
}

// The app's search finds an account from a part of its IBAN, its start
// or its last digits, spaced or not (issue 32, item 13): the same meaning
// as the command line's (api.AccountsQuery), read whole.
func TestAccountsSearchByAPartOfTheIBAN(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 150, signedIn: true, w: 120, h: 40}, func(d *driver) {
		for i := range d.sbx.accounts {
			d.sbx.accounts[i].IBAN = fmt.Sprintf("FR76174180000185214%08d", i)
		}
		d.sbx.accounts[42].IBAN = "DE89370400440532013000"
	})
	search := func(text string) {
		d.press("/")
		for range 40 {
			d.press("backspace")
		}
		for _, r := range text {
			d.press(string(r))
		}
		d.press("enter")
	}
	search("0000 0142")
	d.wantScreen("IBAN ends with 00000142")
	if got := names(d); !slices.Equal(got, []string{"Account 142"}) {
		t.Errorf("last digits: %q", got)
	}
	search("de89 3704")
	d.wantScreen("IBAN starts with DE89 3704")
	if got := names(d); !slices.Equal(got, []string{"Account 42"}) {
		t.Errorf("start: %q", got)
	}
	search("FR76 1741 8000 0185 2140 0000 013")
	d.wantScreen("IBAN FR76 1741 8000 0185 2140 0000 013")
	if got := d.sbx.calls[len(d.sbx.calls)-1]; got.MainIBAN == "" || got.IBANPart != "" {
		t.Errorf("a whole IBAN was not asked for as one: %+v", got)
	}
	search("9999 9999")
	d.wantScreen("No account's IBAN ends with 99999999 (every account was read).")
}
