package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
)

// fakeWhole is the rest of an account in the fake API: members, cards,
// statements (made up from the account's id unless a test set them) and
// the requests for them.
type fakeWhole struct {
	projectToken bool // the token is a project token: the root transactions answer
	// members and statements override the made-up ones, by account id.
	members    map[string][]api.AccountMembership
	statements map[string][]api.Statement
	// viewer is the signed-in user's membership of an account, by id; by
	// default one with every right.
	viewer      map[string]*api.AccountMembership
	detailCalls int
	viewCalls   int                     // AccountView: the account and its tabs' first pages
	views       []api.AccountViewParams // each AccountView request
	viewErr     error                   // AccountView fails with it; the single reads do not
	txParams    []api.TransactionsParams
	// txPages are AccountsTransactionPages's requests, each its pages.
	txPages     [][]api.TransactionsParams
	memberCalls []api.MembershipsParams
	memberGets  int
	cardCalls   []api.CardsParams
	cardGets    int
	stmtCalls   int
}

func (w *fakeWhole) calls() int {
	return w.viewCalls + w.detailCalls + len(w.txParams) + len(w.txPages) + len(w.memberCalls) + w.memberGets + len(w.cardCalls) + w.cardGets + w.stmtCalls
}

// isChartRead tells the balance chart's reads (api.ReadBooked: Booked
// transactions by their last update) from a list's.
func isChartRead(p api.TransactionsParams) bool {
	return p.OrderBy == api.TxOrderUpdatedAt && slices.Equal(p.Status, []string{"Booked"})
}

// chartReads counts the balance chart's reads among the requests, sent
// after the account's: none when the account's request brought its first
// page and the booking before them and that page was the last.
func (f *fakeAPI) chartReads() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, p := range f.txParams {
		if isChartRead(p) {
			n++
		}
	}
	return n
}

// chartProbes counts the chart's reads of the booking before its period
// (api.LastBookedBefore's) among the requests.
func (f *fakeAPI) chartProbes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, p := range f.txParams {
		if isChartRead(p) && !p.IsBeforeUpdatedAt.IsZero() {
			n++
		}
	}
	return n
}

// aloneChartReads is what the chart of a fake account's last 30 days
// reads on its own, when the account's request did not bring its first
// reads (it failed, or the account was read again alone: a refresh, a
// simulation): a page of its bookings and the one before them.
const aloneChartReads = 2

// fakePage serves rows (in list order) a page at a time with each row's id
// as its cursor; asc reads the list from its end.
func fakePage[T any](rows []T, id func(*T) string, after string, first int, asc bool) (*api.Page[T], error) {
	n := len(rows)
	at := func(i int) *T { return &rows[i] }
	if asc {
		at = func(i int) *T { return &rows[n-1-i] }
	}
	start := 0
	if after != "" {
		start = -1
		for i := range n {
			if id(at(i)) == after {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return nil, fmt.Errorf("bad cursor %q", after)
		}
	}
	if first <= 0 {
		first = platform.PageMax
	}
	end := min(start+first, n)
	p := &api.Page[T]{Items: []T{}, TotalCount: n}
	for i := start; i < end; i++ {
		p.Items = append(p.Items, *at(i))
	}
	p.PageInfo.HasNextPage = end < n
	if end > start {
		p.PageInfo.StartCursor, p.PageInfo.EndCursor = id(at(start)), id(at(end-1))
	}
	return p, nil
}

func (f *fakeAPI) account(id string) (api.Account, bool) {
	for _, a := range f.accounts {
		if a.ID == id {
			return a, true
		}
	}
	return api.Account{}, false
}

func (f *fakeAPI) AccountDetail(ctx context.Context, id string, project bool) (*api.AccountDetail, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.detailCalls++
	return f.accountDetail(ctx, id, project)
}

// accountDetail is AccountDetail with f.mu held, not recorded.
func (f *fakeAPI) accountDetail(ctx context.Context, id string, project bool) (*api.AccountDetail, error) {
	if f.err != nil {
		return nil, f.err
	}
	a, ok := f.account(id)
	if !ok {
		return nil, fmt.Errorf("account %s: %w", id, api.ErrNotFound)
	}
	full := a
	full.Number = "12345678901"
	if full.PaymentLevel == "" {
		full.PaymentLevel = "Unlimited"
	}
	full.CreatedAt = time.Date(2026, 1, 2, 9, 30, 0, 0, time.UTC)
	full.UpdatedAt = time.Date(2026, 3, 4, 11, 15, 0, 0, time.UTC)
	if a.Balances != nil {
		b := *a.Balances
		b.Booked = api.Amount{Value: b.Available.Value, Currency: "EUR"}
		b.Pending = api.Amount{Value: "0.00", Currency: "EUR"}
		b.Reserved = api.Amount{Value: "0.00", Currency: "EUR"}
		full.Balances = &b
	}
	d := &api.AccountDetail{
		Account:      full,
		StatusDetail: api.AccountStatusDetail{Status: a.StatusInfo.Status},
		HolderDetail: api.HolderDetail{ID: "holder-" + id, VerificationStatus: "Verified",
			Info:             api.HolderInfoDetail{Type: a.Holder.Info.Type, Name: a.Holder.Info.Name},
			StatusInfo:       &api.HolderStatusInfo{Status: "Enabled"},
			ResidencyAddress: &api.Address{AddressLine1: "1 rue de la Paix", PostalCode: "75002", City: "Paris", Country: "FRA"}},
	}
	if !project {
		m := f.viewer[id]
		if m == nil {
			m = &api.AccountMembership{ID: "mem-" + id + "-me", Email: "jane@example.com", CanViewAccount: true,
				CanManageBeneficiaries: true, CanInitiatePayments: true, CanManageAccountMembership: true, CanManageCards: true,
				LegalRepresentative: true, StatusInfo: api.MembershipStatusInfo{Status: "Enabled"}, AccountID: id}
		}
		d.Membership = m
	}
	return d, nil
}

// txMatches is the fake's TransactionsFiltersInput.
func txMatches(p api.TransactionsParams, t *api.TransactionDetail) bool {
	amount, _ := strconv.ParseFloat(t.Amount.Value, 64)
	above := func(s string) bool { v, _ := strconv.ParseFloat(s, 64); return s == "" || amount >= v }
	below := func(s string) bool { v, _ := strconv.ParseFloat(s, 64); return s == "" || amount <= v }
	search := strings.ToLower(p.Search)
	switch {
	case len(p.Status) > 0 && !slices.Contains(p.Status, t.StatusInfo.Status):
	case len(p.Type) > 0 && !slices.Contains(p.Type, t.Type):
	case search != "" && !strings.Contains(strings.ToLower(t.Label+" "+t.Counterparty+" "+t.Reference), search):
	case !above(p.IsAboveAmount) || !below(p.IsBelowAmount):
	case !p.IsAfterExecutionDate.IsZero() && t.ExecutionDate.Before(p.IsAfterExecutionDate):
	case !p.IsBeforeExecutionDate.IsZero() && !t.ExecutionDate.Before(p.IsBeforeExecutionDate):
	case !p.IsAfterUpdatedAt.IsZero() && t.UpdatedAt.Before(p.IsAfterUpdatedAt):
	case !p.IsBeforeUpdatedAt.IsZero() && !t.UpdatedAt.Before(p.IsBeforeUpdatedAt):
	default:
		return true
	}
	return false
}

func (f *fakeAPI) TransactionList(ctx context.Context, p api.TransactionsParams) (*api.Page[api.TransactionDetail], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.txParams = append(f.txParams, p)
	return f.transactionList(ctx, p)
}

// AccountsTransactionPages is TransactionList of each account, recorded
// as one request in txPages.
func (f *fakeAPI) AccountsTransactionPages(ctx context.Context, ps []api.TransactionsParams) ([]*api.Page[api.TransactionDetail], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.txPages = append(f.txPages, ps)
	pages := make([]*api.Page[api.TransactionDetail], len(ps))
	for i, p := range ps {
		page, err := f.transactionList(ctx, p)
		if err != nil {
			return nil, err
		}
		pages[i] = page
	}
	return pages, nil
}

// transactionList is TransactionList with f.mu held, not recorded.
func (f *fakeAPI) transactionList(ctx context.Context, p api.TransactionsParams) (*api.Page[api.TransactionDetail], error) {
	if f.err != nil {
		return nil, f.err
	}
	var all []api.TransactionDetail
	switch {
	case p.AccountID != "":
		if _, ok := f.account(p.AccountID); !ok {
			return nil, fmt.Errorf("account %s: %w", p.AccountID, api.ErrNotFound)
		}
		if !f.canView(p.AccountID) {
			return &api.Page[api.TransactionDetail]{Items: []api.TransactionDetail{}}, nil
		}
		all = f.txs[p.AccountID]
	case !f.projectToken:
		return nil, &api.GraphQLError{Env: "sandbox", Errors: []api.GraphQLErrorDetail{{Message: "user tokens can't call transactions queries"}}}
	default:
		for _, a := range f.accounts {
			all = append(all, f.txs[a.ID]...)
		}
	}
	rows := make([]api.TransactionDetail, 0, len(all))
	for i := range all {
		if txMatches(p, &all[i]) {
			rows = append(rows, all[i])
		}
	}
	if p.OrderBy == api.TxOrderUpdatedAt {
		// Most recently updated first, as the balance history reads them.
		slices.SortStableFunc(rows, func(a, b api.TransactionDetail) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	}
	return fakePage(rows, func(t *api.TransactionDetail) string { return t.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

// makeMembers are three members of an account: enabled with every right,
// invited with some, suspended with none.
func makeMembers(a api.Account) []api.AccountMembership {
	ref := &api.AccountRef{ID: a.ID, Name: a.Name}
	created := time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)
	return []api.AccountMembership{
		{ID: "mem-" + a.ID + "-0", Email: "jane@example.com", User: &api.MembershipUser{ID: "user-1", FirstName: "Jane", LastName: "Doe", FullName: "Jane Doe"},
			LegalRepresentative: true, CanViewAccount: true, CanManageBeneficiaries: true, CanInitiatePayments: true,
			CanManageAccountMembership: true, CanManageCards: true, StatusInfo: api.MembershipStatusInfo{Status: "Enabled"},
			AccountID: a.ID, Account: ref, CreatedAt: created},
		{ID: "mem-" + a.ID + "-1", Email: "max@example.com", CanViewAccount: true, CanInitiatePayments: true,
			StatusInfo: api.MembershipStatusInfo{Status: "InvitationSent", RestrictedTo: &api.RestrictedTo{FirstName: "Max", LastName: "Roe", BirthDate: "1990-04-01", PhoneNumber: "+33700000001"}},
			AccountID:  a.ID, Account: ref, CreatedAt: created.Add(time.Hour)},
		{ID: "mem-" + a.ID + "-2", Email: "sam@example.com", User: &api.MembershipUser{ID: "user-3", FullName: "Sam Poe"},
			StatusInfo: api.MembershipStatusInfo{Status: "Suspended", Reason: "Fraud suspicion"},
			AccountID:  a.ID, Account: ref, CreatedAt: created.Add(2 * time.Hour)},
	}
}

func (f *fakeAPI) membersOf(a api.Account) []api.AccountMembership {
	if ms, ok := f.members[a.ID]; ok {
		return ms
	}
	return makeMembers(a)
}

// canView is whether the token may read the account's history and
// statements: the platform answers null to a member without
// canViewAccount.
func (f *fakeAPI) canView(accountID string) bool {
	m := f.viewer[accountID]
	return f.projectToken || m == nil || m.CanViewAccount
}

func (f *fakeAPI) AccountMemberships(ctx context.Context, p api.MembershipsParams) (*api.Page[api.AccountMembership], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.memberCalls = append(f.memberCalls, p)
	return f.accountMemberships(ctx, p)
}

// accountMemberships is AccountMemberships with f.mu held, not recorded.
func (f *fakeAPI) accountMemberships(ctx context.Context, p api.MembershipsParams) (*api.Page[api.AccountMembership], error) {
	if f.err != nil {
		return nil, f.err
	}
	var rows []api.AccountMembership
	if p.AccountID != "" {
		a, ok := f.account(p.AccountID)
		if !ok {
			return nil, fmt.Errorf("account %s: %w", p.AccountID, api.ErrNotFound)
		}
		rows = f.membersOf(a)
	} else {
		for _, a := range f.accounts {
			rows = append(rows, f.membersOf(a)...)
		}
	}
	return fakePage(rows, func(m *api.AccountMembership) string { return m.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

// membership finds a membership by id among every account's.
func (f *fakeAPI) membership(id string) (api.AccountMembership, bool) {
	for _, a := range f.accounts {
		for _, m := range f.membersOf(a) {
			if m.ID == id {
				return m, true
			}
		}
	}
	return api.AccountMembership{}, false
}

func (f *fakeAPI) AccountMembership(ctx context.Context, id string) (*api.AccountMembership, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.memberGets++
	if f.err != nil {
		return nil, f.err
	}
	if m, ok := f.membership(id); ok {
		return &m, nil
	}
	return nil, fmt.Errorf("account membership %s: %w", id, api.ErrNotFound)
}

// cardsOf are a membership's cards: two for the first member of an
// account, none for the second, one for the third.
func cardsOf(m api.AccountMembership) []api.Card {
	n := map[byte]int{'0': 2, '1': 0, '2': 1}[m.ID[len(m.ID)-1]]
	cards := make([]api.Card, n)
	for k := range cards {
		num := strconv.Itoa(1000 + 7*k + len(m.AccountID))
		cards[k] = api.Card{ID: "card-" + m.ID + "-" + strconv.Itoa(k), Type: "VirtualAndPhysical", Name: "Card " + strconv.Itoa(k),
			CardMaskedNumber: "5399 •••• •••• " + num, ExpiryDate: "12/28", StatusInfo: api.CardStatusInfo{Status: "Enabled"},
			Withdrawal: true, International: k == 0, ECommerce: true,
			SpendingLimits:    []api.SpendingLimit{{Type: "Partner", Period: "Monthly", Amount: api.Amount{Value: "2000.00", Currency: "EUR"}}},
			AccountMembership: &api.CardMembership{ID: m.ID, Email: m.Email, AccountID: m.AccountID, User: m.User},
			CreatedAt:         time.Date(2026, 2, 3, 8, 0, 0, 0, time.UTC)}
	}
	return cards
}

func (f *fakeAPI) allCards(p api.CardsParams) []api.Card {
	var out []api.Card
	for _, a := range f.accounts {
		if p.AccountID != "" && a.ID != p.AccountID {
			continue
		}
		for _, m := range f.membersOf(a) {
			if p.MembershipID != "" && m.ID != p.MembershipID {
				continue
			}
			for _, c := range cardsOf(m) {
				if len(p.Statuses) == 0 || slices.Contains(p.Statuses, c.StatusInfo.Status) {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func (f *fakeAPI) Cards(ctx context.Context, p api.CardsParams) (*api.Page[api.Card], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cardCalls = append(f.cardCalls, p)
	return f.cardPage(ctx, p)
}

// cardPage is Cards with f.mu held, not recorded.
func (f *fakeAPI) cardPage(ctx context.Context, p api.CardsParams) (*api.Page[api.Card], error) {
	if f.err != nil {
		return nil, f.err
	}
	if p.MembershipID != "" {
		if _, ok := f.membership(p.MembershipID); !ok {
			return nil, fmt.Errorf("account membership %s: %w", p.MembershipID, api.ErrNotFound)
		}
	}
	return fakePage(f.allCards(p), func(c *api.Card) string { return c.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

func (f *fakeAPI) Card(ctx context.Context, id string) (*api.Card, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cardGets++
	if f.err != nil {
		return nil, f.err
	}
	for _, c := range f.allCards(api.CardsParams{}) {
		if c.ID == id {
			return &c, nil
		}
	}
	return nil, fmt.Errorf("card %s: %w", id, api.ErrNotFound)
}

// makeStatements are n monthly statements, the latest first.
func makeStatements(accountID string, n int) []api.Statement {
	out := make([]api.Statement, n)
	for i := range out {
		open := time.Date(2026, time.Month(10-i), 1, 0, 0, 0, 0, time.UTC)
		out[i] = api.Statement{ID: fmt.Sprintf("stmt-%s-%d", accountID, i), Period: "Monthly",
			OpeningDate: open, ClosingDate: open.AddDate(0, 1, -1),
			OpeningBalance: api.Amount{Value: "100.00", Currency: "EUR"}, ClosingBalance: api.Amount{Value: fmt.Sprintf("%d.00", 100+10*i), Currency: "EUR"},
			TotalCredits: api.Amount{Value: "50.00", Currency: "EUR"}, TotalDebits: api.Amount{Value: "40.00", Currency: "EUR"},
			FeeCredits: api.Amount{Value: "0.00", Currency: "EUR"}, FeeDebits: api.Amount{Value: "1.00", Currency: "EUR"},
			StatusInfo: api.StatementStatusInfo{Status: "Generated", URL: "https://statements.example/" + accountID + "/" + strconv.Itoa(i) + ".pdf"},
			Format:     "PDF", CreatedAt: open.AddDate(0, 1, 1)}
	}
	return out
}

func (f *fakeAPI) Statements(ctx context.Context, p api.StatementsParams) (*api.Page[api.Statement], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stmtCalls++
	return f.statementPage(ctx, p)
}

// statementPage is Statements with f.mu held, not recorded.
func (f *fakeAPI) statementPage(ctx context.Context, p api.StatementsParams) (*api.Page[api.Statement], error) {
	if f.err != nil {
		return nil, f.err
	}
	if !f.canView(p.AccountID) {
		return &api.Page[api.Statement]{Items: []api.Statement{}}, nil
	}
	rows, ok := f.statements[p.AccountID]
	if !ok {
		rows = makeStatements(p.AccountID, 3)
	}
	return fakePage(rows, func(s *api.Statement) string { return s.ID }, p.After, p.First, p.Direction == api.DirectionAsc)
}

// transaction finds a transaction by id among every account's.
func (f *fakeAPI) transaction(id string) (api.TransactionDetail, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, txs := range f.txs {
		for _, t := range txs {
			if t.ID == id {
				return t, true
			}
		}
	}
	return api.TransactionDetail{}, false
}

// AccountView is the fake's parts, each read as the single-part methods
// read it, recorded as one request.
func (f *fakeAPI) AccountView(ctx context.Context, p api.AccountViewParams) (*api.AccountView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.viewCalls++
	f.views = append(f.views, p)
	if f.viewErr != nil {
		return nil, f.viewErr
	}
	// As the client: a read whose context has ended fails.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v := &api.AccountView{}
	var err error
	v.Detail, err = f.accountDetail(ctx, p.AccountID, p.Project)
	errs, answered := []error{err}, 0
	errs = append(errs, viewPart(ctx, v, p, &answered, api.ViewTransactions, f.transactionList),
		viewPart(ctx, v, p, &answered, api.ViewMembers, f.accountMemberships),
		viewPart(ctx, v, p, &answered, api.ViewCards, f.cardPage),
		viewPart(ctx, v, p, &answered, api.ViewStatements, f.statementPage),
		viewPart(ctx, v, p, &answered, api.ViewBooked, f.transactionList),
		viewPart(ctx, v, p, &answered, api.ViewBookedBefore, f.transactionList))
	errs = append(errs, f.objectViewParts(ctx, v, p, &answered)...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if answered != len(p.Parts) {
		return nil, fmt.Errorf("the view asks for %d parts, the fake answers %d", len(p.Parts), answered)
	}
	return v, nil
}

// viewPart puts in v the page of list that p asks for, read as it is read
// alone.
func viewPart[P, T any](ctx context.Context, v *api.AccountView, p api.AccountViewParams, answered *int,
	list api.AccountList[P, T], read func(context.Context, P) (*api.Page[T], error)) error {
	params, ok := list.ParamsIn(p)
	if !ok {
		return nil
	}
	*answered++
	page, err := read(ctx, params)
	list.SetPage(v, page)
	return err
}
