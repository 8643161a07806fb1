package data

import (
	"fmt"
	"net/url"
	"slices"
	"time"
)

// Standing order statuses (StandingOrderStatus).
const (
	OrderConsentPending = "ConsentPending"
	OrderEnabled        = "Enabled"
	OrderCanceled       = "Canceled"
)

// StandingOrder is a recurring SEPA credit transfer of an account. Each
// execution is a payment of one transfer: the next one waits as an
// Upcoming transaction until its date, when it is sent.
//
// An account's orders from the seed are of two kinds. One for each
// transfer its history schedules for a later date (an Upcoming outgoing
// transfer): that transfer is the order's next execution, so the order and
// the history agree. Others were scheduled recently to start later, or
// canceled before they started: they have no execution yet, because an
// execution the generated history does not hold would not be in its
// balances.
type StandingOrder struct {
	ID           string
	AccountIndex int32
	Label        string
	Reference    string
	Amount       int64 // cents; 0 for a target balance
	// Target is the available balance a target-balance order leaves on
	// the account (HasTarget); each execution sends what is above it.
	Target         int64
	HasTarget      bool
	Currency       string
	Period         string // Daily | Weekly | Monthly
	Mode           string // CreditTransferMode
	FirstExecution time.Time
	LastExecution  time.Time // zero: none
	NextExecution  time.Time // zero: none planned
	Beneficiary    string    // the creditor's name
	IBAN           string    // the creditor's IBAN
	Status         string
	Consent        Consent // what a ConsentPending order waits for
	CanceledAt     time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
	CreatedBy      string      // user id
	Executions     []Execution // oldest first; the last may be planned
	// RedirectURL is where the consent page sends the user back.
	RedirectURL string
	seed        bool
}

// Execution is one execution of a standing order: the payment of one
// transfer.
type Execution struct {
	PaymentID     string
	TransactionID string
	CreatedAt     time.Time
}

// orderPosBits sizes a seeded order's position: the account, then its
// rank among the account's seeded orders.
const orderPosBits = 3

// maxSeededOrders bounds an account's seeded orders.
const maxSeededOrders = 1 << orderPosBits

// MaxStandingOrders bounds the orders scheduled in one environment.
const MaxStandingOrders = 10_000

// orders is what happened to standing orders at run time (under
// Store.mu): those scheduled, and seeded ones changed.
type orders struct {
	added     map[int32][]*StandingOrder // per account, oldest first
	byID      map[string]*StandingOrder  // every order scheduled or changed
	byConsent map[string]*StandingOrder
	n         int
}

// orderTemplates are the seeded orders that have not started: what a
// holder schedules, by who holds the account.
var orderTemplates = map[string][]struct {
	label, beneficiary, period string
	lo, hi                     int64
}{
	"Individual": {
		{"Rent", "Loyer Agence Foncia", "Monthly", 55_000, 140_000},
		{"Savings", "", "Monthly", 5_000, 40_000},
		{"Home insurance", "AXA Assurances", "Monthly", 1_500, 6_000},
		{"Pocket money", "", "Weekly", 1_000, 3_000},
		{"Electricity", "EDF", "Monthly", 4_000, 15_000},
	},
	"Company": {
		{"Office rent", "Loyer Agence Foncia", "Monthly", 120_000, 450_000},
		{"Insurance", "Allianz", "Monthly", 8_000, 30_000},
		{"Treasury sweep", "", "Weekly", 50_000, 200_000},
		{"Fleet leasing", "Deutsche Bahn", "Monthly", 30_000, 90_000},
	},
}

// seededOrders are an account's orders from the seed, oldest first.
func (s *Store) seededOrders(a *Account) []StandingOrder {
	if a.PaymentLevel != "Unlimited" {
		return nil
	}
	legal := s.LegalRepresentative(a).UserID
	out := append(s.linkedOrders(a, legal), s.unstartedOrders(a, legal)...)
	slices.SortStableFunc(out, func(x, y StandingOrder) int { return x.CreatedAt.Compare(y.CreatedAt) })
	for i := range out {
		o := &out[i]
		o.ID = s.entityID(kindStandingOrder, uint64(a.idx)<<orderPosBits|uint64(i))
		if a.Status == "Closing" || a.Status == "Closed" {
			// Closing an account cancels its standing orders.
			if o.Status != OrderCanceled {
				at := laterOf(a.StatusChangedAt, o.CreatedAt)
				o.Status, o.CanceledAt, o.UpdatedAt, o.NextExecution = OrderCanceled, at, at, time.Time{}
			}
		}
		if o.Status == OrderConsentPending {
			pos := uint64(a.idx)<<orderPosBits | uint64(i)
			o.Consent = s.consentWith(s.entityID(kindOrderConsent, pos), a, 1<<16|pos, PurposeScheduleStandingOrder, o.CreatedAt)
		}
		for j := range o.Executions {
			o.Executions[j].PaymentID = s.entityID(kindOrderPayment, uint64(a.idx)<<orderPosBits|uint64(i))
		}
	}
	return out
}

// linkedOrders are the orders of an Opened account's transfers scheduled
// for later, oldest first: each transfer is its order's next execution.
// The generated status decides, before any change.
func (s *Store) linkedOrders(a *Account, legal string) []StandingOrder {
	var out []StandingOrder
	for k := int(a.sched.count) - 1; k >= 0 && len(out) < maxSeededOrders/2 && a.Status == "Opened"; k-- {
		slot := slotOf(a.sched.round(k), s.position(a.idx, a.sched.round(k)))
		if s.epoch.Sub(s.slotTime(slot)) > upcomingWindow {
			break
		}
		var d Transaction
		s.describeInto(&d, a, k, slot)
		if d.Status != StatusUpcoming || d.Type != "SepaCreditTransferOut" {
			continue
		}
		t := s.transactionAt(a, k)
		out = append(out, StandingOrder{AccountIndex: a.idx, Label: t.Counterparty, Reference: t.Reference, Amount: t.Amount, Currency: a.Currency,
			Period: "Monthly", Mode: "Regular", FirstExecution: t.ExecutionDate, NextExecution: t.ExecutionDate,
			Beneficiary: t.Counterparty, IBAN: t.CounterpartyIBAN, Status: OrderEnabled, CreatedAt: t.CreatedAt, UpdatedAt: t.CreatedAt,
			CreatedBy: legal, Executions: []Execution{{TransactionID: t.ID, CreatedAt: t.CreatedAt}}, seed: true})
	}
	slices.Reverse(out)
	return out
}

// unstartedOrders are the seed's orders without an execution: scheduled
// lately to start after the history ends, waiting for their consent, or
// canceled before they started.
func (s *Store) unstartedOrders(a *Account, legal string) []StandingOrder {
	h := newHrand(a.txSeed, 0x736f7264)
	n := h.index(45, 35, 20)
	if a.Status != "Opened" && a.Status != "Suspended" {
		n = h.index(50, 50)
	}
	tmpl := orderTemplates[a.HolderType]
	out := make([]StandingOrder, 0, n)
	for range n {
		t := tmpl[h.intn(len(tmpl))]
		o := StandingOrder{AccountIndex: a.idx, Label: t.label, Amount: h.between(t.lo, t.hi) / 100 * 100, Currency: a.Currency,
			Period: t.period, Mode: "Regular", Beneficiary: t.beneficiary, CreatedBy: legal, seed: true}
		o.IBAN = counterpartyIBANs[h.intn(len(counterpartyIBANs))]
		if o.Beneficiary == "" {
			o.Beneficiary = a.HolderName // to the holder's own account elsewhere
		}
		o.Reference = fmt.Sprintf("SO%011d", h.next()%1e11)
		ahead := func() time.Time { return s.epoch.Truncate(day).Add(time.Duration(h.between(21, 45))*day + 8*time.Hour) }
		switch h.index(70, 20, 10) {
		case 0:
			o.Status = OrderEnabled
			o.CreatedAt = s.epoch.Add(-time.Duration(h.between(1, 14)) * day)
			o.FirstExecution = ahead()
			o.NextExecution = o.FirstExecution
		case 1:
			o.Status = OrderCanceled
			o.CreatedAt = s.epoch.Add(-time.Duration(h.between(40, 400)) * day)
			o.FirstExecution = o.CreatedAt.Truncate(day).Add(time.Duration(h.between(20, 35))*day + 8*time.Hour)
			o.CanceledAt = o.CreatedAt.Add(time.Duration(h.between(1, 19)) * day)
		default:
			o.Status = OrderConsentPending
			o.CreatedAt = s.epoch.Add(-time.Duration(h.between(1, 6)) * day)
			o.FirstExecution = ahead()
		}
		// An account younger than the order's story starts with it.
		o.CreatedAt = laterOf(o.CreatedAt.Add(time.Duration(h.between(0, 86_399))*time.Second).Truncate(time.Millisecond), a.CreatedAt)
		o.UpdatedAt = o.CreatedAt
		if o.Status == OrderCanceled {
			o.UpdatedAt = laterOf(o.CanceledAt, o.CreatedAt)
			o.CanceledAt = o.UpdatedAt
		}
		if h.intn(3) == 0 {
			o.LastExecution = o.FirstExecution.AddDate(1, 0, 0)
		}
		out = append(out, o)
	}
	return out
}

// accountOrders are an account's standing orders as they are now, newest
// first.
func (s *Store) accountOrders(a *Account) []StandingOrder {
	seeded := s.seededOrders(a)
	s.mu.RLock()
	defer s.mu.RUnlock()
	all := make([]StandingOrder, 0, len(seeded)+len(s.orders.added[a.idx]))
	for _, o := range seeded {
		if c, ok := s.orders.byID[o.ID]; ok {
			o = c.clone()
		}
		all = append(all, o)
	}
	for _, o := range s.orders.added[a.idx] {
		all = append(all, o.clone())
	}
	// Oldest first, those created at one instant in creation order; then
	// the other way round.
	slices.SortStableFunc(all, func(x, y StandingOrder) int { return x.CreatedAt.Compare(y.CreatedAt) })
	slices.Reverse(all)
	return all
}

func (o *StandingOrder) clone() StandingOrder {
	c := *o
	c.Executions = slices.Clone(o.Executions)
	return c
}

// StandingOrderQuery is one page request of an account's orders.
type StandingOrderQuery struct {
	First    int
	After    string
	Offset   int
	Statuses []string // empty: any
	OrderBy  string   // createdAt (default) | updatedAt
	Asc      bool     // default is newest first
}

// StandingOrderCursor is the opaque cursor of a standing order.
func StandingOrderCursor(o *StandingOrder) string { return encodeCursor("standingOrder", o.ID) }

// StandingOrders pages an account's standing orders.
func (s *Store) StandingOrders(a *Account, q StandingOrderQuery) (Page[StandingOrder], error) {
	var list []StandingOrder
	for _, o := range s.accountOrders(a) {
		if len(q.Statuses) == 0 || slices.Contains(q.Statuses, o.Status) {
			list = append(list, o)
		}
	}
	key := func(o StandingOrder) time.Time { return o.CreatedAt }
	if q.OrderBy == "updatedAt" {
		key = func(o StandingOrder) time.Time { return o.UpdatedAt }
	}
	slices.SortStableFunc(list, func(x, y StandingOrder) int {
		if q.Asc {
			return key(x).Compare(key(y))
		}
		return key(y).Compare(key(x))
	})
	return PageList(list, q.First, q.After, q.Offset, "standingOrder", func(o StandingOrder) string { return o.ID })
}

// StandingOrder returns the order with this id, if the viewer sees its
// account.
func (s *Store) StandingOrder(v Viewer, id string) (StandingOrder, bool) {
	idx := int32(-1)
	if pos, ok := s.decodeEntityID(kindStandingOrder, id); ok {
		idx = int32(pos >> orderPosBits)
	} else {
		s.mu.RLock()
		if o, ok := s.orders.byID[id]; ok {
			idx = o.AccountIndex
		}
		s.mu.RUnlock()
	}
	if idx < 0 || int(idx) >= len(s.accounts) || !s.canSee(v, idx) {
		return StandingOrder{}, false
	}
	for _, o := range s.accountOrders(&s.accounts[idx]) {
		if o.ID == id {
			return o, true
		}
	}
	return StandingOrder{}, false
}

// NewStandingOrder is what scheduleStandingOrder asks for.
type NewStandingOrder struct {
	AccountID                      string
	Label, Reference, Period, Mode string
	Amount                         int64
	Target                         int64
	HasTarget                      bool
	Currency                       string
	First, Last                    time.Time // zero: the next day, none
	Beneficiary, IBAN              string
	// ConsentURL is the consent page; RedirectURL where it sends the user
	// back.
	ConsentURL, RedirectURL string
}

// OrderChange is what a change of standing order did: the order, and the
// transactions it sent, planned or canceled, for their events.
type OrderChange struct {
	Order StandingOrder
	// Sent is an execution sent at once (its date had come), Upcoming
	// the execution planned (an Upcoming transaction), Canceled the
	// planned one canceled. Empty: none.
	Sent, Upcoming, Canceled string
}

// ScheduleStandingOrder schedules an order on an account the viewer may
// pay from. A user who consents automatically (a Sandbox user) enables it
// at once, its first execution planned; anyone else gets it waiting for
// the consent of who asked: the user, or for a project token the
// account's legal representative, as the platform's server-to-server
// consent acts for them.
func (s *Store) ScheduleStandingOrder(v Viewer, in NewStandingOrder) (OrderChange, error) {
	a, err := s.actingAccount(v, in.AccountID, RightInitiatePayments)
	if err != nil {
		return OrderChange{}, err
	}
	if a.Status != "Opened" {
		return OrderChange{}, fmt.Errorf("the account is %s, and only an Opened account schedules standing orders: %w", a.Status, ErrForbidden)
	}
	if in.Currency == "" {
		in.Currency = a.Currency // no amount: nothing to send
	}
	if in.Currency != a.Currency {
		return OrderChange{}, fmt.Errorf("the account holds %s, not %s: %w", a.Currency, in.Currency, ErrForbidden)
	}
	who, auto := s.consenter(v, a)
	now := s.now().UTC().Truncate(time.Millisecond)
	first := in.First.UTC()
	if first.IsZero() {
		first = now.Truncate(day).Add(day + 8*time.Hour)
	}
	o := &StandingOrder{AccountIndex: a.idx, Label: in.Label, Reference: in.Reference, Amount: in.Amount, Target: in.Target, HasTarget: in.HasTarget,
		Currency: in.Currency, Period: in.Period, Mode: in.Mode, FirstExecution: first, LastExecution: in.Last.UTC(), Beneficiary: in.Beneficiary,
		IBAN: normalizeIBAN(in.IBAN), Status: OrderConsentPending, CreatedAt: now, UpdatedAt: now, CreatedBy: who, RedirectURL: in.RedirectURL}
	s.mu.Lock()
	if s.orders.n >= MaxStandingOrders {
		s.mu.Unlock()
		return OrderChange{}, fmt.Errorf("the emulator holds %d scheduled standing orders, its maximum: restart it to start afresh: %w", MaxStandingOrders, ErrForbidden)
	}
	if s.orders.added == nil {
		s.orders.added, s.orders.byID, s.orders.byConsent = map[int32][]*StandingOrder{}, map[string]*StandingOrder{}, map[string]*StandingOrder{}
	}
	n := s.orders.n
	s.orders.n++
	o.ID = s.runtimeID(0x736f7264, n)
	if !auto {
		id := s.runtimeID(0x736f636e, n)
		o.Consent = Consent{ID: id, Purpose: PurposeScheduleStandingOrder, Status: ConsentCreated, UserID: who, CreatedAt: now, UpdatedAt: now,
			Challenge: fmt.Sprintf("%016x%016x", mix(uint64(n)^uint64(s.seed)^0x736f), mix(uint64(n)+uint64(s.seed))),
			URL:       in.ConsentURL + "?" + url.Values{"consentId": {id}}.Encode()}
		s.orders.byConsent[id] = o
	}
	s.orders.added[a.idx] = append(s.orders.added[a.idx], o)
	s.orders.byID[o.ID] = o
	s.mu.Unlock()
	if !auto {
		return OrderChange{Order: o.clone()}, nil
	}
	return s.enableOrder(o.ID)
}

// enableOrder enables a scheduled order and plans its first execution.
func (s *Store) enableOrder(id string) (OrderChange, error) {
	s.mu.Lock()
	o := s.orders.byID[id]
	o.Status, o.UpdatedAt = OrderEnabled, s.now().UTC().Truncate(time.Millisecond)
	first := o.FirstExecution
	s.mu.Unlock()
	return s.planExecution(id, first)
}

// planExecution plans an enabled order's execution at a date: an Upcoming
// transfer of its amount (a target-balance order's amount is known only
// then, so it has none) and the payment that holds it. A date that came
// already is sent at once (Pending, or Rejected for insufficient funds),
// and the next date ahead is planned.
func (s *Store) planExecution(id string, at time.Time) (OrderChange, error) {
	s.mu.RLock()
	idx := s.orders.byID[id].AccountIndex
	s.mu.RUnlock()
	var change OrderChange
	err := s.stepOn(idx, func(st *step) error {
		o := s.orders.byID[id]
		defer func() { change.Order = o.clone() }()
		o.NextExecution = time.Time{}
		if o.Status != OrderEnabled {
			return nil
		}
		amount := o.Amount
		if o.HasTarget {
			amount = st.bal.available() - o.Target
		}
		if !at.After(st.now) && amount > 0 && o.IBAN != "" {
			t := o.transfer(StatusPending, amount, st.now)
			if t.Amount > st.bal.available() {
				t.Status, t.RejectedReason = StatusRejected, "InsufficientFunds"
			}
			sent, err := st.add(t)
			if err != nil {
				return err
			}
			if err := s.recordExecutionLocked(o, sent, st.now); err != nil {
				return err
			}
			change.Sent = sent.ID
		}
		for !at.After(st.now) {
			at = nextDate(at, o.Period)
		}
		if !o.LastExecution.IsZero() && at.After(o.LastExecution) {
			return nil // the order ran its course
		}
		o.NextExecution = at
		if o.HasTarget || o.Amount == 0 || o.IBAN == "" {
			return nil // its amount comes on the day, or it sends nothing
		}
		t, err := st.add(o.transfer(StatusUpcoming, o.Amount, at))
		if err != nil {
			return err
		}
		change.Upcoming = t.ID
		return s.recordExecutionLocked(o, t, st.now)
	})
	return change, err
}

// transfer is one execution of the order, as a transaction of its account.
func (o *StandingOrder) transfer(status string, amount int64, at time.Time) Transaction {
	typ := "SepaCreditTransferOut"
	if o.Mode == "InstantWithoutFallback" || o.Mode == "InstantWithFallback" {
		typ = "SepaInstantCreditTransferOut"
	}
	label := o.Label
	if label == "" {
		label = "Standing order to " + o.Beneficiary
	}
	return Transaction{Kind: KindSEPACreditTransfer, Product: "SEPACreditTransfer", Type: typ, Side: "Debit", Amount: amount, Currency: o.Currency,
		Label: label, Reference: o.Reference, Counterparty: o.Beneficiary, PaymentMethodIdentifier: o.IBAN, CounterpartyIBAN: o.IBAN,
		Status: status, ExecutionDate: at}
}

// recordExecutionLocked records one execution of the order: its
// transaction, and the payment that holds it, which payment(id) reads
// (under s.mu).
func (s *Store) recordExecutionLocked(o *StandingOrder, t *Transaction, now time.Time) error {
	if len(s.payments) >= MaxPayments {
		return fmt.Errorf("the emulator holds %d payments, its maximum: restart it to start afresh: %w", MaxPayments, ErrForbidden)
	}
	acc := s.accounts[o.AccountIndex].ID
	p := &Payment{ID: s.runtimeID(0x736f7079, len(s.payments)), AccountID: acc, Status: PaymentInitiated,
		Transfers: []OutgoingTransfer{{AccountID: acc, CreditorIBAN: o.IBAN, CreditorName: o.Beneficiary, Amount: t.Amount,
			Currency: t.Currency, Label: t.Label, Reference: t.Reference}},
		TransactionIDs: []string{t.ID}, CreatedAt: now, UpdatedAt: now, StandingOrderID: o.ID}
	s.payments[p.ID] = p
	t.PaymentID = p.ID
	o.Executions = append(o.Executions, Execution{PaymentID: p.ID, TransactionID: t.ID, CreatedAt: now})
	return nil
}

// ExecuteStandingOrder sends a scheduled order's execution whose date
// came: its Upcoming transfer is Booked (Rejected for insufficient
// funds), or a target-balance order sends what is above its target; then
// the next execution is planned. It returns the transfer sent (no id when
// there was nothing to send) and what was planned. An order canceled
// meanwhile is left alone (ErrWrongState).
func (s *Store) ExecuteStandingOrder(id string) (Transaction, OrderChange, error) {
	s.mu.RLock()
	o, ok := s.orders.byID[id]
	var cur StandingOrder
	if ok {
		cur = o.clone()
	}
	s.mu.RUnlock()
	if !ok || cur.Status != OrderEnabled || cur.NextExecution.IsZero() {
		return Transaction{}, OrderChange{}, fmt.Errorf("standing order %s has no execution planned: %w", id, ErrWrongState)
	}
	at := cur.NextExecution
	var sent Transaction
	var err error
	if !cur.HasTarget {
		sent, err = s.change(Viewer{Project: true}, cur.lastTransaction(), StatusUpcoming, func(st *step, t *Transaction) {
			if t.Amount > st.bal.available() {
				st.settle(t, StatusRejected, "InsufficientFunds")
			} else {
				st.book(t)
			}
		}, "SepaCreditTransferOut", "SepaInstantCreditTransferOut")
	} else {
		sent, err = s.added(cur.AccountIndex, func(st *step) (*Transaction, error) {
			o := s.orders.byID[id]
			if o.Status != OrderEnabled {
				return nil, fmt.Errorf("standing order %s is %s: %w", id, o.Status, ErrWrongState)
			}
			amount := st.bal.available() - o.Target
			if amount <= 0 || o.IBAN == "" {
				return &Transaction{}, nil // nothing above the target
			}
			t, err := st.add(o.transfer(StatusBooked, amount, at))
			if err != nil {
				return nil, err
			}
			return t, s.recordExecutionLocked(o, t, st.now)
		})
	}
	if err != nil {
		return Transaction{}, OrderChange{}, err
	}
	next, err := s.planExecution(id, nextDate(at, cur.Period))
	return sent, next, err
}

// nextDate is the execution after one at at, by period.
func nextDate(at time.Time, period string) time.Time {
	switch period {
	case "Daily":
		return at.AddDate(0, 0, 1)
	case "Weekly":
		return at.AddDate(0, 0, 7)
	}
	return at.AddDate(0, 1, 0)
}

// CancelStandingOrder cancels an order: no execution follows, and the one
// planned (an Upcoming transfer) is canceled with it. Executions already
// sent stay. A canceled order stays as it is.
func (s *Store) CancelStandingOrder(v Viewer, id string) (OrderChange, error) {
	o, ok := s.StandingOrder(v, id)
	if !ok {
		return OrderChange{}, fmt.Errorf("standing order %s: %w", id, ErrNotFound)
	}
	a := &s.accounts[o.AccountIndex]
	if _, err := s.actingAccount(v, a.ID, RightInitiatePayments); err != nil {
		return OrderChange{}, err
	}
	if o.Status == OrderCanceled {
		return OrderChange{Order: o}, nil
	}
	var change OrderChange
	err := s.stepOn(a.idx, func(st *step) error {
		cur := s.ordersByIDLocked(o)
		if cur.Status == OrderCanceled {
			change.Order = cur.clone()
			return nil
		}
		cur.Status, cur.CanceledAt, cur.UpdatedAt = OrderCanceled, st.now, st.now
		if cur.Consent.ID != "" && (cur.Consent.Status == ConsentCreated || cur.Consent.Status == ConsentStarted) {
			cur.Consent.Status, cur.Consent.UpdatedAt = "Canceled", st.now
		}
		if !cur.NextExecution.IsZero() {
			change.Canceled = cur.lastTransaction()
		}
		cur.NextExecution = time.Time{}
		change.Order = cur.clone()
		return nil
	})
	if err != nil || change.Canceled == "" {
		change.Canceled = ""
		return change, err
	}
	// The planned execution: an Upcoming transfer, seeded or scheduled.
	if _, err := s.change(Viewer{Project: true}, change.Canceled, StatusUpcoming, func(st *step, t *Transaction) { st.settle(t, StatusCanceled, "") },
		"SepaCreditTransferOut", "SepaInstantCreditTransferOut"); err != nil {
		change.Canceled = ""
	}
	return change, nil
}

// ordersByIDLocked is the run-time record of an order, made for a seeded
// one on its first change (under s.mu).
func (s *Store) ordersByIDLocked(o StandingOrder) *StandingOrder {
	if s.orders.byID == nil {
		s.orders.added, s.orders.byID, s.orders.byConsent = map[int32][]*StandingOrder{}, map[string]*StandingOrder{}, map[string]*StandingOrder{}
	}
	if cur, ok := s.orders.byID[o.ID]; ok {
		return cur
	}
	c := o.clone()
	s.orders.byID[o.ID] = &c
	return &c
}

// lastTransaction is the transaction of the order's last execution, "" for
// none.
func (o *StandingOrder) lastTransaction() string {
	if len(o.Executions) == 0 {
		return ""
	}
	return o.Executions[len(o.Executions)-1].TransactionID
}

// OrderOfConsent returns the scheduled order a consent is for.
func (s *Store) OrderOfConsent(consentID string) (StandingOrder, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o, ok := s.orders.byConsent[consentID]
	if !ok {
		return StandingOrder{}, false
	}
	return o.clone(), true
}

// AnswerOrderConsent records the user's answer to a pending order's
// consent: accepted, the order is enabled and its first execution
// planned; refused, it is canceled.
func (s *Store) AnswerOrderConsent(consentID string, accept bool) (OrderChange, error) {
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	o, ok := s.orders.byConsent[consentID]
	switch {
	case !ok:
		s.mu.Unlock()
		return OrderChange{}, fmt.Errorf("consent %s: %w", consentID, ErrNotFound)
	case o.Status != OrderConsentPending || (o.Consent.Status != ConsentCreated && o.Consent.Status != ConsentStarted):
		s.mu.Unlock()
		return OrderChange{}, fmt.Errorf("consent %s is already %s: %w", consentID, o.Consent.Status, ErrWrongState)
	}
	o.Consent.UpdatedAt, o.UpdatedAt = now, now
	if !accept {
		o.Consent.Status, o.Consent.RefusedAt = ConsentRefused, now
		o.Status, o.CanceledAt = OrderCanceled, now
		c := OrderChange{Order: o.clone()}
		s.mu.Unlock()
		return c, nil
	}
	o.Consent.Status, o.Consent.AcceptedAt = ConsentAccepted, now
	id := o.ID
	s.mu.Unlock()
	return s.enableOrder(id)
}

// seededOrderPayment is the payment of a seeded order's execution, read
// by its id.
func (s *Store) seededOrderPayment(id string) (Payment, bool) {
	pos, ok := s.decodeEntityID(kindOrderPayment, id)
	if !ok || pos>>orderPosBits >= uint64(len(s.accounts)) {
		return Payment{}, false
	}
	a := &s.accounts[pos>>orderPosBits]
	orders := s.seededOrders(a)
	i := int(pos & (maxSeededOrders - 1))
	if i >= len(orders) || len(orders[i].Executions) == 0 {
		return Payment{}, false
	}
	o, x := orders[i], orders[i].Executions[0]
	return Payment{ID: id, AccountID: a.ID, Status: PaymentInitiated, TransactionIDs: []string{x.TransactionID},
		Transfers: []OutgoingTransfer{{AccountID: a.ID, CreditorIBAN: o.IBAN, CreditorName: o.Beneficiary, Amount: o.Amount, Currency: o.Currency, Label: o.Label, Reference: o.Reference}},
		CreatedAt: x.CreatedAt, UpdatedAt: x.CreatedAt, StandingOrderID: o.ID}, true
}

// PaymentIDOf is the payment a transaction belongs to: a simulated one
// knows it; a generated transfer scheduled for later is a seeded order's
// execution.
func (s *Store) PaymentIDOf(t Transaction) string {
	if t.PaymentID != "" || t.slot == 0 || t.Type != "SepaCreditTransferOut" || s.epoch.Sub(t.CreatedAt) > upcomingWindow {
		return t.PaymentID
	}
	for _, o := range s.seededOrders(&s.accounts[t.AccountIndex]) {
		for _, x := range o.Executions {
			if x.TransactionID == t.ID {
				return x.PaymentID
			}
		}
	}
	return ""
}
