package api

import (
	"context"

	"github.com/partnertui/partnertui/internal/platform"
)

// Reading is how much of a list a surface reads, and in what order.
type Reading int

const (
	// FirstPage is the list's first page.
	FirstPage Reading = iota
	// AllPages is every page, in the list's order, each next page asked
	// for while the one before is handed out.
	AllPages
	// AllItems is every item in whatever order comes fastest: a list
	// that can be split is read in parts at once (see splitWalk), any
	// other as AllPages.
	AllItems
)

// A List is one of the platform's lists as a surface asks for it (the
// accounts a search finds, an account's transactions, the project's event
// log), which the surface reads (Read, Page) and renders. How it is read
// is decided here, once for both surfaces: which operation; how many items
// per request (the client's page size, the configuration's page_size,
// within platform.PageMax; a page size the surface was asked for wins);
// and, read whole, whether its connection is walked, walked in parts, or
// several accounts' lists are merged into one.
type List[T any] struct {
	size int
	// one reads the page of first items after the cursor after, from
	// the list's end when reverse; nil for a merged list.
	one        func(ctx context.Context, after string, first int, reverse bool) (*Page[T], error)
	reversible bool
	// parts reads every item in arrival order, several parts of the list
	// at once; nil when the list cannot be split.
	parts func(ctx context.Context, first int, each func([]T, int) error) error
	// seq is the list of a merge, read from its start only; nil for a
	// connection.
	seq sequence[T]
}

// sequence is a list that is read from its start only, each row's cursor
// its position: several accounts' transactions merged into one list.
type sequence[T any] interface {
	// walk hands each page of size rows to each: the first, or with all
	// every one, reading ahead.
	walk(ctx context.Context, all bool, size int, each func([]T, int) error) error
	// page is the page of first rows after the cursor after.
	page(ctx context.Context, after string, first int) (*Page[T], error)
	progress() MergeProgress
}

// listParams are the parameters of a list's one-page read: every …Params
// type of this package that a List reads.
type listParams[P any] interface {
	WithAfter(after string) P
	withFirst(first int) P
	// first is the page size the parameters ask for (0: none).
	first() int
	// reversed is the parameters reading the list from its other end;
	// false when the list has no order that can be turned around.
	reversed() (P, bool)
}

// ListOf is the list whose pages get reads, with p's filters and order: p.First
// items per request when set, else size (0, or more than the platform
// allows, is platform.PageMax). Read whole in any order it is walked
// in order: the client's own lists (ListAccounts…) know which can be
// split.
func ListOf[P listParams[P], T any](get func(context.Context, P) (*Page[T], error), p P, size int) *List[T] {
	size = pageSize(p.first(), size)
	_, reversible := p.reversed()
	return &List[T]{size: size, reversible: reversible, one: func(ctx context.Context, after string, first int, reverse bool) (*Page[T], error) {
		q := p
		if reverse {
			q, _ = q.reversed()
		}
		return get(ctx, q.WithAfter(after).withFirst(pageSize(first, size)))
	}}
}

// pageSize is n when it is a page size the platform accepts, else size,
// else platform.PageMax.
func pageSize(n, size int) int {
	switch {
	case n > 0 && n <= platform.PageMax:
		return n
	case size > 0 && size <= platform.PageMax:
		return size
	}
	return platform.PageMax
}

// PageSize is how many items one request of the list asks for.
func (l *List[T]) PageSize() int { return l.size }

// Reversible reports whether the list can be read from its end (Page's
// reverse): its last rows come in one request. A merged list cannot.
func (l *List[T]) Reversible() bool { return l.reversible }

// Read reads the list as how says, handing each page's items to each as
// soon as the page arrives, with the list's total as far as it is known.
// It stops at the first error, each's included; the items handed out
// before stay handed out.
func (l *List[T]) Read(ctx context.Context, how Reading, each func(items []T, total int) error) error {
	if l.seq != nil {
		return l.seq.walk(ctx, how != FirstPage, l.size, each)
	}
	switch {
	case how == FirstPage:
		page, err := l.one(ctx, "", l.size, false)
		if page != nil {
			if werr := each(page.Items, page.TotalCount); werr != nil {
				return werr
			}
		}
		return err
	case how == AllItems && l.parts != nil:
		return l.parts(ctx, l.size, each)
	}
	fetch := func(ctx context.Context, after string) (*Page[T], error) { return l.one(ctx, after, l.size, false) }
	return Walk(ctx, fetch, func(page *Page[T]) error { return each(page.Items, page.TotalCount) })
}

// Page reads the page of first items (0: the list's page size) that
// follows the cursor after ("" for the list's first page), from the list's
// end when reverse (a Reversible list only): what a screen that pages
// through a list asks for. The cursors are the page's own PageInfo's.
func (l *List[T]) Page(ctx context.Context, after string, first int, reverse bool) (*Page[T], error) {
	first = pageSize(first, l.size)
	if l.seq != nil {
		return l.seq.page(ctx, after, first)
	}
	return l.one(ctx, after, first, reverse && l.reversible)
}

// MergeProgress is how far a list merged from several accounts' lists has
// come (see MergedTransactions.Progress).
type MergeProgress struct {
	Started  int  // accounts whose first page came
	Accounts int  // the accounts (0 until known)
	Total    int  // the transactions of those started, summed
	InTurn   bool // too many accounts to merge: their lists one after another
	Ended    bool // read to the end
}

// Merged is how far the list's merge has come, when the list is merged
// from several accounts' lists (a user's transactions across accounts);
// ok is false for any other list.
func (l *List[T]) Merged() (p MergeProgress, ok bool) {
	if l.seq == nil {
		return MergeProgress{}, false
	}
	return l.seq.progress(), true
}

// TransactionSource is what a list of transactions is read from: one
// account's or the project's list (TransactionList), the user's accounts
// and several accounts' pages per request to merge them (a *Client, or a
// test's stand-in).
type TransactionSource interface {
	TransactionPager
	TransactionList(ctx context.Context, p TransactionsParams) (*Page[TransactionDetail], error)
}

// Transactions is the list of the transactions p matches as the token
// can read it: one account's (p.AccountID); with a project token
// (project) the project's, read whole in parts when any order will do;
// with a user token, which cannot read the project's, every account the
// user sees merged into one list, newest first (MergedTransactions).
// size is as ListOf's.
func Transactions(src TransactionSource, p TransactionsParams, project bool, size int) *List[TransactionDetail] {
	if p.AccountID == "" && !project {
		return &List[TransactionDetail]{size: pageSize(p.First, size), seq: &mergedList{src: src, base: p}}
	}
	l := ListOf(src.TransactionList, p, size)
	if c, ok := src.(*Client); ok && p.AccountID == "" {
		l.parts = func(ctx context.Context, first int, each func([]TransactionDetail, int) error) error {
			q := p
			q.First = first
			return c.ProjectTransactionsInParts(ctx, q, 0, each)
		}
	}
	return l
}

// ListAccounts is the list of accounts p asks for, read whole in parts
// (from both of its ends at once) when any order will do.
func (c *Client) ListAccounts(p AccountsParams) *List[Account] {
	l := ListOf(c.Accounts, p, c.pageSize)
	l.parts = func(ctx context.Context, first int, each func([]Account, int) error) error {
		q := p
		q.First = first
		return c.AccountsInParts(ctx, q, each)
	}
	return l
}

// ListTransactions is Transactions read with c.
func (c *Client) ListTransactions(p TransactionsParams) *List[TransactionDetail] {
	return Transactions(c, p, c.project, c.pageSize)
}

// ListMemberships is the list of account memberships p asks for.
func (c *Client) ListMemberships(p MembershipsParams) *List[AccountMembership] {
	return ListOf(c.AccountMemberships, p, c.pageSize)
}

// ListCards is the list of cards p asks for.
func (c *Client) ListCards(p CardsParams) *List[Card] { return ListOf(c.Cards, p, c.pageSize) }

// ListStatements is the list of an account's statements p asks for.
func (c *Client) ListStatements(p StatementsParams) *List[Statement] {
	return ListOf(c.Statements, p, c.pageSize)
}

// ListWebhookEventLogs is the project's webhook event log, filtered by p.
func (c *Client) ListWebhookEventLogs(p WebhookEventLogsParams) *List[WebhookEventLog] {
	return ListOf(c.WebhookEventLogs, p, c.pageSize)
}

// ListWebhookSubscriptions is the project's webhook subscriptions.
func (c *Client) ListWebhookSubscriptions(p WebhookSubscriptionsParams) *List[WebhookSubscription] {
	return ListOf(c.WebhookSubscriptions, p, c.pageSize)
}

// ListVirtualIbans is the list of an account's virtual IBANs p asks for.
func (c *Client) ListVirtualIbans(p VirtualIbansParams) *List[VirtualIban] {
	return ListOf(c.VirtualIbans, p, c.pageSize)
}

// ListStandingOrders is the list of an account's standing orders p asks for.
func (c *Client) ListStandingOrders(p StandingOrdersParams) *List[StandingOrder] {
	return ListOf(c.StandingOrders, p, c.pageSize)
}

// ListBeneficiaries is the list of an account's trusted beneficiaries p
// asks for.
func (c *Client) ListBeneficiaries(p BeneficiariesParams) *List[Beneficiary] {
	return ListOf(c.Beneficiaries, p, c.pageSize)
}

// ListAccountHolders is the list of account holders p asks for.
func (c *Client) ListAccountHolders(p AccountHoldersParams) *List[AccountHolder] {
	return ListOf(c.AccountHolders, p, c.pageSize)
}

// ListOnboardings is the list of the project's onboardings p asks for.
func (c *Client) ListOnboardings(p OnboardingsParams) *List[Onboarding] {
	return ListOf(c.Onboardings, p, c.pageSize)
}

// ListCapitalDeposits is the list of the project's capital deposit cases
// p asks for.
func (c *Client) ListCapitalDeposits(p CapitalDepositsParams) *List[CapitalDeposit] {
	return ListOf(c.CapitalDeposits, p, c.pageSize)
}

// ListMerchantProfiles is the list of merchant profiles p asks for.
func (c *Client) ListMerchantProfiles(p MerchantProfilesParams) *List[MerchantProfile] {
	return ListOf(c.MerchantProfiles, p, c.pageSize)
}

// ListPaymentLinks is the list of a merchant profile's payment links p
// asks for.
func (c *Client) ListPaymentLinks(p PaymentLinksParams) *List[PaymentLink] {
	return ListOf(c.PaymentLinks, p, c.pageSize)
}

// turned is the other direction of an order; false for the server's
// default one, whose direction is not known here.
func turned(direction string) (string, bool) {
	switch direction {
	case DirectionDesc:
		return DirectionAsc, true
	case DirectionAsc:
		return DirectionDesc, true
	}
	return "", false
}

// The parameters' part of listParams.

func (p AccountsParams) withFirst(n int) AccountsParams { p.First = n; return p }
func (p AccountsParams) first() int                     { return p.First }
func (p AccountsParams) reversed() (AccountsParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p TransactionsParams) withFirst(n int) TransactionsParams { p.First = n; return p }
func (p TransactionsParams) first() int                         { return p.First }
func (p TransactionsParams) reversed() (TransactionsParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p MembershipsParams) withFirst(n int) MembershipsParams { p.First = n; return p }
func (p MembershipsParams) first() int                        { return p.First }
func (p MembershipsParams) reversed() (MembershipsParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p CardsParams) withFirst(n int) CardsParams { p.First = n; return p }
func (p CardsParams) first() int                  { return p.First }
func (p CardsParams) reversed() (CardsParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p StatementsParams) withFirst(n int) StatementsParams { p.First = n; return p }
func (p StatementsParams) first() int                       { return p.First }
func (p StatementsParams) reversed() (StatementsParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

// The event log and the subscriptions have no order to turn around.

func (p WebhookEventLogsParams) withFirst(n int) WebhookEventLogsParams { p.First = n; return p }
func (p WebhookEventLogsParams) first() int                             { return p.First }
func (p WebhookEventLogsParams) reversed() (WebhookEventLogsParams, bool) {
	return p, false
}

func (p WebhookSubscriptionsParams) withFirst(n int) WebhookSubscriptionsParams {
	p.First = n
	return p
}
func (p WebhookSubscriptionsParams) first() int { return p.First }
func (p WebhookSubscriptionsParams) reversed() (WebhookSubscriptionsParams, bool) {
	return p, false
}

// The account's other objects' lists.

func (p VirtualIbansParams) withFirst(n int) VirtualIbansParams { p.First = n; return p }
func (p VirtualIbansParams) first() int                         { return p.First }

// reversed: the virtual IBANs come in the platform's order, which has no
// other end to read from.
func (p VirtualIbansParams) reversed() (VirtualIbansParams, bool) { return p, false }

func (p StandingOrdersParams) withFirst(n int) StandingOrdersParams { p.First = n; return p }
func (p StandingOrdersParams) first() int                           { return p.First }
func (p StandingOrdersParams) reversed() (StandingOrdersParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p BeneficiariesParams) withFirst(n int) BeneficiariesParams { p.First = n; return p }
func (p BeneficiariesParams) first() int                          { return p.First }
func (p BeneficiariesParams) reversed() (BeneficiariesParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p AccountHoldersParams) withFirst(n int) AccountHoldersParams { p.First = n; return p }
func (p AccountHoldersParams) first() int                           { return p.First }
func (p AccountHoldersParams) reversed() (AccountHoldersParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p OnboardingsParams) withFirst(n int) OnboardingsParams { p.First = n; return p }
func (p OnboardingsParams) first() int                        { return p.First }
func (p OnboardingsParams) reversed() (OnboardingsParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p CapitalDepositsParams) withFirst(n int) CapitalDepositsParams { p.First = n; return p }
func (p CapitalDepositsParams) first() int                            { return p.First }
func (p CapitalDepositsParams) reversed() (CapitalDepositsParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p MerchantProfilesParams) withFirst(n int) MerchantProfilesParams { p.First = n; return p }
func (p MerchantProfilesParams) first() int                             { return p.First }
func (p MerchantProfilesParams) reversed() (MerchantProfilesParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p PaymentLinksParams) withFirst(n int) PaymentLinksParams { p.First = n; return p }
func (p PaymentLinksParams) first() int                         { return p.First }
func (p PaymentLinksParams) reversed() (PaymentLinksParams, bool) {
	d, ok := turned(p.Direction)
	p.Direction = d
	return p, ok
}

func (p NestedParams) withFirst(n int) NestedParams { p.First = n; return p }
func (p NestedParams) first() int                   { return p.First }

// reversed: a list an object holds is read in its platform order only.
func (p NestedParams) reversed() (NestedParams, bool) { return p, false }
