package api

import (
	"context"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/internal/platform"
)

// Operations of an account's virtual IBANs: the list (Account.
// virtualIbanEntries), and in Sandbox one added, canceled, or its SEPA
// direct debits allowed or denied (partner API mutations, refused on a
// read-only client).
const (
	OpVirtualIbans             = "AccountVirtualIbans"
	OpAddVirtualIbanEntry      = "AddVirtualIbanEntry"
	OpCancelVirtualIbanEntry   = "CancelVirtualIbanEntry"
	OpAllowSddVirtualIbanEntry = "AllowSddVirtualIbanEntry"
	OpDenySddVirtualIbanEntry  = "DenySddVirtualIbanEntry"
)

var (
	virtualIbansOp = declareQuery[virtualIbansQuery](OpVirtualIbans, func() map[string]any {
		return VirtualIbansParams{AccountID: "x"}.vars(platform.PageMax)
	})
	addVirtualIbanOp = declareMutation[addVirtualIbanMutation](OpAddVirtualIbanEntry,
		input(addVirtualIbanInput{}))
	cancelVirtualIbanOp = declareMutation[cancelVirtualIbanMutation](OpCancelVirtualIbanEntry,
		input(cancelVirtualIbanInput{}))
	allowSddVirtualIbanOp = declareMutation[allowSddVirtualIbanMutation](OpAllowSddVirtualIbanEntry,
		input(allowSddVirtualIbanInput{}))
	denySddVirtualIbanOp = declareMutation[denySddVirtualIbanMutation](OpDenySddVirtualIbanEntry,
		input(denySddVirtualIbanInput{}))
)

// VirtualIbanStatuses is IBANStatus.
func VirtualIbanStatuses() []string { return []string{"Enabled", "Canceled", "Suspended"} }

// VirtualIban is the schema's VirtualIBANEntry: another IBAN of an
// account, which receives transfers (and, unless BlockSDD, direct debits)
// into it.
type VirtualIban struct {
	ID       string `json:"id"`
	IBAN     string `json:"IBAN"`
	BIC      string `json:"BIC"`
	Label    string `json:"label,omitempty"`
	Status   string `json:"status"` // IBANStatus
	BlockSDD bool   `json:"blockSDD"`
	// BankDetails is the entry's bank details as the platform writes them
	// out for a payer.
	BankDetails string `json:"bankDetails,omitempty"`
}

// VirtualIbansParams are the arguments of one Account.virtualIbanEntries
// request. The platform orders them itself, with no other direction.
type VirtualIbansParams struct {
	First     int    // page size; 0 means the client's page size
	After     string // cursor; "" for the first page
	AccountID string // required
	Statuses  []string
}

// WithAfter returns p asking for the page after cursor after.
func (p VirtualIbansParams) WithAfter(after string) VirtualIbansParams { p.After = after; return p }

func (p VirtualIbansParams) check() error {
	if p.AccountID == "" {
		return paramError("accountId", "", "is required: virtual IBANs belong to one account", nil)
	}
	return checkEnum("filters.status", VirtualIbanStatuses(), p.Statuses...)
}

type virtualIbanFilterName struct{}

func (virtualIbanFilterName) graphQLType() string { return "VirtualIbanEntriesFilterInput" }

func (p VirtualIbansParams) vars(first int) map[string]any {
	return map[string]any{
		"accountId": graphql.ID(p.AccountID),
		"first":     first,
		"after":     cursorVar(p.After),
		"filters":   statusFilterVar[virtualIbanFilterName](p.Statuses),
	}
}

// ---- GraphQL shapes ----

type virtualIbanNode struct {
	ID          string  `graphql:"id"`
	IBAN        string  `graphql:"IBAN" json:"IBAN"`
	BIC         string  `graphql:"BIC" json:"BIC"`
	Label       *string `graphql:"label"`
	Status      string  `graphql:"status"`
	BlockSDD    bool    `graphql:"blockSDD" json:"blockSDD"`
	BankDetails *string `graphql:"bankDetails"`
}

func (n *virtualIbanNode) virtualIban() VirtualIban {
	return VirtualIban{ID: n.ID, IBAN: n.IBAN, BIC: n.BIC, Label: deref(n.Label), Status: n.Status,
		BlockSDD: n.BlockSDD, BankDetails: deref(n.BankDetails)}
}

type virtualIbansQuery struct {
	Account *struct {
		VirtualIbanEntries connectionQL[virtualIbanNode] `graphql:"virtualIbanEntries(first: $first, after: $after, filters: $filters)"`
	} `graphql:"account(accountId: $accountId)"`
}

// VirtualIbans fetches one page of an account's virtual IBANs; a missing
// account is ErrNotFound.
func (c *Client) VirtualIbans(ctx context.Context, p VirtualIbansParams) (*Page[VirtualIban], error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return listPage(ctx, c, virtualIbansOp, p.vars(c.first(p.First)),
		func(q *virtualIbansQuery) (*connectionQL[virtualIbanNode], bool) {
			if q.Account == nil {
				return nil, false
			}
			return &q.Account.VirtualIbanEntries, true
		},
		(*virtualIbanNode).virtualIban, c.notFound("account", p.AccountID))
}

// ---- mutations ----

type addVirtualIbanInput struct {
	AccountID string `json:"accountId"`
}

// GetGraphQLType names the variable's type in the query text.
func (addVirtualIbanInput) GetGraphQLType() string { return "AddVirtualIbanInput" }

type cancelVirtualIbanInput struct {
	VirtualIbanEntryID string `json:"virtualIbanEntryId"`
}

// GetGraphQLType names the variable's type in the query text.
func (cancelVirtualIbanInput) GetGraphQLType() string { return "CancelVirtualIbanEntryInput" }

type allowSddVirtualIbanInput struct {
	IbanEntryID string `json:"ibanEntryId"`
}

// GetGraphQLType names the variable's type in the query text.
func (allowSddVirtualIbanInput) GetGraphQLType() string { return "AllowSddVirtualIbanEntryInput" }

type denySddVirtualIbanInput struct {
	IbanEntryID string `json:"ibanEntryId"`
}

// GetGraphQLType names the variable's type in the query text.
func (denySddVirtualIbanInput) GetGraphQLType() string { return "DenySddVirtualIbanEntryInput" }

// The four mutations answer the entry as it is now, or one of the
// rejections their unions name (each union its own: a fragment on a type
// outside it is refused).
type addVirtualIbanMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			Entry virtualIbanNode `graphql:"virtualIbanEntry"`
		} `graphql:"... on AddVirtualIbanEntrySuccessPayload"`
		AccountNotFound  rejectionQL `graphql:"... on AccountNotFoundRejection"`
		BadAccountStatus rejectionQL `graphql:"... on BadAccountStatusRejection"`
		Forbidden        rejectionQL `graphql:"... on ForbiddenRejection"`
		Validation       rejectionQL `graphql:"... on ValidationRejection"`
	} `graphql:"addVirtualIbanEntry(input: $input)"`
}

type cancelVirtualIbanMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			Entry virtualIbanNode `graphql:"virtualIbanEntry"`
		} `graphql:"... on CancelVirtualIbanEntrySuccessPayload"`
		NotFound         rejectionQL `graphql:"... on IbanEntryNotFoundRejection"`
		AccountNotFound  rejectionQL `graphql:"... on AccountNotFoundRejection"`
		BadAccountStatus rejectionQL `graphql:"... on BadAccountStatusRejection"`
		Internal         rejectionQL `graphql:"... on InternalErrorRejection"`
		Validation       rejectionQL `graphql:"... on ValidationRejection"`
	} `graphql:"cancelVirtualIbanEntry(input: $input)"`
}

type allowSddVirtualIbanMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			Entry virtualIbanNode `graphql:"virtualIbanEntry"`
		} `graphql:"... on AllowSddVirtualIbanEntrySuccessPayload"`
		BadAccountStatus rejectionQL `graphql:"... on BadAccountStatusRejection"`
		Validation       rejectionQL `graphql:"... on ValidationRejection"`
	} `graphql:"allowSddVirtualIbanEntry(input: $input)"`
}

type denySddVirtualIbanMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			Entry virtualIbanNode `graphql:"virtualIbanEntry"`
		} `graphql:"... on DenySddVirtualIbanEntrySuccessPayload"`
		BadAccountStatus rejectionQL `graphql:"... on BadAccountStatusRejection"`
		Validation       rejectionQL `graphql:"... on ValidationRejection"`
	} `graphql:"denySddVirtualIbanEntry(input: $input)"`
}

// entryOrRejection is the entry a mutation answered when its __typename
// is its success payload's, else the rejection it answered instead.
func (c *Client) entryOrRejection(typename, success string, n *virtualIbanNode, what string, rejections ...rejectionQL) (*VirtualIban, error) {
	if typename != success {
		msg := message(rejections...)
		if msg == "" {
			msg = "the platform did not " + what
		}
		return nil, &RejectionError{Env: c.env, Type: typename, Message: msg}
	}
	v := n.virtualIban()
	return &v, nil
}

// AddVirtualIban adds a virtual IBAN to an account (addVirtualIbanEntry).
// It is a mutation: sent once, refused on a read-only client.
func (c *Client) AddVirtualIban(ctx context.Context, accountID string) (*VirtualIban, error) {
	m, err := addVirtualIbanOp.mutate(ctx, c, map[string]any{"input": addVirtualIbanInput{AccountID: accountID}}, "")
	if err != nil {
		return nil, err
	}
	p := &m.P
	return c.entryOrRejection(p.Typename, "AddVirtualIbanEntrySuccessPayload", &p.Success.Entry, "add the virtual IBAN",
		p.AccountNotFound, p.BadAccountStatus, p.Forbidden, p.Validation)
}

// CancelVirtualIban cancels a virtual IBAN for good
// (cancelVirtualIbanEntry).
func (c *Client) CancelVirtualIban(ctx context.Context, id string) (*VirtualIban, error) {
	m, err := cancelVirtualIbanOp.mutate(ctx, c, map[string]any{"input": cancelVirtualIbanInput{VirtualIbanEntryID: id}}, "")
	if err != nil {
		return nil, err
	}
	p := &m.P
	return c.entryOrRejection(p.Typename, "CancelVirtualIbanEntrySuccessPayload", &p.Success.Entry, "cancel the virtual IBAN",
		p.NotFound, p.AccountNotFound, p.BadAccountStatus, p.Internal, p.Validation)
}

// SetVirtualIbanSDD allows (allow true: allowSddVirtualIbanEntry) or
// denies (denySddVirtualIbanEntry) the SEPA direct debits a virtual IBAN
// receives.
func (c *Client) SetVirtualIbanSDD(ctx context.Context, id string, allow bool) (*VirtualIban, error) {
	if allow {
		m, err := allowSddVirtualIbanOp.mutate(ctx, c, map[string]any{"input": allowSddVirtualIbanInput{IbanEntryID: id}}, "")
		if err != nil {
			return nil, err
		}
		p := &m.P
		return c.entryOrRejection(p.Typename, "AllowSddVirtualIbanEntrySuccessPayload", &p.Success.Entry, "allow the direct debits",
			p.BadAccountStatus, p.Validation)
	}
	m, err := denySddVirtualIbanOp.mutate(ctx, c, map[string]any{"input": denySddVirtualIbanInput{IbanEntryID: id}}, "")
	if err != nil {
		return nil, err
	}
	p := &m.P
	return c.entryOrRejection(p.Typename, "DenySddVirtualIbanEntrySuccessPayload", &p.Success.Entry, "deny the direct debits",
		p.BadAccountStatus, p.Validation)
}
