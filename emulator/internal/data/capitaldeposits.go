package data

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Capital deposit case statuses (CapitalDepositStatus), in the order a
// case goes through them; Canceled may end any but Completed.
var depositSteps = []string{
	"WaitingForInitialRequirements", "PendingInternalReview", "WaitingForNotaryShareDepositCertificate",
	"WaitingForRegisterExtract", "WaitingForNotaryTransfer", "Completed",
}

// Capital deposit statuses that are not a step of the main path.
const (
	DepositAdditionalInformation = "WaitingForAdditionalInformation"
	DepositCanceled              = "Canceled"
	DepositCompleted             = "Completed"
)

// CapitalDeposit is a capital deposit case: the shareholders of a company
// being created deposit its share capital, with the documents the notary
// and the platform review, until the funds go to the new company's
// account. Cases are the project's; the seed has some at every stage.
type CapitalDeposit struct {
	ID           string
	CompanyName  string
	AccountIndex int32 // the company's account once Completed, else -1
	Status       string
	CancelReason string // CapitalDepositCaseCancellationReasonType
	Currency     string
	Shareholders []Shareholder
	Documents    []DepositDocument // the case's own
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Total is the share capital the shareholders deposit.
func (c *CapitalDeposit) Total() int64 {
	var t int64
	for _, s := range c.Shareholders {
		t += s.Amount
	}
	return t
}

// Shareholder is a person or a company who deposits part of the capital.
type Shareholder struct {
	ID string
	// CompanyName is a company shareholder's name; empty for a person, who
	// has the names, birth date and nationality.
	CompanyName                    string
	FirstName, LastName, BirthDate string
	Nationality                    string
	Amount                         int64 // cents
	Status                         string
	Documents                      []DepositDocument
	CreatedAt, UpdatedAt           time.Time
}

// DepositDocument is a document of a case or of a shareholder.
type DepositDocument struct {
	ID          string
	Type        string // CapitalDepositDocumentType
	Status      string // CapitalDepositDocumentStatus
	ReasonCode  string // Refused
	UploadedAt  time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Shareholder int // the shareholder's index, -1 for the case's
}

// capitalDeposits are what the Testing API and the partner changed (under
// Store.mu): case statuses and documents' statuses.
type capitalDeposits struct {
	cases map[int]caseChange
	docs  map[string]DepositDocument
}

type caseChange struct {
	status, reason string
	at             time.Time
}

// depositCount is how many cases a store of n accounts has.
func depositCount(n int) int { return max(2, n/20) }

// depositPosBits sizes a document's or shareholder's position under its
// case.
const depositPosBits = 4

// shareholderStatus is a shareholder's status at a stage of the case.
func shareholderStatus(caseStatus string, h *hrand) string {
	switch caseStatus {
	case "WaitingForInitialRequirements":
		return h.pick([]string{"PendingOnboarding", "WaitingForVerification", "WaitingForTransfer"})
	case "PendingInternalReview", DepositAdditionalInformation, "WaitingForNotaryShareDepositCertificate", "WaitingForRegisterExtract", "WaitingForNotaryTransfer":
		return "CapitalTransferred"
	case DepositCompleted:
		return "CapitalFundsWiredToNotary"
	}
	return "CapitalDepositCanceled"
}

// docStatus is the status of a document at a stage (stage: the index of
// the case's status in depositSteps, len for Canceled).
func docStatus(stage, needed int, h *hrand) string {
	switch {
	case stage < needed:
		return "Pending"
	case stage == needed:
		return h.pick([]string{"Pending", "Uploaded"})
	case stage == needed+1:
		return h.pick([]string{"Uploaded", "Validated"})
	}
	return "Validated"
}

// seededDeposit is the k-th case of the seed.
func (s *Store) seededDeposit(k int) CapitalDeposit {
	h := newHrand(uint64(s.seed), uint64(k), 0x63617064)
	last := h.pick(lastNames["FRA"])
	c := CapitalDeposit{ID: s.entityID(kindDeposit, uint64(k)), AccountIndex: -1, Currency: "EUR",
		CompanyName: h.pick(companyActivities["FRA"]) + " " + last + " " + h.pick(companyForms["FRA"])}
	c.Status = h.weighted(append(slices.Clone(depositSteps), DepositAdditionalInformation, DepositCanceled), []int{20, 15, 10, 10, 5, 20, 10, 10})
	c.CreatedAt = s.epoch.Add(-time.Duration(h.between(2, 240)) * day).Add(time.Duration(h.between(0, 86_399)) * time.Second).Truncate(time.Millisecond)
	c.UpdatedAt = c.CreatedAt.Add(min(s.epoch.Sub(c.CreatedAt), time.Duration(h.between(1, 60))*day))
	stage := slices.Index(depositSteps, c.Status)
	switch c.Status {
	case DepositAdditionalInformation:
		stage = 1
	case DepositCanceled:
		stage = h.intn(3)
		c.CancelReason = h.pick([]string{"CapitalDepositWithdrawn", "KYCIssue", "UnsupportedLegalForm", "BusinessInactiveOrNotRegistered"})
	case DepositCompleted:
		c.AccountIndex = s.companyAccount(k)
	}
	at := func(i uint64) time.Time { return c.CreatedAt.Add(time.Duration(i) * time.Hour) }
	doc := func(pos uint64, typ string, needed, holder int) DepositDocument {
		d := DepositDocument{ID: s.entityID(kindDepositDocument, uint64(k)<<depositPosBits|pos), Type: typ,
			Status: docStatus(stage, needed, &h), CreatedAt: at(pos), UpdatedAt: at(pos), Shareholder: holder}
		if d.Status != "Pending" {
			d.UploadedAt, d.UpdatedAt = at(pos+24), at(pos+24)
		}
		return d
	}
	c.Documents = []DepositDocument{doc(0, "ArticlesOfIncorporation", 0, -1), doc(1, "CompanyLeaseAgreement", 0, -1)}
	if stage >= 2 {
		c.Documents = append(c.Documents, doc(2, "CapitalShareDepositCertificate", 2, -1))
	}
	if stage >= 3 {
		c.Documents = append(c.Documents, doc(3, "RegisterExtract", 3, -1))
	}
	if c.Status == DepositAdditionalInformation {
		// What the review asks again: the lease agreement, refused.
		c.Documents[1].Status, c.Documents[1].ReasonCode = "Refused", h.pick([]string{"ExpiredDocument", "MissingSignature", "CompanyNameMismatch"})
	}
	n := 1 + h.intn(3)
	for i := range n {
		first := h.pick(firstNames["FRA"])
		sh := Shareholder{ID: s.entityID(kindShareholder, uint64(k)<<depositPosBits|uint64(i)), FirstName: first, LastName: last,
			BirthDate: fmt.Sprintf("%d-%02d-%02d", 1955+h.intn(45), 1+h.intn(12), 1+h.intn(28)), Nationality: "FRA",
			Amount: h.between(5, 250) * 10_000, Status: shareholderStatus(c.Status, &h), CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
		base := 4 + uint64(i)*2
		sh.Documents = []DepositDocument{doc(base, "ProofOfIdentity", 0, i), doc(base+1, "ProofOfIndividualAddress", 0, i)}
		c.Shareholders = append(c.Shareholders, sh)
	}
	// Now and then a company deposits a part too: it proves its
	// registration and its legal representative's identity (the
	// platform's list of required documents).
	hc := newHrand(uint64(s.seed), uint64(k), 0x636f6d70)
	if hc.intn(4) == 0 {
		i := len(c.Shareholders)
		sh := Shareholder{ID: s.entityID(kindShareholder, uint64(k)<<depositPosBits|uint64(i)),
			CompanyName: "Holding " + hc.pick(lastNames["FRA"]) + " " + hc.pick(companyForms["FRA"]),
			Amount:      hc.between(50, 500) * 10_000, Status: shareholderStatus(c.Status, &hc), CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
		base := 4 + uint64(i)*2
		sh.Documents = []DepositDocument{doc(base, "RegisterExtract", 0, i), doc(base+1, "ProofOfIdentity", 0, i)}
		c.Shareholders = append(c.Shareholders, sh)
	}
	return c
}

// companyAccount is the Opened company account a completed case k funded,
// or -1 when the store has none.
func (s *Store) companyAccount(k int) int32 {
	companies := s.companies()
	if len(companies) == 0 {
		return -1
	}
	return companies[k%len(companies)]
}

// openCompanies are the Opened accounts of companies, in creation order.
func (s *Store) openCompanies() []int32 {
	var out []int32
	for i := range s.accounts {
		if a := &s.accounts[i]; a.HolderType == "Company" && a.Status == "Opened" {
			out = append(out, int32(i))
		}
	}
	return out
}

// deposit is case k as it is now.
func (s *Store) deposit(k int) CapitalDeposit {
	c := s.seededDeposit(k)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if ch, ok := s.deposits.cases[k]; ok {
		c.Status, c.CancelReason, c.UpdatedAt = ch.status, ch.reason, ch.at
		if c.Status == DepositCompleted && c.AccountIndex < 0 {
			c.AccountIndex = s.companyAccount(k)
		}
		for i := range c.Shareholders {
			h := newHrand(uint64(k), uint64(i))
			c.Shareholders[i].Status = shareholderStatus(c.Status, &h)
		}
	}
	over := func(d *DepositDocument) {
		if ch, ok := s.deposits.docs[d.ID]; ok {
			*d = ch
		}
	}
	for i := range c.Documents {
		over(&c.Documents[i])
	}
	for i := range c.Shareholders {
		for j := range c.Shareholders[i].Documents {
			over(&c.Shareholders[i].Documents[j])
		}
	}
	return c
}

// visibleDeposit is whether the viewer sees a case: a project token every
// one, a user token those that funded an account they see.
func (s *Store) visibleDeposit(v Viewer, c *CapitalDeposit) bool {
	return v.Project || (c.AccountIndex >= 0 && s.canSee(v, c.AccountIndex))
}

// CapitalDeposit returns the case with this id, if the viewer sees it.
func (s *Store) CapitalDeposit(v Viewer, id string) (CapitalDeposit, bool) {
	pos, ok := s.decodeEntityID(kindDeposit, id)
	if !ok || pos >= uint64(depositCount(len(s.accounts))) {
		return CapitalDeposit{}, false
	}
	c := s.deposit(int(pos))
	return c, s.visibleDeposit(v, &c)
}

// DepositDocumentByID returns a document and its case, if the viewer sees
// the case.
func (s *Store) DepositDocumentByID(v Viewer, id string) (DepositDocument, CapitalDeposit, bool) {
	pos, ok := s.decodeEntityID(kindDepositDocument, id)
	if !ok {
		return DepositDocument{}, CapitalDeposit{}, false
	}
	c, ok := s.CapitalDeposit(v, s.entityID(kindDeposit, pos>>depositPosBits))
	if !ok {
		return DepositDocument{}, CapitalDeposit{}, false
	}
	for _, d := range c.AllDocuments() {
		if d.ID == id {
			return d, c, true
		}
	}
	return DepositDocument{}, CapitalDeposit{}, false
}

// AllDocuments are the case's documents and its shareholders'.
func (c *CapitalDeposit) AllDocuments() []DepositDocument {
	out := slices.Clone(c.Documents)
	for _, sh := range c.Shareholders {
		out = append(out, sh.Documents...)
	}
	return out
}

// DepositQuery is one page request of the root capitalDepositCases.
type DepositQuery struct {
	Viewer   Viewer
	First    int
	After    string
	Before   string
	Statuses []string
	Search   string // a part of the company's name, or the id
	OrderBy  string // createdAt (default) | updatedAt | id
	Desc     bool
}

// DepositCursor is the opaque cursor of a case.
func DepositCursor(c *CapitalDeposit) string { return encodeCursor("capitalDepositCase", c.ID) }

// CapitalDeposits pages the cases the viewer sees.
func (s *Store) CapitalDeposits(q DepositQuery) (Page[CapitalDeposit], error) {
	search := strings.ToLower(strings.TrimSpace(q.Search))
	var list []CapitalDeposit
	for k := range depositCount(len(s.accounts)) {
		c := s.deposit(k)
		if s.visibleDeposit(q.Viewer, &c) && (len(q.Statuses) == 0 || slices.Contains(q.Statuses, c.Status)) &&
			(search == "" || strings.Contains(strings.ToLower(c.CompanyName), search) || c.ID == search) {
			list = append(list, c)
		}
	}
	key := func(x, y CapitalDeposit) int { return x.CreatedAt.Compare(y.CreatedAt) }
	switch q.OrderBy {
	case "updatedAt":
		key = func(x, y CapitalDeposit) int { return x.UpdatedAt.Compare(y.UpdatedAt) }
	case "id":
		key = func(x, y CapitalDeposit) int { return strings.Compare(x.ID, y.ID) }
	}
	slices.SortStableFunc(list, key)
	if q.Desc {
		slices.Reverse(list)
	}
	return pageByCursor(list, q.First, q.After, q.Before, 0, "capitalDepositCase", func(c CapitalDeposit) string { return c.ID })
}

// ErrCaseFinished is a change of a case that is Completed or Canceled.
var ErrCaseFinished = fmt.Errorf("the capital deposit case is finished: %w", ErrWrongState)

// AdvanceCapitalDeposit is the Testing API's approval of a case: it goes
// one step along the platform's path (a case waiting for more
// information back to the review). A finished case stays as it is.
func (s *Store) AdvanceCapitalDeposit(id string) (CapitalDeposit, bool, error) {
	c, ok := s.CapitalDeposit(Viewer{Project: true}, id)
	if !ok {
		return CapitalDeposit{}, false, fmt.Errorf("capital deposit case %s: %w", id, ErrNotFound)
	}
	next := ""
	switch i := slices.Index(depositSteps, c.Status); {
	case c.Status == DepositAdditionalInformation:
		next = "PendingInternalReview"
	case i >= 0 && i+1 < len(depositSteps):
		next = depositSteps[i+1]
	default:
		return c, false, nil
	}
	return s.setDepositStatus(c, next, ""), true, nil
}

// CancelCapitalDeposit cancels a case that is not finished.
func (s *Store) CancelCapitalDeposit(v Viewer, id string) (CapitalDeposit, error) {
	c, ok := s.CapitalDeposit(v, id)
	if !ok {
		return CapitalDeposit{}, fmt.Errorf("capital deposit case %s: %w", id, ErrNotFound)
	}
	if c.Status == DepositCompleted || c.Status == DepositCanceled {
		return CapitalDeposit{}, ErrCaseFinished
	}
	return s.setDepositStatus(c, DepositCanceled, "CapitalDepositWithdrawn"), nil
}

func (s *Store) setDepositStatus(c CapitalDeposit, status, reason string) CapitalDeposit {
	pos, _ := s.decodeEntityID(kindDeposit, c.ID)
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	if s.deposits.cases == nil {
		s.deposits.cases = map[int]caseChange{}
	}
	s.deposits.cases[int(pos)] = caseChange{status: status, reason: reason, at: now}
	s.mu.Unlock()
	return s.deposit(int(pos))
}

// SetDepositDocumentStatus is the Testing API's review of a document:
// Uploaded, Validated or Refused (with a reason code).
func (s *Store) SetDepositDocumentStatus(id, status, reasonCode string) (DepositDocument, CapitalDeposit, error) {
	d, c, ok := s.DepositDocumentByID(Viewer{Project: true}, id)
	switch {
	case !ok:
		return DepositDocument{}, CapitalDeposit{}, fmt.Errorf("capital deposit document %s: %w", id, ErrNotFound)
	case c.Status == DepositCompleted || c.Status == DepositCanceled:
		return DepositDocument{}, CapitalDeposit{}, ErrCaseFinished
	case status == "Refused" && reasonCode == "":
		return DepositDocument{}, CapitalDeposit{}, fmt.Errorf("a refused document needs a documentRefusalReasonCode: %w", ErrWrongState)
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	d.Status, d.UpdatedAt, d.ReasonCode = status, now, ""
	if status == "Refused" {
		d.ReasonCode = reasonCode
	}
	if status == "Uploaded" {
		d.UploadedAt = now
	}
	s.mu.Lock()
	if s.deposits.docs == nil {
		s.deposits.docs = map[string]DepositDocument{}
	}
	s.deposits.docs[id] = d
	s.mu.Unlock()
	return d, c, nil
}

// DepositDocumentURL is where an uploaded document is downloaded.
func DepositDocumentURL(d DepositDocument) string {
	return "https://documents.example.com/capital-deposits/" + d.ID + ".pdf"
}
