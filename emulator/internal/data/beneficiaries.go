package data

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Trusted beneficiary statuses (TrustedBeneficiaryStatus).
const (
	BeneficiaryConsentPending = "ConsentPending"
	BeneficiaryEnabled        = "Enabled"
	BeneficiaryCanceled       = "Canceled"
)

// PurposeAddBeneficiary is the consent purpose of a trusted beneficiary.
const PurposeAddBeneficiary = "AddBeneficiary"

// Beneficiary types (BeneficiaryType).
const (
	BeneficiarySepa          = "Sepa"
	BeneficiaryInternational = "International"
)

// Beneficiary is a trusted beneficiary of an account: someone its members
// send transfers to without typing the IBAN again. The seed's are the
// account's history's: one for each creditor (name and IBAN) its outgoing
// SEPA transfers went to, saved with the first of them, so the transfers
// sent to each are the history's transfers to that creditor. The emulator
// makes no international transfers, so none is international; one would
// carry a Route.
type Beneficiary struct {
	ID           string
	AccountIndex int32
	Name         string
	Label        string
	IBAN         string
	Address      Address // empty: none given
	// Currency, Route and Details are an international beneficiary's
	// (Route empty for a SEPA one): its currency, the route the platform
	// transfers by, and what that route needs, key by key.
	Currency    string
	Route       string
	Details     []Detail
	Status      string
	Consent     Consent // what a ConsentPending one waits for
	EnabledAt   time.Time
	CanceledAt  time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	RedirectURL string
}

// Detail is one of an international beneficiary's currency-specific
// details (InternationalCreditTransferDetails).
type Detail struct{ Key, Value string }

// Type is the beneficiary's BeneficiaryType.
func (b *Beneficiary) Type() string {
	if b.Route != "" {
		return BeneficiaryInternational
	}
	return BeneficiarySepa
}

// beneficiaryPosBits sizes a seeded beneficiary's position: the account,
// then its rank among the account's.
const beneficiaryPosBits = 5

// MaxBeneficiaries bounds the beneficiaries added in one environment.
const MaxBeneficiaries = 10_000

// beneficiaries is what happened to trusted beneficiaries at run time
// (under Store.mu).
type beneficiaries struct {
	added     map[int32][]*Beneficiary
	byID      map[string]*Beneficiary
	byConsent map[string]*Beneficiary
	n         int
}

// sentTo is whether a transaction is an outgoing SEPA transfer to this
// creditor.
func sentTo(t *Transaction, name, iban string) bool {
	return (t.Type == "SepaCreditTransferOut" || t.Type == "SepaInstantCreditTransferOut") && t.Counterparty == name && t.CounterpartyIBAN == iban
}

// seededBeneficiaries are an account's beneficiaries from its history,
// oldest first, and one still waiting for its consent now and then.
func (s *Store) seededBeneficiaries(a *Account) []Beneficiary {
	var out []Beneficiary
	seen := map[string]bool{}
	for _, t := range s.history(a, true) {
		key := t.Counterparty + "\x00" + t.CounterpartyIBAN
		if !sentTo(&t, t.Counterparty, t.CounterpartyIBAN) || seen[key] || len(out) == 1<<beneficiaryPosBits-1 {
			continue
		}
		seen[key] = true
		created := t.CreatedAt.Add(-time.Duration(2+len(out)%7) * time.Minute)
		out = append(out, Beneficiary{AccountIndex: a.idx, Name: t.Counterparty, Label: t.Counterparty, IBAN: t.CounterpartyIBAN,
			Status: BeneficiaryEnabled, CreatedAt: created, EnabledAt: created.Add(time.Minute), UpdatedAt: created.Add(time.Minute)})
	}
	h := newHrand(a.txSeed, 0x62656e66)
	if a.Status == "Opened" && h.intn(4) == 0 && len(out) < 1<<beneficiaryPosBits-1 {
		// Added lately, not consented yet: no transfer has gone to it.
		name := h.pick(payees)
		created := s.epoch.Add(-time.Duration(h.between(3_600, 6*86_400)) * time.Second).Truncate(time.Millisecond)
		out = append(out, Beneficiary{AccountIndex: a.idx, Name: name, Label: name + " (new)", IBAN: counterpartyIBANs[h.intn(len(counterpartyIBANs))],
			Status: BeneficiaryConsentPending, CreatedAt: laterOf(created, a.CreatedAt), UpdatedAt: laterOf(created, a.CreatedAt)})
	}
	for i := range out {
		b := &out[i]
		pos := uint64(a.idx)<<beneficiaryPosBits | uint64(i)
		b.ID = s.entityID(kindBeneficiary, pos)
		if b.Status == BeneficiaryConsentPending {
			b.Consent = s.consentWith(s.entityID(kindBeneficiaryConsent, pos), a, 2<<16|pos, PurposeAddBeneficiary, b.CreatedAt)
		}
	}
	return out
}

// accountBeneficiaries are an account's beneficiaries as they are now,
// newest first.
func (s *Store) accountBeneficiaries(a *Account) []Beneficiary {
	seeded := s.seededBeneficiaries(a)
	s.mu.RLock()
	all := make([]Beneficiary, 0, len(seeded)+len(s.benefs.added[a.idx]))
	for _, b := range seeded {
		if c, ok := s.benefs.byID[b.ID]; ok {
			b = *c
		}
		all = append(all, b)
	}
	for _, b := range s.benefs.added[a.idx] {
		all = append(all, *b)
	}
	s.mu.RUnlock()
	slices.SortStableFunc(all, func(x, y Beneficiary) int { return x.CreatedAt.Compare(y.CreatedAt) })
	slices.Reverse(all)
	return all
}

// BeneficiaryQuery is one page request of an account's beneficiaries.
type BeneficiaryQuery struct {
	First    int
	After    string
	Offset   int
	Statuses []string // empty: any
	Types    []string // BeneficiaryType; empty: any
	Label    string   // a part of the label, any case; empty: any
	Currency string   // the beneficiary's (a SEPA one's is the account's); empty: any
	OrderBy  string   // createdAt (default) | label | updatedAt
	Asc      bool
}

// BeneficiaryCursor is the opaque cursor of a beneficiary.
func BeneficiaryCursor(b *Beneficiary) string { return encodeCursor("trustedBeneficiary", b.ID) }

// Beneficiaries pages an account's trusted beneficiaries.
func (s *Store) Beneficiaries(a *Account, q BeneficiaryQuery) (Page[Beneficiary], error) {
	var list []Beneficiary
	label := strings.ToLower(q.Label)
	for _, b := range s.accountBeneficiaries(a) {
		currency := b.Currency
		if b.Route == "" {
			currency = a.Currency
		}
		if (len(q.Statuses) == 0 || slices.Contains(q.Statuses, b.Status)) && (len(q.Types) == 0 || slices.Contains(q.Types, b.Type())) &&
			strings.Contains(strings.ToLower(b.Label), label) && (q.Currency == "" || q.Currency == currency) {
			list = append(list, b)
		}
	}
	cmp := func(x, y Beneficiary) int { return x.CreatedAt.Compare(y.CreatedAt) }
	switch q.OrderBy {
	case "label":
		cmp = func(x, y Beneficiary) int { return strings.Compare(strings.ToLower(x.Label), strings.ToLower(y.Label)) }
	case "updatedAt":
		cmp = func(x, y Beneficiary) int { return x.UpdatedAt.Compare(y.UpdatedAt) }
	}
	slices.SortStableFunc(list, func(x, y Beneficiary) int {
		if q.Asc {
			return cmp(x, y)
		}
		return cmp(y, x)
	})
	return PageList(list, q.First, q.After, q.Offset, "trustedBeneficiary", func(b Beneficiary) string { return b.ID })
}

// Beneficiary returns the beneficiary with this id, if the viewer sees its
// account.
func (s *Store) Beneficiary(v Viewer, id string) (Beneficiary, bool) {
	idx := int32(-1)
	if pos, ok := s.decodeEntityID(kindBeneficiary, id); ok {
		idx = int32(pos >> beneficiaryPosBits)
	} else {
		s.mu.RLock()
		if b, ok := s.benefs.byID[id]; ok {
			idx = b.AccountIndex
		}
		s.mu.RUnlock()
	}
	if idx < 0 || int(idx) >= len(s.accounts) || !s.canSee(v, idx) {
		return Beneficiary{}, false
	}
	for _, b := range s.accountBeneficiaries(&s.accounts[idx]) {
		if b.ID == id {
			return b, true
		}
	}
	return Beneficiary{}, false
}

// BeneficiaryTransactions pages the transfers the account sent to a
// beneficiary: its outgoing SEPA transfers to that name and IBAN.
func (s *Store) BeneficiaryTransactions(b Beneficiary, q TransactionQuery) (Page[Transaction], error) {
	all := s.transactions(&s.accounts[b.AccountIndex])
	sent := all[:0]
	for i := range all {
		if sentTo(&all[i], b.Name, b.IBAN) {
			sent = append(sent, all[i])
		}
	}
	return s.pageOf(sent, q)
}

// BeneficiaryOf is the account's trusted beneficiary a transfer went to,
// if any.
func (s *Store) BeneficiaryOf(t Transaction) (Beneficiary, bool) {
	if t.Side != "Debit" || t.CounterpartyIBAN == "" {
		return Beneficiary{}, false
	}
	for _, b := range s.accountBeneficiaries(&s.accounts[t.AccountIndex]) {
		if sentTo(&t, b.Name, b.IBAN) {
			return b, true
		}
	}
	return Beneficiary{}, false
}

// NewBeneficiary is what addTrustedSepaBeneficiary asks for.
type NewBeneficiary struct {
	AccountID, Name, Label, IBAN string
	Address                      Address
	// ConsentURL is the consent page; RedirectURL where it sends the user
	// back.
	ConsentURL, RedirectURL string
}

// AddBeneficiary adds a trusted SEPA beneficiary to an account the viewer
// may manage beneficiaries of. A user who consents automatically (a
// Sandbox user) enables it at once; anyone else gets it waiting for the
// consent of who asked (for a project token, the account's legal
// representative).
func (s *Store) AddBeneficiary(v Viewer, in NewBeneficiary) (Beneficiary, error) {
	a, err := s.actingAccount(v, in.AccountID, RightManageBeneficiaries)
	if err != nil {
		return Beneficiary{}, err
	}
	who, auto := s.consenter(v, a)
	now := s.now().UTC().Truncate(time.Millisecond)
	label := in.Label
	if label == "" {
		label = in.Name
	}
	b := &Beneficiary{AccountIndex: a.idx, Name: in.Name, Label: label, IBAN: normalizeIBAN(in.IBAN), Address: in.Address,
		Status: BeneficiaryConsentPending, CreatedAt: now, UpdatedAt: now, RedirectURL: in.RedirectURL}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.benefs.n >= MaxBeneficiaries {
		return Beneficiary{}, fmt.Errorf("the emulator holds %d added beneficiaries, its maximum: restart it to start afresh: %w", MaxBeneficiaries, ErrForbidden)
	}
	if s.benefs.byID == nil {
		s.benefs.added, s.benefs.byID, s.benefs.byConsent = map[int32][]*Beneficiary{}, map[string]*Beneficiary{}, map[string]*Beneficiary{}
	}
	n := s.benefs.n
	s.benefs.n++
	b.ID = s.runtimeID(0x62656e66, n)
	if auto {
		b.Status, b.EnabledAt = BeneficiaryEnabled, now
	} else {
		id := s.runtimeID(0x62656e63, n)
		b.Consent = Consent{ID: id, Purpose: PurposeAddBeneficiary, Status: ConsentCreated, UserID: who, CreatedAt: now, UpdatedAt: now,
			Challenge: fmt.Sprintf("%016x%016x", mix(uint64(n)^uint64(s.seed)^0x6265), mix(uint64(n)+uint64(s.seed))),
			URL:       in.ConsentURL + "?" + url.Values{"consentId": {id}}.Encode()}
		s.benefs.byConsent[id] = b
	}
	s.benefs.added[a.idx] = append(s.benefs.added[a.idx], b)
	s.benefs.byID[b.ID] = b
	return *b, nil
}

// consenter is who consents to what the viewer asks on account a, and
// whether they consent automatically: the user (a Sandbox user may), or
// for a project token the account's legal representative, for whom the
// platform's server-to-server consent acts.
func (s *Store) consenter(v Viewer, a *Account) (string, bool) {
	if v.Project {
		return s.LegalRepresentative(a).UserID, false
	}
	who := s.Effective(v.UserID)
	u, _ := s.User(who)
	return who, u.AutoConsent
}

// BeneficiaryOfConsent returns the added beneficiary a consent is for.
func (s *Store) BeneficiaryOfConsent(consentID string) (Beneficiary, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b, ok := s.benefs.byConsent[consentID]
	if !ok {
		return Beneficiary{}, false
	}
	return *b, true
}

// AnswerBeneficiaryConsent records the user's answer to a pending
// beneficiary's consent: accepted it is Enabled, refused Canceled.
func (s *Store) AnswerBeneficiaryConsent(consentID string, accept bool) (Beneficiary, error) {
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.benefs.byConsent[consentID]
	switch {
	case !ok:
		return Beneficiary{}, fmt.Errorf("consent %s: %w", consentID, ErrNotFound)
	case b.Status != BeneficiaryConsentPending:
		return Beneficiary{}, fmt.Errorf("consent %s is already %s: %w", consentID, b.Consent.Status, ErrWrongState)
	}
	b.Consent.UpdatedAt, b.UpdatedAt = now, now
	if accept {
		b.Consent.Status, b.Consent.AcceptedAt = ConsentAccepted, now
		b.Status, b.EnabledAt = BeneficiaryEnabled, now
	} else {
		b.Consent.Status, b.Consent.RefusedAt = ConsentRefused, now
		b.Status, b.CanceledAt = BeneficiaryCanceled, now
	}
	return *b, nil
}

// TransferTo is a transfer to a trusted beneficiary of the account: its
// creditor, when the beneficiary is Enabled.
func (s *Store) TransferTo(v Viewer, accountID, beneficiaryID string) (name, iban string, err error) {
	b, ok := s.Beneficiary(v, beneficiaryID)
	if !ok || s.accounts[b.AccountIndex].ID != accountID {
		return "", "", fmt.Errorf("trusted beneficiary %s of account %s: %w", beneficiaryID, accountID, ErrNotFound)
	}
	if b.Status != BeneficiaryEnabled {
		return "", "", fmt.Errorf("the trusted beneficiary is %s, and only an Enabled one is paid: %w", b.Status, ErrForbidden)
	}
	if b.Route != "" {
		return "", "", fmt.Errorf("the trusted beneficiary is international, and a SEPA credit transfer pays a SEPA one: %w", ErrForbidden)
	}
	return b.Name, b.IBAN, nil
}

// Payee verification results (VerifyBeneficiaryStatus).
const (
	PayeeMatch       = "Match"
	PayeeCloseMatch  = "CloseMatch"
	PayeeNoMatch     = "NoMatch"
	PayeeNotPossible = "VerificationNotPossible"
)

// VerifyPayee is the verification of payee of a creditor's name and IBAN,
// and the name suggested for a close match. In Sandbox the result follows
// the name, as the platform documents: "Match", "CloseMatch", "NoMatch"
// and "NotPossible" give their result, any other name a Match. In Live an
// IBAN of the emulator's accounts is checked against its holder's name;
// another bank's cannot be verified.
func (s *Store) VerifyPayee(name, iban string) (string, string) {
	if s.env == "sandbox" {
		switch name {
		case "CloseMatch":
			return PayeeCloseMatch, "Henri Dupont"
		case "NoMatch":
			return PayeeNoMatch, ""
		case "NotPossible":
			return PayeeNotPossible, ""
		}
		return PayeeMatch, ""
	}
	idx, ok := s.byIBAN[normalizeIBAN(iban)]
	if !ok {
		return PayeeNotPossible, ""
	}
	holder := s.accounts[idx].HolderName
	switch fold := func(x string) string { return strings.Join(strings.Fields(strings.ToLower(x)), " ") }; {
	case fold(name) == fold(holder):
		return PayeeMatch, ""
	case strings.Contains(fold(holder), fold(name)) || strings.Contains(fold(name), fold(holder)):
		return PayeeCloseMatch, holder
	}
	return PayeeNoMatch, ""
}

// payeeVerificationStart is when verification of payee became mandatory
// for the eurozone's payment service providers (the Instant Payments
// Regulation): every SEPA credit transfer sent since was verified first.
var payeeVerificationStart = time.Date(2025, time.October, 9, 0, 0, 0, 0, time.UTC)

// TransferPayee is the verification of payee an outgoing SEPA credit
// transfer carries: its creditor's, as VerifyPayee answered before it was
// sent, for one made since verification became mandatory; ok is false for
// an older one and for any other transaction.
func (s *Store) TransferPayee(t Transaction) (status, suggestion string, ok bool) {
	if !sentTo(&t, t.Counterparty, t.CounterpartyIBAN) || t.CounterpartyIBAN == "" || t.CreatedAt.Before(payeeVerificationStart) {
		return "", "", false
	}
	status, suggestion = s.VerifyPayee(t.Counterparty, t.CounterpartyIBAN)
	return status, suggestion, true
}

// PayeeToken is a verification of payee, valid 24 hours for one payment:
// initiateCreditTransfers takes it in place of the creditor.
type PayeeToken struct {
	Token, Status, Suggestion string
	Name, IBAN                string
	ExpiresAt                 time.Time
	used                      bool
}

// MaxPayeeTokens bounds the verification tokens kept in one environment.
const MaxPayeeTokens = 10_000

// ErrTokenUsed is a verification token given after its payment used it,
// or unknown, or expired.
var ErrTokenUsed = errors.New("the beneficiaryVerificationToken is unknown, expired or already used: verify the beneficiary again")

// VerifyBeneficiary verifies a creditor's name and IBAN and keeps the
// token of the result.
func (s *Store) VerifyBeneficiary(name, iban string) (PayeeToken, error) {
	status, suggestion := s.VerifyPayee(name, iban)
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.payeeTokens) >= MaxPayeeTokens {
		return PayeeToken{}, fmt.Errorf("the emulator holds %d verification tokens, its maximum: restart it to start afresh: %w", MaxPayeeTokens, ErrForbidden)
	}
	if s.payeeTokens == nil {
		s.payeeTokens = map[string]*PayeeToken{}
	}
	t := &PayeeToken{Token: "vop_" + strings.ReplaceAll(s.runtimeID(0x766f70, len(s.payeeTokens)), "-", ""), Status: status, Suggestion: suggestion,
		Name: name, IBAN: normalizeIBAN(iban), ExpiresAt: now.Add(24 * time.Hour)}
	s.payeeTokens[t.Token] = t
	return *t, nil
}

// UsePayeeToken consumes a verification token: the creditor it verified.
func (s *Store) UsePayeeToken(token string) (PayeeToken, error) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.payeeTokens[token]
	if !ok || t.used || now.After(t.ExpiresAt) {
		return PayeeToken{}, ErrTokenUsed
	}
	t.used = true
	return *t, nil
}

// AccountByNumber is the account with this number, whoever sees it: a
// creditor's account for a payee verification.
func (s *Store) AccountByNumber(number string) (*Account, bool) {
	for i := range s.accounts {
		if s.accounts[i].Number == number {
			return &s.accounts[i], true
		}
	}
	return nil, false
}
