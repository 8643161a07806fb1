package data

import (
	"fmt"
	"time"
)

// Reason is a status with its explanation: an account's suspension or
// closing reason, or its holder's status.
type Reason struct {
	Type    string
	Message string
}

// StatusReason is why a suspended, closing or closed account is so; an
// open account has none.
func StatusReason(a *Account) Reason {
	h := newHrand(a.txSeed, 0x7265736e)
	switch a.Status {
	case "Suspended":
		return Reason{Type: "SuspendRequested", Message: "Suspended at the request of the account holder"}
	case "Closing", "Closed":
		return h.pickReason([]Reason{
			{"RequestedByHolder", "Closed at the request of the account holder"},
			{"Inactivity", "No activity for more than twelve months"},
			{"PartnerReason", "Closed by the partner"},
			{"ComplianceReason", "Closed after a compliance review"},
		}, []int{6, 2, 1, 1})
	}
	return Reason{}
}

func (h *hrand) pickReason(rs []Reason, weights []int) Reason { return rs[h.index(weights...)] }

// HolderStatus is the account holder's status (AccountHolderStatus) and
// its reason: the holder follows their account.
func HolderStatus(a *Account) Reason {
	switch a.Status {
	case "Suspended":
		return Reason{Type: "Suspended", Message: "The account holder is suspended"}
	case "Closed":
		return Reason{Type: "Canceled", Message: "The account holder's account is closed"}
	}
	return Reason{Type: "Enabled"}
}

// UpgradedAt is when an Unlimited account left the EMoney level, a few
// days after it opened; zero for Limited accounts.
func UpgradedAt(a *Account) time.Time {
	if a.PaymentLevel != "Unlimited" {
		return time.Time{}
	}
	return a.CreatedAt.Add(min(time.Duration(1+a.txSeed%10)*day, a.UpdatedAt.Sub(a.CreatedAt)))
}

// Address is a postal address (AddressInfo).
type Address struct {
	Line1, Line2, City, PostalCode, State, Country string
}

func address(country string, seeds ...uint64) Address {
	h := newHrand(seeds...)
	ad := Address{
		Line1:   fmt.Sprintf("%d %s", 1+h.intn(120), h.pick(streets[country])),
		City:    h.pick(cities[country]),
		Country: country,
	}
	switch country {
	case "NLD":
		ad.PostalCode = fmt.Sprintf("%04d %c%c", 1000+h.intn(9000), 'A'+h.intn(26), 'A'+h.intn(26))
	case "BEL":
		ad.PostalCode = fmt.Sprintf("%04d", 1000+h.intn(9000))
	default:
		ad.PostalCode = fmt.Sprintf("%05d", 1000+h.intn(98_000))
	}
	if country == "DEU" || country == "NLD" {
		// Street first, then the number.
		ad.Line1 = fmt.Sprintf("%s %d", h.pick(streets[country]), 1+h.intn(120))
	}
	return ad
}

// HolderAddress is the account holder's residency address.
func (s *Store) HolderAddress(a *Account) Address { return address(a.Country, a.txSeed, 0x686f6c64) }

// MemberAddress is a membership's residency address: the holder's for
// the legal representative of an individual.
func (s *Store) MemberAddress(m Membership) Address {
	a := &s.accounts[m.AccountIndex]
	if m.Slot == 0 && a.HolderType == "Individual" {
		return s.HolderAddress(a)
	}
	return address(a.Country, a.txSeed, uint64(m.Slot), 0x6d656d61)
}

// LegalRepresentative is the account's first membership.
func (s *Store) LegalRepresentative(a *Account) Membership { return s.membership(a, 0) }
