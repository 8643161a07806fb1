package api

import (
	"context"
	"errors"
	"strings"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
)

// AccountViewParams is what opening an account reads: the account
// (AccountID) and the first page of each of its tabs, each with the
// parameters the tab reads its list with. Their AccountID and After are
// ignored: the pages are the account's first ones.
type AccountViewParams struct {
	AccountID string
	// Project: read with a project token (no user, so no membership).
	Project      bool
	Transactions TransactionsParams
	Members      MembershipsParams
	Cards        CardsParams
	Statements   StatementsParams
}

// AccountView is an account as opening it shows it: in full, and the first
// page of each of its tabs.
type AccountView struct {
	Detail       *AccountDetail
	Transactions *Page[TransactionDetail]
	Members      *Page[AccountMembership]
	Cards        *Page[Card]
	Statements   *Page[Statement]
}

// accountViewNode is the account with its tabs' first pages as nested
// connections: the platform has no Account.cards, so the cards are the
// root cards filtered by the account, in the same operation. Its fields
// are accountDetailNode's, not an embedded accountDetailNode: an
// unexported embedded type would hide them from the string sanitiser.
type accountViewNode struct {
	fragments.AccountFields
	StatusInfo   accountStatusQL              `graphql:"statusInfo"`
	Holder       holderDetailQL               `graphql:"holder"`
	Transactions *connectionQL[txNode]        `graphql:"transactions(first: $txFirst, filters: $txFilters, orderBy: $txOrderBy)"`
	Memberships  connectionQL[membershipNode] `graphql:"memberships(first: $memberFirst, filters: $memberFilters, orderBy: $memberOrderBy)"`
	Statements   *connectionQL[statementNode] `graphql:"statements(first: $statementFirst, filters: $statementFilters, orderBy: $statementOrderBy)"`
}

type accountViewQuery struct {
	Account *accountViewNode       `graphql:"account(accountId: $accountId)"`
	Cards   connectionQL[cardNode] `graphql:"cards(first: $cardFirst, filters: $cardFilters, orderBy: $cardOrderBy)"`
}

// accountViewUserQuery adds the signed-in user's membership of the
// account, as accountDetailUserQuery does (accountViewQuery's fields
// repeated for the reason accountViewNode gives).
type accountViewUserQuery struct {
	Account *accountViewNode       `graphql:"account(accountId: $accountId)"`
	Cards   connectionQL[cardNode] `graphql:"cards(first: $cardFirst, filters: $cardFilters, orderBy: $cardOrderBy)"`
	User    *userMembershipQL      `graphql:"user"`
}

// prefixed renames one list's variables for a connection that shares the
// operation with others ("first" → "txFirst"); the first page needs no
// cursor, and the account is the operation's own $accountId.
func prefixed(prefix string, vars map[string]any, into map[string]any) {
	for k, v := range vars {
		if k == "after" || k == "accountId" {
			continue
		}
		into[prefix+strings.ToUpper(k[:1])+k[1:]] = v
	}
}

// parts are p's lists, each set to the account's first page.
func (p AccountViewParams) parts() AccountViewParams {
	id := p.AccountID
	p.Transactions.AccountID, p.Members.AccountID, p.Cards.AccountID, p.Statements.AccountID = id, id, id, id
	p.Transactions.After, p.Members.After, p.Cards.After, p.Statements.After = "", "", "", ""
	p.Cards.MembershipID = ""
	return p
}

func (p AccountViewParams) check() error {
	return errors.Join(p.Transactions.check(), p.Members.check(), p.Cards.check(), p.Statements.check())
}

// vars are the operation's variables; first is the page size each list
// asks for, given its First.
func (p AccountViewParams) vars(first func(int) int) map[string]any {
	vars := map[string]any{"accountId": graphql.ID(p.AccountID)}
	prefixed("tx", p.Transactions.vars(first(p.Transactions.First)), vars)
	prefixed("member", p.Members.vars(first(p.Members.First)), vars)
	prefixed("card", p.Cards.vars(first(p.Cards.First)), vars)
	prefixed("statement", p.Statements.vars(first(p.Statements.First)), vars)
	return vars
}

// AccountView reads an account and the first page of each of its tabs in
// one request (with a user token, the user's membership of it too), so
// opening an account and going through its tabs costs one round trip. A
// missing account is ErrNotFound. With a *GraphQLError the view is nil:
// the caller reads each part on its own, which says which part failed.
func (c *Client) AccountView(ctx context.Context, p AccountViewParams) (*AccountView, error) {
	p = p.parts()
	if err := p.check(); err != nil {
		return nil, err
	}
	vars := p.vars(c.first)
	var q *accountViewQuery
	var err error
	var membership *AccountMembership
	if p.Project {
		q, err = query[accountViewQuery](ctx, c, OpAccountView, vars)
	} else {
		var u *accountViewUserQuery
		u, err = query[accountViewUserQuery](ctx, c, OpAccountViewUser, vars)
		if u != nil {
			q, membership = &accountViewQuery{Account: u.Account, Cards: u.Cards}, userMembership(u.User, p.AccountID)
		}
	}
	switch {
	case err != nil:
		return nil, err
	case q.Account == nil:
		return nil, c.notFound("account", p.AccountID)()
	}
	a := q.Account
	d := (&accountDetailNode{AccountFields: a.AccountFields, StatusInfo: a.StatusInfo, Holder: a.Holder}).detail()
	d.Membership = membership
	return &AccountView{
		Detail:       &d,
		Transactions: convertPage(a.Transactions, (*txNode).transaction),
		Members:      convertPage(&a.Memberships, (*membershipNode).membership),
		Cards:        convertPage(&q.Cards, (*cardNode).card),
		Statements:   convertPage(a.Statements, (*statementNode).statement),
	}, nil
}
