package gql

import (
	"context"
	"errors"

	graphql "github.com/graph-gophers/graphql-go"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// adminResolver is the root of the Sandbox Testing API.
type adminResolver struct {
	store *data.Store
}

// errUserTokenOnly is returned where the platform accepts user tokens only.
var errUserTokenOnly = errors.New("this operation needs a user access token: sign in with the authorization-code flow and retry")

func (r *adminResolver) signedIn(ctx context.Context) (string, error) {
	c := callerFrom(ctx)
	if c.viewer.Project || c.viewer.UserID == "" {
		return "", errUserTokenOnly
	}
	return c.viewer.UserID, nil
}

// payloadR serves every payload union member; only the fields of the
// member it converts to are ever read.
type payloadR struct {
	kind    string // Success | Forbidden | NationalityNotFound | SandboxUserNotFound
	message string
	ident   string
	user    *sandboxUserR
	txID    string
}

func (p *payloadR) Message() string            { return p.message }
func (p *payloadR) Identifier() scalar         { return scalar(p.ident) }
func (p *payloadR) UserID() string             { return p.ident }
func (p *payloadR) SandboxUser() *sandboxUserR { return p.user }
func (p *payloadR) TransactionID() graphql.ID  { return graphql.ID(p.txID) }

func (p *payloadR) as(kind string) (*payloadR, bool) { return p, p.kind == kind }
func (p *payloadR) ToForbiddenRejection() (*payloadR, bool) {
	return p.as("Forbidden")
}
func (p *payloadR) ToNationalityNotFoundRejection() (*payloadR, bool) {
	return p.as("NationalityNotFound")
}
func (p *payloadR) ToSandboxUserNotFoundRejection() (*payloadR, bool) {
	return p.as("SandboxUserNotFound")
}
func (p *payloadR) ToCreateSandboxUserSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToEndorseSandboxUserSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateIncomingSepaCreditTransferReceptionSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}

// adminRoot is the Testing API's root: the admin resolvers, with the
// mutations that change data wrapped so each change emits its event.
type adminRoot struct {
	*adminResolver
	events *Events
}
