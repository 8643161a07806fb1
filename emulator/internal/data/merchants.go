package data

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Merchant profile statuses (MerchantProfileStatus).
const (
	MerchantEnabled       = "Enabled"
	MerchantPendingReview = "PendingReview"
	MerchantRejected      = "Rejected"
	MerchantSuspended     = "Suspended"
	MerchantDisabled      = "Disabled"
)

// MerchantProfile is what lets a company account accept payments: its
// methods (cards, SEPA direct debits, checks), its payment links and the
// payments it received. A company whose history received online card
// payments has an Enabled profile, and each such credit is a merchant
// payment of it; other companies may have one still under review,
// rejected or without payments yet.
type MerchantProfile struct {
	ID           string
	AccountIndex int32
	Name         string
	Website      string
	AccentColor  string
	ProductType  string
	Status       string
	Reason       string // Rejected: MerchantProfileRejectionReason
	Basket       int64  // expected average basket, cents
	Volume       int64  // expected monthly volume, cents
	Currency     string
	StatusAt     time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
	Methods      []PaymentMethod
}

// PaymentMethod is a merchant payment method (MerchantPaymentMethod).
type PaymentMethod struct {
	ID, MethodID string
	Type         string // MerchantPaymentMethodType
	Status       string // MerchantPaymentMethodStatus
	Version      int
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// PaymentLink is a merchant payment link: a page where a customer pays
// the merchant; Completed once paid, by the payment it names.
type PaymentLink struct {
	ID, ProfileID       string
	AccountIndex        int32
	Amount              int64
	Currency            string
	Label, Reference    string
	ExternalReference   string
	Status              string // Active | Expired | Completed
	RedirectURL         string
	CancelRedirectURL   string
	Language            string
	Sequence            string // PaymentMandateSequence
	CustomerName        string
	MethodIDs           []string
	PaymentID           string // the payment that completed it
	CreatedAt, StatusAt time.Time
	ExpiresAt           time.Time
	BillingAddress      Address
	// RequestedExecutionAt is when the payment is to be executed; zero:
	// as soon as possible.
	RequestedExecutionAt time.Time
	rank                 int
}

// MerchantPayment is a payment a merchant received: one of its account's
// online card credits, captured.
type MerchantPayment struct {
	ID            string
	ProfileID     string
	AccountIndex  int32
	TransactionID string
	Amount        int64
	Currency      string
	Label         string
	Reference     string
	Status        string // MerchantPaymentStatus
	LinkID        string // the payment link it came through, if any
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// merchantPrefix starts a merchant payment's id, the rest being its
// transaction's.
const merchantPrefix = "mpay_"

// merchantChanges are what happened at run time (under Store.mu): the
// links created.
type merchantChanges struct {
	links  map[int32][]PaymentLink // by account, oldest first
	byLink map[string]int32
	n      int
}

// MaxPaymentLinks bounds the links created in one environment.
const MaxPaymentLinks = 10_000

var accentColors = []string{"#6240B5", "#1E88E5", "#00897B", "#F4511E", "#3949AB", "#8E24AA"}

// profileIndex are the accounts with a merchant profile, built on first
// use: whether a company received online card payments takes a pass over
// its history.
type profileIndex struct {
	once sync.Once
	accs []int32
}

func (s *Store) profileAccounts() []int32 {
	s.profIdx.once.Do(func() {
		for i := range s.accounts {
			if s.hasProfile(&s.accounts[i]) {
				s.profIdx.accs = append(s.profIdx.accs, int32(i))
			}
		}
	})
	return s.profIdx.accs
}

// onlineCredits are whether the account's history holds online card
// payments it received.
func (s *Store) onlineCredits(a *Account) bool {
	for k := range int(a.sched.count) {
		r := a.sched.round(k)
		var t Transaction
		s.describeInto(&t, a, k, slotOf(r, s.position(a.idx, r)))
		if t.Kind == KindOnlineCard {
			return true
		}
	}
	return false
}

func (s *Store) hasProfile(a *Account) bool {
	if a.HolderType != "Company" {
		return false
	}
	h := newHrand(a.txSeed, 0x6d657263)
	return h.intn(10) < 4 || s.onlineCredits(a)
}

// merchantProfile is the account's profile from the seed, as it is now.
func (s *Store) merchantProfile(a *Account) (MerchantProfile, bool) {
	if !s.hasProfile(a) {
		return MerchantProfile{}, false
	}
	h := newHrand(a.txSeed, 0x6d657270)
	p := MerchantProfile{ID: s.entityID(kindMerchantProfile, uint64(a.idx)), AccountIndex: a.idx, Name: a.HolderName,
		AccentColor: h.pick(accentColors), ProductType: h.weighted([]string{"Goods", "Services", "VirtualGoods"}, []int{50, 35, 15}),
		Basket: h.between(20, 200) * 100, Currency: a.Currency}
	p.Volume = p.Basket * h.between(50, 500)
	slug := strings.ToLower(strings.Join(strings.Fields(a.HolderName), "-"))
	p.Website = "https://www." + slug + ".example"
	p.CreatedAt = a.CreatedAt.Add(min(time.Duration(h.between(1, 30))*day, a.UpdatedAt.Sub(a.CreatedAt)/2)).Truncate(time.Millisecond)
	p.StatusAt = p.CreatedAt.Add(2 * day)
	switch {
	case a.Status == "Closed":
		p.Status = MerchantDisabled
	case a.Status == "Suspended":
		p.Status = MerchantSuspended
	case s.onlineCredits(a):
		p.Status = MerchantEnabled
	default:
		p.Status = h.weighted([]string{MerchantEnabled, MerchantPendingReview, MerchantRejected}, []int{40, 40, 20})
	}
	if p.Status == MerchantRejected {
		p.Reason = h.pick([]string{"InconsistentOrMissingInformation", "UnsupportedActivity", "ContractualCriteriaNotFulfilled"})
	}
	if p.Status == MerchantPendingReview {
		p.StatusAt = p.CreatedAt
	}
	p.UpdatedAt = p.StatusAt
	method := func(i uint64, typ string) PaymentMethod {
		m := PaymentMethod{ID: s.entityID(kindPaymentMethod, uint64(a.idx)<<2|i), Type: typ, Version: 1, CreatedAt: p.CreatedAt, UpdatedAt: p.StatusAt}
		m.MethodID = m.ID // its first version
		switch p.Status {
		case MerchantEnabled:
			m.Status = "Enabled"
			if typ != "Card" && h.intn(3) == 0 {
				m.Status = "PendingReview"
			}
		case MerchantPendingReview:
			m.Status = "PendingReview"
		case MerchantRejected:
			m.Status = "Rejected"
		case MerchantSuspended:
			m.Status = "Suspended"
		default:
			m.Status = "Disabled"
		}
		return m
	}
	p.Methods = []PaymentMethod{method(0, "Card")}
	if h.intn(2) == 0 {
		p.Methods = append(p.Methods, method(1, "SepaDirectDebitCore"))
	}
	if h.intn(3) == 0 {
		p.Methods = append(p.Methods, method(2, "Check"))
	}
	return p, true
}

// MerchantProfile returns the profile with this id, if the viewer sees
// its account.
func (s *Store) MerchantProfile(v Viewer, id string) (MerchantProfile, bool) {
	pos, ok := s.decodeEntityID(kindMerchantProfile, id)
	if !ok || pos >= uint64(len(s.accounts)) || !s.canSee(v, int32(pos)) {
		return MerchantProfile{}, false
	}
	return s.merchantProfile(&s.accounts[pos])
}

// AccountMerchantProfiles are an account's profiles: one at most.
func (s *Store) AccountMerchantProfiles(a *Account) []MerchantProfile {
	if p, ok := s.merchantProfile(a); ok {
		return []MerchantProfile{p}
	}
	return nil
}

// MerchantProfiles are the profiles of the accounts the viewer sees.
func (s *Store) MerchantProfiles(v Viewer) []MerchantProfile {
	var out []MerchantProfile
	for _, idx := range s.profileAccounts() {
		if s.canSee(v, idx) {
			if p, ok := s.merchantProfile(&s.accounts[idx]); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// merchantPayments are a profile's payments, oldest first: its account's
// online card credits.
func (s *Store) merchantPayments(p MerchantProfile) []MerchantPayment {
	if p.Status == MerchantPendingReview || p.Status == MerchantRejected {
		return nil
	}
	var out []MerchantPayment
	for _, t := range s.history(&s.accounts[p.AccountIndex], true) {
		if t.Kind != KindOnlineCard || t.Side != "Credit" {
			continue
		}
		mp := MerchantPayment{ID: merchantPrefix + strings.TrimPrefix(t.ID, txPrefix), ProfileID: p.ID, AccountIndex: p.AccountIndex,
			TransactionID: t.ID, Amount: t.Amount, Currency: t.Currency, Label: t.Label, Reference: t.Reference,
			Status: "Captured", CreatedAt: t.CreatedAt.Add(-2 * time.Second), UpdatedAt: t.CreatedAt}
		if t.Status == StatusPending {
			mp.Status = "Authorized"
		}
		out = append(out, mp)
	}
	// Every other payment came through a payment link.
	for i := range out {
		if i%2 == 0 {
			out[i].LinkID = s.entityID(kindPaymentLink, uint64(p.AccountIndex)<<6|uint64(i/2))
		}
	}
	return out
}

// MerchantPayment returns the payment with this id, if the viewer sees its
// account.
func (s *Store) MerchantPayment(v Viewer, id string) (MerchantPayment, bool) {
	txID, ok := strings.CutPrefix(id, merchantPrefix)
	if !ok {
		return MerchantPayment{}, false
	}
	t, ok := s.Transaction(txPrefix + txID)
	if !ok || !s.canSee(v, t.AccountIndex) {
		return MerchantPayment{}, false
	}
	p, ok := s.merchantProfile(&s.accounts[t.AccountIndex])
	if !ok {
		return MerchantPayment{}, false
	}
	for _, mp := range s.merchantPayments(p) {
		if mp.ID == id {
			return mp, true
		}
	}
	return MerchantPayment{}, false
}

// ProfilePayments are a profile's payments, newest first.
func (s *Store) ProfilePayments(p MerchantProfile) []MerchantPayment {
	out := s.merchantPayments(p)
	slices.Reverse(out)
	return out
}

// AllMerchantPayments are the payments of the profiles the viewer sees,
// newest first; of one account's when accountID is given.
func (s *Store) AllMerchantPayments(v Viewer, accountID string) []MerchantPayment {
	var out []MerchantPayment
	for _, p := range s.MerchantProfiles(v) {
		if accountID == "" || s.accounts[p.AccountIndex].ID == accountID {
			out = append(out, s.merchantPayments(p)...)
		}
	}
	slices.SortStableFunc(out, func(x, y MerchantPayment) int { return y.CreatedAt.Compare(x.CreatedAt) })
	return out
}

// paymentLinks are a profile's links, oldest first: one for each payment
// that came through one (Completed), the seed's others (Active or
// Expired), and those created since.
func (s *Store) paymentLinks(p MerchantProfile) []PaymentLink {
	a := &s.accounts[p.AccountIndex]
	var cardIDs []string
	for _, m := range p.Methods {
		if m.Type == "Card" {
			cardIDs = append(cardIDs, m.ID)
		}
	}
	var out []PaymentLink
	for _, mp := range s.merchantPayments(p) {
		if mp.LinkID == "" {
			continue
		}
		out = append(out, PaymentLink{ID: mp.LinkID, ProfileID: p.ID, AccountIndex: a.idx, Amount: mp.Amount, Currency: mp.Currency,
			Label: "Order " + mp.Reference[len(mp.Reference)-6:], Reference: mp.Reference, Status: "Completed", Language: a.Language,
			Sequence: "OneOff", MethodIDs: cardIDs, PaymentID: mp.ID, CreatedAt: mp.CreatedAt.Add(-20 * time.Minute),
			StatusAt: mp.UpdatedAt, ExpiresAt: mp.CreatedAt.Add(-20*time.Minute + 30*day), rank: len(out)})
	}
	if p.Status == MerchantEnabled {
		h := newHrand(a.txSeed, 0x6c696e6b)
		for i := range 1 + h.intn(3) {
			created := s.epoch.Add(-time.Duration(h.between(1, 60)) * day).Add(time.Duration(h.between(0, 86_399)) * time.Second).Truncate(time.Millisecond)
			created = laterOf(created, p.CreatedAt)
			l := PaymentLink{ID: s.entityID(kindPaymentLink, uint64(a.idx)<<6|uint64(40+i)), ProfileID: p.ID, AccountIndex: a.idx,
				Amount: h.between(10, 500) * 100, Currency: a.Currency, Label: h.pick([]string{"Deposit", "Invoice", "Workshop seat", "Annual plan"}),
				Reference: fmt.Sprintf("PL%08d", h.next()%1e8), Language: a.Language, Sequence: "OneOff", MethodIDs: cardIDs,
				CreatedAt: created, ExpiresAt: created.Add(30 * day), rank: 40 + i}
			l.Status, l.StatusAt = "Active", created
			if l.ExpiresAt.Before(s.epoch) {
				l.Status, l.StatusAt = "Expired", l.ExpiresAt
			}
			out = append(out, l)
		}
	}
	s.mu.RLock()
	out = append(out, s.merch.links[a.idx]...)
	s.mu.RUnlock()
	slices.SortStableFunc(out, func(x, y PaymentLink) int { return x.CreatedAt.Compare(y.CreatedAt) })
	return out
}

// ProfileLinks are a profile's payment links, newest first.
func (s *Store) ProfileLinks(p MerchantProfile) []PaymentLink {
	out := s.paymentLinks(p)
	slices.Reverse(out)
	return out
}

// PaymentLink returns the link with this id, if the viewer sees its
// account.
func (s *Store) PaymentLink(v Viewer, id string) (PaymentLink, bool) {
	idx := int32(-1)
	if pos, ok := s.decodeEntityID(kindPaymentLink, id); ok {
		idx = int32(pos >> 6)
	} else {
		s.mu.RLock()
		if i, ok := s.merch.byLink[id]; ok {
			idx = i
		}
		s.mu.RUnlock()
	}
	if idx < 0 || int(idx) >= len(s.accounts) || !s.canSee(v, idx) {
		return PaymentLink{}, false
	}
	p, ok := s.merchantProfile(&s.accounts[idx])
	if !ok {
		return PaymentLink{}, false
	}
	for _, l := range s.paymentLinks(p) {
		if l.ID == id {
			return l, true
		}
	}
	return PaymentLink{}, false
}

// NewPaymentLink is what createMerchantPaymentLink asks for.
type NewPaymentLink struct {
	ProfileID                           string
	Amount                              int64
	Currency                            string
	Label, Reference, ExternalReference string
	RedirectURL, CancelRedirectURL      string
	Language, Sequence, CustomerName    string
	MethodIDs                           []string
	ExpiresAt                           time.Time // zero: 30 days
	RequestedExecutionAt                time.Time // zero: as soon as possible
	BillingAddress                      Address
}

// ErrMethodNotActive is a payment link asked with a method that is not an
// Enabled one of the profile.
var ErrMethodNotActive = fmt.Errorf("a payment method given is not an Enabled method of the profile: %w", ErrForbidden)

// CreatePaymentLink creates an Active payment link of an Enabled profile.
func (s *Store) CreatePaymentLink(v Viewer, in NewPaymentLink) (PaymentLink, error) {
	p, ok := s.MerchantProfile(v, in.ProfileID)
	if !ok {
		return PaymentLink{}, fmt.Errorf("merchant profile %s: %w", in.ProfileID, ErrNotFound)
	}
	if p.Status != MerchantEnabled {
		return PaymentLink{}, fmt.Errorf("the merchant profile is %s, and only an Enabled one takes payments: %w", p.Status, ErrWrongState)
	}
	for _, id := range in.MethodIDs {
		if !slices.ContainsFunc(p.Methods, func(m PaymentMethod) bool { return m.ID == id && m.Status == "Enabled" }) {
			return PaymentLink{}, ErrMethodNotActive
		}
	}
	if in.Currency != p.Currency {
		return PaymentLink{}, fmt.Errorf("the merchant's account holds %s, not %s: %w", p.Currency, in.Currency, ErrForbidden)
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.merch.n >= MaxPaymentLinks {
		return PaymentLink{}, fmt.Errorf("the emulator holds %d payment links, its maximum: restart it to start afresh: %w", MaxPaymentLinks, ErrForbidden)
	}
	if s.merch.links == nil {
		s.merch.links, s.merch.byLink = map[int32][]PaymentLink{}, map[string]int32{}
	}
	n := s.merch.n
	s.merch.n++
	l := PaymentLink{ID: s.runtimeID(0x6c6e6b, n), ProfileID: p.ID, AccountIndex: p.AccountIndex, Amount: in.Amount, Currency: in.Currency,
		Label: in.Label, Reference: in.Reference, ExternalReference: in.ExternalReference, Status: "Active", RedirectURL: in.RedirectURL,
		CancelRedirectURL: in.CancelRedirectURL, Language: in.Language, Sequence: in.Sequence, CustomerName: in.CustomerName,
		MethodIDs: slices.Clone(in.MethodIDs), CreatedAt: now, StatusAt: now, ExpiresAt: in.ExpiresAt,
		RequestedExecutionAt: in.RequestedExecutionAt, BillingAddress: in.BillingAddress}
	if l.ExpiresAt.IsZero() {
		l.ExpiresAt = now.Add(30 * day)
	}
	if l.Sequence == "" {
		l.Sequence = "OneOff"
	}
	s.merch.links[p.AccountIndex] = append(s.merch.links[p.AccountIndex], l)
	s.merch.byLink[l.ID] = p.AccountIndex
	return l, nil
}

// PaymentLinkURL is the page where a customer pays a link.
func PaymentLinkURL(l PaymentLink) string { return "https://payment.example.com/payment-links/" + l.ID }
