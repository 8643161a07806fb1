package emulator

import (
	"slices"
	"testing"
)

// Capital deposits: cases at every stage with their shareholders and
// documents, read by id and as a list; the Testing API approves a case
// and reviews a document, the partner cancels one, each read back and
// told by its webhook event.

const caseFields = `id companyName companyAccountId status createdAt updatedAt totalCapitalDepositAmount { value currency }
  statusInfo { __typename status ... on CapitalDepositCaseCanceledStatusInfo { reasonType } }
  documents { id type status downloadUrl statusInfo { __typename status ... on CapitalDepositDocumentRefusedStatusInfo { reasonCode } } relatedCapitalDepositCase { id } }
  shareholders { id status capitalDepositAmount { value } info { __typename ... on IndividualShareholder { firstName lastName } }
    documents { id type status relatedShareholder { id } } relatedCapitalDepositCase { id } }`

type caseNode struct {
	ID, CompanyName, Status, CreatedAt, UpdatedAt string
	CompanyAccountID                              *string
	TotalCapitalDepositAmount                     struct{ Value, Currency string }
	StatusInfo                                    struct {
		Typename, Status, ReasonType string
	}
	Documents []struct {
		ID, Type, Status          string
		DownloadURL               *string
		StatusInfo                struct{ Typename, Status, ReasonCode string }
		RelatedCapitalDepositCase struct{ ID string }
	}
	Shareholders []struct {
		ID, Status           string
		CapitalDepositAmount struct{ Value string }
		Info                 struct{ FirstName, LastName string }
		Documents            []struct {
			ID, Type, Status   string
			RelatedShareholder struct{ ID string }
		}
		RelatedCapitalDepositCase struct{ ID string }
	}
}

func (e *testEnv) cases() []caseNode {
	e.t.Helper()
	var out struct {
		CapitalDepositCases struct {
			TotalCount int
			Edges      []struct{ Node caseNode }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `{ capitalDepositCases(first: 100) { totalCount edges { node { `+caseFields+` } } } }`, nil, &out)
	var list []caseNode
	for _, ed := range out.CapitalDepositCases.Edges {
		list = append(list, ed.Node)
	}
	if len(list) != out.CapitalDepositCases.TotalCount {
		e.t.Fatalf("%d cases listed, totalCount %d", len(list), out.CapitalDepositCases.TotalCount)
	}
	return list
}

func (e *testEnv) depositCase(id string) caseNode {
	e.t.Helper()
	var out struct{ CapitalDepositCase caseNode }
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { capitalDepositCase(id: $id) { `+caseFields+` } }`, map[string]any{"id": id}, &out)
	return out.CapitalDepositCase
}

func TestCapitalDepositsRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 100})
	list := e.cases()
	statuses := map[string]bool{}
	for _, c := range list {
		statuses[c.StatusInfo.Status] = true
		if len(c.Shareholders) == 0 || len(c.Documents) == 0 || c.TotalCapitalDepositAmount.Currency != "EUR" {
			t.Errorf("case %+v", c)
		}
		if (c.StatusInfo.Status == "Completed") != (c.CompanyAccountID != nil) {
			t.Errorf("case %s %s has company account %v", c.ID, c.StatusInfo.Status, c.CompanyAccountID)
		}
		if c.StatusInfo.Status == "Canceled" && c.StatusInfo.ReasonType == "" {
			t.Errorf("canceled without a reason: %+v", c.StatusInfo)
		}
		for _, d := range c.Documents {
			if d.RelatedCapitalDepositCase.ID != c.ID || d.StatusInfo.Status != d.Status || (d.Status == "Pending") != (d.DownloadURL == nil) {
				t.Errorf("document %+v of %s", d, c.ID)
			}
			if c.StatusInfo.Status == "Completed" && d.Status != "Validated" {
				t.Errorf("a completed case's document is %s", d.Status)
			}
		}
		for _, sh := range c.Shareholders {
			if sh.RelatedCapitalDepositCase.ID != c.ID || sh.Info.LastName == "" || len(sh.Documents) != 2 || sh.Documents[0].RelatedShareholder.ID != sh.ID {
				t.Errorf("shareholder %+v of %s", sh, c.ID)
			}
		}
		if got := e.depositCase(c.ID); got.ID != c.ID || got.StatusInfo != c.StatusInfo {
			t.Errorf("capitalDepositCase(%s) = %+v", c.ID, got.StatusInfo)
		}
	}
	if len(list) != 5 || len(statuses) < 3 {
		t.Errorf("%d cases, statuses %v", len(list), statuses)
	}
}

func TestCapitalDepositActions(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	list := e.cases()
	var open caseNode
	for _, c := range list {
		if !slices.Contains([]string{"Completed", "Canceled"}, c.StatusInfo.Status) && open.ID == "" {
			open = c
		}
	}
	if open.ID == "" {
		t.Fatal("no case in progress")
	}
	type sim struct {
		Typename string `json:"__typename"`
		ID       string
		Message  string
	}
	var out map[string]sim
	e.mustData(pathAdmin, tokSandboxUser0, `mutation($id: String!) { simulateApproveCapitalDepositCase(input: {capitalDepositCaseId: $id}) { __typename
	  ... on SimulateApproveCapitalDepositCaseSuccessPayload { id } ... on Rejection { message } } }`, map[string]any{"id": open.ID}, &out)
	if r := out["simulateApproveCapitalDepositCase"]; r.Typename != "SimulateApproveCapitalDepositCaseSuccessPayload" || r.ID != open.ID {
		t.Fatalf("approve: %+v", r)
	}
	if got := e.depositCase(open.ID); got.StatusInfo.Status == open.StatusInfo.Status {
		t.Errorf("approved, the case is still %s", got.StatusInfo.Status)
	}
	e.expectEvents(ev("CapitalDepositCaseEvent.Updated", open.ID))

	doc := open.Shareholders[0].Documents[0].ID
	e.mustData(pathAdmin, tokSandboxUser0, `mutation($id: String!) { simulateCapitalDepositDocumentStatus(input: {documentId: $id, documentStatus: Refused, documentRefusalReasonCode: ExpiredDocument}) { __typename
	  ... on SimulateCapitalDepositDocumentStatusSuccessPayload { id } ... on Rejection { message } } }`, map[string]any{"id": doc}, &out)
	if r := out["simulateCapitalDepositDocumentStatus"]; r.Typename != "SimulateCapitalDepositDocumentStatusSuccessPayload" || r.ID != doc {
		t.Fatalf("document status: %+v", r)
	}
	var byID struct {
		CapitalDepositDocument struct {
			Status     string
			StatusInfo struct{ ReasonCode string }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { capitalDepositDocument(id: $id) { status statusInfo { ... on CapitalDepositDocumentRefusedStatusInfo { reasonCode } } } }`, map[string]any{"id": doc}, &byID)
	if byID.CapitalDepositDocument.Status != "Refused" || byID.CapitalDepositDocument.StatusInfo.ReasonCode != "ExpiredDocument" {
		t.Errorf("read back %+v", byID.CapitalDepositDocument)
	}
	e.expectEvents(ev("CapitalDepositDocument.Updated", doc))

	var cancel map[string]struct {
		Typename           string `json:"__typename"`
		CapitalDepositCase struct{ StatusInfo struct{ Status string } }
	}
	const opCancel = `mutation($id: ID!) { cancelCapitalDepositCase(input: {id: $id}) { __typename
	  ... on CancelCapitalDepositCaseSuccessPayload { capitalDepositCase { statusInfo { status } } } } }`
	e.mustData(pathSandbox, tokSandboxProject, opCancel, map[string]any{"id": open.ID}, &cancel)
	if r := cancel["cancelCapitalDepositCase"]; r.Typename != "CancelCapitalDepositCaseSuccessPayload" || r.CapitalDepositCase.StatusInfo.Status != "Canceled" {
		t.Fatalf("cancel: %+v", r)
	}
	e.expectEvents(ev("CapitalDepositCaseEvent.Canceled", open.ID))
	e.mustData(pathSandbox, tokSandboxProject, opCancel, map[string]any{"id": open.ID}, &cancel)
	if r := cancel["cancelCapitalDepositCase"]; r.Typename != "CapitalDepositCaseCanNotBeCanceledRejection" {
		t.Errorf("a second cancel: %+v", r)
	}
	e.mustData(pathSandbox, tokSandboxProject, opCancel, map[string]any{"id": "nope"}, &cancel)
	if r := cancel["cancelCapitalDepositCase"]; r.Typename != "CapitalDepositCaseCanNotBeFoundRejection" {
		t.Errorf("an unknown case: %+v", r)
	}
	e.expectEvents()
}
