package gql

import (
	"context"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// vibanR is a VirtualIBANEntry.
type vibanR struct{ v data.VirtualIBAN }

func (v *vibanR) ID() ID                  { return ID(v.v.ID) }
func (v *vibanR) IBAN() scalar            { return scalar(v.v.IBAN) }
func (v *vibanR) BIC() scalar             { return scalar(v.v.BIC) }
func (v *vibanR) Label() *string          { return optString(v.v.Label) }
func (v *vibanR) Status() string          { return v.v.Status }
func (v *vibanR) BlockSDD() bool          { return v.v.BlockSDD }
func (v *vibanR) BankDetails() *string    { u := data.VirtualIBANBankDetailsURL(v.v); return &u }
func newVIBAN(v data.VirtualIBAN) *vibanR { return &vibanR{v: v} }

type virtualIbanEntriesArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *struct {
		IDs    *[]ID
		Status *[]string
	}
}

// VirtualIbanEntries are read by whoever may view the account.
func (a *accountR) VirtualIbanEntries(args virtualIbanEntriesArgs) (*connR[data.VirtualIBAN, *vibanR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	q := data.VirtualIBANQuery{First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	if f := args.Filters; f != nil {
		for _, id := range deref(f.IDs) {
			q.IDs = append(q.IDs, string(id))
		}
		q.Statuses = deref(f.Status)
	}
	if !a.canViewAccount() {
		// The connection is non-null: a member without the right sees none.
		q.IDs = []string{""}
	}
	page, err := a.r.store.VirtualIBANs(a.a, q)
	if err != nil {
		return nil, fmt.Errorf("virtualIbanEntries: %w", err)
	}
	return newConn(page, data.VirtualIBANCursor, func(v *data.VirtualIBAN) *vibanR { return newVIBAN(*v) }), nil
}

// The platform's webhook list has no event for virtual IBANs (swan-io/docs,
// webhooks.mdx): adding, canceling or switching one emits none.

func (r *partnerResolver) AddVirtualIbanEntry(ctx context.Context, args struct{ Input *struct{ AccountID ID } }) (*outcomeR, error) {
	if args.Input == nil {
		return invalid("input", "InvalidType", "input is required: pass {accountId}"), nil
	}
	id := string(args.Input.AccountID)
	x, err := r.store.AddVirtualIBAN(viewerOf(ctx), id)
	if err != nil {
		if o, ok := rejected(err, "AccountNotFound", id); ok {
			return o, nil
		}
		return nil, fmt.Errorf("addVirtualIbanEntry: %w", err)
	}
	return success(newVIBAN(x)), nil
}

func (r *partnerResolver) CancelVirtualIbanEntry(ctx context.Context, args struct {
	Input struct{ VirtualIbanEntryID ID }
}) (*outcomeR, error) {
	id := string(args.Input.VirtualIbanEntryID)
	return r.vibanChanged("cancelVirtualIbanEntry", id)(r.store.CancelVirtualIBAN(viewerOf(ctx), id))
}

type sddSwitchArgs struct{ Input struct{ IbanEntryID ID } }

func (r *partnerResolver) AllowSddVirtualIbanEntry(ctx context.Context, args sddSwitchArgs) (*outcomeR, error) {
	id := string(args.Input.IbanEntryID)
	return r.vibanChanged("allowSddVirtualIbanEntry", id)(r.store.SetVirtualIBANBlockSDD(viewerOf(ctx), id, false))
}

func (r *partnerResolver) DenySddVirtualIbanEntry(ctx context.Context, args sddSwitchArgs) (*outcomeR, error) {
	id := string(args.Input.IbanEntryID)
	return r.vibanChanged("denySddVirtualIbanEntry", id)(r.store.SetVirtualIBANBlockSDD(viewerOf(ctx), id, true))
}

// vibanChanged answers a change of a virtual IBAN with the members each
// union has: cancel's names an unknown id IbanEntryNotFound and a member
// without the right AccountNotFound; the SDD switches' have neither, so
// both are validation errors of the id there.
func (r *partnerResolver) vibanChanged(field, id string) func(data.VirtualIBAN, error) (*outcomeR, error) {
	return func(x data.VirtualIBAN, err error) (*outcomeR, error) {
		if err == nil {
			return success(newVIBAN(x)), nil
		}
		o, ok := rejected(err, "IbanEntryNotFound", id)
		if !ok {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		switch {
		case o.kind == "BadAccountStatus":
		case field == "cancelVirtualIbanEntry" && o.kind == "Forbidden":
			o.kind, o.ident = "AccountNotFound", id
		case field != "cancelVirtualIbanEntry" || o.kind == "Validation":
			o = invalid("ibanEntryId", "InvalidString", err.Error())
		}
		return o, nil
	}
}

func (o *outcomeR) VirtualIbanEntry() *vibanR { v, _ := o.object.(*vibanR); return v }
func (o *outcomeR) ToAddVirtualIbanEntrySuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToCancelVirtualIbanEntrySuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToAllowSddVirtualIbanEntrySuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToDenySddVirtualIbanEntrySuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
