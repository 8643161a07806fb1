package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operation names of the cards.
const (
	OpCards           = "Cards"
	OpMembershipCards = "MembershipCards"
	OpCard            = "Card"
)

var (
	cardsOp           = declareQuery[cardsQuery](OpCards, func() map[string]any { return CardsParams{}.vars(platform.PageMax) })
	membershipCardsOp = declareQuery[membershipCardsQuery](OpMembershipCards, func() map[string]any {
		return CardsParams{MembershipID: "x"}.vars(platform.PageMax)
	})
	cardOp = declareQuery[cardQuery](OpCard, func() map[string]any { return map[string]any{"cardId": graphql.ID("")} })
)

// CardStatusInfo is Card.statusInfo with the fields of its concrete type.
type CardStatusInfo struct {
	Status  string   `json:"status"`           // CardStatus
	Reason  string   `json:"reason,omitempty"` // Canceled, Canceling
	Consent *Consent `json:"consent,omitempty"`
}

// SpendingLimit is the schema's SpendingLimit.
type SpendingLimit struct {
	Type   string `json:"type"`   // AccountHolder | Partner
	Period string `json:"period"` // Monthly | Weekly | Daily | Always
	Amount Amount `json:"amount"`
}

// CardMembership is the membership a card belongs to.
type CardMembership struct {
	ID        string          `json:"id"`
	Email     string          `json:"email,omitempty"`
	AccountID string          `json:"accountId"`
	User      *MembershipUser `json:"user,omitempty"`
}

// Card is the schema's Card (the fields the app shows).
type Card struct {
	ID                string          `json:"id"`
	Type              string          `json:"type"` // CardType
	Name              string          `json:"name,omitempty"`
	CardMaskedNumber  string          `json:"cardMaskedNumber"`
	ExpiryDate        string          `json:"expiryDate,omitempty"` // MM/YY as the server writes it
	StatusInfo        CardStatusInfo  `json:"statusInfo"`
	Withdrawal        bool            `json:"withdrawal"`
	International     bool            `json:"international"`
	ECommerce         bool            `json:"eCommerce"`
	SpendingLimits    []SpendingLimit `json:"spendingLimits,omitempty"`
	AccountMembership *CardMembership `json:"accountMembership,omitempty"`
	CreatedAt         time.Time       `json:"createdAt,omitzero"`
	UpdatedAt         time.Time       `json:"updatedAt,omitzero"`
}

// CardsParams are the arguments of one cards request.
type CardsParams struct {
	First int    // page size; 0 means the client's page size
	After string // cursor; "" for the first page
	// MembershipID lists one membership's cards (AccountMembership.cards, a
	// missing membership is ErrNotFound); "" lists every card the token
	// sees (Query.cards).
	MembershipID string
	AccountID    string   // filters.accountId
	UserID       string   // filters.userId
	Search       string   // filters.search
	Statuses     []string // filters.statuses: CardStatuses()
	Types        []string // filters.types: CardTypes()
	OrderBy      string   // CardOrderFields() or ""
	Direction    string   // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p CardsParams) WithAfter(after string) CardsParams { p.After = after; return p }

func (p CardsParams) check() error {
	if err := checkEnum("filters.statuses", CardStatuses(), p.Statuses...); err != nil {
		return err
	}
	if err := checkEnum("filters.types", CardTypes(), p.Types...); err != nil {
		return err
	}
	return checkOrder(CardOrderFields(), p.OrderBy, p.Direction)
}

// cardFiltersInput is the schema's CardFiltersInput.
type cardFiltersInput struct {
	Statuses  []string `json:"statuses,omitempty"`
	Types     []string `json:"types,omitempty"`
	Search    string   `json:"search,omitempty"`
	AccountID string   `json:"accountId,omitempty"`
	UserID    string   `json:"userId,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*cardFiltersInput) GetGraphQLType() string { return "CardFiltersInput" }

type cardOrderName struct{}

func (cardOrderName) graphQLType() string { return "CardOrderByInput" }

func (p CardsParams) vars(first int) map[string]any {
	var filters *cardFiltersInput
	if len(p.Statuses) > 0 || len(p.Types) > 0 || p.Search != "" || p.AccountID != "" || p.UserID != "" {
		filters = &cardFiltersInput{Statuses: p.Statuses, Types: p.Types, Search: p.Search, AccountID: p.AccountID, UserID: p.UserID}
	}
	vars := map[string]any{
		"first":   first,
		"after":   cursorVar(p.After),
		"filters": filters,
		"orderBy": orderVar[cardOrderName](p.OrderBy, p.Direction),
	}
	if p.MembershipID != "" {
		vars["membershipId"] = graphql.ID(p.MembershipID)
	}
	return vars
}

// ---- GraphQL shapes ----

type cardStatusQL struct {
	Status                                 string `graphql:"status"`
	fragments.CardCanceledStatusInfo       `graphql:"... on CardCanceledStatusInfo"`
	fragments.CardCancelingStatusInfo      `graphql:"... on CardCancelingStatusInfo"`
	fragments.CardConsentPendingStatusInfo `graphql:"... on CardConsentPendingStatusInfo"`
}

type cardNode struct {
	ID               string       `graphql:"id"`
	Type             string       `graphql:"type"`
	Name             *string      `graphql:"name"`
	CardMaskedNumber string       `graphql:"cardMaskedNumber"`
	ExpiryDate       *string      `graphql:"expiryDate"`
	StatusInfo       cardStatusQL `graphql:"statusInfo"`
	Withdrawal       bool         `graphql:"withdrawal"`
	International    bool         `graphql:"international"`
	ECommerce        bool         `graphql:"eCommerce"`
	SpendingLimits   []struct {
		Type   string           `graphql:"type"`
		Period string           `graphql:"period"`
		Amount fragments.Amount `graphql:"amount"`
	} `graphql:"spendingLimits"`
	AccountMembership *struct {
		ID        string `graphql:"id"`
		Email     string `graphql:"email"`
		AccountID string `graphql:"accountId"`
		User      *struct {
			ID        string  `graphql:"id"`
			FirstName *string `graphql:"firstName"`
			LastName  *string `graphql:"lastName"`
		} `graphql:"user"`
	} `graphql:"accountMembership"`
	CreatedAt string `graphql:"createdAt"`
	UpdatedAt string `graphql:"updatedAt"`
}

func (n *cardNode) card() Card {
	s := &n.StatusInfo
	c := Card{
		ID:               n.ID,
		Type:             n.Type,
		Name:             deref(n.Name),
		CardMaskedNumber: n.CardMaskedNumber,
		ExpiryDate:       deref(n.ExpiryDate),
		StatusInfo: CardStatusInfo{
			Status:  s.Status,
			Reason:  firstNonEmpty(s.CanceledReason, s.CancelingReason),
			Consent: consent(s.Consent),
		},
		Withdrawal:    n.Withdrawal,
		International: n.International,
		ECommerce:     n.ECommerce,
		CreatedAt:     parseTime(n.CreatedAt),
		UpdatedAt:     parseTime(n.UpdatedAt),
	}
	for _, l := range n.SpendingLimits {
		c.SpendingLimits = append(c.SpendingLimits, SpendingLimit{Type: l.Type, Period: l.Period, Amount: Amount(l.Amount)})
	}
	if m := n.AccountMembership; m != nil {
		c.AccountMembership = &CardMembership{ID: m.ID, Email: m.Email, AccountID: m.AccountID}
		if u := m.User; u != nil {
			c.AccountMembership.User = &MembershipUser{ID: u.ID, FirstName: deref(u.FirstName), LastName: deref(u.LastName)}
		}
	}
	return c
}

type cardsQuery struct {
	Cards connectionQL[cardNode] `graphql:"cards(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
}

type membershipCardsQuery struct {
	AccountMembership *struct {
		Cards connectionQL[cardNode] `graphql:"cards(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
	} `graphql:"accountMembership(id: $membershipId)"`
}

type cardQuery struct {
	Card *cardNode `graphql:"card(cardId: $cardId)"`
}

// ---- Client methods ----

// Cards fetches one page of cards: one membership's (p.MembershipID) or
// every card the token sees.
func (c *Client) Cards(ctx context.Context, p CardsParams) (*Page[Card], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	vars := p.vars(c.first(p.First))
	if p.MembershipID == "" {
		return listPage(ctx, c, cardsOp, vars,
			func(q *cardsQuery) (*connectionQL[cardNode], bool) { return &q.Cards, true },
			(*cardNode).card, nil)
	}
	return listPage(ctx, c, membershipCardsOp, vars,
		func(q *membershipCardsQuery) (*connectionQL[cardNode], bool) {
			if q.AccountMembership == nil {
				return nil, false
			}
			return &q.AccountMembership.Cards, true
		},
		(*cardNode).card, c.notFound("account membership", p.MembershipID))
}

// Card fetches one card (Query.card); a missing one is an error wrapping
// ErrNotFound.
func (c *Client) Card(ctx context.Context, id string) (*Card, error) {
	return one(ctx, c, cardOp, map[string]any{"cardId": graphql.ID(id)},
		func(q *cardQuery) *cardNode { return q.Card },
		(*cardNode).card, c.notFound("card", id))
}
