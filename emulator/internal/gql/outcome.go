package gql

import (
	"errors"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// outcomeR serves the payload unions of the partner mutations of the
// account's families (virtual IBANs, standing orders, beneficiaries,
// merchants, onboardings, capital deposits): the success member, which
// carries the object the mutation made or changed, or a rejection. Only
// the fields of the member it converts to are ever read.
type outcomeR struct {
	kind    string // Success, or the rejection's type name without "Rejection"
	message string
	ident   string
	fields  []*validationFieldErrorR
	// methodIDs are the payment methods a MerchantPaymentMethodNotActive
	// rejection names.
	methodIDs []string
	// current and expected are a MerchantProfileWrongStatus rejection's
	// statuses.
	current, expected string
	object            any // the success member's object: *vibanR, *orderR…
}

// success is a success member carrying obj.
func success(obj any) *outcomeR { return &outcomeR{kind: "Success", object: obj} }

// rejected is the member an error of the data layer stands for: notFound
// names the rejection of an unknown id (IbanEntryNotFound,
// StandingOrderNotFound…). Any other error is the resolver's to return.
func rejected(err error, notFound, id string) (*outcomeR, bool) {
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &outcomeR{kind: notFound, message: err.Error(), ident: id}, true
	case errors.Is(err, data.ErrAccountStatus):
		return &outcomeR{kind: "BadAccountStatus", message: err.Error(), ident: id}, true
	case errors.Is(err, data.ErrForbidden):
		return &outcomeR{kind: "Forbidden", message: err.Error()}, true
	case errors.Is(err, data.ErrWrongState):
		return invalid("id", "InvalidType", err.Error()), true
	}
	return nil, false
}

// invalid is a ValidationRejection of one input field.
func invalid(field, code, message string) *outcomeR {
	return &outcomeR{kind: "Validation", message: message,
		fields: []*validationFieldErrorR{{path: []string{field}, code: code, message: message}}}
}

func (o *outcomeR) Message() string                  { return o.message }
func (o *outcomeR) ID() string                       { return o.ident }
func (o *outcomeR) Fields() []*validationFieldErrorR { return o.fields }

func (o *outcomeR) as(kind string) (*outcomeR, bool) { return o, o.kind == kind }

// The rejections the families answer with.
func (o *outcomeR) ToForbiddenRejection() (*outcomeR, bool) { return o.as("Forbidden") }
func (o *outcomeR) ToAccountNotFoundRejection() (*outcomeR, bool) {
	return o.as("AccountNotFound")
}
func (o *outcomeR) ToBadAccountStatusRejection() (*outcomeR, bool) {
	return o.as("BadAccountStatus")
}
func (o *outcomeR) ToValidationRejection() (*outcomeR, bool)    { return o.as("Validation") }
func (o *outcomeR) ToInternalErrorRejection() (*outcomeR, bool) { return o.as("InternalError") }
func (o *outcomeR) ToIbanEntryNotFoundRejection() (*outcomeR, bool) {
	return o.as("IbanEntryNotFound")
}
