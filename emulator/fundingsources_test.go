package emulator

import (
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

const opAddFundingSource = `mutation($input: AddDirectDebitFundingSourceInput!) { addDirectDebitFundingSource(input: $input) {
  __typename ... on Rejection { message } ... on NotFoundRejection { id }
  ... on ValidationRejection { fields { path code } }
  ... on AddDirectDebitFundingSourceSuccessPayload { fundingSource { ...Source } } } }
` + fundingSourceFragment

const fundingSourceFragment = `fragment Source on FundingSource { __typename id name statusInfo { status
  ... on RejectedFundingSourceStatusInfo { reasonCode rejectedAt } ... on EnabledFundingSourceStatusInfo { enabledAt } }
  ... on DirectDebitFundingSource { iban
    accountVerification { id iban updatedAt statusInfo { status ... on VerifiedStatusInfo { verifiedAt } } }
    paymentMandate { id ... on SEPAPaymentDirectDebitMandate { reference scheme sequence statusInfo { status } } } } }`

const opUpdateVerification = `mutation($input: UpdateAccountVerificationStatusInput!) { updateAccountVerificationStatus(input: $input) {
  __typename ... on Rejection { message }
  ... on UpdateAccountVerificationStatusSuccessPayload { accountVerification { id updatedAt statusInfo { status
    ... on RejectedVerificationStatusInfo { reason rejectedAt } ... on VerifiedStatusInfo { verifiedAt } } } } } }`

type fundingSourceResult struct {
	Typename   string `json:"__typename"`
	ID, Name   string
	IBAN       string
	StatusInfo struct{ Status, ReasonCode, RejectedAt, EnabledAt string }
	Verif      struct {
		ID, IBAN, UpdatedAt string
		StatusInfo          struct{ Status, VerifiedAt string }
	} `json:"accountVerification"`
	PaymentMandate struct {
		ID, Reference, Scheme, Sequence string
		StatusInfo                      struct{ Status string }
	}
}

type addFundingResult struct {
	Typename    string `json:"__typename"`
	Message, ID string
	Fields      []struct {
		Path []string
		Code string
	}
	FundingSource fundingSourceResult
}

type verificationResult struct {
	Typename            string `json:"__typename"`
	Message             string
	AccountVerification struct {
		ID, UpdatedAt string
		StatusInfo    struct{ Status, Reason, RejectedAt, VerifiedAt string }
	}
}

// externalIBAN is the account holder's account at another bank.
const externalIBAN = "FR2730003000706315734174B93"

func (e *simEnv) addFundingSource(token, accountID, iban string) addFundingResult {
	e.t.Helper()
	var out struct {
		A addFundingResult `json:"addDirectDebitFundingSource"`
	}
	e.mustData(pathSandbox, token, opAddFundingSource, map[string]any{"input": map[string]any{"scheme": "SepaDirectDebitB2b",
		"accountId": accountID, "iban": iban, "consentRedirectUrl": "https://partner.example/after-consent", "name": "Main bank"}}, &out)
	return out.A
}

func (e *simEnv) updateVerification(token, id, status string) verificationResult {
	e.t.Helper()
	var out struct {
		U verificationResult `json:"updateAccountVerificationStatus"`
	}
	e.mustData(pathAdmin, token, opUpdateVerification, map[string]any{"input": map[string]any{"accountVerificationId": id, "newStatus": status}}, &out)
	return out.U
}

// fundingSourcesOf reads the account's funding sources through the
// partner API.
func (e *simEnv) fundingSourcesOf(token, accountID string) []fundingSourceResult {
	e.t.Helper()
	var out struct {
		Account struct {
			FundingSources struct {
				TotalCount int
				Edges      []struct{ Node fundingSourceResult }
			}
		}
	}
	e.mustData(pathSandbox, token, `query($id: ID!) { account(accountId: $id) { fundingSources { totalCount edges { node { ...Source } } } } }
`+fundingSourceFragment, map[string]any{"id": accountID}, &out)
	var nodes []fundingSourceResult
	for _, ed := range out.Account.FundingSources.Edges {
		nodes = append(nodes, ed.Node)
	}
	if len(nodes) != out.Account.FundingSources.TotalCount {
		e.t.Fatalf("fundingSources: %d edges, totalCount %d", len(nodes), out.Account.FundingSources.TotalCount)
	}
	return nodes
}

// managedAccount is an Opened account whose memberships the first demo
// user manages (canManageAccountMembership).
func (e *simEnv) managedAccount() *data.Account {
	e.t.Helper()
	u0 := e.sandbox.DemoUsers()[0].ID
	yes := true
	page, err := e.sandbox.UserMemberships(data.Viewer{Project: true}, u0, data.MembershipQuery{First: 100,
		Filter: data.MembershipFilter{CanManageAccountMembership: &yes, Statuses: []string{data.MemberEnabled}}})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, m := range page.Items {
		if a := e.sandbox.AccountOfIndex(m.AccountIndex); a.Status == "Opened" {
			return a
		}
	}
	e.t.Fatal("the first demo user manages no Opened account")
	return nil
}

func TestFundingSourceVerificationMoves(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.managedAccount()
	a := e.addFundingSource(tokSandboxUser0, acc.ID, "FR27 3000 3000 7063 1573 4174 B93")
	src := a.FundingSource
	// A demo user consents automatically: the mandate is Enabled, and the
	// source waits for its verification.
	if a.Typename != "AddDirectDebitFundingSourceSuccessPayload" || src.Typename != "DirectDebitFundingSource" ||
		src.StatusInfo.Status != "Pending" || src.Name != "Main bank" || src.IBAN != externalIBAN ||
		src.Verif.StatusInfo.Status != "PendingVerification" || src.Verif.IBAN != externalIBAN ||
		src.PaymentMandate.StatusInfo.Status != "Enabled" || src.PaymentMandate.Scheme != "SepaDirectDebitB2b" ||
		src.PaymentMandate.Sequence != "Recurrent" || src.PaymentMandate.Reference == "" {
		t.Fatalf("added: %+v", a)
	}
	e.expectEvents(ev("FundingSource.Created", src.ID))
	vid := src.Verif.ID

	// Review, then verification: the source is Enabled with it.
	e.clock.Advance(time.Minute)
	// The Testing API takes a project token as well as a user's.
	r := e.updateVerification(tokSandboxProject, vid, "PendingReview")
	if r.Typename != "UpdateAccountVerificationStatusSuccessPayload" || r.AccountVerification.StatusInfo.Status != "PendingReview" ||
		r.AccountVerification.UpdatedAt <= src.Verif.UpdatedAt {
		t.Fatalf("to PendingReview: %+v (created %s)", r, src.Verif.UpdatedAt)
	}
	e.expectEvents() // the source itself did not change
	r = e.updateVerification(tokSandboxUser0, vid, "Verified")
	if r.AccountVerification.StatusInfo.Status != "Verified" || r.AccountVerification.StatusInfo.VerifiedAt == "" {
		t.Fatalf("to Verified: %+v", r)
	}
	e.expectEvents(ev("FundingSource.Updated", src.ID))
	got := e.fundingSourcesOf(tokSandboxUser0, acc.ID)
	if len(got) != 1 || got[0].ID != src.ID || got[0].StatusInfo.Status != "Enabled" || got[0].StatusInfo.EnabledAt == "" ||
		got[0].Verif.StatusInfo.Status != "Verified" {
		t.Fatalf("read back: %+v", got)
	}

	// A second source of the same holder and IBAN shares the verification:
	// Verified, it is Enabled at once.
	b := e.addFundingSource(tokSandboxUser0, acc.ID, externalIBAN)
	if b.FundingSource.Verif.ID != vid || b.FundingSource.StatusInfo.Status != "Enabled" {
		t.Fatalf("second source: %+v", b)
	}
	e.expectEvents(ev("FundingSource.Created", b.FundingSource.ID))

	// Rejected: both sources are Rejected, and a third is refused.
	r = e.updateVerification(tokSandboxUser0, vid, "Rejected")
	if s := r.AccountVerification.StatusInfo; s.Status != "Rejected" || s.Reason != "HolderDidNotMatch" || s.RejectedAt == "" {
		t.Fatalf("to Rejected: %+v", r)
	}
	e.expectEvents(ev("FundingSource.Updated", src.ID), ev("FundingSource.Updated", b.FundingSource.ID))
	for _, s := range e.fundingSourcesOf(tokSandboxProject, acc.ID) {
		if s.StatusInfo.Status != "Rejected" || s.StatusInfo.ReasonCode != "AccountVerificationRejected" || s.StatusInfo.RejectedAt == "" {
			t.Fatalf("after the rejection: %+v", s)
		}
	}
	if c := e.addFundingSource(tokSandboxUser0, acc.ID, externalIBAN); c.Typename != "AccountVerificationAlreadyRejectedRejection" || c.Message == "" {
		t.Fatalf("third source: %+v", c)
	}
	e.expectEvents()
}

func TestFundingSourceRejections(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	acc := e.managedAccount()
	// The mandate waits for the consent of a user who does not consent
	// automatically.
	e.disableAutoConsent()
	a := e.addFundingSource(tokSandboxUser0, acc.ID, externalIBAN)
	if a.FundingSource.PaymentMandate.StatusInfo.Status != "ConsentPending" || a.FundingSource.StatusInfo.Status != "Pending" {
		t.Fatalf("added: %+v", a)
	}
	// Verified, the source still waits for the mandate's consent.
	if r := e.updateVerification(tokSandboxUser0, a.FundingSource.Verif.ID, "Verified"); r.AccountVerification.StatusInfo.Status != "Verified" {
		t.Fatalf("to Verified: %+v", r)
	}
	if got := e.fundingSourcesOf(tokSandboxUser0, acc.ID); len(got) != 1 || got[0].StatusInfo.Status != "Pending" {
		t.Fatalf("read back: %+v", got)
	}
	u0 := e.sandbox.DemoUsers()[0].ID
	e.expectEvents(ev("User.Updated", u0), ev("FundingSource.Created", a.FundingSource.ID))

	for _, c := range []struct {
		name, token, account, iban, want string
	}{
		{"a project token", tokSandboxProject, acc.ID, externalIBAN, "ForbiddenRejection"},
		{"an account the user does not see", tokSandboxNobody, acc.ID, externalIBAN, "NotFoundRejection"},
		{"an unknown account", tokSandboxUser0, "no-such-account", externalIBAN, "NotFoundRejection"},
		{"a bad IBAN", tokSandboxUser0, acc.ID, "FR0030003000706315734174B93", "ValidationRejection"},
	} {
		if r := e.addFundingSource(c.token, c.account, c.iban); r.Typename != c.want || r.Message == "" {
			t.Errorf("%s: %+v, want %s", c.name, r, c.want)
		}
	}
	if r := e.updateVerification(tokSandboxUser0, "no-such-verification", "Verified"); r.Typename != "ForbiddenRejection" || r.Message == "" {
		t.Errorf("unknown verification: %+v", r)
	}
	e.expectEvents()
}
