package api

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/internal/platform"
)

// A walk of a whole list reads one page per request, since a page's cursor
// is known only once the page before has come. A list split into parts
// that cannot exchange items while they are read can be walked in every
// part at once, with up to platform.MaxTopLevel pages (one per part) in
// one operation:
//
//   - a transaction's type never changes, so the transactions of a few
//     types are a part (a sublist) of their own;
//   - each sublist, ordered by createdAt, is read from both ends at once
//     until the two reads meet.
//
// The items are those a single walk started with the first request gives,
// each once: every sublist's read from the newest end starts in that first
// request (so there are at most as many sublists as pages in a request),
// at the newest item that exists then, and the read from the oldest end
// stops where it meets it, before it could reach an item created during
// the walk. They come in the order the pages arrive, not in the list's
// order.

// Operation names of the split walks.
const (
	OpProjectTransactionPages = "ProjectTransactionPages"
	OpAccountPages            = "AccountPages"
)

// aliasesQL holds the answers of one request that repeats a one-page
// operation under the aliases p0…p4.
type aliasesQL[V any] struct {
	P0 *V `graphql:"p0"`
	P1 *V `graphql:"p1"`
	P2 *V `graphql:"p2"`
	P3 *V `graphql:"p3"`
	P4 *V `graphql:"p4"`
}

func (q *aliasesQL[V]) at(i int) *V {
	return [...]*V{q.P0, q.P1, q.P2, q.P3, q.P4}[i]
}

// splitList is a list that can be walked in parts: its one-page operation
// (whose text the split operation repeats under aliases) and what the walk
// needs of an item.
type splitList[N, T any] struct {
	name       string // the split operation's name
	single     any    // the one-page operation's shape
	singleVars map[string]any
	// item converts a node, with its id and creation time.
	item func(*N) (T, string, time.Time)
}

var (
	splitVarRef = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)
	splitShape  = regexp.MustCompile(`^query \w+\(([^)]*)\)\{(\w+)\(([^)]*)\)(\{.*\})\}$`)
)

// splitText is the text of an operation that asks for k pages of the
// one-page operation single (`query X($a:T…){field(args){…}}`), each under
// the alias pI with its own variables ($aI), in its arguments and in those
// of the fields it selects.
func splitText(single, name string, k int) (string, error) {
	m := splitShape.FindStringSubmatch(single)
	if m == nil {
		return "", fmt.Errorf("api: %s: the one-page operation has an unexpected shape", name)
	}
	decls, field, args, sel := m[1], m[2], m[3], m[4]
	var head, body strings.Builder
	head.WriteString("query " + name + "(")
	body.WriteString("{")
	for i := range k {
		n := strconv.Itoa(i)
		head.WriteString(splitVarRef.ReplaceAllString(decls, "$$${1}"+n))
		if i > 0 {
			body.WriteString(",")
		}
		body.WriteString("p" + n + ":" + field + "(" + splitVarRef.ReplaceAllString(args, "$$${1}"+n) + ")" + splitVarRef.ReplaceAllString(sel, "$$${1}"+n))
	}
	return head.String() + ")" + body.String() + "}", nil
}

// splitOps keeps each split operation's text, by name and page count.
type splitOps struct {
	m sync.Map // splitKey → *opText
}

type splitKey struct {
	name string
	k    int
}

func (s *splitOps) get(name string, single any, singleVars map[string]any, k int) (*opText, error) {
	if o, ok := s.m.Load(splitKey{name, k}); ok {
		return o.(*opText), nil
	}
	one, err := constructOperation(false, single, singleVars, "One")
	if err != nil {
		return nil, err
	}
	text, err := splitText(one, name, k)
	if err != nil {
		return nil, err
	}
	q, err := json.Marshal(text)
	if err != nil {
		return nil, err
	}
	o := &opText{head: append([]byte(`{"query":`), q...), tail: []byte(`,"operationName":"` + name + `"}`)}
	s.m.Store(splitKey{name, k}, o)
	return o, nil
}

// splitPart is one read of one sublist, from one end.
type splitPart struct {
	sub   int
	asc   bool
	vars  map[string]any // the one-page operation's, but the cursor
	after string
	done  bool
	mate  *splitPart // the read of the same sublist from the other end
	// edge is the creation time of the last item read and atEdge the ids
	// read with that creation time: the part has read every item before
	// edge in its order, and those.
	edge    time.Time
	atEdge  map[string]bool
	started bool
}

// saw reports whether the part has read an item created at t with id;
// beyond, whether the item lies strictly past its edge (so every item
// after it in the other end's order was read too).
func (p *splitPart) saw(t time.Time, id string) (saw, beyond bool) {
	if p == nil || !p.started {
		return false, false
	}
	if p.asc {
		beyond = t.Before(p.edge)
	} else {
		beyond = t.After(p.edge)
	}
	return beyond || (t.Equal(p.edge) && p.atEdge[id]), beyond
}

// read notes an item the part read.
func (p *splitPart) read(t time.Time, id string) {
	if !p.started || !t.Equal(p.edge) {
		p.edge, p.atEdge, p.started = t, map[string]bool{}, true
	}
	p.atEdge[id] = true
}

// splitSub is one sublist: its filters and what is known of its size.
type splitSub struct {
	params func(asc bool) map[string]any // the one-page variables, read from that end
	total  int
	read   int // items read by both its parts, the other's included
}

// splitWalk walks the sublists of l, each from both ends, up to pages
// parts per request, calling each with every page's new items and the
// list's total as far as it is known. split makes at most k sublists. A
// 400 for an operation limit halves the pages per request and the walk
// goes on (split again when nothing was read yet).
func splitWalk[N, T any](ctx context.Context, c *Client, l *splitList[N, T], split func(k int) []*splitSub, pages int, each func([]T, int) error) error {
	pages = min(max(pages, 1), platform.MaxTopLevel)
	subs, parts := startParts(split, pages)
	for started := false; ; {
		chosen := pickParts(parts, subs, pages)
		if len(chosen) == 0 {
			return nil
		}
		q, err := fetchParts(ctx, c, l, chosen)
		if errors.Is(err, ErrOperationLimit) && len(chosen) > 1 {
			pages = len(chosen) / 2
			if !started {
				subs, parts = startParts(split, pages)
			}
			continue
		}
		started = true
		if err != nil {
			return err
		}
		for i, p := range chosen {
			items, err := takePage(l, p, q.at(i), subs, &parts)
			if err != nil {
				return err
			}
			total := 0
			for _, s := range subs {
				total += s.total
			}
			if err := each(items, total); err != nil {
				return err
			}
		}
	}
}

// startParts splits the list for requests of pages pages: a read from the
// newest end of each sublist, and from the oldest end of as many as the
// first request has room for.
func startParts(split func(k int) []*splitSub, pages int) ([]*splitSub, []*splitPart) {
	subs := split(pages)
	parts := make([]*splitPart, 0, 2*len(subs))
	for i, s := range subs {
		parts = append(parts, &splitPart{sub: i, vars: s.params(false)})
	}
	for i := 0; i < len(subs) && len(parts) < pages; i++ {
		addMate(parts[i], subs, &parts)
	}
	return subs, parts
}

func addMate(p *splitPart, subs []*splitSub, parts *[]*splitPart) {
	m := &splitPart{sub: p.sub, asc: !p.asc, vars: subs[p.sub].params(!p.asc), mate: p}
	p.mate = m
	*parts = append(*parts, m)
}

// pickParts chooses the parts the next request reads: those not started
// first (their sublist's size is unknown), then those with the most left
// to read, so that the last requests are as full as they can be.
func pickParts(parts []*splitPart, subs []*splitSub, pages int) []*splitPart {
	left := func(p *splitPart) int {
		if !p.started && p.mate == nil {
			return int(^uint(0) >> 1)
		}
		s := subs[p.sub]
		n := s.total - s.read
		if p.mate != nil && !p.mate.done {
			n /= 2
		}
		return n
	}
	var open []*splitPart
	for _, p := range parts {
		if !p.done {
			open = append(open, p)
		}
	}
	slices.SortStableFunc(open, func(a, b *splitPart) int { return cmp.Compare(left(b), left(a)) })
	return open[:min(len(open), pages)]
}

// fetchParts reads the next page of each part in one request.
func fetchParts[N, T any](ctx context.Context, c *Client, l *splitList[N, T], chosen []*splitPart) (*aliasesQL[connectionQL[N]], error) {
	each := make([]map[string]any, len(chosen))
	for i, p := range chosen {
		each[i] = maps.Clone(p.vars)
		each[i]["after"] = cursorVar(p.after)
	}
	return fetchAliased[connectionQL[N]](ctx, c, l.name, l.single, l.singleVars, each)
}

// fetchAliased asks, in one request, for the one-page operation single
// once with each of the variable sets in each (at most
// platform.MaxTopLevel), under the aliases p0….
func fetchAliased[V any](ctx context.Context, c *Client, name string, single any, singleVars map[string]any, each []map[string]any) (*aliasesQL[V], error) {
	op, err := c.split.get(name, single, singleVars, len(each))
	if err != nil {
		return nil, err
	}
	vars := make(map[string]any, 5*len(each))
	for i, set := range each {
		n := strconv.Itoa(i)
		for k, v := range set {
			vars[k+n] = v
		}
	}
	var q *aliasesQL[V]
	err = c.run(ctx, false, func(ctx context.Context) error {
		q = new(aliasesQL[V])
		return c.exchangeOp(ctx, c.gqlURL, false, op, q, vars)
	})
	if err != nil {
		// Partial data cannot be trusted to have its cursors right.
		return nil, err
	}
	return q, nil
}

// takePage applies one part's page: the items its mate has not read (the
// others are dropped), where the part goes on from, and whether the part
// and its mate are done.
func takePage[N, T any](l *splitList[N, T], p *splitPart, conn *connectionQL[N], subs []*splitSub, parts *[]*splitPart) ([]T, error) {
	if conn == nil {
		conn = &connectionQL[N]{}
	}
	s := subs[p.sub]
	if s.total == 0 {
		s.total = conn.TotalCount
	}
	items := make([]T, 0, len(conn.Edges))
	met := false
	for i := range conn.Edges {
		it, id, created := l.item(&conn.Edges[i].Node)
		s.read++
		saw, beyond := p.mate.saw(created, id)
		met = met || beyond
		// Read, even when the other end had read it: the part's edge is
		// how far it has come, which the other end checks against.
		p.read(created, id)
		if !saw {
			items = append(items, it)
		}
	}
	info := conn.PageInfo.pageInfo()
	switch {
	case met || !info.HasNextPage:
		// Either end read to where the other had been, or to the end:
		// the sublist is read whole.
		p.done = true
		if p.mate != nil {
			p.mate.done = true
		}
	case info.EndCursor == "" || info.EndCursor == p.after:
		return items, &PagingError{After: p.after, Reason: "the server said there were more pages but gave no cursor past this one"}
	default:
		p.after = info.EndCursor
		if p.mate == nil {
			addMate(p, subs, parts)
		}
	}
	return items, nil
}

// ProjectTransactionsInParts walks every transaction of the project that p
// matches (p.AccountID must be ""; a project token), split by type and read
// from both ends of createdAt, up to pages pages per request (0 means
// platform.MaxTopLevel). Items come in arrival order; see splitWalk.
func (c *Client) ProjectTransactionsInParts(ctx context.Context, p TransactionsParams, pages int, each func([]TransactionDetail, int) error) error {
	if p.AccountID != "" {
		return errors.New("api: ProjectTransactionsInParts walks the project's transactions; use TransactionList for an account's")
	}
	if err := p.check(); err != nil {
		return err
	}
	types := p.Type
	if len(types) == 0 {
		types = TransactionTypes()
	}
	first := c.first(p.First)
	split := func(k int) []*splitSub {
		groups := make([][]string, min(k, len(types)))
		for i, t := range types {
			groups[i%len(groups)] = append(groups[i%len(groups)], t)
		}
		subs := make([]*splitSub, len(groups))
		for i, g := range groups {
			q := p
			q.Type, q.OrderBy, q.After = g, TxOrderCreatedAt, ""
			subs[i] = &splitSub{params: func(asc bool) map[string]any {
				q.Direction = DirectionDesc
				if asc {
					q.Direction = DirectionAsc
				}
				v := q.vars(first)
				delete(v, "after")
				return v
			}}
		}
		return subs
	}
	if pages <= 0 {
		pages = platform.MaxTopLevel
	}
	return splitWalk(ctx, c, projectTransactionsSplit, split, pages, each)
}

var projectTransactionsSplit = &splitList[txNode, TransactionDetail]{
	name: OpProjectTransactionPages, single: &projectTransactionsQuery{}, singleVars: TransactionsParams{}.vars(platform.PageMax),
	item: func(n *txNode) (TransactionDetail, string, time.Time) {
		t := n.transaction()
		return t, t.ID, t.CreatedAt
	},
}

var accountsSplit = &splitList[accountListNode, Account]{
	name: OpAccountPages, single: &accountsQuery{}, singleVars: accountsVars(AccountsParams{}, platform.PageMax, ""),
	item: func(n *accountListNode) (Account, string, time.Time) {
		return n.account(), n.ID, parseTime(n.CreatedAt)
	},
}

// AccountsInParts walks every account p matches from both ends of
// createdAt at once, two pages per request. Items come in arrival order;
// see splitWalk.
func (c *Client) AccountsInParts(ctx context.Context, p AccountsParams, each func([]Account, int) error) error {
	if p.IBANPart != "" {
		// Matched on this side (ibanpart.go), the server's search for
		// digits after the accounts: one walk, in order.
		return Walk(ctx, Pages(c.Accounts, p), func(page *Page[Account]) error { return each(page.Items, page.TotalCount) })
	}
	first := c.first(p.First)
	sub := &splitSub{params: func(asc bool) map[string]any {
		q := p
		q.OrderBy, q.Direction = OrderCreatedAt, DirectionDesc
		if asc {
			q.Direction = DirectionAsc
		}
		v := accountsVars(q, first, "")
		delete(v, "after")
		return v
	}}
	return splitWalk(ctx, c, accountsSplit, func(int) []*splitSub { return []*splitSub{sub} }, platform.MaxTopLevel, each)
}

// splitOperations are the split walks' operations at their largest, for
// Operations.
func splitOperations() ([]Operation, error) {
	var ops []Operation
	for _, l := range []struct {
		name   string
		single any
		vars   map[string]any
	}{
		{OpProjectTransactionPages, projectTransactionsSplit.single, projectTransactionsSplit.singleVars},
		{OpAccountPages, accountsSplit.single, accountsSplit.singleVars},
		{OpAccountsTransactionPages, accountsTransactionPagesSingle, accountsTransactionPagesSingleVars},
	} {
		var s splitOps
		o, err := s.get(l.name, l.single, l.vars, platform.MaxTopLevel)
		if err != nil {
			return nil, err
		}
		var text string
		if err := json.Unmarshal(o.head[len(`{"query":`):], &text); err != nil {
			return nil, err
		}
		ops = append(ops, Operation{Name: l.name, Query: text})
	}
	return ops, nil
}
