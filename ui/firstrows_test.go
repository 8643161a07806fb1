package ui

import (
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/platform"
)

// firstRows is one way into a new view: from the state prep leads to,
// the keys of open show its first rows; back returns to that state.
type firstRows struct {
	name    string
	project bool
	prep    []string
	open    []string
	back    []string
	// requests is what the first rows cost against the emulator's demo
	// data (-1: it depends on the data, see the test). The Overview's
	// balance chart costs none more: the account's request brings the
	// last 30 days' bookings of a demo account (one page) and the booking
	// before them.
	requests int
}

func keysOf(s string) []string { return strings.Split(s, "") }

func firstRowsViews() []firstRows {
	return []firstRows{
		// Opening an account reads every tab's first page with it: the
		// tabs cost nothing.
		{name: "overview", open: []string{"enter"}, back: []string{"esc"}, requests: 1},
		{name: "transactions tab", prep: []string{"enter"}, open: []string{"2"}, back: []string{"esc", "enter"}, requests: 0},
		{name: "members tab", prep: []string{"enter"}, open: []string{"3"}, back: []string{"esc", "enter"}, requests: 0},
		{name: "cards tab", prep: []string{"enter"}, open: []string{"4"}, back: []string{"esc", "enter"}, requests: 0},
		{name: "statements tab", prep: []string{"enter"}, open: []string{"5"}, back: []string{"esc", "enter"}, requests: 0},
		{name: "account and every tab", open: []string{"enter", "2", "3", "4", "5"}, back: []string{"esc"}, requests: 1},
		{name: "transaction", prep: []string{"enter", "2"}, open: []string{"enter"}, back: []string{"esc"}, requests: 0},
		// The member comes with the row; the screen reads its cards.
		{name: "member", prep: []string{"enter", "3"}, open: []string{"enter"}, back: []string{"esc"}, requests: 1},
		// A user token reads the accounts a hundred a request, each with
		// its first rows, then the next page of those whose rows run out
		// before the screen is full, five accounts per request.
		{name: "all transactions, user token", open: append(keysOf(":transactions"), "enter"), back: []string{"esc"}, requests: -1},
		{name: "all transactions, project token", project: true, open: append(keysOf(":transactions"), "enter"), back: []string{"esc"}, requests: 1},
		{name: "all members, user token", open: append(keysOf(":members"), "enter"), back: []string{"esc"}, requests: 1},
		{name: "all members, project token", project: true, open: append(keysOf(":members"), "enter"), back: []string{"esc"}, requests: 1},
		{name: "all cards, user token", open: append(keysOf(":cards"), "enter"), back: []string{"esc"}, requests: 1},
		{name: "all cards, project token", project: true, open: append(keysOf(":cards"), "enter"), back: []string{"esc"}, requests: 1},
	}
}

// Each new view's first rows cost the requests the table says, against
// the emulator: a tab one, a detail opened from its row none (or its own
// list), the list across a user's accounts one for the accounts and one
// per five accounts.
func TestFirstRowsRequests(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	emus := map[bool]*emu{false: newEmu(t, emulator.Options{Accounts: 12}, false), true: newEmu(t, emulator.Options{Accounts: 12}, true)}
	for _, v := range firstRowsViews() {
		e := emus[v.project]
		e.press(v.prep...)
		ops := e.opCount()
		e.press(v.open...)
		got := e.opsSince(ops)
		if v.requests >= 0 && len(got) != v.requests {
			t.Errorf("%s: %d requests %q, want %d", v.name, len(got), got, v.requests)
		}
		if v.requests < 0 {
			if most := 1 + walkRequests(t, e); len(got) < 1 || len(got) > most || got[0] != api.OpAccountsTransactionHeads {
				t.Errorf("%s: %d requests %q, want the accounts with their first rows, then at most %d", v.name, len(got), got, most-1)
			}
		}
		t.Logf("%s: %d requests %q", v.name, len(got), got)
		e.press(v.back...)
		e.m.popTo(1)
	}
}

// walkRequests is the requests of accounts' pages the first page of the
// list across the user's accounts takes: the first page of every account,
// five per request (each page as long as the list's, so no account runs
// out before the page is full).
func walkRequests(t *testing.T, e *emu) int {
	t.Helper()
	accounts := every(t, api.Pages(e.client.Accounts, api.AccountsParams{OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc}))
	return (len(accounts) + platform.MaxTopLevel - 1) / platform.MaxTopLevel
}

// BenchmarkFirstRows is the wall time from the key press to the first rows
// of each new view against the emulator, with the requests it took:
//
//	go test ./ui -run '^$' -bench FirstRows -benchtime 20x
func BenchmarkFirstRows(b *testing.B) {
	emus := map[bool]*emu{false: newEmu(b, emulator.Options{Accounts: 12}, false), true: newEmu(b, emulator.Options{Accounts: 12}, true)}
	for _, v := range firstRowsViews() {
		b.Run(v.name, func(b *testing.B) {
			e := emus[v.project]
			e.driver.t = b
			e.m.popTo(1)
			e.press(v.prep...)
			requests := 0
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				ops := e.opCount()
				b.StartTimer()
				e.press(v.open...)
				b.StopTimer()
				requests += e.opCount() - ops
				e.press(v.back...)
				b.StartTimer()
			}
			b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
		})
	}
}
