package gql

import (
	"context"
	"errors"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Webhook event of an account holder's change (swan-io/docs, webhooks.mdx:
// "Swan updated a banking verification status").
const eventHolderUpdated = "AccountHolder.Updated"

func (h *holderR) verification() data.Verification { return h.r.store.HolderVerification(h.a) }

// VerificationStatusInfo is the holder's verification, with why it was
// refused or what it still requires.
func (h *holderR) VerificationStatusInfo() *holderVerificationR {
	return &holderVerificationR{holderID: h.a.HolderID, v: h.verification()}
}

// Accounts are the holder's: one, in the emulator.
func (h *holderR) Accounts(args struct {
	First   int32
	Before  *string
	After   *string
	OrderBy *orderArgs
}) (*accountConnR, error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	list := []*data.Account{h.a}
	page, err := data.PageList(list, int(args.First), deref(args.After), 0, "account", func(a *data.Account) string { return a.ID })
	if err != nil {
		return nil, fmt.Errorf("accounts: %w", err)
	}
	return h.r.accounts(page), nil
}

// holderVerificationR serves the five AccountHolderVerificationStatusInfo
// types.
type holderVerificationR struct {
	holderID string
	v        data.Verification
}

func (v *holderVerificationR) Status() string     { return v.v.Status }
func (v *holderVerificationR) PendingAt() scalar  { return dateTime(v.v.At) }
func (v *holderVerificationR) VerifiedAt() scalar { return dateTime(v.v.At) }
func (v *holderVerificationR) RefusedAt() scalar  { return dateTime(v.v.At) }
func (v *holderVerificationR) Reason() string     { return v.v.Reason }

// WaitingForInformationAt serves the deprecated WaitingForInformationAt
// too: field names meet method names whatever their case.
func (v *holderVerificationR) WaitingForInformationAt() scalar { return dateTime(v.v.At) }
func (v *holderVerificationR) AccountHolderID() string         { return v.holderID }
func (v *holderVerificationR) VerificationRequirements() []*requirementR {
	out := make([]*requirementR, len(v.v.Requirements))
	for i, r := range v.v.Requirements {
		out[i] = &requirementR{r: r}
	}
	return out
}
func (v *holderVerificationR) is(s string) bool { return v.v.Status == s }
func (v *holderVerificationR) ToAccountHolderNotStartedVerificationStatusInfo() (*holderVerificationR, bool) {
	return v, v.is("NotStarted")
}
func (v *holderVerificationR) ToAccountHolderPendingVerificationStatusInfo() (*holderVerificationR, bool) {
	return v, v.is("Pending")
}
func (v *holderVerificationR) ToAccountHolderRefusedVerificationStatusInfo() (*holderVerificationR, bool) {
	return v, v.is("Refused")
}
func (v *holderVerificationR) ToAccountHolderVerifiedVerificationStatusInfo() (*holderVerificationR, bool) {
	return v, v.is("Verified")
}
func (v *holderVerificationR) ToAccountHolderWaitingForInformationVerificationStatusInfo() (*holderVerificationR, bool) {
	return v, v.is("WaitingForInformation")
}

// requirementR is a VerificationRequirement.
type requirementR struct{ r data.Requirement }

func (r *requirementR) ID() ID       { return ID(r.r.ID) }
func (r *requirementR) Type() string { return r.r.Type }

func (r *partnerResolver) AccountHolder(ctx context.Context, args struct{ ID ID }) *holderR {
	a, ok := r.store.Holder(viewerOf(ctx), string(args.ID))
	if !ok {
		return nil
	}
	return &holderR{r: r.request(ctx), a: a}
}

type accountHoldersArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *struct {
		RegistrationNumber       *string
		Status                   *[]string
		Types                    *[]string
		VerificationStatus       *[]string
		VerificationRequirements *[]string
		Search                   *string
		BirthDate                *string
		FirstName                *string
		LastName                 *string
	}
	OrderBy *orderArgs
}

// AccountHolders are the holders of the accounts the caller sees, in
// their accounts' order.
func (r *partnerResolver) AccountHolders(ctx context.Context, args accountHoldersArgs) (*connR[*data.Account, *holderR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.HolderQuery{Viewer: viewerOf(ctx), First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	q.OrderBy, q.Desc = orderOf(args.OrderBy, "createdAt", false)
	if f := args.Filters; f != nil {
		q.Statuses, q.Types, q.Verifications, q.Requirements = deref(f.Status), deref(f.Types), deref(f.VerificationStatus), deref(f.VerificationRequirements)
		q.Search, q.Registration = deref(f.Search), deref(f.RegistrationNumber)
		// The emulator's holders are named as one string: a first or last
		// name searches it too.
		for _, n := range []*string{f.FirstName, f.LastName} {
			if n != nil && q.Search == "" {
				q.Search = *n
			}
		}
		if f.BirthDate != nil {
			q.Statuses = []string{""} // birth dates are the members', not the holders'
		}
	}
	page, err := r.store.Holders(q)
	if err != nil {
		return nil, fmt.Errorf("accountHolders: %w", err)
	}
	req := r.request(ctx)
	return newConn(page, func(a **data.Account) string { return data.HolderCursor(*a) }, func(a **data.Account) *holderR {
		return &holderR{r: req, a: *a}
	}), nil
}

type updateAccountHolderArgs struct {
	Input struct {
		AccountHolderID          ID
		VerificationStatus       *string
		VerificationRequirements *[]string
	}
}

// UpdateAccountHolder is the Testing API's change of a holder's
// verification: its status, or what it still requires.
func (r *adminResolver) UpdateAccountHolder(ctx context.Context, args updateAccountHolderArgs) (*payloadR, error) {
	in := args.Input
	var reqs []string
	if in.VerificationRequirements != nil {
		reqs = *in.VerificationRequirements
		if reqs == nil {
			reqs = []string{}
		}
	}
	v, a, err := r.store.SetHolderVerification(string(in.AccountHolderID), deref(in.VerificationStatus), reqs)
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &payloadR{kind: "AccountHolderNotFound", message: err.Error(), ident: string(in.AccountHolderID)}, nil
	case errors.Is(err, data.ErrWrongState):
		return &payloadR{kind: "VerificationRequirementsNotUpdatable", message: err.Error(), ident: a.HolderID, holderStatus: v.Status}, nil
	case err != nil:
		return nil, fmt.Errorf("updateAccountHolder: %w", err)
	}
	req := &request{partnerResolver: &partnerResolver{store: r.store}, viewer: data.Viewer{Project: true}}
	return &payloadR{kind: "Success", holder: &holderR{r: req, a: a}, emits: []emission{{eventHolderUpdated, a.HolderID}}}, nil
}

func (r *adminRoot) UpdateAccountHolder(ctx context.Context, args updateAccountHolderArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.UpdateAccountHolder(ctx, args))
}

func (p *payloadR) AccountHolder() *holderR                 { return p.holder }
func (p *payloadR) AccountHolderID() string                 { return p.ident }
func (p *payloadR) AccountHolderVerificationStatus() string { return p.holderStatus }
func (p *payloadR) ToUpdateAccountHolderSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToAccountHolderNotFoundRejection() (*payloadR, bool) {
	return p.as("AccountHolderNotFound")
}
func (p *payloadR) ToVerificationRequirementsNotUpdatableRejection() (*payloadR, bool) {
	return p.as("VerificationRequirementsNotUpdatable")
}
