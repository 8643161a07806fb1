package api

import (
	"context"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/api/internal/fragments"
	"github.com/partnertui/partnertui/internal/platform"
)

// Operation names of an account's statements and of one statement.
const (
	OpStatements = "AccountStatements"
	OpStatement  = "AccountStatement"
)

var (
	statementsOp = declareQuery[statementsQuery](OpStatements, func() map[string]any {
		return StatementsParams{AccountID: "x"}.vars(platform.PageMax)
	})
	statementOp = declareQuery[statementQuery](OpStatement, idVars)
)

// StatementStatusInfo is Statement.statusInfo (AccountStatementStatusInfo)
// with the fields of its concrete type.
type StatementStatusInfo struct {
	Status string `json:"status"` // Generated | Pending | Failed | Voided
	// URL is where a Generated or Voided statement can be downloaded.
	URL string `json:"url,omitempty"`
}

// Statement is the schema's Statement (an account statement).
type Statement struct {
	ID             string              `json:"id"`
	Period         string              `json:"period,omitempty"` // Monthly | Custom
	OpeningDate    time.Time           `json:"openingDate,omitzero"`
	ClosingDate    time.Time           `json:"closingDate,omitzero"`
	OpeningBalance Amount              `json:"openingBalance"`
	ClosingBalance Amount              `json:"closingBalance"`
	TotalCredits   Amount              `json:"totalCredits"`
	TotalDebits    Amount              `json:"totalDebits"`
	FeeCredits     Amount              `json:"feeCredits"`
	FeeDebits      Amount              `json:"feeDebits"`
	StatusInfo     StatementStatusInfo `json:"statusInfo"`
	Format         string              `json:"format,omitempty"` // PDF | CSV
	CreatedAt      time.Time           `json:"createdAt,omitzero"`
	UpdatedAt      time.Time           `json:"updatedAt,omitzero"`
}

// StatementsParams are the arguments of one Account.statements request.
type StatementsParams struct {
	First             int    // page size; 0 means the client's page size
	After             string // cursor; "" for the first page
	AccountID         string // required
	Period            string // filters.period: StatementPeriods() or ""
	IsAfterUpdatedAt  time.Time
	IsBeforeUpdatedAt time.Time
	OrderBy           string // StatementOrderFields() or ""
	Direction         string // DirectionAsc | DirectionDesc | ""
}

// WithAfter returns p asking for the page after cursor after.
func (p StatementsParams) WithAfter(after string) StatementsParams { p.After = after; return p }

func (p StatementsParams) check() error {
	if p.AccountID == "" {
		return paramError("accountId", "", "is required: statements belong to one account", nil)
	}
	if p.Period != "" {
		if err := checkEnum("filters.period", StatementPeriods(), p.Period); err != nil {
			return err
		}
	}
	if err := checkRange("filters.isAfterUpdatedAt", p.IsAfterUpdatedAt, p.IsBeforeUpdatedAt); err != nil {
		return err
	}
	return checkOrder(StatementOrderFields(), p.OrderBy, p.Direction)
}

// statementFiltersInput is the schema's StatementFiltersInput.
type statementFiltersInput struct {
	IsAfterUpdatedAt  string `json:"isAfterUpdatedAt,omitempty"`
	IsBeforeUpdatedAt string `json:"isBeforeUpdatedAt,omitempty"`
	Period            string `json:"period,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*statementFiltersInput) GetGraphQLType() string { return "StatementFiltersInput" }

type statementsOrderName struct{}

func (statementsOrderName) graphQLType() string { return "StatementsOrderByInput" }

func (p StatementsParams) vars(first int) map[string]any {
	var filters *statementFiltersInput
	if p.Period != "" || !p.IsAfterUpdatedAt.IsZero() || !p.IsBeforeUpdatedAt.IsZero() {
		filters = &statementFiltersInput{Period: p.Period, IsAfterUpdatedAt: dateTimeVar(p.IsAfterUpdatedAt), IsBeforeUpdatedAt: dateTimeVar(p.IsBeforeUpdatedAt)}
	}
	return map[string]any{
		"accountId": graphql.ID(p.AccountID),
		"first":     first,
		"after":     cursorVar(p.After),
		"filters":   filters,
		"orderBy":   orderVar[statementsOrderName](p.OrderBy, p.Direction),
	}
}

// ---- GraphQL shapes ----

type statementNode struct {
	ID             string           `graphql:"id"`
	Period         *string          `graphql:"period"`
	OpeningDate    string           `graphql:"openingDate"`
	ClosingDate    string           `graphql:"closingDate"`
	OpeningBalance fragments.Amount `graphql:"openingBalance"`
	ClosingBalance fragments.Amount `graphql:"closingBalance"`
	TotalCredits   fragments.Amount `graphql:"totalCredits"`
	TotalDebits    fragments.Amount `graphql:"totalDebits"`
	FeeCredits     fragments.Amount `graphql:"feeCredits"`
	FeeDebits      fragments.Amount `graphql:"feeDebits"`
	StatusInfo     struct {
		Status                        string `graphql:"status"`
		fragments.GeneratedStatusInfo `graphql:"... on GeneratedStatusInfo"`
		fragments.VoidedStatusInfo    `graphql:"... on VoidedStatusInfo"`
	} `graphql:"statusInfo"`
	Format    string `graphql:"format"`
	CreatedAt string `graphql:"createdAt"`
	UpdatedAt string `graphql:"updatedAt"`
}

func (n *statementNode) statement() Statement {
	return Statement{
		ID:             n.ID,
		Period:         deref(n.Period),
		OpeningDate:    parseTime(n.OpeningDate),
		ClosingDate:    parseTime(n.ClosingDate),
		OpeningBalance: Amount(n.OpeningBalance),
		ClosingBalance: Amount(n.ClosingBalance),
		TotalCredits:   Amount(n.TotalCredits),
		TotalDebits:    Amount(n.TotalDebits),
		FeeCredits:     Amount(n.FeeCredits),
		FeeDebits:      Amount(n.FeeDebits),
		StatusInfo:     StatementStatusInfo{Status: n.StatusInfo.Status, URL: firstNonEmpty(n.StatusInfo.URL, n.StatusInfo.VoidedURL)},
		Format:         n.Format,
		CreatedAt:      parseTime(n.CreatedAt),
		UpdatedAt:      parseTime(n.UpdatedAt),
	}
}

type statementsQuery struct {
	Account *struct {
		Statements *connectionQL[statementNode] `graphql:"statements(first: $first, after: $after, filters: $filters, orderBy: $orderBy)"`
	} `graphql:"account(accountId: $accountId)"`
}

// statementDetailNode is one statement and its account.
type statementDetailNode struct {
	statementNode
	Account accountRefQL `graphql:"account"`
}

type statementQuery struct {
	AccountStatement *statementDetailNode `graphql:"accountStatement(id: $id)"`
}

// StatementDetail is one statement with the account it is of.
type StatementDetail struct {
	Statement
	Account *AccountRef `json:"account,omitempty"`
}

// Statement fetches one statement (Query.accountStatement); one the token
// cannot see is the server's error.
func (c *Client) Statement(ctx context.Context, id string) (*StatementDetail, error) {
	return one(ctx, c, statementOp, map[string]any{"id": graphql.ID(id)},
		func(q *statementQuery) *statementDetailNode { return q.AccountStatement },
		func(n *statementDetailNode) StatementDetail {
			return StatementDetail{Statement: n.statement(), Account: n.Account.ref()}
		}, c.notFound("statement", id))
}

// Statements fetches one page of an account's statements
// (Account.statements); a missing account is ErrNotFound.
func (c *Client) Statements(ctx context.Context, p StatementsParams) (*Page[Statement], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, statementsOp, p.vars(c.first(p.First)),
		func(q *statementsQuery) (*connectionQL[statementNode], bool) {
			if q.Account == nil {
				return nil, false
			}
			return q.Account.Statements, true
		},
		(*statementNode).statement, c.notFound("account", p.AccountID))
}
