package data

import (
	"encoding/base64"
	"slices"
	"strings"
)

// Viewer is who a token stands for: a project (sees every account) or a
// user (sees the accounts they are a member of).
type Viewer struct {
	Project bool
	UserID  string
}

// AccountQuery is one page request of the accounts connection.
type AccountQuery struct {
	Viewer        Viewer
	First         int
	After, Before string
	Statuses      []string
	PaymentLevels []string
	Search        string
	MainIBAN      string // spaces and case ignored; empty: any
	OrderBy       string // "createdAt" (default) | "updatedAt"
	Desc          bool
}

// Cursor is the opaque cursor of an account; it names the account, so the
// page after it can be found by a binary search in any order.
func (a *Account) Cursor() string { return encodeCursor("account", a.ID) }

func (s *Store) accountFromCursor(c string) (int32, bool) {
	id, ok := decodeCursor(c, "account")
	if !ok {
		return 0, false
	}
	idx, ok := s.byID[id]
	return idx, ok
}

// encodeCursor makes the opaque cursor of one item of a connection: it
// names the item, so a page can start after it whatever the order.
func encodeCursor(kind, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + id))
}

// decodeCursor returns the id an encodeCursor cursor of this kind names.
func decodeCursor(c, kind string) (string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", false
	}
	return strings.CutPrefix(string(raw), kind+":")
}

// view returns the viewer's accounts in ascending order of the field.
func (s *Store) view(v Viewer, orderBy string) []int32 {
	ids, _ := s.viewOf(v, orderBy)
	return ids
}

// viewOf is view that also says whose accounts they are: "" for the
// project, else the effective user read under the same lock, so a count
// cached under that name is the count of these accounts.
func (s *Store) viewOf(v Viewer, orderBy string) ([]int32, string) {
	if v.Project {
		if orderBy == "updatedAt" {
			return s.byUpdated, ""
		}
		return s.all, ""
	}
	s.mu.RLock()
	who := s.effectiveLocked(v.UserID)
	m := s.members[who]
	s.mu.RUnlock()
	switch {
	case m == nil:
		return nil, who
	case orderBy == "updatedAt":
		return m.byUpdated, who
	default:
		return m.byCreated, who
	}
}

// Accounts returns one page. Cost: O(log N + page) without filters; with
// filters the total count needs one pass over the viewer's accounts.
func (s *Store) Accounts(q AccountQuery) (Page[*Account], error) {
	v, who := s.viewOf(q.Viewer, q.OrderBy)
	f := filterOf(q)
	if iban := f.mainIBAN; iban != "" {
		// An IBAN names at most one account: the view shrinks to it, and
		// the other filters, cursors and counts apply as usual.
		v = nil
		if a, ok := s.AccountByIBAN(q.Viewer, iban); ok {
			v = []int32{a.idx}
		}
	}
	n := len(v)
	cmp := cmpIdx
	if q.OrderBy == "updatedAt" {
		cmp = s.cmpUpdated
	}
	// seek returns the ascending position of the cursor's account in v and
	// whether it is a member of v.
	seek := func(c string) (int, bool, error) {
		idx, ok := s.accountFromCursor(c)
		if !ok {
			return 0, false, ErrBadCursor
		}
		p, found := slices.BinarySearchFunc(v, idx, cmp)
		return p, found, nil
	}
	start, end, err := cursorWindow(n, q.After, q.Before, q.Desc, seek)
	if err != nil {
		return Page[*Account]{}, err
	}
	at := func(i int) int32 {
		if q.Desc {
			return v[n-1-i]
		}
		return v[i]
	}
	match := f.matcher()
	page := Page[*Account]{}
	if match == nil {
		page.TotalCount = n
	} else {
		f.viewer = who
		page.TotalCount = s.filteredCount(f, v, match)
	}
	i := start
	for ; i < end && len(page.Items) < q.First; i++ {
		a := &s.accounts[at(i)]
		if match == nil || match(a) {
			page.Items = append(page.Items, a)
		}
	}
	for ; i < end; i++ {
		if match == nil || match(&s.accounts[at(i)]) {
			page.HasNextPage = true
			break
		}
	}
	for j := min(start, n) - 1; j >= 0; j-- {
		if match == nil || match(&s.accounts[at(j)]) {
			page.HasPreviousPage = true
			break
		}
	}
	return page, nil
}

// cursorWindow is [start, end), the positions of an ascending view of n
// items between the cursors after and before ("" for none), in logical
// order (ascending, or descending when desc); seek gives a cursor's
// ascending position in the view and whether its item is a member.
func cursorWindow(n int, after, before string, desc bool, seek func(string) (int, bool, error)) (start, end int, err error) {
	start, end = 0, n
	if after != "" {
		p, found, err := seek(after)
		if err != nil {
			return 0, 0, err
		}
		if desc {
			start = n - p
		} else {
			start = p + b2i(found)
		}
	}
	if before != "" {
		p, found, err := seek(before)
		if err != nil {
			return 0, 0, err
		}
		if desc {
			end = n - p - b2i(found)
		} else {
			end = p
		}
	}
	return start, end, nil
}

// filterOf is the query's filters in canonical form, computed once per
// query for both the matcher and the count cache.
func filterOf(q AccountQuery) filter {
	return filter{
		statuses: maskOf(accountStatuses[:], q.Statuses),
		levels:   maskOf(paymentLevels[:], q.PaymentLevels),
		search:   strings.ToLower(strings.TrimSpace(q.Search)),
		mainIBAN: normalizeIBAN(q.MainIBAN),
	}
}

// matcher returns nil when nothing but mainIBAN (which shrinks the view
// instead) filters, so the unfiltered path stays O(page). Status and
// payment level compare bit masks.
func (f filter) matcher() func(*Account) bool {
	if f.statuses == 0 && f.levels == 0 && f.search == "" {
		return nil
	}
	return func(a *Account) bool {
		return (f.statuses == 0 || a.statusBit&f.statuses != 0) &&
			(f.levels == 0 || a.levelBit&f.levels != 0) &&
			(f.search == "" || strings.Contains(a.search, f.search))
	}
}

// maskOf ORs the bits of the listed values; a list naming only values
// that do not exist matches nothing, not everything.
func maskOf(vals, list []string) uint8 {
	var m uint8
	for _, v := range list {
		m |= bitOf(vals, v)
	}
	if len(list) > 0 && m == 0 {
		return 1 << 7 // no account has this bit
	}
	return m
}

// filter is an accounts query's filters and whose accounts they apply to;
// it keys the cached totalCount, which the order does not change.
type filter struct {
	viewer   string // "" for the project, else the effective user
	statuses uint8
	levels   uint8
	search   string
	mainIBAN string
}

// filteredCount counts the viewer's accounts that match, once per filter:
// walking a filtered connection page by page then costs O(page) per page.
func (s *Store) filteredCount(key filter, v []int32, match func(*Account) bool) int {
	return s.counts.getOr(key, func() int {
		n := 0
		for _, idx := range v {
			if match(&s.accounts[idx]) {
				n++
			}
		}
		return n
	})
}

// Account returns the account with this id if the viewer may see it.
func (s *Store) Account(v Viewer, id string) (*Account, bool) {
	idx, ok := s.byID[id]
	if !ok || !s.canSee(v, idx) {
		return nil, false
	}
	return &s.accounts[idx], true
}

// AccountByIBAN returns the account with this IBAN if the viewer may see it.
func (s *Store) AccountByIBAN(v Viewer, iban string) (*Account, bool) {
	idx, ok := s.byIBAN[normalizeIBAN(iban)]
	if !ok || !s.canSee(v, idx) {
		return nil, false
	}
	return &s.accounts[idx], true
}

// AllAccounts returns every generated account in creation order; callers
// must not modify them.
func (s *Store) AllAccounts() []*Account {
	out := make([]*Account, len(s.accounts))
	for i := range s.accounts {
		out[i] = &s.accounts[i]
	}
	return out
}

func (s *Store) canSee(v Viewer, idx int32) bool {
	if v.Project {
		return true
	}
	m := s.view(v, "createdAt")
	_, found := slices.BinarySearch(m, idx)
	return found
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
