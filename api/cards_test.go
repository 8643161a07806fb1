package api

import (
	"context"
	"errors"
	"testing"
)

func fakeCard(i int) map[string]any {
	c := map[string]any{
		"id": id("card", i), "type": "VirtualAndPhysical", "name": "Travel", "cardMaskedNumber": "5300 **** **** 1234", "expiryDate": "09/29",
		"statusInfo": map[string]any{"status": "Enabled"}, "withdrawal": true, "international": false, "eCommerce": true,
		"spendingLimits": []any{map[string]any{"type": "AccountHolder", "period": "Monthly", "amount": amountJSON("1000.00")}},
		"accountMembership": map[string]any{"id": "mem-1", "email": "ada@example.com", "accountId": "acc-1",
			"user": map[string]any{"id": "user-1", "firstName": "Ada", "lastName": "Lovelace"}},
		"createdAt": "2025-01-02T03:04:05Z", "updatedAt": "2025-01-03T03:04:05Z",
	}
	switch i % 4 {
	case 1:
		c["statusInfo"] = map[string]any{"status": "Canceled", "canceledReason": "lost"}
		c["name"] = nil
		c["spendingLimits"] = nil
	case 2:
		c["statusInfo"] = map[string]any{"status": "Canceling", "cancelingReason": "stolen"}
	case 3:
		c["statusInfo"] = map[string]any{"status": "ConsentPending", "consent": map[string]any{"id": "con-2", "status": "Started", "consentUrl": "https://consent.example/2"}}
		c["expiryDate"] = nil
	}
	return c
}

func TestCardsDecodesStatusesAndSendsFilters(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpCards: func(q gqlRequest) any { return map[string]any{"cards": connection(0, 4, 4, fakeCard)} },
		OpMembershipCards: func(q gqlRequest) any {
			if q.Variables["membershipId"] == "missing" {
				return map[string]any{"accountMembership": nil}
			}
			return map[string]any{"accountMembership": map[string]any{"cards": connection(0, 1, 1, fakeCard)}}
		},
		OpCard: func(q gqlRequest) any {
			if q.Variables["cardId"] == "missing" {
				return map[string]any{"card": nil}
			}
			return map[string]any{"card": fakeCard(3)}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	page, err := c.Cards(ctx, CardsParams{AccountID: "acc-1", Statuses: []string{"Enabled", "Canceled"}, Types: []string{"Virtual"},
		Search: "Travel", OrderBy: OrderUpdatedAt, Direction: DirectionAsc})
	if err != nil {
		t.Fatal(err)
	}
	q := srv.last()
	if got := varJSON(t, q, "filters"); got != `{"accountId":"acc-1","search":"Travel","statuses":["Enabled","Canceled"],"types":["Virtual"]}` {
		t.Errorf("filters = %s", got)
	}
	if got := varJSON(t, q, "orderBy"); got != `{"direction":"Asc","field":"updatedAt"}` {
		t.Errorf("orderBy = %s", got)
	}
	cs := page.Items
	if len(cs) != 4 {
		t.Fatalf("cards = %d", len(cs))
	}
	if c0 := cs[0]; c0.CardMaskedNumber != "5300 **** **** 1234" || !c0.Withdrawal || c0.International || !c0.ECommerce || c0.ExpiryDate != "09/29" ||
		len(c0.SpendingLimits) != 1 || c0.SpendingLimits[0].Amount.Value != "1000.00" || c0.AccountMembership == nil ||
		c0.AccountMembership.AccountID != "acc-1" || c0.AccountMembership.User.LastName != "Lovelace" {
		t.Errorf("card 0 = %+v", c0)
	}
	if s := cs[1].StatusInfo; s.Status != "Canceled" || s.Reason != "lost" || cs[1].Name != "" || cs[1].SpendingLimits != nil {
		t.Errorf("canceled card = %+v", cs[1])
	}
	if s := cs[2].StatusInfo; s.Status != "Canceling" || s.Reason != "stolen" {
		t.Errorf("canceling card = %+v", s)
	}
	if s := cs[3].StatusInfo; s.Status != "ConsentPending" || s.Consent == nil || s.Consent.ID != "con-2" {
		t.Errorf("consent pending card = %+v", s)
	}
	o := jsonObject(t, cs[1])
	for _, k := range []string{"name", "spendingLimits"} {
		if _, ok := o[k]; ok {
			t.Errorf("%s written for a card that has none: %v", k, o)
		}
	}
	if o["withdrawal"] != true || o["international"] != false {
		t.Errorf("the card's options must be written even when false: %v", o)
	}

	mc, err := c.Cards(ctx, CardsParams{MembershipID: "mem-1"})
	if err != nil || len(mc.Items) != 1 {
		t.Fatalf("membership cards = %+v, %v", mc, err)
	}
	if q := srv.last(); q.Variables["membershipId"] != "mem-1" || q.Variables["filters"] != nil || q.Variables["orderBy"] != nil {
		t.Errorf("membership cards variables = %v", q.Variables)
	}
	if _, err := c.Cards(ctx, CardsParams{MembershipID: "missing"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing membership: %v", err)
	}
	card, err := c.Card(ctx, "card-0003")
	if err != nil || card.StatusInfo.Consent == nil || card.ExpiryDate != "" {
		t.Errorf("card = %+v, %v", card, err)
	}
	if _, err := c.Card(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing card: %v", err)
	}
	if _, err := c.Cards(ctx, CardsParams{Statuses: []string{"Active"}}); !errors.Is(err, ErrInvalidParam) {
		t.Errorf("unknown status: %v", err)
	}
}
