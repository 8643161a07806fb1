package data

import (
	"fmt"
	"maps"
	"strconv"
	"time"
)

// Simulated steps apply to the generated history too, as the platform lets
// a test book, reject or return any transaction of the right type and
// status. The history stays generated: what a step changes of a generated
// transaction (its status and what comes with it) is kept aside and laid
// over it wherever it is described or generated, after its amounts are
// drawn, so the transactions after it keep theirs.

// genKey names a generated transaction: its account and its position in
// the account's history.
type genKey struct {
	acc int32
	k   int
}

// genChange is what simulated steps changed of one generated transaction.
type genChange struct {
	status, rejectedReason, releasedReason string
	statusDate, updatedAt                  time.Time
	balanceAfter                           int64
	sequence                               int
}

func changeOf(t *Transaction) genChange {
	return genChange{status: t.Status, rejectedReason: t.RejectedReason, releasedReason: t.ReleasedReason,
		statusDate: t.StatusDate, updatedAt: t.UpdatedAt, balanceAfter: t.BalanceAfter, sequence: t.Sequence}
}

// genChanges are every change of the generated history, replaced whole on
// each write (under the store's write lock) so that the history, summed
// outside the lock, reads them without one.
type genChanges struct {
	version int // how many writes made it: cached counts of filters are per version
	m       map[genKey]genChange
}

// overlay lays the changes of generated transaction k of account acc over
// t.
func (s *Store) overlay(t *Transaction, acc int32, k int) {
	c := s.genChanged.Load()
	if c == nil {
		return
	}
	ch, ok := c.m[genKey{acc, k}]
	if !ok {
		return
	}
	t.Status, t.RejectedReason, t.ReleasedReason = ch.status, ch.rejectedReason, ch.releasedReason
	t.StatusDate, t.UpdatedAt = ch.statusDate, ch.updatedAt
	t.BalanceAfter, t.Sequence = ch.balanceAfter, ch.sequence
}

// genVersion is the version of the generated history's changes: 0 until a
// step changes a generated transaction.
func (s *Store) genVersion() int {
	if c := s.genChanged.Load(); c != nil {
		return c.version
	}
	return 0
}

// rootCountKey keys the cached count of root transactions matching f (and
// with prefix "rtm", the slots that match it): a change of the generated
// history makes the counts before it stale.
func (s *Store) rootCountKey(prefix string, f *TransactionFilter) string {
	return prefix + strconv.Itoa(s.genVersion()) + "|" + f.key()
}

// recordLocked keeps what a step changed of generated transaction k of
// account acc; the caller holds the write lock.
func (s *Store) recordLocked(acc int32, k int, t *Transaction) {
	next := &genChanges{m: map[genKey]genChange{}}
	if old := s.genChanged.Load(); old != nil {
		next.version = old.version
		maps.Copy(next.m, old.m)
	}
	next.version++
	next.m[genKey{acc, k}] = changeOf(t)
	s.genChanged.Store(next)
}

// stepOnGenerated runs fn as one step on the account of generated
// transaction slot, which the viewer must see; what fn changes of the
// transaction is kept.
func (s *Store) stepOnGenerated(v Viewer, id string, slot uint64, fn func(st *step, t *Transaction) error) error {
	ref, ok := s.refOfSlot(slot)
	if !ok || !s.canSee(v, ref.acc) {
		return fmt.Errorf("transaction %s: %w", id, ErrNotFound)
	}
	a := &s.accounts[ref.acc]
	// Generated outside the lock (its card payments read the cards); its
	// changes are laid over again under the lock, where they cannot move.
	t := s.transactionAt(a, ref.k)
	return s.stepOn(ref.acc, func(st *step) error {
		s.overlay(&t, ref.acc, ref.k)
		before := changeOf(&t)
		if err := fn(st, &t); err != nil {
			return err
		}
		if changeOf(&t) != before {
			s.recordLocked(ref.acc, ref.k, &t)
		}
		return nil
	})
}
