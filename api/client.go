// Package api is partnertui's GraphQL client for one platform environment:
// typed operations, cursor pagination, the request budget and 429 handling,
// typed errors and sanitised strings. It knows nothing of Bubble Tea.
package api

import (
	"context"
	"time"

	"golang.org/x/oauth2"
)

// Options configure one environment's Client.
type Options struct {
	Env        string // "sandbox" | "live"; named in errors and Status
	GraphQLURL string // the environment's partner endpoint
	TestingURL string // Sandbox Testing API endpoint; "" for Live (no Testing API)
	// TokenSource supplies the bearer token (the persisting user-token source
	// from auth, or a project token source). Required.
	TokenSource oauth2.TokenSource
	PageSize    int              // default 100 (the API maximum)
	Budget      int              // requests per Window; default 2000
	Window      time.Duration    // default 5 minutes
	Timeout     time.Duration    // per request; default 30s
	Now         func() time.Time // clock for tests; default time.Now
	// Sleep waits for d or until ctx is done; tests inject a fake.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client talks to one environment. It is safe for concurrent use.
type Client struct{}

// New builds a Client whose transport stack is observer → environment guard
// → token → base transport.
func New(opts Options) (*Client, error) { panic("implemented by the api owner") }

// Env is the environment this client is bound to.
func (c *Client) Env() string { panic("implemented by the api owner") }

// Accounts fetches one page of Query.accounts.
func (c *Client) Accounts(ctx context.Context, p AccountsParams) (*AccountsPage, error) {
	panic("implemented by the api owner")
}

// Pager walks a whole accounts connection, fetching page n+1 while page n is
// being consumed.
type Pager struct{}

// NewPager starts a pager over the accounts connection with params p
// (p.After is the starting cursor).
func (c *Client) NewPager(p AccountsParams) *Pager { panic("implemented by the api owner") }

// Next returns the next page; ok is false when the connection is exhausted.
func (pg *Pager) Next(ctx context.Context) (page *AccountsPage, ok bool, err error) {
	panic("implemented by the api owner")
}

// Close stops any prefetch in flight.
func (pg *Pager) Close() { panic("implemented by the api owner") }

// Account fetches one account in full (Query.account(accountId)); a missing
// account is an error wrapping ErrNotFound.
func (c *Client) Account(ctx context.Context, id string) (*Account, error) {
	panic("implemented by the api owner")
}

// User fetches the signed-in user (Query.user with no id).
func (c *Client) User(ctx context.Context) (*User, error) { panic("implemented by the api owner") }

// ProjectInfo fetches Query.projectInfo.
func (c *Client) ProjectInfo(ctx context.Context) (*ProjectInfo, error) {
	panic("implemented by the api owner")
}

// Transactions fetches one page of an account's transactions (newest first).
func (c *Client) Transactions(ctx context.Context, accountID string, first int, after string) (*TransactionsPage, error) {
	panic("implemented by the api owner")
}

// SimulateIncomingTransfer books an incoming SEPA credit transfer through the
// Sandbox Testing API and returns the new transaction's id. On Live it fails
// with ErrNoTestingAPI without sending anything.
func (c *Client) SimulateIncomingTransfer(ctx context.Context, in IncomingTransfer) (string, error) {
	panic("implemented by the api owner")
}

// Status is a snapshot for the footer.
func (c *Client) Status() Status { panic("implemented by the api owner") }

// Updates delivers a Status after every change (request sent, response,
// 429, countdown start/end). The channel is buffered and lossy: a slow reader
// sees the latest state, never blocks the client.
func (c *Client) Updates() <-chan Status { panic("implemented by the api owner") }
