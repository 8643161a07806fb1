package data

import (
	"slices"
	"strings"
	"time"
)

// Card statuses (CardStatus).
const (
	CardEnabled        = "Enabled"
	CardProcessing     = "Processing"
	CardConsentPending = "ConsentPending"
	CardCanceling      = "Canceling"
	CardCanceled       = "Canceled"
)

// Card is a payment card of a membership.
type Card struct {
	ID              string
	AccountIndex    int32
	Slot            int // the membership's slot
	N               int // the card's index within its membership
	MembershipID    string
	Type            string // CardType
	Status          string
	StatusReason    string // Canceled and Canceling
	Name            string // empty: no name
	MaskedNumber    string
	ExpiryDate      string // MM/YY
	ContractExpiry  time.Time
	Withdrawal      bool
	International   bool
	NonMainCurrency bool
	ECommerce       bool
	SpendingLimit   int64 // monthly, cents
	Currency        string
	Country         string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// cardsPerMembership bounds a membership's cards and sizes positions.
const cardsPerMembership = 2

func cardRank(slot, n int) int { return slot*cardsPerMembership + n }

// card builds card n of a membership.
func (s *Store) card(a *Account, m *Membership, n int) Card {
	h := newHrand(a.txSeed, uint64(m.Slot), uint64(n), 0x63617264)
	created := s.entityTime(a, m.Slot, 1+n)
	c := Card{
		ID:           s.entityID(kindCard, uint64(a.idx)<<8|uint64(cardRank(m.Slot, n))),
		AccountIndex: a.idx,
		Slot:         m.Slot,
		N:            n,
		MembershipID: m.ID,
		Type:         h.weighted([]string{"Virtual", "VirtualAndPhysical", "SingleUseVirtual"}, []int{45, 50, 5}),
		Status:       h.weighted([]string{CardEnabled, CardProcessing, CardConsentPending, CardCanceling, CardCanceled}, []int{88, 3, 3, 1, 5}),
		MaskedNumber: maskedPAN(a.txSeed ^ uint64(cardRank(m.Slot, n))<<32),
		Currency:     a.Currency,
		Country:      a.Country,
		CreatedAt:    created,
		UpdatedAt:    a.UpdatedAt,
	}
	c.ContractExpiry = created.AddDate(4, 0, 0).Truncate(day)
	c.ExpiryDate = c.ContractExpiry.Format("01/06")
	physical := c.Type == "VirtualAndPhysical"
	c.Withdrawal = physical && h.intn(5) != 0
	c.International = h.intn(3) != 0
	c.NonMainCurrency = c.International && h.intn(2) == 0
	c.ECommerce = h.intn(10) != 0
	c.SpendingLimit = h.between(5, 50) * 10_000
	if name := h.pick([]string{"", "", "Travel", "Online shopping", "Fuel", "Team card", "Subscriptions"}); name != "" {
		c.Name = name
	} else if n == 0 {
		c.Name = m.FirstName + " " + m.LastName
	}
	switch {
	case a.Status == "Closed":
		c.Status, c.StatusReason = CardCanceled, "The account is closed"
	case m.Status == MemberDisabled:
		c.Status, c.StatusReason = CardCanceled, "The account membership is disabled"
	case c.Status == CardCanceled:
		c.StatusReason = h.pick([]string{"Card lost", "Card stolen", "Canceled by the cardholder"})
	case c.Status == CardCanceling:
		c.StatusReason = "Canceled by the cardholder"
	}
	return c
}

// membershipCards builds the cards of one membership.
func (s *Store) membershipCards(a *Account, m *Membership) []Card {
	out := make([]Card, m.cards)
	for n := range out {
		out[n] = s.card(a, m, n)
	}
	return out
}

// accountCards builds every card of an account, by membership slot.
func (s *Store) accountCards(a *Account) []Card {
	if a.cards == 0 {
		return nil
	}
	out := make([]Card, 0, a.cards)
	for _, m := range s.accountMemberships(a) {
		out = append(out, s.membershipCards(a, &m)...)
	}
	return out
}

// CardFilter is CardFiltersInput; empty fields do not filter.
type CardFilter struct {
	Statuses  []string // statuses, and the deprecated status
	Types     []string // types, and the deprecated type
	Search    string
	AccountID string
	UserID    string
}

func (f CardFilter) key() string {
	return strings.Join([]string{strings.Join(f.Statuses, ","), strings.Join(f.Types, ","), strings.ToLower(f.Search), f.AccountID, f.UserID}, "\x00")
}

// matcher tests everything but AccountID and UserID, which narrow the
// list instead.
func (f CardFilter) matcher() func(Card) bool {
	search := strings.ToLower(strings.TrimSpace(f.Search))
	if len(f.Statuses) == 0 && len(f.Types) == 0 && search == "" {
		return nil
	}
	return func(c Card) bool {
		return (len(f.Statuses) == 0 || slices.Contains(f.Statuses, c.Status)) &&
			(len(f.Types) == 0 || slices.Contains(f.Types, c.Type)) &&
			(search == "" || strings.Contains(strings.ToLower(c.ID+"\x00"+c.MaskedNumber+"\x00"+c.Name), search))
	}
}

// CardQuery is one page request of a cards connection.
type CardQuery struct {
	First         int
	After, Before string
	OrderBy       string // id | createdAt (default) | updatedAt
	Desc          bool
	Filter        CardFilter
}

// CardCursor is the opaque cursor of a card.
func CardCursor(c *Card) string { return encodeCursor("card", c.ID) }

func (s *Store) cardCursor(c string) (*cursorRef, error) {
	return s.nestedCursor(c, "card", kindCard, 8)
}

func (s *Store) pageCards(n *nested[Card], q CardQuery, total func() int) (Page[Card], error) {
	after, err := s.cardCursor(q.After)
	if err != nil {
		return Page[Card]{}, err
	}
	before, err := s.cardCursor(q.Before)
	if err != nil {
		return Page[Card]{}, err
	}
	n.rank = func(c Card) int { return cardRank(c.Slot, c.N) }
	n.match = q.Filter.matcher()
	p := n.page(q.First, after, before, q.Desc)
	p.TotalCount = total()
	return p, nil
}

// cardView is the accounts a card list walks, in the query's order.
func (s *Store) cardView(view []int32, orderBy, accountID string) ([]int32, func(x, y int32) int) {
	cmp := cmpIdx
	if orderBy == "updatedAt" {
		cmp = s.cmpUpdated
	}
	if accountID != "" {
		view = restrict(view, s.byID, accountID, cmp)
	}
	return view, cmp
}

// Cards is the root cards: every card of the project for a project
// token (filters.userId narrows to one user's cards), the user's own
// cards for a user token.
func (s *Store) Cards(v Viewer, q CardQuery) (Page[Card], error) {
	userID := q.Filter.UserID
	if !v.Project {
		userID = s.Effective(v.UserID)
	}
	if userID != "" {
		return s.userCards(userID, q)
	}
	all := s.all
	if q.OrderBy == "updatedAt" {
		all = s.byUpdated
	}
	view, cmp := s.cardView(all, q.OrderBy, q.Filter.AccountID)
	n := &nested[Card]{view: view, cmp: cmp, items: func(idx int32) []Card { return s.accountCards(&s.accounts[idx]) }}
	return s.pageCards(n, q, func() int {
		size := func(idx int32) int { return int(s.accounts[idx].cards) }
		switch {
		case n.match == nil && q.Filter.AccountID == "":
			return s.cardTotal
		case n.match == nil:
			return n.count(size)
		}
		return s.listCounts.getOr("pc|"+q.Filter.key(), func() int { return n.count(size) })
	})
}

// userCards pages the cards of one user's memberships.
func (s *Store) userCards(userID string, q CardQuery) (Page[Card], error) {
	// A generated member has one membership; a demo user one per account.
	var view []int32
	slotOf := func(*Account) int { return -1 }
	if pos, ok := s.decodeEntityID(kindUser, userID); ok {
		if a, slot, ok := s.slotAt(pos); ok && slot < int(a.members) {
			view = []int32{a.idx}
			slotOf = func(*Account) int { return slot }
		}
	} else {
		s.mu.RLock()
		m := s.members[userID]
		s.mu.RUnlock()
		if m != nil && m.demo >= 0 {
			view = m.byCreated
			if q.OrderBy == "updatedAt" {
				view = m.byUpdated
			}
			slotOf = func(a *Account) int { return s.slotOfDemo(a, m.demo) }
		}
	}
	view, cmp := s.cardView(view, q.OrderBy, q.Filter.AccountID)
	n := &nested[Card]{view: view, cmp: cmp, items: func(idx int32) []Card {
		a := &s.accounts[idx]
		m := s.membership(a, slotOf(a))
		return s.membershipCards(a, &m)
	}}
	return s.pageCards(n, q, func() int {
		return s.listCounts.getOr("uc|"+userID+"|"+q.OrderBy+"|"+q.Filter.key(), func() int {
			return n.count(func(idx int32) int {
				a := &s.accounts[idx]
				return int(s.shapeOf(a, slotOf(a)).cards)
			})
		})
	})
}

// MembershipCards pages the cards of one membership.
func (s *Store) MembershipCards(m Membership, q CardQuery) (Page[Card], error) {
	a := &s.accounts[m.AccountIndex]
	var view []int32
	if q.Filter.AccountID == "" || q.Filter.AccountID == a.ID {
		view = []int32{a.idx}
	}
	n := &nested[Card]{view: view, cmp: cmpIdx, items: func(int32) []Card { return s.membershipCards(a, &m) }}
	return s.pageCards(n, q, func() int { return n.count(func(int32) int { return int(m.cards) }) })
}

// Card returns the card with this id if the viewer may see its account.
func (s *Store) Card(v Viewer, id string) (Card, bool) {
	pos, ok := s.decodeEntityID(kindCard, id)
	if !ok {
		return Card{}, false
	}
	rank := int(pos & 0xff)
	a, slot, ok := s.slotAt(memberPos(int32(pos>>8), rank/cardsPerMembership))
	if !ok || !s.canSee(v, a.idx) {
		return Card{}, false
	}
	m := s.membership(a, slot)
	if n := rank % cardsPerMembership; n < int(m.cards) {
		return s.card(a, &m, n), true
	}
	return Card{}, false
}

// CardMembership returns the membership holding a card.
func (s *Store) CardMembership(c Card) Membership {
	return s.membership(&s.accounts[c.AccountIndex], c.Slot)
}

// CardDesignURL is the image of the card's design.
func CardDesignURL(c Card) string {
	return "https://cards.example.com/designs/" + strings.ToLower(c.Type) + ".png"
}
