package gql

import (
	"context"
	"errors"

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
	kind    string // Success | Reject | Forbidden | the rejection's name without "Rejection"
	message string
	ident   string
	user    *sandboxUserR
	txID    string
	reason  string
	fee     *feeR
	// verification is updateAccountVerificationStatus's.
	verification *verificationR
	// holder is updateAccountHolder's; holderStatus its verification
	// status when it refuses.
	holder       *holderR
	holderStatus string
	// emits are the webhook events the change causes, in the platform's
	// order; adminRoot sends them once the resolver returns.
	emits []emission
}

// emission is one webhook event to emit.
type emission struct{ eventType, resourceID string }

func (p *payloadR) Message() string            { return p.message }
func (p *payloadR) Identifier() scalar         { return scalar(p.ident) }
func (p *payloadR) UserID() string             { return p.ident }
func (p *payloadR) SandboxUser() *sandboxUserR { return p.user }
func (p *payloadR) TransactionID() ID          { return ID(p.txID) }
func (p *payloadR) ID() string                 { return p.ident }
func (p *payloadR) RejectedReason() string     { return p.reason }

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
func (p *payloadR) ToTransactionNotFoundRejection() (*payloadR, bool) {
	return p.as("TransactionNotFound")
}
func (p *payloadR) ToCardNotFoundRejection() (*payloadR, bool) {
	return p.as("CardNotFound")
}

// stepResult is the payload of a simulated step: its transaction and
// events, or the rejection of its error; notFound names the rejection of
// an unknown id (TransactionNotFound, CardNotFound, AccountNotFound).
func stepResult(t data.Transaction, err error, notFound, id string, emits ...emission) (*payloadR, error) {
	switch {
	case err == nil:
		return &payloadR{kind: "Success", txID: t.ID, emits: emits}, nil
	case errors.Is(err, data.ErrNotFound):
		return &payloadR{kind: notFound, message: err.Error(), ident: id, txID: id}, nil
	case errors.Is(err, data.ErrForbidden), errors.Is(err, data.ErrWrongState), errors.Is(err, data.ErrInsufficientFunds):
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	return nil, err
}

// emitted sends a successful step's events.
func (r *adminRoot) emitted(p *payloadR, err error) (*payloadR, error) {
	if err == nil {
		for _, e := range p.emits {
			r.events.hub.Emit(e.eventType, e.resourceID)
		}
	}
	return p, err
}

// adminRoot is the Testing API's root: the admin resolvers, with the
// mutations that change data wrapped so each change emits its event.
type adminRoot struct {
	*adminResolver
	events *Events
}
