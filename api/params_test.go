package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// TestEnumListsAreTheSchemas: each list of values the client checks
// parameters against is the public schema's enum, in the schema's order.
func TestEnumListsAreTheSchemas(t *testing.T) {
	t.Parallel()
	schema := loadSchema(t, "partner-schema.graphql")
	for enum, got := range map[string][]string{
		"OrderByDirection":                   OrderDirections(),
		"TransactionStatus":                  TransactionStatuses(),
		"PaymentProduct":                     PaymentProducts(),
		"TransactionTypeEnum":                TransactionTypes(),
		"TransactionsOrderByField":           TransactionOrderFields(),
		"AccountMembershipStatus":            MembershipStatuses(),
		"AccountMembershipOrderByFieldInput": MembershipOrderFields(),
		"CardStatus":                         CardStatuses(),
		"CardType":                           CardTypes(),
		"CardOrderByFieldInput":              CardOrderFields(),
		"StatementPeriod":                    StatementPeriods(),
		"StatementsOrderByField":             StatementOrderFields(),
		"StatusText":                         WebhookStatusTexts(),
		"WebhookSubscriptionCreationStatus":  WebhookCreationStatuses(),
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
		if !slices.Equal(got, want) {
			t.Errorf("%s: the client lists %v, the schema %v", enum, got, want)
		}
	}
}

func TestParamErrorsAreBoundedFacts(t *testing.T) {
	t.Parallel()
	err := checkEnum("filters.status", TransactionStatuses(), "Booked", strings.Repeat("x", 500))
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Param != "filters.status" || len(pe.Value) > 90 || len(pe.Allowed) != 8 {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "Booked, Deferred") {
		t.Errorf("message %q does not list the allowed values", err)
	}
	for _, ok := range []string{"", "0", "12.50", "-1.5", "100000000000000"} {
		if err := checkAmount("a", ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"1,50", "1.", ".5", "1e3", "EUR 3", "+1"} {
		if err := checkAmount("a", bad); err == nil {
			t.Errorf("%q accepted as an AmountValue", bad)
		}
	}
}

// TestListParamsAreCheckedBeforeSending covers the lists the other tests
// do not: nothing reaches the server.
func TestListParamsAreCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { calls.Add(1) }), nil)
	ctx := context.Background()
	for name, err := range map[string]error{
		"statement period":  second(c.Statements(ctx, StatementsParams{AccountID: "a", Period: "Yearly"})),
		"statement order":   second(c.Statements(ctx, StatementsParams{AccountID: "a", OrderBy: "createdAt"})),
		"card type":         second(c.Cards(ctx, CardsParams{Types: []string{"Physical"}})),
		"card order":        second(c.Cards(ctx, CardsParams{OrderBy: "name"})),
		"log status code":   second(c.WebhookEventLogs(ctx, WebhookEventLogsParams{StatusCode: 1000})),
		"replay without id": second(c.ReplayWebhookEvent(ctx, "", "")),
		"remove without id": c.RemoveWebhookSubscription(ctx, ""),
	} {
		if !errors.Is(err, ErrInvalidParam) {
			t.Errorf("%s: err = %v, want ErrInvalidParam", name, err)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d requests sent for invalid parameters", n)
	}
}

// TestAccountJSONHasOnlyWhatWasFetched: an account from the list query
// marshals without the balances and fields the list does not fetch.
func TestAccountJSONHasOnlyWhatWasFetched(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		decodeReq(t, r)
		page := accountsPage(0, 2, 2)
		nodes := page["data"].(map[string]any)["accounts"].(map[string]any)["edges"].([]any)
		limited := nodes[1].(map[string]any)["node"].(map[string]any)
		limited["IBAN"], limited["balances"] = nil, nil
		writeJSON200(w, page)
	}), nil)
	page, err := c.Accounts(context.Background(), AccountsParams{})
	if err != nil {
		t.Fatal(err)
	}
	o := jsonObject(t, page.Items[0])
	b := o["balances"].(map[string]any)
	for _, k := range []string{"booked", "pending", "reserved"} {
		if _, ok := b[k]; ok {
			t.Errorf("balances.%s written though the list does not fetch it: %v", k, b)
		}
	}
	if b["available"].(map[string]any)["value"] != "12.50" {
		t.Errorf("balances = %v", b)
	}
	for _, k := range []string{"number", "country", "paymentLevel", "createdAt"} {
		if _, ok := o[k]; ok {
			t.Errorf("%s written though the list does not fetch it: %v", k, o)
		}
	}
	if info := o["holder"].(map[string]any)["info"].(map[string]any); len(info) != 1 || info["name"] != "Holder Account 0" {
		t.Errorf("holder.info = %v, want its name only", info)
	}
	o = jsonObject(t, page.Items[1])
	if _, ok := o["IBAN"]; ok {
		t.Errorf("a null IBAN was written: %v", o)
	}
	if _, ok := o["balances"]; ok {
		t.Errorf("null balances were written: %v", o)
	}
}

func TestRedactHidesEchoedAndTruncatedSecrets(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"secret " + hookSecret + " is invalid": "secret [hidden] is invalid",
		"body: {\"secret\":\"whsec-9":          "body: {\"secret\":\"[hidden]",
		"ends with wh":                         "ends with wh", // too short to tell
		"nothing here":                         "nothing here",
	} {
		if got := redact(in, hookSecret); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
	if got := redact("x", ""); got != "x" {
		t.Errorf("an empty secret changed the text: %q", got)
	}
	err := redactErr(&BadResponseError{Snippet: "{\"data\":{\"secret\":\"" + hookSecret[:10]}, hookSecret)
	if strings.Contains(err.Error(), hookSecret[:10]) {
		t.Errorf("a truncated secret survived: %v", err)
	}
}
