package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testkit"
)

// The account's other objects (virtual IBANs, standing orders, trusted
// beneficiaries, card spending, account holders, onboardings, capital
// deposits, merchant profiles and payment links): their enums, their
// parameters, and every operation of theirs on an emulator that serves
// the public schema.

func TestObjectEnumListsAreTheSchemas(t *testing.T) {
	t.Parallel()
	schema := loadSchema(t, "partner-schema.graphql")
	for enum, got := range map[string][]string{
		"IBANStatus":                            VirtualIbanStatuses(),
		"StandingOrderStatus":                   StandingOrderStatuses(),
		"AccountStandingOrderOrderByFieldInput": StandingOrderOrderFields(),
		"TrustedBeneficiaryStatus":              BeneficiaryStatuses(),
		"BeneficiaryType":                       BeneficiaryTypes(),
		"TrustedBeneficiaryOrderByFieldInput":   BeneficiaryOrderFields(),
		"AccountHolderType":                     HolderTypes(),
		"VerificationStatus":                    VerificationStatuses(),
		"AccountHolderStatus":                   HolderStatuses(),
		"AccountHolderOrderByFieldInput":        HolderOrderFields(),
		"OnboardingStatus":                      OnboardingStatuses(),
		"OnboardingOrderByFieldInput":           OnboardingOrderFields(),
		"CapitalDepositStatus":                  CapitalDepositStatuses(),
		"CapitalDepositCaseOrderByFieldInput":   CapitalDepositOrderFields(),
		"MerchantProfileStatus":                 MerchantProfileStatuses(),
		"MerchantProfileOrderByFieldInput":      MerchantProfileOrderFields(),
		"MerchantPaymentLinkStatus":             PaymentLinkStatuses(),
		"MerchantPaymentLinkOrderByFieldInput":  PaymentLinkOrderFields(),
	} {
		def := schema.Types[enum]
		if def == nil {
			t.Errorf("the schema has no enum %s", enum)
			continue
		}
		var want []string
		for _, v := range def.EnumValues {
			want = append(want, v.Name)
		}
		slices.Sort(want)
		sorted := slices.Sorted(slices.Values(got))
		if !slices.Equal(sorted, want) {
			t.Errorf("%s: the client lists %v, the schema %v", enum, got, want)
		}
	}
}

// Bad parameters are refused before anything is sent, naming the
// parameter.
func TestObjectParamsAreCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { calls.Add(1) }), nil)
	ctx := context.Background()
	for name, err := range map[string]error{
		"virtual IBANs without account": second(c.VirtualIbans(ctx, VirtualIbansParams{})),
		"virtual IBAN status":           second(c.VirtualIbans(ctx, VirtualIbansParams{AccountID: "a", Statuses: []string{"Closed"}})),
		"standing order status":         second(c.StandingOrders(ctx, StandingOrdersParams{AccountID: "a", Statuses: []string{"Done"}})),
		"standing order order":          second(c.StandingOrders(ctx, StandingOrdersParams{AccountID: "a", OrderBy: "label"})),
		"standing order transactions":   second(c.StandingOrderTransactions(ctx, NestedParams{})),
		"beneficiaries without account": second(c.Beneficiaries(ctx, BeneficiariesParams{})),
		"beneficiary type":              second(c.Beneficiaries(ctx, BeneficiariesParams{AccountID: "a", Types: []string{"Swift"}})),
		"beneficiary transfers":         second(c.BeneficiaryTransfers(ctx, NestedParams{})),
		"holder verification":           second(c.AccountHolders(ctx, AccountHoldersParams{VerificationStatuses: []string{"Done"}})),
		"holder accounts":               second(c.AccountHolderAccounts(ctx, NestedParams{})),
		"onboarding status":             second(c.Onboardings(ctx, OnboardingsParams{Statuses: []string{"Ongoing"}})),
		"capital deposit status":        second(c.CapitalDeposits(ctx, CapitalDepositsParams{Statuses: []string{"Initiated"}})),
		"merchant profile status":       second(c.MerchantProfiles(ctx, MerchantProfilesParams{Statuses: []string{"Active"}})),
		"payment links without profile": second(c.PaymentLinks(ctx, PaymentLinksParams{})),
		"payment link status":           second(c.PaymentLinks(ctx, PaymentLinksParams{MerchantProfileID: "m", Statuses: []string{"Paid"}})),
	} {
		if !errors.Is(err, ErrInvalidParam) {
			t.Errorf("%s: err = %v, want ErrInvalidParam", name, err)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d requests sent for invalid parameters", n)
	}
}

// The account's one request, with the first page of every list an
// account's view can carry, counted by the project's own operation
// counter (internal/gqlop) as the platform counts it: within the Sandbox
// limits.
func TestAccountViewWithinTheSandboxLimitsByTheOperationCounter(t *testing.T) {
	t.Parallel()
	ops, err := Operations()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, o := range ops {
		if o.Name != OpAccountView && o.Name != OpAccountViewUser {
			continue
		}
		seen++
		op, err := gqlop.Parse(o.Query, o.Name)
		if err != nil {
			t.Fatalf("%s does not parse: %v", o.Name, err)
		}
		c := op.Count(gqlop.SandboxLimits())
		t.Logf("%s with every list: %d fields, depth %d, %d top-level fields", o.Name, c.Fields, c.Depth, c.TopLevel)
		if len(c.Broken) > 0 || c.Partial {
			t.Errorf("%s breaks the Sandbox limits: %v", o.Name, c.Broken)
		}
		if c.Fields > platform.MaxFields || c.Depth > platform.MaxDepth || c.TopLevel > platform.MaxTopLevel {
			t.Errorf("%s: %d fields, depth %d, %d top-level: over the limits", o.Name, c.Fields, c.Depth, c.TopLevel)
		}
		for _, list := range []string{"virtualIbanEntries", "standingOrders", "trustedBeneficiaries", "upcoming: transactions"} {
			if !strings.Contains(o.Query, list) {
				t.Errorf("%s does not read %s", o.Name, list)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("found %d account view operations, want 2", seen)
	}
}

// objectsRun is the modelled emulator (what a mutation makes is read
// back), with a user and a project client.
type objectsRun struct {
	user, project *Client
	accountID     string
}

func startObjectsRun(t *testing.T) *objectsRun {
	t.Helper()
	// 40 accounts: the seed's standing orders with an execution are those
	// of an account's scheduled transfers, a few in 40 accounts.
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 40})
	_, userToken := sandboxUser(t, e.Info)
	r := &objectsRun{user: emulatorClient(t, e.Info, "sandbox", userToken, nil),
		project: emulatorClient(t, e.Info, "sandbox", projectTokenSource(t, e.Info, "sandbox"), nil)}
	r.accountID = openAccount(t, r.user).ID
	return r
}

// objectOperations runs every operation of the account's other objects,
// for TestEveryOperationRunsOnTheEmulator.
func objectOperations(t *testing.T, cov *opCoverage) {
	r := startObjectsRun(t)
	t.Run("virtual IBANs", func(t *testing.T) { virtualIbanOperations(t, cov, r) })
	t.Run("standing orders", func(t *testing.T) { standingOrderOperations(t, cov, r) })
	t.Run("beneficiaries", func(t *testing.T) { beneficiaryOperations(t, cov, r) })
	t.Run("holders and onboardings", func(t *testing.T) { holderOperations(t, cov, r) })
	t.Run("merchants", func(t *testing.T) { merchantOperations(t, cov, r) })
	t.Run("account view", func(t *testing.T) { objectsAccountView(t, cov, r) })
}

// firstOf is the first item of a page that must have one.
func firstOf[T any](t *testing.T, what string, p *Page[T]) *T {
	t.Helper()
	if p == nil || len(p.Items) == 0 {
		t.Fatalf("%s: the emulator listed none", what)
	}
	return &p.Items[0]
}

// A virtual IBAN added is listed first; canceled, it is read back so.
func virtualIbanOperations(t *testing.T, cov *opCoverage, r *objectsRun) {
	ctx := context.Background()
	added, err := r.user.AddVirtualIban(ctx, r.accountID)
	cov.ok(t, OpAddVirtualIbanEntry, err)
	if added.ID == "" || added.IBAN == "" {
		t.Fatalf("added %+v", added)
	}
	list, err := r.user.VirtualIbans(ctx, VirtualIbansParams{AccountID: r.accountID, First: 5})
	cov.ok(t, OpVirtualIbans, err)
	if got := firstOf(t, "virtual IBANs", list); got.ID != added.ID || got.IBAN != added.IBAN {
		t.Errorf("the first virtual IBAN is %s, want the one added, %s", got.ID, added.ID)
	}
	denied, err := r.user.SetVirtualIbanSDD(ctx, added.ID, false)
	cov.ok(t, OpDenySddVirtualIbanEntry, err)
	allowed, err := r.user.SetVirtualIbanSDD(ctx, added.ID, true)
	cov.ok(t, OpAllowSddVirtualIbanEntry, err)
	if denied.ID == "" || allowed.ID == "" {
		t.Errorf("the direct debit switch answered %+v and %+v", denied, allowed)
	}
	canceled, err := r.user.CancelVirtualIban(ctx, added.ID)
	cov.ok(t, OpCancelVirtualIbanEntry, err)
	if canceled.ID != added.ID || canceled.Status != "Canceled" {
		t.Errorf("canceled %+v", canceled)
	}
	list, err = r.user.VirtualIbans(ctx, VirtualIbansParams{AccountID: r.accountID, First: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := firstOf(t, "virtual IBANs", list); got.ID != added.ID || got.Status != "Canceled" {
		t.Errorf("after the cancel the list reads %s %s, want %s Canceled", got.ID, got.Status, added.ID)
	}
}

// A standing order is read alone as the list has it, with its
// transactions; canceled, it is read back Canceled. The order is the
// first Enabled one that has executed, of the project's accounts.
func standingOrderOperations(t *testing.T, cov *opCoverage, r *objectsRun) {
	ctx := context.Background()
	accounts, err := r.project.Accounts(ctx, AccountsParams{First: 50, Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	var so *StandingOrder
	var txs *Page[TransactionDetail]
	listed := 0
	for _, a := range accounts.Items {
		list, err := r.project.StandingOrders(ctx, StandingOrdersParams{AccountID: a.ID, First: 20, OrderBy: OrderCreatedAt, Direction: DirectionDesc})
		cov.ok(t, OpStandingOrders, err)
		for i := range list.Items {
			o := &list.Items[i]
			listed++
			if o.ID == "" || o.Period == "" || o.SepaBeneficiary.Name == "" || o.StatusInfo.Status == "" {
				t.Errorf("standing order %+v", o)
			}
			if o.StatusInfo.Status != "Enabled" || so != nil {
				continue
			}
			p, err := r.project.StandingOrderTransactions(ctx, NestedParams{ID: o.ID, First: 3})
			cov.ok(t, OpStandingOrderTransactions, err)
			if len(p.Items) > 0 {
				so, txs = o, p
			}
		}
	}
	if so == nil {
		t.Fatalf("none of the %d standing orders of %d accounts is Enabled with transactions", listed, len(accounts.Items))
	}
	one, err := r.project.StandingOrder(ctx, so.ID)
	cov.ok(t, OpStandingOrder, err)
	if one.ID != so.ID || one.Period != so.Period || one.Label != so.Label {
		t.Errorf("read alone: %+v, listed: %+v", one, so)
	}
	if tx := firstOf(t, "a standing order's transactions", txs); tx.ID == "" || tx.Amount.Value == "" {
		t.Errorf("transaction %+v", tx)
	}
	canceled, err := r.project.CancelStandingOrder(ctx, so.ID)
	cov.ok(t, OpCancelStandingOrder, err)
	if canceled.ID != so.ID || canceled.StatusInfo.Status != "Canceled" {
		t.Errorf("canceled %+v", canceled.StatusInfo)
	}
	again, err := r.project.StandingOrder(ctx, so.ID)
	if err != nil || again.StatusInfo.Status != "Canceled" {
		t.Errorf("read after the cancel: %+v, %v", again, err)
	}
}

// A beneficiary is read alone as the list has it; its transfers come with
// their verification where the platform made one.
func beneficiaryOperations(t *testing.T, cov *opCoverage, r *objectsRun) {
	ctx := context.Background()
	list, err := r.user.Beneficiaries(ctx, BeneficiariesParams{AccountID: r.accountID, First: 20})
	cov.ok(t, OpBeneficiaries, err)
	b := firstOf(t, "beneficiaries", list)
	one, err := r.user.Beneficiary(ctx, b.ID)
	cov.ok(t, OpBeneficiary, err)
	if one.ID != b.ID || one.Name != b.Name || one.Typename != b.Typename {
		t.Errorf("read alone: %+v, listed: %+v", one, b)
	}
	sepa := false
	for _, it := range list.Items {
		if it.Typename == "TrustedSepaBeneficiary" {
			sepa = true
			if it.IBAN == "" {
				t.Errorf("a SEPA beneficiary without its IBAN: %+v", it)
			}
		}
	}
	if !sepa {
		t.Error("no SEPA beneficiary among the first 20: its fragment went unread")
	}
	transfers, err := r.user.BeneficiaryTransfers(ctx, NestedParams{ID: b.ID, First: 20})
	cov.ok(t, OpBeneficiaryTransfers, err)
	firstOf(t, "a beneficiary's transfers", transfers)
	for _, tr := range transfers.Items {
		if tr.Typename != "SEPACreditTransferTransaction" && tr.Verification != nil {
			t.Errorf("a %s carries a payee verification", tr.Typename)
		}
	}
	cards, err := r.user.Cards(ctx, CardsParams{First: 1})
	if err != nil {
		t.Fatal(err)
	}
	card := firstOf(t, "cards", cards)
	s, err := r.user.CardSpending(ctx, card.ID)
	cov.ok(t, OpCardSpending, err)
	if s.CardID != card.ID {
		t.Errorf("the spending of card %s came for %s", card.ID, s.CardID)
	}
}

// Holders, onboardings and capital deposits, each read alone as its list
// has it.
func holderOperations(t *testing.T, cov *opCoverage, r *objectsRun) {
	ctx := context.Background()
	holders, err := r.project.AccountHolders(ctx, AccountHoldersParams{First: 5, OrderBy: OrderCreatedAt, Direction: DirectionDesc})
	cov.ok(t, OpAccountHolders, err)
	h := firstOf(t, "holders", holders)
	one, err := r.project.AccountHolder(ctx, h.ID)
	cov.ok(t, OpAccountHolder, err)
	if one.ID != h.ID || one.Info.Name != h.Info.Name || one.VerificationStatusInfo.Status == "" {
		t.Errorf("read alone: %+v, listed: %+v", one, h)
	}
	accounts, err := r.project.AccountHolderAccounts(ctx, NestedParams{ID: h.ID, First: 5})
	cov.ok(t, OpAccountHolderAccounts, err)
	firstOf(t, "a holder's accounts", accounts)

	onboardings, err := r.project.Onboardings(ctx, OnboardingsParams{First: 5})
	cov.ok(t, OpOnboardings, err)
	o := firstOf(t, "onboardings", onboardings)
	if o.ID == "" || o.Status == "" || (o.HolderType() == "Company") != (o.Typename == "CompanyAccountHolderOnboarding") {
		t.Errorf("onboarding %+v", o)
	}
	oo, err := r.project.Onboarding(ctx, o.ID)
	cov.ok(t, OpOnboarding, err)
	if oo.ID != o.ID || oo.Typename != o.Typename || oo.Status != o.Status {
		t.Errorf("read alone: %+v, listed: %+v", oo, o)
	}

	cases, err := r.project.CapitalDeposits(ctx, CapitalDepositsParams{First: 5})
	cov.ok(t, OpCapitalDeposits, err)
	c := firstOf(t, "capital deposits", cases)
	if c.Amount.Value == "" || c.CompanyName == "" || c.Status == "" {
		t.Errorf("capital deposit %+v", c)
	}
	cc, err := r.project.CapitalDeposit(ctx, c.ID)
	cov.ok(t, OpCapitalDeposit, err)
	if cc.ID != c.ID || cc.CompanyName != c.CompanyName {
		t.Errorf("read alone: %+v, listed: %+v", cc, c)
	}
}

// Merchant profiles, the token's and an account's, and their payment
// links.
func merchantOperations(t *testing.T, cov *opCoverage, r *objectsRun) {
	ctx := context.Background()
	profiles, err := r.project.MerchantProfiles(ctx, MerchantProfilesParams{First: 20})
	cov.ok(t, OpMerchantProfiles, err)
	firstOf(t, "merchant profiles", profiles)
	// The profile is the first with payment links.
	var p *MerchantProfile
	var links *Page[PaymentLink]
	for i := range profiles.Items {
		it := &profiles.Items[i]
		if it.MerchantName == "" || it.Status == "" {
			t.Errorf("profile %+v", it)
		}
		if p != nil {
			continue
		}
		l, err := r.project.PaymentLinks(ctx, PaymentLinksParams{MerchantProfileID: it.ID, First: 5})
		cov.ok(t, OpPaymentLinks, err)
		if len(l.Items) > 0 {
			p, links = it, l
		}
	}
	if p == nil {
		t.Fatalf("none of %d merchant profiles has payment links", len(profiles.Items))
	}
	_, err = r.user.MerchantProfiles(ctx, MerchantProfilesParams{AccountID: r.accountID, First: 5})
	cov.ok(t, OpAccountMerchantProfiles, err)
	one, err := r.project.MerchantProfile(ctx, p.ID)
	cov.ok(t, OpMerchantProfile, err)
	if one.ID != p.ID || one.MerchantName != p.MerchantName {
		t.Errorf("read alone: %+v, listed: %+v", one, p)
	}
	l := firstOf(t, "payment links", links)
	if l.URL == "" || l.Amount.Value == "" || l.StatusInfo.Status == "" {
		t.Errorf("payment link %+v", l)
	}
	ll, err := r.project.PaymentLink(ctx, l.ID)
	cov.ok(t, OpPaymentLink, err)
	if ll.ID != l.ID || ll.URL != l.URL {
		t.Errorf("read alone: %+v, listed: %+v", ll, l)
	}
}

// The account's one request with every list: each page is the list's
// read alone.
func objectsAccountView(t *testing.T, cov *opCoverage, r *objectsRun) {
	ctx := context.Background()
	id := r.accountID
	vp := VirtualIbansParams{AccountID: id}
	up := TransactionsParams{AccountID: id, Status: []string{"Upcoming"}, OrderBy: TxOrderExecutionDate, Direction: DirectionAsc}
	sp := StandingOrdersParams{AccountID: id, OrderBy: OrderCreatedAt, Direction: DirectionDesc}
	bp := BeneficiariesParams{AccountID: id, OrderBy: "label", Direction: DirectionAsc}
	v, err := r.user.AccountView(ctx, AccountViewParams{AccountID: id, First: 10, Parts: []AccountPart{
		ViewVirtualIbans.Part(vp), ViewUpcoming.Part(up), ViewStandingOrders.Part(sp), ViewBeneficiaries.Part(bp)}})
	cov.ok(t, OpAccountViewUser, err)
	same := func(what string, got, want any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: the view has\n%s\nread alone:\n%s", what, g, w)
		}
	}
	vp.First, up.First, sp.First, bp.First = 10, 10, 10, 10
	vi, err := r.user.VirtualIbans(ctx, vp)
	same("virtual IBANs", ViewVirtualIbans.Page(v), vi, err)
	ut, err := r.user.TransactionList(ctx, up)
	same("upcoming", ViewUpcoming.Page(v), ut, err)
	so, err := r.user.StandingOrders(ctx, sp)
	same("standing orders", ViewStandingOrders.Page(v), so, err)
	be, err := r.user.Beneficiaries(ctx, bp)
	same("beneficiaries", ViewBeneficiaries.Page(v), be, err)
}

// objectMutationMembers are the union members the hostile server answers
// the objects' mutations with: success payloads full of strings, and
// rejections that carry some.
func objectMutationMembers() map[string]string {
	return map[string]string{
		OpAddVirtualIbanEntry:      "AddVirtualIbanEntrySuccessPayload",
		OpCancelVirtualIbanEntry:   "IbanEntryNotFoundRejection",
		OpAllowSddVirtualIbanEntry: "AllowSddVirtualIbanEntrySuccessPayload",
		OpDenySddVirtualIbanEntry:  "ValidationRejection",
		OpCancelStandingOrder:      "CancelStandingOrderSuccessPayload",
	}
}

// objectsStripped runs the objects' operations for
// TestEveryDecodedStringIsStripped; it returns the rejections checked.
func objectsStripped(t *testing.T, ctx context.Context, c *Client, check func(string, any, error)) int {
	t.Helper()
	vi, err := c.VirtualIbans(ctx, VirtualIbansParams{AccountID: "acc-1"})
	check("VirtualIbans", vi, err)
	added, err := c.AddVirtualIban(ctx, "acc-1")
	check("AddVirtualIban", added, err)
	allowed, err := c.SetVirtualIbanSDD(ctx, "v", true)
	check("AllowSdd", allowed, err)
	so, err := c.StandingOrders(ctx, StandingOrdersParams{AccountID: "acc-1"})
	check("StandingOrders", so, err)
	one, err := c.StandingOrder(ctx, "s")
	check("StandingOrder", one, err)
	sotx, err := c.StandingOrderTransactions(ctx, NestedParams{ID: "s"})
	check("StandingOrderTransactions", sotx, err)
	canceled, err := c.CancelStandingOrder(ctx, "s")
	check("CancelStandingOrder", canceled, err)
	bs, err := c.Beneficiaries(ctx, BeneficiariesParams{AccountID: "acc-1"})
	check("Beneficiaries", bs, err)
	b, err := c.Beneficiary(ctx, "b")
	check("Beneficiary", b, err)
	bt, err := c.BeneficiaryTransfers(ctx, NestedParams{ID: "b"})
	check("BeneficiaryTransfers", bt, err)
	sp, err := c.CardSpending(ctx, "c")
	check("CardSpending", sp, err)
	hs, err := c.AccountHolders(ctx, AccountHoldersParams{})
	check("AccountHolders", hs, err)
	h, err := c.AccountHolder(ctx, "h")
	check("AccountHolder", h, err)
	ha, err := c.AccountHolderAccounts(ctx, NestedParams{ID: "h"})
	check("AccountHolderAccounts", ha, err)
	os, err := c.Onboardings(ctx, OnboardingsParams{})
	check("Onboardings", os, err)
	o, err := c.Onboarding(ctx, "o")
	check("Onboarding", o, err)
	cds, err := c.CapitalDeposits(ctx, CapitalDepositsParams{})
	check("CapitalDeposits", cds, err)
	cd, err := c.CapitalDeposit(ctx, "cd")
	check("CapitalDeposit", cd, err)
	mps, err := c.MerchantProfiles(ctx, MerchantProfilesParams{})
	check("MerchantProfiles", mps, err)
	amps, err := c.MerchantProfiles(ctx, MerchantProfilesParams{AccountID: "acc-1"})
	check("AccountMerchantProfiles", amps, err)
	mp, err := c.MerchantProfile(ctx, "m")
	check("MerchantProfile", mp, err)
	pls, err := c.PaymentLinks(ctx, PaymentLinksParams{MerchantProfileID: "m"})
	check("PaymentLinks", pls, err)
	pl, err := c.PaymentLink(ctx, "l")
	check("PaymentLink", pl, err)
	n := 0
	for name, err := range map[string]error{
		"CancelVirtualIban": second(c.CancelVirtualIban(ctx, "v")),
		"DenySdd":           second(c.SetVirtualIbanSDD(ctx, "v", false)),
	} {
		if strippedRejection(t, name, err) {
			n++
		}
	}
	return n
}
