package data

import (
	"slices"
	"time"
)

// The project's transactions live on one timeline cut into hourly rounds.
// An account's k-th transaction happens in round first + k*gap, and within
// a round every account active then has its own time slot. So the
// transactions of one round are found from a small index (accounts by gap
// and residue) without generating anything, and the whole project's
// history pages in time order at a cost that does not grow with the
// number of accounts.
const (
	roundLen     = time.Hour
	creationSpan = 3 * 365 * 24 * time.Hour
	rounds       = int32(creationSpan / roundLen)
	// positionBits is the room for a slot's position within its round.
	positionBits = 17
	// permStep is a prime above MaxAccounts, so it is coprime with every
	// round's population and shuffles positions as a bijection.
	permStep = 1_000_003
)

// txGaps are the spacings (in rounds) an account's transactions may have;
// few distinct values keep the per-round index small.
var txGaps = [...]int32{1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 19, 24, 30, 37, 46, 58, 72, 90, 112, 140, 175, 219, 274, 342, 428, 535, 669, 836, 1045, 1306}

// roundOf is the round containing t, unclamped. Round 0 starts at the
// store's origin: accounts are created from then on.
func (s *Store) roundOf(t time.Time) int64 {
	d := t.Sub(s.origin)
	r := int64(d / roundLen)
	if d < 0 && d%roundLen != 0 {
		r--
	}
	return r
}

// ceilRound is the first round starting at or after t.
func (s *Store) ceilRound(t time.Time) int32 {
	d := t.Sub(s.origin)
	if d <= 0 {
		return 0
	}
	return int32((d + roundLen - 1) / roundLen)
}

// schedule is where an account's transactions fall; the zero value means
// none.
type schedule struct {
	first int32 // round of transaction 0
	count uint8
	gap   uint8 // index into txGaps
}

func (sc schedule) round(k int) int32 { return sc.first + int32(k)*txGaps[sc.gap] }

// planSchedule spreads 20-44 transactions over the account's active life;
// closed and suspended accounts stop when their status changed.
func (s *Store) planSchedule(a *Account, h *hrand) schedule {
	r0 := s.ceilRound(a.CreatedAt)
	end := rounds
	if a.Status == "Closed" || a.Status == "Suspended" {
		end = min(end, s.ceilRound(a.UpdatedAt))
	}
	life := end - r0
	if life <= 0 {
		return schedule{first: r0}
	}
	target := int32(20 + h.intn(25))
	gi := 0
	for gi+1 < len(txGaps) && txGaps[gi+1] <= life/target {
		gi++
	}
	g := txGaps[gi]
	first := r0 + int32(h.intn(int(min(g, life))))
	n := (end - first + g - 1) / g
	return schedule{first: first, count: uint8(min(n, 255)), gap: uint8(gi)}
}

// buildTimeline indexes the accounts by gap and residue of their first
// round, each bucket sorted by first round, and counts the accounts
// created by each round.
func (s *Store) buildTimeline() {
	s.roundActive = make([]int32, rounds)
	i := 0
	for r := range rounds {
		for i < len(s.accounts) && s.ceilRound(s.accounts[i].CreatedAt) <= r {
			i++
		}
		s.roundActive[r] = int32(i)
	}
	var base [len(txGaps) + 1]int32
	for gi, g := range txGaps {
		base[gi+1] = base[gi] + g
	}
	s.bucketBase = base
	off := make([]int32, base[len(txGaps)]+1)
	bucket := func(a *Account) int32 {
		return base[a.sched.gap] + a.sched.first%txGaps[a.sched.gap]
	}
	for i := range s.accounts {
		if a := &s.accounts[i]; a.sched.count > 0 {
			off[bucket(a)+1]++
			s.txTotal += int(a.sched.count)
		}
	}
	for b := 1; b < len(off); b++ {
		off[b] += off[b-1]
	}
	acc := make([]int32, off[len(off)-1])
	fill := slices.Clone(off[:len(off)-1])
	for i := range s.accounts {
		if a := &s.accounts[i]; a.sched.count > 0 {
			b := bucket(a)
			acc[fill[b]] = int32(i)
			fill[b]++
		}
	}
	for b := 0; b+1 < len(off); b++ {
		seg := acc[off[b]:off[b+1]]
		slices.SortFunc(seg, func(x, y int32) int {
			return int(s.accounts[x].sched.first - s.accounts[y].sched.first)
		})
	}
	s.bucketOff, s.bucketAcc = off, acc
}

// position is an account's place in a round: a bijection of the active
// accounts that changes from round to round, so nobody always pays at the
// same minute.
func (s *Store) position(idx, r int32) uint32 {
	n := uint64(s.roundActive[r])
	return uint32((uint64(idx)*permStep + uint64(r)*s.permQ) % n)
}

// accountAt inverts position.
func (s *Store) accountAt(p uint32, r int32) (int32, bool) {
	if r < 0 || r >= rounds {
		return 0, false
	}
	n := int64(s.roundActive[r])
	if int64(p) >= n {
		return 0, false
	}
	shift := int64((uint64(r) * s.permQ) % uint64(n))
	x := (int64(p) - shift) % n
	if x < 0 {
		x += n
	}
	return int32((x * modInverse(permStep%n, n)) % n), true
}

// modInverse is a⁻¹ mod n for coprime a and n (extended Euclid).
func modInverse(a, n int64) int64 {
	if n == 1 {
		return 0
	}
	t, newT := int64(0), int64(1)
	r, newR := n, a
	for newR != 0 {
		q := r / newR
		t, newT = newT, t-q*newT
		r, newR = newR, r-q*newR
	}
	if t < 0 {
		t += n
	}
	return t
}

// slotOf packs a round and a position; slots sort like time.
func slotOf(r int32, p uint32) uint64 { return uint64(r)<<positionBits | uint64(p) }

func splitSlot(slot uint64) (int32, uint32) {
	return int32(slot >> positionBits), uint32(slot & (1<<positionBits - 1))
}

// slotTime is when the transaction in a slot happened: positions share
// the round in order, each with a jitter inside its own share.
func (s *Store) slotTime(slot uint64) time.Time {
	r, p := splitSlot(slot)
	n := int64(s.roundActive[r])
	jitter := int64(mix(s.idSalt^slot) % uint64(roundLen))
	off := (int64(roundLen)*int64(p) + jitter) / n
	return s.origin.Add(time.Duration(int64(r)*int64(roundLen) + off)).Truncate(time.Millisecond)
}

// txRef names one generated transaction.
type txRef struct {
	acc  int32
	k    int
	slot uint64
}

// roundTransactions appends the round's transactions in position order.
func (s *Store) roundTransactions(r int32, out []txRef) []txRef {
	start := len(out)
	for gi, g := range txGaps {
		b := s.bucketBase[gi] + r%g
		for _, idx := range s.bucketAcc[s.bucketOff[b]:s.bucketOff[b+1]] {
			sc := s.accounts[idx].sched
			if sc.first > r {
				break
			}
			if k := int((r - sc.first) / g); k < int(sc.count) {
				out = append(out, txRef{acc: idx, k: k, slot: slotOf(r, s.position(idx, r))})
			}
		}
	}
	seg := out[start:]
	slices.SortFunc(seg, func(x, y txRef) int {
		if x.slot < y.slot {
			return -1
		}
		return 1
	})
	return out
}

// refOfSlot finds the generated transaction in a slot, if any.
func (s *Store) refOfSlot(slot uint64) (txRef, bool) {
	r, p := splitSlot(slot)
	idx, ok := s.accountAt(p, r)
	if !ok {
		return txRef{}, false
	}
	sc := s.accounts[idx].sched
	g := txGaps[sc.gap]
	if sc.count == 0 || r < sc.first || (r-sc.first)%g != 0 {
		return txRef{}, false
	}
	k := int((r - sc.first) / g)
	if k >= int(sc.count) {
		return txRef{}, false
	}
	return txRef{acc: idx, k: k, slot: slot}, true
}
