package data

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Verification is an account holder's verification: its status
// (VerificationStatus), since when, why it was refused and what is
// still required while it waits for information.
type Verification struct {
	Status       string
	At           time.Time // pending, verified, refused or waiting since
	Reason       string    // Refused
	Requirements []Requirement
	UpdatedAt    time.Time
}

// Requirement is something the platform still needs from a holder
// (VerificationRequirement).
type Requirement struct{ ID, Type string }

// holderChanges are the verifications the Testing API set (under
// Store.mu), by account.
type holderChanges map[int32]Verification

var refusalReasons = []string{
	"The identity documents provided do not match the holder's details",
	"The company's registration could not be confirmed",
	"The source of funds could not be established",
}

// HolderVerification is the verification of an account's holder: the
// seed's, or what the Testing API set since.
func (s *Store) HolderVerification(a *Account) Verification {
	s.mu.RLock()
	v, ok := s.holders[a.idx]
	s.mu.RUnlock()
	if ok {
		v.Requirements = slices.Clone(v.Requirements)
		return v
	}
	h := newHrand(a.txSeed, 0x76657269)
	v = Verification{Status: a.VerificationStatus, UpdatedAt: a.UpdatedAt}
	life := a.UpdatedAt.Sub(a.CreatedAt)
	v.At = a.CreatedAt.Add(min(time.Duration(h.between(1, 72))*time.Hour, life)).Truncate(time.Millisecond)
	switch v.Status {
	case "Verified":
		v.At = UpgradedAt(a)
	case "Refused":
		v.Reason = h.pick(refusalReasons)
	case "WaitingForInformation":
		types := []string{"SupportingDocumentsRequired", "TaxIdRequired"}
		if a.HolderType == "Company" {
			types = []string{"SupportingDocumentsRequired", "UboDetailsRequired", "OrganizationDetailsRequired", "LegalRepresentativeDetailsRequired"}
		}
		n := 1 + h.intn(2)
		for i := range n {
			t := types[(h.intn(len(types))+i)%len(types)]
			if !slices.ContainsFunc(v.Requirements, func(r Requirement) bool { return r.Type == t }) {
				v.Requirements = append(v.Requirements, Requirement{ID: s.entityID(kindRequirement, uint64(a.idx)<<2|uint64(i)), Type: t})
			}
		}
	}
	return v
}

// SetHolderVerification is the Testing API's change of a holder's
// verification status or of what is still required from it. Requirements
// are set on a holder WaitingForInformation only: refused (ErrWrongState),
// the holder's verification comes back as it is.
func (s *Store) SetHolderVerification(holderID string, status string, requirements []string) (Verification, *Account, error) {
	a, ok := s.holderAccount(holderID)
	if !ok {
		return Verification{}, nil, fmt.Errorf("account holder %s: %w", holderID, ErrNotFound)
	}
	v := s.HolderVerification(a)
	now := s.now().UTC().Truncate(time.Millisecond)
	if status != "" && status != v.Status {
		v = Verification{Status: status, At: now}
		if status == "Refused" {
			v.Reason = "Refused by the Testing API"
		}
	}
	if requirements != nil {
		if v.Status != "WaitingForInformation" {
			return v, a, fmt.Errorf("requirements are set on a holder WaitingForInformation, this one is %s: %w", v.Status, ErrWrongState)
		}
		v.Requirements = v.Requirements[:0:0]
		for i, t := range requirements {
			v.Requirements = append(v.Requirements, Requirement{ID: s.runtimeID(0x72657175, int(a.idx)<<8|i), Type: t})
		}
	}
	if v.Status != "WaitingForInformation" {
		v.Requirements = nil
	}
	v.UpdatedAt = now
	s.mu.Lock()
	if s.holders == nil {
		s.holders = holderChanges{}
	}
	s.holders[a.idx] = v
	s.mu.Unlock()
	return v, a, nil
}

// holderIndex maps holder ids to their account, built on first use.
type holderIndex struct {
	once sync.Once
	m    map[string]int32
}

// holderAccount is the account of a holder id (each holder holds one).
func (s *Store) holderAccount(id string) (*Account, bool) {
	s.holderIdx.once.Do(func() {
		s.holderIdx.m = make(map[string]int32, len(s.accounts))
		for i := range s.accounts {
			s.holderIdx.m[s.accounts[i].HolderID] = int32(i)
		}
	})
	idx, ok := s.holderIdx.m[id]
	if !ok {
		return nil, false
	}
	return &s.accounts[idx], true
}

// Holder returns the account whose holder has this id, if the viewer sees
// it.
func (s *Store) Holder(v Viewer, id string) (*Account, bool) {
	a, ok := s.holderAccount(id)
	if !ok || !s.canSee(v, a.idx) {
		return nil, false
	}
	return a, true
}

// HolderQuery is one page request of the root accountHolders.
type HolderQuery struct {
	Viewer        Viewer
	First         int
	After, Before string
	OrderBy       string // createdAt (default) | updatedAt
	Desc          bool
	Statuses      []string // AccountHolderStatus
	Types         []string // Individual | Company
	Verifications []string // VerificationStatus
	Requirements  []string // VerificationRequirementType
	Search        string   // a part of the name, or the id
	Registration  string   // the registration number
}

func (q HolderQuery) filtered() bool {
	return len(q.Statuses)+len(q.Types)+len(q.Verifications)+len(q.Requirements) > 0 || q.Search != "" || q.Registration != ""
}

func (s *Store) holderMatches(q HolderQuery, a *Account) bool {
	v := s.HolderVerification(a)
	search := strings.ToLower(strings.TrimSpace(q.Search))
	return (len(q.Statuses) == 0 || slices.Contains(q.Statuses, HolderStatus(a).Type)) &&
		(len(q.Types) == 0 || slices.Contains(q.Types, a.HolderType)) &&
		(len(q.Verifications) == 0 || slices.Contains(q.Verifications, v.Status)) &&
		(len(q.Requirements) == 0 || slices.ContainsFunc(v.Requirements, func(r Requirement) bool { return slices.Contains(q.Requirements, r.Type) })) &&
		(search == "" || strings.Contains(strings.ToLower(a.HolderName), search) || a.HolderID == search) &&
		(q.Registration == "" || a.RegistrationNumber == q.Registration)
}

// HolderCursor is the opaque cursor of a holder.
func HolderCursor(a *Account) string { return encodeCursor("accountHolder", a.HolderID) }

// Holders pages the holders of the accounts the viewer sees, in the
// order of their accounts (one each): O(page) without filters, one pass
// over the viewer's accounts with them.
func (s *Store) Holders(q HolderQuery) (Page[*Account], error) {
	view, _ := s.viewOf(q.Viewer, q.OrderBy)
	cmp := cmpIdx
	if q.OrderBy == "updatedAt" {
		cmp = s.cmpUpdated
	}
	n := len(view)
	seek := func(c string) (int, bool, error) {
		id, ok := decodeCursor(c, "accountHolder")
		if !ok {
			return 0, false, ErrBadCursor
		}
		a, ok := s.holderAccount(id)
		if !ok {
			return 0, false, ErrBadCursor
		}
		p, found := slices.BinarySearchFunc(view, a.idx, cmp)
		return p, found, nil
	}
	start, end, err := cursorWindow(n, q.After, q.Before, q.Desc, seek)
	if err != nil {
		return Page[*Account]{}, err
	}
	at := func(i int) *Account {
		if q.Desc {
			return &s.accounts[view[n-1-i]]
		}
		return &s.accounts[view[i]]
	}
	match := func(a *Account) bool { return !q.filtered() || s.holderMatches(q, a) }
	page := Page[*Account]{TotalCount: n}
	if q.filtered() {
		page.TotalCount = 0
		for i := range n {
			if match(at(i)) {
				page.TotalCount++
			}
		}
	}
	i := start
	for ; i < end && len(page.Items) < q.First; i++ {
		if a := at(i); match(a) {
			page.Items = append(page.Items, a)
		}
	}
	for ; i < end && !page.HasNextPage; i++ {
		page.HasNextPage = match(at(i))
	}
	for j := min(start, n) - 1; j >= 0 && !page.HasPreviousPage; j-- {
		page.HasPreviousPage = match(at(j))
	}
	return page, nil
}
