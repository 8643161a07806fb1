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
	OrderBy       string // "createdAt" (default) | "updatedAt"
	Desc          bool
}

// AccountPage is one page of the connection.
type AccountPage struct {
	TotalCount      int
	Accounts        []*Account
	HasNextPage     bool
	HasPreviousPage bool
}

// Cursor is the opaque cursor of an account; it names the account, so the
// page after it can be found by a binary search in any order.
func (a *Account) Cursor() string {
	return base64.RawURLEncoding.EncodeToString([]byte("account:" + a.ID))
}

func (s *Store) accountFromCursor(c string) (int32, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	id, ok := strings.CutPrefix(string(raw), "account:")
	if !ok {
		return 0, false
	}
	idx, ok := s.byID[id]
	return idx, ok
}

// view returns the viewer's accounts in ascending order of the field.
func (s *Store) view(v Viewer, orderBy string) []int32 {
	if v.Project {
		if orderBy == "updatedAt" {
			return s.byUpdated
		}
		return s.all
	}
	s.mu.RLock()
	m := s.members[s.effectiveLocked(v.UserID)]
	s.mu.RUnlock()
	if m == nil {
		return nil
	}
	if orderBy == "updatedAt" {
		return m.byUpdated
	}
	return m.byCreated
}

// Accounts returns one page. Cost: O(log N + page) without filters; with
// filters the total count needs one pass over the viewer's accounts.
func (s *Store) Accounts(q AccountQuery) (AccountPage, error) {
	v := s.view(q.Viewer, q.OrderBy)
	n := len(v)
	cmp := func(x, y int32) int { return int(x) - int(y) }
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
	// [start, end) in logical order (ascending, or descending when Desc).
	start, end := 0, n
	if q.After != "" {
		p, found, err := seek(q.After)
		if err != nil {
			return AccountPage{}, err
		}
		if q.Desc {
			start = n - p
		} else {
			start = p + b2i(found)
		}
	}
	if q.Before != "" {
		p, found, err := seek(q.Before)
		if err != nil {
			return AccountPage{}, err
		}
		if q.Desc {
			end = n - p - b2i(found)
		} else {
			end = p
		}
	}
	at := func(i int) int32 {
		if q.Desc {
			return v[n-1-i]
		}
		return v[i]
	}
	match := s.matcher(q)
	page := AccountPage{}
	if match == nil {
		page.TotalCount = n
	} else {
		page.TotalCount = s.filteredCount(q, v, match)
	}
	i := start
	for ; i < end && len(page.Accounts) < q.First; i++ {
		a := &s.accounts[at(i)]
		if match == nil || match(a) {
			page.Accounts = append(page.Accounts, a)
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

// matcher returns nil when the query has no filter, so the unfiltered path
// stays O(page). Status and payment level compare bit masks.
func (s *Store) matcher(q AccountQuery) func(*Account) bool {
	search := strings.ToLower(strings.TrimSpace(q.Search))
	statuses, levels := maskOf(accountStatuses[:], q.Statuses), maskOf(paymentLevels[:], q.PaymentLevels)
	if statuses == 0 && levels == 0 && search == "" {
		return nil
	}
	return func(a *Account) bool {
		return (statuses == 0 || a.statusBit&statuses != 0) &&
			(levels == 0 || a.levelBit&levels != 0) &&
			(search == "" || strings.Contains(a.search, search))
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

// countKey identifies a filtered totalCount; the order does not change it.
type countKey struct {
	viewer   string // "" for the project, else the effective user
	statuses uint8
	levels   uint8
	search   string
}

// maxCounts bounds the count cache; it is cleared when full.
const maxCounts = 256

// filteredCount counts the viewer's accounts that match, once per filter:
// walking a filtered connection page by page then costs O(page) per page.
func (s *Store) filteredCount(q AccountQuery, v []int32, match func(*Account) bool) int {
	key := countKey{
		statuses: maskOf(accountStatuses[:], q.Statuses),
		levels:   maskOf(paymentLevels[:], q.PaymentLevels),
		search:   strings.ToLower(strings.TrimSpace(q.Search)),
	}
	if !q.Viewer.Project {
		key.viewer = s.Effective(q.Viewer.UserID)
	}
	s.countMu.Lock()
	n, ok := s.counts[key]
	s.countMu.Unlock()
	if ok {
		return n
	}
	for _, idx := range v {
		if match(&s.accounts[idx]) {
			n++
		}
	}
	s.countMu.Lock()
	if len(s.counts) >= maxCounts {
		clear(s.counts)
	}
	s.counts[key] = n
	s.countMu.Unlock()
	return n
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
