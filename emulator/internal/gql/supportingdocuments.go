package gql

import (
	"context"
	"fmt"
	"slices"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Webhook event of a supporting document collection's change
// (swan-io/docs, webhooks.mdx: "finalized or updated").
const eventCollectionUpdated = "SupportingDocumentCollection.Updated"

// collectionR is a SupportingDocumentCollection, and its status info.
type collectionR struct {
	r *request
	c data.DocumentCollection
}

func (c *collectionR) ID() string                       { return c.c.ID }
func (c *collectionR) CreatedAt() scalar                { return dateTime(c.c.CreatedAt) }
func (c *collectionR) UpdatedAt() scalar                { return dateTime(c.c.UpdatedAt) }
func (c *collectionR) ProjectInfo() *projectR           { return c.r.ProjectInfo() }
func (c *collectionR) Type() string                     { return "Onboarding" }
func (c *collectionR) StatusInfo() *collectionR         { return c }
func (c *collectionR) Status() string                   { return c.c.Status }
func (c *collectionR) ApprovedAt() scalar               { return dateTime(c.c.StatusAt) }
func (c *collectionR) RejectedAt() scalar               { return dateTime(c.c.StatusAt) }
func (c *collectionR) CanceledAt() scalar               { return dateTime(c.c.StatusAt) }
func (c *collectionR) is(s string) (*collectionR, bool) { return c, c.c.Status == s }

func (c *collectionR) ToSupportingDocumentCollectionWaitingForDocumentStatusInfo() (*collectionR, bool) {
	return c.is(data.CollectionWaitingForDocument)
}
func (c *collectionR) ToSupportingDocumentCollectionPendingReviewStatusInfo() (*collectionR, bool) {
	return c.is(data.CollectionPendingReview)
}
func (c *collectionR) ToSupportingDocumentCollectionApprovedStatusInfo() (*collectionR, bool) {
	return c.is(data.CollectionApproved)
}
func (c *collectionR) ToSupportingDocumentCollectionRejectedStatusInfo() (*collectionR, bool) {
	return c.is(data.CollectionRejected)
}
func (c *collectionR) ToSupportingDocumentCollectionCanceledStatusInfo() (*collectionR, bool) {
	return c.is(data.CollectionCanceled)
}

func (c *collectionR) SupportingDocuments() []*supportingDocR {
	out := make([]*supportingDocR, len(c.c.Documents))
	for i := range c.c.Documents {
		out[i] = &supportingDocR{d: c.c.Documents[i]}
	}
	return out
}

func (c *collectionR) RequiredSupportingDocumentPurposes() []*purposeR {
	out := make([]*purposeR, len(c.c.Required))
	for i := range c.c.Required {
		out[i] = &purposeR{p: c.c.Required[i]}
	}
	return out
}

// purposeR is a SupportingDocumentPurpose.
type purposeR struct{ p data.DocumentPurpose }

func (p *purposeR) Name() string                                { return p.p.Name }
func (p *purposeR) AcceptableSupportingDocumentTypes() []string { return p.p.Types }
func (p *purposeR) Label() string                               { return p.p.Label }
func (p *purposeR) Description() string                         { return p.p.Description }

// supportingDocR is a SupportingDocument, and its status info.
type supportingDocR struct{ d data.SupportingDocument }

func (d *supportingDocR) ID() string                          { return d.d.ID }
func (d *supportingDocR) SupportingDocumentId() string        { return d.d.ID }
func (d *supportingDocR) Purpose() *purposeR                  { return &purposeR{p: d.d.Purpose} }
func (d *supportingDocR) SupportingDocumentType() *string     { return optString(d.d.Type) }
func (d *supportingDocR) CreatedAt() scalar                   { return dateTime(d.d.CreatedAt) }
func (d *supportingDocR) UpdatedAt() scalar                   { return dateTime(d.d.UpdatedAt) }
func (d *supportingDocR) StatusInfo() *supportingDocR         { return d }
func (d *supportingDocR) Status() string                      { return d.d.Status }
func (d *supportingDocR) Filename() string                    { return d.d.Filename }
func (d *supportingDocR) ValidatedAt() scalar                 { return dateTime(d.d.At) }
func (d *supportingDocR) RefusedAt() scalar                   { return dateTime(d.d.At) }
func (d *supportingDocR) Reason() string                      { return d.d.Reason }
func (d *supportingDocR) ReasonCode() string                  { return d.d.ReasonCode }
func (d *supportingDocR) is(s string) (*supportingDocR, bool) { return d, d.d.Status == s }

func (d *supportingDocR) ToSupportingDocumentWaitingForUploadStatusInfo() (*supportingDocR, bool) {
	return d.is(data.DocumentWaitingForUpload)
}
func (d *supportingDocR) ToSupportingDocumentUploadedStatusInfo() (*supportingDocR, bool) {
	return d.is(data.DocumentUploaded)
}
func (d *supportingDocR) ToSupportingDocumentValidatedStatusInfo() (*supportingDocR, bool) {
	return d.is(data.DocumentValidated)
}
func (d *supportingDocR) ToSupportingDocumentRefusedStatusInfo() (*supportingDocR, bool) {
	return d.is(data.DocumentRefused)
}
func (d *supportingDocR) ToSupportingDocumentNotUploadedStatusInfo() (*supportingDocR, bool) {
	return d.is(data.DocumentNotUploaded)
}

// SupportingDocumentCollection is the onboarding's.
func (o *onboardingR) SupportingDocumentCollection() *collectionR {
	return &collectionR{r: o.r, c: o.r.store.DocumentCollectionOf(o.o)}
}

// SupportingDocumentCollection is read by whoever sees its onboarding.
func (r *partnerResolver) SupportingDocumentCollection(ctx context.Context, args struct{ ID ID }) *collectionR {
	req := r.request(ctx)
	return byID(req, args.ID, r.store.DocumentCollection, func(c data.DocumentCollection) *collectionR { return &collectionR{r: req, c: c} })
}

type collectionsArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *struct {
		Type   *[]string
		Status *[]string
	}
	OrderBy *struct {
		Field     string
		Direction string
	}
}

// SupportingDocumentCollections are those of the onboardings the token
// reads, oldest first: the model's collections are its onboardings', so
// a type filter without Onboarding lists none.
func (r *partnerResolver) SupportingDocumentCollections(ctx context.Context, args collectionsArgs) (*connR[data.DocumentCollection, *collectionR], error) {
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	req := r.request(ctx)
	q := data.CollectionQuery{Viewer: req.viewer, First: int(args.First), After: deref(args.After), Before: deref(args.Before), OrderBy: "createdAt"}
	if o := args.OrderBy; o != nil {
		q.OrderBy, q.Desc = o.Field, o.Direction == "Desc"
	}
	if f := args.Filters; f != nil {
		q.Statuses = deref(f.Status)
		if types := deref(f.Type); len(types) > 0 && !slices.Contains(types, "Onboarding") {
			q.Statuses = []string{""} // no status: none listed
		}
	}
	page, err := r.store.DocumentCollections(q)
	if err != nil {
		return nil, fmt.Errorf("supportingDocumentCollections: %w", err)
	}
	return newConn(page, data.CollectionCursor, func(c *data.DocumentCollection) *collectionR { return &collectionR{r: req, c: *c} }), nil
}
