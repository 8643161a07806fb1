package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
)

// OpCardSpending is the operation name of a card's spending against its
// limits.
const OpCardSpending = "CardSpending"

var cardSpendingOp = declareQuery[cardSpendingQuery](OpCardSpending, func() map[string]any {
	return map[string]any{"cardId": graphql.ID("")}
})

// Spending is the schema's Spending: what a card has spent in the current
// period of its spending limit.
type Spending struct {
	Period string  `json:"period"`           // SpendingLimitPeriod
	Amount *Amount `json:"amount,omitempty"` // nil: the platform reports none
	// Start and End bound the period the amount covers (timeRange).
	Start time.Time `json:"start,omitzero"`
	End   time.Time `json:"end,omitzero"`
}

// CardSpending is a card's spending limits and what it has spent against
// them, with the limits of the membership it belongs to (which bound
// every card of the member together).
type CardSpending struct {
	CardID   string          `json:"cardId"`
	Limits   []SpendingLimit `json:"spendingLimits"`
	Spending *Spending       `json:"spending,omitempty"`
	// MemberLimits and MemberSpending are the card's membership's.
	MemberLimits   []SpendingLimit `json:"membershipSpendingLimits,omitempty"`
	MemberSpending *Spending       `json:"membershipSpending,omitempty"`
}

type spendingLimitQL struct {
	Type   string           `graphql:"type"`
	Period string           `graphql:"period"`
	Amount fragments.Amount `graphql:"amount"`
}

type spendingQL struct {
	Period    string            `graphql:"period"`
	Amount    *fragments.Amount `graphql:"amount"`
	TimeRange *struct {
		Start string `graphql:"start"`
		End   string `graphql:"end"`
	} `graphql:"timeRange"`
}

func (s *spendingQL) spending() *Spending {
	if s == nil {
		return nil
	}
	out := &Spending{Period: s.Period, Amount: amountPtr(s.Amount)}
	if r := s.TimeRange; r != nil {
		out.Start, out.End = parseTime(r.Start), parseTime(r.End)
	}
	return out
}

func limits(ls []spendingLimitQL) []SpendingLimit {
	out := make([]SpendingLimit, 0, len(ls))
	for _, l := range ls {
		out = append(out, SpendingLimit{Type: l.Type, Period: l.Period, Amount: Amount(l.Amount)})
	}
	return out
}

type cardSpendingNode struct {
	ID                string            `graphql:"id"`
	SpendingLimits    []spendingLimitQL `graphql:"spendingLimits"`
	Spending          *spendingQL       `graphql:"spending"`
	AccountMembership *struct {
		SpendingLimits []spendingLimitQL `graphql:"spendingLimits"`
		Spending       *spendingQL       `graphql:"spending"`
	} `graphql:"accountMembership"`
}

func (n *cardSpendingNode) cardSpending() CardSpending {
	s := CardSpending{CardID: n.ID, Limits: limits(n.SpendingLimits), Spending: n.Spending.spending()}
	if m := n.AccountMembership; m != nil {
		s.MemberLimits, s.MemberSpending = limits(m.SpendingLimits), m.Spending.spending()
	}
	return s
}

type cardSpendingQuery struct {
	Card *cardSpendingNode `graphql:"card(cardId: $cardId)"`
}

// CardSpending reads a card's spending limits and what it has spent
// against them (Card.spending), with its membership's; a missing card is
// ErrNotFound.
func (c *Client) CardSpending(ctx context.Context, id string) (*CardSpending, error) {
	return one(ctx, c, cardSpendingOp, map[string]any{"cardId": graphql.ID(id)},
		func(q *cardSpendingQuery) *cardSpendingNode { return q.Card },
		(*cardSpendingNode).cardSpending, c.notFound("card", id))
}
