package data

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Transaction is one booked, pending, upcoming or rejected movement.
type Transaction struct {
	ID                      string
	Product                 string // SEPACreditTransfer | Fees
	Type                    string // TransactionTypeEnum value
	Side                    string // Credit | Debit
	Amount                  int64  // cents, positive
	Currency                string
	Label                   string
	Reference               string
	Counterparty            string
	PaymentMethodIdentifier string
	FeesType                string
	Status                  string // Booked | Pending | Upcoming | Rejected
	RejectedReason          string
	ExecutionDate           time.Time
	CreatedAt               time.Time
	UpdatedAt               time.Time
	BalanceAfter            int64 // cents, for Booked
	Sequence                int   // booking order, for Booked
	search                  string
}

// Signed is the amount as it moves the balance.
func (t *Transaction) Signed() int64 {
	if t.Side == "Debit" {
		return -t.Amount
	}
	return t.Amount
}

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

// generateTransactions recreates an account's generated history; it is a
// pure function of the account, so nothing is stored per account.
func (s *Store) generateTransactions(a *Account) []Transaction {
	return s.generate(a, true)
}

// generate draws the history; without full it skips the text fields
// (ids, labels, references), which balances do not need. The random
// draws are the same either way, so amounts never depend on full.
func (s *Store) generate(a *Account, full bool) []Transaction {
	pcg := rand.NewPCG(a.txSeed, uint64(s.seed))
	r := rand.New(pcg)
	n := 20 + r.IntN(25)
	txs := make([]Transaction, 0, n)
	span := epoch.Sub(a.CreatedAt)
	if span < time.Hour {
		span = time.Hour
	}
	var booked int64
	seq := 0
	for j := range n {
		t := Transaction{Currency: a.Currency, Status: "Booked"}
		if idBits := r.Uint64() & 0xffffffffff; full {
			t.ID = "bosci_" + a.ID[:8] + strconv.FormatUint(idBits, 36)
		}
		// Spread executions over the account's life, in order.
		at := a.CreatedAt.Add(span * time.Duration(j+1) / time.Duration(n+1)).Add(time.Duration(r.IntN(3600)) * time.Second).Truncate(time.Millisecond)
		t.ExecutionDate, t.CreatedAt, t.UpdatedAt = at, at.Add(-time.Duration(r.IntN(600))*time.Second), at
		switch {
		case j == 0:
			t.Product, t.Type, t.Side = "SEPACreditTransfer", "SepaCreditTransferIn", "Credit"
			t.Amount = int64(100_000 + r.IntN(1_900_000))
			t.Counterparty = a.HolderName
			t.Label = "Initial deposit"
		case j%9 == 4:
			t.Product, t.Type, t.Side = "Fees", "FeesOut", "Debit"
			t.FeesType = pickWeighted(r, []string{"BankingFee", "IndividualAccountSubscription", "SepaTransfer"}, []int{3, 5, 2})
			if a.HolderType == "Company" && t.FeesType == "IndividualAccountSubscription" {
				t.FeesType = "BusinessAccountSubscription"
			}
			t.Amount = int64(100 + r.IntN(2900))
			t.Counterparty = "Swan"
			if full {
				t.Label = "Fees " + at.Format("January 2006")
			}
		case r.IntN(100) < 45:
			t.Product, t.Side = "SEPACreditTransfer", "Credit"
			t.Type = pickWeighted(r, []string{"SepaCreditTransferIn", "SepaInstantCreditTransferIn"}, []int{7, 3})
			if a.HolderType == "Company" {
				t.Counterparty = customers[r.IntN(len(customers))]
				if n := r.IntN(10000); full {
					t.Label = fmt.Sprintf("Invoice %d-%04d", at.Year(), n)
				}
			} else {
				t.Counterparty = employers[r.IntN(len(employers))]
				if full {
					t.Label = "Salary " + at.Format("January 2006")
				}
			}
			t.Amount = int64(20_000 + r.IntN(400_000))
		default:
			t.Product, t.Side = "SEPACreditTransfer", "Debit"
			t.Type = pickWeighted(r, []string{"SepaCreditTransferOut", "SepaInstantCreditTransferOut"}, []int{6, 4})
			t.Counterparty = payees[r.IntN(len(payees))]
			if full {
				t.Label = t.Counterparty + " " + at.Format("01/2006")
			}
			// Never overdraw: an outgoing transfer takes at most 40% of the balance.
			t.Amount = max(1, int64(r.Float64()*0.4*float64(booked)))
		}
		if ref := r.Int64N(1e13); full {
			t.Reference = fmt.Sprintf("E2E%013d", ref)
		}
		t.PaymentMethodIdentifier = counterpartyIBANs[r.IntN(len(counterpartyIBANs))]
		if t.Product == "Fees" {
			t.PaymentMethodIdentifier = a.IBAN
		}
		// The latest movements may still be in flight or refused.
		switch k := r.IntN(100); {
		case j >= n-3 && t.Side == "Debit" && k < 40:
			t.Status = "Pending"
			t.ExecutionDate = epoch.Add(-time.Duration(1+r.IntN(72)) * time.Hour).Truncate(time.Millisecond)
			t.CreatedAt, t.UpdatedAt = t.ExecutionDate, t.ExecutionDate
		case j >= n-2 && t.Side == "Debit" && k < 60:
			t.Status = "Upcoming"
			t.ExecutionDate = epoch.Add(time.Duration(1+r.IntN(20)) * 24 * time.Hour)
		case j > 0 && k < 3:
			t.Status = "Rejected"
			t.RejectedReason = pickWeighted(r, []string{"InsufficientFunds", "BeneficiaryMissingOrIncorrect", "AccountClosed"}, []int{5, 3, 2})
		}
		if t.Status == "Booked" {
			booked += t.Signed()
			seq++
			t.BalanceAfter, t.Sequence = booked, seq
		}
		if full {
			t.search = strings.ToLower(t.ID + "\x00" + t.Label + "\x00" + t.Counterparty + "\x00" + t.Reference)
		}
		txs = append(txs, t)
	}
	return txs
}

// transactions returns generated plus simulated transactions of an account.
func (s *Store) transactions(a *Account) []Transaction {
	txs := s.generateTransactions(a)
	s.mu.RLock()
	txs = append(txs, s.extraTx[a.idx]...)
	s.mu.RUnlock()
	return txs
}

// Balances derives the balances from the account's history, so they always
// agree with its transactions.
func (s *Store) Balances(a *Account) Balances {
	b := Balances{Currency: a.Currency}
	txs := s.generate(a, false)
	s.mu.RLock()
	txs = append(txs, s.extraTx[a.idx]...)
	s.mu.RUnlock()
	for _, t := range txs {
		switch t.Status {
		case "Booked":
			b.Booked += t.Signed()
		case "Pending":
			b.Pending += t.Signed()
		}
	}
	// Card authorisations hold part of the money on some accounts.
	if a.txSeed%5 == 0 && b.Booked > 0 {
		b.Reserved = int64(a.txSeed>>8) % min(b.Booked/4+1, 15_000)
	}
	b.Available = b.Booked + b.Pending - b.Reserved
	return b
}

// TransactionQuery is one page request of an account's transactions.
type TransactionQuery struct {
	First    int
	After    string
	OrderBy  string // id | createdAt | updatedAt (default) | executionDate
	Asc      bool   // default is descending
	Statuses []string
	Products []string
	Types    []string
	Search   string
}

// TransactionPage is one page of an account's transactions.
type TransactionPage struct {
	TotalCount      int
	Transactions    []Transaction
	HasNextPage     bool
	HasPreviousPage bool
}

// TransactionCursor is the opaque cursor of a transaction.
func TransactionCursor(t *Transaction) string { return encodeCursor("transaction", t.ID) }

// Transactions returns one page of an account's transactions. A history has
// a few dozen entries, so it is filtered and sorted in full.
func (s *Store) Transactions(a *Account, q TransactionQuery) (TransactionPage, error) {
	all := s.transactions(a)
	search := strings.ToLower(strings.TrimSpace(q.Search))
	txs := all[:0]
	for _, t := range all {
		if (len(q.Statuses) == 0 || slices.Contains(q.Statuses, t.Status)) &&
			(len(q.Products) == 0 || slices.Contains(q.Products, t.Product)) &&
			(len(q.Types) == 0 || slices.Contains(q.Types, t.Type)) &&
			(search == "" || strings.Contains(t.search, search)) {
			txs = append(txs, t)
		}
	}
	key := func(t *Transaction) time.Time {
		switch q.OrderBy {
		case "createdAt":
			return t.CreatedAt
		case "executionDate":
			return t.ExecutionDate
		case "id":
			return time.Time{}
		default:
			return t.UpdatedAt
		}
	}
	slices.SortStableFunc(txs, func(x, y Transaction) int {
		c := key(&x).Compare(key(&y))
		if c == 0 {
			c = strings.Compare(x.ID, y.ID)
		}
		if !q.Asc {
			c = -c
		}
		return c
	})
	start := 0
	if q.After != "" {
		id, ok := decodeCursor(q.After, "transaction")
		if !ok {
			return TransactionPage{}, ErrBadCursor
		}
		i := slices.IndexFunc(txs, func(t Transaction) bool { return t.ID == id })
		if i < 0 {
			return TransactionPage{}, ErrBadCursor
		}
		start = i + 1
	}
	end := min(start+q.First, len(txs))
	return TransactionPage{
		TotalCount:      len(txs),
		Transactions:    txs[start:end],
		HasNextPage:     end < len(txs),
		HasPreviousPage: start > 0,
	}, nil
}

// MaxSimulatedPerAccount bounds the transfers simulated on one account, so
// memory stays bounded however long a test script runs.
const MaxSimulatedPerAccount = 10_000

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
func (s *Store) ReceiveTransfer(v Viewer, in IncomingTransfer) (string, error) {
	idx, ok := s.byIBAN[normalizeIBAN(in.CreditorIBAN)]
	if !ok || !s.canSee(v, idx) {
		return "", fmt.Errorf("creditor IBAN %s: %w", in.CreditorIBAN, ErrForbidden)
	}
	a := &s.accounts[idx]
	if in.Currency != a.Currency {
		return "", fmt.Errorf("the account holds %s, not %s: %w", a.Currency, in.Currency, ErrForbidden)
	}
	if a.Status == "Closed" {
		return "", fmt.Errorf("the account is closed: %w", ErrForbidden)
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.extraTx[idx]) >= MaxSimulatedPerAccount {
		return "", fmt.Errorf("the account already received %d simulated transfers, the emulator's maximum: %w", MaxSimulatedPerAccount, ErrForbidden)
	}
	s.txCounter++
	typ := "SepaCreditTransferIn"
	if in.Instant {
		typ = "SepaInstantCreditTransferIn"
	}
	label := in.Label
	if label == "" {
		label = "Transfer from " + in.DebtorName
	}
	ref := in.EndToEndID
	if ref == "" {
		ref = fmt.Sprintf("SIM%013d", s.txCounter)
	}
	t := Transaction{
		ID:                      fmt.Sprintf("bosci_sim%s%06d", a.ID[:8], s.txCounter),
		Product:                 "SEPACreditTransfer",
		Type:                    typ,
		Side:                    "Credit",
		Amount:                  in.Amount,
		Currency:                in.Currency,
		Label:                   label,
		Reference:               ref,
		Counterparty:            in.DebtorName,
		PaymentMethodIdentifier: normalizeIBAN(in.DebtorIBAN),
		Status:                  "Pending",
		ExecutionDate:           now,
		CreatedAt:               now,
		UpdatedAt:               now,
	}
	t.search = strings.ToLower(t.ID + "\x00" + t.Label + "\x00" + t.Counterparty + "\x00" + t.Reference)
	s.extraTx[idx] = append(s.extraTx[idx], t)
	return t.ID, nil
}
