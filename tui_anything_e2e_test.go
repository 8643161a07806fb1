package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestTmuxAnythingToRichViewAndBack is issue 28's view of anything in a
// real terminal at 80×24 and 120×40, on --demo's emulator: a root query
// typed in the palette (its name completed from the schema read by
// introspection), a row's object with all its fields, a nested object
// unfolded, its id followed to the rich view of its type, and back.
func TestTmuxAnythingToRichViewAndBack(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) { anythingToRichView(t, size[0], size[1]) })
	}
}

func anythingToRichView(t *testing.T, w, h int) {
	tm := newTmux(t)
	bin := realBinary.Path(t)
	tm.startDemo(w, h, bin)

	tm.keys(":", "query accountMem", "Tab")
	tm.waitFor("the completion", ":query accountMembership")
	tm.keys("s")
	tm.waitForWords("what it opens", "accountMemberships: every AccountMembership, a table of its fields")
	tm.keys("Enter")
	tm.waitFor("the table", "accountMemberships", "row 1 of", "enter open AccountMembership")
	tm.keys("Enter")
	tm.waitFor("the object", "AccountMembership  accountMembership(id: ", "▸ account ", "line 1 of")

	// The cursor goes down to the account, a line at a time.
	first, at := -1, -1
	for i, l := range strings.Split(tm.capture(), "\n") {
		switch {
		case first < 0 && strings.HasPrefix(l, "  id "):
			first = i
		case strings.HasPrefix(l, "▸ account "):
			at = i
		}
	}
	if first < 0 || at < first {
		t.Fatalf("no account line below the id on:\n%s", tm.capture())
	}
	for range at - first {
		tm.keys("j")
	}
	tm.waitFor("the cursor on the account", fmt.Sprintf("line %d of", at-first+1), "enter unfold")
	tm.keys("Enter")
	tm.waitFor("the account unfolded", "▾ account ", "enter fold")
	tm.keys("j")
	tm.waitFor("the link", "→ Account", "enter open Account")
	tm.keys("Enter")
	tm.waitFor("the account's rich view", "Overview", "Your rights")
	tm.keys("Escape")
	tm.waitFor("back on the object", "AccountMembership  accountMembership(id: ", "▾ account ", "enter open Account")
	tm.keys("q")
	tm.waitExit()
}
