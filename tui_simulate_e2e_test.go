package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit/consent"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// demoJSON runs the --demo command line with args and decodes its --json
// answer into v.
func demoJSON(t *testing.T, tm *tmux, bin string, v any, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--demo"}, args...)...)
	cmd.Env = tm.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("partnertui --demo %v: %v", args, err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("partnertui --demo %v: %v\n%s", args, err, out)
	}
}

// payableDemoCard is a card of the demo user that payments can be
// authorized on: Enabled, on an Opened account. The demo's data is the
// same on every run.
func payableDemoCard(t *testing.T, tm *tmux, bin string) string {
	t.Helper()
	type status struct {
		Status string `json:"status"`
	}
	var accounts []struct {
		ID         string `json:"id"`
		StatusInfo status `json:"statusInfo"`
	}
	demoJSON(t, tm, bin, &accounts, "accounts", "--json")
	var opened []string
	for _, a := range accounts {
		if a.StatusInfo.Status == "Opened" {
			opened = append(opened, a.ID)
		}
	}
	var cards []struct {
		ID                string `json:"id"`
		StatusInfo        status `json:"statusInfo"`
		AccountMembership struct {
			AccountID string `json:"accountId"`
		} `json:"accountMembership"`
	}
	demoJSON(t, tm, bin, &cards, "cards", "--json")
	for _, c := range cards {
		if c.StatusInfo.Status == "Enabled" && slices.Contains(opened, c.AccountMembership.AccountID) {
			return c.ID
		}
	}
	t.Fatalf("none of the demo user's %d cards is Enabled on an Opened account", len(cards))
	return ""
}

// startDemoAt starts --demo at w×h, signs in as the demo user and jumps
// with the : palette to target ("card ID").
func startDemoAt(tm *tmux, w, h int, bin, target string) {
	tm.t.Helper()
	tm.startDemo(w, h, bin)
	tm.keys(":")
	tm.waitFor("palette", "accounts  transactions  members  cards")
	tm.keys(target, "Enter")
}

// TestTmuxCardPaymentAuthorizedThenDebited is issue 21's end-to-end test,
// at 80×24 and 120×40: on a card's screen s authorizes a payment, which
// shows Pending; s again debits it (the authorization prefilled, its label
// spaced from it: issue 32, item 22), and the screen shows the debit
// Booked and the authorization Released, with r never pressed.
func TestTmuxCardPaymentAuthorizedThenDebited(t *testing.T) {
	t.Parallel()
	bin := realBinary.Path(t)
	card := payableDemoCard(t, newTmux(t), bin)
	eachSize(t, func(t *testing.T, w, h int) {
		tm := newTmux(t)
		startDemoAt(tm, w, h, bin, "card "+card)
		tm.waitFor("card", "Options", "Limits", "s simulate a payment")

		tm.keys("s")
		tm.waitFor("simulation menu", "Simulate ▸ authorize", "debit · release · reverse", "enter run")
		tm.keys("42", "Enter")
		tm.waitFor("the authorization, Pending", "Authorized 42 EUR on the card", "card authorization · 42.00 EUR · Pending")

		tm.keys("s", "Down")
		tm.waitFor("the debit's form", "Simulate ▸ debit", "Transaction:")
		// The authorization prefilled, a space after its label (issue 32,
		// item 22).
		if !regexp.MustCompile(`Transaction: +\S`).MatchString(tm.capture()) {
			t.Errorf("the debit's form runs its label into its value, or has none:\n%s", tm.capture())
		}
		tm.keys("Enter")
		booked := []string{"card debit · 42.00 EUR · Booked", "card authorization · 42.00 EUR · Released · Cap"}
		if w >= 120 {
			// 80 columns cut the authorization's row at its reason.
			booked[1] += "tured"
		}
		tm.waitFor("the payment, Booked", booked...)
		tm.keys("q")
		tm.waitExit()
	})
}

// answerInBrowser answers a payment's consent page as a browser does:
// the form posted, the redirect followed. It returns the page it lands
// on, which must load.
func answerInBrowser(t *testing.T, consentURL, decision string) string {
	t.Helper()
	u, err := url.Parse(consentURL)
	if err != nil {
		t.Fatalf("consent URL %q: %v", consentURL, err)
	}
	form := url.Values{"consentId": {u.Query().Get("consentId")}, "decision": {decision}}
	u.RawQuery = ""
	resp, err := (&http.Client{Timeout: 30 * time.Second}).PostForm(u.String(), form)
	if err != nil {
		t.Fatalf("answering the consent, then following its redirect: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the consent's redirect landed on %s: HTTP %d (%v)\n%s", resp.Request.URL, resp.StatusCode, err, body)
	}
	return string(body)
}

// TestTmuxTransferWaitsForConsent drives the real binary against an
// emulator whose demo user does not consent automatically, at 80×24 and
// 120×40: the Overview's "send a transfer" refuses an IBAN whose check
// digits are wrong before anything is sent (issue 32, item 15), then shows
// the payment's consent page, o opens it with the user's $BROWSER (a
// script that keeps the address), the page answered in a browser lands on
// partnertui's own page, which loads (issue 32, item 22), and the transfer
// is followed, with r never pressed.
func TestTmuxTransferWaitsForConsent(t *testing.T) {
	t.Parallel()
	home := newTmux(t)
	bin := realBinary.Path(t)
	emu := startEmulatorProcess(t, bin, 30, "1000000/1m")
	cfgPath := writeUserConfig(t, filepath.Join(home.tmpdir, "config.toml"), emu, "")
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	env := cfg.Env(config.Sandbox)
	sess := signin.Session(t, emu.kit, env, home.home.Locations.State)
	user, err := api.New(api.Options{Env: "sandbox", GraphQLURL: env.GraphQLURL(), TestingURL: env.TestingGraphQLURL(), TokenSource: sess.TokenSource()})
	if err != nil {
		t.Fatal(err)
	}
	defer user.Close()
	consent.Manual(t, user, emu.kit.DemoUser(t, config.Sandbox).UserID)
	page, err := user.Accounts(context.Background(), api.AccountsParams{First: 50, Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	accountID := ""
	for _, a := range page.Items {
		if a.IBAN != "" {
			accountID = a.ID
			break
		}
	}
	if accountID == "" {
		t.Fatalf("none of %d opened accounts has an IBAN", len(page.Items))
	}

	// The user's browser: a script that keeps the address it is given.
	opened := filepath.Join(home.tmpdir, "opened.txt")
	browser := filepath.Join(home.tmpdir, "browser.sh")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nprintf '%s' \"$1\" > '"+opened+"'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i, kv := range home.env {
		if strings.HasPrefix(kv, "BROWSER=") {
			home.env[i] = "BROWSER=" + browser
		}
	}

	// One session a size, of the same home (signed in, the browser set).
	eachSize(t, func(t *testing.T, w, h int) {
		tm := newTmuxAt(t, home)
		_ = os.Remove(opened)
		tm.start(w, h, bin, "--config", cfgPath)
		tm.waitFor("account list", "Accounts", "row 1 of")
		tm.keys(":")
		tm.waitFor("palette", "accounts  transactions  members  cards")
		tm.keys("account "+accountID, "Enter")
		tm.waitFor("the account", "IBAN", "Your rights")
		tm.keys("s", "Up")
		tm.waitFor("the transfer's form", "Simulate ▸ send a transfer", "To IBAN:")
		tm.keys("Tab", "FR76 3000 6000 0112 3456 7890 188", "Enter")
		tm.waitFor("the wrong IBAN refused", "✗ enter a valid IBAN (check digits do not match)", "Simulate ▸ send a transfer")
		tm.keys("BSpace", "9", "Enter")
		tm.waitForWords("the consent", "The transfer waits for your consent (payment ", "waiting for your consent", "/sandbox-consent?consentId=")
		tm.keys("o")
		tm.waitFor("the browser started", "The consent page is open in your browser")
		address, err := os.ReadFile(opened)
		if err != nil || !strings.Contains(string(address), "/sandbox-consent?consentId=") {
			t.Fatalf("the browser was given %q (%v), want the consent page", address, err)
		}
		landed := answerInBrowser(t, string(address), "accept")
		if !strings.Contains(landed, "go back to partnertui") {
			t.Fatalf("the consent's redirect landed on:\n%s", landed)
		}
		tm.waitFor("the transfer sent and followed", "Sent 10.00 EUR (payment ", "outgoing transfer · 10.00 EUR")
		tm.keys("q")
		tm.waitExit()
	})
}
