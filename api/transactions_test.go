package api

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeTransactions are one transaction per concrete type and status type,
// as the platform renders them.
func fakeTransactions() []map[string]any {
	base := func(typename, id, side, typ, product string, status map[string]any) map[string]any {
		return map[string]any{
			"__typename": typename, "id": id, "reference": "ref-" + id, "externalReference": nil, "side": side, "type": typ,
			"amount": amountJSON("12.50"), "label": "Label " + id, "counterparty": "ACME", "paymentProduct": product,
			"statusInfo": status, "executionDate": "2025-03-01T10:00:00Z", "createdAt": "2025-03-01T09:00:00Z",
			"updatedAt": "2025-03-02T09:00:00Z", "account": map[string]any{"id": "acc-1", "name": "Main"},
		}
	}
	sepa := func(name string, iban any) map[string]any {
		return map[string]any{"name": name, "maskedIBAN": "FR76 **** 0189", "IBAN": iban, "BIC": "SWNBFR22"}
	}
	sctIn := base("SEPACreditTransferTransaction", "tx-sct", "Credit", "SepaCreditTransferIn", "SEPACreditTransfer",
		map[string]any{"status": "Booked", "bookingDate": "2025-03-01T11:00:00Z", "valueDate": "2025-03-01T00:00:00Z",
			"balanceAfter": map[string]any{"amount": amountJSON("100.00")}})
	sctIn["creditor"] = sepa("Me", "FR7630006000011234567890189")
	sctIn["debtor"] = sepa("ACME", "DE89370400440532013000")
	sctIn["externalReference"] = "E2E-1"
	sdd := base("SEPADirectDebitTransaction", "tx-sdd", "Debit", "SepaDirectDebitOut", "SEPADirectDebit",
		map[string]any{"status": "Rejected", "rejectedReason": "InsufficientFunds", "hasFallback": false})
	sdd["directDebitCreditor"] = sepa("Utility", "FR1420041010050500013M02606")
	sdd["directDebitDebtor"] = sepa("Me", nil)
	ict := base("InternalCreditTransfer", "tx-ict", "Debit", "InternalCreditTransferOut", "SEPACreditTransfer",
		map[string]any{"status": "Pending", "pendingEndDate": nil})
	ict["internalCreditor"] = map[string]any{"name": "Sister account", "accountNumber": "12345678901"}
	ict["internalDebtor"] = map[string]any{"name": "Me", "accountNumber": "10987654321"}
	fee := base("FeeTransaction", "tx-fee", "Debit", "FeesOut", "Fees",
		map[string]any{"status": "Upcoming", "executionDate": "2025-04-01T00:00:00Z"})
	fee["feesType"] = "BankingFee"
	card := base("CardTransaction", "tx-card", "Debit", "CardOutDebit", "Card",
		map[string]any{"status": "Released", "releaseDate": "2025-03-05T00:00:00Z", "releasedReason": "Expired"})
	online := base("OnlineCardTransaction", "tx-online", "Debit", "CardOutAuthorization", "OnlineCard",
		map[string]any{"status": "Canceled", "canceledDate": "2025-03-06T00:00:00Z"})
	inPerson := base("InPersonCardTransaction", "tx-inperson", "Debit", "CardOutDebit", "InPersonCard",
		map[string]any{"status": "Deferred", "deferredEndDate": "2025-05-01T00:00:00Z"})
	check := base("CheckTransaction", "tx-check", "Credit", "CheckIn", "Check",
		map[string]any{"status": "Settled", "settlementTransactionId": "tx-settle", "settledAt": "2025-03-07"})
	return []map[string]any{sctIn, sdd, ict, fee, card, online, inPerson, check}
}

func TestTransactionListDecodesEveryConcreteAndStatusType(t *testing.T) {
	t.Parallel()
	txs := fakeTransactions()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpProjectTransactions: func(q gqlRequest) any {
			return map[string]any{"transactions": connection(0, len(txs), len(txs), func(i int) any { return txs[i] })}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	page, err := c.TransactionList(context.Background(), TransactionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if q := srv.last(); q.Variables["filters"] != nil || q.Variables["orderBy"] != nil || q.Variables["accountId"] != nil {
		t.Errorf("unfiltered request sent %v", q.Variables)
	}
	got := map[string]TransactionDetail{}
	for _, tx := range page.Items {
		got[tx.ID] = tx
	}
	day := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }

	sct := got["tx-sct"]
	if sct.Typename != "SEPACreditTransferTransaction" || sct.ExternalReference != "E2E-1" || sct.Amount.Value != "12.50" ||
		sct.PaymentProduct != "SEPACreditTransfer" || sct.Account == nil || sct.Account.Name != "Main" || sct.CreatedAt.IsZero() {
		t.Errorf("SCT = %+v", sct)
	}
	if s := sct.StatusInfo; s.Status != "Booked" || !s.BookingDate.Equal(day("2025-03-01T11:00:00Z")) || s.ValueDate.IsZero() ||
		s.BalanceAfter == nil || s.BalanceAfter.Amount == nil || s.BalanceAfter.Amount.Value != "100.00" {
		t.Errorf("booked status = %+v", s)
	}
	if cp := sct.CounterpartyParty(); cp == nil || cp.IBAN != "DE89370400440532013000" || cp.Name != "ACME" || cp.BIC != "SWNBFR22" {
		t.Errorf("the counterparty of a credit is its debtor: %+v", cp)
	}

	sdd := got["tx-sdd"]
	if s := sdd.StatusInfo; s.Status != "Rejected" || s.Reason != "InsufficientFunds" || s.HasFallback == nil || *s.HasFallback {
		t.Errorf("rejected status = %+v", s)
	}
	if cp := sdd.CounterpartyParty(); cp == nil || cp.IBAN != "FR1420041010050500013M02606" || sdd.Debtor == nil || sdd.Debtor.IBAN != "" || sdd.Debtor.MaskedIBAN == "" {
		t.Errorf("direct debit parties = %+v / %+v", sdd.Creditor, sdd.Debtor)
	}

	ict := got["tx-ict"]
	if cp := ict.CounterpartyParty(); cp == nil || cp.AccountNumber != "12345678901" || cp.IBAN != "" || ict.StatusInfo.Status != "Pending" || !ict.StatusInfo.PendingEndDate.IsZero() {
		t.Errorf("internal transfer = %+v", ict)
	}
	if fee := got["tx-fee"]; fee.FeesType != "BankingFee" || !fee.StatusInfo.ExecutionDate.Equal(day("2025-04-01T00:00:00Z")) || fee.Creditor != nil {
		t.Errorf("fee = %+v", fee)
	}
	if s := got["tx-card"].StatusInfo; s.Status != "Released" || s.Reason != "Expired" || s.ReleaseDate.IsZero() {
		t.Errorf("released = %+v", s)
	}
	if s := got["tx-online"].StatusInfo; s.Status != "Canceled" || s.CanceledDate.IsZero() {
		t.Errorf("canceled = %+v", s)
	}
	if s := got["tx-inperson"].StatusInfo; s.Status != "Deferred" || s.DeferredEndDate.IsZero() {
		t.Errorf("deferred = %+v", s)
	}
	if s := got["tx-check"].StatusInfo; s.Status != "Settled" || s.SettlementTransactionID != "tx-settle" || s.SettledAt != "2025-03-07" {
		t.Errorf("settled = %+v", s)
	}

	// Only what the concrete type has is written.
	o := jsonObject(t, got["tx-fee"])
	for _, k := range []string{"creditor", "debtor", "externalReference"} {
		if _, ok := o[k]; ok {
			t.Errorf("fee JSON has %s: %v", k, o)
		}
	}
	if si := o["statusInfo"].(map[string]any); len(si) != 2 || si["executionDate"] != "2025-04-01T00:00:00Z" {
		t.Errorf("upcoming statusInfo JSON = %v, want status and executionDate only", si)
	}
	if o["__typename"] != "FeeTransaction" || o["feesType"] != "BankingFee" {
		t.Errorf("fee JSON = %v", o)
	}
}

func TestAccountTransactionListSendsTheSchemasFilters(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpAccountTransactionList: func(q gqlRequest) any {
			switch q.Variables["accountId"] {
			case "missing":
				return map[string]any{"account": nil}
			case "no-transactions":
				return map[string]any{"account": map[string]any{"transactions": nil}}
			}
			tx := fakeTransactions()[0]
			return map[string]any{"account": map[string]any{"transactions": pageOf(t, q, 150, func(i int) any {
				n := map[string]any{}
				for k, v := range tx {
					n[k] = v
				}
				n["id"] = id("tx", i)
				return n
			})}}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	yes := true
	p := TransactionsParams{
		AccountID: "acc-1", First: 100,
		Status: []string{"Booked", "Pending"}, Type: []string{"SepaCreditTransferIn"}, PaymentProduct: []string{"SEPACreditTransfer"},
		Search:               "rent",
		IsAfterExecutionDate: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), IsBeforeExecutionDate: time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC),
		IsAfterUpdatedAt: time.Date(2025, 1, 5, 0, 0, 0, 0, time.FixedZone("CET", 3600)),
		IsAboveAmount:    "10", IsBelowAmount: "-0.50", IncludeRejectedWithFallback: &yes,
		OrderBy: TxOrderExecutionDate, Direction: DirectionDesc,
	}
	var ids []string
	if err := Walk(ctx, Pages(c.TransactionList, p), func(pg *Page[TransactionDetail]) error {
		for _, tx := range pg.Items {
			ids = append(ids, tx.ID)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 150 || ids[0] != "tx-0000" || ids[149] != "tx-0149" || len(srv.requests()) != 2 {
		t.Fatalf("%d transactions in %d requests", len(ids), len(srv.requests()))
	}
	q := srv.last()
	want := `{"includeRejectedWithFallback":true,"isAboveAmount":"10","isAfterExecutionDate":"2025-01-01T00:00:00Z",` +
		`"isAfterUpdatedAt":"2025-01-04T23:00:00Z","isBeforeExecutionDate":"2025-02-01T00:00:00Z","isBelowAmount":"-0.50",` +
		`"paymentProduct":["SEPACreditTransfer"],"search":"rent","status":["Booked","Pending"],"type":["SepaCreditTransferIn"]}`
	if got := varJSON(t, q, "filters"); got != want {
		t.Errorf("filters =\n%s\nwant\n%s", got, want)
	}
	if got := varJSON(t, q, "orderBy"); got != `{"direction":"Desc","field":"executionDate"}` || q.Variables["after"] != "100" {
		t.Errorf("orderBy = %s, after = %v", got, q.Variables["after"])
	}
	if _, err := c.TransactionList(ctx, TransactionsParams{AccountID: "missing"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing account: %v", err)
	}
	if pg, err := c.TransactionList(ctx, TransactionsParams{AccountID: "no-transactions"}); err != nil || len(pg.Items) != 0 || pg.Items == nil {
		t.Errorf("null transactions = %+v, %v; want an empty page", pg, err)
	}
}

func TestTransactionParamsAreCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, nil)
	c, _, _ := newTestClient(t, srv, nil)
	jan, feb := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
	for name, p := range map[string]TransactionsParams{
		"status":          {Status: []string{"booked"}},
		"type":            {Type: []string{"SepaCreditTransfer"}},
		"product":         {PaymentProduct: []string{"SEPA"}},
		"amount":          {IsAboveAmount: "1,50"},
		"order":           {OrderBy: "amount"},
		"empty range":     {IsAfterExecutionDate: feb, IsBeforeExecutionDate: jan},
		"empty update":    {IsAfterUpdatedAt: jan, IsBeforeUpdatedAt: jan},
		"hostile amount ": {Amount: "\x1b]0;x\x07"},
	} {
		_, err := c.TransactionList(context.Background(), p)
		var pe *ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%s: err = %v, want a *ParamError", name, err)
			continue
		}
		if strings.ContainsRune(err.Error(), '\x1b') {
			t.Errorf("%s: the error repeats an escape sequence: %q", name, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid parameters", n)
	}
}

func TestTransactionByID(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpTransaction: func(q gqlRequest) any {
			if q.Variables["id"] != "tx-sdd" {
				t.Errorf("id = %v", q.Variables["id"])
			}
			return map[string]any{"transaction": fakeTransactions()[1]}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	tx, err := c.Transaction(context.Background(), "tx-sdd")
	if err != nil || tx.Typename != "SEPADirectDebitTransaction" || tx.StatusInfo.Reason != "InsufficientFunds" || tx.Creditor == nil {
		t.Errorf("transaction = %+v, %v", tx, err)
	}
}
