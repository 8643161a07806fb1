package emulator

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

const opInitiate = `mutation($input: InitiateCreditTransfersInput!) { initiateCreditTransfers(input: $input) {
  __typename ... on Rejection { message }
  ... on InitiateCreditTransfersSuccessPayload { payment { id statusInfo { status
    ... on PaymentConsentPending { consent { id status purpose consentUrl } } }
    transactions(orderBy: {field: createdAt, direction: Asc}) { edges { node { id statusInfo { status } } } } } } } }`

const opPayment = `query($id: ID!) { payment(id: $id) { id statusInfo { status ... on PaymentRejected { reason } }
  transactions(filters: {status: [Pending, Rejected]}) { totalCount edges { node { id statusInfo { status } } } } } }`

type paymentResult struct {
	Typename string `json:"__typename"`
	Message  string
	Payment  struct {
		ID         string
		StatusInfo struct {
			Status  string
			Reason  string
			Consent struct{ ID, Status, Purpose, ConsentURL string }
		}
		Transactions struct {
			TotalCount int
			Edges      []struct {
				Node struct {
					ID         string
					StatusInfo struct{ Status string }
				}
			}
		}
	}
}

// txIDs are the ids of the payment's transactions, in order.
func (p paymentResult) txIDs() []string {
	var ids []string
	for _, e := range p.Payment.Transactions.Edges {
		ids = append(ids, e.Node.ID)
	}
	return ids
}

// initiate asks for a payment of transfers of these amounts from the
// account, with the token of a user.
func (e *simEnv) initiate(token, accountID string, amounts ...string) paymentResult {
	e.t.Helper()
	var transfers []map[string]any
	for _, a := range amounts {
		transfers = append(transfers, map[string]any{"amount": eur(a), "label": "Invoice 42",
			"sepaBeneficiary": map[string]any{"iban": "FR2730003000706315734174B93", "name": "Acme SAS"}})
	}
	var out struct {
		P paymentResult `json:"initiateCreditTransfers"`
	}
	e.mustData(pathSandbox, token, opInitiate, map[string]any{"input": map[string]any{"accountId": accountID,
		"consentRedirectUrl": "https://partner.example/after-consent", "creditTransfers": transfers}}, &out)
	return out.P
}

// userAccount is an open EUR account of the first demo user.
func (e *simEnv) userAccount() *data.Account { return e.transferTarget() }

func TestInitiateCreditTransfersWithAutomaticConsent(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.userAccount()
	before := e.balances(acc.ID)
	p := e.initiate(tokSandboxUser0, acc.ID, "12.00", "8.00")
	// A demo user consents automatically: the payment is sent at once.
	if p.Typename != "InitiateCreditTransfersSuccessPayload" || p.Payment.StatusInfo.Status != "Initiated" || len(p.txIDs()) != 2 {
		t.Fatalf("payment: %+v", p)
	}
	ids := p.txIDs()
	before = e.moved(acc.ID, before, -2000, 0, -2000, 0)
	e.expectEvents(ev("Transaction.Pending", ids[0]), ev("Transaction.Pending", ids[1]))

	// Then the Testing API books one and rejects the other.
	e.mustSim(bookField, bookInput, bookOK, map[string]any{"transactionId": ids[0]})
	e.mustSim(rejectField, rejectInput, rejectOK, map[string]any{"transactionId": ids[1], "reasonCode": "AccountClosed"})
	e.moved(acc.ID, before, 800, -1200, 2000, 0)
	e.expectEvents(ev("Transaction.Booked", ids[0]), ev("Account.Updated", acc.ID), ev("Transaction.Rejected", ids[1]))
	if s0, s1 := e.transactionStatus(ids[0]), e.transactionStatus(ids[1]); s0 != "Booked" || s1 != "Rejected AccountClosed" {
		t.Fatalf("transfers %s and %s, want Booked and Rejected AccountClosed", s0, s1)
	}
}

// disableAutoConsent makes the first demo user consent by hand.
func (e *simEnv) disableAutoConsent() {
	e.t.Helper()
	u := e.sandbox.DemoUsers()[0]
	r := e.updateUser(tokSandboxUser0, map[string]any{"id": u.ID, "firstName": u.FirstName, "lastName": u.LastName,
		"birthDate": u.BirthDate, "nationalityCCA3": u.Nationality, "autoConsent": false})
	if r.Typename != "UpdateSandboxUserSuccessPayload" || r.SandboxUser.AutoConsent {
		e.t.Fatalf("update: %+v", r)
	}
}

func TestInitiateCreditTransfersWaitsForConsent(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.userAccount()
	e.disableAutoConsent()
	before := e.balances(acc.ID)
	p := e.initiate(tokSandboxUser0, acc.ID, "30.00")
	c := p.Payment.StatusInfo.Consent
	if p.Payment.StatusInfo.Status != "ConsentPending" || c.Status != "Created" || c.Purpose != "InitPayment" || len(p.txIDs()) != 0 {
		t.Fatalf("payment: %+v", p)
	}
	// Nothing is sent before the consent.
	e.moved(acc.ID, before, 0, 0, 0, 0)
	u0 := e.sandbox.DemoUsers()[0].ID
	e.expectEvents(ev("User.Updated", u0), ev("Consent.Created", c.ID))

	// The consent URL is the emulator's page, which shows the payment.
	if !strings.HasPrefix(c.ConsentURL, e.srv.URL+"/sandbox-consent?") {
		t.Fatalf("consent URL %s is not the emulator's page", c.ConsentURL)
	}
	resp, err := http.Get(c.ConsentURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "30.00 EUR to Acme SAS") {
		t.Fatalf("consent page %d: %s", resp.StatusCode, page)
	}
	if code, loc := e.answerConsent(c.ID, "accept"); code != http.StatusSeeOther || loc != "https://partner.example/after-consent" {
		t.Fatalf("accept: %d to %q", code, loc)
	}
	got := e.payment(p.Payment.ID)
	if got.Payment.StatusInfo.Status != "Initiated" || got.Payment.Transactions.TotalCount != 1 {
		t.Fatalf("payment after consent: %+v", got)
	}
	tx := got.txIDs()[0]
	e.moved(acc.ID, before, -3000, 0, -3000, 0)
	e.expectEvents(ev("Consent.Granted", c.ID), ev("Transaction.Pending", tx))
	// A consent is answered once.
	if code, _ := e.answerConsent(c.ID, "refuse"); code != http.StatusConflict {
		t.Fatalf("second answer: %d, want 409", code)
	}

	// Refused, a payment sends nothing.
	p2 := e.initiate(tokSandboxUser0, acc.ID, "5.00")
	c2 := p2.Payment.StatusInfo.Consent
	if code, _ := e.answerConsent(c2.ID, "refuse"); code != http.StatusSeeOther {
		t.Fatalf("refuse: %d", code)
	}
	if got := e.payment(p2.Payment.ID); got.Payment.StatusInfo.Status != "Rejected" || got.Payment.StatusInfo.Reason == "" || got.Payment.Transactions.TotalCount != 0 {
		t.Fatalf("refused payment: %+v", got)
	}
	e.expectEvents(ev("Consent.Created", c2.ID), ev("Consent.Refused", c2.ID))
	if code, _ := e.answerConsent("no-such-consent", "accept"); code != http.StatusNotFound {
		t.Fatalf("unknown consent: %d, want 404", code)
	}
}

// answerConsent posts the user's decision on the consent page.
func (e *simEnv) answerConsent(consentID, decision string) (int, string) {
	e.t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(e.srv.URL+"/sandbox-consent", url.Values{"consentId": {consentID}, "decision": {decision}})
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}

func (e *simEnv) payment(id string) paymentResult {
	e.t.Helper()
	var out paymentResult
	e.mustData(pathSandbox, tokSandboxUser0, opPayment, map[string]any{"id": id}, &out)
	return out
}

func TestInitiateCreditTransfersRejections(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.userAccount()
	if p := e.initiate(tokSandboxProject, acc.ID, "1.00"); p.Typename != "ForbiddenRejection" || p.Message == "" {
		t.Fatalf("with a project token: %+v", p)
	}
	if p := e.initiate(tokSandboxUser0, "no-such-account", "1.00"); p.Typename != "AccountNotFoundRejection" {
		t.Fatalf("unknown account: %+v", p)
	}
	// An account of someone else is not found either.
	if p := e.initiate(tokSandboxNobody, acc.ID, "1.00"); p.Typename != "AccountNotFoundRejection" {
		t.Fatalf("another user's account: %+v", p)
	}
	// More than the balance: sent, and rejected for insufficient funds.
	p := e.initiate(tokSandboxUser0, acc.ID, "99999999.00")
	if len(p.txIDs()) != 1 || p.Payment.Transactions.Edges[0].Node.StatusInfo.Status != "Rejected" {
		t.Fatalf("payment beyond the balance: %+v", p)
	}
	e.expectEvents(ev("Transaction.Rejected", p.txIDs()[0]))
	if s := e.transactionStatus(p.txIDs()[0]); s != "Rejected InsufficientFunds" {
		t.Fatalf("transfer %s, want Rejected InsufficientFunds", s)
	}
	bad := e.query(pathSandbox, tokSandboxUser0, opInitiate, map[string]any{"input": map[string]any{"accountId": acc.ID,
		"consentRedirectUrl": "https://partner.example/", "creditTransfers": []map[string]any{{"amount": eur("1.00"),
			"sepaBeneficiary": map[string]any{"iban": "FR00INVALID", "name": "Acme"}}}}})
	if len(bad.Errors) == 0 || !strings.Contains(bad.Errors[0].Message, "IBAN") {
		t.Fatalf("an invalid IBAN: %+v", bad.Errors)
	}
}
