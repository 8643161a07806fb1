package gql

import (
	"context"
	"errors"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

type updateVerificationArgs struct {
	Input struct {
		AccountVerificationID ID
		NewStatus             string
	}
}

// UpdateAccountVerificationStatus sets a verification's status, as Swan's
// review would; its funding sources follow (Rejected with it, Enabled
// once Verified with a consented mandate), each with FundingSource.Updated.
// Any token of the project may call it (the schema restricts it to none);
// the schema offers ForbiddenRejection only, so an unknown id is one.
func (r *adminResolver) UpdateAccountVerificationStatus(_ context.Context, args updateVerificationArgs) (*payloadR, error) {
	id := string(args.Input.AccountVerificationID)
	v, moved, err := r.store.SetVerificationStatus(id, args.Input.NewStatus)
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &payloadR{kind: "Forbidden", message: "no account verification has the id " + id + ": pass the accountVerification id of a funding source"}, nil
	case err != nil:
		return nil, err
	}
	p := &payloadR{kind: "Success", verification: &verificationR{v: v}}
	for _, f := range moved {
		p.emits = append(p.emits, emission{webhooks.FundingSourceUpdated, f.ID})
	}
	return p, nil
}

// AccountVerification is UpdateAccountVerificationStatusSuccessPayload's field.
func (p *payloadR) AccountVerification() *verificationR { return p.verification }

func (p *payloadR) ToUpdateAccountVerificationStatusSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}

func (r *adminRoot) UpdateAccountVerificationStatus(ctx context.Context, args updateVerificationArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.UpdateAccountVerificationStatus(ctx, args))
}
