package api

import (
	"context"
	"errors"
	"testing"
)

// fakeMembership renders membership i; every fifth one is a bound,
// enabled membership and the others walk through the status types.
func fakeMembership(i int) map[string]any {
	m := map[string]any{
		"id": id("mem", i), "email": "m" + id("", i) + "@example.com",
		"user":                map[string]any{"id": id("user", i), "firstName": "Ada", "lastName": nil, "fullName": "Ada"},
		"legalRepresentative": i == 0, "canViewAccount": i%2 == 0, "canManageBeneficiaries": true,
		"canInitiatePayments": false, "canManageAccountMembership": i == 0, "canManageCards": true,
		"statusInfo": map[string]any{"status": "Enabled"},
		"accountId":  "acc-1", "account": map[string]any{"id": "acc-1", "name": "Main"},
		"createdAt": "2025-01-02T03:04:05Z", "updatedAt": "2025-02-02T03:04:05Z", "disabledAt": nil,
	}
	restricted := map[string]any{"firstName": "Grace", "lastName": "Hopper", "birthDate": "1906-12-09", "phoneNumber": nil}
	switch i % 5 {
	case 1:
		m["user"] = nil
		m["statusInfo"] = map[string]any{"status": "InvitationSent", "invitationRestrictedTo": restricted}
	case 2:
		m["statusInfo"] = map[string]any{"status": "BindingUserError", "firstNameMatchError": false, "lastNameMatchError": true,
			"birthDateMatchError": false, "phoneNumberMatchError": true, "emailVerifiedMatchError": false, "idVerifiedMatchError": false,
			"restrictedTo": restricted}
	case 3:
		m["statusInfo"] = map[string]any{"status": "ConsentPending", "consent": map[string]any{"id": "con-1", "status": "Created", "consentUrl": "https://consent.example/1"},
			"consentRestrictedTo": restricted}
	case 4:
		m["statusInfo"] = map[string]any{"status": "Disabled", "disabledReason": "left the company"}
		m["disabledAt"] = "2025-03-01T00:00:00Z"
	}
	return m
}

func TestAccountMembershipsDecodesEveryStatusType(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpMemberships: func(q gqlRequest) any {
			return map[string]any{"accountMemberships": connection(0, 5, 5, fakeMembership)}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	no := false
	page, err := c.AccountMemberships(context.Background(), MembershipsParams{First: 50, Search: "Ada", Status: []string{"Enabled", "Disabled"},
		CanViewAccount: &no, OrderBy: OrderCreatedAt, Direction: DirectionDesc})
	if err != nil {
		t.Fatal(err)
	}
	q := srv.last()
	if got := varJSON(t, q, "filters"); got != `{"canViewAccount":false,"search":"Ada","status":["Enabled","Disabled"]}` {
		t.Errorf("filters = %s", got)
	}
	if got := varJSON(t, q, "orderBy"); got != `{"direction":"Desc","field":"createdAt"}` {
		t.Errorf("orderBy = %s", got)
	}
	if q.Variables["first"] != float64(50) || q.Variables["after"] != nil {
		t.Errorf("first, after = %v, %v", q.Variables["first"], q.Variables["after"])
	}
	if len(page.Items) != 5 || page.TotalCount != 5 || page.PageInfo.HasNextPage {
		t.Fatalf("page = %+v", page)
	}
	m := page.Items
	if m[0].User == nil || m[0].User.ID != "user-0000" || m[0].User.LastName != "" || !m[0].LegalRepresentative || !m[0].CanViewAccount ||
		m[0].Account == nil || m[0].Account.Name != "Main" || m[0].AccountID != "acc-1" || m[0].CreatedAt.IsZero() || !m[0].DisabledAt.IsZero() {
		t.Errorf("enabled membership = %+v", m[0])
	}
	if s := m[1].StatusInfo; m[1].User != nil || s.Status != "InvitationSent" || s.RestrictedTo == nil || s.RestrictedTo.LastName != "Hopper" || s.RestrictedTo.BirthDate != "1906-12-09" {
		t.Errorf("invitation = %+v / %+v", m[1], s.RestrictedTo)
	}
	if s := m[2].StatusInfo; s.Status != "BindingUserError" || !s.LastNameMatchError || !s.PhoneNumberMatchError || s.FirstNameMatchError || s.RestrictedTo == nil {
		t.Errorf("binding error = %+v", s)
	}
	if s := m[3].StatusInfo; s.Status != "ConsentPending" || s.Consent == nil || s.Consent.ConsentURL != "https://consent.example/1" || s.RestrictedTo == nil {
		t.Errorf("consent pending = %+v", s)
	}
	if s := m[4].StatusInfo; s.Status != "Disabled" || s.Reason != "left the company" || m[4].DisabledAt.IsZero() {
		t.Errorf("disabled = %+v", m[4])
	}
	// Only fields that were fetched are written.
	o := jsonObject(t, m[1])
	if _, ok := o["user"]; ok {
		t.Errorf("a null user was written: %v", o)
	}
	if si := o["statusInfo"].(map[string]any); si["reason"] != nil || si["consent"] != nil || si["lastNameMatchError"] != nil {
		t.Errorf("statusInfo of an invitation = %v", si)
	}
}

func TestAccountMembersOfOneAccount(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpAccountMembers: func(q gqlRequest) any {
			if q.Variables["accountId"] == "missing" {
				return map[string]any{"account": nil}
			}
			return map[string]any{"account": map[string]any{"memberships": pageOf(t, q, 250, fakeMembership)}}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	var ids []string
	err := Walk(ctx, Pages(c.AccountMemberships, MembershipsParams{AccountID: "acc-1", UserID: "user-7"}), func(p *Page[AccountMembership]) error {
		for _, m := range p.Items {
			ids = append(ids, m.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, got := range ids {
		if got != id("mem", i) || seen[got] {
			t.Fatalf("membership %d is %s: gap or duplicate", i, got)
		}
		seen[got] = true
	}
	reqs := srv.requests()
	if len(ids) != 250 || len(reqs) != 3 {
		t.Fatalf("%d memberships in %d requests, want 250 in 3", len(ids), len(reqs))
	}
	for i, want := range []any{nil, "100", "200"} {
		if reqs[i].Variables["after"] != want || reqs[i].Variables["accountId"] != "acc-1" {
			t.Errorf("request %d: %v", i, reqs[i].Variables)
		}
		if got := varJSON(t, reqs[i], "filters"); got != `{"userId":"user-7"}` {
			t.Errorf("request %d filters = %s", i, got)
		}
	}
	if _, err := c.AccountMemberships(ctx, MembershipsParams{AccountID: "missing"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing account: %v", err)
	}
}

func TestMembershipParamsAreCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, nil)
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	for name, p := range map[string]MembershipsParams{
		"userId without an account": {UserID: "u"},
		"unknown status":            {Status: []string{"Active"}},
		"unknown order":             {OrderBy: "email"},
		"unknown direction":         {Direction: "desc"},
	} {
		_, err := c.AccountMemberships(ctx, p)
		var pe *ParamError
		if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidParam) {
			t.Errorf("%s: err = %v, want a *ParamError", name, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid parameters", n)
	}
}

func TestAccountMembershipByID(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpMembership: func(q gqlRequest) any {
			if q.Variables["id"] == "missing" {
				return map[string]any{"accountMembership": nil}
			}
			return map[string]any{"accountMembership": fakeMembership(4)}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	m, err := c.AccountMembership(context.Background(), "mem-0004")
	if err != nil || m.StatusInfo.Reason != "left the company" {
		t.Fatalf("membership = %+v, %v", m, err)
	}
	if _, err := c.AccountMembership(context.Background(), "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing membership: %v", err)
	}
}
