package data

import (
	"encoding/binary"
	"encoding/hex"
	"strconv"
)

// mix is splitmix64's finaliser: a cheap, well-spread hash of one word.
// Everything derived lazily (memberships, cards, transactions) draws from
// it, so any item can be rebuilt alone from its position.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// hrand is a tiny deterministic stream seeded by one word; it replaces
// math/rand where a generator per item would cost more than the item.
type hrand struct{ s uint64 }

func newHrand(seeds ...uint64) hrand {
	var h uint64
	for _, s := range seeds {
		h = mix(h ^ s)
	}
	return hrand{s: h}
}

func (h *hrand) next() uint64 {
	h.s += 0x9e3779b97f4a7c15
	return mix(h.s)
}

// intn is uniform enough in [0, n) for n far below 2^32.
func (h *hrand) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(h.next() % uint64(n))
}

// between is uniform in [lo, hi].
func (h *hrand) between(lo, hi int64) int64 {
	return lo + int64(h.next()%uint64(hi-lo+1))
}

func (h *hrand) pick(vals []string) string { return vals[h.intn(len(vals))] }

// index picks i with probability weights[i]/sum.
func (h *hrand) index(weights ...int) int { return weightedIndex(h.intn, weights) }

// weightedIndex picks i with probability weights[i]/sum, drawing with
// intn (uniform in [0, n)).
func weightedIndex(intn func(int) int, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := intn(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

// weighted picks vals[i] with probability weights[i]/sum.
func (h *hrand) weighted(vals []string, weights []int) string {
	return vals[h.index(weights...)]
}

// kind separates the id spaces of generated entities.
type kind uint64

const (
	kindMembership kind = iota + 1
	kindCard
	kindUser
	kindStatement
	kindTransaction
	kindRepaymentCycle
	kindConsent
	kindVirtualIBAN
	kindStandingOrder
	kindOrderPayment
	kindOrderConsent
	kindBeneficiary
	kindBeneficiaryConsent
	kindRequirement
	kindOnboarding
	kindDeposit
	kindDepositDocument
	kindShareholder
	kindMerchantProfile
	kindPaymentMethod
	kindPaymentLink
)

// idValue is the order-preserving 48-bit value an id starts with: its
// position times a stride that spreads the store's positions over the
// whole range, plus a jitter below the stride. So ids sort like
// positions yet neighbours look unrelated.
func (s *Store) idValue(k kind, pos uint64) uint64 {
	stride := s.idStride(k)
	return s.idBase(k) + pos*stride + mix(s.idSalt^uint64(k)<<56^pos)%stride
}

// idBase offsets a kind's values; it leaves half the range for positions.
func (s *Store) idBase(k kind) uint64 { return mix(s.idSalt^uint64(k)) & (1<<47 - 1) }

// idStride is 2^47 over the kind's number of positions in this store.
func (s *Store) idStride(k kind) uint64 {
	n := uint64(max(len(s.accounts), 1))
	switch k {
	case kindMembership, kindUser:
		n <<= 4
	case kindCard, kindStatement:
		n <<= 8
	case kindRepaymentCycle:
		n <<= 16
	case kindConsent:
		n <<= consentPosBits
	case kindVirtualIBAN:
		n <<= vibanPosBits
	case kindStandingOrder, kindOrderPayment, kindOrderConsent:
		n <<= orderPosBits
	case kindRequirement:
		n <<= 2
	case kindPaymentMethod:
		n <<= 2
	case kindPaymentLink:
		n <<= 6
	case kindDeposit:
		n = uint64(depositCount(len(s.accounts)))
	case kindDepositDocument, kindShareholder:
		n = uint64(depositCount(len(s.accounts))) << depositPosBits
	case kindOnboarding:
		n += uint64(onboardingsInProgress(len(s.accounts)))
	case kindBeneficiary, kindBeneficiaryConsent:
		n <<= beneficiaryPosBits
	case kindTransaction:
		n = uint64(rounds) << positionBits
	}
	return max(1, (1<<47)/n)
}

// idTail is the part of an id that only checks it: a hash of the
// position.
func (s *Store) idTail(k kind, pos uint64) uint64 {
	return mix(s.idSalt ^ uint64(k)<<48 ^ pos*0x2545f4914f6cdd1d)
}

// entityID is the UUID of a generated entity at a position. The first 48
// bits grow with the position, so ids sort like positions (as time-ordered
// UUIDs do); the rest is a hash that decodeEntityID checks.
func (s *Store) entityID(k kind, pos uint64) string {
	h := s.idTail(k, pos)
	return uuidFrom(s.idValue(k, pos)<<16|h>>48, mix(h))
}

// decodeEntityID returns the position an entityID names; a string that is
// not exactly such an id (of this kind and store) is refused.
func (s *Store) decodeEntityID(k kind, id string) (uint64, bool) {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' {
		return 0, false
	}
	pos, ok := s.positionOf(k, id[0:8]+id[9:13])
	if !ok || s.entityID(k, pos) != id {
		return 0, false
	}
	return pos, true
}

// positionOf inverts idValue: the position whose value is these 12 hex
// digits, if any. The caller checks the rest of the id.
func (s *Store) positionOf(k kind, value string) (uint64, bool) {
	v, err := strconv.ParseUint(value, 16, 64)
	if err != nil {
		return 0, false
	}
	base := s.idBase(k)
	if v < base {
		return 0, false
	}
	return (v - base) / s.idStride(k), true
}

// txPrefix starts every generated transaction id, as on the platform.
const txPrefix = "bosci_"

// transactionID is "bosci_" and 32 hex digits: 12 that grow with the
// transaction's slot (so ids sort like slots) and 20 of check hash.
func (s *Store) transactionID(slot uint64) string {
	h := s.idTail(kindTransaction, slot)
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[0:8], s.idValue(kindTransaction, slot)<<16|h>>48)
	binary.BigEndian.PutUint64(raw[8:], mix(h))
	return txPrefix + hex.EncodeToString(raw[:])
}

// decodeTransactionID returns the slot of a generated transaction id.
func (s *Store) decodeTransactionID(id string) (uint64, bool) {
	if len(id) != len(txPrefix)+32 || id[:len(txPrefix)] != txPrefix {
		return 0, false
	}
	slot, ok := s.positionOf(kindTransaction, id[len(txPrefix):len(txPrefix)+12])
	if !ok || s.transactionID(slot) != id {
		return 0, false
	}
	return slot, true
}
