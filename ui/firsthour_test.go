package ui

import (
	"bytes"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
)

// TestQRFits80x24: the IBAN's QR code (33 modules and a 4-module quiet
// zone, in half blocks) fits 80×24 once the header and the tab bar step
// aside; the hint line and the footer stay, and closing it brings the
// chrome back.
func TestQRFits80x24(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 80, h: 24})
	d.press("enter", "Q")
	screen := d.screen()
	if strings.Contains(screen, "too small") || !strings.Contains(screen, "EPC payment QR") {
		t.Fatalf("the QR code does not fit 80×24:\n%s", screen)
	}
	lines := strings.Split(screen, "\n")
	if len(lines) != 24 || !strings.Contains(lines[22], "close QR code") || !strings.Contains(lines[23], "SANDBOX") {
		t.Fatalf("the hint line and the footer are not under the QR code:\n%s", screen)
	}
	d.press("esc")
	d.wantScreen("partnertui Accounts")
	d.wantScreen("Overview │ Transactions")
}

// TestTypeHintListsEveryCandidate: the transaction filter's type hint
// names every type a prefix may become at 80×24 and 120×40; where the
// form has too few lines for all of them, it says how many it leaves out
// instead of dropping them silently.
func TestTypeHintListsEveryCandidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		w, h  int
		typed []string
		whole bool // every candidate fits
	}{
		{80, 24, []string{"S", "e", "p", "a"}, true},
		{120, 40, []string{"S", "e", "p", "a"}, true},
		{100, 16, []string{"S", "e", "p", "a"}, false},
		{80, 24, nil, false},
		{60, 14, []string{"S"}, false},
	}
	for _, c := range cases {
		d := newDriver(t, fixture{rows: 3, signedIn: true, w: c.w, h: c.h, color: true})
		d.press(append([]string{"enter", "2", "f", "down"}, c.typed...)...)
		screen := d.screen()
		prefix := strings.Join(c.typed, "")
		var missing int
		for _, ty := range api.TransactionTypes() {
			if strings.HasPrefix(ty, prefix) && !regexp.MustCompile(`(^|\s)`+ty+`(\s|$)`).MatchString(screen) {
				missing++
				if c.whole {
					t.Errorf("%d×%d: the hint for “%s” lacks %s:\n%s", c.w, c.h, prefix, ty, screen)
				}
			}
		}
		if more := fmt.Sprintf("+%d more", missing); missing > 0 && !strings.Contains(screen, more) {
			t.Errorf("%d×%d: the hint for “%s” leaves %d types out without saying so (%q):\n%s", c.w, c.h, prefix, missing, more, screen)
		}
	}
}

// TestUnknownAccountByID: `:account` with an ID nobody has says so whole
// in the palette, at any width, with the remedy of a mistyped ID, and
// pushes no screen of an account it does not have (issue 32, item 19):
// the ID is there to be corrected.
func TestUnknownAccountByID(t *testing.T) {
	t.Parallel()
	id := "00000000-0000-0000-0000-000000000000"
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		d := newDriver(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1]})
		d.press(strings.Split(":account "+id, "")...)
		d.press("enter")
		screen := d.screen()
		flat := strings.Join(strings.Fields(screen), " ")
		for _, want := range []string{"✗ Could not open account " + id + ".", "not found.", "Check the ID, correct it here and press enter.", ":account " + id} {
			if !strings.Contains(flat, want) {
				t.Errorf("%d×%d: the error lacks %q:\n%s", sz[0], sz[1], want, screen)
			}
		}
		checkFits(t, d, sz[0], sz[1])
		if _, ok := d.m.top().(*paletteScreen); !ok || len(d.m.stack) != 2 {
			t.Fatalf("%d×%d: %d screens, %T on top: a screen of the unknown account was pushed", sz[0], sz[1], len(d.m.stack), d.m.top())
		}
		// Corrected in place, the ID opens the account.
		for range len("0000") {
			d.press("backspace")
		}
		d.press("enter")
		if len(d.m.stack) != 2 {
			t.Fatalf("%d×%d: %d screens after a second try", sz[0], sz[1], len(d.m.stack))
		}
		d.press("esc")
		d.press(strings.Split(":account acc-1", "")...)
		d.press("enter")
		if a := d.account(); a.overview.acct.ID != "acc-1" || len(d.m.stack) != 2 {
			t.Fatalf("%d×%d: :account acc-1 opened %q over %d screens", sz[0], sz[1], a.overview.acct.ID, len(d.m.stack))
		}
	}
}

// TestOverviewFollowsTheBooking: after a simulated transfer the Overview
// follows the transaction while it is Pending and reads the account again
// once it is booked, with no r; it stops following then.
func TestOverviewFollowsTheBooking(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 2, signedIn: true}, func(d *driver) {
		tx := makeTxs("acc-0", 1)[0]
		tx.ID, tx.StatusInfo = "tx-sim", api.TransactionStatusInfo{Status: "Pending"}
		d.sbx.txs["acc-0"] = []api.TransactionDetail{tx}
	})
	d.press("enter", "s", "2", "5", "enter")
	d.wantScreen("Received 25 EUR")
	isTick := func(m tea.Msg) bool { _, ok := m.(bookingTickMsg); return ok }
	// Still Pending: the Overview asks again.
	if d.fire(isTick) != 1 {
		t.Fatal("the Overview does not follow the simulated transfer")
	}
	reads := d.sbx.detailCalls
	// The platform books it: the balance moves.
	d.sbx.mu.Lock()
	d.sbx.txs["acc-0"][0].StatusInfo.Status = "Booked"
	d.sbx.accounts[0].Balances.Available.Value = "1024.99"
	d.sbx.mu.Unlock()
	if d.fire(isTick) != 1 {
		t.Fatal("the Overview stopped following a Pending transfer")
	}
	if d.sbx.detailCalls != reads+1 {
		t.Fatalf("the account was read %d times after the booking, want once", d.sbx.detailCalls-reads)
	}
	d.wantScreen("1024.99 EUR")
	d.wantScreen("The simulated transfer is Booked")
	if d.fire(isTick) != 0 {
		t.Fatal("the Overview still follows a booked transfer")
	}
}

// TestCardsFilterByStatus: f on the Cards list moves through the card
// statuses (the platform's filters.statuses) and back to all of them,
// and the status line says which; a member's cards have no such key.
func TestCardsFilterByStatus(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("enter", "4")
	d.wantScreen("f status: any")
	last := func() api.CardsParams { return d.sbx.cardCalls[len(d.sbx.cardCalls)-1] }
	for _, want := range api.CardStatuses() {
		d.press("f")
		if p := last(); !slices.Equal(p.Statuses, []string{want}) || p.AccountID != "acc-0" {
			t.Fatalf("f sent %+v, want the %s cards of acc-0", p, want)
		}
		d.wantScreen("status " + want)
	}
	d.wantScreen("No Canceling cards here")
	d.press("f")
	if p := last(); len(p.Statuses) != 0 {
		t.Fatalf("the last f sent %+v, want every status", p)
	}
	d.wantScreen("row 1 of ")
	d.press("f", "f", "f")
	d.wantScreen("status Enabled")
	d.wantScreen("row 1 of ")

	// A member's cards are drawn under the member, whose keys do not filter.
	d.press("3", "enter")
	calls := len(d.sbx.cardCalls)
	d.press("f")
	if len(d.sbx.cardCalls) != calls {
		t.Fatal("f filtered a member's cards")
	}
}

// TestStatementBalancesSideBySide: the opening balance is next to the
// closing one, not at the far right after a column stretched to fill the
// width.
func TestStatementBalancesSideBySide(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		d := newDriver(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1]})
		d.press("enter", "5")
		header := strings.Split(d.screen(), "\n")[2]
		open, closing := strings.Index(header, "Opening balance"), strings.Index(header, "Closing balance")
		if open < 0 || closing < 0 || open > closing || closing-open > len("Opening balance")+2 {
			t.Errorf("%d×%d: the balances are not side by side: %q", sz[0], sz[1], header)
		}
	}
}

// TestMembersLegend: the members list says what V B P M C stand for.
func TestMembersLegend(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		d := newDriver(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1]})
		d.press("enter", "3")
		d.wantScreen("V B P M C")
		d.wantScreen("V view account · B beneficiaries · P payments · M members · C cards")
		if n := len(strings.Split(d.screen(), "\n")); n != sz[1] {
			t.Fatalf("%d×%d: the screen has %d lines", sz[0], sz[1], n)
		}
	}
}

// TestSwitchBackLandsWhereYouLeft: back from Live, the user is on the
// account and tab they left, read again, with esc still leading to the
// account list.
func TestSwitchBackLandsWhereYouLeft(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true})
	d.press("j", "enter", "3", "enter")
	d.wantScreen("Accounts › Account 1 › Members › ")
	d.press("e", "y")
	d.wantScreen("LIVE")
	d.accounts()
	d.press("e")
	d.wantScreen("Switched to Sandbox")
	d.wantScreen("Accounts › Account 1 › Members › ")
	d.press("esc")
	if a := d.account(); a.active != tabIndex(t, a, "Members") || a.overview.acct.ID != "acc-1" {
		t.Fatalf("back on account %s, tab %d", a.overview.acct.ID, a.active)
	}
	d.wantScreen("V B P M C")
	d.press("esc")
	d.accounts()
	// A second trip remembers the new place, not the old one.
	d.press("e", "y", "e")
	d.accounts()
}

// TestSignOutKey: L asks, y signs out as `partnertui logout` does (off the
// event loop) and opens the sign-in; any other key stays signed in. With
// a project token nobody is signed in, so there is no such key.
func TestSignOutKey(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("?")
	d.wantScreen("O      sign out")
	d.press("esc", "O")
	d.wantScreen("Sign out of Sandbox?")
	d.press("n")
	d.wantScreen("Still signed in to Sandbox")
	if d.sbxS.logouts != 0 {
		t.Fatal("n signed out")
	}
	d.accounts()
	d.press("enter", "O", "y")
	if d.sbxS.logouts != 1 {
		t.Fatalf("%d sign-outs", d.sbxS.logouts)
	}
	d.signin()
	d.wantScreen("Signed out of Sandbox")
	d.wantScreen("Sign in to Sandbox")
	if d.m.env.owner != nil || strings.Contains(d.screen(), "Jane Doe") {
		t.Fatalf("the footer still names the user:\n%s", d.screen())
	}
	// Whoever signs in next is never shown the account seen, even from
	// memory.
	if _, _, kept := d.m.env.views.get("acc-0"); kept {
		t.Fatal("the account seen before the sign-out is still kept")
	}

	p := newDriver(t, fixture{rows: 3, project: true})
	p.press("O")
	if p.m.signingOut || strings.Contains(p.screen(), "Sign out") {
		t.Fatal("a project token offers to sign out")
	}
}

// TestWaitsAreLogged: the app writes nothing on stderr while it owns the
// screen; a wait is counted down in the footer and kept in the log, once.
func TestWaitsAreLogged(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	var log bytes.Buffer
	d.m.c.log = slog.New(slog.NewTextHandler(&log, nil))
	st := api.Status{RetryAt: testNow.Add(13 * time.Second), WaitReason: api.WaitRetryAfter}
	d.send(statusMsg{envTag{config.Sandbox}, st})
	d.send(statusMsg{envTag{config.Sandbox}, st})
	d.wantScreen("429 · sending in 13s")
	if n := strings.Count(log.String(), "requests wait"); n != 1 || !strings.Contains(log.String(), string(api.WaitRetryAfter)) {
		t.Fatalf("the wait was logged %d times:\n%s", n, log.String())
	}
}
