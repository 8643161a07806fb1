package api

import (
	"context"
	"fmt"
	"strings"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// Operation names, sent as operationName and in the query text so the
// server's logs (and the emulator's request log) say what each request was.
const (
	OpAccounts         = "Accounts"
	OpAccount          = "Account"
	OpUser             = "User"
	OpProjectInfo      = "ProjectInfo"
	OpHomeUser         = "Home"
	OpHomeProject      = "ProjectHome"
	OpSimulateTransfer = "SimulateIncomingSepaCreditTransferReception"

	OpAccountDetail             = "AccountDetail"
	OpAccountDetailUser         = "AccountDetailWithMembership"
	OpAccountView               = "AccountView"
	OpAccountViewUser           = "AccountViewWithMembership"
	OpMemberships               = "AccountMemberships"
	OpAccountMembers            = "AccountMembers"
	OpMembership                = "AccountMembership"
	OpCards                     = "Cards"
	OpMembershipCards           = "MembershipCards"
	OpCard                      = "Card"
	OpProjectTransactions       = "ProjectTransactions"
	OpAccountTransactionList    = "AccountTransactionList"
	OpTransaction               = "Transaction"
	OpStatements                = "AccountStatements"
	OpWebhookEventLogs          = "WebhookEventLogs"
	OpWebhookEventLog           = "WebhookEventLog"
	OpWebhookSubscriptions      = "WebhookSubscriptions"
	OpWebhookSubscription       = "WebhookSubscription"
	OpWebhookEventTypes         = "WebhookEventTypes"
	OpAddWebhookSubscription    = "AddWebhookSubscription"
	OpUpdateWebhookSubscription = "UpdateWebhookSubscription"
	OpRemoveWebhookSubscription = "RemoveWebhookSubscription"
	OpReplayWebhookEvent        = "ReplayWebhookEvent"
)

// Operation is one GraphQL document this package sends.
type Operation struct {
	Name  string
	Query string // exactly the text sent
	Admin bool   // sent to the Testing API (partner-admin schema)
}

// Operations lists every operation the client sends, built by the same code
// that sends them; tests check them against the Sandbox limits and the
// schema.
func Operations() ([]Operation, error) {
	type build struct {
		name     string
		v        any // the operation's shape, as query or mutate decodes it
		vars     map[string]any
		mutation bool // a mutation: sent once, never retried
		admin    bool // sent to the Testing API (partner-admin schema)
	}
	builds := []build{
		{name: OpAccounts, v: &accountsQuery{}, vars: accountsVars(AccountsParams{Search: "x", Status: []string{"Opened"}, OrderBy: OrderCreatedAt, Direction: DirectionDesc}, platform.PageMax, "")},
		{name: OpAccount, v: &accountQuery{}, vars: map[string]any{"accountId": graphql.ID("")}},
		{name: OpUser, v: &userQuery{}},
		{name: OpHomeUser, v: &homeUserQuery{}, vars: accountsVars(AccountsParams{Search: "x", OrderBy: OrderCreatedAt, Direction: DirectionDesc}, platform.PageMax, "")},
		{name: OpHomeProject, v: &homeProjectQuery{}, vars: accountsVars(AccountsParams{Search: "x", OrderBy: OrderCreatedAt, Direction: DirectionDesc}, platform.PageMax, "")},
		{name: OpProjectInfo, v: &projectInfoQuery{}},
		{name: OpSimulateTransfer, v: &simulateMutation{}, vars: map[string]any{"input": IncomingSepaCreditTransferInput{}}, mutation: true, admin: true},
		{name: OpAccountDetail, v: &accountDetailQuery{}, vars: map[string]any{"accountId": graphql.ID("")}},
		{name: OpAccountDetailUser, v: &accountDetailUserQuery{}, vars: map[string]any{"accountId": graphql.ID("")}},
		{name: OpAccountsTransactionHeads, v: &accountsTransactionHeadsQuery{}, vars: accountsTransactionHeadsVars(AccountsParams{Search: "x", OrderBy: OrderCreatedAt, Direction: DirectionDesc}, platform.PageMax, TransactionsParams{Search: "x", Status: []string{"Booked"}}, mergedHeadRows)},
		{name: OpAccountView, v: everyListShape(false), vars: everyListVars()},
		{name: OpAccountViewUser, v: everyListShape(true), vars: everyListVars()},
		{name: OpMemberships, v: &membershipsQuery{}, vars: MembershipsParams{}.vars(platform.PageMax)},
		{name: OpAccountMembers, v: &accountMembershipsQuery{}, vars: MembershipsParams{AccountID: "x"}.vars(platform.PageMax)},
		{name: OpMembership, v: &membershipQuery{}, vars: map[string]any{"id": graphql.ID("")}},
		{name: OpCards, v: &cardsQuery{}, vars: CardsParams{}.vars(platform.PageMax)},
		{name: OpMembershipCards, v: &membershipCardsQuery{}, vars: CardsParams{MembershipID: "x"}.vars(platform.PageMax)},
		{name: OpCard, v: &cardQuery{}, vars: map[string]any{"cardId": graphql.ID("")}},
		{name: OpProjectTransactions, v: &projectTransactionsQuery{}, vars: TransactionsParams{}.vars(platform.PageMax)},
		{name: OpAccountTransactionList, v: &accountTransactionListQuery{}, vars: TransactionsParams{AccountID: "x"}.vars(platform.PageMax)},
		{name: OpTransaction, v: &transactionQuery{}, vars: map[string]any{"id": graphql.ID("")}},
		{name: OpStatements, v: &statementsQuery{}, vars: StatementsParams{AccountID: "x"}.vars(platform.PageMax)},
		{name: OpWebhookEventLogs, v: &webhookEventLogsQuery{}, vars: WebhookEventLogsParams{}.vars(platform.PageMax)},
		{name: OpWebhookEventLog, v: &webhookEventLogQuery{}, vars: map[string]any{"id": graphql.ID("")}},
		{name: OpWebhookSubscriptions, v: &webhookSubscriptionsQuery{}, vars: map[string]any{"first": platform.PageMax, "after": cursorVar("")}},
		{name: OpWebhookSubscription, v: &webhookSubscriptionQuery{}, vars: map[string]any{"id": graphql.ID("")}},
		{name: OpWebhookEventTypes, v: &webhookEventTypesQuery{}},
		{name: OpAddWebhookSubscription, v: &addWebhookSubscriptionMutation{}, vars: WebhookSubscriptionInput{}.vars(""), mutation: true},
		{name: OpUpdateWebhookSubscription, v: &updateWebhookSubscriptionMutation{}, vars: WebhookSubscriptionInput{}.vars("x"), mutation: true},
		{name: OpRemoveWebhookSubscription, v: &removeWebhookSubscriptionMutation{}, vars: map[string]any{"input": webhookSubscriptionIDInput{}}, mutation: true},
		{name: OpReplayWebhookEvent, v: &replayWebhookEventMutation{}, vars: map[string]any{"input": replayWebhookEventInput{}}, mutation: true},
		{name: OpCreateSandboxUser, v: &createSandboxUserMutation{}, vars: map[string]any{"input": SandboxUserInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingCardAuthorization, v: &cardAuthorizationMutation{}, vars: map[string]any{"input": CardAuthorizationInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingCardDebit, v: &cardDebitMutation{}, vars: map[string]any{"input": CardDebitInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingCardDebitWithoutAuthorization, v: &cardDebitWithoutAuthorizationMutation{}, vars: map[string]any{"input": CardDebitWithoutAuthorizationInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingCardAuthorizationRelease, v: &cardAuthorizationReleaseMutation{}, vars: map[string]any{"input": CardAuthorizationReleaseInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingCardDebitReverse, v: &cardDebitReverseMutation{}, vars: map[string]any{"input": CardDebitReverseInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingCardCredit, v: &cardCreditMutation{}, vars: map[string]any{"input": CardCreditInput{}}, mutation: true, admin: true},
		{name: OpSimulateIncomingSepaCreditTransferReturn, v: &incomingTransferReturnMutation{}, vars: map[string]any{"input": IncomingTransferReturnInput{}}, mutation: true, admin: true},
		{name: OpSimulateIncomingSepaCreditTransferAcceptedRecall, v: &incomingTransferRecallMutation{}, vars: map[string]any{"input": IncomingTransferRecallInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingSepaDirectDebitReception, v: &directDebitReceptionMutation{}, vars: map[string]any{"input": DirectDebitReceptionInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingSepaDirectDebitReject, v: &directDebitRejectMutation{}, vars: map[string]any{"input": DirectDebitRejectInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingSepaDirectDebitReturn, v: &directDebitReturnMutation{}, vars: map[string]any{"input": DirectDebitReturnInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingSepaDirectDebitCancel, v: &directDebitCancelMutation{}, vars: map[string]any{"input": DirectDebitCancelInput{}}, mutation: true, admin: true},
		{name: OpSimulateManualBankingFee, v: &manualBankingFeeMutation{}, vars: map[string]any{"input": ManualBankingFeeInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingSepaCreditTransferBooking, v: &outgoingTransferBookingMutation{}, vars: map[string]any{"input": OutgoingTransferBookingInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingSepaCreditTransferRejection, v: &outgoingTransferRejectionMutation{}, vars: map[string]any{"input": OutgoingTransferRejectionInput{}}, mutation: true, admin: true},
		{name: OpSimulateOutgoingSepaCreditTransferReturn, v: &outgoingTransferReturnMutation{}, vars: map[string]any{"input": OutgoingTransferReturnInput{}}, mutation: true, admin: true},
		{name: OpInitiateCreditTransfers, v: &initiateCreditTransfersMutation{}, vars: map[string]any{"input": initiateCreditTransfersInputQL{}, "first": maxPaymentTransfers}, mutation: true},
		{name: OpUpdateSandboxUser, v: &updateSandboxUserMutation{}, vars: map[string]any{"input": UpdateSandboxUserInput{}}, mutation: true, admin: true},
		{name: OpDeleteSandboxUser, v: &deleteSandboxUserMutation{}, vars: map[string]any{"input": DeleteSandboxUserInput{}}, mutation: true, admin: true},
		{name: OpCreateSandboxIdentification, v: &createSandboxIdentificationMutation{}, vars: map[string]any{"input": SandboxIdentificationInput{}}, mutation: true, admin: true},
		{name: OpUpdateSandboxIdentification, v: &updateSandboxIdentificationMutation{}, vars: map[string]any{"input": UpdateSandboxIdentificationInput{}}, mutation: true, admin: true},
		{name: OpEndorseSandboxUser, v: &endorseSandboxUserMutation{}, vars: map[string]any{"input": EndorseSandboxUserInput{}}, mutation: true, admin: true},
		{name: OpSimulateIncomingSepaDirectDebitBooking, v: &incomingDirectDebitBookingMutation{}, vars: map[string]any{"input": IncomingDirectDebitBookingInput{}}, mutation: true, admin: true},
		{name: OpPayment, v: &paymentQuery{}, vars: map[string]any{"id": graphql.ID(""), "first": maxPaymentTransfers}},
		{name: OpSimulateReleaseReservedBalance, v: &releaseReservedBalanceMutation{}, vars: map[string]any{"input": ReleaseReservedBalanceInput{}}, mutation: true, admin: true},
		{name: OpAddDirectDebitFundingSource, v: &addDirectDebitFundingSourceMutation{}, vars: map[string]any{"input": DirectDebitFundingSourceInput{}}, mutation: true},
		{name: OpUpdateAccountVerificationStatus, v: &updateAccountVerificationStatusMutation{}, vars: map[string]any{"input": AccountVerificationStatusInput{}}, mutation: true, admin: true},
	}
	ops := make([]Operation, 0, len(builds))
	for _, b := range builds {
		q, err := constructOperation(b.mutation, b.v, b.vars, b.name)
		if err != nil {
			return nil, fmt.Errorf("building operation %s: %w", b.name, err)
		}
		ops = append(ops, Operation{Name: b.name, Query: q, Admin: b.admin})
	}
	split, err := splitOperations()
	if err != nil {
		return nil, fmt.Errorf("building the split walks' operations: %w", err)
	}
	return append(ops, split...), nil
}

// ---- GraphQL shapes. Field tags carry the schema's exact names. ----

type pageInfoQL struct {
	HasNextPage     *bool   `graphql:"hasNextPage"`
	HasPreviousPage *bool   `graphql:"hasPreviousPage"`
	StartCursor     *string `graphql:"startCursor"`
	EndCursor       *string `graphql:"endCursor"`
}

func (p pageInfoQL) pageInfo() PageInfo {
	return PageInfo{
		HasNextPage:     p.HasNextPage != nil && *p.HasNextPage,
		HasPreviousPage: p.HasPreviousPage != nil && *p.HasPreviousPage,
		StartCursor:     deref(p.StartCursor),
		EndCursor:       deref(p.EndCursor),
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

type statusQL struct {
	Status string `graphql:"status"`
}

type accountListNode struct {
	ID         string   `graphql:"id"`
	Name       string   `graphql:"name"`
	IBAN       *string  `graphql:"IBAN"`
	BIC        string   `graphql:"BIC"`
	Currency   string   `graphql:"currency"`
	StatusInfo statusQL `graphql:"statusInfo"`
	Holder     struct {
		Info struct {
			Name string `graphql:"name"`
		} `graphql:"info"`
	} `graphql:"holder"`
	Balances *struct {
		Available fragments.Amount `graphql:"available"`
	} `graphql:"balances"`
	// CreatedAt is read for the walk in parts (AccountsInParts), which
	// meets itself by it; the list does not show it.
	CreatedAt string `graphql:"createdAt"`
}

func (n *accountListNode) account() Account {
	a := Account{
		ID:         n.ID,
		Name:       n.Name,
		IBAN:       deref(n.IBAN),
		BIC:        n.BIC,
		Currency:   n.Currency,
		StatusInfo: StatusInfo{Status: n.StatusInfo.Status},
		Holder:     Holder{Info: HolderInfo{Name: n.Holder.Info.Name}},
	}
	if n.Balances != nil {
		a.Balances = &Balances{Available: Amount(n.Balances.Available)}
	}
	return a
}

type accountsQuery struct {
	Accounts connectionQL[accountListNode] `graphql:"accounts(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

// accountFilterInput is the schema's AccountFilterInput (a variable type).
type accountFilterInput struct {
	Status        []string `json:"status,omitempty"`
	PaymentLevels []string `json:"paymentLevels,omitempty"`
	MainIBAN      string   `json:"mainIBAN,omitempty"`
	Search        string   `json:"search,omitempty"`
}

// GetGraphQLType names the variable's type in the query text. The pointer
// receiver lets a nil *accountFilterInput declare the nullable type.
func (*accountFilterInput) GetGraphQLType() string { return "AccountFilterInput" }

type accountOrderName struct{}

func (accountOrderName) graphQLType() string { return "AccountOrderByInput" }

// accountsVars always declares the same four variables, so the query text
// does not depend on which filters are set.
func accountsVars(p AccountsParams, first int, after string) map[string]any {
	var filters *accountFilterInput
	if p.Search != "" || p.MainIBAN != "" || len(p.Status) > 0 || len(p.PaymentLevels) > 0 {
		filters = &accountFilterInput{Status: p.Status, PaymentLevels: p.PaymentLevels, Search: p.Search, MainIBAN: iban.Compact(p.MainIBAN)}
	}
	return map[string]any{"first": first, "after": cursorVar(after), "filters": filters, "orderBy": orderVar[accountOrderName](p.OrderBy, p.Direction)}
}

type accountFullNode struct {
	fragments.AccountFields
	StatusInfo statusQL `graphql:"statusInfo"`
	Holder     struct {
		ID                 string `graphql:"id"`
		VerificationStatus string `graphql:"verificationStatus"`
		Info               struct {
			Type string `graphql:"type"`
			Name string `graphql:"name"`
		} `graphql:"info"`
	} `graphql:"holder"`
}

func (n *accountFullNode) account() *Account {
	a := accountFromFields(&n.AccountFields)
	a.StatusInfo = StatusInfo{Status: n.StatusInfo.Status}
	a.Holder = Holder{
		ID:                 n.Holder.ID,
		VerificationStatus: n.Holder.VerificationStatus,
		Info:               HolderInfo{Type: n.Holder.Info.Type, Name: n.Holder.Info.Name},
	}
	return a
}

// accountFromFields converts the fields Account(id) and the account detail
// share.
func accountFromFields(f *fragments.AccountFields) *Account {
	a := &Account{
		ID:                 f.ID,
		Number:             f.Number,
		Name:               f.Name,
		IBAN:               deref(f.IBAN),
		BIC:                f.BIC,
		Currency:           f.Currency,
		Country:            f.Country,
		Language:           f.Language,
		PaymentLevel:       f.PaymentLevel,
		PaymentAccountType: f.PaymentAccountType,
		CreatedAt:          parseTime(f.CreatedAt),
		UpdatedAt:          parseTime(f.UpdatedAt),
	}
	if b := f.Balances; b != nil {
		a.Balances = &Balances{
			Available: Amount(b.Available),
			Booked:    Amount(b.Booked),
			Pending:   Amount(b.Pending),
			Reserved:  Amount(b.Reserved),
		}
	}
	return a
}

// parseTime reads a DateTime; a malformed one becomes the zero time rather
// than failing the whole response.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

type accountQuery struct {
	Account *accountFullNode `graphql:"account(accountId: $accountId)"`
}

// userNode is the selection of Query.user.
type userNode struct {
	ID                   string  `graphql:"id"`
	FirstName            *string `graphql:"firstName"`
	LastName             *string `graphql:"lastName"`
	FullName             *string `graphql:"fullName"`
	MobilePhoneNumber    *string `graphql:"mobilePhoneNumber"`
	BirthDate            *string `graphql:"birthDate"`
	Status               *string `graphql:"status"`
	IdentificationLevels *struct {
		PVID   bool `graphql:"PVID"`
		QES    bool `graphql:"QES"`
		Expert bool `graphql:"expert"`
	} `graphql:"identificationLevels"`
	CreatedAt string `graphql:"createdAt"`
}

func (n *userNode) user() *User {
	u := &User{
		ID:                n.ID,
		FirstName:         deref(n.FirstName),
		LastName:          deref(n.LastName),
		FullName:          deref(n.FullName),
		MobilePhoneNumber: deref(n.MobilePhoneNumber),
		BirthDate:         deref(n.BirthDate),
		Status:            deref(n.Status),
		CreatedAt:         parseTime(n.CreatedAt),
	}
	if l := n.IdentificationLevels; l != nil {
		u.IdentificationLevels = IdentificationLevels{PVID: l.PVID, QES: l.QES, Expert: l.Expert}
	}
	return u
}

type userQuery struct {
	User *userNode `graphql:"user"`
}

// projectInfoNode is the selection of Query.projectInfo.
type projectInfoNode struct {
	ID     string `graphql:"id"`
	Name   string `graphql:"name"`
	Type   string `graphql:"type"`
	Status string `graphql:"status"`
}

func (n *projectInfoNode) projectInfo() *ProjectInfo {
	return &ProjectInfo{ID: n.ID, Name: n.Name, Type: n.Type, Status: n.Status}
}

type projectInfoQuery struct {
	ProjectInfo projectInfoNode `graphql:"projectInfo"`
}

// accountsPageOf converts a page of Query.accounts.
func accountsPageOf(c *connectionQL[accountListNode]) *Page[Account] {
	return convertPage(c, (*accountListNode).account)
}

// The first screen of the app needs who is signed in and the first page of
// accounts: one operation carries both, so launch costs one request.
type homeUserQuery struct {
	User     *userNode                     `graphql:"user"`
	Accounts connectionQL[accountListNode] `graphql:"accounts(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

type homeProjectQuery struct {
	ProjectInfo projectInfoNode               `graphql:"projectInfo"`
	Accounts    connectionQL[accountListNode] `graphql:"accounts(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

// IncomingSepaCreditTransferInput is the Testing API's input of
// simulateIncomingSepaCreditTransferReception, by the schema's names (a
// variable type). Optional fields are omitted when empty.
type IncomingSepaCreditTransferInput struct {
	Amount       Amount `json:"amount"`
	CreditorIBAN string `json:"creditorIban"`
	CreditorName string `json:"creditorName"`
	DebtorIBAN   string `json:"debtorIban"`
	DebtorName   string `json:"debtorName"`
	EndToEndID   string `json:"endToEndId,omitempty"`
	Label        string `json:"label,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (IncomingSepaCreditTransferInput) GetGraphQLType() string {
	return "IncomingSepaCreditTransferInput"
}

type simulateMutation struct {
	Simulate struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			TransactionID string `graphql:"transactionId"`
		} `graphql:"... on SimulateIncomingSepaCreditTransferReceptionSuccessPayload"`
		Forbidden struct {
			Message string `graphql:"message"`
		} `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateIncomingSepaCreditTransferReception(input: $input)"`
}

// ---- Client methods ----

// Accounts fetches one page of Query.accounts. With a *GraphQLError the
// page holds whatever partial data came with it (it may be nil). It is a
// Fetch for Walk and Pages.
func (c *Client) Accounts(ctx context.Context, p AccountsParams) (*Page[Account], error) {
	q, err := query[accountsQuery](ctx, c, OpAccounts, accountsVars(p, c.first(p.First), p.After))
	if q == nil {
		return nil, err
	}
	return accountsPageOf(&q.Accounts), err
}

// WithAfter returns p asking for the page after cursor after.
func (p AccountsParams) WithAfter(after string) AccountsParams { p.After = after; return p }

// AccountsQuery is the one meaning of an account search, for the app and
// the command line alike: the accounts newest first (by creation), those
// whose IBAN is search when it looks like one, spaced or compact
// (filters.mainIBAN: the server's search does not look at IBANs), else
// those the server's search finds; every account for "". Leading and
// trailing spaces do not count.
func AccountsQuery(search string) AccountsParams {
	p := AccountsParams{OrderBy: OrderCreatedAt, Direction: DirectionDesc}
	search = strings.TrimSpace(search)
	if iban.LooksLike(search) {
		p.MainIBAN = iban.Compact(search)
	} else {
		p.Search = search
	}
	return p
}

// first is the page size to ask for: n when it is a valid page size, else
// the client's own.
func (c *Client) first(n int) int {
	if n <= 0 || n > platform.PageMax {
		return c.pageSize
	}
	return n
}

// Home fetches what the first screen shows in one request: the first page
// of accounts with p, and who the token belongs to — the signed-in user, or
// with a project token (project true) the project.
func (c *Client) Home(ctx context.Context, p AccountsParams, project bool) (*Home, error) {
	vars := accountsVars(p, c.first(p.First), p.After)
	if project {
		q, err := query[homeProjectQuery](ctx, c, OpHomeProject, vars)
		if q == nil {
			return nil, err
		}
		return &Home{Project: q.ProjectInfo.projectInfo(), Accounts: accountsPageOf(&q.Accounts)}, err
	}
	q, err := query[homeUserQuery](ctx, c, OpHomeUser, vars)
	if q == nil {
		return nil, err
	}
	h := &Home{Accounts: accountsPageOf(&q.Accounts)}
	if q.User != nil {
		h.User = q.User.user()
	}
	return h, err
}

// query runs the query named name, built from T's type, and returns the
// decoded result: with a nil error, or with a *GraphQLError when the server
// sent partial data alongside errors. Any other failure returns a nil result.
func query[T any](ctx context.Context, c *Client, name string, vars map[string]any) (*T, error) {
	var q *T
	err := c.run(ctx, false, func(ctx context.Context) error {
		q = new(T)
		return c.exchange(ctx, c.gqlURL, false, q, vars, name)
	})
	if err != nil && !isPartial(err) {
		return nil, err
	}
	return q, err
}

// mutate sends the mutation name built from *M's type to url (the GraphQL
// endpoint or the Testing API), once (never retried on 429; refused on a
// read-only client), and keeps secret out of whatever error comes back.
func mutate[M any](ctx context.Context, c *Client, url, name string, vars map[string]any, secret Secret) (*M, error) {
	var m *M
	err := c.run(ctx, true, func(ctx context.Context) error {
		m = new(M)
		return c.exchange(ctx, url, true, m, vars, name)
	})
	if err != nil {
		return nil, redactErr(err, secret)
	}
	return m, nil
}

// isPartial reports whether err may come with data worth keeping.
func isPartial(err error) bool {
	_, ok := err.(*GraphQLError)
	return ok
}

// Account fetches one account in full (Query.account(accountId)); a missing
// account is an error wrapping ErrNotFound.
func (c *Client) Account(ctx context.Context, id string) (*Account, error) {
	q, err := query[accountQuery](ctx, c, OpAccount, map[string]any{"accountId": graphql.ID(id)})
	if q == nil {
		return nil, err
	}
	if q.Account == nil {
		if err != nil {
			return nil, fmt.Errorf("account %q is not available in %s: %w", safetext.Truncate(id, 80), c.env, err)
		}
		return nil, c.notFound("account", id)()
	}
	return q.Account.account(), err
}

// User fetches the signed-in user (Query.user with no id).
func (c *Client) User(ctx context.Context) (*User, error) {
	q, err := query[userQuery](ctx, c, OpUser, nil)
	if q == nil {
		return nil, err
	}
	if q.User == nil {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("the %s token has no user (a project token belongs to the project): %w", c.env, ErrNotFound)
	}
	return q.User.user(), err
}

// ProjectInfo fetches Query.projectInfo.
func (c *Client) ProjectInfo(ctx context.Context) (*ProjectInfo, error) {
	q, err := query[projectInfoQuery](ctx, c, OpProjectInfo, nil)
	if q == nil {
		return nil, err
	}
	return q.ProjectInfo.projectInfo(), err
}

// SimulateIncomingTransfer books an incoming SEPA credit transfer through the
// Sandbox Testing API and returns the new transaction's id (the app's
// names for SimulateIncomingSepaCreditTransferReception).
func (c *Client) SimulateIncomingTransfer(ctx context.Context, in IncomingTransfer) (string, error) {
	return c.SimulateIncomingSepaCreditTransferReception(ctx, IncomingSepaCreditTransferInput{
		Amount:       in.Amount,
		CreditorIBAN: in.CreditorIBAN,
		CreditorName: in.CreditorName,
		DebtorIBAN:   in.DebtorIBAN,
		DebtorName:   in.DebtorName,
		EndToEndID:   in.Reference,
		Label:        in.Label,
	})
}

// SimulateIncomingSepaCreditTransferReception books an incoming SEPA
// credit transfer through the Sandbox Testing API and returns the new
// transaction's id. On Live it fails with ErrNoTestingAPI without sending
// anything. It is a mutation: it is never retried, even on 429.
func (c *Client) SimulateIncomingSepaCreditTransferReception(ctx context.Context, in IncomingSepaCreditTransferInput) (string, error) {
	if c.testingURL == "" {
		return "", fmt.Errorf("cannot simulate a transfer in %s: %w", c.env, ErrNoTestingAPI)
	}
	m, err := mutate[simulateMutation](ctx, c, c.testingURL, OpSimulateTransfer, map[string]any{"input": in}, "")
	if err != nil {
		return "", err
	}
	switch m.Simulate.Typename {
	case "SimulateIncomingSepaCreditTransferReceptionSuccessPayload":
		return m.Simulate.Success.TransactionID, nil
	case "ForbiddenRejection":
		return "", &RejectionError{Env: c.env, Type: "ForbiddenRejection", Message: m.Simulate.Forbidden.Message}
	default:
		return "", &RejectionError{Env: c.env, Type: m.Simulate.Typename, Message: "the Testing API did not book the transfer"}
	}
}
