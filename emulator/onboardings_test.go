package emulator

import (
	"strings"
	"testing"
)

// Onboardings: each account's holder's, finalized when the account
// opened, and those still being filled in with what they lack; read by
// id, publicly, from their holder and as a list.

const onboardingFields = `__typename
  ... on IndividualAccountHolderOnboarding { id onboardingUrl createdAt updatedAt termsAndConditionsUrl projectInfo { id name }
    statusInfo { __typename status validationVersion ... on OnboardingInvalidStatusInfo { errors { field errors } } }
    accountInfo { name country } accountAdmin { email firstName lastName preferredLanguage } account { id } }
  ... on CompanyAccountHolderOnboarding { id onboardingUrl createdAt updatedAt termsAndConditionsUrl projectInfo { id name }
    statusInfo { __typename status validationVersion ... on OnboardingInvalidStatusInfo { errors { field errors } } }
    accountInfo { name country } accountAdmin { email firstName lastName preferredLanguage } company { registrationNumber name } account { id } }`

type onboardingNode struct {
	Typename                                string `json:"__typename"`
	ID, OnboardingURL, CreatedAt, UpdatedAt string
	TermsAndConditionsURL                   string
	ProjectInfo                             struct{ ID, Name string }
	StatusInfo                              struct {
		Typename, Status, ValidationVersion string
		Errors                              []struct {
			Field  string
			Errors []string
		}
	}
	AccountInfo  struct{ Name, Country string }
	AccountAdmin struct{ Email, FirstName, LastName, PreferredLanguage string }
	Company      *struct{ RegistrationNumber, Name string }
	Account      *struct{ ID string }
}

func (e *testEnv) onboardings(token string, first int, after string, filters map[string]any) (int, []onboardingNode, string, bool) {
	e.t.Helper()
	vars := map[string]any{"first": first, "f": filters}
	if after != "" {
		vars["after"] = after
	}
	var out struct {
		AccountHolderOnboardings struct {
			TotalCount int
			PageInfo   struct {
				HasNextPage bool
				EndCursor   string
			}
			Edges []struct{ Node onboardingNode }
		}
	}
	e.mustData(pathSandbox, token, `query($first: Int!, $after: String, $f: OnboardingFiltersInput) {
	  accountHolderOnboardings(first: $first, after: $after, filters: $f) { totalCount pageInfo { hasNextPage endCursor } edges { node { `+onboardingFields+` } } } }`, vars, &out)
	var list []onboardingNode
	for _, ed := range out.AccountHolderOnboardings.Edges {
		list = append(list, ed.Node)
	}
	c := out.AccountHolderOnboardings
	return c.TotalCount, list, c.PageInfo.EndCursor, c.PageInfo.HasNextPage
}

func TestOnboardingsRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 40})
	total, all, _, _ := e.onboardings(tokSandboxProject, 100, "", nil)
	if total != len(all) || total <= 40 {
		t.Fatalf("%d onboardings (%d listed) for 40 accounts", total, len(all))
	}
	byStatus := map[string]int{}
	for i, o := range all {
		byStatus[o.StatusInfo.Status]++
		if i > 0 && o.CreatedAt > all[i-1].CreatedAt {
			t.Errorf("not newest first at %d", i)
		}
		if !strings.HasPrefix(o.OnboardingURL, "https://onboarding.example.com/onboardings/"+o.ID) || o.ProjectInfo.ID != e.sandbox.Project().ID || o.StatusInfo.ValidationVersion != "V2" {
			t.Errorf("onboarding %+v", o)
		}
		switch o.StatusInfo.Status {
		case "Finalized":
			if o.Account == nil || o.AccountAdmin.Email == "" {
				t.Errorf("a finalized onboarding without its account: %+v", o)
			}
		case "Invalid":
			if len(o.StatusInfo.Errors) == 0 || o.Account != nil {
				t.Errorf("an invalid onboarding without what it lacks: %+v", o)
			}
		case "Valid":
			if o.Account != nil || len(o.StatusInfo.Errors) != 0 {
				t.Errorf("a valid onboarding %+v", o)
			}
		}
		if (o.Typename == "CompanyAccountHolderOnboarding") != (o.Company != nil) {
			t.Errorf("company %+v of a %s", o.Company, o.Typename)
		}
	}
	if byStatus["Finalized"] != 40 || byStatus["Invalid"]+byStatus["Valid"] == 0 {
		t.Errorf("statuses %v", byStatus)
	}
	// Pages meet the list; filters keep what they name.
	var paged []string
	after := ""
	for {
		_, page, end, more := e.onboardings(tokSandboxProject, 9, after, nil)
		for _, o := range page {
			paged = append(paged, o.ID)
		}
		if !more {
			break
		}
		after = end
	}
	if len(paged) != total || paged[total-1] != all[total-1].ID {
		t.Errorf("paged %d of %d", len(paged), total)
	}
	n, open, _, _ := e.onboardings(tokSandboxProject, 100, "", map[string]any{"status": []string{"Valid", "Invalid"}})
	if n != byStatus["Valid"]+byStatus["Invalid"] || len(open) != n {
		t.Errorf("%d onboardings in progress, %d counted", len(open), n)
	}
	// A holder's onboarding is the one that opened its account.
	a := e.sandbox.AllAccounts()[5]
	var h struct {
		AccountHolder struct{ AccountHolderOnboarding onboardingNode }
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { accountHolder(id: $id) { accountHolderOnboarding { `+onboardingFields+` } } }`, map[string]any{"id": a.HolderID}, &h)
	if o := h.AccountHolder.AccountHolderOnboarding; o.Account == nil || o.Account.ID != a.ID || o.StatusInfo.Status != "Finalized" {
		t.Errorf("holder's onboarding %+v", o)
	}
	// Read by id, and publicly; the page shows what is missing.
	var inv onboardingNode
	for _, o := range open {
		if o.StatusInfo.Status == "Invalid" {
			inv = o
		}
	}
	var one struct{ AccountHolderOnboarding, PublicAccountHolderOnboarding onboardingNode }
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { accountHolderOnboarding(id: $id) { `+onboardingFields+` } publicAccountHolderOnboarding(id: $id) { `+onboardingFields+` } }`,
		map[string]any{"id": inv.ID}, &one)
	if one.AccountHolderOnboarding.ID != inv.ID || one.PublicAccountHolderOnboarding.ID != inv.ID {
		t.Errorf("by id: %+v / %+v", one.AccountHolderOnboarding, one.PublicAccountHolderOnboarding)
	}
	// A user sees the onboardings of their accounts only, none in progress.
	userTotal, mine, _, _ := e.onboardings(tokSandboxUser0, 100, "", nil)
	for _, o := range mine {
		if o.StatusInfo.Status != "Finalized" {
			t.Errorf("a user sees %+v", o)
		}
	}
	if userTotal == 0 || userTotal >= 40 {
		t.Errorf("the first demo user sees %d onboardings", userTotal)
	}
}
