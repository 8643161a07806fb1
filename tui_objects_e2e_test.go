package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
)

// requestRow is a row of the app's Requests view (L): its number and its
// operation.
var requestRow = regexp.MustCompile(`(?m)^[● ] (\d+)\s+\d\d:\d\d:\d\d\s+\S+\s+(\S+)`)

// requestsAfter opens the app's Requests view (L), reads the operations
// sent after request number after, oldest first, and the newest request's
// number, then closes it (esc) back to the screen whose title is under.
func (m *tmux) requestsAfter(after int, under string) ([]string, int) {
	m.t.Helper()
	m.keys("L")
	m.waitFor("the requests", "requests kept, newest first")
	var ops []string
	newest := after
	for _, row := range requestRow.FindAllStringSubmatch(m.capture(), -1) {
		n, _ := strconv.Atoi(row[1])
		if n > after {
			ops = append(ops, row[2])
		}
		newest = max(newest, n)
	}
	slices.Reverse(ops)
	m.keys("Escape")
	m.waitFor("the screen under the requests", under)
	return ops, newest
}

// objectsAccount is a demo account for TestTmuxAccountObjects: Opened,
// with an IBAN, virtual IBANs (so the one added must come first), a
// standing order that is not canceled and beneficiaries.
type objectsAccount struct {
	id, name string
	vibans   int    // its virtual IBANs
	order    int    // the standing order to cancel, in the app's order
	orderRow string // that order's beneficiary · label, as its row shows it
}

func findObjectsAccount(t *testing.T, tm *tmux, bin string) objectsAccount {
	t.Helper()
	var accounts []api.Account
	demoJSON(t, tm, bin, &accounts, "accounts", "--json", "--all")
	for _, a := range accounts {
		if a.StatusInfo.Status != "Opened" || a.IBAN == "" {
			continue
		}
		var vibans []api.VirtualIban
		var orders []api.StandingOrder
		var benefs []api.Beneficiary
		demoJSON(t, tm, bin, &vibans, "virtual-ibans", "--account", a.ID, "--json", "--all")
		demoJSON(t, tm, bin, &orders, "standing-orders", "--account", a.ID, "--json", "--all")
		demoJSON(t, tm, bin, &benefs, "beneficiaries", "--account", a.ID, "--json", "--all")
		j := slices.IndexFunc(orders, func(o api.StandingOrder) bool { return o.StatusInfo.Status != "Canceled" })
		if len(vibans) == 0 || j < 0 || len(benefs) == 0 {
			continue
		}
		o := &orders[j]
		return objectsAccount{id: a.ID, name: a.Name, vibans: len(vibans), order: j, orderRow: o.SepaBeneficiary.Name + " · " + o.Label}
	}
	t.Fatalf("none of the demo user's %d accounts is Opened with an IBAN, virtual IBANs, a standing order to cancel and beneficiaries", len(accounts))
	return objectsAccount{}
}

// TestTmuxAccountObjects is issue 28's end-to-end test, the real binary
// under --demo (the modelled emulator): opening an account and drawing its
// balance chart is one request, going through its eight tabs none; on its Virtual IBANs tab n then y
// adds one, listed first within four requests of the key, and x then y
// cancels it, its row read again Canceled; on its Upcoming tab, x then y
// cancels a standing order; on its Beneficiaries tab, enter shows a
// beneficiary's transfers with their payee verification. The requests are
// counted in the app's own request log (L).
func TestTmuxAccountObjects(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	acct := findObjectsAccount(t, tm, bin)
	// screen is the title line of one of the account's tabs.
	screen := func(tab string) string {
		if tab == "Overview" {
			return "Accounts › " + acct.name + "\n"
		}
		return "Accounts › " + acct.name + " › " + tab + "\n"
	}

	tm.startDemo(120, 40, bin)
	_, seen := tm.requestsAfter(0, "row 1 of")
	tm.keys(":")
	tm.waitFor("palette", "accounts  transactions  members  cards")
	tm.keys("account "+acct.id, "Enter")
	tm.waitFor("the account", "Your rights", "tab/1-8 to change")
	// The balance chart came with the account: its last 30 days' bookings
	// fit a page. Every tab: the account's one request brought them all.
	// The Upcoming tab keeps what it shows, so o twice leaves it on its
	// upcoming transactions.
	tm.waitFor("the balance chart", "Booked balance · last 30 days", "; adds up with")
	for _, k := range []string{"2", "3", "4", "5", "6", "7", "o", "o", "8", "1"} {
		tm.keys(k)
	}
	tm.waitFor("the Overview again", screen("Overview"), "Your rights")
	ops, seen := tm.requestsAfter(seen, screen("Overview"))
	if want := []string{api.OpAccountViewUser}; !slices.Equal(ops, want) {
		t.Fatalf("from enter through every tab: %q, want the account's one request: %q", ops, want)
	}

	// Add a virtual IBAN: the mutation and the list read again.
	tm.keys("6")
	tm.waitFor("the virtual IBANs", screen("Virtual IBANs"), "SDD", fmt.Sprintf("of %d/%d", acct.vibans, acct.vibans))
	tm.keys("n")
	tm.waitFor("the question", "Add a virtual IBAN to this account?", "y confirm")
	tm.keys("y")
	n := acct.vibans + 1
	tm.waitFor("the list with the IBAN added first", "Added the virtual IBAN ", fmt.Sprintf("row 1 of %d/%d", n, n))
	added := regexp.MustCompile(`Added the virtual IBAN ([A-Z0-9 ]+[0-9])`).FindStringSubmatch(tm.capture())
	if added == nil {
		t.Fatalf("the flash does not name the IBAN added:\n%s", tm.capture())
	}
	first := regexp.MustCompile(`(?m)^IBAN .*\n(.*)$`).FindStringSubmatch(tm.capture())
	if first == nil || !strings.HasPrefix(first[1], added[1]+" ") || !strings.Contains(first[1], "Enabled") {
		t.Fatalf("the first row is not the IBAN added, %s, Enabled:\n%s", added[1], tm.capture())
	}
	ops, seen = tm.requestsAfter(seen, screen("Virtual IBANs"))
	if len(ops) > 4 || len(ops) == 0 || ops[0] != api.OpAddVirtualIbanEntry || !slices.Contains(ops, api.OpVirtualIbans) {
		t.Fatalf("from n to the updated list: %q, want the mutation, the list, at most 4 requests", ops)
	}
	t.Logf("from n to the updated list: %d requests %q", len(ops), ops)

	// Cancel it: its row reads Canceled once the list is read again.
	if !iban.Valid(added[1]) {
		t.Fatalf("the flash names %q, not an IBAN", added[1])
	}
	tm.keys("x")
	tm.waitFor("the question", "Cancel the virtual IBAN "+added[1]+"?")
	tm.keys("y")
	canceledRow := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(added[1]) + ` +Canceled `)
	if !poll(time.Minute, func() bool { return canceledRow.MatchString(tm.capture()) }) {
		t.Fatalf("the IBAN canceled does not read Canceled:\n%s", tm.capture())
	}
	tm.waitFor("the flash", "The virtual IBAN "+added[1]+" is Canceled")
	ops, seen = tm.requestsAfter(seen, screen("Virtual IBANs"))
	if len(ops) > 4 || len(ops) == 0 || ops[0] != api.OpCancelVirtualIbanEntry || !slices.Contains(ops, api.OpVirtualIbans) {
		t.Fatalf("from y to the updated list: %q", ops)
	}
	t.Logf("from y to the updated list: %d requests %q", len(ops), ops)

	// Cancel a standing order: its row reads Canceled.
	tm.keys("7")
	tm.waitFor("the upcoming tab", "Upcoming transactions (", "Standing orders (", "o standing orders")
	tm.keys("o")
	tm.waitFor("the standing orders", "Beneficiary · label", "o upcoming transactions")
	for range acct.order {
		tm.keys("j")
	}
	tm.keys("x")
	tm.waitFor("the question", "Cancel the standing order "+acct.orderRow+"?")
	tm.keys("y")
	orderRow := regexp.MustCompile(`(?m)^.*` + regexp.QuoteMeta(acct.orderRow) + ` +Canceled *$`)
	if !poll(time.Minute, func() bool { return orderRow.MatchString(tm.capture()) }) {
		t.Fatalf("the order canceled does not read Canceled:\n%s", tm.capture())
	}
	tm.waitFor("the flash", "The standing order "+acct.orderRow+" is Canceled")
	// The cancel reads again the two lists it changes, and no other tab's.
	ops, seen = tm.requestsAfter(seen, screen("Upcoming"))
	if len(ops) != 3 || ops[0] != api.OpCancelStandingOrder || !slices.Contains(ops, api.OpStandingOrders) || !slices.Contains(ops, api.OpAccountTransactionList) {
		t.Fatalf("from y to the updated orders: %q, want the mutation, the standing orders and the upcoming transactions", ops)
	}
	t.Logf("from y to the updated standing orders: %d requests %q", len(ops), ops)

	// A beneficiary's transfers, with the payee verification of each.
	tm.keys("8")
	tm.waitFor("the beneficiaries", "IBAN or route", "row 1 of")
	tm.keys("Enter")
	tm.waitFor("a beneficiary's transfers", "Transfers (", "Payee check", "enter open transfer")
	if !regexp.MustCompile(`✓ match|~ close:|✗ no match|· not possible`).MatchString(tm.capture()) {
		t.Errorf("no transfer shows its payee verification:\n%s", tm.capture())
	}
	ops, _ = tm.requestsAfter(seen, "Transfers (")
	if len(ops) != 1 || ops[0] != api.OpBeneficiaryTransfers {
		t.Errorf("opening a beneficiary: %q, want its transfers alone", ops)
	}
	tm.keys("q")
	tm.waitExit()
}
