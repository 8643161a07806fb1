package data

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Funding source statuses (FundingSourceStatus) the emulator's sources take.
const (
	FundingSourcePending  = "Pending"
	FundingSourceEnabled  = "Enabled"
	FundingSourceRejected = "Rejected"
)

// Account verification statuses (AccountVerificationStatus).
const (
	VerificationPendingVerification = "PendingVerification"
	VerificationPendingReview       = "PendingReview"
	VerificationVerified            = "Verified"
	VerificationRejected            = "Rejected"
)

// Payment mandate statuses (PaymentMandateStatus) of a funding source's
// mandate.
const (
	MandateConsentPending = "ConsentPending"
	MandateEnabled        = "Enabled"
)

// ErrVerificationRejected is addDirectDebitFundingSource's answer when
// the account holder's external IBAN was already rejected.
var ErrVerificationRejected = errors.New("the verification of this external IBAN for this account holder was rejected: contact the bank to resolve it")

// MaxFundingSources bounds the funding sources added in one emulator.
const MaxFundingSources = 10_000

// AccountVerification is the check that an external IBAN belongs to an
// account holder. There is one per holder and IBAN: a second funding
// source of the same couple shares it, and its status.
type AccountVerification struct {
	ID         string
	IBAN       string
	HolderID   string
	Status     string // AccountVerificationStatus
	CreatedAt  time.Time
	UpdatedAt  time.Time
	VerifiedAt time.Time // zero unless Verified
	RejectedAt time.Time // zero unless Rejected
}

// FundingSource is a direct debit funding source: an external IBAN the
// account pulls money from, once its payment mandate is consented and its
// account verification Verified.
type FundingSource struct {
	ID             string
	AccountID      string
	Name           string
	IBAN           string
	Scheme         string // SEPADirectDebitScheme
	Status         string // FundingSourceStatus
	VerificationID string
	// The payment mandate the account holder gives the bank to debit IBAN.
	MandateID        string
	MandateReference string
	MandateStatus    string // PaymentMandateStatus
	CreatedAt        time.Time
	UpdatedAt        time.Time
	EnabledAt        time.Time // zero unless Enabled
	RejectedAt       time.Time // zero unless Rejected
}

// funding holds what addDirectDebitFundingSource creates; Store.mu guards it.
type funding struct {
	sources       map[string]*FundingSource
	byAccount     map[string][]string // source ids by account id, in creation order
	verifications map[string]*AccountVerification
	byCouple      map[string]string // verification id by holder id and IBAN
}

// NewFundingSource is what addDirectDebitFundingSource asks for.
type NewFundingSource struct {
	AccountID, IBAN, Scheme, Name string
}

// AddFundingSource adds a direct debit funding source to an account whose
// memberships the user may manage. Its mandate waits for the user's
// consent, unless the user consents automatically (a Sandbox user with
// autoConsent); its verification is the one of the holder and IBAN if
// there is one, else a new PendingVerification one.
func (s *Store) AddFundingSource(userID string, in NewFundingSource) (FundingSource, error) {
	idx, ok := s.byID[in.AccountID]
	if !ok || !s.canSee(Viewer{UserID: userID}, idx) {
		return FundingSource{}, fmt.Errorf("account %s: %w", in.AccountID, ErrNotFound)
	}
	if !s.canManageMemberships(userID, idx) {
		return FundingSource{}, fmt.Errorf("adding a funding source needs a membership of account %s with canManageAccountMembership: %w", in.AccountID, ErrForbidden)
	}
	if a := &s.accounts[idx]; a.Status != "Opened" {
		return FundingSource{}, fmt.Errorf("the account is %s, and only an Opened account takes a funding source: %w", a.Status, ErrForbidden)
	}
	u, ok := s.User(s.Effective(userID))
	if !ok {
		return FundingSource{}, fmt.Errorf("user %s: %w", userID, ErrNotFound)
	}
	a := &s.accounts[idx]
	iban := normalizeIBAN(in.IBAN)
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &s.funding
	if len(f.sources) >= MaxFundingSources {
		return FundingSource{}, fmt.Errorf("the emulator holds %d funding sources, its maximum: restart it to start afresh: %w", MaxFundingSources, ErrForbidden)
	}
	if f.sources == nil {
		f.sources, f.byAccount = map[string]*FundingSource{}, map[string][]string{}
		f.verifications, f.byCouple = map[string]*AccountVerification{}, map[string]string{}
	}
	n := len(f.sources)
	couple := a.HolderID + "/" + iban
	v := f.verifications[f.byCouple[couple]]
	if v == nil {
		v = &AccountVerification{ID: s.runtimeID(0x61766572, n), IBAN: iban, HolderID: a.HolderID,
			Status: VerificationPendingVerification, CreatedAt: now, UpdatedAt: now}
		f.verifications[v.ID], f.byCouple[couple] = v, v.ID
	}
	if v.Status == VerificationRejected {
		return FundingSource{}, ErrVerificationRejected
	}
	src := &FundingSource{ID: s.runtimeID(0x66756e64, n), AccountID: a.ID, Name: in.Name, IBAN: iban,
		Scheme: in.Scheme, Status: FundingSourcePending, VerificationID: v.ID,
		MandateID: s.runtimeID(0x6d616e64, n), MandateStatus: MandateConsentPending, CreatedAt: now, UpdatedAt: now}
	src.MandateReference = strings.ToUpper(strings.ReplaceAll(src.MandateID, "-", ""))[:20]
	if u.AutoConsent {
		src.MandateStatus = MandateEnabled
	}
	src.follow(v, now)
	f.sources[src.ID] = src
	f.byAccount[a.ID] = append(f.byAccount[a.ID], src.ID)
	return *src, nil
}

// follow moves a funding source after its verification: Rejected with
// it; Enabled once it is Verified and the mandate consented.
func (src *FundingSource) follow(v *AccountVerification, now time.Time) bool {
	switch {
	case src.Status == FundingSourceRejected:
		return false
	case v.Status == VerificationRejected:
		src.Status, src.RejectedAt, src.EnabledAt = FundingSourceRejected, now, time.Time{}
	case v.Status == VerificationVerified && src.MandateStatus == MandateEnabled && src.Status == FundingSourcePending:
		src.Status, src.EnabledAt = FundingSourceEnabled, now
	default:
		return false
	}
	src.UpdatedAt = now
	return true
}

// canManageMemberships is whether the user's membership of the account has
// canManageAccountMembership.
func (s *Store) canManageMemberships(userID string, idx int32) bool {
	s.mu.RLock()
	m := s.members[s.effectiveLocked(userID)]
	s.mu.RUnlock()
	if m == nil || m.demo < 0 {
		return false
	}
	i, found := slices.BinarySearch(m.byCreated, idx)
	return found && (m.profiles[i] == profileFull || m.profiles[i] == profileLegalRep)
}

// SetVerificationStatus is updateAccountVerificationStatus: the
// verification takes the status, and its funding sources follow. It
// returns the verification and the funding sources whose status changed.
func (s *Store) SetVerificationStatus(id, status string) (AccountVerification, []FundingSource, error) {
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.funding.verifications[id]
	if !ok {
		return AccountVerification{}, nil, fmt.Errorf("account verification %s: %w", id, ErrNotFound)
	}
	v.Status, v.UpdatedAt = status, now
	v.VerifiedAt, v.RejectedAt = time.Time{}, time.Time{}
	switch status {
	case VerificationVerified:
		v.VerifiedAt = now
	case VerificationRejected:
		v.RejectedAt = now
	}
	var moved []FundingSource
	for _, src := range s.funding.sources {
		if src.VerificationID == id && src.follow(v, now) {
			moved = append(moved, *src)
		}
	}
	slices.SortFunc(moved, func(a, b FundingSource) int { return cmp.Compare(a.ID, b.ID) })
	return *v, moved, nil
}

// Verification returns the account verification with this id.
func (s *Store) Verification(id string) (AccountVerification, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.funding.verifications[id]
	if !ok {
		return AccountVerification{}, false
	}
	return *v, true
}

// FundingSourceQuery selects and orders an account's funding sources.
type FundingSourceQuery struct {
	First    int
	After    string
	Offset   int
	Field    string // createdAt | updatedAt
	Desc     bool
	Statuses []string // none keeps every status
}

// FundingSourceCursor is the cursor of a funding source in a connection.
func FundingSourceCursor(f *FundingSource) string { return encodeCursor("fundingSource", f.ID) }

// FundingSources pages through an account's funding sources.
func (s *Store) FundingSources(accountID string, q FundingSourceQuery) (Page[FundingSource], error) {
	s.mu.RLock()
	var list []FundingSource
	for _, id := range s.funding.byAccount[accountID] {
		if src := s.funding.sources[id]; len(q.Statuses) == 0 || slices.Contains(q.Statuses, src.Status) {
			list = append(list, *src)
		}
	}
	s.mu.RUnlock()
	slices.SortStableFunc(list, func(a, b FundingSource) int {
		x, y := a.UpdatedAt, b.UpdatedAt
		if q.Field == "createdAt" {
			x, y = a.CreatedAt, b.CreatedAt
		}
		if q.Desc {
			x, y = y, x
		}
		return x.Compare(y)
	})
	start := q.Offset
	if q.After != "" {
		id, ok := decodeCursor(q.After, "fundingSource")
		i := slices.IndexFunc(list, func(f FundingSource) bool { return f.ID == id })
		if !ok || i < 0 {
			return Page[FundingSource]{}, ErrBadCursor
		}
		start = i + 1
	}
	start = min(max(start, 0), len(list))
	return window(list, start, q.First), nil
}

// FundingSourceOf returns the funding source with this id if the viewer
// sees its account.
func (s *Store) FundingSourceOf(v Viewer, id string) (FundingSource, bool) {
	s.mu.RLock()
	src, ok := s.funding.sources[id]
	var out FundingSource
	if ok {
		out = *src
	}
	s.mu.RUnlock()
	if !ok {
		return FundingSource{}, false
	}
	if _, seen := s.Account(v, out.AccountID); !seen {
		return FundingSource{}, false
	}
	return out, true
}
