package emulator

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/hooktest"
)

// Standing orders: the seed's, consistent with the account's history,
// and those scheduled and canceled at run time, read back with their
// executions and events.

const orderFields = `id label reference period creditTransferMode amount { value currency } targetAvailableBalance { value currency }
  firstExecutionDate lastExecutionDate nextExecutionDate createdAt updatedAt account { id } createdBy { id }
  sepaBeneficiary { name maskedIBAN }
  statusInfo { __typename status ... on StandingOrderCanceledStatusInfo { canceledAt } ... on StandingOrderConsentPendingStatusInfo { consent { id status purpose consentUrl } } }
  payments(first: 10) { totalCount edges { node { id statusInfo { status } standingOrder { id }
    transactions(first: 5) { edges { node { id paymentId statusInfo { status } type executionDate amount { value currency } counterparty } } } } } }`

type orderNode struct {
	ID, Label, Reference, Period, CreditTransferMode         string
	Amount, TargetAvailableBalance                           *struct{ Value, Currency string }
	FirstExecutionDate, LastExecutionDate, NextExecutionDate *string
	CreatedAt, UpdatedAt                                     string
	Account, CreatedBy                                       struct{ ID string }
	SepaBeneficiary                                          struct{ Name, MaskedIBAN string }
	StatusInfo                                               struct {
		Typename   string `json:"__typename"`
		Status     string
		CanceledAt string
		Consent    struct{ ID, Status, Purpose, ConsentURL string }
	}
	Payments struct {
		TotalCount int
		Edges      []struct {
			Node struct {
				ID            string
				StatusInfo    struct{ Status string }
				StandingOrder struct{ ID string }
				Transactions  struct {
					Edges []struct {
						Node struct {
							ID, PaymentID, Type, ExecutionDate, Counterparty string
							StatusInfo                                       struct{ Status string }
							Amount                                           struct{ Value, Currency string }
						}
					}
				}
			}
		}
	}
}

// executions are the transactions of an order's payments, newest first.
func (o orderNode) executions() []string {
	var out []string
	for _, p := range o.Payments.Edges {
		for _, t := range p.Node.Transactions.Edges {
			out = append(out, t.Node.ID+" "+t.Node.StatusInfo.Status)
		}
	}
	return out
}

func (e *testEnv) orders(token, accountID string, filters map[string]any) []orderNode {
	e.t.Helper()
	var out struct {
		Account struct {
			StandingOrders struct {
				TotalCount int
				Edges      []struct{ Node orderNode }
			}
		}
	}
	e.mustData(pathSandbox, token, `query($id: ID!, $f: AccountStandingOrderFiltersInput) { account(accountId: $id) {
	  standingOrders(first: 100, filters: $f) { totalCount edges { node { `+orderFields+` } } } } }`, map[string]any{"id": accountID, "f": filters}, &out)
	so := out.Account.StandingOrders
	if so.TotalCount != len(so.Edges) {
		e.t.Fatalf("%d standing orders in a page of 100, totalCount %d", len(so.Edges), so.TotalCount)
	}
	var list []orderNode
	for _, ed := range so.Edges {
		list = append(list, ed.Node)
	}
	return list
}

func (e *testEnv) order(token, id string) *orderNode {
	e.t.Helper()
	var out struct{ StandingOrder *orderNode }
	e.mustData(pathSandbox, token, `query($id: ID!) { standingOrder(standingOrderId: $id) { `+orderFields+` } }`, map[string]any{"id": id}, &out)
	return out.StandingOrder
}

func TestStandingOrdersRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60})
	linked, statuses := 0, map[string]int{}
	for _, a := range e.sandbox.AllAccounts() {
		list := e.orders(tokSandboxProject, a.ID, nil)
		if a.PaymentLevel != "Unlimited" && len(list) > 0 {
			t.Errorf("account %s without an IBAN has standing orders", a.ID)
		}
		for i, o := range list {
			statuses[o.StatusInfo.Status]++
			if i > 0 && o.CreatedAt > list[i-1].CreatedAt {
				t.Errorf("%s: not newest first: %s after %s", a.ID, o.CreatedAt, list[i-1].CreatedAt)
			}
			if o.Account.ID != a.ID || o.CreatedBy.ID == "" || o.SepaBeneficiary.Name == "" || !strings.Contains(o.SepaBeneficiary.MaskedIBAN, "*") || o.Amount == nil || o.Amount.Currency != a.Currency {
				t.Errorf("%s: order %+v", a.ID, o)
			}
			if (a.Status == "Closed" || a.Status == "Closing") && o.StatusInfo.Status != "Canceled" {
				t.Errorf("a %s account's order is %s", a.Status, o.StatusInfo.Status)
			}
			switch o.StatusInfo.Status {
			case "Canceled":
				if o.StatusInfo.CanceledAt == "" || o.NextExecutionDate != nil {
					t.Errorf("canceled order %+v", o)
				}
			case "ConsentPending":
				if c := o.StatusInfo.Consent; c.ID == "" || c.Purpose != "ScheduleStandingOrder" || c.ConsentURL == "" {
					t.Errorf("pending order's consent %+v", c)
				}
			case "Enabled":
				if o.NextExecutionDate == nil {
					t.Errorf("enabled order without a next execution: %+v", o)
				}
			}
			// An order with an execution: its Upcoming transfer is the
			// account's, of the order's amount, to its beneficiary, on the
			// next execution date.
			for _, p := range o.Payments.Edges {
				linked++
				if p.Node.StandingOrder.ID != o.ID || len(p.Node.Transactions.Edges) != 1 {
					t.Fatalf("payment %+v of order %s", p.Node, o.ID)
				}
				tx := p.Node.Transactions.Edges[0].Node
				if tx.StatusInfo.Status != "Upcoming" || tx.PaymentID != p.Node.ID || tx.Type != "SepaCreditTransferOut" || tx.Amount.Value != o.Amount.Value || tx.Counterparty != o.SepaBeneficiary.Name || o.NextExecutionDate == nil || !strings.HasPrefix(tx.ExecutionDate, *o.NextExecutionDate) {
					t.Errorf("order %+v executes as %+v", o, tx)
				}
				var byID struct {
					Transaction struct {
						ID      string
						Payment struct{ ID string }
					}
				}
				e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { transaction(id: $id) { id payment { id } } }`, map[string]any{"id": tx.ID}, &byID)
				if byID.Transaction.ID != tx.ID || byID.Transaction.Payment.ID != p.Node.ID {
					t.Errorf("the execution %s is not a transaction of the platform: %+v", tx.ID, byID)
				}
				var pay struct {
					Payment struct{ StandingOrder struct{ ID string } }
				}
				e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { payment(id: $id) { standingOrder { id } } }`, map[string]any{"id": p.Node.ID}, &pay)
				if pay.Payment.StandingOrder.ID != o.ID {
					t.Errorf("payment %s reads back %+v", p.Node.ID, pay)
				}
			}
			if got := e.order(tokSandboxProject, o.ID); got == nil || got.ID != o.ID || got.Label != o.Label || got.StatusInfo != o.StatusInfo {
				t.Errorf("standingOrder(%s) = %+v, listed %+v", o.ID, got, o)
			}
		}
		for _, st := range []string{"Enabled", "Canceled"} {
			for _, o := range e.orders(tokSandboxProject, a.ID, map[string]any{"status": []string{st}}) {
				if o.StatusInfo.Status != st {
					t.Errorf("filtered by %s: %+v", st, o.StatusInfo)
				}
			}
		}
	}
	if linked == 0 || statuses["Enabled"] == 0 || statuses["Canceled"] == 0 || statuses["ConsentPending"] == 0 {
		t.Errorf("60 accounts have %v orders, %d with an execution", statuses, linked)
	}
	if got := e.order(tokSandboxProject, "no-such-order"); got != nil {
		t.Errorf("an unknown id reads %+v", got)
	}
}

const opScheduleOrder = `mutation($input: ScheduleStandingOrderInput!) { scheduleStandingOrder(input: $input) { __typename
  ... on ScheduleStandingOrderSuccessPayload { standingOrder { ` + orderFields + ` } }
  ... on Rejection { message } } }`

type orderPayload struct {
	Typename      string `json:"__typename"`
	Message       string
	StandingOrder orderNode
}

func (e *testEnv) scheduleOrder(token string, in map[string]any) orderPayload {
	e.t.Helper()
	var out struct {
		S orderPayload `json:"scheduleStandingOrder"`
	}
	e.mustData(pathSandbox, token, opScheduleOrder, map[string]any{"input": in}, &out)
	return out.S
}

func (e *testEnv) cancelOrder(token, id string) orderPayload {
	e.t.Helper()
	var out struct {
		C orderPayload `json:"cancelStandingOrder"`
	}
	e.mustData(pathSandbox, token, `mutation($id: String!) { cancelStandingOrder(input: {standingOrderId: $id}) { __typename
	  ... on CancelStandingOrderSuccessPayload { standingOrder { `+orderFields+` } } ... on Rejection { message } } }`, map[string]any{"id": id}, &out)
	return out.C
}

func orderInput(accountID, label, amount string, first time.Time) map[string]any {
	in := map[string]any{"accountId": accountID, "period": "Monthly", "label": label, "amount": eur(amount),
		"consentRedirectUrl": "https://partner.example/after-consent",
		"sepaBeneficiary":    map[string]any{"name": "Loyer Agence Foncia", "iban": "FR7630006000011234567890189"}}
	if !first.IsZero() {
		in["firstExecutionDate"] = first.UTC().Format(time.RFC3339Nano)
	}
	return in
}

func TestStandingOrderScheduleAndCancel(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.userAccount()
	before := e.balances(acc.ID)
	first := e.clock.Now().Add(72 * time.Hour)
	s := e.scheduleOrder(tokSandboxUser0, orderInput(acc.ID, "Rent", "950.00", first))
	o := s.StandingOrder
	if s.Typename != "ScheduleStandingOrderSuccessPayload" || o.StatusInfo.Status != "Enabled" || o.Label != "Rent" || o.Period != "Monthly" || o.Amount.Value != "950.00" || o.CreatedBy.ID != e.sandbox.DemoUsers()[0].ID {
		t.Fatalf("scheduleStandingOrder answered %+v", s)
	}
	// The demo user consents automatically: the first execution waits as
	// an Upcoming transfer, which moves no balance.
	ex := o.executions()
	if len(ex) != 1 || !strings.HasSuffix(ex[0], " Upcoming") || *o.NextExecutionDate != first.UTC().Format("2006-01-02") {
		t.Fatalf("executions %v, next %v", ex, o.NextExecutionDate)
	}
	upcoming := strings.Fields(ex[0])[0]
	e.moved(acc.ID, before, 0, 0, 0, 0)
	e.expectEvents(ev("StandingOrder.Scheduled", o.ID), ev("Transaction.Upcoming", upcoming))
	if list := e.orders(tokSandboxUser0, acc.ID, nil); list[0].ID != o.ID {
		t.Errorf("the new order is not first: %s", list[0].ID)
	}

	c := e.cancelOrder(tokSandboxUser0, o.ID)
	if c.Typename != "CancelStandingOrderSuccessPayload" || c.StandingOrder.StatusInfo.Typename != "StandingOrderCanceledStatusInfo" || c.StandingOrder.StatusInfo.CanceledAt == "" || c.StandingOrder.NextExecutionDate != nil {
		t.Fatalf("cancelStandingOrder answered %+v", c)
	}
	if got := e.order(tokSandboxUser0, o.ID); got.StatusInfo.Status != "Canceled" || got.executions()[0] != upcoming+" Canceled" {
		t.Errorf("read back: %+v, executions %v", got.StatusInfo, got.executions())
	}
	e.expectEvents(ev("StandingOrder.Canceled", o.ID), ev("Transaction.Canceled", upcoming))
	// Canceled twice, it stays as it is and nothing more happens.
	if c := e.cancelOrder(tokSandboxUser0, o.ID); c.Typename != "CancelStandingOrderSuccessPayload" {
		t.Errorf("second cancel: %+v", c)
	}
	e.expectEvents()

	// A seeded order that waits for its next execution: canceling it
	// cancels that Upcoming transfer of the generated history.
	var seeded orderNode
	for _, a := range e.sandbox.AllAccounts() {
		for _, so := range e.orders(tokSandboxProject, a.ID, map[string]any{"status": []string{"Enabled"}}) {
			if len(so.Payments.Edges) > 0 && seeded.ID == "" {
				seeded = so
			}
		}
	}
	if seeded.ID == "" {
		t.Fatal("no seeded order waits for an execution")
	}
	planned := strings.Fields(seeded.executions()[0])[0]
	if c := e.cancelOrder(tokSandboxProject, seeded.ID); c.StandingOrder.StatusInfo.Status != "Canceled" || c.StandingOrder.executions()[0] != planned+" Canceled" {
		t.Errorf("canceling seeded order %s: %+v", seeded.ID, c)
	}
	e.expectEvents(ev("StandingOrder.Canceled", seeded.ID), ev("Transaction.Canceled", planned))
	if got := e.transactionStatus(planned); got != "Canceled" {
		t.Errorf("the planned transfer is %s", got)
	}
}

func TestStandingOrderExecutes(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.userAccount()
	before := e.balances(acc.ID)
	// The first execution's date comes at once: it is sent, Booked.
	s := e.scheduleOrder(tokSandboxUser0, orderInput(acc.ID, "Savings", "12.00", e.clock.Now().Add(time.Millisecond)))
	o := s.StandingOrder
	first := strings.Fields(o.executions()[0])[0]
	e.expectEvents(ev("StandingOrder.Scheduled", o.ID), ev("Transaction.Upcoming", first),
		ev("Transaction.Booked", first), ev("Account.Updated", acc.ID), ev("Transaction.Upcoming", e.nextExecution(o.ID, first)))
	e.moved(acc.ID, before, -1200, -1200, 0, 0)
	got := e.order(tokSandboxUser0, o.ID)
	if ex := got.executions(); len(ex) != 2 || ex[1] != first+" Booked" || !strings.HasSuffix(ex[0], " Upcoming") {
		t.Errorf("executions after the first: %v", ex)
	}
	if want := e.clock.Now().AddDate(0, 1, 0).UTC().Format("2006-01-02"); got.NextExecutionDate == nil || *got.NextExecutionDate != want {
		t.Errorf("next execution %v, want %s", got.NextExecutionDate, want)
	}
}

// TestStandingOrderEventsDelivered: a subscription to a standing order's
// events gets them, with its secret.
func TestStandingOrderEventsDelivered(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 20})
	rc := hooktest.New(t, 200)
	if r := e.addSubscription(pathSandbox, rc.URL, "orders-secret", "StandingOrder.Scheduled", "StandingOrder.Canceled"); r.Typename != "WebhookSubscriptionSuccessPayload" {
		t.Fatalf("addWebhookSubscription answered %+v", r)
	}
	o := e.scheduleOrder(tokSandboxUser0, orderInput(e.transferTarget().ID, "Rent", "950.00", time.Time{})).StandingOrder
	e.cancelOrder(tokSandboxUser0, o.ID)
	var got []string
	for range 2 {
		req := rc.Next(t)
		p := req.Payload(t)
		if p["resourceId"] != o.ID || req.Header.Get("x-swan-secret") != "orders-secret" {
			t.Errorf("delivered %v with secret %q", p, req.Header.Get("x-swan-secret"))
		}
		got = append(got, p["eventType"])
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"StandingOrder.Canceled", "StandingOrder.Scheduled"}) {
		t.Errorf("delivered %v", got)
	}
}

// nextExecution is the transaction of an order's execution after done.
func (e *simEnv) nextExecution(orderID, done string) string {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		o, ok := e.sandbox.StandingOrder(data.Viewer{Project: true}, orderID)
		if ok && len(o.Executions) == 2 && o.Executions[0].TransactionID == done {
			return o.Executions[1].TransactionID
		}
		<-e.events.sandbox.Hub().Recorded()
	}
	e.t.Fatalf("order %s planned no execution after %s", orderID, done)
	return ""
}

func TestStandingOrderWaitsForConsent(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.userAccount()
	e.disableAutoConsent()
	u0 := e.sandbox.DemoUsers()[0].ID
	s := e.scheduleOrder(tokSandboxUser0, orderInput(acc.ID, "Insurance", "42.00", e.clock.Now().Add(240*time.Hour)))
	o, c := s.StandingOrder, s.StandingOrder.StatusInfo.Consent
	if o.StatusInfo.Status != "ConsentPending" || c.Status != "Created" || c.Purpose != "ScheduleStandingOrder" || len(o.executions()) != 0 {
		t.Fatalf("scheduled %+v", o)
	}
	e.expectEvents(ev("User.Updated", u0), ev("Consent.Created", c.ID))
	resp, err := http.Get(c.ConsentURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "42.00 EUR to Loyer Agence Foncia") {
		t.Fatalf("consent page %d: %s", resp.StatusCode, page)
	}
	if code, loc := e.answerConsent(c.ID, "accept"); code != http.StatusSeeOther || loc != "https://partner.example/after-consent" {
		t.Fatalf("accept: %d to %q", code, loc)
	}
	got := e.order(tokSandboxUser0, o.ID)
	ex := got.executions()
	if got.StatusInfo.Status != "Enabled" || len(ex) != 1 || !strings.HasSuffix(ex[0], " Upcoming") {
		t.Fatalf("after the consent: %+v, executions %v", got.StatusInfo, ex)
	}
	e.expectEvents(ev("Consent.Granted", c.ID), ev("StandingOrder.Scheduled", o.ID), ev("Transaction.Upcoming", strings.Fields(ex[0])[0]))

	// Refused, the order is canceled.
	s2 := e.scheduleOrder(tokSandboxUser0, orderInput(acc.ID, "Gym", "30.00", time.Time{}))
	c2 := s2.StandingOrder.StatusInfo.Consent
	if code, _ := e.answerConsent(c2.ID, "refuse"); code != http.StatusSeeOther {
		t.Fatalf("refuse: %d", code)
	}
	if got := e.order(tokSandboxUser0, s2.StandingOrder.ID); got.StatusInfo.Status != "Canceled" {
		t.Errorf("refused order: %+v", got.StatusInfo)
	}
	e.expectEvents(ev("Consent.Created", c2.ID), ev("Consent.Refused", c2.ID), ev("StandingOrder.Canceled", s2.StandingOrder.ID))
}

func TestStandingOrderRejections(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 40})
	acc := e.transferTarget()
	closed := e.accountWhere(func(a *data.Account) bool { return a.Status == "Closed" })
	for _, c := range []struct {
		in   map[string]any
		want string
	}{
		{orderInput(closed.ID, "Rent", "10.00", time.Time{}), "ForbiddenRejection"},
		{orderInput("no-such-account", "Rent", "10.00", time.Time{}), "ForbiddenRejection"},
		{func() map[string]any {
			in := orderInput(acc.ID, "Rent", "10.00", time.Time{})
			in["targetAvailableBalance"] = eur("100.00")
			return in
		}(), "InvalidArgumentRejection"},
		{func() map[string]any {
			in := orderInput(acc.ID, "Rent", "10.00", time.Time{})
			in["sepaBeneficiary"] = map[string]any{"name": "X", "iban": "FR7630006000011234567890180"}
			return in
		}(), "InvalidArgumentRejection"},
	} {
		if r := e.scheduleOrder(tokSandboxProject, c.in); r.Typename != c.want || r.Message == "" {
			t.Errorf("schedule %v: %+v, want %s", c.in, r, c.want)
		}
	}
	if r := e.cancelOrder(tokSandboxProject, "no-such-order"); r.Typename != "StandingOrderNotFoundRejection" {
		t.Errorf("cancel of an unknown id: %+v", r)
	}
	// A project token schedules for the account's legal representative,
	// who consents.
	r := e.scheduleOrder(tokSandboxProject, orderInput(acc.ID, "Rent", "10.00", time.Time{}))
	if r.StandingOrder.StatusInfo.Status != "ConsentPending" || r.StandingOrder.CreatedBy.ID != e.sandbox.LegalRepresentative(acc).UserID {
		t.Errorf("scheduled with the project token: %+v", r.StandingOrder)
	}
	if !slices.Contains([]string{"Enabled", "ConsentPending", "Canceled"}, r.StandingOrder.StatusInfo.Status) {
		t.Errorf("status %s", r.StandingOrder.StatusInfo.Status)
	}
}
