package api

import (
	"context"
	"fmt"
)

// The Testing API's simulations beyond the incoming transfer
// (operations.go): each is a mutation of the partner-admin schema, sent
// once to the Sandbox Testing API, whose payload union is a success or a
// rejection. Each mutation selects the message of every rejection its
// union names (the graphql client decodes a fragment only when its type is
// the payload's own, so an interface fragment on Rejection would never be
// read).

// Operation names of the simulations.
const (
	OpCreateSandboxUser = "CreateSandboxUser"
)

// outcome is a simulation's payload, whatever its success type: its
// concrete type and, for a rejection, the message.
type outcome interface {
	outcome() (typename, message string)
}

// message is the one rejection message of a payload: at most one of its
// rejection fragments is filled.
func message(msgs ...rejectionQL) string {
	for _, m := range msgs {
		if m.Message != "" {
			return m.Message
		}
	}
	return ""
}

// simulate sends the Testing API mutation op built from *M and returns
// it when the payload is its success type, else a *RejectionError naming
// the rejection. On Live it fails with ErrNoTestingAPI without sending
// anything.
func simulate[M any, PM interface {
	*M
	outcome
}](ctx context.Context, c *Client, op, success string, input any) (*M, error) {
	if c.testingURL == "" {
		return nil, fmt.Errorf("cannot run %s in %s: %w", op, c.env, ErrNoTestingAPI)
	}
	m, err := mutate[M](ctx, c, c.testingURL, op, map[string]any{"input": input}, "")
	if err != nil {
		return nil, err
	}
	typename, msg := PM(m).outcome()
	if typename == success {
		return m, nil
	}
	if msg == "" {
		msg = "the Testing API did not run " + op
	}
	return nil, &RejectionError{Env: c.env, Type: typename, Message: msg}
}

// SandboxUserInput is the Testing API's CreateSandboxUserInput.
type SandboxUserInput struct {
	FirstName        string `json:"firstName"`
	LastName         string `json:"lastName"`
	BirthDate        string `json:"birthDate"`                  // YYYY-MM-DD
	BirthCountryCCA3 string `json:"birthCountryCCA3,omitempty"` // FRA
	NationalityCCA3  string `json:"nationalityCCA3"`
	// AutoConsent lets the user's consents be given without a browser.
	AutoConsent bool `json:"autoConsent"`
}

// GetGraphQLType names the variable's type in the query text.
func (SandboxUserInput) GetGraphQLType() string { return "CreateSandboxUserInput" }

// SandboxUser is the Testing API's SandboxUser (the fields we read).
type SandboxUser struct {
	ID          string `json:"id"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	AutoConsent bool   `json:"autoConsent"`
}

type sandboxUserQL struct {
	ID          string  `graphql:"id"`
	FirstName   *string `graphql:"firstName"`
	LastName    *string `graphql:"lastName"`
	AutoConsent bool    `graphql:"autoConsent"`
}

func (u *sandboxUserQL) user() *SandboxUser {
	return &SandboxUser{ID: u.ID, FirstName: deref(u.FirstName), LastName: deref(u.LastName), AutoConsent: u.AutoConsent}
}

// sandboxUserOf is the user a success payload of op names; a success
// without one is a bad response.
func (c *Client) sandboxUserOf(u *sandboxUserQL, op string) (*SandboxUser, error) {
	if u == nil {
		return nil, &BadResponseError{Env: c.env, Status: 200, Reason: op + " succeeded without its sandboxUser"}
	}
	return u.user(), nil
}

type createSandboxUserMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			SandboxUser *sandboxUserQL `graphql:"sandboxUser"`
		} `graphql:"... on CreateSandboxUserSuccessPayload"`
		NationalityNotFound rejectionQL `graphql:"... on NationalityNotFoundRejection"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"createSandboxUser(input: $input)"`
}

func (m *createSandboxUserMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.NationalityNotFound, m.P.Forbidden)
}

// CreateSandboxUser creates a Sandbox user (the Testing API's
// createSandboxUser; the platform wants a user token for it).
func (c *Client) CreateSandboxUser(ctx context.Context, in SandboxUserInput) (*SandboxUser, error) {
	m, err := simulate[createSandboxUserMutation](ctx, c, OpCreateSandboxUser, "CreateSandboxUserSuccessPayload", in)
	if err != nil {
		return nil, err
	}
	return c.sandboxUserOf(m.P.Success.SandboxUser, "createSandboxUser")
}

// txIDQL is the success payload of a simulation that makes or changes a
// transaction.
type txIDQL struct {
	TransactionID string `graphql:"transactionId"`
}

// txOutcome is a simulation whose success names a transaction.
type txOutcome interface {
	outcome
	txID() string
}

// simulateTx sends the transaction simulation op built from *M and
// returns the id of the transaction its success names.
func simulateTx[M any, PM interface {
	*M
	txOutcome
}](ctx context.Context, c *Client, op, success string, input any) (string, error) {
	m, err := simulate[M, PM](ctx, c, op, success, input)
	if err != nil {
		return "", err
	}
	return PM(m).txID(), nil
}
