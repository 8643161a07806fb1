package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/partnertui/partnertui/internal/platform"
)

// OpAccountsTransactionPages is the operation that reads one page of the
// transactions of each of up to platform.MaxTopLevel accounts.
const OpAccountsTransactionPages = "AccountsTransactionPages"

// accountTransactionsQL is one alias of OpAccountsTransactionPages: an
// account (null when the token cannot see it) and a page of its
// transactions.
type accountTransactionsQL struct {
	Transactions *connectionQL[txNode] `graphql:"transactions"`
}

// accountsTransactionPagesSingle is the one-page operation whose text
// OpAccountsTransactionPages repeats, and its variables.
var (
	accountsTransactionPagesSingle     = &accountTransactionListQuery{}
	accountsTransactionPagesSingleVars = TransactionsParams{AccountID: "x"}.vars(platform.PageMax)
)

// AccountsTransactionPages reads, in one request, one page of transactions
// of each account that ps names (at most platform.MaxTopLevel; each has
// its AccountID, cursor and filters). A page is nil for an account the
// token cannot see.
func (c *Client) AccountsTransactionPages(ctx context.Context, ps []TransactionsParams) ([]*Page[TransactionDetail], error) {
	if len(ps) == 0 || len(ps) > platform.MaxTopLevel {
		return nil, fmt.Errorf("api: %s reads 1 to %d accounts' pages at once, not %d", OpAccountsTransactionPages, platform.MaxTopLevel, len(ps))
	}
	each := make([]map[string]any, len(ps))
	for i, p := range ps {
		if p.AccountID == "" {
			return nil, errors.New("api: " + OpAccountsTransactionPages + " reads accounts' transactions; every page needs an account")
		}
		if err := p.check(); err != nil {
			return nil, err
		}
		each[i] = p.vars(c.first(p.First))
	}
	q, err := fetchAliased[accountTransactionsQL](ctx, c, OpAccountsTransactionPages, accountsTransactionPagesSingle, accountsTransactionPagesSingleVars, each)
	if err != nil {
		return nil, err
	}
	pages := make([]*Page[TransactionDetail], len(ps))
	for i := range ps {
		if a := q.at(i); a != nil {
			pages[i] = convertPage(a.Transactions, (*txNode).transaction)
		}
	}
	return pages, nil
}

// OpAccountsTransactionHeads is the operation that reads a page of
// accounts, each with the first page of its transactions.
const OpAccountsTransactionHeads = "AccountsTransactionHeads"

var accountsTransactionHeadsOp = declareQuery[accountsTransactionHeadsQuery](OpAccountsTransactionHeads, func() map[string]any {
	return accountsTransactionHeadsVars(AccountsParams{Search: "x", OrderBy: OrderCreatedAt, Direction: DirectionDesc}, platform.PageMax,
		TransactionsParams{Search: "x", Status: []string{"Booked"}}, mergedHeadRows)
})

// accountHeadNode is an account of a page with the first page of its
// transactions (null when the token cannot read them).
type accountHeadNode struct {
	ID           string                `graphql:"id"`
	Transactions *connectionQL[txNode] `graphql:"transactions(first: $txFirst, filters: $txFilters, orderBy: $txOrderBy)"`
}

type accountsTransactionHeadsQuery struct {
	Accounts connectionQL[accountHeadNode] `graphql:"accounts(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

// AccountTransactions is an account and the first page of its
// transactions.
type AccountTransactions struct {
	AccountID    string
	Transactions *Page[TransactionDetail]
}

// accountsTransactionHeadsVars are the operation's variables: p's page of
// accounts, and tp's first page of each one's transactions.
func accountsTransactionHeadsVars(p AccountsParams, first int, tp TransactionsParams, txFirst int) map[string]any {
	vars := accountsVars(p, first, p.After)
	tp.AccountID, tp.After = "", ""
	prefixed("tx", tp.vars(txFirst), vars)
	return vars
}

// AccountsTransactionHeads reads, in one request, a page of the accounts p
// lists, each with the first page of its transactions that tp matches
// (tp.AccountID and tp.After are ignored): a hundred accounts' heads for
// the price of one request, where AccountsTransactionPages reads five.
func (c *Client) AccountsTransactionHeads(ctx context.Context, p AccountsParams, tp TransactionsParams) (*Page[AccountTransactions], error) {
	if err := tp.check(); err != nil {
		return nil, err
	}
	vars := accountsTransactionHeadsVars(p, c.first(p.First), tp, c.first(tp.First))
	q, err := accountsTransactionHeadsOp.query(ctx, c, vars)
	if q == nil {
		return nil, err
	}
	return convertPage(&q.Accounts, func(n *accountHeadNode) AccountTransactions {
		return AccountTransactions{AccountID: n.ID, Transactions: convertPage(n.Transactions, (*txNode).transaction)}
	}), err
}

// TransactionPager is what a MergedTransactions reads from: the user's
// accounts and several accounts' transaction pages per request (a
// *Client).
type TransactionPager interface {
	Accounts(ctx context.Context, p AccountsParams) (*Page[Account], error)
	AccountsTransactionPages(ctx context.Context, ps []TransactionsParams) ([]*Page[TransactionDetail], error)
}

// MergedTransactions is the transactions of every account a user token
// sees as one list, in the order of one account's list (newest first by
// default): what the project's transactions are to a project token, which
// a user token cannot read. Each account's list is read newest first, up
// to platform.MaxTopLevel accounts' pages per request, and the lists are
// merged: a row is handed out only once every account's next row is
// known, so the order is exact. Next reads on from where it stopped; it
// is not safe for concurrent use, Progress is.
//
// Each page of accounts is read with the first rows of each one's list
// (AccountsTransactionHeads, when the pager has it), so merging costs a
// request per hundred accounts before the first row, and a user who sees
// more than MaxMergedAccountsWithHeads accounts gets their lists in turn
// instead, in the accounts' order, one account read at a time. A pager
// without it, or a server that refuses its operation for a limit, costs
// a request per five accounts, and MaxMergedAccounts bounds the merge.
type MergedTransactions struct {
	src   TransactionPager
	heads transactionHeads // nil: the accounts are read without their rows
	base  TransactionsParams
	key   func(*TransactionDetail) time.Time
	desc  bool
	ahead bool // fill a request with pages of accounts not yet needed
	// headRows is how many rows of each account come with its page of
	// accounts (0 until Next knows how many rows the caller wants).
	headRows int

	accountsRead  bool   // the first page of accounts came (it decides inTurn)
	accountsAfter string // where the accounts list goes on, in turn
	accountsDone  bool   // every account is in streams
	inTurn        bool   // too many accounts to merge: one after another
	cur           int    // in turn, the account being read
	streams       []*txStream
	emitted       int

	mu       sync.Mutex // guards what Progress and InTurn read
	accounts int        // the accounts' totalCount
	started  int        // accounts whose first page came
	total    int        // their transactions' totalCount, summed
	ended    bool       // every account was read to its end
}

// txStream is one account's transactions: those read and not yet handed
// out, and where its list goes on.
type txStream struct {
	id      string
	buf     []TransactionDetail
	after   string
	started bool
	done    bool
}

// MaxMergedAccounts is the most accounts whose lists are merged when
// each account's first page is read apart from the accounts: they cost a
// hundred requests before the first row, a twentieth of the platform's
// request budget. MaxMergedAccountsWithHeads is the same hundred requests'
// worth when the first rows come with the accounts.
const (
	MaxMergedAccounts          = 100 * platform.MaxTopLevel
	MaxMergedAccountsWithHeads = 100 * platform.PageMax
)

// transactionHeads is the optional part of a TransactionPager (a *Client
// has it) that reads a page of accounts with each one's first rows.
type transactionHeads interface {
	AccountsTransactionHeads(ctx context.Context, p AccountsParams, tp TransactionsParams) (*Page[AccountTransactions], error)
}

// mergedHeadRows is the most rows read with each account of a page of
// accounts: enough that most accounts' next row stays known far down a
// list merged from many, few enough that a page of a hundred accounts is
// a thousand transactions (1,100 connection nodes).
const mergedHeadRows = 10

// MergeTransactions prepares the merged list of every account's
// transactions that p matches (p.AccountID and p.After are ignored;
// p.OrderBy "" or id means executionDate, and the direction defaults to
// newest first). ahead fills each request with pages of accounts that are
// not needed yet, which saves requests when the whole list is read.
func MergeTransactions(src TransactionPager, p TransactionsParams, ahead bool) *MergedTransactions {
	p.AccountID, p.After = "", ""
	if p.OrderBy == "" || p.OrderBy == TxOrderID {
		p.OrderBy = TxOrderExecutionDate
	}
	if p.Direction == "" {
		p.Direction = DirectionDesc
	}
	m := &MergedTransactions{src: src, base: p, desc: p.Direction == DirectionDesc, ahead: ahead}
	m.heads, _ = src.(transactionHeads)
	switch p.OrderBy {
	case TxOrderCreatedAt:
		m.key = func(t *TransactionDetail) time.Time { return t.CreatedAt }
	case TxOrderUpdatedAt:
		m.key = func(t *TransactionDetail) time.Time { return t.UpdatedAt }
	default:
		m.key = func(t *TransactionDetail) time.Time { return t.ExecutionDate }
	}
	return m
}

// Emitted is how many rows Next has handed out.
func (m *MergedTransactions) Emitted() int { return m.emitted }

// Progress is how many accounts had their first page read, of how many
// (0 until the accounts are known), the transactions those hold, and
// whether the list was read to its end.
func (m *MergedTransactions) Progress() (started, accounts, total int, ended bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.started, m.accounts, m.total, m.ended
}

// InTurn reports whether the accounts were too many to merge, so their
// lists come one after another (known once Next has run).
func (m *MergedTransactions) InTurn() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.inTurn
}

// Next hands out up to n more rows; more is false once the list ends.
// After an error the rows read so far stay: Next can be called again.
func (m *MergedTransactions) Next(ctx context.Context, n int) (rows []TransactionDetail, more bool, err error) {
	if m.headRows == 0 {
		m.headRows = min(max(n, 1), mergedHeadRows)
		if m.base.First > 0 {
			m.headRows = min(m.base.First, mergedHeadRows)
		}
	}
	if !m.accountsRead || (!m.inTurn && !m.accountsDone) {
		if err := m.readAccounts(ctx); err != nil {
			return nil, true, err
		}
	}
	for len(rows) < n {
		need := m.needed()
		if len(need) > 0 {
			// Merging, a page as long as the caller's, so that an
			// account running out does not cost a request per few rows;
			// in turn, only the rows still wanted.
			first := n
			if m.inTurn {
				first = n - len(rows)
			}
			if err := m.fill(ctx, need, first); err != nil {
				return rows, true, err
			}
			continue
		}
		s := m.head()
		if s == nil && m.inTurn && !m.accountsDone {
			if err := m.readAccountsPage(ctx); err != nil {
				return rows, true, err
			}
			continue
		}
		if s == nil {
			m.mu.Lock()
			m.ended = true
			m.mu.Unlock()
			return rows, false, nil
		}
		rows = append(rows, s.buf[0])
		s.buf = s.buf[1:]
		m.emitted++
	}
	return rows, !m.over(), nil
}

// over reports whether every account was read to its end and handed out.
func (m *MergedTransactions) over() bool {
	if !m.accountsDone {
		return false
	}
	for _, s := range m.streams {
		if !s.done || len(s.buf) > 0 {
			return false
		}
	}
	m.mu.Lock()
	m.ended = true
	m.mu.Unlock()
	return true
}

// readAccounts learns every account the token sees, newest first, or
// when they are too many to merge the first page of them.
func (m *MergedTransactions) readAccounts(ctx context.Context) error {
	if !m.accountsRead {
		if err := m.readAccountsPage(ctx); err != nil {
			return err
		}
		m.accountsRead = true
		most := MaxMergedAccounts
		if m.heads != nil {
			most = MaxMergedAccountsWithHeads
		}
		m.mu.Lock()
		m.inTurn = m.accounts > most
		m.mu.Unlock()
	}
	for !m.inTurn && !m.accountsDone {
		if err := m.readAccountsPage(ctx); err != nil {
			return err
		}
	}
	return nil
}

// readAccountsPage reads the next page of accounts, with each one's first
// rows when the pager can. A server that refuses that operation for a
// limit on the first page gets the accounts alone from then on.
func (m *MergedTransactions) readAccountsPage(ctx context.Context) error {
	after := m.accountsAfter
	ap := AccountsParams{First: platform.PageMax, After: after, OrderBy: OrderCreatedAt, Direction: DirectionDesc}
	if m.heads != nil {
		tp := m.base
		tp.First = m.headRows
		page, err := m.heads.AccountsTransactionHeads(ctx, ap, tp)
		var limit *OperationLimitError
		switch {
		case errors.As(err, &limit) && !m.accountsRead:
			m.heads = nil
		case err != nil:
			return err
		default:
			m.mu.Lock()
			defer m.mu.Unlock()
			for _, a := range page.Items {
				s := &txStream{id: a.AccountID}
				m.streams = append(m.streams, s)
				if err := m.take(s, a.Transactions); err != nil {
					return err
				}
			}
			m.accountsPageRead(after, page.PageInfo, page.TotalCount, len(page.Items))
			return nil
		}
	}
	page, err := m.src.Accounts(ctx, ap)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range page.Items {
		m.streams = append(m.streams, &txStream{id: a.ID})
	}
	m.accountsPageRead(after, page.PageInfo, page.TotalCount, len(page.Items))
	return nil
}

// accountsPageRead notes where the accounts go on after a page of n read
// from after; the caller holds m.mu.
func (m *MergedTransactions) accountsPageRead(after string, info PageInfo, total, n int) {
	m.accountsAfter = info.EndCursor
	m.accountsDone = !info.HasNextPage || n == 0 || m.accountsAfter == "" || m.accountsAfter == after
	m.accounts = max(total, len(m.streams))
}

// needed is the accounts whose next row is unknown: nothing buffered and
// more to read; in turn, the account being read, if so.
func (m *MergedTransactions) needed() []*txStream {
	if m.inTurn {
		for m.cur < len(m.streams) && m.streams[m.cur].done && len(m.streams[m.cur].buf) == 0 {
			m.cur++
		}
		if m.cur < len(m.streams) && !m.streams[m.cur].done && len(m.streams[m.cur].buf) == 0 {
			return m.streams[m.cur : m.cur+1]
		}
		return nil
	}
	var need []*txStream
	for _, s := range m.streams {
		if len(s.buf) == 0 && !s.done {
			need = append(need, s)
		}
	}
	return need
}

// head is the account whose next row comes first in the list, nil when
// every account is handed out; ties go to the account listed first. In
// turn it is the account being read.
func (m *MergedTransactions) head() *txStream {
	if m.inTurn {
		if m.cur < len(m.streams) && len(m.streams[m.cur].buf) > 0 {
			return m.streams[m.cur]
		}
		return nil
	}
	var best *txStream
	var bestKey time.Time
	for _, s := range m.streams {
		if len(s.buf) == 0 {
			continue
		}
		k := m.key(&s.buf[0])
		if best == nil || (m.desc && k.After(bestKey)) || (!m.desc && k.Before(bestKey)) {
			best, bestKey = s, k
		}
	}
	return best
}

// fill reads the next page of up to platform.MaxTopLevel of the accounts
// need in one request (with ahead, the rest of the request is filled with
// the accounts whose buffered rows run out first). first is the page size
// the caller waits for.
func (m *MergedTransactions) fill(ctx context.Context, need []*txStream, first int) error {
	chosen := need[:min(len(need), platform.MaxTopLevel)]
	// Once the first rows came with the accounts (heads is still set after
	// the first page), accounts run out one by one: a request for one of
	// them carries the next few to run out, or the list would cost a
	// request per account.
	if (m.ahead || m.heads != nil) && !m.inTurn && len(chosen) < platform.MaxTopLevel {
		chosen = append(chosen[:len(chosen):len(chosen)], m.soonest(platform.MaxTopLevel-len(chosen))...)
	}
	ps := make([]TransactionsParams, len(chosen))
	for i, s := range chosen {
		p := m.base
		p.AccountID, p.After = s.id, s.after
		if p.First <= 0 {
			p.First = min(first, platform.PageMax)
		}
		ps[i] = p
	}
	pages, err := m.src.AccountsTransactionPages(ctx, ps)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, s := range chosen {
		if err := m.take(s, pages[i]); err != nil {
			return err
		}
	}
	return nil
}

// take adds page, the next page of s's list, to what s holds; the caller
// holds m.mu.
func (m *MergedTransactions) take(s *txStream, page *Page[TransactionDetail]) error {
	if page == nil {
		// The account is gone, or no longer this token's: it has no rows
		// to merge.
		page = &Page[TransactionDetail]{}
	}
	if !s.started {
		s.started = true
		m.started++
		m.total += page.TotalCount
	}
	s.buf = append(s.buf, page.Items...)
	info := page.PageInfo
	switch {
	case !info.HasNextPage || len(page.Items) == 0:
		s.done = true
	case info.EndCursor == "" || info.EndCursor == s.after:
		return &PagingError{After: s.after, Reason: "the server said there were more pages but gave no cursor past this one"}
	default:
		s.after = info.EndCursor
	}
	return nil
}

// soonest is up to k accounts with more to read and rows buffered, those
// with the fewest first.
func (m *MergedTransactions) soonest(k int) []*txStream {
	var open []*txStream
	for _, s := range m.streams {
		if !s.done && len(s.buf) > 0 {
			open = append(open, s)
		}
	}
	slices.SortStableFunc(open, func(a, b *txStream) int { return cmp.Compare(len(a.buf), len(b.buf)) })
	return open[:min(len(open), k)]
}

// mergedList is a user's transactions across accounts as a List reads
// them. A walk merges afresh, reading ahead when it reads the whole list;
// the pages of a screen that pages through it follow one another through
// one merge kept between reads (a row's cursor is the number of rows up to
// it), and a read from anywhere else starts the merge afresh and reads up
// to there. Reads are one at a time; progress has a lock of its own.
type mergedList struct {
	src  TransactionPager
	base TransactionsParams
	mu   sync.Mutex // held across a read
	cur  atomic.Pointer[MergedTransactions]
}

func (l *mergedList) walk(ctx context.Context, all bool, size int, each func([]TransactionDetail, int) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := MergeTransactions(l.src, l.base, all)
	l.cur.Store(m)
	for {
		rows, more, err := m.Next(ctx, size)
		_, _, total, _ := m.Progress()
		if len(rows) > 0 || err == nil {
			if werr := each(rows, max(total, m.Emitted())); werr != nil {
				return werr
			}
		}
		if err != nil || !more || !all {
			return err
		}
	}
}

func (l *mergedList) page(ctx context.Context, after string, first int) (*Page[TransactionDetail], error) {
	from := 0
	if after != "" {
		n, err := strconv.Atoi(after)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("the list's cursor %q is not one of its own", after)
		}
		from = n
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.cur.Load()
	if m == nil || m.Emitted() != from {
		m = MergeTransactions(l.src, l.base, false)
		l.cur.Store(m)
		if from > 0 {
			if _, _, err := m.Next(ctx, from); err != nil {
				return nil, err
			}
		}
	}
	rows, more, err := m.Next(ctx, first)
	if len(rows) == 0 && err != nil {
		return nil, err
	}
	// Rows read before an error are handed out: the next read, from where
	// they end, meets the error again.
	_, _, total, _ := m.Progress()
	return &Page[TransactionDetail]{Items: rows, TotalCount: max(total, from+len(rows)), PageInfo: PageInfo{
		HasNextPage: more || err != nil, StartCursor: strconv.Itoa(from + 1), EndCursor: strconv.Itoa(from + len(rows)),
	}}, nil
}

func (l *mergedList) progress() MergeProgress {
	m := l.cur.Load()
	if m == nil {
		return MergeProgress{}
	}
	var p MergeProgress
	p.Started, p.Accounts, p.Total, p.Ended = m.Progress()
	p.InTurn = m.InTurn()
	return p
}
