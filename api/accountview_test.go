package api

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// A view reads the lists it is given, in one request whose text depends
// on which lists they are and not on their order, and carries each page
// under its list; a list it was not given it does not read.
func TestAccountViewReadsItsPartsKeyed(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []gqlRequest
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		mu.Lock()
		sent = append(sent, q)
		mu.Unlock()
		page := func(id string) map[string]any {
			return map[string]any{"totalCount": 1, "pageInfo": map[string]any{"endCursor": "c1"},
				"edges": []any{map[string]any{"node": map[string]any{"id": id}}}}
		}
		acct := map[string]any{"id": "acc-1", "name": "Main"}
		for _, l := range []string{"transactions", "members", "statements"} {
			if strings.Contains(q.Query, l+": ") {
				acct[l] = page(l + "-1")
			}
		}
		data := map[string]any{"account": acct}
		if strings.Contains(q.Query, "cards: ") {
			data["cards"] = page("cards-1")
		}
		writeJSON200(w, map[string]any{"data": data})
	}), nil)
	ctx := context.Background()
	cards := ViewCards.Part(CardsParams{Statuses: []string{"Enabled"}})
	statements := ViewStatements.Part(StatementsParams{})

	v, err := c.AccountView(ctx, AccountViewParams{AccountID: "acc-1", Project: true, Parts: []AccountPart{statements, cards}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AccountView(ctx, AccountViewParams{AccountID: "acc-1", Project: true, Parts: []AccountPart{cards, statements}}); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 2 || sent[0].Query != sent[1].Query {
		t.Fatalf("the same lists in another order sent another operation:\n%v", sent)
	}
	q := sent[0]
	for _, want := range []string{"statements: statements(first: $statementsFirst", "cards: cards(first: $cardsFirst"} {
		if !strings.Contains(q.Query, want) {
			t.Errorf("the operation lacks %q:\n%s", want, q.Query)
		}
	}
	if strings.Contains(q.Query, "transactions") || strings.Contains(q.Query, "memberships") {
		t.Errorf("the operation reads lists it was not given:\n%s", q.Query)
	}
	// The cards are the account's, with the filter they were given.
	if f, _ := q.Variables["cardsFilters"].(map[string]any); f["accountId"] != "acc-1" || len(f["statuses"].([]any)) != 1 {
		t.Errorf("cardsFilters = %v, want the account's Enabled cards", q.Variables["cardsFilters"])
	}
	if _, ok := q.Variables["cardsAfter"]; ok {
		t.Errorf("the view sent a cursor: %v", q.Variables)
	}
	if v.Detail.ID != "acc-1" || v.Detail.Name != "Main" {
		t.Errorf("detail = %+v", v.Detail.Account)
	}
	if p := ViewCards.Page(v); p == nil || len(p.Items) != 1 || p.Items[0].ID != "cards-1" || p.PageInfo.EndCursor != "c1" {
		t.Errorf("cards page = %+v", p)
	}
	if p := ViewStatements.Page(v); p == nil || len(p.Items) != 1 || p.Items[0].ID != "statements-1" {
		t.Errorf("statements page = %+v", p)
	}
	if p := ViewTransactions.Page(v); p != nil {
		t.Errorf("a list the view was not given has a page: %+v", p)
	}
}

// A view given a list twice, or a part not made by its list, is refused
// before anything is sent.
func TestAccountViewRefusesABadPartUnsent(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request was sent")
	}), nil)
	ctx := context.Background()
	twice := []AccountPart{ViewMembers.Part(MembershipsParams{}), ViewStatements.Part(StatementsParams{}), ViewMembers.Part(MembershipsParams{})}
	if _, err := c.AccountView(ctx, AccountViewParams{AccountID: "a", Parts: twice}); err == nil || !strings.Contains(err.Error(), "members twice") {
		t.Errorf("a list twice: %v", err)
	}
	if _, err := c.AccountView(ctx, AccountViewParams{AccountID: "a", Parts: []AccountPart{{}}}); err == nil {
		t.Error("a zero part was accepted")
	}
	bad := ViewCards.Part(CardsParams{Statuses: []string{"NoSuchStatus"}})
	if _, err := c.AccountView(ctx, AccountViewParams{AccountID: "a", Parts: []AccountPart{bad}}); err == nil || !strings.Contains(err.Error(), "cards: ") {
		t.Errorf("a bad filter: %v, want it named with its list", err)
	}
}

// ParamsIn is what the view reads a list with: the view's account, its
// page size unless the part sets one.
func TestAccountViewParamsIn(t *testing.T) {
	t.Parallel()
	p := AccountViewParams{AccountID: "acc-9", First: 100, Parts: []AccountPart{
		ViewTransactions.Part(TransactionsParams{Search: "rent"}), ViewStatements.Part(StatementsParams{First: 2}),
	}}
	tx, ok := ViewTransactions.ParamsIn(p)
	if !ok || tx.AccountID != "acc-9" || tx.First != 100 || tx.Search != "rent" {
		t.Errorf("transactions: %+v %v", tx, ok)
	}
	if st, ok := ViewStatements.ParamsIn(p); !ok || st.First != 2 || st.AccountID != "acc-9" {
		t.Errorf("statements: %+v %v", st, ok)
	}
	if _, ok := ViewCards.ParamsIn(p); ok {
		t.Error("cards are read by a view that was not given them")
	}
}
