package api

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func fakeAccountDetail(id, level string, iban any, status map[string]any) map[string]any {
	return map[string]any{
		"id": id, "number": "12345678901", "name": "Main", "IBAN": iban, "BIC": "SWNBFR22", "currency": "EUR",
		"country": "FRA", "language": "fr", "paymentLevel": level, "paymentAccountType": "PaymentService",
		"balances":  map[string]any{"available": amountJSON("1.00"), "booked": amountJSON("2.00"), "pending": amountJSON("0.00"), "reserved": amountJSON("1.00")},
		"createdAt": "2025-01-02T03:04:05Z", "updatedAt": "2025-02-02T03:04:05Z",
		"statusInfo": status,
		"holder": map[string]any{
			"id": "h-1", "verificationStatus": "Verified",
			"info":             map[string]any{"type": "Company", "name": "ACME SAS", "registrationNumber": "RCS 123", "vatNumber": nil, "tradeName": "ACME"},
			"statusInfo":       map[string]any{"status": "Suspended", "suspendedReason": "KYC renewal"},
			"residencyAddress": map[string]any{"addressLine1": "1 rue de la Paix", "addressLine2": nil, "city": "Paris", "postalCode": "75002", "state": nil, "country": "FRA"},
		},
	}
}

func TestAccountDetailWithAProjectToken(t *testing.T) {
	t.Parallel()
	statuses := map[string]map[string]any{
		"acc-open":      {"status": "Opened"},
		"acc-suspended": {"status": "Suspended", "suspendedReason": map[string]any{"type": "SuspendRequested", "message": "asked by the holder"}},
		"acc-closing":   {"status": "Closing", "closingReason": map[string]any{"type": "Inactivity", "message": nil}, "closingAt": "2025-06-01T00:00:00Z"},
		"acc-closed":    {"status": "Closed", "closedReason": map[string]any{"type": "RequestedByHolder", "message": "moving banks"}, "closedAt": "2025-07-01T00:00:00Z"},
	}
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpAccountDetail: func(q gqlRequest) any {
			id, _ := q.Variables["accountId"].(string)
			s, ok := statuses[id]
			if !ok {
				return map[string]any{"account": nil}
			}
			return map[string]any{"account": fakeAccountDetail(id, "Unlimited", "FR7630006000011234567890189", s)}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()

	d, err := c.AccountDetail(ctx, "acc-open", true)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "acc-open" || d.IBAN == "" || d.Balances == nil || d.Balances.Booked.Value != "2.00" || d.StatusInfo.Status != "Opened" ||
		d.Holder.Info.Name != "ACME SAS" || d.StatusDetail.ReasonInfo != nil || d.Membership != nil || d.IBANHidden() != nil {
		t.Errorf("detail = %+v", d)
	}
	h := d.HolderDetail
	if h.Info.Type != "Company" || h.Info.RegistrationNumber != "RCS 123" || h.Info.VatNumber != "" || h.Info.TradeName != "ACME" ||
		h.StatusInfo == nil || h.StatusInfo.Reason != "KYC renewal" || h.ResidencyAddress == nil || h.ResidencyAddress.City != "Paris" {
		t.Errorf("holder = %+v", h)
	}

	for id, want := range map[string]StatusReason{
		"acc-suspended": {Type: "SuspendRequested", Message: "asked by the holder"},
		"acc-closing":   {Type: "Inactivity"},
		"acc-closed":    {Type: "RequestedByHolder", Message: "moving banks"},
	} {
		d, err := c.AccountDetail(ctx, id, true)
		if err != nil {
			t.Fatal(err)
		}
		if r := d.StatusDetail.ReasonInfo; r == nil || *r != want {
			t.Errorf("%s: reasonInfo = %+v, want %+v", id, r, want)
		}
	}
	if d, _ := c.AccountDetail(ctx, "acc-closing", true); !d.StatusDetail.ClosingAt.Equal(time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("closingAt = %v", d.StatusDetail.ClosingAt)
	}
	d, _ = c.AccountDetail(ctx, "acc-closed", true)
	if d.StatusDetail.ClosedAt.IsZero() {
		t.Errorf("closedAt missing: %+v", d.StatusDetail)
	}
	// The JSON carries the detailed statusInfo and holder, once.
	o := jsonObject(t, d)
	si := o["statusInfo"].(map[string]any)
	if si["reasonInfo"].(map[string]any)["message"] != "moving banks" || si["closedAt"] == nil {
		t.Errorf("statusInfo JSON = %v", si)
	}
	if _, ok := o["holder"].(map[string]any)["residencyAddress"]; !ok {
		t.Errorf("holder JSON = %v", o["holder"])
	}
	if _, ok := o["membership"]; ok {
		t.Error("a project token's detail wrote a membership")
	}
	if _, err := c.AccountDetail(ctx, "missing", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing account: %v", err)
	}
}

// TestAccountDetailSaysWhyTheIBANIsHidden: the platform returns IBAN only
// for Unlimited accounts seen through a membership with canViewAccount.
func TestAccountDetailSaysWhyTheIBANIsHidden(t *testing.T) {
	t.Parallel()
	type acct struct {
		level   string
		iban    any
		canView bool
		member  string // the membership's account; "" for none
	}
	accounts := map[string]acct{
		"shown":         {"Unlimited", "FR7630006000011234567890189", true, "shown"},
		"limited":       {"Limited", nil, true, "limited"},
		"no-right":      {"Unlimited", nil, false, "no-right"},
		"both":          {"Limited", nil, false, "both"},
		"not-assigned":  {"Unlimited", nil, true, "not-assigned"},
		"other-account": {"Unlimited", nil, false, "elsewhere"}, // a server that ignored the filter
	}
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpAccountDetailUser: func(q gqlRequest) any {
			id := q.Variables["accountId"].(string)
			a := accounts[id]
			m := fakeMembership(0)
			m["accountId"] = a.member
			m["canViewAccount"] = a.canView
			return map[string]any{
				"account": fakeAccountDetail(id, a.level, a.iban, map[string]any{"status": "Opened"}),
				"user":    map[string]any{"accountMemberships": connection(0, 1, 1, func(int) any { return m })},
			}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	for id, want := range map[string][]IBANHiddenReason{
		"shown":         nil,
		"limited":       {IBANLimitedAccount},
		"no-right":      {IBANNoViewRight},
		"both":          {IBANLimitedAccount, IBANNoViewRight},
		"not-assigned":  {IBANNotAssigned},
		"other-account": {IBANNotAssigned},
	} {
		d, err := c.AccountDetail(context.Background(), id, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.IBANHidden(); !slices.Equal(got, want) {
			t.Errorf("%s: IBANHidden = %v, want %v", id, got, want)
		}
		if (d.Membership != nil) != (id != "other-account") {
			t.Errorf("%s: membership = %+v", id, d.Membership)
		}
	}
}

func TestStatements(t *testing.T) {
	t.Parallel()
	statement := func(i int) any {
		s := map[string]any{
			"id": id("st", i), "period": "Monthly", "openingDate": "2025-01-01T00:00:00Z", "closingDate": "2025-01-31T23:59:59Z",
			"openingBalance": amountJSON("10.00"), "closingBalance": amountJSON("20.00"), "totalCredits": amountJSON("15.00"),
			"totalDebits": amountJSON("5.00"), "feeCredits": amountJSON("0.00"), "feeDebits": amountJSON("1.00"),
			"statusInfo": map[string]any{"status": "Generated", "url": "https://statements.example/" + id("st", i)},
			"format":     "PDF", "createdAt": "2025-02-01T00:00:00Z", "updatedAt": "2025-02-01T00:00:00Z",
		}
		switch i % 3 {
		case 1:
			s["statusInfo"] = map[string]any{"status": "Voided", "voidedUrl": "https://statements.example/void"}
		case 2:
			s["statusInfo"] = map[string]any{"status": "Pending"}
			s["period"] = nil
		}
		return s
	}
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpStatements: func(q gqlRequest) any {
			if q.Variables["accountId"] == "missing" {
				return map[string]any{"account": nil}
			}
			return map[string]any{"account": map[string]any{"statements": pageOf(t, q, 3, statement)}}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	page, err := c.Statements(ctx, StatementsParams{AccountID: "acc-1", Period: "Monthly", OrderBy: "openingDate", Direction: DirectionDesc,
		IsAfterUpdatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	q := srv.last()
	if got := varJSON(t, q, "filters"); got != `{"isAfterUpdatedAt":"2025-01-01T00:00:00Z","period":"Monthly"}` {
		t.Errorf("filters = %s", got)
	}
	if got := varJSON(t, q, "orderBy"); got != `{"direction":"Desc","field":"openingDate"}` {
		t.Errorf("orderBy = %s", got)
	}
	s := page.Items
	if len(s) != 3 || s[0].ClosingBalance.Value != "20.00" || s[0].TotalCredits.Value != "15.00" || s[0].FeeDebits.Value != "1.00" ||
		s[0].StatusInfo.URL != "https://statements.example/st-0000" || s[0].Period != "Monthly" || s[0].OpeningDate.IsZero() {
		t.Fatalf("statements = %+v", s)
	}
	if s[1].StatusInfo.Status != "Voided" || s[1].StatusInfo.URL != "https://statements.example/void" {
		t.Errorf("voided = %+v", s[1].StatusInfo)
	}
	if o := jsonObject(t, s[2]); o["period"] != nil || o["statusInfo"].(map[string]any)["url"] != nil {
		t.Errorf("pending statement JSON = %v", o)
	}
	if _, err := c.Statements(ctx, StatementsParams{AccountID: "missing"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing account: %v", err)
	}
	if _, err := c.Statements(ctx, StatementsParams{}); !errors.Is(err, ErrInvalidParam) {
		t.Errorf("no account id: %v", err)
	}
}
