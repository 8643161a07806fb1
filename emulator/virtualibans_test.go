package emulator

import (
	"fmt"
	"slices"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// The virtual IBANs of an account: read with their filters and pages,
// added, canceled and switched with the partner API's mutations, and read
// back.

const opVIBANs = `query($id: ID!, $first: Int!, $after: String, $filters: VirtualIbanEntriesFilterInput) {
  account(accountId: $id) { virtualIbanEntries(first: $first, after: $after, filters: $filters) {
    totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id IBAN BIC label status blockSDD bankDetails } } } } }`

type vibanNode struct {
	ID, IBAN, BIC, Label, Status, BankDetails string
	BlockSDD                                  bool
}

type vibanPage struct {
	TotalCount int
	PageInfo   struct {
		HasNextPage bool
		EndCursor   string
	}
	Edges []struct {
		Cursor string
		Node   vibanNode
	}
}

func (e *testEnv) vibans(token, accountID string, first int, after string, filters map[string]any) vibanPage {
	e.t.Helper()
	vars := map[string]any{"id": accountID, "first": first, "filters": filters}
	if after != "" {
		vars["after"] = after
	}
	var out struct {
		Account struct{ VirtualIbanEntries vibanPage }
	}
	e.mustData(pathSandbox, token, opVIBANs, vars, &out)
	return out.Account.VirtualIbanEntries
}

// accountWhere is the first generated account that ok accepts.
func (e *testEnv) accountWhere(ok func(*data.Account) bool) *data.Account {
	e.t.Helper()
	for _, a := range e.sandbox.AllAccounts() {
		if ok(a) {
			return a
		}
	}
	e.t.Fatal("no generated account fits")
	return nil
}

func TestVirtualIBANsRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 40})
	seen := map[string]bool{}
	withSome := 0
	for _, a := range e.sandbox.AllAccounts() {
		p := e.vibans(tokSandboxProject, a.ID, 100, "", nil)
		if a.PaymentLevel != "Unlimited" && p.TotalCount != 0 {
			t.Errorf("account %s without an IBAN has %d virtual IBANs", a.ID, p.TotalCount)
		}
		if p.TotalCount > 0 {
			withSome++
		}
		for _, ed := range p.Edges {
			v := ed.Node
			if !validIBAN(v.IBAN) || v.IBAN[:2] != a.IBAN[:2] || v.IBAN == a.IBAN || seen[v.IBAN] {
				t.Errorf("virtual IBAN %q of %s (%s): invalid, of another country, or not unique", v.IBAN, a.ID, a.IBAN)
			}
			seen[v.IBAN] = true
			if v.BIC != a.BIC || v.BankDetails == "" || !slices.Contains([]string{"Enabled", "Canceled", "Suspended"}, v.Status) {
				t.Errorf("virtual IBAN %+v of an account with BIC %s", v, a.BIC)
			}
			if (a.Status == "Closed" || a.Status == "Closing") && v.Status != "Canceled" {
				t.Errorf("a %s account's virtual IBAN is %s", a.Status, v.Status)
			}
		}
	}
	if withSome < 10 {
		t.Errorf("only %d of 40 accounts have virtual IBANs", withSome)
	}
	// Pages of one meet the whole list; a filter keeps what it names.
	a := e.accountWhere(func(a *data.Account) bool {
		return len(e.vibans(tokSandboxProject, a.ID, 100, "", nil).Edges) >= 2
	})
	all := e.vibans(tokSandboxProject, a.ID, 100, "", nil)
	var paged []string
	after := ""
	for {
		p := e.vibans(tokSandboxProject, a.ID, 1, after, nil)
		if p.TotalCount != all.TotalCount || len(p.Edges) != 1 {
			t.Fatalf("a page of one: %+v, total %d", p, all.TotalCount)
		}
		paged = append(paged, p.Edges[0].Node.ID)
		if !p.PageInfo.HasNextPage {
			break
		}
		after = p.PageInfo.EndCursor
	}
	if len(paged) != len(all.Edges) || paged[0] != all.Edges[0].Node.ID {
		t.Errorf("paged %v, whole %+v", paged, all.Edges)
	}
	one := all.Edges[1].Node
	got := e.vibans(tokSandboxProject, a.ID, 10, "", map[string]any{"ids": []string{one.ID}})
	if got.TotalCount != 1 || got.Edges[0].Node != one {
		t.Errorf("filtered by id %s: %+v", one.ID, got)
	}
	got = e.vibans(tokSandboxProject, a.ID, 10, "", map[string]any{"status": []string{one.Status}})
	for _, ed := range got.Edges {
		if ed.Node.Status != one.Status {
			t.Errorf("filtered by status %s: %+v", one.Status, ed.Node)
		}
	}
	if r := e.query(pathSandbox, tokSandboxProject, opVIBANs, map[string]any{"id": a.ID, "first": 1, "after": "bm90LWEtY3Vyc29y"}); len(r.Errors) == 0 {
		t.Error("a cursor of nothing was accepted")
	}
}

const opAddVIBAN = `mutation($id: ID!) { addVirtualIbanEntry(input: {accountId: $id}) { __typename
  ... on AddVirtualIbanEntrySuccessPayload { virtualIbanEntry { id IBAN BIC label status blockSDD bankDetails } }
  ... on Rejection { message } } }`

type vibanPayload struct {
	Typename         string `json:"__typename"`
	Message          string
	VirtualIbanEntry vibanNode
}

func (e *testEnv) vibanMutation(token, op, field string, vars map[string]any) vibanPayload {
	e.t.Helper()
	var out map[string]vibanPayload
	e.mustData(pathSandbox, token, op, vars, &out)
	return out[field]
}

func TestVirtualIBANAddCancelAndSwitch(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	// The first demo user's first account with an IBAN where they may act.
	a := e.accountWhere(func(a *data.Account) bool {
		m, ok := e.sandbox.MemberOf(dataViewer(e.sandbox.DemoUsers()[0].ID), a)
		return ok && a.Status == "Opened" && a.PaymentLevel == "Unlimited" && m.CanViewAccount && m.Status == data.MemberEnabled
	})
	before := e.vibans(tokSandboxUser0, a.ID, 100, "", nil)
	added := e.vibanMutation(tokSandboxUser0, opAddVIBAN, "addVirtualIbanEntry", map[string]any{"id": a.ID})
	v := added.VirtualIbanEntry
	if added.Typename != "AddVirtualIbanEntrySuccessPayload" || v.Status != "Enabled" || v.BlockSDD || !validIBAN(v.IBAN) || v.BIC != a.BIC || v.Label != "Virtual" {
		t.Fatalf("addVirtualIbanEntry answered %+v", added)
	}
	after := e.vibans(tokSandboxUser0, a.ID, 100, "", nil)
	if after.TotalCount != before.TotalCount+1 || after.Edges[0].Node != v {
		t.Fatalf("after the add the list is %+v (was %d)", after, before.TotalCount)
	}
	// Deny, then allow, SEPA direct debits.
	const opSwitch = `mutation($id: ID!) { %s(input: {ibanEntryId: $id}) { __typename
	  ... on %sSuccessPayload { virtualIbanEntry { id IBAN BIC label status blockSDD bankDetails } } ... on Rejection { message } } }`
	denied := e.vibanMutation(tokSandboxUser0, fmt.Sprintf(opSwitch, "denySddVirtualIbanEntry", "DenySddVirtualIbanEntry"), "denySddVirtualIbanEntry", map[string]any{"id": v.ID})
	if denied.Typename != "DenySddVirtualIbanEntrySuccessPayload" || !denied.VirtualIbanEntry.BlockSDD {
		t.Errorf("denySddVirtualIbanEntry answered %+v", denied)
	}
	if got := e.vibans(tokSandboxUser0, a.ID, 1, "", map[string]any{"ids": []string{v.ID}}); !got.Edges[0].Node.BlockSDD {
		t.Errorf("read back after the deny: %+v", got.Edges[0].Node)
	}
	allowed := e.vibanMutation(tokSandboxUser0, fmt.Sprintf(opSwitch, "allowSddVirtualIbanEntry", "AllowSddVirtualIbanEntry"), "allowSddVirtualIbanEntry", map[string]any{"id": v.ID})
	if allowed.Typename != "AllowSddVirtualIbanEntrySuccessPayload" || allowed.VirtualIbanEntry.BlockSDD {
		t.Errorf("allowSddVirtualIbanEntry answered %+v", allowed)
	}
	// Cancel it, and one from the seed: both read back Canceled, for good.
	const opCancel = `mutation($id: ID!) { cancelVirtualIbanEntry(input: {virtualIbanEntryId: $id}) { __typename
	  ... on CancelVirtualIbanEntrySuccessPayload { virtualIbanEntry { id IBAN BIC label status blockSDD bankDetails } } ... on Rejection { message } } }`
	ids := []string{v.ID}
	for _, ed := range before.Edges {
		if ed.Node.Status == "Enabled" {
			ids = append(ids, ed.Node.ID)
			break
		}
	}
	for _, id := range ids {
		c := e.vibanMutation(tokSandboxUser0, opCancel, "cancelVirtualIbanEntry", map[string]any{"id": id})
		if c.Typename != "CancelVirtualIbanEntrySuccessPayload" || c.VirtualIbanEntry.ID != id || c.VirtualIbanEntry.Status != "Canceled" {
			t.Errorf("cancelVirtualIbanEntry %s answered %+v", id, c)
		}
		if got := e.vibans(tokSandboxProject, a.ID, 1, "", map[string]any{"ids": []string{id}}); got.Edges[0].Node.Status != "Canceled" {
			t.Errorf("read back after the cancel: %+v", got.Edges[0].Node)
		}
	}
	if r := e.vibanMutation(tokSandboxUser0, fmt.Sprintf(opSwitch, "allowSddVirtualIbanEntry", "AllowSddVirtualIbanEntry"), "allowSddVirtualIbanEntry", map[string]any{"id": v.ID}); r.Typename != "ValidationRejection" {
		t.Errorf("a canceled virtual IBAN was switched: %+v", r)
	}
	// The platform documents no webhook event for virtual IBANs.
	e.expectEvents()
}

func TestVirtualIBANRejections(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 40})
	limited := e.accountWhere(func(a *data.Account) bool { return a.PaymentLevel == "Limited" && a.Status == "Opened" })
	closed := e.accountWhere(func(a *data.Account) bool { return a.Status == "Closed" && a.PaymentLevel == "Unlimited" })
	for _, c := range []struct{ accountID, want string }{
		{limited.ID, "ForbiddenRejection"},
		{closed.ID, "BadAccountStatusRejection"},
		{"no-such-account", "AccountNotFoundRejection"},
	} {
		if r := e.vibanMutation(tokSandboxProject, opAddVIBAN, "addVirtualIbanEntry", map[string]any{"id": c.accountID}); r.Typename != c.want || r.Message == "" {
			t.Errorf("add to %s: %+v, want %s", c.accountID, r, c.want)
		}
	}
	var out map[string]vibanPayload
	e.mustData(pathSandbox, tokSandboxProject, `mutation { cancelVirtualIbanEntry(input: {virtualIbanEntryId: "nope"}) { __typename ... on Rejection { message } } }`, nil, &out)
	if r := out["cancelVirtualIbanEntry"]; r.Typename != "IbanEntryNotFoundRejection" || r.Message == "" {
		t.Errorf("cancel of an unknown id: %+v", r)
	}
	// A user who is no member of the account does not see its entries.
	a := e.accountWhere(func(a *data.Account) bool {
		_, ok := e.sandbox.MemberOf(dataViewer(e.sandbox.DemoUsers()[0].ID), a)
		return !ok && len(e.vibans(tokSandboxProject, a.ID, 1, "", nil).Edges) > 0
	})
	id := e.vibans(tokSandboxProject, a.ID, 1, "", nil).Edges[0].Node.ID
	e.mustData(pathSandbox, tokSandboxUser0, `mutation($id: ID!) { cancelVirtualIbanEntry(input: {virtualIbanEntryId: $id}) { __typename } }`, map[string]any{"id": id}, &out)
	if r := out["cancelVirtualIbanEntry"]; r.Typename != "IbanEntryNotFoundRejection" {
		t.Errorf("a stranger canceled %s: %+v", id, r)
	}
}
