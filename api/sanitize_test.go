package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/partnertui/partnertui/internal/safetext"
)

const hostile = "\x1b]0;pwn\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\u009b1;1H\x1bPdcs\x1b\\\x1b_apc\x1b\\\tname\x7f\x00\u202e"

// fillStrings sets every string field reachable from v (a pointer) to s,
// allocating nil struct pointers and one element of every slice on the way.
func fillStrings(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(v.Elem(), s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillStrings(v.Field(i), s)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fillStrings(v.Index(i), s)
		}
	case reflect.String:
		v.SetString(s)
	}
}

// checkStrings fails for every string reachable from v that is not what
// stripping hostile leaves (the tab becomes a space; everything else goes).
func checkStrings(t *testing.T, path string, v reflect.Value) int {
	t.Helper()
	n := 0
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			n += checkStrings(t, path, v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				n += checkStrings(t, path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			n += checkStrings(t, path, v.Index(i))
		}
	case reflect.String:
		if v.String() == "" {
			return 0 // a field this operation does not fetch
		}
		n++
		if v.Type() == reflect.TypeFor[Secret]() {
			// A secret is never drawn (it prints as [hidden]) and goes back
			// to a server byte for byte: it is kept as it came.
			if v.String() != hostile {
				t.Errorf("%s = %q after decoding, want the secret as the server sent it", path, v.String())
			}
			return n
		}
		if v.String() != " name" {
			t.Errorf("%s = %q after decoding, want %q", path, v.String(), " name")
		}
	}
	return n
}

// gqlJSON renders v (a filled query shape) as a GraphQL server would: keys
// are the response names of the graphql tags (aliases included), and the
// fields of fragments and embedded structs merge into their object. A
// fragment on a type that only does not allow is left out, as a server
// leaves out every union member but the one it returns.
func gqlJSON(v reflect.Value, only func(typeName string) bool) any {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return gqlJSON(v.Elem(), only)
	case reflect.Struct:
		m := map[string]any{}
		gqlFields(v, m, only)
		return m
	case reflect.Slice:
		l := make([]any, v.Len())
		for i := range v.Len() {
			l[i] = gqlJSON(v.Index(i), only)
		}
		return l
	default:
		return v.Interface()
	}
}

func gqlFields(v reflect.Value, m map[string]any, only func(string) bool) {
	for i := range v.NumField() {
		f := v.Type().Field(i)
		tag, tagged := f.Tag.Lookup("graphql")
		if typeName, ok := strings.CutPrefix(tag, "... on "); ok {
			if only == nil || only(typeName) {
				gqlFields(v.Field(i), m, only)
			}
			continue
		}
		if f.Anonymous && !tagged {
			gqlFields(v.Field(i), m, only)
			continue
		}
		name, _, _ := strings.Cut(tag, "(")
		if alias, _, ok := strings.Cut(name, ":"); ok {
			name = alias
		}
		m[strings.TrimSpace(name)] = gqlJSON(v.Field(i), only)
	}
}

// hostileServer answers every operation with data of the operation's own
// shape in which every string is hostile: whatever field a response type
// gains later, the test covers it. It also checks that each operation is
// sent with exactly the text Operations() lists, and records which were.
func hostileServer(t *testing.T, seen *sync.Map) http.Handler {
	t.Helper()
	texts := operationTexts(t)
	// Every declared operation's shape, and the split walks' pages.
	shapes := map[string]any{
		OpProjectTransactionPages: &aliasesQL[connectionQL[txNode]]{}, OpAccountPages: &aliasesQL[connectionQL[accountListNode]]{},
		OpAccountsTransactionPages: &aliasesQL[accountTransactionsQL]{},
	}
	for _, d := range registry {
		shapes[d.name] = d.shape()
	}
	// The split walks send as many pages as they have parts to read.
	splitSingles := map[string]*splitOps{OpProjectTransactionPages: {}, OpAccountPages: {}, OpAccountsTransactionPages: {}}
	splitText := func(name, sent string) string {
		l := map[string][2]any{
			OpProjectTransactionPages:  {projectTransactionsSplit.single, projectTransactionsSplit.singleVars},
			OpAccountPages:             {accountsSplit.single, accountsSplit.singleVars},
			OpAccountsTransactionPages: {accountsTransactionPagesSingle, accountsTransactionPagesSingleVars},
		}[name]
		o, err := splitSingles[name].get(name, l[0], l[1].(map[string]any), strings.Count(sent, "{totalCount"))
		if err != nil {
			t.Fatal(err)
		}
		var text string
		_ = json.Unmarshal(o.head[len(`{"query":`):], &text)
		return text
	}
	// The union member each mutation answers with: a success payload full
	// of strings, or a rejection that carries some.
	members := map[string]string{
		SimulateIncomingSepaCreditTransferReception.Name(): "ForbiddenRejection",
		OpAddWebhookSubscription:                           "WebhookSubscriptionSuccessPayload",
		OpUpdateWebhookSubscription:                        "InvalidArgumentRejection",
		OpRemoveWebhookSubscription:                        "InternalErrorRejection",
		OpReplayWebhookEvent:                               "ReplayWebhookEventSuccessPayload",
	}
	for op, member := range simulationMembers() {
		members[op] = member
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		seen.Store(q.OperationName, true)
		if ss := splitSingles[q.OperationName]; ss != nil {
			texts[q.OperationName] = splitText(q.OperationName, q.Query)
		}
		if q.Query != texts[q.OperationName] {
			t.Errorf("%s was sent as\n%s\nbut Operations() lists\n%s", q.OperationName, q.Query, texts[q.OperationName])
		}
		shape, ok := shapes[q.OperationName]
		if !ok {
			t.Errorf("no hostile shape for %s", q.OperationName)
			return
		}
		v := reflect.New(reflect.TypeOf(shape).Elem())
		fillStrings(v, hostile)
		member, isMutation := members[q.OperationName]
		var only func(string) bool
		if isMutation {
			only = func(typeName string) bool { return typeName == member }
		}
		data := gqlJSON(v, only).(map[string]any)
		if isMutation {
			for _, payload := range data {
				payload.(map[string]any)["__typename"] = member
			}
		}
		writeJSON200(w, map[string]any{"data": data})
	})
}

// TestEveryDecodedStringIsStripped runs each operation against a server
// that puts escape sequences in every string and checks that no string of
// any result the client hands out keeps one.
func TestEveryDecodedStringIsStripped(t *testing.T) {
	t.Parallel()
	var seen sync.Map
	c, _, _ := newTestClient(t, hostileServer(t, &seen), nil)
	ctx := context.Background()
	total := 0
	check := func(name string, v any, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		total += checkStrings(t, name, reflect.ValueOf(v))
	}
	page, err := c.Accounts(ctx, AccountsParams{})
	check("Accounts", page, err)
	acct, err := c.Account(ctx, "acc-1")
	check("Account", acct, err)
	u, err := c.User(ctx)
	check("User", u, err)
	home, err := c.Home(ctx, AccountsParams{}, false)
	check("Home", home, err)
	phome, err := c.Home(ctx, AccountsParams{}, true)
	check("ProjectHome", phome, err)
	p, err := c.ProjectInfo(ctx)
	check("ProjectInfo", p, err)
	d, err := c.AccountDetail(ctx, "acc-1", true)
	check("AccountDetail", d, err)
	du, err := c.AccountDetail(ctx, "acc-1", false)
	check("AccountDetail (user)", du, err)
	ms, err := c.AccountMemberships(ctx, MembershipsParams{})
	check("AccountMemberships", ms, err)
	am, err := c.AccountMemberships(ctx, MembershipsParams{AccountID: "acc-1"})
	check("AccountMembers", am, err)
	m, err := c.AccountMembership(ctx, "m")
	check("AccountMembership", m, err)
	cards, err := c.Cards(ctx, CardsParams{})
	check("Cards", cards, err)
	mcards, err := c.Cards(ctx, CardsParams{MembershipID: "m"})
	check("MembershipCards", mcards, err)
	card, err := c.Card(ctx, "c")
	check("Card", card, err)
	ptx, err := c.TransactionList(ctx, TransactionsParams{})
	check("ProjectTransactions", ptx, err)
	atx, err := c.TransactionList(ctx, TransactionsParams{AccountID: "acc-1"})
	check("AccountTransactionList", atx, err)
	tx, err := c.Transaction(ctx, "t")
	check("Transaction", tx, err)
	st, err := c.Statements(ctx, StatementsParams{AccountID: "acc-1"})
	check("Statements", st, err)
	one, err := c.Statement(ctx, "s")
	check("Statement", one, err)
	in := WebhookSubscriptionInput{Label: "l", Endpoint: "e"}
	webhookAndViewReadsStripped(ctx, c, in, check)
	for name, err := range map[string]error{
		"SimulateIncomingTransfer":  second(c.SimulateIncomingTransfer(ctx, IncomingTransfer{})),
		"UpdateWebhookSubscription": second(c.UpdateWebhookSubscription(ctx, "s", in)),
		"RemoveWebhookSubscription": c.RemoveWebhookSubscription(ctx, "s"),
	} {
		if strippedRejection(t, name, err) {
			total++
		}
	}
	total += simulationsStripped(t, c, check)
	ops, _ := Operations()
	for _, o := range ops {
		if _, ok := seen.Load(o.Name); !ok {
			t.Errorf("%s is not exercised against the hostile server", o.Name)
		}
	}
	t.Logf("%d strings checked", total)
	if total < 400 {
		t.Errorf("only %d strings were checked: the hostile server did not fill the responses", total)
	}
}

// checkView checks an account view read with every list: its detail and
// each list's page, which it keeps by name.
func checkView(name string, v *AccountView, err error, check func(string, any, error)) {
	check(name, v, err)
	if err != nil {
		return
	}
	if len(v.pages) != len(accountLists()) {
		check(name, nil, fmt.Errorf("%d pages, want one of each of the %d lists", len(v.pages), len(accountLists())))
	}
	for list, page := range v.pages {
		check(name+"."+list, page, nil)
	}
}

// webhookAndViewReadsStripped runs the webhook reads, the account view and
// the walks in parts for TestEveryDecodedStringIsStripped.
func webhookAndViewReadsStripped(ctx context.Context, c *Client, in WebhookSubscriptionInput, check func(string, any, error)) {
	logs, err := c.WebhookEventLogs(ctx, WebhookEventLogsParams{})
	check("WebhookEventLogs", logs, err)
	log1, err := c.WebhookEventLog(ctx, "l")
	check("WebhookEventLog", log1, err)
	subs, err := c.WebhookSubscriptions(ctx, WebhookSubscriptionsParams{})
	check("WebhookSubscriptions", subs, err)
	sub, err := c.WebhookSubscription(ctx, "s")
	check("WebhookSubscription", sub, err)
	types, err := c.WebhookEventTypes(ctx)
	check("WebhookEventTypes", types, err)
	added, err := c.AddWebhookSubscription(ctx, in)
	check("AddWebhookSubscription", added, err)
	replay, err := c.ReplayWebhookEvent(ctx, "e", "")
	check("ReplayWebhookEvent", replay, err)
	every, _ := everyList()
	every.AccountID, every.Project = "acc-1", true
	view, err := c.AccountView(ctx, every)
	checkView("AccountView", view, err, check)
	every.Project = false
	uview, err := c.AccountView(ctx, every)
	checkView("AccountView (user)", uview, err, check)
	var splitTx []TransactionDetail
	check("ProjectTransactionPages", &splitTx, c.ProjectTransactionsInParts(ctx, TransactionsParams{}, 0, func(items []TransactionDetail, _ int) error {
		splitTx = append(splitTx, items...)
		return nil
	}))
	var splitAccounts []Account
	check("AccountPages", &splitAccounts, c.AccountsInParts(ctx, AccountsParams{}, func(items []Account, _ int) error {
		splitAccounts = append(splitAccounts, items...)
		return nil
	}))
	accountsPages, err := c.AccountsTransactionPages(ctx, []TransactionsParams{{AccountID: "acc-1"}, {AccountID: "acc-2"}})
	check("AccountsTransactionPages", accountsPages, err)
	heads, err := c.AccountsTransactionHeads(ctx, AccountsParams{}, TransactionsParams{})
	check("AccountsTransactionHeads", heads, err)
}

func second[T any](_ T, err error) error { return err }

// strippedRejection checks that err is a rejection whose message kept
// nothing a terminal would act on, and reports whether it was one.
func strippedRejection(t *testing.T, name string, err error) bool {
	t.Helper()
	var rej *RejectionError
	if !errors.As(err, &rej) {
		t.Errorf("%s: err = %v, want a rejection", name, err)
		return false
	}
	if !strings.Contains(rej.Message, " name") || rej.Message != safetext.Strip(rej.Message) || strings.ContainsAny(rej.Message, "\x1b\x07\t") {
		t.Errorf("%s: rejection message %q kept something a terminal would act on", name, rej.Message)
	}
	return true
}
