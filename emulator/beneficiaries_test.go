package emulator

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Trusted beneficiaries: the seed's agree with the history (the transfers
// sent to each are the account's), one added waits for its consent or not,
// a transfer to it is listed under it, and payee verification answers as
// the platform's Sandbox does.

const benefFields = `__typename id name label type createdAt updatedAt
  statusInfo { __typename status ... on TrustedBeneficiaryConsentPendingStatusInfo { consent { id purpose consentUrl } } ... on TrustedBeneficiaryEnabledStatusInfo { enabledAt } }
  ... on TrustedSepaBeneficiary { iban }
  transactions(first: 20) { totalCount edges { node { id counterparty type ... on SEPACreditTransferTransaction { beneficiary { __typename ... on TrustedSepaBeneficiary { id } } } } } }`

type benef struct {
	Typename   string `json:"__typename"`
	ID, Name   string
	Label      string
	Type, IBAN string
	StatusInfo struct {
		Typename  string `json:"__typename"`
		Status    string
		EnabledAt string
		Consent   struct{ ID, Purpose, ConsentURL string }
	}
	Transactions struct {
		TotalCount int
		Edges      []struct {
			Node struct {
				ID, Counterparty, Type string
				Beneficiary            *struct {
					Typename string `json:"__typename"`
					ID       string
				}
			}
		}
	}
}

func (e *testEnv) beneficiaries(token, accountID string, filters map[string]any) []benef {
	e.t.Helper()
	var out struct {
		Account struct {
			TrustedBeneficiaries struct {
				TotalCount int
				Edges      []struct{ Node benef }
			}
		}
	}
	e.mustData(pathSandbox, token, `query($id: ID!, $f: TrustedBeneficiaryFiltersInput) { account(accountId: $id) {
	  trustedBeneficiaries(first: 100, filters: $f) { totalCount edges { node { `+benefFields+` } } } } }`, map[string]any{"id": accountID, "f": filters}, &out)
	var list []benef
	for _, ed := range out.Account.TrustedBeneficiaries.Edges {
		list = append(list, ed.Node)
	}
	if out.Account.TrustedBeneficiaries.TotalCount != len(list) {
		e.t.Fatalf("totalCount %d, %d listed", out.Account.TrustedBeneficiaries.TotalCount, len(list))
	}
	return list
}

func TestBeneficiariesRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 30})
	withTransfers, pending := 0, 0
	for _, a := range e.sandbox.AllAccounts()[:15] {
		// Every outgoing SEPA transfer of the account went to one of its
		// beneficiaries.
		var txs struct {
			Account struct {
				Transactions struct {
					Edges []struct {
						Node struct{ ID, Type, Counterparty string }
					}
				}
			}
		}
		e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { account(accountId: $id) { transactions(first: 100) { edges { node { id type counterparty } } } } }`,
			map[string]any{"id": a.ID}, &txs)
		sent := map[string]bool{}
		for _, ed := range txs.Account.Transactions.Edges {
			if ed.Node.Type == "SepaCreditTransferOut" || ed.Node.Type == "SepaInstantCreditTransferOut" {
				sent[ed.Node.ID] = true
			}
		}
		listed := map[string]bool{}
		for _, b := range e.beneficiaries(tokSandboxProject, a.ID, nil) {
			if b.Typename != "TrustedSepaBeneficiary" || b.Type != "Sepa" || !validIBAN(b.IBAN) || b.Name == "" || b.Label == "" {
				t.Errorf("beneficiary %+v", b)
			}
			switch b.StatusInfo.Status {
			case "Enabled":
				if b.StatusInfo.EnabledAt == "" || b.Transactions.TotalCount == 0 {
					t.Errorf("an enabled seeded beneficiary without its enabling or its transfers: %+v", b)
				}
				withTransfers++
			case "ConsentPending":
				pending++
				if b.StatusInfo.Consent.Purpose != "AddBeneficiary" || b.Transactions.TotalCount != 0 {
					t.Errorf("a pending beneficiary %+v", b)
				}
			}
			for _, ed := range b.Transactions.Edges {
				n := ed.Node
				if n.Counterparty != b.Name || !sent[n.ID] || n.Beneficiary == nil || n.Beneficiary.ID != b.ID {
					t.Errorf("transfer %+v listed under %s (%s)", n, b.ID, b.Name)
				}
				listed[n.ID] = true
			}
			var byID struct{ TrustedBeneficiary benef }
			e.mustData(pathSandbox, tokSandboxProject, `query($id: String!) { trustedBeneficiary(id: $id) { `+benefFields+` } }`, map[string]any{"id": b.ID}, &byID)
			if byID.TrustedBeneficiary.ID != b.ID || byID.TrustedBeneficiary.Transactions.TotalCount != b.Transactions.TotalCount {
				t.Errorf("trustedBeneficiary(%s) = %+v", b.ID, byID.TrustedBeneficiary)
			}
		}
		for id := range sent {
			if !listed[id] {
				t.Errorf("transfer %s of %s is under no beneficiary", id, a.ID)
			}
		}
	}
	if withTransfers == 0 || pending == 0 {
		t.Errorf("%d enabled beneficiaries, %d pending: the seed should have both", withTransfers, pending)
	}
}

const opAddBenef = `mutation($input: AddTrustedSepaBeneficiaryInput!) { addTrustedSepaBeneficiary(input: $input) { __typename
  ... on AddTrustedSepaBeneficiarySuccessPayload { trustedBeneficiary { ` + benefFields + ` } } ... on Rejection { message } } }`

func (e *testEnv) addBeneficiary(token, accountID, name, iban string) (string, benef) {
	e.t.Helper()
	var out struct {
		A struct {
			Typename           string `json:"__typename"`
			Message            string
			TrustedBeneficiary benef
		} `json:"addTrustedSepaBeneficiary"`
	}
	e.mustData(pathSandbox, token, opAddBenef, map[string]any{"input": map[string]any{"accountId": accountID, "name": name, "iban": iban,
		"label": name + " (supplier)", "consentRedirectUrl": "https://partner.example/after-consent"}}, &out)
	return out.A.Typename, out.A.TrustedBeneficiary
}

func TestBeneficiaryAddAndPay(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.userAccount()
	typ, b := e.addBeneficiary(tokSandboxUser0, acc.ID, "Atelier Moreau", "DE89370400440532013000")
	if typ != "AddTrustedSepaBeneficiarySuccessPayload" || b.StatusInfo.Status != "Enabled" || b.Label != "Atelier Moreau (supplier)" || b.Transactions.TotalCount != 0 {
		t.Fatalf("added %s %+v", typ, b)
	}
	if list := e.beneficiaries(tokSandboxUser0, acc.ID, nil); list[0].ID != b.ID {
		t.Errorf("the new beneficiary is not first: %+v", list[0])
	}
	// A transfer to it is listed under it.
	var out struct {
		I struct {
			Typename                       string `json:"__typename"`
			Message                        string
			BeneficiaryVerificationResults []struct{ Status string }
			Payment                        struct{ ID string }
		} `json:"initiateCreditTransfers"`
	}
	e.mustData(pathSandbox, tokSandboxUser0, `mutation($input: InitiateCreditTransfersInput!) { initiateCreditTransfers(input: $input) { __typename
	  ... on InitiateCreditTransfersSuccessPayload { beneficiaryVerificationResults { status } payment { id } } ... on Rejection { message } } }`,
		map[string]any{"input": map[string]any{"accountId": acc.ID, "consentRedirectUrl": "https://partner.example/after-consent",
			"creditTransfers": []any{map[string]any{"amount": eur("25.00"), "trustedBeneficiaryId": b.ID, "label": "Invoice 42"}}}}, &out)
	if out.I.Typename != "InitiateCreditTransfersSuccessPayload" || len(out.I.BeneficiaryVerificationResults) != 1 || out.I.BeneficiaryVerificationResults[0].Status != "Match" {
		t.Fatalf("initiateCreditTransfers answered %+v", out.I)
	}
	got := e.beneficiaries(tokSandboxUser0, acc.ID, nil)[0]
	if got.Transactions.TotalCount != 1 || got.Transactions.Edges[0].Node.Counterparty != "Atelier Moreau" {
		t.Errorf("transfers of the new beneficiary: %+v", got.Transactions)
	}
	tx := got.Transactions.Edges[0].Node.ID
	e.expectEvents(ev("Transaction.Pending", tx))

	// Waiting for the consent: accepted on the consent page, it is enabled.
	e.disableAutoConsent()
	typ, p := e.addBeneficiary(tokSandboxUser0, acc.ID, "Cabinet Roux", "FR7630006000011234567890189")
	c := p.StatusInfo.Consent
	if typ != "AddTrustedSepaBeneficiarySuccessPayload" || p.StatusInfo.Status != "ConsentPending" || c.Purpose != "AddBeneficiary" || !strings.HasPrefix(c.ConsentURL, e.srv.URL) {
		t.Fatalf("added %s %+v", typ, p)
	}
	u0 := e.sandbox.DemoUsers()[0].ID
	e.expectEvents(ev("User.Updated", u0), ev("Consent.Created", c.ID))
	// Not enabled yet: no transfer goes to it.
	e.mustData(pathSandbox, tokSandboxUser0, `mutation($input: InitiateCreditTransfersInput!) { initiateCreditTransfers(input: $input) { __typename ... on Rejection { message } } }`,
		map[string]any{"input": map[string]any{"accountId": acc.ID, "consentRedirectUrl": "https://partner.example/after-consent",
			"creditTransfers": []any{map[string]any{"amount": eur("1.00"), "trustedBeneficiaryId": p.ID}}}}, &out)
	if out.I.Typename != "ForbiddenRejection" {
		t.Errorf("a transfer to a pending beneficiary: %+v", out.I)
	}
	if code, loc := e.answerConsent(c.ID, "accept"); code != http.StatusSeeOther || loc != "https://partner.example/after-consent" {
		t.Fatalf("accept: %d to %q", code, loc)
	}
	for _, b := range e.beneficiaries(tokSandboxUser0, acc.ID, map[string]any{"status": []string{"Enabled"}}) {
		if b.ID == p.ID {
			e.expectEvents(ev("Consent.Granted", c.ID))
			return
		}
	}
	t.Error("the consented beneficiary is not listed Enabled")
}

func TestVerifyBeneficiary(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 10})
	type result struct {
		V struct {
			Typename                     string `json:"__typename"`
			BeneficiaryVerificationToken string
			ExpiresAt                    string
			VerifyBeneficiaryResult      struct {
				Typename       string `json:"__typename"`
				Status         string
				NameSuggestion string
			}
		} `json:"verifyBeneficiary"`
	}
	const op = `mutation($name: String!) { verifyBeneficiary(input: {beneficiary: {sepa: {name: $name, iban: "IT60X0542811101000000123456"}}}) { __typename
	  ... on VerifyBeneficiarySuccessPayload { beneficiaryVerificationToken expiresAt verifyBeneficiaryResult { __typename status ... on VerifyBeneficiaryCloseMatch { nameSuggestion } } } } }`
	// The platform's Sandbox answers by the name.
	for name, want := range map[string]string{"Match": "VerifyBeneficiaryMatch", "CloseMatch": "VerifyBeneficiaryCloseMatch", "NoMatch": "VerifyBeneficiaryNoMatch",
		"NotPossible": "VerifyBeneficiaryNotPossible", "Henri Dupont": "VerifyBeneficiaryMatch"} {
		var out result
		e.mustData(pathSandbox, tokSandboxProject, op, map[string]any{"name": name}, &out)
		v := out.V
		if v.Typename != "VerifyBeneficiarySuccessPayload" || v.VerifyBeneficiaryResult.Typename != want || v.BeneficiaryVerificationToken == "" {
			t.Errorf("%s: %+v, want %s", name, v, want)
		}
		if exp, err := time.Parse(time.RFC3339, v.ExpiresAt); err != nil || !exp.Equal(e.clock.Now().Add(24*time.Hour).Truncate(time.Millisecond)) {
			t.Errorf("%s expires at %s", name, v.ExpiresAt)
		}
		if want == "VerifyBeneficiaryCloseMatch" && v.VerifyBeneficiaryResult.NameSuggestion == "" {
			t.Errorf("a close match without a suggestion: %+v", v)
		}
	}
	// A token stands for the creditor in one payment, once.
	var out result
	e.mustData(pathSandbox, tokSandboxUser0, op, map[string]any{"name": "Fratelli Conti"}, &out)
	pay := func() (string, string) {
		var r struct {
			I struct {
				Typename                       string `json:"__typename"`
				BeneficiaryVerificationResults []struct{ Status string }
			} `json:"initiateCreditTransfers"`
		}
		e.mustData(pathSandbox, tokSandboxUser0, `mutation($input: InitiateCreditTransfersInput!) { initiateCreditTransfers(input: $input) { __typename
		  ... on InitiateCreditTransfersSuccessPayload { beneficiaryVerificationResults { status } } } }`,
			map[string]any{"input": map[string]any{"accountId": e.transferTarget().ID, "consentRedirectUrl": "https://partner.example/after-consent",
				"creditTransfers": []any{map[string]any{"amount": eur("3.00"), "beneficiaryVerificationToken": out.V.BeneficiaryVerificationToken}}}}, &r)
		status := ""
		if len(r.I.BeneficiaryVerificationResults) == 1 {
			status = r.I.BeneficiaryVerificationResults[0].Status
		}
		return r.I.Typename, status
	}
	if typ, status := pay(); typ != "InitiateCreditTransfersSuccessPayload" || status != "Match" {
		t.Errorf("paid with a token: %s %s", typ, status)
	}
	if typ, _ := pay(); typ != "ForbiddenRejection" {
		t.Errorf("a token used twice: %s", typ)
	}
	// In Live, an IBAN of the emulator's accounts is checked against its
	// holder.
	acc := e.live.AllAccounts()[0]
	if got, _ := e.live.VerifyPayee(acc.HolderName, acc.IBAN); got != data.PayeeMatch {
		t.Errorf("Live, the holder's own name: %s", got)
	}
	if got, _ := e.live.VerifyPayee("Someone Else", acc.IBAN); got != data.PayeeNoMatch {
		t.Errorf("Live, another name: %s", got)
	}
	if got, _ := e.live.VerifyPayee("Anyone", "DE89370400440532013000"); got != data.PayeeNotPossible {
		t.Errorf("Live, another bank: %s", got)
	}
}
