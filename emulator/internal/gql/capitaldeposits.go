package gql

import (
	"context"
	"errors"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Webhook events of capital deposits (swan-io/docs, webhooks.mdx).
const (
	eventDepositUpdated  = "CapitalDepositCaseEvent.Updated"
	eventDepositCanceled = "CapitalDepositCaseEvent.Canceled"
	eventDocumentUpdated = "CapitalDepositDocument.Updated"
)

// depositR is a CapitalDepositCase, and its status info.
type depositR struct {
	r *request
	c data.CapitalDeposit
}

func (d *depositR) ID() string                          { return d.c.ID }
func (d *depositR) CompanyName() string                 { return d.c.CompanyName }
func (d *depositR) TotalCapitalDepositAmount() *amountR { return amount(d.c.Total(), d.c.Currency) }
func (d *depositR) CreatedAt() scalar                   { return dateTime(d.c.CreatedAt) }
func (d *depositR) UpdatedAt() scalar                   { return dateTime(d.c.UpdatedAt) }
func (d *depositR) StatusInfo() *depositR               { return d }
func (d *depositR) ReasonType() *string                 { return optString(d.c.CancelReason) }

func (d *depositR) CompanyAccountID() *string {
	if d.c.AccountIndex < 0 {
		return nil
	}
	return optString(d.r.store.AccountOfIndex(d.c.AccountIndex).ID)
}

// Status is the status as statusInfo tells it; on the case itself, the
// deprecated CapitalDepositCaseStatus of the same stage.
func (d *depositR) Status() string { return d.c.Status }

func (d *depositR) Shareholders() []*shareholderR {
	out := make([]*shareholderR, len(d.c.Shareholders))
	for i := range d.c.Shareholders {
		out[i] = &shareholderR{d: d, s: d.c.Shareholders[i]}
	}
	return out
}

func (d *depositR) Documents() []*depositDocR { return d.docs(d.c.Documents) }

func (d *depositR) docs(list []data.DepositDocument) []*depositDocR {
	out := make([]*depositDocR, len(list))
	for i, doc := range list {
		out[i] = &depositDocR{d: d, doc: doc}
	}
	return out
}

func (d *depositR) is(s string) bool { return d.c.Status == s }
func (d *depositR) ToCapitalDepositCaseCanceledStatusInfo() (*depositR, bool) {
	return d, d.is("Canceled")
}
func (d *depositR) ToCapitalDepositCaseCompletedStatusInfo() (*depositR, bool) {
	return d, d.is("Completed")
}
func (d *depositR) ToCapitalDepositCasePendingInternalReviewStatusInfo() (*depositR, bool) {
	return d, d.is("PendingInternalReview")
}
func (d *depositR) ToCapitalDepositCaseWaitingForAdditionalInformationStatusInfo() (*depositR, bool) {
	return d, d.is("WaitingForAdditionalInformation")
}
func (d *depositR) ToCapitalDepositCaseWaitingForInitialRequirementsStatusInfo() (*depositR, bool) {
	return d, d.is("WaitingForInitialRequirements")
}
func (d *depositR) ToCapitalDepositCaseWaitingForNotaryShareDepositCertificateStatusInfo() (*depositR, bool) {
	return d, d.is("WaitingForNotaryShareDepositCertificate")
}
func (d *depositR) ToCapitalDepositCaseWaitingForNotaryTransferStatusInfo() (*depositR, bool) {
	return d, d.is("WaitingForNotaryTransfer")
}
func (d *depositR) ToCapitalDepositCaseWaitingForRegisterExtractStatusInfo() (*depositR, bool) {
	return d, d.is("WaitingForRegisterExtract")
}

// caseR is the case itself, whose deprecated status names the stages the
// older way (CapitalDepositCaseStatus).
type caseR struct{ *depositR }

var oldDepositStatus = map[string]string{
	"WaitingForInitialRequirements": "WaitingForRequirements", "PendingInternalReview": "WaitingForRequirements",
	"WaitingForAdditionalInformation": "WaitingForRequirements", "WaitingForNotaryShareDepositCertificate": "WaitingForShareDepositCertificate",
}

func (c *caseR) Status() string {
	if s, ok := oldDepositStatus[c.c.Status]; ok {
		return s
	}
	return c.c.Status
}

// shareholderR is a Shareholder, and its IndividualShareholder or
// CompanyShareholder info.
type shareholderR struct {
	d *depositR
	s data.Shareholder
}

func (s *shareholderR) ID() ID                         { return ID(s.s.ID) }
func (s *shareholderR) CapitalDepositAmount() *amountR { return amount(s.s.Amount, s.d.c.Currency) }
func (s *shareholderR) AccountID() *string             { return nil }
func (s *shareholderR) Status() string                 { return s.s.Status }
func (s *shareholderR) Info() *shareholderR            { return s }
func (s *shareholderR) Type() string {
	if s.s.CompanyName != "" {
		return "Company"
	}
	return "Individual"
}
func (s *shareholderR) Name() string                      { return s.s.CompanyName }
func (s *shareholderR) FirstName() string                 { return s.s.FirstName }
func (s *shareholderR) LastName() string                  { return s.s.LastName }
func (s *shareholderR) BirthDate() string                 { return s.s.BirthDate }
func (s *shareholderR) Nationality() scalar               { return scalar(s.s.Nationality) }
func (s *shareholderR) Documents() []*depositDocR         { return s.d.docs(s.s.Documents) }
func (s *shareholderR) CreatedAt() scalar                 { return dateTime(s.s.CreatedAt) }
func (s *shareholderR) UpdatedAt() scalar                 { return dateTime(s.s.UpdatedAt) }
func (s *shareholderR) RelatedCapitalDepositCase() *caseR { return &caseR{s.d} }
func (s *shareholderR) ToIndividualShareholder() (*shareholderR, bool) {
	return s, s.s.CompanyName == ""
}
func (s *shareholderR) ToCompanyShareholder() (*shareholderR, bool) { return s, s.s.CompanyName != "" }

// depositDocR is a CapitalDepositDocument, and its status info.
type depositDocR struct {
	d   *depositR
	doc data.DepositDocument
}

func (d *depositDocR) ID() string                        { return d.doc.ID }
func (d *depositDocR) Type() string                      { return d.doc.Type }
func (d *depositDocR) Status() string                    { return d.doc.Status }
func (d *depositDocR) StatusInfo() *depositDocR          { return d }
func (d *depositDocR) ReasonCode() string                { return d.doc.ReasonCode }
func (d *depositDocR) Reason() *string                   { return nil }
func (d *depositDocR) CreatedAt() scalar                 { return dateTime(d.doc.CreatedAt) }
func (d *depositDocR) UpdatedAt() scalar                 { return dateTime(d.doc.UpdatedAt) }
func (d *depositDocR) RelatedCapitalDepositCase() *caseR { return &caseR{d.d} }

func (d *depositDocR) UploadedAt() *scalar {
	if d.doc.UploadedAt.IsZero() {
		return nil
	}
	v := date(d.doc.UploadedAt)
	return &v
}

func (d *depositDocR) DownloadUrl() *string {
	if d.doc.Status == "Pending" {
		return nil
	}
	return optString(data.DepositDocumentURL(d.doc))
}

func (d *depositDocR) RelatedShareholder() *shareholderR {
	if d.doc.Shareholder < 0 {
		return nil
	}
	return &shareholderR{d: d.d, s: d.d.c.Shareholders[d.doc.Shareholder]}
}

func (d *depositDocR) ToCapitalDepositDocumentPendingStatusInfo() (*depositDocR, bool) {
	return d, d.doc.Status == "Pending"
}
func (d *depositDocR) ToCapitalDepositDocumentRefusedStatusInfo() (*depositDocR, bool) {
	return d, d.doc.Status == "Refused"
}
func (d *depositDocR) ToCapitalDepositDocumentUploadedStatusInfo() (*depositDocR, bool) {
	return d, d.doc.Status == "Uploaded"
}
func (d *depositDocR) ToCapitalDepositDocumentValidatedStatusInfo() (*depositDocR, bool) {
	return d, d.doc.Status == "Validated"
}

func (r *partnerResolver) CapitalDepositCase(ctx context.Context, args struct{ ID ID }) *caseR {
	req := r.request(ctx)
	return byID(req, args.ID, r.store.CapitalDeposit, func(c data.CapitalDeposit) *caseR { return &caseR{&depositR{r: req, c: c}} })
}

func (r *partnerResolver) CapitalDepositDocument(ctx context.Context, args struct{ ID ID }) *depositDocR {
	req := r.request(ctx)
	d, c, ok := r.store.DepositDocumentByID(req.viewer, string(args.ID))
	if !ok {
		return nil
	}
	return &depositDocR{d: &depositR{r: req, c: c}, doc: d}
}

type capitalDepositCasesArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *struct {
		Search   *string
		Status   *[]string
		Statuses *[]string
	}
	OrderBy *orderArgs
}

// CapitalDepositCases are the project's cases, newest first; a user sees
// those that funded an account they see.
func (r *partnerResolver) CapitalDepositCases(ctx context.Context, args capitalDepositCasesArgs) (*connR[data.CapitalDeposit, *caseR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	req := r.request(ctx)
	q := data.DepositQuery{Viewer: req.viewer, First: int(args.First), After: deref(args.After), Before: deref(args.Before)}
	q.OrderBy, q.Desc = orderOf(args.OrderBy, "createdAt", true)
	if f := args.Filters; f != nil {
		q.Search, q.Statuses = deref(f.Search), deref(f.Statuses)
		// The deprecated statuses name stages the older way.
		for _, old := range deref(f.Status) {
			for now, was := range oldDepositStatus {
				if was == old {
					q.Statuses = append(q.Statuses, now)
				}
			}
			if old != "Initiated" && old != "WaitingForRequirements" && old != "WaitingForShareDepositCertificate" {
				q.Statuses = append(q.Statuses, old)
			}
		}
		if f.Status != nil && len(q.Statuses) == 0 {
			q.Statuses = []string{""}
		}
	}
	page, err := r.store.CapitalDeposits(q)
	if err != nil {
		return nil, fmt.Errorf("capitalDepositCases: %w", err)
	}
	return newConn(page, data.DepositCursor, func(c *data.CapitalDeposit) *caseR { return &caseR{&depositR{r: req, c: *c}} }), nil
}

// CancelCapitalDepositCase cancels a case that is not finished.
func (r *partnerResolver) CancelCapitalDepositCase(ctx context.Context, args struct{ Input struct{ ID ID } }) (*outcomeR, error) {
	id := string(args.Input.ID)
	req := r.request(ctx)
	c, err := r.store.CancelCapitalDeposit(req.viewer, id)
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &outcomeR{kind: "CapitalDepositCaseCanNotBeFound", ident: id, message: err.Error()}, nil
	case errors.Is(err, data.ErrWrongState):
		return &outcomeR{kind: "CapitalDepositCaseCanNotBeCanceled", ident: id, message: err.Error()}, nil
	case err != nil:
		return nil, fmt.Errorf("cancelCapitalDepositCase: %w", err)
	}
	r.events.hub.Emit(eventDepositCanceled, c.ID)
	return success(&caseR{&depositR{r: req, c: c}}), nil
}

func (o *outcomeR) CapitalDepositCase() *caseR { c, _ := o.object.(*caseR); return c }
func (o *outcomeR) ToCancelCapitalDepositCaseSuccessPayload() (*outcomeR, bool) {
	return o.as("Success")
}
func (o *outcomeR) ToCapitalDepositCaseCanNotBeFoundRejection() (*outcomeR, bool) {
	return o.as("CapitalDepositCaseCanNotBeFound")
}
func (o *outcomeR) ToCapitalDepositCaseCanNotBeCanceledRejection() (*outcomeR, bool) {
	return o.as("CapitalDepositCaseCanNotBeCanceled")
}

// SimulateApproveCapitalDepositCase moves a case one step along its
// path; a finished one stays as it is and emits nothing.
func (r *adminResolver) SimulateApproveCapitalDepositCase(ctx context.Context, args struct {
	Input struct{ CapitalDepositCaseID string }
}) (*payloadR, error) {
	id := args.Input.CapitalDepositCaseID
	c, moved, err := r.store.AdvanceCapitalDeposit(id)
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &payloadR{kind: "CouldNotFindCapitalDepositCase", ident: id, message: err.Error()}, nil
	case err != nil:
		return nil, fmt.Errorf("simulateApproveCapitalDepositCase: %w", err)
	}
	p := &payloadR{kind: "Success", ident: c.ID}
	if moved {
		p.emits = []emission{{eventDepositUpdated, c.ID}}
	}
	return p, nil
}

type depositDocumentStatusArgs struct {
	Input struct {
		DocumentID                string
		DocumentStatus            string
		DocumentRefusalReasonCode *string
	}
}

// SimulateCapitalDepositDocumentStatus reviews a document of a case that
// is not finished.
func (r *adminResolver) SimulateCapitalDepositDocumentStatus(ctx context.Context, args depositDocumentStatusArgs) (*payloadR, error) {
	in := args.Input
	d, _, err := r.store.SetDepositDocumentStatus(in.DocumentID, in.DocumentStatus, deref(in.DocumentRefusalReasonCode))
	switch {
	case errors.Is(err, data.ErrNotFound):
		return &payloadR{kind: "CouldNotFindCapitalDepositDocument", ident: in.DocumentID, message: err.Error()}, nil
	case errors.Is(err, data.ErrWrongState):
		return &payloadR{kind: "CouldNotUpdateCapitalDepositDocumentStatus", ident: in.DocumentID, message: err.Error()}, nil
	case err != nil:
		return nil, fmt.Errorf("simulateCapitalDepositDocumentStatus: %w", err)
	}
	return &payloadR{kind: "Success", ident: d.ID, emits: []emission{{eventDocumentUpdated, d.ID}}}, nil
}

func (r *adminRoot) SimulateApproveCapitalDepositCase(ctx context.Context, args struct {
	Input struct{ CapitalDepositCaseID string }
}) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateApproveCapitalDepositCase(ctx, args))
}

func (r *adminRoot) SimulateCapitalDepositDocumentStatus(ctx context.Context, args depositDocumentStatusArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.SimulateCapitalDepositDocumentStatus(ctx, args))
}

func (p *payloadR) ToSimulateApproveCapitalDepositCaseSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateCapitalDepositDocumentStatusSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToCouldNotFindCapitalDepositCaseRejection() (*payloadR, bool) {
	return p.as("CouldNotFindCapitalDepositCase")
}
func (p *payloadR) ToCouldNotFindCapitalDepositDocumentRejection() (*payloadR, bool) {
	return p.as("CouldNotFindCapitalDepositDocument")
}
func (p *payloadR) ToCouldNotUpdateCapitalDepositDocumentStatusRejection() (*payloadR, bool) {
	return p.as("CouldNotUpdateCapitalDepositDocumentStatus")
}
