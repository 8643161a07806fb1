package gql

import (
	"context"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

type cardsArgs struct {
	First   int32
	Before  *string
	After   *string
	OrderBy *orderArgs
	Filters *struct {
		Status    *string
		Statuses  *[]string
		Type      *string
		Types     *[]string
		Search    *string
		AccountID *string
		UserID    *string
	}
}

func (args cardsArgs) query() (data.CardQuery, error) {
	if err := checkFirst(args.First); err != nil {
		return data.CardQuery{}, err
	}
	q := data.CardQuery{First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	q.OrderBy, q.Desc = orderOf(args.OrderBy, "createdAt", false)
	if f := args.Filters; f != nil {
		q.Filter = data.CardFilter{Statuses: deref(f.Statuses), Types: deref(f.Types),
			Search: deref(f.Search), AccountID: deref(f.AccountID), UserID: deref(f.UserID)}
		// The deprecated single-value filters still filter.
		if f.Status != nil {
			q.Filter.Statuses = append(q.Filter.Statuses, *f.Status)
		}
		if f.Type != nil {
			q.Filter.Types = append(q.Filter.Types, *f.Type)
		}
	}
	return q, nil
}

type cardConnR = connR[data.Card, *cardR]

func (r *request) cards(page data.Page[data.Card]) *cardConnR {
	return newConn(page, data.CardCursor, func(c *data.Card) *cardR { return &cardR{r: r, c: *c} })
}

// cardR is a Card.
type cardR struct {
	r *request
	c data.Card
}

func (c *cardR) ID() ID                            { return ID(c.c.ID) }
func (c *cardR) Type() string                      { return c.c.Type }
func (c *cardR) CreatedAt() scalar                 { return dateTime(c.c.CreatedAt) }
func (c *cardR) UpdatedAt() scalar                 { return dateTime(c.c.UpdatedAt) }
func (c *cardR) MainCurrency() scalar              { return scalar(c.c.Currency) }
func (c *cardR) CardContractExpiryDate() *scalar   { return optDateTime(c.c.ContractExpiry) }
func (c *cardR) CardDesignUrl() string             { return data.CardDesignURL(c.c) }
func (c *cardR) StatusInfo() *cardStatusR          { return &cardStatusR{r: c.r, c: c.c} }
func (c *cardR) Withdrawal() bool                  { return c.c.Withdrawal }
func (c *cardR) International() bool               { return c.c.International }
func (c *cardR) NonMainCurrencyTransactions() bool { return c.c.NonMainCurrency }
func (c *cardR) ECommerce() bool                   { return c.c.ECommerce }
func (c *cardR) CardMaskedNumber() string          { return c.c.MaskedNumber }
func (c *cardR) ExpiryDate() *string               { return optString(c.c.ExpiryDate) }
func (c *cardR) Name() *string                     { return optString(c.c.Name) }
func (c *cardR) IssuingCountry() scalar            { return scalar(c.c.Country) }

func (c *cardR) AccountMembership() *membershipR {
	return &membershipR{r: c.r, m: c.r.store.CardMembership(c.c)}
}

func (c *cardR) SpendingLimits() *[]*spendingLimitR {
	l := []*spendingLimitR{{typ: "AccountHolder", period: "Monthly", amount: amount(c.c.SpendingLimit, c.c.Currency)}}
	return &l
}

// Transactions are the card's payments: the cardholder sees them, and
// whoever may view the account's history.
func (c *cardR) Transactions(args transactionsArgs) (*txConnR, error) {
	acc := c.r.account(c.r.store.AccountOfIndex(c.c.AccountIndex))
	v := c.r.viewer
	holder := !v.Project && c.r.store.CardMembership(c.c).UserID == c.r.store.Effective(v.UserID)
	if !holder && !acc.canViewAccount() {
		return nil, nil
	}
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	q.Filter.CardID = c.c.ID
	page, err := c.r.store.Transactions(acc.a, q)
	if err != nil {
		return nil, fmt.Errorf("transactions: %w", err)
	}
	return c.r.txConn(page), nil
}

// cardStatusR serves the five card status types.
type cardStatusR struct {
	r *request
	c data.Card
}

// Consent is asked only of CardConsentPendingStatusInfo.
func (s *cardStatusR) Consent() *consentR {
	return &consentR{r: s.r, c: s.r.store.CardConsent(s.c)}
}

func (s *cardStatusR) Status() string { return s.c.Status }
func (s *cardStatusR) Reason() string { return s.c.StatusReason }
func (s *cardStatusR) ToCardConsentPendingStatusInfo() (*cardStatusR, bool) {
	return s, s.c.Status == data.CardConsentPending
}
func (s *cardStatusR) ToCardProcessingStatusInfo() (*cardStatusR, bool) {
	return s, s.c.Status == data.CardProcessing
}
func (s *cardStatusR) ToCardEnabledStatusInfo() (*cardStatusR, bool) {
	return s, s.c.Status == data.CardEnabled
}
func (s *cardStatusR) ToCardCancelingStatusInfo() (*cardStatusR, bool) {
	return s, s.c.Status == data.CardCanceling
}
func (s *cardStatusR) ToCardCanceledStatusInfo() (*cardStatusR, bool) {
	return s, s.c.Status == data.CardCanceled
}

func (r *partnerResolver) Card(ctx context.Context, args struct{ CardID ID }) *cardR {
	c, ok := r.store.Card(viewerOf(ctx), string(args.CardID))
	if !ok {
		return nil
	}
	return &cardR{r: r.request(ctx), c: c}
}

func (r *partnerResolver) Cards(ctx context.Context, args cardsArgs) (*cardConnR, error) {
	q, err := args.query()
	if err != nil {
		return nil, err
	}
	page, err := r.store.Cards(viewerOf(ctx), q)
	if err != nil {
		return nil, fmt.Errorf("cards: %w", err)
	}
	return r.request(ctx).cards(page), nil
}

// Spending is what the card spent in its limit's window.
func (c *cardR) Spending() *spendingR { return &spendingR{s: c.r.store.CardSpending(c.c)} }

// spendingR is a Spending, and its time range.
type spendingR struct{ s data.Spending }

func (s *spendingR) Period() string        { return s.s.Period }
func (s *spendingR) Amount() *amountR      { return amount(s.s.Amount, s.s.Currency) }
func (s *spendingR) TimeRange() *spendingR { return s }
func (s *spendingR) Start() scalar         { return dateTime(s.s.Start) }
func (s *spendingR) End() scalar           { return dateTime(s.s.End) }
