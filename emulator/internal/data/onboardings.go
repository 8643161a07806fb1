package data

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Onboarding statuses (OnboardingStatus).
const (
	OnboardingFinalized = "Finalized"
	OnboardingValid     = "Valid"
	OnboardingInvalid   = "Invalid"
)

// Onboarding is an account holder's onboarding: what a future holder
// filled in on the onboarding page. Each account's holder was onboarded
// once, finalized when the account opened; other onboardings are still
// being filled in: Valid (ready to finalize) or Invalid, with what is
// missing or wrong.
type Onboarding struct {
	ID           string
	Type         string // AccountHolderType
	Status       string
	Errors       []FieldError // Invalid: what is missing or wrong
	AccountIndex int32        // the account it opened; -1 while not finalized
	AccountName  string
	Country      string // AccountCountry
	Language     string
	Email        string
	FirstName    string
	LastName     string
	BirthDate    string
	Nationality  string
	CompanyName  string // Company
	Registration string // Company
	VATNumber    string // Company
	Address      Address
	CreatedAt    time.Time
	UpdatedAt    time.Time
	FinalizedAt  time.Time
}

// FieldError is a field of an onboarding that is missing or invalid
// (ValidationError).
type FieldError struct {
	Field  string
	Errors []string // FieldValidationError: Missing | Invalid
}

// onboardingIndex is every onboarding, oldest first, built on first use:
// the accounts' finalized ones and those in progress.
type onboardingIndex struct {
	once sync.Once
	refs []onboardingRef
	byID map[string]int
}

// onboardingRef names an onboarding: an account's (acc ≥ 0) or the n-th
// in progress.
type onboardingRef struct {
	acc     int32
	n       int32
	created time.Time
}

// onboardingsInProgress is how many onboardings are still being filled
// in, for n accounts.
func onboardingsInProgress(n int) int { return max(3, n/8) }

// missingFields are what an onboarding in progress may lack, by holder
// type: the field as the platform's validation names it, and its error.
var missingFields = map[string][]FieldError{
	"Individual": {
		{"accountAdmin.birthInfo.birthDate", []string{"Missing"}},
		{"accountAdmin.address.postalCode", []string{"Missing"}},
		{"accountAdmin.monthlyIncome", []string{"Missing"}},
		{"accountAdmin.email", []string{"Invalid"}},
		{"accountAdmin.taxIdentificationNumber", []string{"Missing"}},
	},
	"Company": {
		{"company.registrationNumber", []string{"Missing"}},
		{"company.vatNumber", []string{"Invalid"}},
		{"company.relatedIndividuals", []string{"Missing"}},
		{"accountAdmin.birthInfo.birthDate", []string{"Missing"}},
		{"company.address.addressLine1", []string{"Missing"}},
	},
}

func (s *Store) onboardings() *onboardingIndex {
	s.onbIdx.once.Do(func() {
		x := &s.onbIdx
		n := onboardingsInProgress(len(s.accounts))
		x.refs = make([]onboardingRef, 0, len(s.accounts)+n)
		for i := range s.accounts {
			x.refs = append(x.refs, onboardingRef{acc: int32(i), created: s.finalizedOnboarding(&s.accounts[i]).CreatedAt})
		}
		for k := range n {
			x.refs = append(x.refs, onboardingRef{acc: -1, n: int32(k), created: s.onboardingInProgress(k).CreatedAt})
		}
		slices.SortStableFunc(x.refs, func(a, b onboardingRef) int { return a.created.Compare(b.created) })
		x.byID = make(map[string]int, len(x.refs))
		for i, r := range x.refs {
			x.byID[s.onboardingOf(r).ID] = i
		}
	})
	return &s.onbIdx
}

func (s *Store) onboardingOf(r onboardingRef) Onboarding {
	if r.acc >= 0 {
		return s.finalizedOnboarding(&s.accounts[r.acc])
	}
	return s.onboardingInProgress(int(r.n))
}

// finalizedOnboarding is the onboarding of an account's holder: filled in
// shortly before the account opened, finalized when it did.
func (s *Store) finalizedOnboarding(a *Account) Onboarding {
	h := newHrand(a.txSeed, 0x6f6e6264)
	legal := s.LegalRepresentative(a)
	o := Onboarding{ID: s.entityID(kindOnboarding, uint64(a.idx)), Type: a.HolderType, Status: OnboardingFinalized, AccountIndex: a.idx,
		AccountName: a.Name, Country: a.Country, Language: a.Language, Email: legal.Email, FirstName: legal.FirstName,
		LastName: legal.LastName, BirthDate: legal.BirthDate, Nationality: a.Country, Address: s.HolderAddress(a),
		FinalizedAt: a.CreatedAt}
	// Filled in within the hour before the account: accounts open at
	// least that far apart only in small stores, so creation order is
	// the accounts' in large ones.
	o.CreatedAt = a.CreatedAt.Add(-time.Duration(h.between(60, min(3_600, max(60, int64(s.entityWindow/time.Second))))) * time.Second)
	o.UpdatedAt = a.CreatedAt
	if a.HolderType == "Company" {
		o.CompanyName, o.Registration, o.VATNumber = a.HolderName, a.RegistrationNumber, a.VATNumber
	}
	return o
}

// onboardingInProgress is the k-th onboarding not finalized yet, begun in
// the month before the data's present.
func (s *Store) onboardingInProgress(k int) Onboarding {
	h := newHrand(uint64(s.seed), uint64(k), 0x6f6e6270)
	country := h.weighted([]string{"FRA", "DEU", "ESP", "ITA", "NLD", "BEL"}, []int{50, 15, 12, 10, 8, 5})
	first, last := h.pick(firstNames[country]), h.pick(lastNames[country])
	o := Onboarding{ID: s.entityID(kindOnboarding, uint64(len(s.accounts)+k)), Type: h.weighted([]string{"Individual", "Company"}, []int{65, 35}),
		AccountIndex: -1, Country: country, Language: countryLanguages[country][0], FirstName: first, LastName: last,
		Email: emailOf(first, last, country), Nationality: country, Address: address(country, uint64(k), 0x6f6e6261)}
	o.CreatedAt = s.epoch.Add(-time.Duration(h.between(3_600, 30*86_400)) * time.Second).Truncate(time.Millisecond)
	o.UpdatedAt = o.CreatedAt.Add(time.Duration(h.between(60, 86_400)) * time.Second)
	if o.UpdatedAt.After(s.epoch) {
		o.UpdatedAt = s.epoch
	}
	o.AccountName = first + " " + last
	if o.Type == "Company" {
		acts, forms := companyActivities[country], companyForms[country]
		o.CompanyName = h.pick(acts) + " " + last + " " + h.pick(forms)
		o.AccountName = o.CompanyName
		o.Registration = fmt.Sprintf("%09d", h.intn(999_999_999))
	}
	if h.intn(3) == 0 {
		o.Status = OnboardingValid
		o.BirthDate = fmt.Sprintf("%d-%02d-%02d", 1960+h.intn(40), 1+h.intn(12), 1+h.intn(28))
		return o
	}
	o.Status = OnboardingInvalid
	fields := missingFields[o.Type]
	n := 1 + h.intn(3)
	for i := range n {
		o.Errors = append(o.Errors, fields[(k+i)%len(fields)])
	}
	return o
}

// Onboarding returns the onboarding with this id; a finalized one only
// if the viewer sees its account, one in progress only for a project
// token.
func (s *Store) Onboarding(v Viewer, id string) (Onboarding, bool) {
	x := s.onboardings()
	i, ok := x.byID[id]
	if !ok {
		return Onboarding{}, false
	}
	r := x.refs[i]
	if !s.seesOnboarding(v, r) {
		return Onboarding{}, false
	}
	return s.onboardingOf(r), true
}

// seesOnboarding is whether v reads the onboarding r by its id: a project
// token every one, a user token those of the accounts they see.
func (s *Store) seesOnboarding(v Viewer, r onboardingRef) bool {
	if r.acc < 0 {
		return v.Project
	}
	return s.canSee(v, r.acc)
}

// AccountOnboarding is the onboarding of an account's holder.
func (s *Store) AccountOnboarding(a *Account) Onboarding { return s.finalizedOnboarding(a) }

// OnboardingQuery is one page request of the root onboardings.
type OnboardingQuery struct {
	Viewer   Viewer
	First    int
	After    string
	Before   string
	OrderBy  string // createdAt (default) | updatedAt | finalizedAt
	Desc     bool
	Statuses []string
	Types    []string
	Email    string
	Search   string // a part of the account name, the email, the id
}

// OnboardingCursor is the opaque cursor of an onboarding.
func OnboardingCursor(o *Onboarding) string { return encodeCursor("onboarding", o.ID) }

// Onboardings pages the onboardings the viewer sees: a project token
// every one, a user token those of the accounts they see. In creation
// order without filters a page costs its own onboardings; filters and
// other orders build the list.
func (s *Store) Onboardings(q OnboardingQuery) (Page[Onboarding], error) {
	x := s.onboardings()
	visible := func(r onboardingRef) bool {
		return q.Viewer.Project || (r.acc >= 0 && s.canSee(q.Viewer, r.acc))
	}
	if len(q.Statuses) == 0 && len(q.Types) == 0 && q.Search == "" && q.Email == "" && (q.OrderBy == "" || q.OrderBy == "createdAt") {
		refs := x.refs
		if !q.Viewer.Project {
			refs = nil
			for _, r := range x.refs {
				if visible(r) {
					refs = append(refs, r)
				}
			}
		}
		if q.Desc {
			refs = slices.Clone(refs)
			slices.Reverse(refs)
		}
		page, err := pageByCursor(refs, q.First, q.After, q.Before, 0, "onboarding", func(r onboardingRef) string { return s.onboardingOf(r).ID })
		if err != nil {
			return Page[Onboarding]{}, err
		}
		out := Page[Onboarding]{TotalCount: page.TotalCount, HasNextPage: page.HasNextPage, HasPreviousPage: page.HasPreviousPage}
		for _, r := range page.Items {
			out.Items = append(out.Items, s.onboardingOf(r))
		}
		return out, nil
	}
	search, email := strings.ToLower(strings.TrimSpace(q.Search)), strings.ToLower(strings.TrimSpace(q.Email))
	var list []Onboarding
	for _, r := range x.refs {
		if !visible(r) {
			continue
		}
		o := s.onboardingOf(r)
		if (len(q.Statuses) == 0 || slices.Contains(q.Statuses, o.Status)) && (len(q.Types) == 0 || slices.Contains(q.Types, o.Type)) &&
			(email == "" || strings.ToLower(o.Email) == email) &&
			(search == "" || strings.Contains(strings.ToLower(o.AccountName+"\x00"+o.Email+"\x00"+o.ID), search)) {
			list = append(list, o)
		}
	}
	key := func(o Onboarding) time.Time { return o.CreatedAt }
	switch q.OrderBy {
	case "updatedAt":
		key = func(o Onboarding) time.Time { return o.UpdatedAt }
	case "finalizedAt":
		key = func(o Onboarding) time.Time { return o.FinalizedAt }
	}
	slices.SortStableFunc(list, func(a, b Onboarding) int { return key(a).Compare(key(b)) })
	if q.Desc {
		slices.Reverse(list)
	}
	return pageByCursor(list, q.First, q.After, q.Before, 0, "onboarding", func(o Onboarding) string { return o.ID })
}

// OnboardingURL is where an onboarding is filled in: the platform's
// onboarding page, whose form the emulator does not serve (an address
// independent of the emulator's, as its generated consents' are).
func OnboardingURL(o Onboarding, env string) string {
	return "https://onboarding.example.com/onboardings/" + o.ID + "?env=" + env
}
