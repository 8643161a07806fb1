package data

import (
	"fmt"
	"slices"
	"time"
)

// Virtual IBAN statuses (IBANStatus).
const (
	IBANEnabled   = "Enabled"
	IBANCanceled  = "Canceled"
	IBANSuspended = "Suspended"
)

// VirtualIBAN is a virtual IBAN entry of an account: another IBAN that
// receives transfers and direct debits for it. An account with an IBAN
// (paymentLevel Unlimited) may have some from the seed; more are added and
// canceled at run time.
type VirtualIBAN struct {
	ID           string
	AccountIndex int32
	IBAN         string
	BIC          string
	Label        string // empty: none
	Status       string // IBANStatus
	BlockSDD     bool   // refuses every SEPA direct debit it receives
	CreatedAt    time.Time
}

// vibanPosBits sizes a generated virtual IBAN's position: the account,
// then its rank among the account's generated ones.
const vibanPosBits = 2

// maxGeneratedVIBANs bounds an account's generated virtual IBANs.
const maxGeneratedVIBANs = 1 << vibanPosBits

// MaxVirtualIBANs bounds the virtual IBANs added in one environment, so
// memory stays bounded however long a session runs.
const MaxVirtualIBANs = 10_000

// vibans is what happened to virtual IBANs at run time (under Store.mu).
type vibans struct {
	added   map[int32][]VirtualIBAN // per account, oldest first
	byID    map[string]int32        // an added one's account
	changed map[string]VirtualIBAN  // generated ones canceled or switched
	n       int
}

var vibanLabels = []string{"Virtual", "Invoices", "Customer payments", "Rent collection", "Marketplace payouts", "Subscriptions", "Deposits", "Refunds"}

// vibanNumber is the account number of a virtual IBAN: the n-th number of
// the accounts' bijection past the store's accounts, so it is no
// account's and no other virtual IBAN's.
func (s *Store) vibanNumber(n uint64, h *hrand) string {
	return fmt.Sprintf("%04d%07d", h.intn(10_000), (n*7919+s.numberOffset)%10_000_000)
}

// generatedVIBANs are an account's virtual IBANs from the seed, oldest
// first: none for an account without an IBAN, canceled with a closed
// account and suspended with a suspended one, as the platform does.
func (s *Store) generatedVIBANs(a *Account) []VirtualIBAN {
	if a.PaymentLevel != "Unlimited" {
		return nil
	}
	h := newHrand(a.txSeed, 0x7669626e)
	n := h.index(25, 35, 25, 15)
	if a.HolderType == "Company" {
		n = h.index(10, 30, 35, 25)
	}
	out := make([]VirtualIBAN, n)
	life := s.epoch.Sub(a.CreatedAt)
	for k := range out {
		v := &out[k]
		v.ID = s.entityID(kindVirtualIBAN, uint64(a.idx)<<vibanPosBits|uint64(k))
		v.AccountIndex = a.idx
		v.IBAN = buildIBAN(a.Country, s.vibanNumber(uint64(len(s.accounts))+uint64(a.idx)*maxGeneratedVIBANs+uint64(k), &h))
		v.BIC = a.BIC
		v.Label = h.pick(vibanLabels)
		// Spread over the account's life, in rank order.
		v.CreatedAt = a.CreatedAt.Add(life * time.Duration(2*k+1) / time.Duration(2*n+1)).Add(time.Duration(h.between(0, 3600)) * time.Second).Truncate(time.Millisecond)
		v.Status = h.weighted([]string{IBANEnabled, IBANCanceled}, []int{88, 12})
		v.BlockSDD = h.intn(5) == 0
		switch a.Status {
		case "Closing", "Closed":
			v.Status = IBANCanceled
		case "Suspended":
			if v.Status == IBANEnabled {
				v.Status = IBANSuspended
			}
		}
	}
	return out
}

// accountVIBANs are an account's virtual IBANs as they are now, newest
// first.
func (s *Store) accountVIBANs(a *Account) []VirtualIBAN {
	gen := s.generatedVIBANs(a)
	s.mu.RLock()
	all := make([]VirtualIBAN, 0, len(gen)+len(s.vibans.added[a.idx]))
	for _, v := range gen {
		if c, ok := s.vibans.changed[v.ID]; ok {
			v = c
		}
		all = append(all, v)
	}
	all = append(all, s.vibans.added[a.idx]...)
	s.mu.RUnlock()
	slices.Reverse(all)
	return all
}

// VirtualIBANQuery is one page request of an account's virtual IBANs.
type VirtualIBANQuery struct {
	First    int
	After    string
	Before   string
	IDs      []string // empty: any
	Statuses []string // empty: any
}

// VirtualIBANCursor is the opaque cursor of a virtual IBAN.
func VirtualIBANCursor(v *VirtualIBAN) string { return encodeCursor("virtualIbanEntry", v.ID) }

// VirtualIBANs pages an account's virtual IBANs, newest first.
func (s *Store) VirtualIBANs(a *Account, q VirtualIBANQuery) (Page[VirtualIBAN], error) {
	var list []VirtualIBAN
	for _, v := range s.accountVIBANs(a) {
		if (len(q.IDs) == 0 || slices.Contains(q.IDs, v.ID)) && (len(q.Statuses) == 0 || slices.Contains(q.Statuses, v.Status)) {
			list = append(list, v)
		}
	}
	return pageByCursor(list, q.First, q.After, q.Before, 0, "virtualIbanEntry", func(v VirtualIBAN) string { return v.ID })
}

// PageList pages a short list filtered and ordered in full: first items
// after the cursor (of kind, naming an item by id), offset more skipped.
func PageList[T any](list []T, first int, after string, offset int, kind string, id func(T) string) (Page[T], error) {
	return pageByCursor(list, first, after, "", offset, kind, id)
}

// pageByCursor pages a short list filtered and ordered in full, between
// two cursors naming its items by id, offset items after the first
// skipped.
func pageByCursor[T any](list []T, first int, after, before string, offset int, kind string, id func(T) string) (Page[T], error) {
	find := func(c string) (int, error) {
		want, ok := decodeCursor(c, kind)
		if !ok {
			return 0, ErrBadCursor
		}
		i := slices.IndexFunc(list, func(t T) bool { return id(t) == want })
		if i < 0 {
			return 0, ErrBadCursor
		}
		return i, nil
	}
	start, end := 0, len(list)
	if after != "" {
		i, err := find(after)
		if err != nil {
			return Page[T]{}, err
		}
		start = i + 1
	}
	if before != "" {
		i, err := find(before)
		if err != nil {
			return Page[T]{}, err
		}
		end = i
	}
	start = min(start+max(offset, 0), len(list))
	if end < start {
		end = start
	}
	p := window(list[:end], start, first)
	p.TotalCount = len(list)
	return p, nil
}

// VirtualIBAN returns the virtual IBAN with this id, if the viewer sees
// its account.
func (s *Store) VirtualIBAN(v Viewer, id string) (VirtualIBAN, bool) {
	var idx int32
	if pos, ok := s.decodeEntityID(kindVirtualIBAN, id); ok {
		idx = int32(pos >> vibanPosBits)
	} else {
		s.mu.RLock()
		i, ok := s.vibans.byID[id]
		s.mu.RUnlock()
		if !ok {
			return VirtualIBAN{}, false
		}
		idx = i
	}
	if idx < 0 || int(idx) >= len(s.accounts) || !s.canSee(v, idx) {
		return VirtualIBAN{}, false
	}
	for _, x := range s.accountVIBANs(&s.accounts[idx]) {
		if x.ID == id {
			return x, true
		}
	}
	return VirtualIBAN{}, false
}

// ErrAccountStatus is returned when the account's status refuses a
// change: a virtual IBAN of a closed account, for one.
var ErrAccountStatus = fmt.Errorf("the account's status does not allow this")

// AddVirtualIBAN adds an Enabled virtual IBAN to an Opened account with
// an IBAN (paymentLevel Unlimited).
func (s *Store) AddVirtualIBAN(v Viewer, accountID string) (VirtualIBAN, error) {
	a, err := s.actingAccount(v, accountID, RightViewAccount)
	if err != nil {
		return VirtualIBAN{}, err
	}
	if a.Status != "Opened" {
		return VirtualIBAN{}, fmt.Errorf("the account is %s; only an Opened account gets a virtual IBAN: %w", a.Status, ErrAccountStatus)
	}
	if a.PaymentLevel != "Unlimited" {
		return VirtualIBAN{}, fmt.Errorf("the account has no IBAN (paymentLevel %s): verify its holder first: %w", a.PaymentLevel, ErrForbidden)
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vibans.n >= MaxVirtualIBANs {
		return VirtualIBAN{}, fmt.Errorf("the emulator holds %d added virtual IBANs, its maximum: restart it to start afresh: %w", MaxVirtualIBANs, ErrForbidden)
	}
	if s.vibans.added == nil {
		s.vibans.added, s.vibans.byID = map[int32][]VirtualIBAN{}, map[string]int32{}
	}
	n := s.vibans.n
	s.vibans.n++
	h := newHrand(uint64(s.seed), uint64(n), 0x7669626e)
	x := VirtualIBAN{
		ID:           s.runtimeID(0x7669626e, n),
		AccountIndex: a.idx,
		IBAN:         buildIBAN(a.Country, s.vibanNumber(uint64(len(s.accounts))*(1+maxGeneratedVIBANs)+uint64(n), &h)),
		BIC:          a.BIC,
		Label:        "Virtual",
		Status:       IBANEnabled,
		CreatedAt:    now,
	}
	s.vibans.added[a.idx] = append(s.vibans.added[a.idx], x)
	s.vibans.byID[x.ID] = a.idx
	return x, nil
}

// CancelVirtualIBAN cancels a virtual IBAN, for good: a canceled one
// stays canceled.
func (s *Store) CancelVirtualIBAN(v Viewer, id string) (VirtualIBAN, error) {
	return s.changeVIBAN(v, id, func(x *VirtualIBAN) error {
		x.Status = IBANCanceled
		return nil
	})
}

// SetVirtualIBANBlockSDD allows (block false) or denies (block true) the
// SEPA direct debits a virtual IBAN receives; a canceled one is not
// switched.
func (s *Store) SetVirtualIBANBlockSDD(v Viewer, id string, block bool) (VirtualIBAN, error) {
	return s.changeVIBAN(v, id, func(x *VirtualIBAN) error {
		if x.Status == IBANCanceled {
			return fmt.Errorf("the virtual IBAN is canceled: %w", ErrWrongState)
		}
		x.BlockSDD = block
		return nil
	})
}

// changeVIBAN applies change to a virtual IBAN of an account the viewer
// may act on, which is not closing or closed.
func (s *Store) changeVIBAN(v Viewer, id string, change func(*VirtualIBAN) error) (VirtualIBAN, error) {
	x, ok := s.VirtualIBAN(v, id)
	if !ok {
		return VirtualIBAN{}, fmt.Errorf("virtual IBAN %s: %w", id, ErrNotFound)
	}
	a := &s.accounts[x.AccountIndex]
	if _, err := s.actingAccount(v, a.ID, RightViewAccount); err != nil {
		return VirtualIBAN{}, err
	}
	if a.Status == "Closing" || a.Status == "Closed" {
		return VirtualIBAN{}, fmt.Errorf("the account is %s: %w", a.Status, ErrAccountStatus)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read again under the lock: another change may have come first.
	cur := x
	if c, ok := s.vibans.changed[id]; ok {
		cur = c
	}
	added := s.vibans.added[a.idx]
	i := slices.IndexFunc(added, func(y VirtualIBAN) bool { return y.ID == id })
	if i >= 0 {
		cur = added[i]
	}
	if err := change(&cur); err != nil {
		return VirtualIBAN{}, err
	}
	if i >= 0 {
		added[i] = cur
	} else {
		if s.vibans.changed == nil {
			s.vibans.changed = map[string]VirtualIBAN{}
		}
		s.vibans.changed[id] = cur
	}
	return cur, nil
}

// VirtualIBANBankDetailsURL is where a virtual IBAN's bank details (its
// RIB) are downloaded.
func VirtualIBANBankDetailsURL(x VirtualIBAN) string {
	return "https://documents.example.com/bank-details/" + x.ID + ".pdf"
}
