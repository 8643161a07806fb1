package api

import (
	"context"
	"fmt"
	"strings"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/safetext"
)

// The accounts the token sees: a page of them, one in full, the first
// screen's (who the token belongs to and the first page of accounts, in
// one request), the signed-in user and the project.

// Operation names, sent as operationName and in the query text so the
// server's logs (and the emulator's request log) say what each request was.
const (
	OpAccounts    = "Accounts"
	OpAccount     = "Account"
	OpUser        = "User"
	OpProjectInfo = "ProjectInfo"
	OpHomeUser    = "Home"
	OpHomeProject = "ProjectHome"
)

var (
	accountsOp = declareQuery[accountsQuery](OpAccounts, func() map[string]any {
		return accountsVars(AccountsParams{Search: "x", Status: []string{"Opened"}, OrderBy: OrderCreatedAt, Direction: DirectionDesc}, platform.PageMax, "")
	})
	accountOp     = declareQuery[accountQuery](OpAccount, func() map[string]any { return map[string]any{"accountId": graphql.ID("")} })
	userOp        = declareQuery[userQuery](OpUser, nil)
	homeUserOp    = declareQuery[homeUserQuery](OpHomeUser, homeVars)
	homeProjectOp = declareQuery[homeProjectQuery](OpHomeProject, homeVars)
	projectInfoOp = declareQuery[projectInfoQuery](OpProjectInfo, nil)
)

// homeVars are the first screen's variables, as Operations lists them.
func homeVars() map[string]any {
	return accountsVars(AccountsParams{Search: "x", OrderBy: OrderCreatedAt, Direction: DirectionDesc}, platform.PageMax, "")
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

// Accounts fetches one page of Query.accounts. With a *GraphQLError the
// page holds whatever partial data came with it (it may be nil). It is a
// Fetch for Walk and Pages.
func (c *Client) Accounts(ctx context.Context, p AccountsParams) (*Page[Account], error) {
	if p.IBANPart != "" {
		return c.accountsByIBANPart(ctx, p)
	}
	q, err := accountsOp.query(ctx, c, accountsVars(p, c.first(p.First), p.After))
	if q == nil {
		return nil, err
	}
	return accountsPageOf(&q.Accounts), err
}

// WithAfter returns p asking for the page after cursor after.
func (p AccountsParams) WithAfter(after string) AccountsParams { p.After = after; return p }

// AccountsQuery is the one meaning of an account search, for the app and
// the command line alike: the accounts newest first (by creation), those
// whose IBAN is search when it is a whole one, spaced or compact
// (filters.mainIBAN: the server's search does not look at IBANs), those
// whose IBAN starts with it or ends with its digits when it is a part of
// one (IBANPart, matched here), else those the server's search finds;
// every account for "". Leading and trailing spaces do not count.
func AccountsQuery(search string) AccountsParams {
	p := AccountsParams{OrderBy: OrderCreatedAt, Direction: DirectionDesc}
	search = strings.TrimSpace(search)
	switch part := iban.Part(search); {
	case iban.Whole(search) || (iban.LooksLike(search) && part == ""):
		p.MainIBAN = iban.Compact(search)
	case part != "":
		p.IBANPart = part
	default:
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
		q, err := homeProjectOp.query(ctx, c, vars)
		if q == nil {
			return nil, err
		}
		return &Home{Project: q.ProjectInfo.projectInfo(), Accounts: accountsPageOf(&q.Accounts)}, err
	}
	q, err := homeUserOp.query(ctx, c, vars)
	if q == nil {
		return nil, err
	}
	h := &Home{Accounts: accountsPageOf(&q.Accounts)}
	if q.User != nil {
		h.User = q.User.user()
	}
	return h, err
}

// Account fetches one account in full (Query.account(accountId)); a missing
// account is an error wrapping ErrNotFound.
func (c *Client) Account(ctx context.Context, id string) (*Account, error) {
	q, err := accountOp.query(ctx, c, map[string]any{"accountId": graphql.ID(id)})
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
	q, err := userOp.query(ctx, c, nil)
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
	q, err := projectInfoOp.query(ctx, c, nil)
	if q == nil {
		return nil, err
	}
	return q.ProjectInfo.projectInfo(), err
}
