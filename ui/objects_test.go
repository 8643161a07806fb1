package ui

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/partnertui/partnertui/api"
)

// TestGoldenObjectViews snapshots every view of the account's other
// objects at 80×24 and 120×40. Refresh with
// go test ./ui -run TestGoldenObjectViews -update.
func TestGoldenObjectViews(t *testing.T) {
	t.Parallel()
	typed := func(s string) []string { return strings.Split(s, "") }
	palette := func(to string, then ...string) []string {
		return append(append(append([]string{":"}, typed(to)...), "enter"), then...)
	}
	scenes := []struct {
		name string
		keys []string
	}{
		{"vibans", []string{"enter", "6"}},
		{"viban", []string{"enter", "6", "enter"}},
		{"vibanadd", []string{"enter", "6", "n"}},
		{"vibanfilter", []string{"enter", "6", "f", "f"}},
		{"upcoming", []string{"enter", "7"}},
		{"orders", []string{"enter", "7", "o"}},
		{"order", []string{"enter", "7", "o", "enter"}},
		{"ordercancel", []string{"enter", "7", "o", "x"}},
		{"beneficiaries", []string{"enter", "8"}},
		{"beneficiary", []string{"enter", "8", "enter"}},
		{"holders", palette("holders")},
		{"holder", palette("holders", "j", "enter")},
		{"onboardings", palette("onboardings")},
		{"onboarding", palette("onboardings", "enter")},
		{"deposits", palette("deposits")},
		{"deposit", palette("deposits", "enter")},
		{"profiles", palette("profiles")},
		{"profile", palette("profiles", "enter")},
		{"link", palette("profiles", "enter", "enter")},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1], color: true}, withUpcoming)
				d.press(sc.keys...)
				golden.RequireEqual(t, asciiView(t, d))
			})
		}
	}
}

// withUpcoming gives the first account three transactions and two
// upcoming ones.
func withUpcoming(d *driver) {
	d.sbx.txs["acc-0"] = append(makeTxs("acc-0", 3), makeUpcoming("acc-0")...)
}

// Adding a virtual IBAN waits for y; then the platform adds it and the
// list shows it first, in at most four requests from the key; canceling
// it does the same. Any other key changes nothing and sends nothing.
func TestVirtualIbanAddedThenCanceled(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("enter", "6")
	d.wantScreen("Marketplace")
	before := d.sbx.requests()
	d.press("n")
	d.wantScreen("Add a virtual IBAN to this account?\ny confirm")
	d.press("q")
	if d.quit || len(d.sbx.changes) != 0 || d.sbx.requests() != before {
		t.Fatalf("a key other than y: quit %v, changes %v, %d requests", d.quit, d.sbx.changes, d.sbx.requests()-before)
	}
	d.wantScreen("Nothing changed")

	d.press("n", "y")
	if n := d.sbx.requests() - before; n > 4 || !slices.Equal(d.sbx.changes, []string{"add acc-0"}) {
		t.Fatalf("adding took %d requests (changes %v), want at most 4", n, d.sbx.changes)
	}
	added := d.sbx.vibans["acc-0"][0]
	d.wantScreen("Added the virtual IBAN FR76 3000 6000 0177 7777 7777 355")
	l := tabOf[*vibansScreen](t, d.account(), "Virtual IBANs")
	if row, _ := l.list.Selected(); row.ID != added.ID || l.list.Len() != 4 {
		t.Fatalf("after the add the list has %d rows, the first %s; want 4, %s first", l.list.Len(), row.ID, added.ID)
	}

	before = d.sbx.requests()
	d.press("x")
	d.wantScreen("Cancel the virtual IBAN FR76 3000 6000 0177 7777 7777 355? It takes no payment after that, for good.")
	d.press("y")
	if n := d.sbx.requests() - before; n > 4 {
		t.Fatalf("canceling took %d requests", n)
	}
	if row, _ := l.list.Selected(); row.Status != "Canceled" {
		t.Fatalf("the canceled IBAN reads %s", row.Status)
	}
	d.wantScreen("The virtual IBAN FR76 3000 6000 0177 7777 7777 355 is Canceled")
	// A canceled IBAN is not canceled again, and y copies it.
	d.press("x")
	if len(d.sbx.changes) != 2 {
		t.Fatalf("x on a canceled IBAN: %v", d.sbx.changes)
	}
	d.press("y")
	if len(d.copied) != 1 || d.copied[0] != added.IBAN {
		t.Fatalf("y copied %q, want %s", d.copied, added.IBAN)
	}
}

// The direct debit switch asks, then flips blockSDD, on the list and on
// one IBAN's screen, which takes what the change answered.
func TestVirtualIbanDirectDebitSwitch(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("enter", "6", "enter")
	d.wantScreen("Direct debits allowed")
	d.wantScreen("d deny direct debits")
	d.press("d")
	d.wantScreen("Deny the SEPA direct debits the virtual IBAN FR76 3000 6000 0112 3456 7890 089 receives?")
	d.press("y")
	d.wantScreen("Direct debits blocked")
	if s := topAs[*vibanScreen](d); s.keys.SDD.Help().Desc != "allow direct debits" {
		t.Fatalf("the switch now reads %q", s.keys.SDD.Help().Desc)
	}
	d.press("esc")
	d.wantScreen("blocked")
	if !slices.Equal(d.sbx.changes, []string{"sdd viban-acc-0-0 allow=false"}) {
		t.Fatalf("changes %v", d.sbx.changes)
	}
}

// Live is read-only: the tabs show the virtual IBANs and standing orders,
// but the keys that would change them are not bound there.
func TestObjectChangesAreNotOfferedInLive(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, liveSigned: true, w: 120, h: 40})
	d.press("e", "y", "enter", "6")
	d.wantScreen("Marketplace")
	s := d.screen()
	for _, k := range []string{"add a virtual IBAN", "cancel it", "direct debits"} {
		if strings.Contains(s, k) {
			t.Errorf("Live offers %q:\n%s", k, s)
		}
	}
	d.press("n", "x", "d", "7", "o", "x")
	if len(d.live.changes) != 0 || strings.Contains(d.screen(), "y confirms") {
		t.Fatalf("Live changed %v:\n%s", d.live.changes, d.screen())
	}
	if strings.Contains(d.screen(), "cancel standing order") {
		t.Errorf("Live offers to cancel a standing order:\n%s", d.screen())
	}
}

// The Upcoming tab counts what will leave the account and when, soonest
// first; o shows the standing orders, x cancels one after y, and the
// order's screen shows its history of payments. The cancel reads again
// the two lists it changes, not the other tabs' (the Virtual IBANs tab,
// seen before, among them).
func TestUpcomingAndStandingOrders(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, withUpcoming)
	d.press("enter", "6")
	d.wantScreen("Marketplace")
	d.press("7")
	d.wantScreen("Upcoming transactions (2)")
	d.wantScreen("Standing orders (2)")
	d.wantScreen("next 2026-12-01 -1250.00 EUR")
	d.press("o")
	d.wantScreen("SCI Les Tilleuls · Office rent")
	before := d.sbx.requests()
	d.press("x")
	d.wantScreen("Cancel the standing order Office rent · SCI Les Tilleuls? It makes no transfer after that.")
	d.press("y")
	if !slices.Equal(d.sbx.changes, []string{"cancel so-acc-0-0"}) || d.sbx.requests()-before != 3 {
		t.Fatalf("changes %v in %d requests, want the cancel, the standing orders and the upcoming transactions", d.sbx.changes, d.sbx.requests()-before)
	}
	d.wantScreen("The standing order Office rent · SCI Les Tilleuls is Canceled")
	u := tabOf[*upcomingScreen](t, d.account(), "Upcoming")
	if o, _ := u.orders.list.Selected(); o.StatusInfo.Status != "Canceled" {
		t.Fatalf("the canceled order reads %s", o.StatusInfo.Status)
	}
	d.press("x")
	if len(d.sbx.changes) != 1 {
		t.Fatal("a canceled order was offered to be canceled again")
	}
	d.press("enter")
	d.wantScreen("Transactions (3)")
	d.wantScreen("Rent 2026-10")
	d.wantScreen("Canceled · 2026-11-22")
	d.press("esc", "o")
	d.wantScreen("Upcoming transactions (2)")
}

// A beneficiary's screen lists the transfers sent to it with the payee
// verification each had; enter opens one.
func TestBeneficiaryTransfers(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.press("enter", "8")
	d.wantScreen("Landlord")
	d.press("enter")
	d.wantScreen("Transfers (3)")
	d.wantScreen("✓ match")
	d.wantScreen("~ close: SCI LES TILLEULS SARL")
	d.press("y")
	if len(d.copied) != 1 || d.copied[0] != "FR7630006000011234567890189" {
		t.Fatalf("y copied %q", d.copied)
	}
	d.press("j", "enter")
	d.wantScreen("Rent 2026-09")
	if _, ok := d.m.top().(*txDetailScreen); !ok {
		t.Fatalf("enter on a transfer opened %T", d.m.top())
	}
}

// The onboarding page opens in the browser where one would reach the
// user, and is copied everywhere; over SSH only the copy is offered.
func TestOnboardingPageOpensOrCopies(t *testing.T) {
	t.Parallel()
	for _, headless := range []bool{false, true} {
		d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40, headless: headless})
		jump(d, "onboardings")
		d.wantScreen("accountAdmin.birthDate, accountAdmin.email")
		d.press("enter")
		d.wantScreen("still needed: ProofOfIndividualAddress")
		d.press("o", "c")
		if headless && len(d.opened) != 0 {
			t.Errorf("over SSH o opened %v", d.opened)
		}
		if !headless && (len(d.opened) != 1 || d.opened[0] != "https://onboarding.example/o/0") {
			t.Errorf("o opened %v", d.opened)
		}
		if len(d.copied) != 1 || d.copied[0] != "https://onboarding.example/o/0" {
			t.Errorf("c copied %v", d.copied)
		}
	}
}

// Each view that opens by ID is the palette's, and an event of its type
// opens it.
func TestObjectViewsOpenByID(t *testing.T) {
	t.Parallel()
	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	for _, c := range []struct{ typed, want string }{
		{"standing-order so-acc-1-0", "Office rent · SCI Les Tilleuls"},
		{"beneficiary ben-acc-0-1", "US supplier · Acme Corp"},
		{"holder holder-acc-2", "The identity document had expired"},
		{"onboarding onb-2", "Account 0 · acc-0"},
		{"deposit cdc-0", "ExpiredDocument · expired in 2025"},
		{"profile mp-1", "SepaDirectDebitCore"},
		{"link pl-mp-0-0", "paid 2026-10-02 11:00 UTC"},
	} {
		jump(d, c.typed)
		d.wantScreen(c.want)
	}
	for prefix, kind := range map[string]resourceKind{"StandingOrder": resourceStandingOrder, "AccountHolder": resourceHolder,
		"Onboarding": resourceOnboarding, "MerchantProfile": resourceMerchantProfile, "MerchantPaymentLink": resourcePaymentLink,
		"CapitalDepositCaseEvent": resourceCapitalDeposit} {
		if got := d.m.c.resourceOf(prefix + ".Updated"); got != kind {
			t.Errorf("%s.Updated opens %q, want %q", prefix, got, kind)
		}
	}
}

// The verdict is what the tightest limit of known use leaves; a limit
// whose use is not reported bounds nothing the app can say.
func TestSpendingVerdict(t *testing.T) {
	t.Parallel()
	st := newStyles(true, true)
	eur := func(v string) api.Amount { return api.Amount{Value: v, Currency: "EUR"} }
	for _, c := range []struct {
		name string
		s    api.CardSpending
		want string
	}{
		{"room left", api.CardSpending{Limits: []api.SpendingLimit{{Type: "Partner", Period: "Monthly", Amount: eur("2000.00")}},
			Spending: &api.Spending{Period: "Monthly", Amount: &api.Amount{Value: "1999.01", Currency: "EUR"}}}, "✓ The next payment passes up to 0.99 EUR."},
		{"over the limit", api.CardSpending{Limits: []api.SpendingLimit{{Type: "Partner", Period: "Daily", Amount: eur("100.00")}},
			Spending: &api.Spending{Period: "Daily", Amount: &api.Amount{Value: "120.00", Currency: "EUR"}}}, "✗ The daily limit is used up"},
		{"use of another period", api.CardSpending{Limits: []api.SpendingLimit{{Type: "Partner", Period: "Weekly", Amount: eur("100.00")}},
			Spending: &api.Spending{Period: "Monthly", Amount: &api.Amount{Value: "20.00", Currency: "EUR"}}}, "reports no use of these limits"},
		{"no limit", api.CardSpending{}, "No spending limit applies"},
		{"the tightest of two", api.CardSpending{Limits: []api.SpendingLimit{{Type: "Partner", Period: "Monthly", Amount: eur("500.00")}},
			Spending:       &api.Spending{Period: "Monthly", Amount: &api.Amount{Value: "100.00", Currency: "EUR"}},
			MemberLimits:   []api.SpendingLimit{{Type: "AccountHolder", Period: "Monthly", Amount: eur("300.00")}},
			MemberSpending: &api.Spending{Period: "Monthly", Amount: &api.Amount{Value: "250.00", Currency: "EUR"}}},
			"✓ The next payment passes up to 50.00 EUR (the member monthly limit)."},
	} {
		lines := spendingLines(st, 120, &c.s)
		if got := lines[len(lines)-1]; !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if u := (limitUse{used: big.NewRat(3, 1), max: big.NewRat(2, 1)}); u.left().Sign() != 0 {
		t.Errorf("a limit overspent leaves %s", u.left().FloatString(2))
	}
}
