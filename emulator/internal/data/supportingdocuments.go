package data

import (
	"slices"
	"strings"
	"time"
)

// Supporting document collection statuses
// (SupportingDocumentCollectionStatus).
const (
	CollectionWaitingForDocument = "WaitingForDocument"
	CollectionPendingReview      = "PendingReview"
	CollectionApproved           = "Approved"
	CollectionRejected           = "Rejected"
	CollectionCanceled           = "Canceled"
)

// Supporting document statuses (SupportingDocumentStatus).
const (
	DocumentWaitingForUpload = "WaitingForUpload"
	DocumentUploaded         = "Uploaded"
	DocumentValidated        = "Validated"
	DocumentRefused          = "Refused"
	DocumentNotUploaded      = "NotUploaded"
)

// DocumentPurpose is what a supporting document is for
// (SupportingDocumentPurpose): its name, the kinds of document that serve
// it, and how the platform presents it.
type DocumentPurpose struct {
	Name               string   // SupportingDocumentPurposeEnum
	Types              []string // SupportingDocumentType
	Label, Description string
}

// documentPurposes are the purposes the emulator's onboardings require.
var documentPurposes = map[string]DocumentPurpose{
	"CompanyRegistration": {Name: "CompanyRegistration", Types: []string{"RegisterExtract"},
		Label: "Company registration", Description: "An extract of the company's registration, issued within the last three months."},
	"SignedStatus": {Name: "SignedStatus", Types: []string{"ByLaws", "ArticlesOfIncorporation"},
		Label: "Signed statutes", Description: "The company's statutes, signed and dated."},
	"UBODeclaration": {Name: "UBODeclaration", Types: []string{"UBODeclaration"},
		Label: "Beneficial owners", Description: "A declaration of the people who own or control the company."},
	"ProofOfCompanyAddress": {Name: "ProofOfCompanyAddress", Types: []string{"CompanyLeaseAgreement", "UtilityBill", "PhoneBill"},
		Label: "Company address", Description: "A lease agreement or a recent bill in the company's name at its registered address."},
	"ProofOfIndividualAddress": {Name: "ProofOfIndividualAddress", Types: []string{"UtilityBill", "PhoneBill", "RentReceipt", "HomeInsurance"},
		Label: "Proof of address", Description: "A bill, rent receipt or home insurance certificate issued within the last three months."},
}

// documentRefusals are the reasons the emulator refuses a document for
// (SupportingDocumentReasonCode), with the reviewer's note.
var documentRefusals = []struct{ code, reason string }{
	{"ExpiredDocument", "The document was issued more than three months ago."},
	{"BadDocumentQuality", "The document cannot be read: upload a sharper copy."},
	{"MissingSignature", "The document must be signed and dated."},
	{"CompanyNameMismatch", "The name on the document is not the company's."},
}

// SupportingDocument is one document of a collection, uploaded for one
// of its purposes.
type SupportingDocument struct {
	ID      string
	Purpose DocumentPurpose
	Type    string // SupportingDocumentType; empty until uploaded
	Status  string
	// Filename is the file uploaded.
	Filename string
	// At is when it was validated or refused; ReasonCode and Reason say
	// why it was refused (Reason also notes a validation).
	At                   time.Time
	ReasonCode, Reason   string
	CreatedAt, UpdatedAt time.Time
}

// DocumentCollection is an onboarding's supporting document collection:
// the purposes the platform requires (a company proves its registration,
// its statutes and who owns it, sometimes its address; an individual now
// and then an address) and the documents uploaded for them. While the
// onboarding is filled in the collection waits for documents; once the
// account is open its status follows the holder's verification:
// documents pending review while it is Pending, approved once Verified,
// one refused and more awaited while it waits for supporting documents,
// rejected with the holder.
type DocumentCollection struct {
	ID                   string
	OnboardingID         string
	AccountIndex         int32 // the onboarding's account; -1 while not finalized
	Status               string
	StatusAt             time.Time // approved, rejected or canceled
	Required             []DocumentPurpose
	Documents            []SupportingDocument
	CreatedAt, UpdatedAt time.Time
}

// collectionDocBits sizes a document's position under its collection.
const collectionDocBits = 3

// DocumentCollectionOf is the supporting document collection of an
// onboarding, as it is now.
func (s *Store) DocumentCollectionOf(o Onboarding) DocumentCollection {
	pos, _ := s.decodeEntityID(kindOnboarding, o.ID)
	h := newHrand(uint64(s.seed), pos, 0x73646f63)
	c := DocumentCollection{ID: s.entityID(kindDocumentCollection, pos), OnboardingID: o.ID, AccountIndex: o.AccountIndex,
		Status: CollectionWaitingForDocument, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt}
	names := []string{"ProofOfIndividualAddress"}
	if o.Type == "Company" {
		names = []string{"CompanyRegistration", "SignedStatus", "UBODeclaration", "ProofOfCompanyAddress"}
		names = names[:3+h.intn(2)]
	} else if h.intn(3) != 0 {
		names = nil // the platform often requires no document of a person
	}
	// What each required document got to while the onboarding was
	// filled in: nothing yet, an upload link, or the file.
	progress := make([]int, len(names))
	for i := range progress {
		progress[i] = h.intn(3)
	}
	refused := documentRefusals[h.intn(len(documentRefusals))]
	var v Verification
	if o.AccountIndex >= 0 {
		v = s.HolderVerification(&s.accounts[o.AccountIndex])
		if v.Status == "WaitingForInformation" && len(names) == 0 && v.needs("SupportingDocumentsRequired") {
			// Asked for documents after all: a proof of address.
			names, progress = []string{"ProofOfIndividualAddress"}, []int{2}
		}
	}
	for _, n := range names {
		c.Required = append(c.Required, documentPurposes[n])
	}
	for i, p := range c.Required {
		d := SupportingDocument{ID: s.entityID(kindSupportingDocument, pos<<collectionDocBits|uint64(i)), Purpose: p,
			CreatedAt: o.CreatedAt.Add(time.Duration(1+i) * time.Minute)}
		d.UpdatedAt = d.CreatedAt
		uploaded := func() {
			d.Status, d.Type = DocumentUploaded, p.Types[int(pos+uint64(i))%len(p.Types)]
			d.Filename = strings.ToLower(d.Type) + ".pdf"
			d.UpdatedAt = d.CreatedAt.Add(10 * time.Minute)
		}
		switch {
		case o.AccountIndex < 0 || v.Status == "NotStarted":
			switch progress[i] {
			case 0:
				continue // no document yet for this purpose
			case 1:
				d.Status = DocumentWaitingForUpload
			default:
				uploaded()
			}
		case v.Status == "Pending" || (v.Status == "WaitingForInformation" && !v.needs("SupportingDocumentsRequired")):
			uploaded()
		case v.Status == "Verified":
			uploaded()
			d.Status, d.At, d.Reason, d.UpdatedAt = DocumentValidated, v.At, "Document matches the holder's details", v.At
		default: // Refused, or waiting for supporting documents: the first is refused
			uploaded()
			d.Status, d.At, d.UpdatedAt = DocumentValidated, v.At, v.At
			d.Reason = "Document matches the holder's details"
			if i == 0 {
				d.Status, d.ReasonCode, d.Reason = DocumentRefused, refused.code, refused.reason
			}
		}
		c.Documents = append(c.Documents, d)
	}
	if o.AccountIndex < 0 {
		return c
	}
	switch v.Status {
	case "Pending":
		c.Status = CollectionPendingReview
	case "WaitingForInformation":
		if !v.needs("SupportingDocumentsRequired") {
			c.Status = CollectionPendingReview
		}
	case "Verified":
		c.Status, c.StatusAt = CollectionApproved, v.At
	case "Refused":
		c.Status, c.StatusAt = CollectionRejected, v.At
	}
	c.UpdatedAt = laterOf(c.UpdatedAt, v.At)
	return c
}

// needs is whether the verification still requires something of this
// type (VerificationRequirementType).
func (v *Verification) needs(typ string) bool {
	for _, r := range v.Requirements {
		if r.Type == typ {
			return true
		}
	}
	return false
}

// DocumentCollection returns the collection with this id, if the viewer
// sees its onboarding.
func (s *Store) DocumentCollection(v Viewer, id string) (DocumentCollection, bool) {
	pos, ok := s.decodeEntityID(kindDocumentCollection, id)
	if !ok {
		return DocumentCollection{}, false
	}
	o, ok := s.Onboarding(v, s.entityID(kindOnboarding, pos))
	if !ok {
		return DocumentCollection{}, false
	}
	return s.DocumentCollectionOf(o), true
}

// CollectionQuery is a page of the supporting document collections.
type CollectionQuery struct {
	Viewer   Viewer
	First    int
	After    string
	Before   string
	Statuses []string
	OrderBy  string // createdAt (default) | id
	Desc     bool
}

// CollectionCursor is the opaque cursor of a collection.
func CollectionCursor(c *DocumentCollection) string {
	return encodeCursor("supportingDocumentCollection", c.ID)
}

// DocumentCollections pages the collections of the onboardings the viewer
// reads by id, one each, so that every id the list gives reads alone.
func (s *Store) DocumentCollections(q CollectionQuery) (Page[DocumentCollection], error) {
	var list []DocumentCollection
	for _, r := range s.onboardings().refs {
		if !s.seesOnboarding(q.Viewer, r) {
			continue
		}
		if c := s.DocumentCollectionOf(s.onboardingOf(r)); len(q.Statuses) == 0 || slices.Contains(q.Statuses, c.Status) {
			list = append(list, c)
		}
	}
	key := func(x, y DocumentCollection) int { return x.CreatedAt.Compare(y.CreatedAt) }
	if q.OrderBy == "id" {
		key = func(x, y DocumentCollection) int { return strings.Compare(x.ID, y.ID) }
	}
	slices.SortStableFunc(list, key)
	if q.Desc {
		slices.Reverse(list)
	}
	return pageByCursor(list, q.First, q.After, q.Before, 0, "supportingDocumentCollection", func(c DocumentCollection) string { return c.ID })
}
