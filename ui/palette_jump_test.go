package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
)

// A : jump replaces the trail above the account list instead of piling
// onto it (issue 32, item 19): a resource by id, a list by name, the
// event log.
func TestPaletteJumpsReplaceTheTrail(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("enter", "3", "enter") // Accounts › Account 0 › a member
	if len(d.m.stack) != 3 {
		t.Fatalf("%d screens before the jump", len(d.m.stack))
	}
	jump(d, "card card-mem-acc-1-0-0")
	card := topAs[*cardScreen](d)
	if len(d.m.stack) != 2 || card.id != "card-mem-acc-1-0-0" {
		t.Fatalf(":card left %d screens, card %q on top", len(d.m.stack), card.id)
	}
	d.wantScreen("Accounts › " + card.title() + "\n")
	jump(d, "account acc-2")
	if len(d.m.stack) != 2 || d.account().overview.acct.ID != "acc-2" {
		t.Fatalf(":account left %d screens", len(d.m.stack))
	}
	// The event log of the account the palette was opened on.
	jump(d, "events")
	if len(d.m.stack) != 2 || d.events().query.resource != "acc-2" {
		t.Fatalf(":events left %d screens, scoped to %q", len(d.m.stack), d.events().query.resource)
	}
	// E, a key of its own and no jump, still goes on top.
	d.press("esc", "enter", "E")
	if len(d.m.stack) != 3 {
		t.Fatalf("E from the account: %d screens", len(d.m.stack))
	}
}

// While the palette looks an id up it says so; esc abandons the lookup
// and nothing is pushed; enter again looks it up again.
func TestPaletteLookupCanBeAbandoned(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press(strings.Split(":card card-mem-acc-0-0-0", "")...)
	// The lookup's read goes on the wire; its command is never run.
	d.update(keyMsg("enter"))
	d.wantScreen("Looking up card card-mem-acc-0-0-0…")
	p := topAs[*paletteScreen](d)
	if !p.busy() || p.pending == nil {
		t.Fatal("the palette is not busy with its lookup")
	}
	d.press("esc")
	if p.pending != nil || len(d.m.stack) != 2 {
		t.Fatalf("esc left the lookup %v and %d screens", p.pending, len(d.m.stack))
	}
	d.press("enter")
	if c := topAs[*cardScreen](d); c.item.item == nil || len(d.m.stack) != 2 {
		t.Fatalf("the card opened without its item, over %d screens", len(d.m.stack))
	}
	// A lookup answered for another environment is dropped with it.
	d.send(jumpMsg{envTag: envTag{config.Live}, s: newCardScreenByID(d.m.c, d.m.env, "x")})
	if len(d.m.stack) != 2 {
		t.Fatalf("a jump of another environment was taken: %d screens", len(d.m.stack))
	}
}

// Switching environment and back keeps the account list's order and
// search, and the whole trail above it: the lists across accounts and
// the event log with their filters, not only the screens of one resource
// (issue 32, item 19).
func TestSwitchBackKeepsTheSortAndTheTrail(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 30, signedIn: true, liveSigned: true, w: 120, h: 40})
	d.press("o")
	if d.accounts().query.order != api.OrderUpdatedAt {
		t.Fatal("o did not sort by updated")
	}
	jump(d, "cards")
	d.press("f") // every card's list, ConsentPending only
	d.press("E", "s")
	d.wantScreen("Accounts › All cards › Events")
	before := fmt.Sprint(d.events().query)
	d.press("e", "y")
	d.wantScreen("LIVE")
	d.press("e")
	d.wantScreen("Switched to Sandbox")
	d.wantScreen("Accounts › All cards › Events")
	if got := fmt.Sprint(d.events().query); got != before {
		t.Errorf("the event log came back as %s, was %s", got, before)
	}
	d.press("esc", "esc") // the status filter, then the view
	if c := topAs[*cardsScreen](d); c.status != api.CardStatuses()[0] {
		t.Errorf("the cards came back listing %q", c.status)
	}
	d.press("esc")
	a := d.accounts()
	if a.query.order != api.OrderUpdatedAt {
		t.Fatalf("the account list came back by %s", a.query.order)
	}
	d.wantScreen("by updated")
}
