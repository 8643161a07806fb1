package gql

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/oauth"
)

// maxPage is the platform's maximum for `first`.
const maxPage = 100

// scalar carries every custom string scalar (IBAN, DateTime, AmountValue…)
// in and out of the model's methods (internal/bind reads arguments into
// it through UnmarshalGraphQL).
type scalar string

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
	// base is the emulator's address as the caller reached it, for the
	// links it answers with.
	base string
}

func withCaller(ctx context.Context, c caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerFrom(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

func viewerOf(ctx context.Context) data.Viewer { return callerFrom(ctx).viewer }

// partnerResolver is the root of the partner schema of one environment.
type partnerResolver struct {
	store       *data.Store
	clientID    string
	redirectURI string
	events      *Events
}

// request is what the resolvers of one request share: the environment's
// root and the caller, so field methods need no context of their own.
type request struct {
	*partnerResolver
	viewer data.Viewer
	base   string // the emulator's address as the caller reached it
}

func (r *partnerResolver) request(ctx context.Context) *request {
	c := callerFrom(ctx)
	return &request{partnerResolver: r, viewer: c.viewer, base: c.base}
}

// byID is a root field that reads one object by id as the request's
// viewer may see it (get), wrapped for the answer; null when there is none
// the viewer sees.
func byID[T any, R any](req *request, id ID, get func(data.Viewer, string) (T, bool), wrap func(T) *R) *R {
	v, ok := get(req.viewer, string(id))
	if !ok {
		return nil
	}
	return wrap(v)
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

// ID is the schema's ID scalar, a string the model writes and reads as
// the schema's other strings.
type ID string
