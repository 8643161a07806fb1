package emulator

import (
	"context"
	"errors"
	"fmt"
	"time"

	graphql "github.com/graph-gophers/graphql-go"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/oauth"
)

// maxPage is the platform's maximum for `first`.
const maxPage = 100

// scalar carries every custom string scalar (IBAN, DateTime, AmountValue…)
// in and out of graph-gophers, which needs a Go type per scalar otherwise.
type scalar string

func (scalar) ImplementsGraphQLType(name string) bool {
	switch name {
	case "AccountNumber", "AmountValue", "BIC", "CCA3", "Currency", "Date", "DateTime", "IBAN", "PhoneNumber", "SepaReference":
		return true
	}
	return false
}

func (s *scalar) UnmarshalGraphQL(input any) error {
	v, ok := input.(string)
	if !ok {
		return fmt.Errorf("expected a string, got %T", input)
	}
	*s = scalar(v)
	return nil
}

func dateTime(t time.Time) scalar { return scalar(t.UTC().Format("2006-01-02T15:04:05.000Z")) }

func optScalar(s string) *scalar {
	if s == "" {
		return nil
	}
	v := scalar(s)
	return &v
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// callerKey is the context key of the authenticated caller.
type callerKey struct{}

// caller is what the bearer token stands for, in data terms.
type caller struct {
	token  oauth.TokenInfo
	viewer data.Viewer
}

func withCaller(ctx context.Context, c caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerFrom(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// partnerResolver is the root of the partner schema of one environment.
type partnerResolver struct {
	store    *data.Store
	clientID string
}

type accountsArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *struct {
		Status        *[]string
		PaymentLevels *[]string
		MainIBAN      *string
		Search        *string
	}
	OrderBy *struct {
		Field     *string
		Direction *string
	}
}

func checkFirst(first int32) error {
	if first < 0 || first > maxPage {
		return fmt.Errorf("first must be between 0 and %d, got %d: request at most %d items per page", maxPage, first, maxPage)
	}
	return nil
}

func (r *partnerResolver) Accounts(ctx context.Context, args accountsArgs) (*accountConnR, error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.AccountQuery{Viewer: callerFrom(ctx).viewer, First: int(args.First)}
	if args.After != nil {
		q.After = *args.After
	}
	if args.Before != nil {
		q.Before = *args.Before
	}
	if f := args.Filters; f != nil {
		if f.Status != nil {
			q.Statuses = *f.Status
		}
		if f.PaymentLevels != nil {
			q.PaymentLevels = *f.PaymentLevels
		}
		if f.Search != nil {
			q.Search = *f.Search
		}
		if f.MainIBAN != nil {
			q.MainIBAN = *f.MainIBAN
		}
	}
	if o := args.OrderBy; o != nil {
		if o.Field != nil {
			q.OrderBy = *o.Field
		}
		q.Desc = o.Direction != nil && *o.Direction == "Desc"
	}
	page, err := r.store.Accounts(q)
	if err != nil {
		return nil, fmt.Errorf("accounts: %w", err)
	}
	return &accountConnR{r: r, page: page}, nil
}

func (r *partnerResolver) Account(ctx context.Context, args struct{ AccountID graphql.ID }) *accountR {
	a, ok := r.store.Account(callerFrom(ctx).viewer, string(args.AccountID))
	if !ok {
		return nil
	}
	return &accountR{r: r, a: a}
}

func (r *partnerResolver) User(ctx context.Context, args struct{ ID *string }) (*userR, error) {
	c := callerFrom(ctx)
	var id string
	switch {
	case c.viewer.Project && (args.ID == nil || *args.ID == ""):
		return nil, errors.New("a project token must pass the user id: call user(id: \"…\")")
	case c.viewer.Project:
		id = *args.ID
	default:
		// A user token always reads the signed-in user (or the sandbox
		// user they endorsed), whatever the id.
		id = r.store.Effective(c.viewer.UserID)
	}
	u, ok := r.store.User(id)
	if !ok {
		return nil, nil
	}
	return &userR{u: u}, nil
}

func (r *partnerResolver) ProjectInfo() *projectR {
	return &projectR{p: r.store.Project(), clientID: r.clientID}
}

type accountConnR struct {
	r    *partnerResolver
	page data.AccountPage
}

func (c *accountConnR) TotalCount() int32 { return int32(c.page.TotalCount) }

func (c *accountConnR) PageInfo() *pageInfoR {
	p := newPageInfo(c.page.HasNextPage, c.page.HasPreviousPage)
	if n := len(c.page.Accounts); n > 0 {
		p.start, p.end = c.page.Accounts[0].Cursor(), c.page.Accounts[n-1].Cursor()
	}
	return p
}

func (c *accountConnR) Edges() []*accountEdgeR {
	out := make([]*accountEdgeR, len(c.page.Accounts))
	for i, a := range c.page.Accounts {
		out[i] = &accountEdgeR{acc: &accountR{r: c.r, a: a}}
	}
	return out
}

type accountEdgeR struct{ acc *accountR }

func (e *accountEdgeR) Cursor() string  { return e.acc.a.Cursor() }
func (e *accountEdgeR) Node() *accountR { return e.acc }

type pageInfoR struct {
	next, prev bool
	start, end string
}

func (p *pageInfoR) HasNextPage() *bool      { return &p.next }
func (p *pageInfoR) HasPreviousPage() *bool  { return &p.prev }
func (p *pageInfoR) StartCursor() *string    { return optString(p.start) }
func (p *pageInfoR) EndCursor() *string      { return optString(p.end) }
func newPageInfo(next, prev bool) *pageInfoR { return &pageInfoR{next: next, prev: prev} }

type accountR struct {
	r *partnerResolver
	a *data.Account
}

func (a *accountR) ID() graphql.ID             { return graphql.ID(a.a.ID) }
func (a *accountR) Number() scalar             { return scalar(a.a.Number) }
func (a *accountR) Name() string               { return a.a.Name }
func (a *accountR) Holder() *holderR           { return &holderR{a: a.a} }
func (a *accountR) Country() string            { return a.a.Country }
func (a *accountR) PaymentLevel() string       { return a.a.PaymentLevel }
func (a *accountR) Currency() scalar           { return scalar(a.a.Currency) }
func (a *accountR) StatusInfo() *statusR       { return &statusR{a: a.a} }
func (a *accountR) CreatedAt() scalar          { return dateTime(a.a.CreatedAt) }
func (a *accountR) UpdatedAt() scalar          { return dateTime(a.a.UpdatedAt) }
func (a *accountR) Language() string           { return a.a.Language }
func (a *accountR) PaymentAccountType() string { return a.a.PaymentAccountType }
func (a *accountR) BIC() scalar                { return scalar(a.a.BIC) }
func (a *accountR) IBAN() *scalar              { return optScalar(a.a.IBAN) }

func (a *accountR) Balances() *balancesR {
	return &balancesR{b: a.r.store.Balances(a.a)}
}

type transactionsArgs struct {
	First   int32
	After   *string
	OrderBy *struct {
		Field     *string
		Direction *string
	}
	Filters *struct {
		Status         *[]string
		PaymentProduct *[]string
		Search         *string
		Type           *[]string
	}
}

func (a *accountR) Transactions(args transactionsArgs) (*txConnR, error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.TransactionQuery{First: int(args.First)}
	if args.After != nil {
		q.After = *args.After
	}
	if o := args.OrderBy; o != nil {
		if o.Field != nil {
			q.OrderBy = *o.Field
		}
		q.Asc = o.Direction != nil && *o.Direction == "Asc"
	}
	if f := args.Filters; f != nil {
		if f.Status != nil {
			q.Statuses = *f.Status
		}
		if f.PaymentProduct != nil {
			q.Products = *f.PaymentProduct
		}
		if f.Type != nil {
			q.Types = *f.Type
		}
		if f.Search != nil {
			q.Search = *f.Search
		}
	}
	page, err := a.r.store.Transactions(a.a, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return &txConnR{page: page, acc: a}, nil
}

type statusR struct{ a *data.Account }

func (s *statusR) Status() string                             { return s.a.Status }
func (s *statusR) ClosingAt() scalar                          { return dateTime(s.a.StatusChangedAt) }
func (s *statusR) ClosedAt() scalar                           { return dateTime(s.a.StatusChangedAt) }
func (s *statusR) is(st string) bool                          { return s.a.Status == st }
func (s *statusR) ToAccountOpenedStatus() (*statusR, bool)    { return s, s.is("Opened") }
func (s *statusR) ToAccountSuspendedStatus() (*statusR, bool) { return s, s.is("Suspended") }
func (s *statusR) ToAccountClosingStatus() (*statusR, bool)   { return s, s.is("Closing") }
func (s *statusR) ToAccountClosedStatus() (*statusR, bool)    { return s, s.is("Closed") }

type holderR struct{ a *data.Account }

func (h *holderR) ID() graphql.ID             { return graphql.ID(h.a.HolderID) }
func (h *holderR) VerificationStatus() string { return h.a.VerificationStatus }
func (h *holderR) Info() *holderInfoR         { return &holderInfoR{a: h.a} }
func (h *holderR) CreatedDate() scalar        { return dateTime(h.a.CreatedAt) }
func (h *holderR) UpdatedDate() scalar        { return dateTime(h.a.UpdatedAt) }

type holderInfoR struct{ a *data.Account }

func (h *holderInfoR) Type() string                { return h.a.HolderType }
func (h *holderInfoR) Name() string                { return h.a.HolderName }
func (h *holderInfoR) RegistrationNumber() *string { return optString(h.a.RegistrationNumber) }
func (h *holderInfoR) VatNumber() *string          { return optString(h.a.VATNumber) }
func (h *holderInfoR) TradeName() *string          { return optString(h.a.HolderName) }
func (h *holderInfoR) ToAccountHolderIndividualInfo() (*holderInfoR, bool) {
	return h, h.a.HolderType == "Individual"
}
func (h *holderInfoR) ToAccountHolderCompanyInfo() (*holderInfoR, bool) {
	return h, h.a.HolderType == "Company"
}

type balancesR struct{ b data.Balances }

func (b *balancesR) amount(c int64) *amountR { return &amountR{value: c, currency: b.b.Currency} }
func (b *balancesR) Available() *amountR     { return b.amount(b.b.Available) }
func (b *balancesR) Pending() *amountR       { return b.amount(b.b.Pending) }
func (b *balancesR) Booked() *amountR        { return b.amount(b.b.Booked) }
func (b *balancesR) Reserved() *amountR      { return b.amount(b.b.Reserved) }

type amountR struct {
	value    int64
	currency string
}

func (a *amountR) Currency() scalar { return scalar(a.currency) }
func (a *amountR) Value() scalar    { return scalar(data.FormatCents(a.value)) }

type txConnR struct {
	page data.TransactionPage
	acc  *accountR
}

func (c *txConnR) TotalCount() int32 { return int32(c.page.TotalCount) }
func (c *txConnR) PageInfo() *pageInfoR {
	p := newPageInfo(c.page.HasNextPage, c.page.HasPreviousPage)
	if n := len(c.page.Transactions); n > 0 {
		p.start = data.TransactionCursor(&c.page.Transactions[0])
		p.end = data.TransactionCursor(&c.page.Transactions[n-1])
	}
	return p
}
func (c *txConnR) Edges() []*txEdgeR {
	out := make([]*txEdgeR, len(c.page.Transactions))
	for i := range c.page.Transactions {
		out[i] = &txEdgeR{tx: &txR{t: &c.page.Transactions[i], acc: c.acc}}
	}
	return out
}

type txEdgeR struct{ tx *txR }

func (e *txEdgeR) Node() *txR     { return e.tx }
func (e *txEdgeR) Cursor() string { return data.TransactionCursor(e.tx.t) }

type txR struct {
	t   *data.Transaction
	acc *accountR
}

func (t *txR) ID() graphql.ID                  { return graphql.ID(t.t.ID) }
func (t *txR) Reference() string               { return t.t.Reference }
func (t *txR) PaymentMethodIdentifier() string { return t.t.PaymentMethodIdentifier }
func (t *txR) Side() string                    { return t.t.Side }
func (t *txR) Type() string                    { return t.t.Type }
func (t *txR) Amount() *amountR                { return &amountR{value: t.t.Amount, currency: t.t.Currency} }
func (t *txR) Label() string                   { return t.t.Label }
func (t *txR) FeesType() string                { return t.t.FeesType }
func (t *txR) StatusInfo() *txStatusR          { return &txStatusR{t: t.t} }
func (t *txR) CreatedAt() scalar               { return dateTime(t.t.CreatedAt) }
func (t *txR) UpdatedAt() scalar               { return dateTime(t.t.UpdatedAt) }
func (t *txR) Counterparty() string            { return t.t.Counterparty }
func (t *txR) PaymentProduct() string          { return t.t.Product }
func (t *txR) ExternalReference() *string      { return nil }
func (t *txR) ExecutionDate() scalar           { return dateTime(t.t.ExecutionDate) }
func (t *txR) ProjectID() graphql.ID           { return graphql.ID(t.acc.r.store.Project().ID) }
func (t *txR) Account() *accountR              { return t.acc }
func (t *txR) IsCancelable() bool              { return t.t.Status == "Upcoming" }
func (t *txR) ToSEPACreditTransferTransaction() (*txR, bool) {
	return t, t.t.Product == "SEPACreditTransfer"
}
func (t *txR) ToFeeTransaction() (*txR, bool) { return t, t.t.Product == "Fees" }

type txStatusR struct{ t *data.Transaction }

func (s *txStatusR) ID() graphql.ID          { return graphql.ID(s.t.ID) }
func (s *txStatusR) Status() string          { return s.t.Status }
func (s *txStatusR) BookingDate() scalar     { return dateTime(s.t.ExecutionDate) }
func (s *txStatusR) ValueDate() scalar       { return dateTime(s.t.ExecutionDate) }
func (s *txStatusR) PendingEndDate() *scalar { return nil }
func (s *txStatusR) ExecutionDate() scalar   { return dateTime(s.t.ExecutionDate) }
func (s *txStatusR) Reason() string          { return s.t.RejectedReason }
func (s *txStatusR) HasFallback() bool       { return false }
func (s *txStatusR) BalanceAfter() *balanceAfterR {
	return &balanceAfterR{t: s.t}
}
func (s *txStatusR) ToBookedTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.t.Status == "Booked"
}
func (s *txStatusR) ToPendingTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.t.Status == "Pending"
}
func (s *txStatusR) ToUpcomingTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.t.Status == "Upcoming"
}
func (s *txStatusR) ToRejectedTransactionStatusInfo() (*txStatusR, bool) {
	return s, s.t.Status == "Rejected"
}

type balanceAfterR struct{ t *data.Transaction }

func (b *balanceAfterR) Amount() *amountR {
	return &amountR{value: b.t.BalanceAfter, currency: b.t.Currency}
}
func (b *balanceAfterR) SequenceNumber() *int32 {
	n := int32(b.t.Sequence)
	return &n
}

type userR struct{ u data.User }

func (u *userR) ID() graphql.ID                        { return graphql.ID(u.u.ID) }
func (u *userR) FirstName() *string                    { return optString(u.u.FirstName) }
func (u *userR) LastName() *string                     { return optString(u.u.LastName) }
func (u *userR) FullName() *string                     { return optString(u.u.FullName()) }
func (u *userR) MobilePhoneNumber() *scalar            { return optScalar(u.u.Phone) }
func (u *userR) BirthDate() *scalar                    { return optScalar(u.u.BirthDate) }
func (u *userR) NationalityCCA3() *scalar              { return optScalar(u.u.Nationality) }
func (u *userR) BirthCity() *string                    { return optString(u.u.BirthCity) }
func (u *userR) BirthCountry() *scalar                 { return optScalar(u.u.BirthCountry) }
func (u *userR) PreferredNotificationChannel() *string { return optString(u.u.PreferredChannel) }
func (u *userR) Status() *string                       { return optString(u.u.Status) }
func (u *userR) CreatedAt() scalar                     { return dateTime(u.u.CreatedAt) }
func (u *userR) UpdatedAt() scalar                     { return dateTime(u.u.UpdatedAt) }
func (u *userR) IdentificationLevels() *idLevelsR      { return &idLevelsR{u: u.u} }

type idLevelsR struct{ u data.User }

func (l *idLevelsR) PVID() bool   { return l.u.PVID }
func (l *idLevelsR) QES() bool    { return l.u.QES }
func (l *idLevelsR) Expert() bool { return l.u.Expert }

type projectR struct {
	p        data.Project
	clientID string
}

func (p *projectR) ID() graphql.ID                    { return graphql.ID(p.p.ID) }
func (p *projectR) Name() string                      { return p.p.Name }
func (p *projectR) Type() string                      { return p.p.Type }
func (p *projectR) LogoUri() *string                  { return nil }
func (p *projectR) AccentColor() *string              { return optString(p.p.AccentColor) }
func (p *projectR) OAuthClientID() *string            { return optString(p.clientID) }
func (p *projectR) Status() string                    { return p.p.Status }
func (p *projectR) AllowsDesktopAuthentication() bool { return p.p.AllowsDesktopAuth }
func (p *projectR) ProjectSettingsID() graphql.ID     { return graphql.ID(p.p.SettingsID) }
