package data

import "strings"

// The tables below are the whole mix of generated transactions: which types
// an account's history draws, how often, and what each moves. A new type
// is a row of types and a weight in a mix; its texts are a case of
// writeTexts and its statuses one of setStatus.

// txType is one TransactionTypeEnum value as the generator makes it.
type txType struct {
	name          string // TransactionTypeEnum
	kind          string // concrete GraphQL type, a Kind constant
	product       string // PaymentProduct
	side          string // Credit | Debit
	authorization string // AuthorizationType of card payments; "" for none
	amount        amountRule
}

// types are the generated transaction types by name.
var types = map[string]txType{
	"SepaCreditTransferIn":         {kind: KindSEPACreditTransfer, product: "SEPACreditTransfer", side: "Credit", amount: amountRule{lo: 20_000, hi: 450_000}},
	"SepaInstantCreditTransferIn":  {kind: KindSEPACreditTransfer, product: "SEPACreditTransfer", side: "Credit", amount: amountRule{lo: 20_000, hi: 450_000}},
	"SepaCreditTransferOut":        {kind: KindSEPACreditTransfer, product: "SEPACreditTransfer", side: "Debit", amount: amountRule{lo: 5, hi: maxDebitShare, share: true}},
	"SepaInstantCreditTransferOut": {kind: KindSEPACreditTransfer, product: "SEPACreditTransfer", side: "Debit", amount: amountRule{lo: 5, hi: maxDebitShare, share: true}},
	"SepaDirectDebitOut":           {kind: KindSEPADirectDebit, product: "SEPADirectDebit", side: "Debit", amount: amountRule{lo: 2_000, hi: 25_000, capped: true}},
	"SepaDirectDebitIn":            {kind: KindSEPADirectDebit, product: "SEPADirectDebit", side: "Credit", amount: amountRule{lo: 5_000, hi: 100_000}},
	"CardOutAuthorization":         {kind: KindCard, product: "Card", side: "Debit", authorization: "Classic", amount: amountRule{lo: 300, hi: 15_000, capped: true}},
	"CardOutCredit":                {kind: KindCard, product: "Card", side: "Credit", amount: amountRule{lo: 500, hi: 8_000}},
	"CardOutDebit":                 {kind: KindCard, product: "Card", side: "Debit", authorization: "Classic", amount: amountRule{lo: 300, hi: 15_000, capped: true}},
	"InternalCreditTransferIn":     {kind: KindInternalCredit, product: "SEPACreditTransfer", side: "Credit", amount: amountRule{lo: 5_000, hi: 200_000}},
	"InternalCreditTransferOut":    {kind: KindInternalCredit, product: "SEPACreditTransfer", side: "Debit", amount: amountRule{lo: 5_000, hi: 200_000, capped: true}},
	"FeesOut":                      {kind: KindFee, product: "Fees", side: "Debit", amount: amountRule{lo: 100, hi: 3_000, capped: true}},
	// CardInCredit is one type of two kinds: the card was online or there.
	"CardInCredit/online":    {kind: KindOnlineCard, product: "OnlineCard", side: "Credit", amount: amountRule{lo: 1_000, hi: 50_000}},
	"CardInCredit/in-person": {kind: KindInPersonCard, product: "InPersonCard", side: "Credit", amount: amountRule{lo: 1_000, hi: 50_000}},
}

// typeNamed is the row of types for key; its name is the part of key
// before a '/', which separates the kinds of one type.
func typeNamed(key string) txType {
	t, ok := types[key]
	if !ok {
		panic("data: no transaction type " + key) // a typo in the tables below
	}
	name, _, _ := strings.Cut(key, "/")
	t.name = name
	return t
}

// band is a share of an account's transactions: a draw u in [0, 100)
// below `below` (and at or above the previous band's) falls in it. One
// type draws nothing more; several draw one of them by weight.
type band struct {
	below   int
	weights []int
	types   []txType
}

// newBand makes a band of alternating weights and keys of types.
func newBand(below int, weighted ...any) band {
	b := band{below: below}
	for i := 0; i < len(weighted); i += 2 {
		b.weights = append(b.weights, weighted[i].(int))
		b.types = append(b.types, typeNamed(weighted[i+1].(string)))
	}
	return b
}

// Mixes of an individual's and a company's account. They differ in the
// top band (individuals receive transfers, companies card settlements)
// and in direct debits (a company also collects them).
var (
	individualMix = []band{
		newBand(8, 1, "FeesOut"),
		newBand(30, 7, "SepaCreditTransferIn", 3, "SepaInstantCreditTransferIn"),
		newBand(45, 6, "SepaCreditTransferOut", 4, "SepaInstantCreditTransferOut"),
		newBand(55, 1, "SepaDirectDebitOut"),
		newBand(85, 12, "CardOutAuthorization", 4, "CardOutCredit", 84, "CardOutDebit"),
		newBand(93, 1, "InternalCreditTransferOut", 1, "InternalCreditTransferIn"),
		newBand(100, 7, "SepaCreditTransferIn", 3, "SepaInstantCreditTransferIn"),
	}
	companyMix = []band{
		newBand(8, 1, "FeesOut"),
		newBand(30, 7, "SepaCreditTransferIn", 3, "SepaInstantCreditTransferIn"),
		newBand(45, 6, "SepaCreditTransferOut", 4, "SepaInstantCreditTransferOut"),
		newBand(55, 1, "SepaDirectDebitIn", 3, "SepaDirectDebitOut"),
		newBand(85, 12, "CardOutAuthorization", 4, "CardOutCredit", 84, "CardOutDebit"),
		newBand(93, 1, "InternalCreditTransferOut", 1, "InternalCreditTransferIn"),
		newBand(100, 1, "CardInCredit/in-person", 1, "CardInCredit/online"),
	}
	// openingType is every account's first transaction: the opening deposit.
	openingType = typeNamed("SepaCreditTransferIn")
)

// drawType draws the type of transaction k of the account from its mix.
func drawType(h *hrand, a *Account, k int) txType {
	mix := individualMix
	if a.HolderType == "Company" {
		mix = companyMix
	}
	u := h.intn(100)
	if k == 0 {
		return openingType
	}
	for i := range mix {
		if b := &mix[i]; u < b.below {
			return b.types[h.index(b.weights...)]
		}
	}
	panic("data: the transaction mix does not cover 100") // the tables above end at 100
}

// maxDebitShare caps a debit at this share (in percent) of the booked
// balance, so generated accounts are never overdrawn.
const maxDebitShare = 40

// amountRule is how a type's amount is drawn, in cents.
type amountRule struct {
	lo, hi int64
	// capped debits take at most maxDebitShare% of the booked balance
	// before them.
	capped bool
	// share: lo..hi is a percentage of the booked balance instead.
	share bool
}

func (r amountRule) draw(h *hrand, booked int64) int64 {
	switch {
	case r.share:
		return max(1, booked*h.between(r.lo, r.hi)/100)
	case r.capped:
		return max(1, min(h.between(r.lo, r.hi), booked*maxDebitShare/100))
	}
	return h.between(r.lo, r.hi)
}

// openingDeposit is the amount of an account's first transaction.
var openingDeposit = amountRule{lo: 100_000, hi: 2_000_000}
