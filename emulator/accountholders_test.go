package emulator

import (
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Account holders as a root: read by id and as a list with its filters,
// each with its verification and its accounts; the Testing API moves a
// verification, which AccountHolder.Updated tells.

const holderFields = `id verificationStatus createdDate updatedDate info { __typename type name }
  statusInfo { status }
  verificationStatusInfo { __typename status
    ... on AccountHolderVerifiedVerificationStatusInfo { verifiedAt }
    ... on AccountHolderRefusedVerificationStatusInfo { refusedAt reason }
    ... on AccountHolderPendingVerificationStatusInfo { pendingAt }
    ... on AccountHolderWaitingForInformationVerificationStatusInfo { waitingForInformationAt accountHolderId verificationRequirements { id type } } }
  accounts(first: 10) { totalCount edges { node { id holder { id } } } }`

type holderNode struct {
	ID, VerificationStatus, CreatedDate, UpdatedDate string
	Info                                             struct{ Typename, Type, Name string }
	StatusInfo                                       struct{ Status string }
	VerificationStatusInfo                           struct {
		Typename                              string `json:"__typename"`
		Status, VerifiedAt, RefusedAt, Reason string
		PendingAt, WaitingForInformationAt    string
		AccountHolderID                       string
		VerificationRequirements              []struct{ ID, Type string }
	}
	Accounts struct {
		TotalCount int
		Edges      []struct {
			Node struct {
				ID     string
				Holder struct{ ID string }
			}
		}
	}
}

func (e *testEnv) holders(token string, first int, after string, filters map[string]any) (int, []holderNode, string, bool) {
	e.t.Helper()
	vars := map[string]any{"first": first, "f": filters}
	if after != "" {
		vars["after"] = after
	}
	var out struct {
		AccountHolders struct {
			TotalCount int
			PageInfo   struct {
				HasNextPage bool
				EndCursor   string
			}
			Edges []struct{ Node holderNode }
		}
	}
	e.mustData(pathSandbox, token, `query($first: Int!, $after: String, $f: AccountHolderFilterInput) {
	  accountHolders(first: $first, after: $after, filters: $f) { totalCount pageInfo { hasNextPage endCursor } edges { node { `+holderFields+` } } } }`, vars, &out)
	var list []holderNode
	for _, ed := range out.AccountHolders.Edges {
		list = append(list, ed.Node)
	}
	return out.AccountHolders.TotalCount, list, out.AccountHolders.PageInfo.EndCursor, out.AccountHolders.PageInfo.HasNextPage
}

func TestAccountHoldersRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 40})
	total, all, _, _ := e.holders(tokSandboxProject, 100, "", nil)
	if total != 40 || len(all) != 40 {
		t.Fatalf("%d holders (%d listed) for 40 accounts", total, len(all))
	}
	byStatus := map[string]int{}
	for i, h := range all {
		a := e.sandbox.AllAccounts()[i]
		v := h.VerificationStatusInfo
		byStatus[v.Status]++
		if h.ID != a.HolderID || h.Info.Name != a.HolderName || h.VerificationStatus != v.Status || v.Status != a.VerificationStatus {
			t.Errorf("holder %d: %+v, account holder %s %q %s", i, h, a.HolderID, a.HolderName, a.VerificationStatus)
		}
		if h.Accounts.TotalCount != 1 || h.Accounts.Edges[0].Node.ID != a.ID || h.Accounts.Edges[0].Node.Holder.ID != h.ID {
			t.Errorf("holder %s's accounts: %+v", h.ID, h.Accounts)
		}
		switch v.Status {
		case "Verified":
			if v.VerifiedAt == "" {
				t.Errorf("verified without a date: %+v", v)
			}
		case "Refused":
			if v.Reason == "" || v.RefusedAt == "" {
				t.Errorf("refused without a reason: %+v", v)
			}
		case "WaitingForInformation":
			if len(v.VerificationRequirements) == 0 || v.AccountHolderID != h.ID {
				t.Errorf("waiting without requirements: %+v", v)
			}
		}
		var one struct{ AccountHolder holderNode }
		e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { accountHolder(id: $id) { `+holderFields+` } }`, map[string]any{"id": h.ID}, &one)
		if one.AccountHolder.ID != h.ID || one.AccountHolder.VerificationStatusInfo.Status != v.Status {
			t.Errorf("accountHolder(%s) = %+v", h.ID, one.AccountHolder)
		}
	}
	if byStatus["Verified"] == 0 || len(byStatus) < 3 {
		t.Errorf("verification statuses %v", byStatus)
	}
	// Pages of 7 meet the whole list.
	var paged []string
	after := ""
	for {
		_, page, end, more := e.holders(tokSandboxProject, 7, after, nil)
		for _, h := range page {
			paged = append(paged, h.ID)
		}
		if !more {
			break
		}
		after = end
	}
	if len(paged) != 40 || paged[39] != all[39].ID {
		t.Errorf("paged %d holders", len(paged))
	}
	// Filters.
	n, list, _, _ := e.holders(tokSandboxProject, 100, "", map[string]any{"verificationStatus": []string{"Verified"}, "types": []string{"Company"}})
	for _, h := range list {
		if h.VerificationStatus != "Verified" || h.Info.Type != "Company" {
			t.Errorf("filtered: %+v", h)
		}
	}
	if n != len(list) {
		t.Errorf("filtered total %d, %d listed", n, len(list))
	}
	if _, list, _, _ := e.holders(tokSandboxProject, 10, "", map[string]any{"search": all[3].Info.Name[:6]}); len(list) == 0 {
		t.Errorf("a search for %q found nothing", all[3].Info.Name[:6])
	}
	// A user sees the holders of their accounts only.
	userTotal, _, _, _ := e.holders(tokSandboxUser0, 100, "", nil)
	accs, _ := e.sandbox.Accounts(data.AccountQuery{Viewer: dataViewer(e.sandbox.DemoUsers()[0].ID), First: 100})
	if userTotal != accs.TotalCount || userTotal >= 40 {
		t.Errorf("the first demo user sees %d holders, %d accounts", userTotal, accs.TotalCount)
	}
}

func TestUpdateAccountHolderVerification(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	a := e.accountWhere(func(a *data.Account) bool { return a.VerificationStatus == "Pending" })
	const op = `mutation($input: UpdateAccountHolderInput!) { updateAccountHolder(input: $input) { __typename
	  ... on UpdateAccountHolderSuccessPayload { accountHolder { id verificationStatus verificationStatusInfo { status
	    ... on AccountHolderWaitingForInformationVerificationStatusInfo { verificationRequirements { type } } } } }
	  ... on VerificationRequirementsNotUpdatableRejection { accountHolderVerificationStatus message }
	  ... on Rejection { message } } }`
	type result struct {
		U struct {
			Typename                        string `json:"__typename"`
			Message                         string
			AccountHolderVerificationStatus string
			AccountHolder                   struct {
				ID, VerificationStatus string
				VerificationStatusInfo struct {
					Status                   string
					VerificationRequirements []struct{ Type string }
				}
			}
		} `json:"updateAccountHolder"`
	}
	run := func(in map[string]any) result {
		var out result
		e.mustData(pathAdmin, tokSandboxUser0, op, map[string]any{"input": in}, &out)
		return out
	}
	r := run(map[string]any{"accountHolderId": a.HolderID, "verificationStatus": "WaitingForInformation", "verificationRequirements": []string{"TaxIdRequired"}})
	if r.U.Typename != "UpdateAccountHolderSuccessPayload" || r.U.AccountHolder.VerificationStatus != "WaitingForInformation" ||
		len(r.U.AccountHolder.VerificationStatusInfo.VerificationRequirements) != 1 || r.U.AccountHolder.VerificationStatusInfo.VerificationRequirements[0].Type != "TaxIdRequired" {
		t.Fatalf("updateAccountHolder answered %+v", r.U)
	}
	e.expectEvents(ev("AccountHolder.Updated", a.HolderID))
	// The partner API reads it back, on the holder and on its account.
	var back struct {
		AccountHolder holderNode
		Account       struct {
			Holder struct{ VerificationStatus string }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!, $acc: ID!) { accountHolder(id: $id) { `+holderFields+` } account(accountId: $acc) { holder { verificationStatus } } }`,
		map[string]any{"id": a.HolderID, "acc": a.ID}, &back)
	if back.AccountHolder.VerificationStatusInfo.Status != "WaitingForInformation" || back.Account.Holder.VerificationStatus != "WaitingForInformation" {
		t.Errorf("read back %+v / %+v", back.AccountHolder.VerificationStatusInfo, back.Account)
	}
	r = run(map[string]any{"accountHolderId": a.HolderID, "verificationStatus": "Verified"})
	if r.U.AccountHolder.VerificationStatusInfo.Status != "Verified" || len(r.U.AccountHolder.VerificationStatusInfo.VerificationRequirements) != 0 {
		t.Errorf("verified: %+v", r.U)
	}
	e.expectEvents(ev("AccountHolder.Updated", a.HolderID))
	if r := run(map[string]any{"accountHolderId": a.HolderID, "verificationRequirements": []string{"Other"}}); r.U.Typename != "VerificationRequirementsNotUpdatableRejection" || r.U.AccountHolderVerificationStatus != "Verified" {
		t.Errorf("requirements of a verified holder: %+v", r.U)
	}
	if r := run(map[string]any{"accountHolderId": "nope"}); r.U.Typename != "AccountHolderNotFoundRejection" || r.U.Message == "" {
		t.Errorf("an unknown holder: %+v", r.U)
	}
	e.expectEvents()
}
