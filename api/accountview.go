package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/internal/platform"
)

// AccountViewParams is what opening an account reads: the account
// (AccountID) and, in the same request, the first page of each of Parts.
type AccountViewParams struct {
	AccountID string
	// Project: read with a project token (no user, so no membership).
	Project bool
	// First is the size of the first page of each part whose own
	// parameters leave First 0; 0 means the client's page size.
	First int
	// Parts are the lists read with the account, each made by its
	// AccountList's Part and read as that list alone would be with the
	// same parameters, but for their AccountID (the view's) and After
	// (none: the pages are the first ones). A list appears once at most.
	Parts []AccountPart
}

// AccountView is an account as opening it shows it: in full, and the first
// page of each part asked for (AccountList.Page reads one).
type AccountView struct {
	Detail *AccountDetail
	pages  map[string]any // by list name: a *Page[T]
}

// AccountList is one list an account's view can carry, declared once
// below: P is the parameters it is read with on its own, T its items. Its
// page in the view is read in the view's one request, as the list alone
// would read it. A new list is its declaration and its line in
// accountLists.
type AccountList[P, T any] struct {
	shape *listShape
	// at is where P keeps the account it lists and its page size.
	at    func(*P) (accountID *string, first *int)
	vars  func(P, int) map[string]any
	check func(P) error
	page  func(reflect.Value) *Page[T]
}

// The lists an account's view can carry: an account's tabs, and the
// first reads of its Overview's balance chart.
var (
	// ViewTransactions are the account's transactions (Account.transactions).
	ViewTransactions = declareList(accountField, "transactions",
		"transactions(first: $first, filters: $filters, orderBy: $orderBy)", (*txNode).transaction,
		func(p *TransactionsParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewMembers are the account's memberships (Account.memberships).
	ViewMembers = declareList(accountField, "members",
		"memberships(first: $first, filters: $filters, orderBy: $orderBy)", (*membershipNode).membership,
		func(p *MembershipsParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewCards are the account's cards: the platform has no
	// Account.cards, so they are the root cards filtered by the account.
	ViewCards = declareList(rootField, "cards",
		"cards(first: $first, filters: $filters, orderBy: $orderBy)", (*cardNode).card,
		func(p *CardsParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewStatements are the account's statements (Account.statements).
	ViewStatements = declareList(accountField, "statements",
		"statements(first: $first, filters: $filters, orderBy: $orderBy)", (*statementNode).statement,
		func(p *StatementsParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewVirtualIbans are the account's virtual IBANs
	// (Account.virtualIbanEntries).
	ViewVirtualIbans = declareList(accountField, "virtualIbans",
		"virtualIbanEntries(first: $first, filters: $filters)", (*virtualIbanNode).virtualIban,
		func(p *VirtualIbansParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewUpcoming are the account's transactions read a second time under
	// another name, for the upcoming ones (filters.status Upcoming): what
	// will leave the account, and when.
	ViewUpcoming = declareList(accountField, "upcoming",
		"transactions(first: $first, filters: $filters, orderBy: $orderBy)", (*txNode).transaction,
		func(p *TransactionsParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewBooked are the account's transactions read a third time under
	// another name, for its balance chart (BookedParts): the first page of
	// the Booked ones updated since the period began, most recently
	// updated first, as bookedSince reads it.
	ViewBooked = declareList(accountField, "booked",
		"transactions(first: $first, filters: $filters, orderBy: $orderBy)", (*txNode).transaction,
		func(p *TransactionsParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewBookedBefore are the account's transactions read a fourth time,
	// for the same chart: the few Booked ones last updated before the
	// period, among which lastBookedBefore finds the booking the period
	// opens with.
	ViewBookedBefore = declareList(accountField, "bookedBefore",
		"transactions(first: $first, filters: $filters, orderBy: $orderBy)", (*txNode).transaction,
		func(p *TransactionsParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewStandingOrders are the account's standing orders
	// (Account.standingOrders).
	ViewStandingOrders = declareList(accountField, "standingOrders",
		"standingOrders(first: $first, filters: $filters, orderBy: $orderBy)", (*standingOrderNode).standingOrder,
		func(p *StandingOrdersParams) (*string, *int) { return &p.AccountID, &p.First })
	// ViewBeneficiaries are the account's trusted beneficiaries
	// (Account.trustedBeneficiaries).
	ViewBeneficiaries = declareList(accountField, "beneficiaries",
		"trustedBeneficiaries(first: $first, filters: $filters, orderBy: $orderBy)", (*beneficiaryNode).beneficiary,
		func(p *BeneficiariesParams) (*string, *int) { return &p.AccountID, &p.First })
)

// accountLists is every list a view can carry: Operations() lists the
// view with all of them, so the limits are checked for the whole.
func accountLists() []anyAccountList {
	return []anyAccountList{ViewTransactions, ViewMembers, ViewCards, ViewStatements,
		ViewVirtualIbans, ViewUpcoming, ViewStandingOrders, ViewBeneficiaries, ViewBooked, ViewBookedBefore}
}

// Name is the list's key in a view: each list has its own.
func (l AccountList[P, T]) Name() string { return l.shape.name }

// Part is the list, read with p, as a part of a view.
func (l AccountList[P, T]) Part(p P) AccountPart {
	return AccountPart{typedPart[P, T]{l, p}}
}

// Page is the first page of the list that v carries; nil when the view
// was not asked for it.
func (l AccountList[P, T]) Page(v *AccountView) *Page[T] {
	p, _ := v.pages[l.shape.name].(*Page[T])
	return p
}

// SetPage makes p the list's page in v (a test's fake view).
func (l AccountList[P, T]) SetPage(v *AccountView, p *Page[T]) {
	if v.pages == nil {
		v.pages = map[string]any{}
	}
	v.pages[l.shape.name] = p
}

// ParamsIn is what the view v reads the list with, as the list alone
// would be read (its AccountID v's, its First set); false when v does not
// read the list (a test's fake view answers each part so).
func (l AccountList[P, T]) ParamsIn(v AccountViewParams) (P, bool) {
	for _, part := range v.Parts {
		if t, ok := part.p.(typedPart[P, T]); ok && t.l.shape == l.shape {
			p, _ := t.bind(v.AccountID, v.First)
			return p, true
		}
	}
	var zero P
	return zero, false
}

// everyPart is the list with no filter, for Operations().
func (l AccountList[P, T]) everyPart() AccountPart {
	var p P
	return l.Part(p)
}

type anyAccountList interface{ everyPart() AccountPart }

// AccountPart is one list of a view with its parameters, made by the
// list's Part.
type AccountPart struct{ p part }

// part is an AccountPart whatever its list's types.
type part interface {
	shape() *listShape
	// vars are the part's variables, named as its field names them.
	vars(accountID string, first func(int) int, defaultFirst int) map[string]any
	// check checks the parameters the part is read with for accountID.
	check(accountID string) error
	// page converts the decoded field.
	page(reflect.Value) any
}

type typedPart[P, T any] struct {
	l AccountList[P, T]
	p P
}

func (t typedPart[P, T]) shape() *listShape { return t.l.shape }
func (t typedPart[P, T]) check(accountID string) error {
	p, _ := t.bind(accountID, 0)
	return t.l.check(p)
}
func (t typedPart[P, T]) page(v reflect.Value) any {
	return t.l.page(v)
}

// bind is the part's parameters for accountID's first page, its size
// defaultFirst when they set none.
func (t typedPart[P, T]) bind(accountID string, defaultFirst int) (P, int) {
	p := t.p
	id, n := t.l.at(&p)
	*id = accountID
	if *n <= 0 {
		*n = defaultFirst
	}
	return p, *n
}

func (t typedPart[P, T]) vars(accountID string, first func(int) int, defaultFirst int) map[string]any {
	p, n := t.bind(accountID, defaultFirst)
	return t.l.shape.rename(t.l.vars(p, first(n)))
}

// where a list sits in the operation.
type where bool

const (
	accountField where = false // a connection of the Account
	rootField    where = true  // a root connection filtered by the account
)

// listShape is what the view's operation needs of a list, whatever its
// types.
type listShape struct {
	name string // the list's key in the view, its alias and its variables' prefix
	at   where
	uses []string // the list's own variables the field takes
	// sf is the list's field in the operation's shape, its type the
	// decoded connection: *connectionQL[N].
	sf reflect.StructField
}

// declareList declares one list a view can carry: name is its key, field
// its connection with its arguments as the list's own operation writes
// them ($first…), item converts one of its nodes N, at says where its
// parameters keep the account and the page size.
func declareList[P interface {
	vars(int) map[string]any
	check() error
}, N, T any](at where, name, field string, item func(*N) T, fields func(*P) (*string, *int)) AccountList[P, T] {
	text, uses := prefixVars(name, field)
	return AccountList[P, T]{
		shape: &listShape{name: name, at: at, uses: uses, sf: reflect.StructField{
			Name: "List" + strings.ToUpper(name[:1]) + name[1:],
			Type: reflect.TypeFor[*connectionQL[N]](),
			// Aliased by its name: two lists may read one connection.
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:%q json:%q`, name+": "+text, name)),
		}},
		at:    fields,
		vars:  func(p P, n int) map[string]any { return p.vars(n) },
		check: func(p P) error { return p.check() },
		page: func(v reflect.Value) *Page[T] {
			return convertPage(v.Interface().(*connectionQL[N]), item)
		},
	}
}

// prefixVars renames field's variables after the list (first →
// transactionsFirst) so that several lists share one operation, and says
// which it takes.
func prefixVars(prefix, field string) (string, []string) {
	var b strings.Builder
	var uses []string
	for {
		i := strings.IndexByte(field, '$')
		if i < 0 {
			b.WriteString(field)
			return b.String(), uses
		}
		b.WriteString(field[:i+1])
		field = field[i+1:]
		n := strings.IndexFunc(field, func(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if n < 0 {
			n = len(field)
		}
		name := field[:n]
		uses = append(uses, name)
		b.WriteString(prefixedName(prefix, name))
		field = field[n:]
	}
}

// prefixedName is one list's variable name in an operation that several
// lists share ("first" → "txFirst").
func prefixedName(prefix, name string) string {
	return prefix + strings.ToUpper(name[:1]) + name[1:]
}

// prefixed renames one list's variables for a connection that shares the
// operation with others; the first page needs no cursor, and the account
// is the operation's own $accountId.
func prefixed(prefix string, vars map[string]any, into map[string]any) {
	for k, v := range vars {
		if k == "after" || k == "accountId" {
			continue
		}
		into[prefixedName(prefix, k)] = v
	}
}

// rename keeps the variables the field takes, renamed as it names them:
// the rest (the cursor, the account of a list of the Account) the view
// sets itself.
func (s *listShape) rename(vars map[string]any) map[string]any {
	out := make(map[string]any, len(s.uses))
	for _, k := range s.uses {
		if v, ok := vars[k]; ok {
			out[prefixedName(s.name, k)] = v
		}
	}
	return out
}

// parts are p's parts in the operation's order (by name, so that the
// operation's text depends on which lists it reads, not on their order),
// each checked.
func (p AccountViewParams) parts() ([]part, error) {
	parts := make([]part, 0, len(p.Parts))
	var errs []error
	for _, ap := range p.Parts {
		if ap.p == nil {
			return nil, errors.New("an account view's part was not made by its list's Part")
		}
		parts = append(parts, ap.p)
		if err := ap.p.check(p.AccountID); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ap.p.shape().name, err))
		}
	}
	slices.SortFunc(parts, func(a, b part) int { return cmp.Compare(a.shape().name, b.shape().name) })
	for i := 1; i < len(parts); i++ {
		if n := parts[i].shape().name; n == parts[i-1].shape().name {
			errs = append(errs, fmt.Errorf("the account view reads %s twice", n))
		}
	}
	return parts, errors.Join(errs...)
}

// vars are the operation's variables; first is the page size each list
// asks for, given its First.
func (p AccountViewParams) vars(parts []part, first func(int) int) map[string]any {
	vars := map[string]any{"accountId": graphql.ID(p.AccountID)}
	for _, pt := range parts {
		for k, v := range pt.vars(p.AccountID, first, p.First) {
			vars[k] = v
		}
	}
	return vars
}

// accountViewShape is the operation's shape for parts: the account (the
// account detail's fields and the lists of the Account), the root lists,
// and with a user token the user's membership of the account. The
// detail's fields are copied, not accountDetailNode embedded: a struct
// made at run time cannot embed an unexported type, and the string
// sanitiser would not see into one.
func accountViewShape(parts []part, user bool) reflect.Type {
	detail := reflect.TypeFor[accountDetailNode]()
	node := make([]reflect.StructField, 0, detail.NumField()+len(parts))
	for i := range detail.NumField() {
		node = append(node, detail.Field(i))
	}
	root := []reflect.StructField{{}}
	for _, pt := range parts {
		s := pt.shape()
		if s.at == rootField {
			root = append(root, s.sf)
		} else {
			node = append(node, s.sf)
		}
	}
	root[0] = reflect.StructField{Name: "Account", Type: reflect.PointerTo(reflect.StructOf(node)),
		Tag: `graphql:"account(accountId: $accountId)" json:"account"`}
	if user {
		root = append(root, reflect.StructField{Name: "User", Type: reflect.TypeFor[*userMembershipQL](), Tag: `graphql:"user" json:"user"`})
	}
	return reflect.StructOf(root)
}

// everyList is the view of every list, unfiltered, as Operations()
// lists it.
func everyList() (AccountViewParams, []part) {
	p := AccountViewParams{AccountID: "x", First: platform.PageMax}
	for _, l := range accountLists() {
		p.Parts = append(p.Parts, l.everyPart())
	}
	parts, _ := p.parts()
	return p, parts
}

// everyListShape is the shape of the view of every list (user: with the
// user's membership), as Operations() lists it.
func everyListShape(user bool) any {
	_, parts := everyList()
	return reflect.New(accountViewShape(parts, user)).Interface()
}

// everyListVars are the variables of the view of every list.
func everyListVars() map[string]any {
	p, parts := everyList()
	return p.vars(parts, func(n int) int { return n })
}

// AccountView reads an account and the first page of each part in one
// request (with a user token, the user's membership of it too), so
// opening an account and going through its tabs costs one round trip. A
// missing account is ErrNotFound. With a *GraphQLError the view is nil:
// the caller reads each part on its own, which says which part failed.
func (c *Client) AccountView(ctx context.Context, p AccountViewParams) (*AccountView, error) {
	parts, err := p.parts()
	if err != nil {
		return nil, err
	}
	vars := p.vars(parts, c.first)
	shape := accountViewShape(parts, !p.Project)
	name := OpAccountViewUser
	if p.Project {
		name = OpAccountView
	}
	var q reflect.Value
	err = c.run(ctx, false, func(ctx context.Context) error {
		q = reflect.New(shape)
		return c.exchange(ctx, c.gqlURL, false, q.Interface(), vars, name)
	})
	if err != nil {
		return nil, err
	}
	root := q.Elem()
	acct := root.Field(0)
	if acct.IsNil() {
		return nil, c.notFound("account", p.AccountID)()
	}
	node := acct.Elem()
	var dn accountDetailNode
	dv := reflect.ValueOf(&dn).Elem()
	for i := range dv.NumField() {
		dv.Field(i).Set(node.Field(i))
	}
	d := dn.detail()
	if !p.Project {
		d.Membership = userMembership(root.FieldByName("User").Interface().(*userMembershipQL), p.AccountID)
	}
	v := &AccountView{Detail: &d, pages: make(map[string]any, len(parts))}
	for _, pt := range parts {
		s := pt.shape()
		in := node
		if s.at == rootField {
			in = root
		}
		v.pages[s.name] = pt.page(in.FieldByName(s.sf.Name))
	}
	return v, nil
}
