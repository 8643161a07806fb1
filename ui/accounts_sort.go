package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// The account list's orders. The platform orders accounts by creation or
// update only (AccountOrderByFieldInput): those are read a page at a time
// as the list is scrolled, from either end. Name, balance and status are
// orders of this side: the whole list is read (a request per 100
// accounts, none when every row is loaded already) and sorted here; so is
// a search by a part of an IBAN, which the platform cannot match.
const (
	sortCreated = api.OrderCreatedAt
	sortUpdated = api.OrderUpdatedAt
	sortName    = "name"
	sortBalance = "balance"
	sortStatus  = "status"
)

// sortOrders are the orders o goes through, in turn.
var sortOrders = []string{sortCreated, sortUpdated, sortName, sortBalance, sortStatus}

// serverOrder reports whether the platform sorts by order.
func serverOrder(order string) bool { return order == sortCreated || order == sortUpdated }

// orderText is how the status line says the order ("by name, A to Z").
func orderText(order string, reverse bool) string {
	pick := func(usual, reversed string) string {
		if reverse {
			return reversed
		}
		return usual
	}
	switch order {
	case sortUpdated:
		return "by updated, " + pick("newest first", "oldest first")
	case sortName:
		return "by name, " + pick("A to Z", "Z to A")
	case sortBalance:
		return "by balance, " + pick("highest first", "lowest first")
	case sortStatus:
		return "by status, " + pick("Opened first", "Closed first")
	}
	return "by created, " + pick("newest first", "oldest first")
}

// statusRank is an account status's place in the schema's AccountStatus,
// which is its life: Opened, Suspended, Closing, Closed; others after.
func statusRank(status string) int {
	if i := slices.Index([]string{"Opened", "Suspended", "Closing", "Closed"}, status); i >= 0 {
		return i
	}
	return 4
}

// available is an account's available balance as a number; ok is false
// for an account without one (Limited, or hidden), which sorts last.
func available(a *api.Account) (float64, bool) {
	if a.Balances == nil || a.Balances.Available.Value == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(a.Balances.Available.Value, 64)
	return v, err == nil
}

// sortAccounts sorts rows by order (not a server order) in the direction
// asked: names as a reader of any language expects them (Élodie beside
// Elise, not after Zoé), then by holder; balances compared as numbers
// whatever their currency, accounts without one last either way; equals
// in the order they came.
func sortAccounts(rows []api.Account, order string, reverse bool) {
	col := collate.New(language.Und, collate.IgnoreCase, collate.IgnoreWidth)
	var buf collate.Buffer
	keys := make(map[string][]byte, len(rows))
	key := func(s string) []byte {
		k, ok := keys[s]
		if !ok {
			k = slices.Clone(col.KeyFromString(&buf, s))
			buf.Reset()
			keys[s] = k
		}
		return k
	}
	flip := func(c int) int {
		if reverse {
			return -c
		}
		return c
	}
	slices.SortStableFunc(rows, func(a, b api.Account) int {
		switch order {
		case sortName:
			if c := compareBytes(key(a.Name), key(b.Name)); c != 0 {
				return flip(c)
			}
			if c := compareBytes(key(a.Holder.Info.Name), key(b.Holder.Info.Name)); c != 0 {
				return flip(c)
			}
		case sortBalance:
			va, oka := available(&a)
			vb, okb := available(&b)
			switch {
			case oka != okb && oka:
				return -1
			case oka != okb:
				return 1
			case va > vb:
				return flip(-1)
			case va < vb:
				return flip(1)
			}
		case sortStatus:
			if c := statusRank(a.StatusInfo.Status) - statusRank(b.StatusInfo.Status); c != 0 {
				return flip(c)
			}
		}
		// Among equals, the order the list was in.
		return 0
	})
}

func compareBytes(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(a) - len(b)
}

// wholeRead is the whole account list of a search, read once for the
// orders of this side and kept while the user tries them: a change of
// order sorts what was read again, r reads it again. Its commands fill
// it, so it is safe for concurrent use; read and of say how far a read
// has come (the status line shows it).
type wholeRead struct {
	mu     sync.Mutex
	search string // the search the rows are of
	order  string // the server order they are in (readOrder)
	rows   []api.Account
	ok     bool

	read, of atomic.Int64
	reading  atomic.Bool
}

// readOrder names the order a list was read in: the server's order and
// direction.
func readOrder(p api.AccountsParams) string { return p.OrderBy + " " + p.Direction }

// keep makes rows, in the server order order, the list of search (read
// by a query, or every row of the list on screen, loaded already).
func (w *wholeRead) keep(search, order string, rows []api.Account) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.search, w.order, w.rows, w.ok = search, order, rows, true
}

// kept is the list of search if it is kept, in the server order order
// ("" for any).
func (w *wholeRead) kept(search, order string) ([]api.Account, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ok || w.search != search || (order != "" && w.order != order) {
		return nil, false
	}
	return slices.Clone(w.rows), true
}

// load reads every account of p from a, a page at a time.
func (w *wholeRead) load(ctx context.Context, a API, search string, p api.AccountsParams) ([]api.Account, error) {
	w.read.Store(0)
	w.of.Store(0)
	w.reading.Store(true)
	defer w.reading.Store(false)
	p.After = ""
	if p.IBANPart != "" {
		// The part is matched on every account: say how far it has read.
		ctx = api.WithScanProgress(ctx, func(read, of int) { w.read.Store(int64(read)); w.of.Store(int64(of)) })
	}
	var rows []api.Account
	err := api.Walk(ctx, api.Pages(a.Accounts, p), func(page *api.Page[api.Account]) error {
		rows = append(rows, page.Items...)
		if p.IBANPart == "" {
			w.read.Store(int64(len(rows)))
			w.of.Store(int64(page.TotalCount))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	w.keep(search, readOrder(p), rows)
	return slices.Clone(rows), nil
}

// progress says how far the read in flight has come ("" when none is):
// "300 of 10000".
func (w *wholeRead) progress() string {
	if !w.reading.Load() {
		return ""
	}
	if of := w.of.Load(); of > 0 {
		return fmt.Sprintf("%d of %d", w.read.Load(), of)
	}
	return ""
}

// wholeFetch is the fetch of a query read whole: the first read takes the
// list kept for its search if there is one (a change of order costs no
// request), every later one (r) reads it again; the rows come sorted, as
// one page.
func (q accountsQuery) wholeFetch(a API, w *wholeRead) pagedlist.Fetch[api.Account] {
	var again atomic.Bool
	p := q.params(a)
	// An order of this side sorts the list read in any order; a part of
	// an IBAN in the platform's order is the list read in that order.
	order := ""
	if serverOrder(q.order) {
		order = readOrder(p)
	}
	return func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[api.Account], error) {
		rows, ok := []api.Account(nil), false
		// The query's first read takes what is kept; a refresh's reads
		// other than its top one (the rows around the cursor, the end)
		// are the same whole list: they take what the top one reads.
		if top := r.After == "" && !r.Reverse; !top || !again.Swap(true) {
			rows, ok = w.kept(q.search, order)
		}
		if !ok {
			var err error
			if rows, err = w.load(ctx, a, q.search, p); err != nil {
				return pagedlist.Page[api.Account]{}, err
			}
		}
		if !serverOrder(q.order) {
			sortAccounts(rows, q.order, q.reverse)
		}
		if r.Reverse {
			slices.Reverse(rows)
		}
		if r.After != "" {
			if i := slices.IndexFunc(rows, func(a api.Account) bool { return a.ID == r.After }); i >= 0 {
				rows = rows[i+1:]
			}
		}
		page := pagedlist.Page[api.Account]{Rows: rows, Total: len(rows)}
		if len(rows) > 0 {
			page.StartCursor, page.EndCursor = rows[0].ID, rows[len(rows)-1].ID
		}
		return page, nil
	}
}
