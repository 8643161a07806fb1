package data

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Concrete GraphQL types of the Transaction interface the emulator
// generates.
const (
	KindSEPACreditTransfer = "SEPACreditTransferTransaction"
	KindSEPADirectDebit    = "SEPADirectDebitTransaction"
	KindCard               = "CardTransaction"
	KindOnlineCard         = "OnlineCardTransaction"
	KindInPersonCard       = "InPersonCardTransaction"
	KindInternalCredit     = "InternalCreditTransfer"
	KindFee                = "FeeTransaction"
)

// Transaction statuses (TransactionStatus).
const (
	StatusBooked   = "Booked"
	StatusPending  = "Pending"
	StatusUpcoming = "Upcoming"
	StatusRejected = "Rejected"
	StatusCanceled = "Canceled"
	StatusReleased = "Released"
	StatusDeferred = "Deferred"
	StatusSettled  = "Settled"
)

// Transaction is one movement of an account, generated or simulated.
type Transaction struct {
	ID       string
	Kind     string // concrete GraphQL type, one of the Kind constants
	Product  string // PaymentProduct
	Type     string // TransactionTypeEnum
	Side     string // Credit | Debit
	Amount   int64  // cents, positive
	Currency string

	Label                   string
	Reference               string
	ExternalReference       string
	Counterparty            string
	PaymentMethodIdentifier string

	// The other party: an IBAN and BIC for SEPA, an account number for
	// internal transfers and fees.
	CounterpartyIBAN          string
	CounterpartyBIC           string
	CounterpartyAccountNumber string
	FeesType                  string

	// Card payments.
	CardID            string
	MaskedPAN         string
	Merchant          Merchant
	TerminalID        string
	AuthorizationType string

	Status         string
	RejectedReason string // RejectedReasonCode
	HasFallback    bool
	ReleasedReason string    // ReleasedReason
	StatusDate     time.Time // canceled, released, pending end, deferred end or settled date
	RepaymentCycle string
	SettlementID   string
	// PaymentID is the payment that sent a simulated transfer: a
	// payment's or a standing order's execution.
	PaymentID string

	ExecutionDate time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	BalanceAfter  int64 // cents, for Booked
	Sequence      int   // booking order, for Booked

	AccountIndex int32
	slot         uint64 // generated: round and position
	sim          uint32 // simulated: its sequence number, from 1
	origin       string // simulated: the transaction it debits, reverses or returns
	search       string
}

// Merchant is where a card paid.
type Merchant struct {
	ID, Name, City, Country, PostalCode, CategoryCode string
}

// Signed is the amount as it moves the balance.
func (t *Transaction) Signed() int64 {
	if t.Side == "Debit" {
		return -t.Amount
	}
	return t.Amount
}

// IsCancelable is true for what can still be stopped: scheduled transfers.
func (t *Transaction) IsCancelable() bool { return t.Status == StatusUpcoming }

// affectsBooked is whether the transaction is in the booked balance: only
// a Booked one. A Settled card payment (a deferred debit card's, once its
// repayment cycle ends) was "posted through another booked transaction",
// its settlementTransactionId, as the schema says; the generator books no
// such settlement, so a Settled payment stays out of the booked balance,
// which then adds up from the bookings served, each balanceAfter with it.
func (t *Transaction) affectsBooked() bool { return t.Status == StatusBooked }

// Balances of an account, in cents.
type Balances struct {
	Available, Booked, Pending, Reserved int64
	Currency                             string
}

// FormatCents renders cents as an AmountValue: a dot-separated decimal
// string with two decimals and a leading '-' for negatives.
func FormatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return sign + strconv.FormatInt(c/100, 10) + "." + twoDigits(int(c%100))
}

// ParseAmount parses an AmountValue ("100", "12.5", "0.01") into cents.
func ParseAmount(s string) (int64, error) {
	s = strings.TrimSpace(s)
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") || (hasDot && (frac == "" || len(frac) > 2)) || len(whole) > 12 {
		return 0, fmt.Errorf("amount %q is not a positive decimal with at most two decimals", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("amount %q is not a positive decimal with at most two decimals", s)
	}
	var f int64
	if hasDot {
		if len(frac) == 1 {
			frac += "0"
		}
		if f, err = strconv.ParseInt(frac, 10, 64); err != nil || f < 0 {
			return 0, fmt.Errorf("amount %q is not a positive decimal with at most two decimals", s)
		}
	}
	return w*100 + f, nil
}

const day = 24 * time.Hour

// Windows of recency that decide what may still be in flight.
const (
	pendingWindow  = 3 * day
	upcomingWindow = 10 * day
	deferredWindow = 30 * day
	// collectionWindow: a direct debit the account collects stays Pending
	// until its execution date, which its creditor may set weeks ahead.
	collectionWindow = 30 * day
)

// deferredCards reports whether the account's cards are deferred debit:
// their payments stay Deferred a month, then are Settled.
func deferredCards(a *Account) bool { return a.txSeed%17 == 3 }

// describe derives what transaction k of an account is (kind, type, side,
// status and dates) without amounts or text: filters on these fields test
// a transaction without generating the account's history.
func (s *Store) describe(a *Account, k int, slot uint64) Transaction {
	var t Transaction
	s.describeInto(&t, a, k, slot)
	s.overlay(&t, a.idx, k)
	return t
}

// describeInto is describe writing into t, which must be zero: histories
// fill their slices in place rather than copy large structs around.
// It returns the type's row, which holds its amount rule.
func (s *Store) describeInto(t *Transaction, a *Account, k int, slot uint64) txType {
	h := newHrand(a.txSeed, uint64(k), 0x6b696e64)
	at := s.slotTime(slot)
	t.Currency, t.Status, t.AccountIndex, t.slot = a.Currency, StatusBooked, a.idx, slot
	t.ExecutionDate, t.CreatedAt, t.UpdatedAt = at, at, at
	typ := drawType(&h, a, k)
	t.Kind, t.Product, t.Type, t.Side, t.AuthorizationType = typ.kind, typ.product, typ.name, typ.side, typ.authorization
	setStatus(t, &h, a, s.epoch.Sub(at))
	return typ
}

// setStatus decides whether t is still in flight, was refused or stopped,
// from its type, its age and one draw: the rest stay Booked.
func setStatus(t *Transaction, h *hrand, a *Account, age time.Duration) {
	at := t.CreatedAt
	v := h.intn(1000)
	reject := func(reasons []string, weights []int) {
		t.Status = StatusRejected
		t.RejectedReason = h.weighted(reasons, weights)
	}
	switch t.Type {
	case "SepaCreditTransferOut", "SepaInstantCreditTransferOut":
		switch {
		case age < upcomingWindow && v < 400 && t.Type == "SepaCreditTransferOut":
			// A transfer scheduled for a later date: the morning after
			// the epoch's day at the earliest, so it is still ahead of a
			// clock anywhere in that day (--demo's epoch is the start of
			// the day it runs).
			t.Status = StatusUpcoming
			days := int(age/day) + 1 + h.intn(20)
			earliest := at.Add(age).Truncate(day).Add(day + 8*time.Hour)
			t.ExecutionDate = laterOf(at.Truncate(day).Add(time.Duration(days)*day+8*time.Hour), earliest)
		case v < 430:
			t.Status, t.StatusDate = StatusCanceled, at
		case age < pendingWindow && v < 700:
			t.Status = StatusPending
		case v >= 975:
			reject([]string{"InsufficientFunds", "BeneficiaryMissingOrIncorrect", "AccountClosed", "IbanInvalid"}, []int{5, 3, 1, 1})
		}
	case "SepaDirectDebitOut":
		switch {
		case age < pendingWindow && v < 500:
			t.Status = StatusPending
		case v >= 980:
			reject([]string{"InsufficientFunds", "MandateInvalid", "NoMandate"}, []int{5, 3, 2})
		}
	case "SepaDirectDebitIn":
		// A direct debit the account collects waits for its execution
		// date, as on the platform, until booked
		// (simulateIncomingSepaDirectDebitBooking).
		if age < collectionWindow && v < 600 {
			t.Status = StatusPending
		}
	case "CardOutAuthorization":
		switch {
		case age < pendingWindow:
			t.Status, t.StatusDate = StatusPending, at.Add(7*day)
		case v < 150:
			t.Status, t.StatusDate = StatusCanceled, at
		default:
			t.Status, t.StatusDate = StatusReleased, at
			t.ReleasedReason = h.weighted([]string{"Captured", "Expired", "MerchantReleased", "AdviceReceived"}, []int{6, 2, 1, 1})
		}
	case "CardOutDebit":
		switch {
		case deferredCards(a) && age < deferredWindow:
			t.Status, t.StatusDate = StatusDeferred, at.Truncate(day).Add(deferredWindow)
		case deferredCards(a):
			t.Status, t.StatusDate = StatusSettled, at.Truncate(day).Add(deferredWindow)
		case age < pendingWindow && v < 600:
			t.Status = StatusPending
		case v >= 975:
			reject([]string{"InsufficientFunds", "CardExpired", "DoNotHonor", "PinInvalid", "TransactionAmountLimitExceeded"}, []int{4, 1, 2, 2, 1})
			t.HasFallback = v%2 == 0
		}
	case "InternalCreditTransferOut":
		switch {
		case age < day && v < 300:
			t.Status = StatusPending
		case v >= 985:
			reject([]string{"InsufficientFunds", "AccountClosed"}, []int{4, 1})
		}
	}
}

// generateTransaction completes describe: amounts (a debit never takes
// more than maxDebitShare% of the booked balance before it), and with
// full the texts. Its draws do not depend on full, so a light history has
// the same amounts as a full one.
func (s *Store) generateTransaction(t *Transaction, a *Account, k int, slot uint64, booked int64, cards func() []Card, full bool) {
	typ := s.describeInto(t, a, k, slot)
	h := newHrand(a.txSeed, uint64(k), 0x74657874)
	t.Amount = typ.amount.draw(&h, booked)
	if k == 0 {
		// The opening deposit; the ordinary draw above still happens, so
		// the draws after it are those of any other transfer.
		t.Amount = openingDeposit.draw(&h, booked)
	}
	d := textDraws{
		cp:    h.intn(len(counterpartyIBANs)),
		payee: h.pick(payees), employer: h.pick(employers), customer: h.pick(customers),
		merchant: merchants[h.intn(len(merchants))],
		ref:      h.next() % 1e13,
		card:     h.next(),
		online:   h.intn(3) == 0,
	}
	if !full {
		return
	}
	t.ID = s.transactionID(slot)
	at := t.CreatedAt
	switch t.Status {
	case StatusDeferred:
		// One repayment cycle per account and month of the payment.
		t.RepaymentCycle = s.entityID(kindRepaymentCycle, uint64(a.idx)<<16|uint64(at.Year()%100)<<4|uint64(at.Month()))
	case StatusSettled:
		t.SettlementID = s.transactionID(slot ^ 1<<63)
	}
	t.Reference = "E2E" + zpad(d.ref, 13)
	writeTexts(t, &h, a, k, d, cards)
	t.search = t.searchText()
}

// textDraws are the draws every transaction makes for its texts, whatever
// its kind, so a light history draws exactly what a full one does.
type textDraws struct {
	cp                        int // index into counterpartyIBANs
	payee, employer, customer string
	merchant                  Merchant
	ref                       uint64
	card                      uint64
	online                    bool
}

// writeTexts fills the labels, references and the other party of t from
// its kind.
func writeTexts(t *Transaction, h *hrand, a *Account, k int, d textDraws, cards func() []Card) {
	at := t.CreatedAt
	company := a.HolderType == "Company"
	switch t.Kind {
	case KindSEPACreditTransfer:
		t.CounterpartyIBAN, t.CounterpartyBIC = counterpartyIBANs[d.cp], counterpartyBICs[d.cp]
		t.PaymentMethodIdentifier = t.CounterpartyIBAN
		switch {
		case k == 0:
			t.Counterparty, t.Label = a.HolderName, "Initial deposit"
		case t.Side == "Credit" && company:
			t.Counterparty, t.Label = d.customer, "Invoice "+strconv.Itoa(at.Year())+"-"+zpad(d.ref%10_000, 4)
		case t.Side == "Credit":
			t.Counterparty, t.Label = d.employer, "Salary "+monthYear(at)
		default:
			t.Counterparty, t.Label = d.payee, d.payee+" "+numericMonth(at)
		}
	case KindSEPADirectDebit:
		t.CounterpartyIBAN, t.CounterpartyBIC = counterpartyIBANs[d.cp], counterpartyBICs[d.cp]
		t.PaymentMethodIdentifier = t.CounterpartyIBAN
		t.Reference = "SDD" + zpad(d.ref, 13)
		if t.Side == "Credit" {
			t.Counterparty, t.Label = d.customer, "Direct debit "+d.customer
		} else {
			t.Counterparty, t.Label = d.payee, d.payee+" direct debit "+numericMonth(at)
		}
	case KindCard:
		t.Merchant = d.merchant
		t.Counterparty, t.Label = d.merchant.Name, d.merchant.Name
		t.Reference = zpad(d.ref%1e12, 12)
		if cs := cards(); len(cs) > 0 {
			c := &cs[d.card%uint64(len(cs))]
			t.CardID, t.MaskedPAN = c.ID, c.MaskedNumber
		} else {
			t.MaskedPAN = maskedPAN(a.txSeed)
		}
		t.PaymentMethodIdentifier = t.MaskedPAN
		if !d.online {
			t.TerminalID = "T" + zpad(d.ref%1e7, 7)
		}
	case KindOnlineCard, KindInPersonCard:
		t.Counterparty = "Card payments"
		t.Label = "Card payment " + at.Format("02/01/2006")
		t.MaskedPAN = maskedPAN(d.ref)
		t.PaymentMethodIdentifier = t.MaskedPAN
		if t.Kind == KindInPersonCard {
			t.TerminalID = "T" + zpad(d.ref%1e7, 7)
		}
	case KindInternalCredit:
		t.Counterparty = h.pick(lastNames[a.Country]) + " " + h.pick(companyForms[a.Country])
		t.CounterpartyAccountNumber = zpad(d.ref%1e11, 11)
		t.PaymentMethodIdentifier = t.CounterpartyAccountNumber
		if t.Side == "Credit" {
			t.Label = "Transfer from " + t.Counterparty
		} else {
			t.Label = "Transfer to " + t.Counterparty
		}
	case KindFee:
		t.FeesType = h.weighted([]string{"BankingFee", "IndividualAccountSubscription", "SepaTransfer", "CardTransaction"}, []int{3, 5, 2, 1})
		if company && t.FeesType == "IndividualAccountSubscription" {
			t.FeesType = "BusinessAccountSubscription"
		}
		t.Counterparty = "Swan"
		t.Label = "Fees " + monthYear(at)
		t.Reference = "FEE" + strconv.Itoa(at.Year()) + twoDigits(int(at.Month())) + zpad(d.ref%1e7, 7)
		t.CounterpartyAccountNumber = a.Number
		t.PaymentMethodIdentifier = a.IBAN
	}
}

// searchText is what filters.search matches: id, label, counterparty,
// reference and amount, lower-cased.
func (t *Transaction) searchText() string {
	return strings.ToLower(t.ID + "\x00" + t.Label + "\x00" + t.Counterparty + "\x00" + t.Reference + "\x00" + FormatCents(t.Amount))
}

// zpad writes n in decimal with leading zeros to width digits.
func zpad(n uint64, width int) string {
	var buf [20]byte
	b := strconv.AppendUint(buf[:0], n, 10)
	if len(b) >= width {
		return string(b)
	}
	out := make([]byte, width)
	for i := range width - len(b) {
		out[i] = '0'
	}
	copy(out[width-len(b):], b)
	return string(out)
}

// monthYear is "January 2026"; numericMonth is "01/2026".
func monthYear(t time.Time) string { return t.Month().String() + " " + strconv.Itoa(t.Year()) }
func numericMonth(t time.Time) string {
	return twoDigits(int(t.Month())) + "/" + strconv.Itoa(t.Year())
}

// maskedPAN is a card number showing its first six and last four digits.
func maskedPAN(seed uint64) string {
	return "517943******" + zpad(mix(seed)%10_000, 4)
}

// running is an account's booked balance and booking count so far.
type running struct {
	booked int64
	seq    int
}

// next generates transaction k into t after the ones run has summed:
// debits are capped by the booked balance before them, and booked ones
// get their BalanceAfter and Sequence.
func (s *Store) next(t *Transaction, a *Account, k int, run *running, cards func() []Card, full bool) {
	r := a.sched.round(k)
	s.generateTransaction(t, a, k, slotOf(r, s.position(a.idx, r)), run.booked, cards, full)
	if t.affectsBooked() {
		run.booked += t.Signed()
		if t.Status == StatusBooked {
			run.seq++
			t.BalanceAfter, t.Sequence = run.booked, run.seq
		}
	}
	// After the run: a change laid over it happened after the whole history.
	s.overlay(t, a.idx, k)
}

// history is an account's generated transactions in slot order. Without
// full, texts and ids are left empty (balances do not need them).
func (s *Store) history(a *Account, full bool) []Transaction {
	txs := make([]Transaction, a.sched.count)
	cards := s.lazyCards(a)
	var run running
	for k := range txs {
		s.next(&txs[k], a, k, &run, cards, full)
	}
	return txs
}

// eachLight runs through the account's generated history without texts,
// reusing one transaction: sums need no slice of them.
func (s *Store) eachLight(a *Account, fn func(*Transaction)) {
	var run running
	var t Transaction
	for k := range int(a.sched.count) {
		t = Transaction{}
		s.next(&t, a, k, &run, nil, false)
		fn(&t)
	}
}

// lazyCards builds the account's cards the first time a card payment
// needs them.
func (s *Store) lazyCards(a *Account) func() []Card {
	var cards []Card
	done := false
	return func() []Card {
		if !done {
			cards, done = s.accountCards(a), true
		}
		return cards
	}
}

// transactionAt generates one transaction with its texts: the history
// before it is only summed (light), so one costs far less than a history.
func (s *Store) transactionAt(a *Account, k int) Transaction {
	var run running
	var t Transaction
	cards := s.lazyCards(a)
	for j := 0; j <= k; j++ {
		t = Transaction{}
		s.next(&t, a, j, &run, cards, j == k)
	}
	return t
}

// transactions returns generated plus simulated transactions of an account.
func (s *Store) transactions(a *Account) []Transaction {
	txs := s.history(a, true)
	s.mu.RLock()
	txs = append(txs, s.extraTx[a.idx]...)
	s.mu.RUnlock()
	return txs
}

// Balances derives the balances from the account's history, so they always
// agree with its transactions. Pending card authorisations are reserved;
// other pending movements make the pending balance.
func (s *Store) Balances(a *Account) Balances {
	b, _ := s.generatedState(a)
	s.mu.RLock()
	for i := range s.extraTx[a.idx] {
		b.add(&s.extraTx[a.idx][i])
	}
	s.mu.RUnlock()
	b.Available = b.available()
	return b
}

// TransactionCursor is the opaque cursor of a transaction.
func TransactionCursor(t *Transaction) string { return encodeCursor("transaction", t.ID) }

// MaxSimulatedPerAccount bounds the transactions simulated on one account,
// so memory stays bounded however long a test script runs: as many as the
// busiest account the whole-process export benchmark needs
// (bench_export_test.go), 100 MB of the emulator's memory at most.
const MaxSimulatedPerAccount = 100_000

// IncomingTransfer is a simulated SEPA credit transfer reception.
type IncomingTransfer struct {
	CreditorIBAN string
	CreditorName string
	DebtorIBAN   string
	DebtorName   string
	Amount       int64 // cents
	Currency     string
	Label        string
	EndToEndID   string
	Instant      bool
}

// ReceiveTransfer records an incoming transfer as Pending on an account the
// viewer may see (it counts in the available balance at once); BookTransfer
// books it.
func (s *Store) ReceiveTransfer(v Viewer, in IncomingTransfer) (Transaction, error) {
	idx, ok := s.byIBAN[normalizeIBAN(in.CreditorIBAN)]
	if !ok || !s.canSee(v, idx) {
		return Transaction{}, fmt.Errorf("creditor IBAN %s: %w", in.CreditorIBAN, ErrForbidden)
	}
	a := &s.accounts[idx]
	if in.Currency != a.Currency {
		return Transaction{}, fmt.Errorf("the account holds %s, not %s: %w", a.Currency, in.Currency, ErrForbidden)
	}
	if a.Status == "Closed" {
		return Transaction{}, fmt.Errorf("the account is closed: %w", ErrForbidden)
	}
	typ := "SepaCreditTransferIn"
	if in.Instant {
		typ = "SepaInstantCreditTransferIn"
	}
	label := in.Label
	if label == "" {
		label = "Transfer from " + in.DebtorName
	}
	debtor := normalizeIBAN(in.DebtorIBAN)
	return s.added(idx, func(st *step) (*Transaction, error) {
		return st.add(Transaction{
			Kind:                    KindSEPACreditTransfer,
			Product:                 "SEPACreditTransfer",
			Type:                    typ,
			Side:                    "Credit",
			Amount:                  in.Amount,
			Currency:                in.Currency,
			Label:                   label,
			Reference:               in.EndToEndID,
			Counterparty:            in.DebtorName,
			PaymentMethodIdentifier: debtor,
			CounterpartyIBAN:        debtor,
			Status:                  StatusPending,
		})
	})
}
