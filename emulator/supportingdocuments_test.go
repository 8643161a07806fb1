package emulator

import (
	"slices"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Supporting documents: each onboarding's collection, what it requires
// and what was uploaded, waiting for documents while the onboarding is
// filled in and following the holder's verification once the account is
// open; read from the onboarding and by id, and told when the Testing
// API's change of the verification changes it.

const collectionFields = `id type createdAt updatedAt projectInfo { id }
  statusInfo { __typename status ... on SupportingDocumentCollectionApprovedStatusInfo { approvedAt }
    ... on SupportingDocumentCollectionRejectedStatusInfo { rejectedAt } }
  requiredSupportingDocumentPurposes { name acceptableSupportingDocumentTypes label description }
  supportingDocuments { id supportingDocumentType createdAt updatedAt purpose { name }
    statusInfo { __typename status ... on SupportingDocumentWaitingForUploadStatusInfo { supportingDocumentId }
      ... on SupportingDocumentUploadedStatusInfo { filename }
      ... on SupportingDocumentValidatedStatusInfo { filename validatedAt reason }
      ... on SupportingDocumentRefusedStatusInfo { filename refusedAt reason reasonCode } } }`

type collectionNode struct {
	ID, Type, CreatedAt, UpdatedAt string
	ProjectInfo                    struct{ ID string }
	StatusInfo                     struct {
		Typename               string `json:"__typename"`
		Status                 string
		ApprovedAt, RejectedAt string
	}
	RequiredSupportingDocumentPurposes []struct {
		Name                              string
		AcceptableSupportingDocumentTypes []string
		Label, Description                string
	}
	SupportingDocuments []struct {
		ID                     string
		SupportingDocumentType *string
		CreatedAt, UpdatedAt   string
		Purpose                struct{ Name string }
		StatusInfo             struct {
			Typename             string `json:"__typename"`
			Status               string
			SupportingDocumentID string
			Filename             string
			ValidatedAt          string
			RefusedAt            string
			Reason, ReasonCode   string
		}
	}
}

// onboardingCollection is an onboarding with its collection and its
// account's holder's verification.
type onboardingCollection struct {
	Typename   string `json:"__typename"`
	ID         string
	StatusInfo struct{ Status string }
	Account    *struct {
		Holder struct{ ID, VerificationStatus string }
	}
	SupportingDocumentCollection collectionNode
}

const onboardingCollectionFields = `__typename ... on AccountHolderOnboardingBase { id statusInfo { status }
  account { holder { id verificationStatus } } supportingDocumentCollection { ` + collectionFields + ` } }`

func (e *testEnv) onboardingCollections(token string) []onboardingCollection {
	e.t.Helper()
	var out struct {
		AccountHolderOnboardings struct {
			Edges []struct{ Node onboardingCollection }
		}
	}
	e.mustData(pathSandbox, token, `{ accountHolderOnboardings(first: 100) { edges { node { `+onboardingCollectionFields+` } } } }`, nil, &out)
	var list []onboardingCollection
	for _, ed := range out.AccountHolderOnboardings.Edges {
		list = append(list, ed.Node)
	}
	return list
}

func TestSupportingDocumentsRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60})
	byStatus := map[string]int{}
	companies, empty := 0, 0
	for _, o := range e.onboardingCollections(tokSandboxProject) {
		c := o.SupportingDocumentCollection
		byStatus[c.StatusInfo.Status]++
		if c.ID == "" || c.Type != "Onboarding" || c.ProjectInfo.ID != e.sandbox.Project().ID || c.StatusInfo.Typename != "SupportingDocumentCollection"+c.StatusInfo.Status+"StatusInfo" {
			t.Errorf("collection %+v of %s", c, o.ID)
		}
		var required []string
		for _, p := range c.RequiredSupportingDocumentPurposes {
			required = append(required, p.Name)
			if len(p.AcceptableSupportingDocumentTypes) == 0 || p.Label == "" || p.Description == "" {
				t.Errorf("purpose %+v of %s", p, c.ID)
			}
		}
		if len(required) == 0 {
			empty++
		}
		if o.Typename == "CompanyAccountHolderOnboarding" {
			companies++
			for _, want := range []string{"CompanyRegistration", "SignedStatus", "UBODeclaration"} {
				if !slices.Contains(required, want) {
					t.Errorf("a company's collection %s does not require %s: %v", c.ID, want, required)
				}
			}
		}
		docStatuses := map[string]int{}
		for i, d := range c.SupportingDocuments {
			s := d.StatusInfo
			docStatuses[s.Status]++
			if !slices.Contains(required, d.Purpose.Name) || s.Typename != "SupportingDocument"+s.Status+"StatusInfo" {
				t.Errorf("document %+v of %s (requires %v)", d, c.ID, required)
			}
			p := c.RequiredSupportingDocumentPurposes[slices.Index(required, d.Purpose.Name)]
			switch s.Status {
			case "WaitingForUpload":
				if s.SupportingDocumentID != d.ID || d.SupportingDocumentType != nil {
					t.Errorf("a document waiting for its upload: %+v", d)
				}
			default:
				if d.SupportingDocumentType == nil || !slices.Contains(p.AcceptableSupportingDocumentTypes, *d.SupportingDocumentType) || s.Filename == "" {
					t.Errorf("document %+v of %s: not a type its purpose accepts (%v)", d, c.ID, p.AcceptableSupportingDocumentTypes)
				}
			}
			if s.Status == "Refused" && (i != 0 || s.ReasonCode == "" || s.Reason == "" || s.RefusedAt == "") {
				t.Errorf("a refused document %+v of %s", d, c.ID)
			}
		}
		// Filled in, the collection waits; open, it follows the holder.
		want, docs := "WaitingForDocument", []string{"WaitingForUpload", "Uploaded"}
		if o.Account != nil {
			switch o.Account.Holder.VerificationStatus {
			case "Pending":
				want, docs = "PendingReview", []string{"Uploaded"}
			case "Verified":
				want, docs = "Approved", []string{"Validated"}
				if c.StatusInfo.ApprovedAt == "" {
					t.Errorf("approved without a date: %+v", c.StatusInfo)
				}
			case "Refused":
				want, docs = "Rejected", []string{"Refused", "Validated"}
			case "WaitingForInformation":
				want, docs = c.StatusInfo.Status, []string{"Refused", "Validated", "Uploaded"}
			}
		}
		if c.StatusInfo.Status != want {
			t.Errorf("collection %s of onboarding %s (%+v) is %s, want %s", c.ID, o.ID, o.Account, c.StatusInfo.Status, want)
		}
		for s := range docStatuses {
			if !slices.Contains(docs, s) {
				t.Errorf("collection %s (%s) has a %s document", c.ID, c.StatusInfo.Status, s)
			}
		}
		var byID struct{ SupportingDocumentCollection collectionNode }
		e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { supportingDocumentCollection(id: $id) { `+collectionFields+` } }`, map[string]any{"id": c.ID}, &byID)
		if got := byID.SupportingDocumentCollection; got.ID != c.ID || got.StatusInfo != c.StatusInfo || len(got.SupportingDocuments) != len(c.SupportingDocuments) {
			t.Errorf("supportingDocumentCollection(%s) = %+v, the onboarding's %+v", c.ID, got, c)
		}
	}
	if byStatus["WaitingForDocument"] == 0 || byStatus["Approved"] == 0 || companies == 0 || empty == 0 {
		t.Errorf("collections by status %v, %d of companies, %d requiring nothing", byStatus, companies, empty)
	}
	// A user reads the collections of the onboardings they see only.
	for _, id := range []string{"nope", e.onboardingCollections(tokSandboxProject)[0].SupportingDocumentCollection.ID} {
		var out struct{ SupportingDocumentCollection *collectionNode }
		e.mustData(pathSandbox, tokSandboxUser0, `query($id: ID!) { supportingDocumentCollection(id: $id) { id } }`, map[string]any{"id": id}, &out)
		if out.SupportingDocumentCollection != nil && id == "nope" {
			t.Errorf("supportingDocumentCollection(%q) = %+v", id, out.SupportingDocumentCollection)
		}
	}
}

// The Testing API's change of a holder's verification moves its
// onboarding's collection, and says so.
func TestSupportingDocumentsFollowVerification(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	a := e.accountWhere(func(a *data.Account) bool { return a.VerificationStatus == "Pending" && a.HolderType == "Company" })
	collection := func() collectionNode {
		var out struct {
			AccountHolder struct{ AccountHolderOnboarding onboardingCollection }
		}
		e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { accountHolder(id: $id) { accountHolderOnboarding { `+onboardingCollectionFields+` } } }`,
			map[string]any{"id": a.HolderID}, &out)
		return out.AccountHolder.AccountHolderOnboarding.SupportingDocumentCollection
	}
	update := func(in map[string]any) {
		var out struct {
			U struct {
				Typename string `json:"__typename"`
			} `json:"updateAccountHolder"`
		}
		e.mustData(pathAdmin, tokSandboxUser0, `mutation($input: UpdateAccountHolderInput!) { updateAccountHolder(input: $input) { __typename } }`,
			map[string]any{"input": in}, &out)
		if out.U.Typename != "UpdateAccountHolderSuccessPayload" {
			t.Fatalf("updateAccountHolder(%v) answered %s", in, out.U.Typename)
		}
	}
	c := collection()
	if c.StatusInfo.Status != "PendingReview" || len(c.SupportingDocuments) == 0 {
		t.Fatalf("a pending holder's collection %+v", c)
	}
	// Waiting for documents: the first is refused, the collection waits.
	update(map[string]any{"accountHolderId": a.HolderID, "verificationStatus": "WaitingForInformation", "verificationRequirements": []string{"SupportingDocumentsRequired"}})
	e.expectEvents(ev("AccountHolder.Updated", a.HolderID), ev("SupportingDocumentCollection.Updated", c.ID))
	c = collection()
	if d := c.SupportingDocuments[0].StatusInfo; c.StatusInfo.Status != "WaitingForDocument" || d.Status != "Refused" || d.ReasonCode == "" {
		t.Errorf("waiting for documents: %+v", c)
	}
	// Another requirement leaves the collection as it is: no event of it.
	update(map[string]any{"accountHolderId": a.HolderID, "verificationRequirements": []string{"SupportingDocumentsRequired", "UboDetailsRequired"}})
	e.expectEvents(ev("AccountHolder.Updated", a.HolderID))
	update(map[string]any{"accountHolderId": a.HolderID, "verificationStatus": "Verified"})
	e.expectEvents(ev("AccountHolder.Updated", a.HolderID), ev("SupportingDocumentCollection.Updated", c.ID))
	if c = collection(); c.StatusInfo.Status != "Approved" || c.StatusInfo.ApprovedAt == "" || c.SupportingDocuments[0].StatusInfo.Status != "Validated" {
		t.Errorf("verified: %+v", c)
	}
}

// supportingDocumentCollections lists the collections of the onboardings
// the token reads, each as its onboarding carries it (so every id it
// gives reads alone), filtered by status and by type (the model's are
// all of onboardings) and paged by cursor.
func TestSupportingDocumentCollectionsListed(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60})
	type page struct {
		SupportingDocumentCollections struct {
			TotalCount int
			PageInfo   struct {
				HasNextPage bool
				EndCursor   string
			}
			Edges []struct {
				Cursor string
				Node   collectionNode
			}
		}
	}
	list := func(token string, vars map[string]any) page {
		t.Helper()
		var out page
		e.mustData(pathSandbox, token, `query($first: Int!, $after: String, $filters: SupportingDocumentCollectionFilterInput, $orderBy: SupportingDocumentCollectionOrderByInput) {
  supportingDocumentCollections(first: $first, after: $after, filters: $filters, orderBy: $orderBy) {
    totalCount pageInfo { hasNextPage endCursor } edges { cursor node { `+collectionFields+` } } } }`, vars, &out)
		return out
	}
	for _, token := range []string{tokSandboxProject, tokSandboxUser0} {
		want := map[string]collectionNode{}
		byStatus := map[string]int{}
		for _, o := range e.onboardingCollections(token) {
			c := o.SupportingDocumentCollection
			want[c.ID] = c
			byStatus[c.StatusInfo.Status]++
		}
		all := list(token, map[string]any{"first": 100})
		got := all.SupportingDocumentCollections
		if got.TotalCount != len(want) || len(got.Edges) != len(want) || got.PageInfo.HasNextPage {
			t.Fatalf("%s: %d collections (%d edges, next %v), its onboardings have %d", token, got.TotalCount, len(got.Edges), got.PageInfo.HasNextPage, len(want))
		}
		for i, ed := range got.Edges {
			c, ok := want[ed.Node.ID]
			if !ok || ed.Node.StatusInfo != c.StatusInfo || len(ed.Node.SupportingDocuments) != len(c.SupportingDocuments) {
				t.Errorf("%s: the list's %s is %+v, its onboarding's %+v", token, ed.Node.ID, ed.Node, c)
			}
			if i > 0 && ed.Node.CreatedAt < got.Edges[i-1].Node.CreatedAt {
				t.Errorf("%s: %s created before the row above it", token, ed.Node.ID)
			}
		}
		for status, n := range byStatus {
			f := list(token, map[string]any{"first": 100, "filters": map[string]any{"status": []string{status}}}).SupportingDocumentCollections
			if f.TotalCount != n {
				t.Errorf("%s: %d %s collections listed, want %d", token, f.TotalCount, status, n)
			}
		}
		if n := list(token, map[string]any{"first": 100, "filters": map[string]any{"type": []string{"Transaction"}}}).SupportingDocumentCollections.TotalCount; n != 0 {
			t.Errorf("%s: %d collections of transactions", token, n)
		}
		// Newest first, the next page starts after the first's last row:
		// the list above read from its end.
		desc := map[string]any{"field": "createdAt", "direction": "Desc"}
		first := list(token, map[string]any{"first": 2, "orderBy": desc}).SupportingDocumentCollections
		next := list(token, map[string]any{"first": 2, "orderBy": desc, "after": first.PageInfo.EndCursor}).SupportingDocumentCollections
		n := len(got.Edges)
		if n < 4 || !first.PageInfo.HasNextPage {
			t.Fatalf("%s: %d collections, %+v: too few to page", token, n, first.PageInfo)
		}
		for i, ed := range append(first.Edges, next.Edges...) {
			if want := got.Edges[n-1-i].Node.ID; ed.Node.ID != want {
				t.Errorf("%s: newest first, row %d is %s, want %s", token, i, ed.Node.ID, want)
			}
		}
	}
}
