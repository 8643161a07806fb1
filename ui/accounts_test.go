package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
)

// Launch with a saved session: the signed-in user and the first page come
// in one request, and the footer names the user.
func TestLaunchToFirstRowsIsOneRequest(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 250, signedIn: true})
	d.accounts()
	if n := d.sbx.requests(); n != 1 || len(d.sbx.homes) != 1 || d.sbx.homes[0] {
		t.Fatalf("%d requests before the first rows (Home calls %v)", n, d.sbx.homes)
	}
	d.wantScreen("row 1 of 100/250")
	d.wantScreen("Jane Doe")
}

// After a sign-in, asking who signed in brings the first page along.
func TestSignInToFirstRowsIsOneRequest(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 250})
	if n := d.sbx.requests(); n != 0 {
		t.Fatalf("%d requests on the sign-in screen", n)
	}
	d.press("enter")
	d.accounts()
	if n := d.sbx.requests(); n != 1 {
		t.Fatalf("%d requests from sign-in to the first rows", n)
	}
	d.wantScreen("row 1 of 100/250")
}

func TestBottomOfEightyThousandAccountsInOneRequest(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 80000, signedIn: true})
	a := d.accounts()
	n := d.sbx.requests()
	d.press("G")
	if got := d.sbx.requests() - n; got > 2 {
		t.Fatalf("G cost %d requests", got)
	}
	if sel, ok := a.list.Selected(); !ok || sel.ID != "acc-79999" {
		t.Fatalf("G selected %+v", sel)
	}
	d.wantScreen("Account 79999")
	d.wantScreen("row 80000 of 200/80000")
	// Up from the bottom, the rows above load as the cursor nears them.
	for range 6 {
		d.press("pgup")
	}
	d.wantScreen("Account 79890")
	if last := d.sbx.calls[len(d.sbx.calls)-1]; last.Direction != api.DirectionAsc || last.After != "acc-79900" {
		t.Fatalf("the rows above the last page were not read upwards: %+v", last)
	}
}

// r on row 876 keeps the cursor on the same account, at the same line,
// with the rows around it, even when accounts were added at the top.
func TestRefreshKeepsTheSelectedAccount(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 2000, signedIn: true})
	a := d.accounts()
	for a.list.Cursor() < 876 {
		d.press("pgdown")
	}
	for a.list.Cursor() > 876 {
		d.press("k")
	}
	before, _ := a.list.Selected()
	screenBefore := d.screen()
	d.sbx.accounts = append(makeAccounts(3), d.sbx.accounts...)
	for i := range 3 {
		d.sbx.accounts[i].ID, d.sbx.accounts[i].Name = fmt.Sprintf("new-%d", i), fmt.Sprintf("New %d", i)
	}
	n := d.sbx.requests()
	d.press("r")
	after, _ := a.list.Selected()
	if after.ID != before.ID {
		t.Fatalf("r moved the cursor from %s to %s", before.ID, after.ID)
	}
	if got := d.sbx.requests() - n; got != 2 {
		t.Fatalf("refresh cost %d requests", got)
	}
	// The same rows are on screen, in the same places.
	body := func(s string) string { return strings.Join(strings.Split(s, "\n")[1:20], "\n") }
	if body(d.screen()) != body(screenBefore) {
		t.Fatalf("the rows moved:\nbefore\n%s\nafter\n%s", screenBefore, d.screen())
	}
	d.wantScreen("row 877 of 200/2003")
}

// Text that looks like an IBAN searches by mainIBAN, spaces and case
// ignored, and not by name.
func TestIBANSearchSendsMainIBAN(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	a := d.accounts()
	d.sbx.accounts[7].IBAN = "DE89370400440532013000"
	d.press("/")
	d.send(tea.PasteMsg{Content: "de89 3704 0044 0532 0130 00"})
	d.fire(func(m tea.Msg) bool { _, ok := m.(filterTickMsg); return ok })
	d.press("enter")
	last := d.sbx.calls[len(d.sbx.calls)-1]
	if last.MainIBAN != "DE89370400440532013000" || last.Search != "" {
		t.Fatalf("IBAN search sent %+v", last)
	}
	if sel, _ := a.list.Selected(); a.list.Len() != 1 || sel.ID != "acc-7" {
		t.Fatalf("found %d accounts, selected %s", a.list.Len(), sel.ID)
	}
	d.wantScreen("IBAN DE89 3704 0044 0532 0130 00")
	// A name is still a name.
	d.press("/", "backspace")
	for range 30 {
		d.press("backspace")
	}
	d.press("A", "c", "c")
	d.fire(func(m tea.Msg) bool { _, ok := m.(filterTickMsg); return ok })
	if last := d.sbx.calls[len(d.sbx.calls)-1]; last.Search != "Acc" || last.MainIBAN != "" {
		t.Fatalf("name search sent %+v", last)
	}
}

func TestIBANSearchWithNoMatchSaysSo(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("/")
	d.send(tea.PasteMsg{Content: "DE89370400440532013000"})
	d.press("enter")
	d.wantScreen("No account has the IBAN DE89 3704 0044 0532 0130 00. Press esc to clear the filter.")
}

// With a project token there is no sign-in: the home screen is the
// project's accounts, the footer names the project, and the session store
// is never read.
func TestProjectModeShowsTheProjectsAccounts(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 5, project: true})
	d.accounts()
	if len(d.sbx.homes) != 1 || !d.sbx.homes[0] {
		t.Fatalf("Home calls %v, want one for the project", d.sbx.homes)
	}
	d.wantScreen("project Acme Payments")
	d.wantScreen("row 1 of 5/5")
	if d.sbxS.reads != 0 || d.sbxS.logins != 0 {
		t.Fatalf("the session was used: %d reads, %d logins", d.sbxS.reads, d.sbxS.logins)
	}
	// Live too, and back.
	d.press("e", "y")
	d.accounts()
	d.wantScreen("LIVE")
	d.wantScreen("project Acme Payments")
	if d.liveS.reads != 0 {
		t.Fatalf("the Live session store was read %d times", d.liveS.reads)
	}
}

// A refused project token is an error on screen with its remedy, never a
// trip to a sign-in that cannot help.
func TestProjectModeRefusedTokenStaysOnScreen(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 5, project: true, w: 200, h: 40})
	d.sbx.err = &api.UnauthorizedError{Env: "sandbox", Status: 401, Message: "invalid token"}
	d.press("r")
	d.accounts()
	d.wantScreen("The Sandbox API refused the access token (HTTP 401: invalid token).")
	d.wantScreen("Check client_id and the client secret under [sandbox] in the config file, then press r to try again.")
	if strings.Contains(d.screen(), TextSignIn) {
		t.Fatal("a refused project token showed the sign-in")
	}
	// At launch, the same: the error screen, with the same remedy.
	d = newDriverWith(t, fixture{rows: 5, project: true, w: 200, h: 40}, func(d *driver) {
		d.sbx.err = &api.UnauthorizedError{Env: "sandbox", Status: 401}
	})
	d.accounts()
	d.wantScreen("Could not load the accounts. The Sandbox API refused the access token (HTTP 401).")
	d.sbx.err = nil
	d.press("r")
	d.wantScreen("row 1 of 5/5")
}

// Update never reads the session store: every path that needs it (launch,
// switches, sign-in, a refused session) does so in a command. The fake
// session fails the test when a read happens while Update runs.
func TestSessionStoreIsReadOnlyInCommands(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true})
	d.press("e", "y") // Live, signed out: sign-in
	d.signin()
	d.press("enter") // sign in to Live
	d.accounts()
	d.press("e") // back to Sandbox
	d.accounts()
	d.sbx.err = &api.UnauthorizedError{Env: "sandbox", Status: 401}
	d.press("r")
	d.signin()
	if d.sbxS.reads == 0 || d.liveS.reads == 0 {
		t.Fatalf("the paths were not taken: %d Sandbox and %d Live reads", d.sbxS.reads, d.liveS.reads)
	}
	if d.m.env.Name != config.Sandbox {
		t.Fatalf("on %s", d.m.env.Name)
	}
}
