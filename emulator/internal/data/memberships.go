package data

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Rights profiles of a membership.
const (
	profileFull       uint8 = iota // every right but legal representation
	profilePayments                // view, beneficiaries, payments
	profileViewer                  // view only
	profileCardholder              // a card, no view of the account
	profileLegalRep                // the holder's legal representative
)

// Membership statuses (AccountMembershipStatus).
const (
	MemberEnabled          = "Enabled"
	MemberInvitationSent   = "InvitationSent"
	MemberConsentPending   = "ConsentPending"
	MemberBindingUserError = "BindingUserError"
	MemberSuspended        = "Suspended"
	MemberDisabled         = "Disabled"
)

// maxSlots bounds the memberships of one account (legal representative,
// up to three more, up to five demo users) and sizes their positions.
const maxSlots = 16

// Membership is one person's access to one account.
type Membership struct {
	ID           string
	AccountIndex int32
	Slot         int
	// UserID is empty until someone is bound (an invitation still open).
	UserID              string
	Email               string
	FirstName, LastName string
	BirthDate           string
	Phone               string

	LegalRepresentative        bool
	CanViewAccount             bool
	CanManageBeneficiaries     bool
	CanInitiatePayments        bool
	CanManageAccountMembership bool
	CanManageCards             bool

	Status       string
	StatusReason string // Suspended and Disabled
	// BindingErrors names the identity fields that did not match
	// (BindingUserError): firstName, lastName, birthDate, phoneNumber.
	BindingErrors []string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	DisabledAt    time.Time
	Version       int
	SpendingLimit int64 // monthly, cents; 0 for none
	Language      string

	cards uint8
}

// memberPos is a membership's position: account and slot.
func memberPos(idx int32, slot int) uint64 { return uint64(idx)<<4 | uint64(slot) }

// shape is what a membership is, without texts: enough to count cards
// and filter by rights and status.
type shape struct {
	profile uint8
	status  string
	cards   uint8
	demo    int // index in Store.demo, -1 for generated members
}

// memberCount is the number of memberships of an account.
func (s *Store) memberCount(a *Account) int {
	return int(a.members) + bits.OnesCount8(s.demoMask[a.idx])
}

// demoAt is the demo user in a slot past the generated members.
func (s *Store) demoAt(a *Account, slot int) int {
	nth := slot - int(a.members)
	for m := s.demoMask[a.idx]; m != 0; m &= m - 1 {
		if nth == 0 {
			return bits.TrailingZeros8(m)
		}
		nth--
	}
	return -1
}

// slotOfDemo is the slot of a demo user's membership on an account.
func (s *Store) slotOfDemo(a *Account, d int) int {
	return int(a.members) + bits.OnesCount8(s.demoMask[a.idx]&(1<<d-1))
}

func (s *Store) shapeOf(a *Account, slot int) shape {
	h := newHrand(a.txSeed, uint64(slot), 0x6d656d62)
	sh := shape{demo: -1, status: MemberEnabled}
	switch {
	case slot == 0:
		sh.profile = profileLegalRep
		sh.cards = uint8(h.index(10, 70, 20))
	case slot < int(a.members):
		sh.profile = uint8(h.index(30, 25, 25, 20))
		sh.status = h.weighted([]string{MemberEnabled, MemberInvitationSent, MemberSuspended, MemberDisabled, MemberConsentPending, MemberBindingUserError}, []int{70, 8, 5, 12, 3, 2})
		sh.cards = uint8(h.index(50, 45, 5))
		if sh.profile == profileCardholder {
			sh.cards = 1
		}
	default:
		sh.demo = s.demoAt(a, slot)
		m := s.demoM[sh.demo]
		i, _ := slices.BinarySearch(m.byCreated, a.idx)
		sh.profile = m.profiles[i]
		sh.cards = uint8(h.index(40, 50, 10))
		if sh.profile == profileCardholder {
			sh.cards = 1
		}
	}
	if !bound(sh.status) {
		sh.cards = 0
	}
	return sh
}

// bound is whether a user is bound to a membership in this status.
func bound(status string) bool {
	return status == MemberEnabled || status == MemberSuspended || status == MemberDisabled
}

// slotTime is when the entity at an account-local position was created:
// memberships and their cards share the account's entity window in slot
// order, so sorting them by creation sorts them by position.
func (s *Store) entityTime(a *Account, slot, sub int) time.Time {
	w := min(s.entityWindow, a.UpdatedAt.Sub(a.CreatedAt))
	return a.CreatedAt.Add(w * time.Duration(slot*3+sub) / (maxSlots * 3)).Truncate(time.Millisecond)
}

// membership builds the membership in a slot.
func (s *Store) membership(a *Account, slot int) Membership {
	sh := s.shapeOf(a, slot)
	m := Membership{
		ID:           s.entityID(kindMembership, memberPos(a.idx, slot)),
		AccountIndex: a.idx,
		Slot:         slot,
		Status:       sh.status,
		CreatedAt:    s.entityTime(a, slot, 0),
		UpdatedAt:    a.UpdatedAt,
		Language:     a.Language,
		cards:        sh.cards,
	}
	switch sh.profile {
	case profileLegalRep:
		m.LegalRepresentative = true
		fallthrough
	case profileFull:
		m.CanViewAccount, m.CanManageBeneficiaries, m.CanInitiatePayments, m.CanManageAccountMembership, m.CanManageCards = true, true, true, true, true
	case profilePayments:
		m.CanViewAccount, m.CanManageBeneficiaries, m.CanInitiatePayments = true, true, true
	case profileViewer:
		m.CanViewAccount = true
	}
	h := newHrand(a.txSeed, uint64(slot), 0x70657273)
	m.Version = 1 + h.intn(4)
	if sh.profile != profileViewer {
		m.SpendingLimit = h.between(1_000, 5_000) * 100
	}
	if sh.profile == profileLegalRep {
		m.SpendingLimit = 1_000_000
	}
	if sh.demo >= 0 {
		u := s.demo[sh.demo]
		m.UserID, m.FirstName, m.LastName, m.BirthDate, m.Phone, m.Email = u.ID, u.FirstName, u.LastName, u.BirthDate, u.Phone, u.Email
		return m
	}
	p := s.person(a, slot)
	m.FirstName, m.LastName, m.BirthDate, m.Phone, m.Email = p.FirstName, p.LastName, p.BirthDate, p.Phone, p.Email
	if bound(m.Status) {
		m.UserID = p.ID
	}
	switch m.Status {
	case MemberSuspended:
		m.StatusReason = "Suspended by the account's legal representative"
	case MemberDisabled:
		m.StatusReason = h.pick([]string{"Left the company", "Access removed by the account's legal representative"})
		m.DisabledAt = a.UpdatedAt
	case MemberBindingUserError:
		m.BindingErrors = []string{h.pick([]string{"firstName", "lastName", "birthDate", "phoneNumber"})}
	}
	return m
}

// accountMemberships builds every membership of an account, by slot.
func (s *Store) accountMemberships(a *Account) []Membership {
	out := make([]Membership, s.memberCount(a))
	for slot := range out {
		out[slot] = s.membership(a, slot)
	}
	return out
}

// person is the generated user of a generated membership: the holder
// for an individual's legal representative, else someone from the
// account's country.
func (s *Store) person(a *Account, slot int) User {
	h := newHrand(a.txSeed, uint64(slot), 0x6e616d65)
	first, last := h.pick(firstNames[a.Country]), h.pick(lastNames[a.Country])
	if slot == 0 && a.HolderType == "Individual" {
		first, last, _ = strings.Cut(a.HolderName, " ")
	}
	created := s.entityTime(a, slot, 0)
	year := 1950 + h.intn(54)
	u := User{
		ID:               s.entityID(kindUser, memberPos(a.idx, slot)),
		FirstName:        first,
		LastName:         last,
		Phone:            phonePrefix[a.Country] + fmt.Sprintf("%08d", h.next()%100_000_000),
		BirthDate:        fmt.Sprintf("%04d-%02d-%02d", year, 1+h.intn(12), 1+h.intn(28)),
		BirthCity:        h.pick(cities[a.Country]),
		BirthCountry:     a.Country,
		Nationality:      a.Country,
		PVID:             true,
		QES:              h.intn(4) == 0,
		Expert:           h.intn(3) == 0,
		Status:           "Active",
		PreferredChannel: h.pick([]string{"Sms", "App"}),
		Email:            emailOf(first, last, a.Country),
		CreatedAt:        created,
		UpdatedAt:        a.UpdatedAt,
	}
	return u
}

// memberUser is the user bound to a generated membership, by user id.
func (s *Store) memberUser(id string) (User, bool) {
	pos, ok := s.decodeEntityID(kindUser, id)
	if !ok {
		return User{}, false
	}
	a, slot, ok := s.slotAt(pos)
	if !ok || slot >= int(a.members) || !bound(s.shapeOf(a, slot).status) {
		return User{}, false
	}
	return s.person(a, slot), true
}

// slotAt resolves a membership position.
func (s *Store) slotAt(pos uint64) (*Account, int, bool) {
	idx, slot := int64(pos>>4), int(pos&(maxSlots-1))
	if idx >= int64(len(s.accounts)) {
		return nil, 0, false
	}
	a := &s.accounts[idx]
	if slot >= s.memberCount(a) {
		return nil, 0, false
	}
	return a, slot, true
}

// emailOf is first.last@example.<country>, in ASCII.
func emailOf(first, last, country string) string {
	return fold(first) + "." + fold(last) + "@example." + tld[country]
}

// fold lower-cases a name into an email local part: accents dropped,
// spaces as hyphens.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
			b.WriteByte('-')
		default:
			if plain, ok := unaccented[r]; ok {
				b.WriteByte(plain)
			}
		}
	}
	return b.String()
}

var unaccented = map[rune]byte{
	'à': 'a', 'á': 'a', 'â': 'a', 'ä': 'a', 'ç': 'c', 'è': 'e', 'é': 'e', 'ê': 'e', 'ë': 'e',
	'í': 'i', 'î': 'i', 'ï': 'i', 'ñ': 'n', 'ó': 'o', 'ô': 'o', 'ö': 'o', 'ú': 'u', 'ü': 'u', 'ß': 's',
}

// chooseDemoAccounts picks a demo user's accounts and rights: about share
// percent of them, mostly with full rights. It always includes the newest
// open Unlimited account with some history (first in a createdAt desc
// list, its IBAN shown), a Limited account the user may view (IBAN hidden
// by the level) and a membership without canViewAccount (IBAN and history
// hidden by the right), so each client screen that depends on rights has
// a case to show.
func (s *Store) chooseDemoAccounts(share int, r *rand.Rand) ([]int32, []uint8) {
	n := len(s.accounts)
	anchor := n - 1
	for i := n - 1; i >= 0; i-- {
		if a := &s.accounts[i]; a.PaymentLevel == "Unlimited" && a.Status == "Opened" && a.sched.count >= 3 {
			anchor = i
			break
		}
	}
	// profile[i] is the user's rights on account i, noMember if none.
	const noMember = 0xff
	profile := make([]uint8, n)
	members := 0
	for i := range n {
		profile[i] = noMember
		if hit := r.IntN(100) < share; hit && i < anchor {
			h := newHrand(s.idSalt, uint64(i), uint64(share), 0x70726f66)
			profile[i] = uint8(h.index(75, 10, 8, 7))
			members++
		}
	}
	if anchor < 0 {
		return nil, nil
	}
	profile[anchor] = profileFull
	members++
	for members < min(4, anchor+1) {
		if i := r.IntN(anchor); profile[i] == noMember {
			profile[i] = profileFull
			members++
		}
	}
	// newest is the newest member account other than the anchor that ok
	// accepts, or -1.
	newest := func(ok func(i int) bool) int {
		for i := anchor - 1; i >= 0; i-- {
			if profile[i] != noMember && ok(i) {
				return i
			}
		}
		return -1
	}
	limited := func(i int) bool { return s.accounts[i].PaymentLevel == "Limited" }
	if newest(limited) < 0 {
		for i := anchor - 1; i >= 0; i-- {
			if limited(i) {
				profile[i] = profileFull
				members++
				break
			}
		}
	}
	viewLimited := newest(func(i int) bool { return limited(i) && profile[i] != profileCardholder })
	if l := newest(limited); viewLimited < 0 && l >= 0 {
		profile[l], viewLimited = profileFull, l
	}
	if members >= 3 && newest(func(i int) bool { return profile[i] == profileCardholder }) < 0 {
		c := newest(func(i int) bool { return !limited(i) })
		if c < 0 {
			c = newest(func(i int) bool { return i != viewLimited })
		}
		if c >= 0 {
			profile[c] = profileCardholder
		}
	}
	full := 0
	for i := range n {
		if profile[i] == profileFull {
			full++
		}
	}
	for ; full < 2; full++ {
		c := newest(func(i int) bool { return profile[i] == profilePayments || profile[i] == profileViewer })
		if c < 0 {
			break
		}
		profile[c] = profileFull
	}
	ids := make([]int32, 0, members)
	profiles := make([]uint8, 0, members)
	for i, p := range profile {
		if p != noMember {
			ids = append(ids, int32(i))
			profiles = append(profiles, p)
		}
	}
	return ids, profiles
}

// countEntities counts every account's cards, for totals and for
// skipping accounts without any.
func (s *Store) countEntities() {
	for i := range s.accounts {
		a := &s.accounts[i]
		var c int
		for slot := range s.memberCount(a) {
			c += int(s.shapeOf(a, slot).cards)
		}
		a.cards = uint8(c)
		s.membershipTotal += s.memberCount(a)
		s.cardTotal += c
	}
}

// MembershipFilter is AccountMembershipsFilterInput or
// MembershipsFilterInput; nil and empty fields do not filter.
type MembershipFilter struct {
	CanViewAccount, CanManageBeneficiaries, CanInitiatePayments *bool
	CanManageAccountMembership, CanManageCards                  *bool
	Statuses                                                    []string
	Email, FirstName, LastName, Search                          string
	AccountID                                                   string
	UserID                                                      string
}

func (f MembershipFilter) empty() bool {
	return f.CanViewAccount == nil && f.CanManageBeneficiaries == nil && f.CanInitiatePayments == nil &&
		f.CanManageAccountMembership == nil && f.CanManageCards == nil && len(f.Statuses) == 0 &&
		strings.TrimSpace(f.Email+f.FirstName+f.LastName+f.Search) == "" && f.UserID == ""
}

func (f MembershipFilter) key() string {
	b := func(p *bool) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatBool(*p)
	}
	return strings.Join([]string{b(f.CanViewAccount), b(f.CanManageBeneficiaries), b(f.CanInitiatePayments),
		b(f.CanManageAccountMembership), b(f.CanManageCards), strings.Join(f.Statuses, ","),
		strings.ToLower(f.Email), strings.ToLower(f.FirstName), strings.ToLower(f.LastName), strings.ToLower(f.Search), f.AccountID, f.UserID}, "\x00")
}

func (f MembershipFilter) matcher() func(Membership) bool {
	if f.empty() {
		return nil
	}
	eq := func(want *bool, got bool) bool { return want == nil || *want == got }
	// The terms are folded once here, not once per membership tested.
	norm := func(term string) string { return strings.ToLower(strings.TrimSpace(term)) }
	email, first, last, search := norm(f.Email), norm(f.FirstName), norm(f.LastName), norm(f.Search)
	has := func(field, term string) bool { return term == "" || strings.Contains(strings.ToLower(field), term) }
	return func(m Membership) bool {
		return eq(f.CanViewAccount, m.CanViewAccount) && eq(f.CanManageBeneficiaries, m.CanManageBeneficiaries) &&
			eq(f.CanInitiatePayments, m.CanInitiatePayments) && eq(f.CanManageAccountMembership, m.CanManageAccountMembership) &&
			eq(f.CanManageCards, m.CanManageCards) &&
			(len(f.Statuses) == 0 || slices.Contains(f.Statuses, m.Status)) &&
			(email == "" || strings.ToLower(m.Email) == email) &&
			has(m.FirstName, first) && has(m.LastName, last) &&
			(f.UserID == "" || m.UserID == f.UserID) &&
			(search == "" || has(m.FirstName+"\x00"+m.LastName+"\x00"+m.Email+"\x00"+m.ID, search))
	}
}

// MembershipQuery is one page request of a memberships connection.
type MembershipQuery struct {
	First         int
	After, Before string
	OrderBy       string // createdAt (default) | updatedAt
	Desc          bool
	Filter        MembershipFilter
}

// MembershipCursor is the opaque cursor of a membership.
func MembershipCursor(m *Membership) string { return encodeCursor("membership", m.ID) }

func (s *Store) membershipCursor(c string) (*cursorRef, error) {
	return s.nestedCursor(c, "membership", kindMembership, 4)
}

// pageMemberships runs a query over a nested list of memberships.
func (s *Store) pageMemberships(n *nested[Membership], q MembershipQuery, total func() int) (Page[Membership], error) {
	after, err := s.membershipCursor(q.After)
	if err != nil {
		return Page[Membership]{}, err
	}
	before, err := s.membershipCursor(q.Before)
	if err != nil {
		return Page[Membership]{}, err
	}
	n.rank = func(m Membership) int { return m.Slot }
	n.match = q.Filter.matcher()
	p := n.page(q.First, after, before, q.Desc)
	p.TotalCount = total()
	return p, nil
}

// AccountMemberships pages the memberships of one account, which the
// caller has checked the viewer may see.
func (s *Store) AccountMemberships(a *Account, q MembershipQuery) (Page[Membership], error) {
	n := &nested[Membership]{view: []int32{a.idx}, cmp: cmpIdx, items: func(int32) []Membership { return s.accountMemberships(a) }}
	return s.pageMemberships(n, q, func() int {
		if q.Filter.empty() {
			return s.memberCount(a)
		}
		return n.count(nil)
	})
}

// UserMemberships pages a user's own memberships, one per account, in
// the order of their accounts. Another user token sees only those on
// accounts it may see itself.
func (s *Store) UserMemberships(v Viewer, userID string, q MembershipQuery) (Page[Membership], error) {
	if !v.Project && s.Effective(v.UserID) == userID {
		v = Viewer{Project: true}
	}
	if pos, ok := s.decodeEntityID(kindUser, userID); ok {
		// A generated member has exactly one membership.
		a, slot, ok := s.slotAt(pos)
		if !ok || slot >= int(a.members) {
			return Page[Membership]{}, nil
		}
		var view []int32
		if s.canSee(v, a.idx) {
			view = []int32{a.idx}
		}
		n := &nested[Membership]{view: view, cmp: cmpIdx, items: func(int32) []Membership { return []Membership{s.membership(a, slot)} }}
		return s.pageMemberships(n, q, func() int { return n.count(func(int32) int { return 1 }) })
	}
	s.mu.RLock()
	m := s.members[userID]
	s.mu.RUnlock()
	var view []int32
	cmp := cmpIdx
	if m != nil && m.demo >= 0 {
		view = m.byCreated
		if q.OrderBy == "updatedAt" {
			view, cmp = m.byUpdated, s.cmpUpdated
		}
	}
	if q.Filter.AccountID != "" {
		view = restrict(view, s.byID, q.Filter.AccountID, cmp)
	}
	if !v.Project {
		view = slices.DeleteFunc(slices.Clone(view), func(idx int32) bool { return !s.canSee(v, idx) })
	}
	n := &nested[Membership]{view: view, cmp: cmp, items: func(idx int32) []Membership {
		a := &s.accounts[idx]
		return []Membership{s.membership(a, s.slotOfDemo(a, m.demo))}
	}}
	return s.pageMemberships(n, q, func() int {
		if q.Filter.empty() {
			return len(view)
		}
		return s.listCounts.getOr("um|"+userID+"|"+s.viewerKey(v)+"|"+q.Filter.key(), func() int { return n.count(nil) })
	})
}

// Memberships is the root accountMemberships: every membership of the
// project for a project token, the user's own for a user token.
func (s *Store) Memberships(v Viewer, q MembershipQuery) (Page[Membership], error) {
	if !v.Project {
		return s.UserMemberships(v, s.Effective(v.UserID), q)
	}
	view, cmp := s.all, cmpIdx
	if q.OrderBy == "updatedAt" {
		view, cmp = s.byUpdated, s.cmpUpdated
	}
	if q.Filter.AccountID != "" {
		view = restrict(view, s.byID, q.Filter.AccountID, cmp)
	}
	n := &nested[Membership]{view: view, cmp: cmp, items: func(idx int32) []Membership { return s.accountMemberships(&s.accounts[idx]) }}
	return s.pageMemberships(n, q, func() int {
		switch {
		case q.Filter.empty() && q.Filter.AccountID == "":
			return s.membershipTotal
		case q.Filter.empty():
			return n.count(func(idx int32) int { return s.memberCount(&s.accounts[idx]) })
		}
		return s.listCounts.getOr("pm|"+q.Filter.key(), func() int { return n.count(nil) })
	})
}

// Membership returns the membership with this id if the viewer may see
// its account.
func (s *Store) Membership(v Viewer, id string) (Membership, bool) {
	pos, ok := s.decodeEntityID(kindMembership, id)
	if !ok {
		return Membership{}, false
	}
	a, slot, ok := s.slotAt(pos)
	if !ok || !s.canSee(v, a.idx) {
		return Membership{}, false
	}
	return s.membership(a, slot), true
}

// CanViewAccount is whether the viewer may read the account's balances,
// history and (with paymentLevel Unlimited) IBAN: always for a project
// token, for a user token only through a membership with canViewAccount.
func (s *Store) CanViewAccount(v Viewer, a *Account) bool {
	if v.Project {
		return true
	}
	s.mu.RLock()
	m := s.members[s.effectiveLocked(v.UserID)]
	s.mu.RUnlock()
	if m == nil || m.demo < 0 {
		return false
	}
	i, found := slices.BinarySearch(m.byCreated, a.idx)
	return found && m.profiles[i] != profileCardholder
}

// AccountOfIndex returns an account by its index in creation order.
func (s *Store) AccountOfIndex(idx int32) *Account { return &s.accounts[idx] }

func cmpIdx(x, y int32) int { return int(x) - int(y) }

// viewerKey names a viewer in count cache keys: whose accounts it sees.
func (s *Store) viewerKey(v Viewer) string {
	if v.Project {
		return "project"
	}
	return "user:" + s.Effective(v.UserID)
}

// restrict narrows a view to the account with this id, if it is in it.
func restrict(view []int32, byID map[string]int32, id string, cmp func(x, y int32) int) []int32 {
	idx, ok := byID[id]
	if !ok {
		return nil
	}
	if _, found := slices.BinarySearchFunc(view, idx, cmp); !found {
		return nil
	}
	return []int32{idx}
}
