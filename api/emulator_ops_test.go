package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
)

// opCoverage records which operations of Operations() a test ran, so a new
// operation the test does not run fails it instead of going unchecked.
type opCoverage struct {
	mu  sync.Mutex
	ran map[string]bool
}

// ok fails t, naming the operation, when the call failed: a GraphQL
// validation error, an error the server sent with the data, or a response
// whose data did not decode into the operation's shape.
func (c *opCoverage) ok(t *testing.T, op string, err error) {
	t.Helper()
	c.mu.Lock()
	c.ran[op] = true
	c.mu.Unlock()
	if err != nil {
		t.Fatalf("%s on the emulator: %v", op, err)
	}
}

func (c *opCoverage) missing(t *testing.T) []string {
	t.Helper()
	ops, err := Operations()
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, op := range ops {
		if !c.ran[op.Name] {
			out = append(out, op.Name)
		}
	}
	return out
}

// TestEveryOperationRunsOnTheEmulator sends every operation the client
// has, through the client's own methods, with the token kind each needs
// and the ids the lists return, to the emulator: each must validate against
// the served schema and decode into its shape, and the fields the API team
// relies on must come back filled.
func TestEveryOperationRunsOnTheEmulator(t *testing.T) {
	t.Parallel()
	r := startOpsRun(t)
	t.Run("reads", func(t *testing.T) {
		for _, read := range []struct {
			name string
			run  func(t *testing.T)
		}{
			{"accounts", r.accounts},
			{"account detail", r.accountDetail},
			{"account view", r.accountView},
			{"split walks", r.splitWalks},
			{"memberships", r.memberships},
			{"cards", r.cards},
			{"transactions", r.transactions},
			{"statements", r.statements},
			{"webhook event types", r.webhookEventTypes},
		} {
			t.Run(read.name, func(t *testing.T) {
				t.Parallel()
				read.run(t)
			})
		}
	})

	t.Run("webhooks", func(t *testing.T) { webhookOperations(t, r.srv, r.cov, r.project, r.listed) })
	t.Run("simulations", func(t *testing.T) { simulationOperations(t, r.cov, r.user) })
	t.Run("endorse", func(t *testing.T) { endorseOperations(t, r.cov) })
	t.Run("incoming direct debit", func(t *testing.T) { incomingDirectDebitOperations(t, r.cov) })
	t.Run("objects", func(t *testing.T) { objectOperations(t, r.cov) })

	// An operation a failed step never reached is not news.
	if missing := r.cov.missing(t); len(missing) > 0 && !t.Failed() {
		t.Errorf("operations this test never ran on the emulator: %v", missing)
	}
}

// opsRun is what every step of TestEveryOperationRunsOnTheEmulator uses:
// the clients of both token kinds, the coverage so far, and the homes
// whose ids the reads start from.
type opsRun struct {
	srv            *emulator.Server
	cov            *opCoverage
	project, user  *Client
	demo           emulator.DemoUser
	home, userHome *Home
	listed         []Account // the project's first accounts
}

// startOpsRun signs the demo user in and reads both homes.
func startOpsRun(t *testing.T) *opsRun {
	t.Helper()
	// An emulator of its own, of the default size: every operation
	// runs on it, and reads with filters go through all its data.
	srv, err := emulator.Start(context.Background(), emulator.Options{RateLimit: 1 << 30, SigningKey: emulatortest.SigningKey()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	info := srv.Info()
	demo, userToken := sandboxUser(t, info)
	ctx := context.Background()
	r := &opsRun{srv: srv, cov: &opCoverage{ran: map[string]bool{}}, demo: demo,
		project: emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), nil),
		user:    emulatorClient(t, info, "sandbox", userToken, nil)}

	// The ids every read below uses come from the lists.
	home, err := r.project.Home(ctx, AccountsParams{First: 50, OrderBy: OrderCreatedAt, Direction: DirectionAsc}, true)
	r.cov.ok(t, OpHomeProject, err)
	if home.Project == nil || home.Project.ID == "" || len(home.Accounts.Items) == 0 {
		t.Fatalf("%s = %+v", OpHomeProject, home)
	}
	userHome, err := r.user.Home(ctx, AccountsParams{First: 20}, false)
	r.cov.ok(t, OpHomeUser, err)
	if userHome.User == nil || userHome.User.ID != demo.UserID || len(userHome.Accounts.Items) == 0 {
		t.Fatalf("%s = %+v", OpHomeUser, userHome)
	}
	r.home, r.userHome, r.listed = home, userHome, home.Accounts.Items
	return r
}

// accounts reads the account lists, one account, the project and the user.
func (r *opsRun) accounts(t *testing.T) {
	ctx := context.Background()
	page, err := r.project.Accounts(ctx, AccountsParams{First: 10, Status: []string{"Opened"}, OrderBy: OrderUpdatedAt, Direction: DirectionDesc})
	r.cov.ok(t, OpAccounts, err)
	if len(page.Items) == 0 {
		t.Fatalf("%s: no open account", OpAccounts)
	}
	a, err := r.project.Account(ctx, r.listed[0].ID)
	r.cov.ok(t, OpAccount, err)
	if a.ID != r.listed[0].ID || a.Number == "" || a.Holder.Info.Type == "" {
		t.Errorf("%s = %+v", OpAccount, a)
	}
	p, err := r.project.ProjectInfo(ctx)
	r.cov.ok(t, OpProjectInfo, err)
	if p.ID != r.home.Project.ID {
		t.Errorf("%s = %+v, home said %+v", OpProjectInfo, p, r.home.Project)
	}
	u, err := r.user.User(ctx)
	r.cov.ok(t, OpUser, err)
	if u.ID != r.demo.UserID || u.FullName == "" {
		t.Errorf("%s = %+v", OpUser, u)
	}
}

// accountDetail reads account details until a company holder, and the
// user's own account with its membership.
func (r *opsRun) accountDetail(t *testing.T) {
	ctx := context.Background()
	company := false
	for _, a := range r.listed {
		d, err := r.project.AccountDetail(ctx, a.ID, true)
		r.cov.ok(t, OpAccountDetail, err)
		if d.ID != a.ID || d.HolderDetail.ID == "" || d.StatusDetail.Status == "" {
			t.Fatalf("%s(%s) = %+v", OpAccountDetail, a.ID, d)
		}
		if d.HolderDetail.Info.Type != "Company" {
			continue
		}
		company = true
		if i := d.HolderDetail.Info; i.RegistrationNumber == "" || i.TradeName == "" {
			t.Errorf("%s(%s): company holder without registration number or trade name: %+v", OpAccountDetail, a.ID, i)
		}
		break
	}
	if !company {
		t.Errorf("none of %d accounts has a company holder", len(r.listed))
	}
	mine := r.userHome.Accounts.Items[0]
	d, err := r.user.AccountDetail(ctx, mine.ID, false)
	r.cov.ok(t, OpAccountDetailUser, err)
	if d.Membership == nil || d.Membership.AccountID != mine.ID || d.Membership.User == nil || d.Membership.User.ID != r.demo.UserID {
		t.Errorf("%s(%s): membership = %+v", OpAccountDetailUser, mine.ID, d.Membership)
	}
}

// memberships reads a membership of every status, by id and among its
// account's members.
// splitWalks runs the walks in parts on a small emulator of their own: a
// search over the shared emulator's 10,000 accounts generates every
// history once per sublist, which under -race on a loaded machine outlasts
// the client's timeout. splitwalk_test.go checks the walks themselves.
func (r *opsRun) splitWalks(t *testing.T) {
	ctx := context.Background()
	small := newSplitEmulator(t, 40)
	project := emulatorClient(t, small.info, "sandbox", projectTokenSource(t, small.info, "sandbox"), nil)
	err := project.ProjectTransactionsInParts(ctx, TransactionsParams{First: 5, Search: "Acme"}, 0, func([]TransactionDetail, int) error { return nil })
	r.cov.ok(t, OpProjectTransactionPages, err)
	err = project.AccountsInParts(ctx, AccountsParams{First: 5, Search: "Dupont"}, func([]Account, int) error { return nil })
	r.cov.ok(t, OpAccountPages, err)
	var ps []TransactionsParams
	for _, a := range r.userHome.Accounts.Items[:min(len(r.userHome.Accounts.Items), 5)] {
		ps = append(ps, TransactionsParams{AccountID: a.ID, First: 2})
	}
	pages, err := r.user.AccountsTransactionPages(ctx, ps)
	r.cov.ok(t, OpAccountsTransactionPages, err)
	if len(pages) != len(ps) || (len(pages) > 0 && pages[0] == nil) {
		t.Errorf("%s of %d accounts: %d pages, the first %v", OpAccountsTransactionPages, len(ps), len(pages), pages)
	}
	heads, err := r.user.AccountsTransactionHeads(ctx, AccountsParams{First: 5}, TransactionsParams{First: 2, Status: []string{"Booked"}})
	r.cov.ok(t, OpAccountsTransactionHeads, err)
	if heads == nil || len(heads.Items) == 0 || heads.Items[0].AccountID == "" || heads.Items[0].Transactions == nil ||
		len(heads.Items[0].Transactions.Items) > 2 {
		t.Errorf("%s: %+v", OpAccountsTransactionHeads, heads)
	}
}

// accountView opens an account in one request, with either token.
func (r *opsRun) accountView(t *testing.T) {
	checkAccountView(t, r.cov, r.project, r.listed[0].ID, true, OpAccountView)
	checkAccountView(t, r.cov, r.user, r.userHome.Accounts.Items[0].ID, false, OpAccountViewUser)
}

func (r *opsRun) memberships(t *testing.T) {
	ctx := context.Background()
	for _, status := range MembershipStatuses() {
		page, err := r.project.AccountMemberships(ctx, MembershipsParams{First: 3, Status: []string{status}})
		r.cov.ok(t, OpMemberships, err)
		if len(page.Items) == 0 {
			t.Errorf("%s: no %s membership", OpMemberships, status)
			continue
		}
		m, err := r.project.AccountMembership(ctx, page.Items[0].ID)
		r.cov.ok(t, OpMembership, err)
		checkMembership(t, m, status)
		members, err := r.project.AccountMemberships(ctx, MembershipsParams{AccountID: m.AccountID, OrderBy: OrderCreatedAt, Direction: DirectionAsc})
		wantListed(t, r.cov, OpAccountMembers, m.AccountID, members, err, m.ID, func(x AccountMembership) string { return x.ID })
	}
}

// cards reads a card of every status, by id and among its membership's
// cards.
func (r *opsRun) cards(t *testing.T) {
	ctx := context.Background()
	for _, status := range CardStatuses() {
		page, err := r.project.Cards(ctx, CardsParams{First: 3, Statuses: []string{status}, OrderBy: OrderCreatedAt, Direction: DirectionDesc})
		r.cov.ok(t, OpCards, err)
		if len(page.Items) == 0 {
			t.Errorf("%s: no %s card", OpCards, status)
			continue
		}
		c, err := r.project.Card(ctx, page.Items[0].ID)
		r.cov.ok(t, OpCard, err)
		checkCard(t, c, status)
		if c.AccountMembership == nil {
			continue
		}
		mc, err := r.project.Cards(ctx, CardsParams{MembershipID: c.AccountMembership.ID, Types: CardTypes()})
		wantListed(t, r.cov, OpMembershipCards, c.AccountMembership.ID, mc, err, c.ID, func(x Card) string { return x.ID })
	}
}

// transactions reads a transaction of each concrete type and status, then
// with every filter at once, by account and by search.
func (r *opsRun) transactions(t *testing.T) {
	ctx := context.Background()
	// One transaction of each concrete type the client reads
	// fields of, each fetched again by id.
	kinds := map[string]TransactionsParams{
		"SEPACreditTransferTransaction": {PaymentProduct: []string{"SEPACreditTransfer"}, Type: []string{"SepaCreditTransferIn", "SepaCreditTransferOut"}},
		"SEPADirectDebitTransaction":    {PaymentProduct: []string{"SEPADirectDebit"}},
		"InternalCreditTransfer":        {Type: []string{"InternalCreditTransferIn", "InternalCreditTransferOut"}},
		"FeeTransaction":                {PaymentProduct: []string{"Fees"}},
		"CardTransaction":               {PaymentProduct: []string{"Card"}},
	}
	for kind, p := range kinds {
		p.First = 5
		page, err := r.project.TransactionList(ctx, p)
		r.cov.ok(t, OpProjectTransactions, err)
		if len(page.Items) == 0 {
			t.Errorf("%s: no %s", OpProjectTransactions, kind)
			continue
		}
		tx, err := r.project.Transaction(ctx, page.Items[0].ID)
		r.cov.ok(t, OpTransaction, err)
		checkTransaction(t, tx, kind)
	}
	for _, status := range TransactionStatuses() {
		page, err := r.project.TransactionList(ctx, TransactionsParams{First: 2, Status: []string{status}})
		r.cov.ok(t, OpProjectTransactions, err)
		if len(page.Items) == 0 {
			t.Errorf("%s: no %s transaction", OpProjectTransactions, status)
		}
		for _, tx := range page.Items {
			checkTxStatus(t, &tx, status)
		}
	}

	// Every filter set at once, both ways.
	now := time.Now()
	filtered := TransactionsParams{
		First: 20, Status: []string{"Booked", "Pending"}, PaymentProduct: PaymentProducts(),
		Type: TransactionTypes(), IncludeRejectedWithFallback: new(bool),
		IsAfterExecutionDate: now.AddDate(-5, 0, 0), IsBeforeExecutionDate: now.AddDate(1, 0, 0),
		IsAfterUpdatedAt: now.AddDate(-5, 0, 0), IsBeforeUpdatedAt: now.AddDate(1, 0, 0),
		IsAboveAmount: "0.01", IsBelowAmount: "1000000.00",
		OrderBy: TxOrderExecutionDate, Direction: DirectionDesc,
	}
	all, err := r.project.TransactionList(ctx, filtered)
	r.cov.ok(t, OpProjectTransactions, err)
	if len(all.Items) == 0 {
		t.Fatalf("%s with every filter: nothing", OpProjectTransactions)
	}
	one := filtered
	one.AccountID = all.Items[0].Account.ID
	acc, err := r.project.TransactionList(ctx, one)
	wantListed(t, r.cov, OpAccountTransactionList, one.AccountID, acc, err, all.Items[0].ID, func(x TransactionDetail) string { return x.ID })
	searched, err := r.project.TransactionList(ctx, TransactionsParams{AccountID: one.AccountID, Search: all.Items[0].Reference, Amount: all.Items[0].Amount.Value})
	r.cov.ok(t, OpAccountTransactionList, err)
	if len(searched.Items) == 0 {
		t.Errorf("%s(%s) finds nothing by reference %q and amount %s", OpAccountTransactionList, one.AccountID, all.Items[0].Reference, all.Items[0].Amount.Value)
	}

	mine := r.userHome.Accounts.Items[0]
	short, err := r.user.TransactionList(ctx, TransactionsParams{AccountID: mine.ID, First: 5})
	r.cov.ok(t, OpAccountTransactionList, err)
	if short.TotalCount == 0 {
		t.Errorf("%s(%s) with a user token: no transactions", OpAccountTransactionList, mine.ID)
	}
}

// statements reads the first account statement found.
func (r *opsRun) statements(t *testing.T) {
	ctx := context.Background()
	for _, a := range r.listed {
		page, err := r.project.Statements(ctx, StatementsParams{AccountID: a.ID, First: 3, OrderBy: "openingDate", Direction: DirectionDesc})
		r.cov.ok(t, OpStatements, err)
		if len(page.Items) == 0 {
			continue
		}
		s := page.Items[0]
		if s.Format == "" || s.FeeCredits.Currency == "" || s.FeeDebits.Currency == "" || s.StatusInfo.Status == "" || s.ClosingDate.IsZero() {
			t.Errorf("%s(%s): statement %+v", OpStatements, a.ID, s)
		}
		// The same statement by its id, with its account.
		one, err := r.project.Statement(ctx, s.ID)
		r.cov.ok(t, OpStatement, err)
		if err == nil && (one.Statement != s || one.Account == nil || one.Account.ID != a.ID) {
			t.Errorf("%s(%s) = %+v, want %+v of account %s", OpStatement, s.ID, one, s, a.ID)
		}
		return
	}
	t.Errorf("%s: none of %d accounts has a statement", OpStatements, len(r.listed))
}

// webhookEventTypes reads the event types a subscription can name.
func (r *opsRun) webhookEventTypes(t *testing.T) {
	ctx := context.Background()
	types, err := r.project.WebhookEventTypes(ctx)
	r.cov.ok(t, OpWebhookEventTypes, err)
	if !slices.Contains(types, "Transaction.Booked") {
		t.Errorf("%s = %v", OpWebhookEventTypes, types)
	}
}

// wantListed checks a list operation's result: it ran, and the page of
// parent holds the item with id.
func wantListed[T any](t *testing.T, cov *opCoverage, op, parent string, page *Page[T], err error, id string, idOf func(T) string) {
	t.Helper()
	cov.ok(t, op, err)
	if !slices.ContainsFunc(page.Items, func(x T) bool { return idOf(x) == id }) {
		t.Errorf("%s of %s does not list %s", op, parent, id)
	}
}

func checkMembership(t *testing.T, m *AccountMembership, status string) {
	t.Helper()
	s := m.StatusInfo
	if s.Status != status || m.AccountID == "" || m.Account == nil || m.Account.ID != m.AccountID || m.Account.Name == "" || m.CreatedAt.IsZero() {
		t.Errorf("%s %s: %+v", status, m.ID, m)
	}
	switch status {
	case "ConsentPending":
		if c := s.Consent; c == nil || c.ID == "" || c.Status == "" || c.ConsentURL == "" {
			t.Errorf("%s %s: consent = %+v", status, m.ID, c)
		}
		fallthrough
	case "InvitationSent", "BindingUserError":
		if r := s.RestrictedTo; r == nil || r.FirstName == "" || r.LastName == "" {
			t.Errorf("%s %s: restrictedTo = %+v", status, m.ID, r)
		}
	case "Enabled":
		if m.User == nil || m.User.ID == "" || m.User.FullName == "" {
			t.Errorf("%s %s: user = %+v", status, m.ID, m.User)
		}
	case "Suspended", "Disabled":
		if s.Reason == "" {
			t.Errorf("%s %s: no reason", status, m.ID)
		}
	}
	if status == "BindingUserError" && !(s.FirstNameMatchError || s.LastNameMatchError || s.BirthDateMatchError || s.PhoneNumberMatchError) {
		t.Errorf("%s %s: no mismatch named: %+v", status, m.ID, s)
	}
}

func checkCard(t *testing.T, c *Card, status string) {
	t.Helper()
	s := c.StatusInfo
	if s.Status != status || c.CardMaskedNumber == "" || c.CreatedAt.IsZero() || c.UpdatedAt.IsZero() || c.AccountMembership == nil || c.AccountMembership.AccountID == "" {
		t.Errorf("%s card %s: %+v", status, c.ID, c)
	}
	switch status {
	case "ConsentPending":
		if s.Consent == nil || s.Consent.ID == "" || s.Consent.Status == "" || s.Consent.ConsentURL == "" {
			t.Errorf("%s card %s: consent = %+v", status, c.ID, s.Consent)
		}
	case "Canceled", "Canceling":
		if s.Reason == "" {
			t.Errorf("%s card %s: no reason", status, c.ID)
		}
	}
}

func checkTransaction(t *testing.T, tx *TransactionDetail, kind string) {
	t.Helper()
	if tx.Typename != kind || tx.Reference == "" || tx.PaymentProduct == "" || tx.StatusInfo.Status == "" || tx.CreatedAt.IsZero() || tx.Account == nil || tx.Account.Name == "" {
		t.Errorf("%s %s: %+v", kind, tx.ID, tx)
	}
	switch kind {
	case "SEPACreditTransferTransaction", "SEPADirectDebitTransaction":
		if p := tx.CounterpartyParty(); p == nil || p.Name == "" || p.MaskedIBAN == "" {
			t.Errorf("%s %s: counterparty %+v", kind, tx.ID, p)
		}
	case "InternalCreditTransfer":
		if tx.Creditor == nil || tx.Debtor == nil || tx.Creditor.AccountNumber == "" || tx.Debtor.AccountNumber == "" {
			t.Errorf("%s %s: creditor %+v, debtor %+v", kind, tx.ID, tx.Creditor, tx.Debtor)
		}
	case "FeeTransaction":
		if tx.FeesType == "" {
			t.Errorf("%s %s: no feesType", kind, tx.ID)
		}
	}
	checkTxStatus(t, tx, tx.StatusInfo.Status)
}

// checkTxStatus checks that the fields of the status's concrete type came
// back (those the schema makes non-null).
func checkTxStatus(t *testing.T, tx *TransactionDetail, status string) {
	t.Helper()
	s := tx.StatusInfo
	var ok bool
	switch status {
	case "Booked":
		ok = !s.BookingDate.IsZero() && !s.ValueDate.IsZero() && s.BalanceAfter != nil && s.BalanceAfter.Amount != nil
	case "Upcoming":
		ok = !s.ExecutionDate.IsZero()
	case "Rejected":
		ok = s.Reason != "" && s.HasFallback != nil
	case "Released":
		ok = !s.ReleaseDate.IsZero() && s.Reason != ""
	case "Settled":
		ok = s.SettlementTransactionID != "" && s.SettledAt != ""
	default: // Pending, Canceled, Deferred: their dates are nullable
		ok = true
	}
	if s.Status != status || !ok {
		t.Errorf("transaction %s, asked for status %s: statusInfo %+v", tx.ID, status, s)
	}
}

// webhookOperations runs the webhook operations in the order a partner
// would: subscribe an endpoint, cause an event (a simulated incoming
// transfer), read its delivery in the event log, replay it, change and
// remove the subscription.
func webhookOperations(t *testing.T, srv *emulator.Server, cov *opCoverage, project *Client, accounts []Account) {
	ctx := context.Background()
	endpoint, delivered := webhookEndpoint(t)
	sub, err := project.AddWebhookSubscription(ctx, WebhookSubscriptionInput{
		Label: "every operation test", Endpoint: endpoint, Secret: "s3cret-for-the-ops-test",
		EventTypes: []string{"Transaction.Pending"},
	})
	cov.ok(t, OpAddWebhookSubscription, err)
	t.Cleanup(func() {
		// Removed below; this only tidies up after a failure.
		_ = project.RemoveWebhookSubscription(context.Background(), sub.ID)
	})
	if sub.ID == "" || sub.Secret.Reveal() != "s3cret-for-the-ops-test" {
		t.Fatalf("%s = %+v", OpAddWebhookSubscription, sub)
	}
	txID := simulateCredit(t, cov, project, accounts)

	var eventID string
	select {
	case eventID = <-delivered:
	case <-time.After(10 * time.Second):
		t.Fatal("the Transaction.Pending event was not delivered within 10s")
	}
	entry := loggedDelivery(t, srv, cov, project, eventID, sub.ID)
	if entry.ResourceID != txID || entry.StatusCode == nil || *entry.StatusCode != http.StatusOK || entry.WebhookSubscription == nil || entry.WebhookSubscription.ID != sub.ID {
		t.Errorf("%s entry = %+v", OpWebhookEventLogs, entry)
	}
	got, err := project.WebhookEventLog(ctx, entry.ID)
	cov.ok(t, OpWebhookEventLog, err)
	if got.ID != entry.ID || got.EventID != eventID || got.RequestPayload == "" {
		t.Errorf("%s = %+v", OpWebhookEventLog, got)
	}

	subs, err := project.WebhookSubscriptions(ctx, WebhookSubscriptionsParams{First: 100})
	wantListed(t, cov, OpWebhookSubscriptions, "the project", subs, err, sub.ID, func(s WebhookSubscription) string { return s.ID })
	one, err := project.WebhookSubscription(ctx, sub.ID)
	cov.ok(t, OpWebhookSubscription, err)
	if one.Secret.Reveal() != "s3cret-for-the-ops-test" || one.StatusInfo.Status != "Enabled" {
		t.Errorf("%s = %+v", OpWebhookSubscription, one)
	}

	replay, err := project.ReplayWebhookEvent(ctx, eventID, sub.ID)
	cov.ok(t, OpReplayWebhookEvent, err)
	if replay.WebhookEventLogEntryID == "" || replay.EndpointStatus == nil || *replay.EndpointStatus != http.StatusOK {
		t.Errorf("%s = %+v", OpReplayWebhookEvent, replay)
	}

	updated, err := project.UpdateWebhookSubscription(ctx, sub.ID, WebhookSubscriptionInput{
		Label: "every operation test, disabled", Endpoint: endpoint, EventTypes: []string{"Transaction.Booked"}, Status: "Disabled",
	})
	cov.ok(t, OpUpdateWebhookSubscription, err)
	if updated.StatusInfo.Status != "Disabled" || !slices.Equal(updated.EventTypes, []string{"Transaction.Booked"}) {
		t.Errorf("%s = %+v", OpUpdateWebhookSubscription, updated)
	}
	cov.ok(t, OpRemoveWebhookSubscription, project.RemoveWebhookSubscription(ctx, sub.ID))
}

// webhookEndpoint is a partner's webhook endpoint for one test: its URL,
// and the eventId of each event delivered to it.
func webhookEndpoint(t *testing.T) (url string, delivered <-chan string) {
	t.Helper()
	events := make(chan string, 16)
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev struct {
			EventID string `json:"eventId"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &ev)
		select {
		case events <- ev.EventID:
		default:
		}
	}))
	t.Cleanup(endpoint.Close)
	return endpoint.URL, events
}

// simulateCredit simulates an incoming transfer to the first open account
// with an IBAN among accounts, and returns its transaction id.
func simulateCredit(t *testing.T, cov *opCoverage, project *Client, accounts []Account) string {
	t.Helper()
	var creditor *Account
	for i := range accounts {
		if a := &accounts[i]; a.IBAN != "" && a.StatusInfo.Status == "Opened" {
			creditor = a
			break
		}
	}
	if creditor == nil {
		t.Fatal("no open account with an IBAN to credit")
	}
	txID, err := project.SimulateIncomingTransfer(context.Background(), IncomingTransfer{
		Amount: Amount{Value: "3.21", Currency: creditor.Currency}, CreditorIBAN: creditor.IBAN, CreditorName: creditor.Holder.Info.Name,
		DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "Ops Test Debtor", Label: "every operation test",
	})
	cov.ok(t, SimulateIncomingSepaCreditTransferReception.Name(), err)
	if txID == "" {
		t.Fatalf("%s: no transaction id", SimulateIncomingSepaCreditTransferReception.Name())
	}
	return txID
}

// loggedDelivery is the event log's entry for the delivery of eventID to
// the subscription subID. The emulator logs the attempt once the
// endpoint's answer is in, just after the endpoint saw the event: read the
// log, and while the entry is not there wait for the emulator's next log
// entry.
func loggedDelivery(t *testing.T, srv *emulator.Server, cov *opCoverage, project *Client, eventID, subID string) *WebhookEventLog {
	t.Helper()
	for {
		recorded := srv.WebhookRecorded("sandbox")
		logs, err := project.WebhookEventLogs(context.Background(), WebhookEventLogsParams{First: 10, EventID: eventID, WebhookSubscriptionID: subID, EventType: "Transaction.Pending"})
		cov.ok(t, OpWebhookEventLogs, err)
		if len(logs.Items) > 0 {
			return &logs.Items[0]
		}
		select {
		case <-recorded:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the delivery of event %s was not logged within 10s", OpWebhookEventLogs, eventID)
		}
	}
}

// checkAccountView: the one request that opens an account brings exactly
// what the account's detail and each tab's first page read on their own.
func checkAccountView(t *testing.T, cov *opCoverage, c *Client, id string, project bool, op string) {
	t.Helper()
	ctx := context.Background()
	txp := TransactionsParams{AccountID: id, First: 7, OrderBy: TxOrderExecutionDate, Direction: DirectionDesc}
	mp := MembershipsParams{AccountID: id, OrderBy: OrderCreatedAt, Direction: DirectionDesc}
	cp := CardsParams{AccountID: id, OrderBy: OrderCreatedAt, Direction: DirectionDesc}
	sp := StatementsParams{AccountID: id, First: 2, OrderBy: "openingDate", Direction: DirectionDesc}
	p := AccountViewParams{AccountID: id, Project: project, Parts: []AccountPart{
		ViewTransactions.Part(txp), ViewMembers.Part(mp), ViewCards.Part(cp), ViewStatements.Part(sp)}}
	v, err := c.AccountView(ctx, p)
	cov.ok(t, op, err)
	same := func(what string, got, want any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s %s: the view has\n%s\nread alone:\n%s", op, what, g, w)
		}
	}
	d, err := c.AccountDetail(ctx, id, project)
	same("detail", v.Detail, d, err)
	tx, err := c.TransactionList(ctx, txp)
	same("transactions", ViewTransactions.Page(v), tx, err)
	if len(tx.Items) != 7 {
		t.Errorf("%s: %d transactions on the first page, want the 7 asked for", op, len(tx.Items))
	}
	m, err := c.AccountMemberships(ctx, mp)
	same("members", ViewMembers.Page(v), m, err)
	cards, err := c.Cards(ctx, cp)
	same("cards", ViewCards.Page(v), cards, err)
	st, err := c.Statements(ctx, sp)
	same("statements", ViewStatements.Page(v), st, err)
	if _, err := c.AccountView(ctx, AccountViewParams{AccountID: "no-such-account", Project: project}); !errors.Is(err, ErrNotFound) {
		t.Errorf("%s of a missing account: %v, want ErrNotFound", op, err)
	}
}
