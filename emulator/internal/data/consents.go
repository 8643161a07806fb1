package data

import (
	"fmt"
	"net/url"
	"time"
)

// Consent statuses (ConsentStatus) the emulator's pending consents take.
const (
	ConsentCreated  = "Created"
	ConsentStarted  = "Started"
	ConsentAccepted = "Accepted"
	ConsentRefused  = "Refused"
)

// Consent purposes (ConsentPurpose) of what waits for a consent.
const (
	PurposeAddAccountMembership  = "AddAccountMembership"
	PurposeAddCard               = "AddCard"
	PurposeInitPayment           = "InitPayment"
	PurposeScheduleStandingOrder = "ScheduleStandingOrder"
)

// Consent is what a ConsentPending membership or card waits for: the user
// who asked for it has to accept it, with strong authentication, before
// the invitation is sent or the card is issued. It is still pending:
// Created, or Started once the user opened its URL.
type Consent struct {
	ID      string
	Purpose string // ConsentPurpose
	Status  string // ConsentStatus
	// UserID is who asked: the account's legal representative, who
	// invites the members and orders the cards.
	UserID    string
	CreatedAt time.Time
	UpdatedAt time.Time
	StartedAt time.Time // zero until Started
	Challenge string    // the consent's unique hash
	URL       string    // where the user accepts it
	// AcceptedAt and RefusedAt are when the user answered: zero while
	// the consent is pending.
	AcceptedAt time.Time
	RefusedAt  time.Time
}

// consentPosBits sizes a consent's position: account, then what waits for
// it (a membership slot, or 1<<8 plus a card's rank).
const consentPosBits = 9

// MembershipConsent is the consent a ConsentPending membership waits for.
func (s *Store) MembershipConsent(m Membership) Consent {
	a := &s.accounts[m.AccountIndex]
	return s.consent(a, uint64(m.Slot), PurposeAddAccountMembership, m.CreatedAt)
}

// CardConsent is the consent a ConsentPending card waits for.
func (s *Store) CardConsent(c Card) Consent {
	a := &s.accounts[c.AccountIndex]
	return s.consent(a, 1<<8|uint64(cardRank(c.Slot, c.N)), PurposeAddCard, c.CreatedAt)
}

// consent builds the pending consent at a position of account a, asked
// for when what waits for it was created.
func (s *Store) consent(a *Account, local uint64, purpose string, created time.Time) Consent {
	return s.consentWith(s.entityID(kindConsent, uint64(a.idx)<<consentPosBits|local), a, local, purpose, created)
}

// consentWith builds a pending consent of account a with this id; local
// seeds its draws.
func (s *Store) consentWith(id string, a *Account, local uint64, purpose string, created time.Time) Consent {
	h := newHrand(a.txSeed, local, 0x636f6e73)
	c := Consent{
		ID:        id,
		Purpose:   purpose,
		Status:    ConsentCreated,
		UserID:    s.LegalRepresentative(a).UserID,
		CreatedAt: created,
		UpdatedAt: created,
		Challenge: fmt.Sprintf("%016x%016x", h.next(), h.next()),
	}
	// A third of the users opened the link and did not finish.
	if h.intn(3) == 0 {
		c.Status = ConsentStarted
		c.StartedAt = created.Add(time.Duration(h.between(1, 180)) * time.Minute)
		// Not after the account's last change, nor before the consent.
		if c.StartedAt.After(a.UpdatedAt) {
			c.StartedAt = a.UpdatedAt
		}
		if c.StartedAt.Before(created) {
			c.StartedAt = created
		}
		c.UpdatedAt = c.StartedAt
	}
	c.URL = "https://consent.example.com/?" + url.Values{"consentId": {c.ID}, "env": {s.env}}.Encode()
	return c
}

// ConsentByID returns the consent with this id, of whatever waits or
// waited for it: a pending membership or card, a standing order, a
// trusted beneficiary, a payment. A project token reads any; a user
// token the consents that user gives.
func (s *Store) ConsentByID(v Viewer, id string) (Consent, bool) {
	c, ok := s.consentByID(id)
	if !ok || (!v.Project && c.UserID != s.Effective(v.UserID)) {
		return Consent{}, false
	}
	return c, true
}

func (s *Store) consentByID(id string) (Consent, bool) {
	if pos, ok := s.decodeEntityID(kindConsent, id); ok {
		return s.generatedConsent(pos)
	}
	for _, k := range []kind{kindOrderConsent, kindBeneficiaryConsent} {
		if pos, ok := s.decodeEntityID(k, id); ok {
			bits := uint(orderPosBits)
			if k == kindBeneficiaryConsent {
				bits = beneficiaryPosBits
			}
			idx := pos >> bits
			if idx >= uint64(len(s.accounts)) {
				return Consent{}, false
			}
			a := &s.accounts[idx]
			if k == kindOrderConsent {
				for _, o := range s.accountOrders(a) {
					if o.Consent.ID == id {
						return o.Consent, true
					}
				}
			}
			for _, b := range s.accountBeneficiaries(a) {
				if b.Consent.ID == id {
					return b.Consent, true
				}
			}
			return Consent{}, false
		}
	}
	if p, err := s.PaymentOfConsent(id); err == nil {
		return p.Consent, true
	}
	if o, ok := s.OrderOfConsent(id); ok {
		return o.Consent, true
	}
	if b, ok := s.BeneficiaryOfConsent(id); ok {
		return b.Consent, true
	}
	return Consent{}, false
}

// generatedConsent is the consent at a position: a pending membership's
// or a pending card's.
func (s *Store) generatedConsent(pos uint64) (Consent, bool) {
	idx, local := pos>>consentPosBits, pos&(1<<consentPosBits-1)
	if idx >= uint64(len(s.accounts)) {
		return Consent{}, false
	}
	a := &s.accounts[idx]
	if local < 1<<8 {
		if int(local) >= s.memberCount(a) {
			return Consent{}, false
		}
		m := s.membership(a, int(local))
		if m.Status != MemberConsentPending {
			return Consent{}, false
		}
		return s.MembershipConsent(m), true
	}
	rank := int(local - 1<<8)
	slot := rank / cardsPerMembership
	if slot >= s.memberCount(a) {
		return Consent{}, false
	}
	m := s.membership(a, slot)
	if n := rank % cardsPerMembership; n < int(m.cards) {
		if c := s.card(a, &m, n); c.Status == CardConsentPending {
			return s.CardConsent(c), true
		}
	}
	return Consent{}, false
}
