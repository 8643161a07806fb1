package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// G in a long event log costs at most its two requests (the page before
// the oldest entry read, and on a tall screen the page after it), and no
// reading follows it (issue 31, item 7): not on the polls, not on the clock, not
// when the answer lands. A view reads what the user looks at and its
// prefetch, nothing more.
func TestEventsBottomOfALongLogIsTwoRequestsAtMost(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1]}, func(d *driver) {
				d.sbxP = newFakeProjectAPI(3600)
			})
			d.m.envs["sandbox"].ProjectAPI = d.sbxP
			d.press("E")
			s := d.events()
			for press := 1; press <= 2; press++ {
				before, read := d.sbxP.requests(), s.list.Loaded()
				d.press("G")
				if n := d.sbxP.requests() - before; n < 1 || n > 2 {
					t.Fatalf("G #%d cost %d requests", press, n)
				}
				if s.list.Cursor() != read-1 {
					t.Fatalf("G #%d went to row %d, want the oldest read, %d", press, s.list.Cursor()+1, read)
				}
				after := d.sbxP.requests()
				for range 30 {
					d.firePoll()
					d.fire(func(tea.Msg) bool { return true })
				}
				if n := d.sbxP.requests() - after; n != 0 {
					t.Fatalf("%d requests followed G #%d while the user read", n, press)
				}
				d.wantScreen(fmt.Sprintf("row %d of %d/3600 · tail paused (g for the newest, G for older)", read, s.list.Loaded()))
			}
		})
	}
}

// The Events view is ordered by what its Age column shows (issue 32, item
// 18): the age of the delivery attempt. A retry of an older event sits at
// the top with its attempt's age; the event's own date is on its screen.
func TestEventsAgeIsTheAttempts(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	// The log as the platform keeps it: newest attempt first. The first
	// entry retries an event of 30 s ago, 2 s ago; the others are
	// first attempts of events 13 s and 20 s old.
	retry := makeLog(900, testNow.Add(-30*time.Second))
	retry.CreatedAt = testNow.Add(-2 * time.Second)
	older := makeLog(901, testNow.Add(-13*time.Second))
	oldest := makeLog(902, testNow.Add(-20*time.Second))
	d.sbxP.logs = []api.WebhookEventLog{retry, older, oldest}
	d.press("E")
	var ages []string
	for _, line := range strings.Split(d.screen(), "\n")[2:5] {
		ages = append(ages, strings.Fields(line)[0])
	}
	if got := strings.Join(ages, " "); got != "2s 13s 20s" {
		t.Fatalf("ages top down %q, want the attempts' 2s 13s 20s:\n%s", got, d.screen())
	}
	d.press("enter")
	d.wantScreen("Date         2026-11-22 09:59:30 UTC")
	d.wantScreen("Logged       2026-11-22 09:59:58 UTC")
}

// A placeholder or a completion is never taken for a value (issue 32,
// item 17): both are drawn in the hint style, unlike typed text; the type
// prompt's placeholder reads as a hint; enter applies the completion the
// field shows, and an event type that does not exist is said, not
// filtered on.
func TestEventsTypePromptNeverMistakesAHintForAValue(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("E", "t")
	s := d.events()
	hint := d.m.c.styles.hint.Render("x")
	open := hint[:strings.Index(hint, "x")]
	if open == "" {
		t.Fatal("the hint style draws nothing of its own")
	}
	if view := s.input.View(); !strings.Contains(view, open+"n event type, such as Transaction.Booked (tab completes)") {
		t.Fatalf("the empty field's placeholder is not a hint: %q", view)
	}
	d.press("T", "r", "a", "n", "s")
	if view := s.input.View(); !strings.Contains(view, "Trans") || !strings.Contains(view, open+"ction.Booked") {
		t.Fatalf("the completion is not drawn as a hint: %q", view)
	}
	calls := len(d.sbxP.calls)
	d.press("enter")
	if s.query.eventType != "Transaction.Booked" || len(d.sbxP.calls) != calls+1 || d.sbxP.calls[calls].EventType != "Transaction.Booked" {
		t.Fatalf("enter on the shown completion filtered %q", s.query.eventType)
	}
	d.wantScreen("type Transaction.Booked")

	d.press("t")
	for range "Transaction.Booked" {
		d.press("backspace")
	}
	for _, r := range "Nope" {
		d.press(string(r))
	}
	calls = len(d.sbxP.calls)
	d.press("enter")
	if len(d.sbxP.calls) != calls || s.editing != fieldType || s.query.eventType != "Transaction.Booked" {
		t.Fatalf("an unknown type was filtered on: %d requests, editing %v, type %q", len(d.sbxP.calls)-calls, s.editing, s.query.eventType)
	}
	d.wantScreen("✗ “Nope” is not an event type: tab completes one, esc leaves the filter as it was.")
}
