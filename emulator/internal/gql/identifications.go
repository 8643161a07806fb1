package gql

import (
	"context"
	"errors"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// identificationLevelsInput is IdentificationLevelStatusesInput.
type identificationLevelsInput struct {
	Expert *string
	Pvid   *string
	Qes    *string
}

// levels are the statuses the input sets, by level.
func (in identificationLevelsInput) levels() map[string]string {
	out := map[string]string{}
	for name, status := range map[string]*string{"expert": in.Expert, "pvid": in.Pvid, "qes": in.Qes} {
		if status != nil {
			out[name] = *status
		}
	}
	return out
}

type createIdentificationArgs struct {
	Input struct {
		UserID       string
		Process      string
		Levels       identificationLevelsInput
		ErrorReasons *[]string
	}
}

type updateIdentificationArgs struct {
	Input struct {
		IdentificationID string
		Process          string
		Levels           identificationLevelsInput
		ErrorReasons     *[]string
	}
}

func (r *adminResolver) CreateSandboxIdentification(ctx context.Context, args createIdentificationArgs) (*identPayloadR, error) {
	if _, err := r.signedIn(ctx); err != nil {
		return &identPayloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	in := args.Input
	id, err := r.store.CreateIdentification(in.UserID, in.Process, in.Levels.levels(), deref(in.ErrorReasons))
	return identResult(id, err, "UserNotFound", in.UserID)
}

func (r *adminResolver) UpdateSandboxIdentification(ctx context.Context, args updateIdentificationArgs) (*identPayloadR, error) {
	if _, err := r.signedIn(ctx); err != nil {
		return &identPayloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	in := args.Input
	id, err := r.store.UpdateIdentification(in.IdentificationID, in.Process, in.Levels.levels(), deref(in.ErrorReasons))
	return identResult(id, err, "SandboxIdentificationNotFound", in.IdentificationID)
}

// identResult is the payload of an identification's change.
func identResult(id data.Identification, err error, notFound, ident string) (*identPayloadR, error) {
	switch {
	case err == nil:
		return &identPayloadR{kind: "Success", id: id}, nil
	case errors.Is(err, data.ErrNotFound):
		return &identPayloadR{kind: notFound, message: err.Error(), ident: ident}, nil
	case errors.Is(err, data.ErrInvalidLevels):
		return &identPayloadR{kind: "InvalidIdentificationLevels", message: err.Error()}, nil
	case errors.Is(err, data.ErrInvalidReasons):
		return &identPayloadR{kind: "InvalidIdentificationErrorReasons", message: err.Error()}, nil
	case errors.Is(err, data.ErrForbidden):
		return &identPayloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	return nil, err
}

// identPayloadR serves the identification payloads: UserNotFoundRejection's
// id is an ID, where payloadR's rejections have String ids.
type identPayloadR struct {
	kind    string
	message string
	ident   string
	id      data.Identification
}

func (p *identPayloadR) Message() string                         { return p.message }
func (p *identPayloadR) ID() ID                                  { return ID(p.ident) }
func (p *identPayloadR) SandboxIdentification() *identificationR { return &identificationR{p.id.ID} }
func (p *identPayloadR) as(kind string) (*identPayloadR, bool)   { return p, p.kind == kind }
func (p *identPayloadR) ToCreateSandboxIdentificationSuccessPayload() (*identPayloadR, bool) {
	return p.as("Success")
}
func (p *identPayloadR) ToUpdateSandboxIdentificationSuccessPayload() (*identPayloadR, bool) {
	return p.as("Success")
}
func (p *identPayloadR) ToUserNotFoundRejection() (*identPayloadR, bool) { return p.as("UserNotFound") }
func (p *identPayloadR) ToForbiddenRejection() (*identPayloadR, bool)    { return p.as("Forbidden") }
func (p *identPayloadR) ToSandboxIdentificationNotFoundRejection() (*identPayloadR, bool) {
	return p.as("SandboxIdentificationNotFound")
}
func (p *identPayloadR) ToInvalidIdentificationLevelsRejection() (*identPayloadR, bool) {
	return p.as("InvalidIdentificationLevels")
}
func (p *identPayloadR) ToInvalidIdentificationErrorReasonsRejection() (*identPayloadR, bool) {
	return p.as("InvalidIdentificationErrorReasons")
}

// identificationR is a SandboxIdentification.
type identificationR struct{ id string }

func (i *identificationR) ID() string { return i.id }

// identified emits User.Updated for the user whose levels an
// identification changed.
func (r *adminRoot) identified(p *identPayloadR, err error) (*identPayloadR, error) {
	if err == nil && p.kind == "Success" {
		r.events.hub.Emit(webhooks.UserUpdated, p.id.UserID)
	}
	return p, err
}

func (r *adminRoot) CreateSandboxIdentification(ctx context.Context, args createIdentificationArgs) (*identPayloadR, error) {
	return r.identified(r.adminResolver.CreateSandboxIdentification(ctx, args))
}
func (r *adminRoot) UpdateSandboxIdentification(ctx context.Context, args updateIdentificationArgs) (*identPayloadR, error) {
	return r.identified(r.adminResolver.UpdateSandboxIdentification(ctx, args))
}
