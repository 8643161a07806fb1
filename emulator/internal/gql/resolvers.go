package gql

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	case "AccountNumber", "AmountValue", "BIC", "CCA3", "Currency", "Date", "DateTime", "IBAN", "PhoneNumber", "SepaReference", "URL":
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

func optDateTime(t time.Time) *scalar {
	if t.IsZero() {
		return nil
	}
	v := dateTime(t)
	return &v
}

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

// parseDateTime reads a DateTime argument (ISO 8601 with a zone).
func parseDateTime(arg string, v *scalar) (time.Time, error) {
	if v == nil {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, string(*v))
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %q is not a DateTime: use ISO 8601 such as 2026-11-01T09:00:00.000Z", arg, string(*v))
	}
	return t, nil
}

// parseAmountArg reads an AmountValue argument into cents.
func parseAmountArg(arg string, v *scalar) (*int64, error) {
	if v == nil {
		return nil, nil
	}
	c, err := data.ParseAmount(string(*v))
	if err != nil {
		return nil, fmt.Errorf("%s %q is not an amount: use a positive decimal such as \"12.50\"", arg, string(*v))
	}
	return &c, nil
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

func viewerOf(ctx context.Context) data.Viewer { return callerFrom(ctx).viewer }

// errProjectTokenOnly is the platform's rule for the transactions queries:
// user tokens (and project tokens impersonating a user) can't call them.
var errProjectTokenOnly = errors.New("user tokens can't call transactions queries: use a project access token (client credentials grant), or read account(accountId) { transactions } with this token")

// partnerResolver is the root of the partner schema of one environment.
type partnerResolver struct {
	store       *data.Store
	clientID    string
	redirectURI string
}

// request is what the resolvers of one request share: the environment's
// root and the caller. Field methods read the caller here rather than
// take a context, because graph-gophers runs every method that takes one
// in a goroutine of its own.
type request struct {
	*partnerResolver
	viewer data.Viewer
}

func (r *partnerResolver) request(ctx context.Context) *request {
	return &request{partnerResolver: r, viewer: viewerOf(ctx)}
}

func checkFirst(first int32) error {
	if first < 0 || first > maxPage {
		return fmt.Errorf("first must be between 0 and %d, got %d: request at most %d items per page", maxPage, first, maxPage)
	}
	return nil
}

// orderArgs is every *OrderByInput: a field and a direction.
type orderArgs struct {
	Field     *string
	Direction *string
}

// orderOf returns the field (or def) and whether the direction is Desc
// (or def is descending when no direction is given).
func orderOf(o *orderArgs, defField string, defDesc bool) (string, bool) {
	field, desc := defField, defDesc
	if o == nil {
		return field, desc
	}
	if o.Field != nil {
		field = *o.Field
	}
	if o.Direction != nil {
		desc = *o.Direction == "Desc"
	}
	return field, desc
}

// deref reads an optional argument: its zero value when absent.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
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
	OrderBy *orderArgs
}

func (r *partnerResolver) Accounts(ctx context.Context, args accountsArgs) (*accountConnR, error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.AccountQuery{Viewer: viewerOf(ctx), First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	if f := args.Filters; f != nil {
		q.Statuses, q.PaymentLevels = deref(f.Status), deref(f.PaymentLevels)
		q.Search, q.MainIBAN = deref(f.Search), deref(f.MainIBAN)
	}
	q.OrderBy, q.Desc = orderOf(args.OrderBy, "createdAt", false)
	page, err := r.store.Accounts(q)
	if err != nil {
		return nil, fmt.Errorf("accounts: %w", err)
	}
	return r.request(ctx).accounts(page), nil
}

func (r *partnerResolver) Account(ctx context.Context, args struct{ AccountID graphql.ID }) *accountR {
	a, ok := r.store.Account(viewerOf(ctx), string(args.AccountID))
	if !ok {
		return nil
	}
	return r.request(ctx).account(a)
}

func (r *request) account(a *data.Account) *accountR { return &accountR{r: r, a: a} }

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
	return &userR{r: r.request(ctx), u: u}, nil
}

func (r *partnerResolver) ProjectInfo() *projectR {
	return &projectR{p: r.store.Project(), clientID: r.clientID}
}

func (r *partnerResolver) AccountMembership(ctx context.Context, args struct{ ID graphql.ID }) *membershipR {
	m, ok := r.store.Membership(viewerOf(ctx), string(args.ID))
	if !ok {
		return nil
	}
	return &membershipR{r: r.request(ctx), m: m}
}

func (r *partnerResolver) AccountMemberships(ctx context.Context, args membershipsArgs) (*membershipConnR, error) {
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := r.store.Memberships(viewerOf(ctx), q)
	if err != nil {
		return nil, fmt.Errorf("accountMemberships: %w", err)
	}
	return r.request(ctx).memberships(page), nil
}

func (r *partnerResolver) Card(ctx context.Context, args struct{ CardID graphql.ID }) *cardR {
	c, ok := r.store.Card(viewerOf(ctx), string(args.CardID))
	if !ok {
		return nil
	}
	return &cardR{r: r.request(ctx), c: c}
}

func (r *partnerResolver) Cards(ctx context.Context, args cardsArgs) (*cardConnR, error) {
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := r.store.Cards(viewerOf(ctx), q)
	if err != nil {
		return nil, fmt.Errorf("cards: %w", err)
	}
	return r.request(ctx).cards(page), nil
}

func (r *partnerResolver) Transaction(ctx context.Context, args struct{ ID graphql.ID }) (*txR, error) {
	if !viewerOf(ctx).Project {
		return nil, errProjectTokenOnly
	}
	t, ok := r.store.Transaction(string(args.ID))
	if !ok {
		return nil, fmt.Errorf("no transaction has the id %q in this project: pass the id of a listed transaction", string(args.ID))
	}
	return r.request(ctx).tx(t), nil
}

func (r *partnerResolver) Transactions(ctx context.Context, args transactionsArgs) (*txConnR, error) {
	if !viewerOf(ctx).Project {
		return nil, errProjectTokenOnly
	}
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := r.store.RootTransactions(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return r.request(ctx).txConn(page), nil
}

// connR is every connection: one page of items T, served as nodes N.
// Cursors are encoded only when a query asks for them.
type connR[T, N any] struct {
	page   data.Page[T]
	cursor func(*T) string
	node   func(*T) N
}

func newConn[T, N any](page data.Page[T], cursor func(*T) string, node func(*T) N) *connR[T, N] {
	return &connR[T, N]{page: page, cursor: cursor, node: node}
}

func (c *connR[T, N]) TotalCount() int32 { return int32(c.page.TotalCount) }

func (c *connR[T, N]) PageInfo() *pageInfoR {
	p := &pageInfoR{next: c.page.HasNextPage, prev: c.page.HasPreviousPage}
	if n := len(c.page.Items); n > 0 {
		p.start, p.end = c.cursor(&c.page.Items[0]), c.cursor(&c.page.Items[n-1])
	}
	return p
}

func (c *connR[T, N]) Edges() []*edgeR[T, N] {
	out := make([]*edgeR[T, N], len(c.page.Items))
	for i := range c.page.Items {
		it := &c.page.Items[i]
		out[i] = &edgeR[T, N]{item: it, cursor: c.cursor, node: c.node(it)}
	}
	return out
}

// edgeR is every connection's edge.
type edgeR[T, N any] struct {
	item   *T
	cursor func(*T) string
	node   N
}

func (e *edgeR[T, N]) Cursor() string { return e.cursor(e.item) }
func (e *edgeR[T, N]) Node() N        { return e.node }

// pageInfoR is every connection's PageInfo.
type pageInfoR struct {
	next, prev bool
	start, end string
}

func (p *pageInfoR) HasNextPage() *bool     { return &p.next }
func (p *pageInfoR) HasPreviousPage() *bool { return &p.prev }
func (p *pageInfoR) StartCursor() *string   { return optString(p.start) }
func (p *pageInfoR) EndCursor() *string     { return optString(p.end) }

// amountR is an Amount: cents and a currency.
type amountR struct {
	value    int64
	currency string
}

func (a *amountR) Currency() scalar { return scalar(a.currency) }
func (a *amountR) Value() scalar    { return scalar(data.FormatCents(a.value)) }

func amount(cents int64, currency string) *amountR { return &amountR{value: cents, currency: currency} }

// projectR is ProjectInfo.
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

// addressR is an AddressInfo.
type addressR struct{ a data.Address }

func (a *addressR) AddressLine1() *string { return optString(a.a.Line1) }
func (a *addressR) AddressLine2() *string { return optString(a.a.Line2) }
func (a *addressR) City() *string         { return optString(a.a.City) }
func (a *addressR) PostalCode() *string   { return optString(a.a.PostalCode) }
func (a *addressR) State() *string        { return optString(a.a.State) }
func (a *addressR) Country() *scalar      { return optScalar(a.a.Country) }

// maskIBAN shows an IBAN's country, check digits and last four
// characters, the rest as stars.
func maskIBAN(iban string) string {
	if len(iban) <= 8 {
		return iban
	}
	return iban[:4] + strings.Repeat("*", len(iban)-8) + iban[len(iban)-4:]
}
