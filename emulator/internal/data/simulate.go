package data

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrWrongState is returned when a simulated step does not apply to the
// transaction it names: a debit of a released authorization, the booking
// of a transfer that is no longer pending.
var ErrWrongState = errors.New("the transaction is not in a state this step applies to")

// ErrInsufficientFunds is returned when a debit exceeds the available
// balance where the platform refuses it.
var ErrInsufficientFunds = errors.New("the available balance does not cover the amount")

// step is one simulated change of an account, made under the store's
// write lock: it sees the account's balances (generated and simulated),
// changes its simulated transactions and adds new ones.
type step struct {
	s   *Store
	a   *Account
	idx int32
	now time.Time
	bal Balances
	seq int // the last booking sequence number
}

// generatedState sums the account's generated history: its balances and
// last booking sequence number. The history is pure, so it is summed
// outside the lock, and kept per version of its changes: a page of
// accounts shows each one's balances, and summing a history of hundreds
// of transactions for each was a fifth of the page's time.
func (s *Store) generatedState(a *Account) (Balances, int) {
	key := genStateKey{acc: a.idx, version: s.genVersion()}
	if st, ok := s.genStates.get(key); ok {
		return st.bal, st.seq
	}
	b := Balances{Currency: a.Currency}
	seq := 0
	s.eachLight(a, func(t *Transaction) {
		b.add(t)
		if t.Status == StatusBooked {
			seq = max(seq, t.Sequence)
		}
	})
	if s.genVersion() == key.version {
		// Not a sum a step changed half-way through.
		s.genStates.put(key, genState{bal: b, seq: seq})
	}
	return b, seq
}

// genStateKey keys an account's summed generated history by the version
// of the changes laid over it.
type genStateKey struct {
	acc     int32
	version int
}

type genState struct {
	bal Balances
	seq int
}

// add counts a transaction in the balances: pending card authorisations
// are reserved, other pending movements make the pending balance.
func (b *Balances) add(t *Transaction) {
	switch {
	case t.affectsBooked():
		b.Booked += t.Signed()
	case t.Status == StatusPending && t.Type == "CardOutAuthorization":
		b.Reserved += t.Amount
	case t.Status == StatusPending:
		b.Pending += t.Signed()
	}
}

// available is what the account may spend.
func (b *Balances) available() int64 { return b.Booked + b.Pending - b.Reserved }

// stepOn runs fn as one step on account idx.
func (s *Store) stepOn(idx int32, fn func(st *step) error) error {
	a := &s.accounts[idx]
	version := s.genVersion()
	bal, seq := s.generatedState(a)
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.genVersion() != version {
		// Another step changed the generated history meanwhile.
		bal, seq = s.generatedState(a)
	}
	for i := range s.extraTx[idx] {
		t := &s.extraTx[idx][i]
		bal.add(t)
		seq = max(seq, t.Sequence)
	}
	return fn(&step{s: s, a: a, idx: idx, now: now, bal: bal, seq: seq})
}

// stepOnTx runs fn as one step on the account of simulated transaction
// id, which the viewer must see; fn gets the transaction to change.
func (s *Store) stepOnTx(v Viewer, id string, fn func(st *step, t *Transaction) error) error {
	if slot, generated := s.decodeTransactionID(id); generated {
		return s.stepOnGenerated(v, id, slot, fn)
	}
	s.mu.RLock()
	ref, ok := s.simRefLocked(id)
	s.mu.RUnlock()
	if !ok || !s.canSee(v, ref.acc) {
		return fmt.Errorf("transaction %s: %w", id, ErrNotFound)
	}
	return s.stepOn(ref.acc, func(st *step) error {
		return fn(st, &s.extraTx[ref.acc][ref.n])
	})
}

// stepTx runs fn as one step on simulated transaction id, and returns a
// copy of the transaction fn answers with.
func (s *Store) stepTx(v Viewer, id string, fn func(st *step, t *Transaction) (*Transaction, error)) (Transaction, error) {
	var out Transaction
	err := s.stepOnTx(v, id, func(st *step, t *Transaction) error {
		r, err := fn(st, t)
		if err == nil {
			out = *r
		}
		return err
	})
	return out, err
}

// simRefLocked finds a simulated transaction by id.
func (s *Store) simRefLocked(id string) (simRef, bool) {
	if !strings.HasPrefix(id, txPrefix+"sim") {
		return simRef{}, false
	}
	for _, r := range s.simulated {
		if s.extraTx[r.acc][r.n].ID == id {
			return r, true
		}
	}
	return simRef{}, false
}

// add records a new simulated transaction of the step's account, with
// its id and dates, and returns it as stored.
func (st *step) add(t Transaction) (*Transaction, error) {
	s := st.s
	if len(s.extraTx[st.idx]) >= MaxSimulatedPerAccount {
		return nil, fmt.Errorf("the account already has %d simulated transactions, the emulator's maximum: %w", MaxSimulatedPerAccount, ErrForbidden)
	}
	s.txCounter++
	t.ID = fmt.Sprintf("%ssim%010d%s", txPrefix, s.txCounter, st.a.ID[:8])
	t.AccountIndex = st.idx
	// A step may copy a generated transaction (a debit of a generated
	// authorization): the copy has no slot of the history.
	t.sim, t.slot = uint32(s.txCounter), 0
	if t.Currency == "" {
		t.Currency = st.a.Currency
	}
	if t.ExecutionDate.IsZero() {
		t.ExecutionDate = st.now
	}
	t.CreatedAt, t.UpdatedAt = st.now, st.now
	if t.Reference == "" {
		t.Reference = fmt.Sprintf("SIM%013d", s.txCounter)
	}
	want := t.Status
	switch want {
	case StatusBooked, StatusRejected, StatusCanceled, StatusReleased, StatusPending, StatusUpcoming:
	default:
		return nil, fmt.Errorf("a simulated transaction cannot start %q", want)
	}
	// Until its status is set below it counts in no balance.
	t.Status = ""
	t.search = t.searchText()
	s.extraTx[st.idx] = append(s.extraTx[st.idx], t)
	s.simulated = append(s.simulated, simRef{acc: st.idx, n: len(s.extraTx[st.idx]) - 1})
	p := &s.extraTx[st.idx][len(s.extraTx[st.idx])-1]
	switch want {
	case StatusBooked:
		st.book(p)
	case StatusRejected, StatusCanceled, StatusReleased:
		p.Status, p.StatusDate = want, st.now
	default:
		p.Status = want
		st.bal.add(p)
	}
	return p, nil
}

// book books a transaction of the step's account: it joins the booked
// balance and takes the next booking sequence number.
func (st *step) book(t *Transaction) {
	st.leave(t)
	st.seq++
	t.Status = StatusBooked
	t.UpdatedAt = st.now
	t.BalanceAfter = st.bal.Booked + t.Signed()
	t.Sequence = st.seq
	st.bal.add(t)
}

// leave takes a transaction out of the step's balances before its status
// changes.
func (st *step) leave(t *Transaction) {
	var b Balances
	b.add(t)
	st.bal.Booked -= b.Booked
	st.bal.Pending -= b.Pending
	st.bal.Reserved -= b.Reserved
}

// settle ends a transaction with a status that counts in no balance:
// Released, Rejected or Canceled.
func (st *step) settle(t *Transaction, status, reason string) {
	st.leave(t)
	t.Status = status
	t.UpdatedAt, t.StatusDate = st.now, st.now
	switch status {
	case StatusReleased:
		t.ReleasedReason = reason
	case StatusRejected:
		t.RejectedReason = reason
	}
}

// expect checks that a transaction is of one of the types a step applies
// to and in the status it needs.
func expect(t *Transaction, status string, types ...string) error {
	for _, typ := range types {
		if t.Type == typ {
			if t.Status != status {
				return fmt.Errorf("transaction %s is %s, not %s: %w", t.ID, t.Status, status, ErrWrongState)
			}
			return nil
		}
	}
	return fmt.Errorf("transaction %s is a %s, not a %s: %w", t.ID, t.Type, strings.Join(types, " or "), ErrWrongState)
}

// counterpart is a new transaction that undoes part or all of t: the
// same kind and parties, the other side.
func counterpart(t *Transaction, typ string, amount int64) Transaction {
	c := *t
	c.Type = typ
	c.Amount = amount
	c.Side = "Credit"
	if t.Side == "Credit" {
		c.Side = "Debit"
	}
	c.Reference, c.ExternalReference = "", t.Reference
	c.Status, c.RejectedReason, c.ReleasedReason = StatusBooked, "", ""
	c.StatusDate, c.ExecutionDate = time.Time{}, time.Time{}
	c.BalanceAfter, c.Sequence = 0, 0
	c.origin = t.ID
	return c
}

// undoneAmount is how much of transaction id later transactions of the
// step's account already gave back.
func (st *step) undoneAmount(id string) int64 {
	var n int64
	for i := range st.s.extraTx[st.idx] {
		if t := &st.s.extraTx[st.idx][i]; t.origin == id && t.Status == StatusBooked {
			n += t.Amount
		}
	}
	return n
}
