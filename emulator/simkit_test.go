package emulator

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/gql"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// simEnv is a Sandbox whose every event is logged: one subscription to
// every event type points at the demo endpoint, which fails at once, so
// each event's first attempt is in the log without a receiver.
type simEnv struct {
	*testEnv
	want []string // every event expected so far, "Type resourceId"
}

func newSimEnv(t *testing.T) *simEnv {
	t.Helper()
	e := newTestEnv(t, Options{Accounts: 60})
	if _, err := e.events.sandbox.Hub().Add(webhooks.SubscriptionInput{Label: "every event", Endpoint: gql.DemoWebhookEndpoint,
		EventTypes: webhooks.EventTypes(), Status: webhooks.StatusEnabled}); err != nil {
		t.Fatal(err)
	}
	return &simEnv{testEnv: e}
}

// simResult is a simulation's payload.
type simResult struct {
	Typename       string `json:"__typename"`
	Message        string
	TransactionID  string
	RejectedReason string
	ID             string
}

// sim runs a Testing API mutation with the project token; success names
// the payload type whose transactionId it reads.
func (e *simEnv) sim(field, inputType, success string, in map[string]any) simResult {
	e.t.Helper()
	op := fmt.Sprintf(`mutation($input: %s!) { %s(input: $input) { __typename ... on Rejection { message }
  ... on %s { transactionId } } }`, inputType, field, success)
	if field == authField {
		op = fmt.Sprintf(`mutation($input: %s!) { %s(input: $input) { __typename ... on Rejection { message }
  ... on %s { transactionId } ... on SimulateOutgoingCardAuthorizationRejectPayload { transactionId rejectedReason } } }`, inputType, field, success)
	}
	var out map[string]simResult
	e.mustData(pathAdmin, tokSandboxProject, op, map[string]any{"input": in}, &out)
	return out[field]
}

// mustSim runs a simulation that must succeed and returns its transaction.
func (e *simEnv) mustSim(field, inputType, success string, in map[string]any) string {
	e.t.Helper()
	r := e.sim(field, inputType, success, in)
	if r.Typename != success || r.TransactionID == "" {
		e.t.Fatalf("%s: %+v, want %s", field, r, success)
	}
	return r.TransactionID
}

// rejected runs a simulation that must be rejected with this type.
func (e *simEnv) rejected(field, inputType, success, rejection string, in map[string]any) simResult {
	e.t.Helper()
	r := e.sim(field, inputType, success, in)
	if r.Typename != rejection || r.Message == "" {
		e.t.Fatalf("%s: %+v, want %s with a message", field, r, rejection)
	}
	return r
}

// expectEvents adds events to those the test expects and checks that the
// log's first attempts are exactly them, in any order: none missing, none
// more. Each is "Type resourceId".
func (e *simEnv) expectEvents(events ...string) {
	e.t.Helper()
	e.want = append(e.want, events...)
	hub := e.events.sandbox.Hub()
	var got []string
	guard := time.NewTimer(10 * time.Second)
	defer guard.Stop()
	for {
		changed := hub.Recorded()
		got = e.firstAttempts()
		if len(got) >= len(e.want) {
			break
		}
		select {
		case <-changed:
		case <-guard.C:
			e.t.Fatalf("events after 10s:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(e.want, "\n"))
		}
	}
	want := slices.Clone(e.want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		e.t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// firstAttempts are the log's first delivery attempts, sorted.
func (e *simEnv) firstAttempts() []string {
	e.t.Helper()
	p, err := e.events.sandbox.Hub().Logs(webhooks.LogFilter{}, 10_000, "")
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, l := range p.Logs {
		if l.RetryCount != nil && *l.RetryCount == 0 {
			out = append(out, l.EventType+" "+l.ResourceID)
		}
	}
	slices.Sort(out)
	return out
}

// balances are an account's balances as the partner API shows them.
type balances struct{ Available, Booked, Pending, Reserved string }

func (e *simEnv) balances(accountID string) balances {
	e.t.Helper()
	var out struct {
		Account struct {
			Balances struct {
				Available, Booked, Pending, Reserved struct{ Value string }
			}
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { account(accountId: $id) { balances {
  available { value } booked { value } pending { value } reserved { value } } } }`, map[string]any{"id": accountID}, &out)
	b := out.Account.Balances
	return balances{b.Available.Value, b.Booked.Value, b.Pending.Value, b.Reserved.Value}
}

// moved checks each balance moved by its delta in cents from before.
func (e *simEnv) moved(accountID string, before balances, available, booked, pending, reserved int64) balances {
	e.t.Helper()
	after := e.balances(accountID)
	check := func(name, from, to string, delta int64) {
		f, t := cents(e.t, from), cents(e.t, to)
		if t-f != delta {
			e.t.Errorf("%s balance %s → %s, want a move of %s", name, from, to, data.FormatCents(delta))
		}
	}
	check("available", before.Available, after.Available, available)
	check("booked", before.Booked, after.Booked, booked)
	check("pending", before.Pending, after.Pending, pending)
	check("reserved", before.Reserved, after.Reserved, reserved)
	return after
}

// transactionStatus is a transaction's status and reason as the partner
// API shows them.
func (e *simEnv) transactionStatus(id string) string {
	e.t.Helper()
	var out struct {
		Transaction struct {
			StatusInfo struct {
				Status             string
				Rejected, Released string
			}
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { transaction(id: $id) { statusInfo { status
  ... on RejectedTransactionStatusInfo { rejected: reason } ... on ReleasedTransactionStatusInfo { released: reason } } } }`, map[string]any{"id": id}, &out)
	s := out.Transaction.StatusInfo
	return strings.TrimSpace(s.Status + " " + s.Rejected + s.Released)
}

// enabledCard is an Enabled card of an open EUR account with funds, and
// its account.
func (e *simEnv) enabledCard() (data.Card, *data.Account) {
	e.t.Helper()
	return e.cardWhere(func(c data.Card) bool { return c.Status == data.CardEnabled })
}

func (e *simEnv) cardWhere(ok func(data.Card) bool) (data.Card, *data.Account) {
	e.t.Helper()
	project := data.Viewer{Project: true}
	for _, a := range e.sandbox.AllAccounts() {
		if a.Currency != "EUR" || a.Status != "Opened" || e.sandbox.Balances(a).Available < 100_00 {
			continue
		}
		page, err := e.sandbox.Cards(project, data.CardQuery{First: 50, Filter: data.CardFilter{AccountID: a.ID}})
		if err != nil {
			e.t.Fatal(err)
		}
		for _, c := range page.Items {
			if ok(c) {
				return c, a
			}
		}
	}
	e.t.Fatal("no card fits")
	return data.Card{}, nil
}

func eur(v string) map[string]any { return map[string]any{"value": v, "currency": "EUR"} }

func ev(eventType, id string) string { return eventType + " " + id }

// TestSimulatedTransactionsRead reads every field of a transaction of
// each type the simulations create, through the partner API: each must
// answer without an error, on its account, with its type and side.
func TestSimulatedTransactionsRead(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	card, cardAcc := e.enabledCard()
	acc := e.transferTarget()
	auth := e.authorize(card.ID, "3.00")
	debit := e.mustSim(debitField, debitInput, debitOK, map[string]any{"transactionId": e.authorize(card.ID, "4.00")})
	want := map[string][3]string{ // id → account, type, side
		auth:  {cardAcc.ID, "CardOutAuthorization", "Debit"},
		debit: {cardAcc.ID, "CardOutDebit", "Debit"},
	}
	want[e.mustSim(reverseField, reverseInput, reverseOK, map[string]any{"transactionId": debit})] = [3]string{cardAcc.ID, "CardOutDebitReversal", "Credit"}
	want[e.mustSim("simulateOutgoingCardCredit", "SimulateOutgoingCardCreditInput", "SimulateOutgoingCardCreditSuccessPayload",
		map[string]any{"cardId": card.ID, "amount": eur("2.00")})] = [3]string{cardAcc.ID, "CardOutCredit", "Credit"}
	in := e.simulate(acc.IBAN)
	want[in] = [3]string{acc.ID, "SepaCreditTransferIn", "Credit"}
	want[e.mustSim(inReturnField, inReturnInput, inReturnOK, map[string]any{"transactionId": in, "reasonCode": "NotSpecifiedByBeneficiary"})] = [3]string{acc.ID, "SepaCreditTransferInReturn", "Debit"}
	out := e.sendTransfer(acc)
	want[out] = [3]string{acc.ID, "SepaCreditTransferOut", "Debit"}
	want[e.mustSim(sddField, sddInput, sddOK, directDebit(acc, "1.00", e.clock.Now().Add(48*time.Hour)))] = [3]string{acc.ID, "SepaDirectDebitOut", "Debit"}
	want[e.fee(map[string]any{"accountId": acc.ID, "type": "DocumentIssuance", "effectiveDate": "2026-11-22T01:00:00Z"}).ID] = [3]string{acc.ID, "FeesOut", "Debit"}
	for id, w := range want {
		var d struct {
			Transaction struct {
				Type, Side string
				Account    struct{ ID string }
			}
		}
		e.mustData(pathSandbox, tokSandboxProject, opTransactionDetail, map[string]any{"id": id}, &d)
		if got := d.Transaction; got.Account.ID != w[0] || got.Type != w[1] || got.Side != w[2] {
			t.Errorf("transaction %s: %+v, want %v", id, got, w)
		}
	}
}
