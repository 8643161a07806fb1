package api

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
)

// simulationOperations runs the Testing API's simulations on the
// emulator, as a partner's Sandbox tests would, and checks what each
// returns; a rejection comes back as a *RejectionError naming its type.
func simulationOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	u, err := CreateSandboxUser.Run(ctx, user.Testing(), SandboxUserInput{FirstName: "Ada", LastName: "Ops", BirthDate: "1990-04-12", NationalityCCA3: "FRA", AutoConsent: true})
	cov.ok(t, CreateSandboxUser.Name(), err)
	if u.ID == "" || u.FirstName != "Ada" || u.LastName != "Ops" || !u.AutoConsent {
		t.Errorf("%s = %+v", CreateSandboxUser.Name(), u)
	}
	_, err = CreateSandboxUser.Run(ctx, user.Testing(), SandboxUserInput{FirstName: "Ada", LastName: "Ops", BirthDate: "1990-04-12", NationalityCCA3: "XX1"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "NationalityNotFoundRejection" || rej.Message == "" {
		t.Errorf("%s with nationality XX1: %v, want a NationalityNotFoundRejection", CreateSandboxUser.Name(), err)
	}
	cardOperations(t, cov, user)
	transferOperations(t, cov, user)
	directDebitOperations(t, cov, user)
	outgoingTransferOperations(t, cov, user)
	peopleOperations(t, cov, user)
	fundingOperations(t, cov, user)
}

// transferOperations returns one received transfer and recalls another.
func transferOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	acc := openAccount(t, user)
	receive := func() string {
		t.Helper()
		id, err := user.SimulateIncomingTransfer(ctx, IncomingTransfer{Amount: Amount{Value: "6.00", Currency: acc.Currency},
			CreditorIBAN: acc.IBAN, CreditorName: acc.Holder.Info.Name, DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "Ops Test Debtor"})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	returned, err := SimulateIncomingSepaCreditTransferReturn.Run(ctx, user.Testing(), IncomingTransferReturnInput{TransactionID: receive(), ReasonCode: "NotSpecifiedByBeneficiary"})
	cov.ok(t, SimulateIncomingSepaCreditTransferReturn.Name(), err)
	recalled, err := SimulateIncomingSepaCreditTransferAcceptedRecall.Run(ctx, user.Testing(), IncomingTransferRecallInput{TransactionID: receive(), ReasonCode: "TransactionDuplicated"})
	cov.ok(t, SimulateIncomingSepaCreditTransferAcceptedRecall.Name(), err)
	if returned == "" || recalled == "" || returned == recalled {
		t.Errorf("return %q, recall %q: want two new transactions", returned, recalled)
	}
	_, err = SimulateIncomingSepaCreditTransferReturn.Run(ctx, user.Testing(), IncomingTransferReturnInput{TransactionID: "no-such-transaction", ReasonCode: "NotSpecifiedByBeneficiary"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "TransactionNotFoundRejection" {
		t.Errorf("return of no transaction: %v, want a TransactionNotFoundRejection", err)
	}
}

// payingCard is an Enabled card of an Opened account the client sees,
// with its account's currency.
func payingCard(t *testing.T, c *Client) (string, string) {
	t.Helper()
	ctx := context.Background()
	cards, err := c.Cards(ctx, CardsParams{Statuses: []string{"Enabled"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, card := range cards.Items {
		if card.AccountMembership == nil {
			continue
		}
		if a, err := c.Account(ctx, card.AccountMembership.AccountID); err == nil && a.StatusInfo.Status == "Opened" {
			return card.ID, a.Currency
		}
	}
	t.Fatal("no Enabled card of an Opened account")
	return "", ""
}

func cardOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	cardID, cur := payingCard(t, user)
	amount := &Amount{Value: "4.20", Currency: cur}
	authorize := func() string {
		t.Helper()
		a, err := SimulateOutgoingCardAuthorization.Run(ctx, user.Testing(), CardAuthorizationInput{CardID: cardID, Amount: amount})
		cov.ok(t, SimulateOutgoingCardAuthorization.Name(), err)
		if a.TransactionID == "" || a.RejectedReason != "" {
			t.Fatalf("%s = %+v", SimulateOutgoingCardAuthorization.Name(), a)
		}
		return a.TransactionID
	}
	debit, err := SimulateOutgoingCardDebit.Run(ctx, user.Testing(), CardDebitInput{TransactionID: authorize()})
	cov.ok(t, SimulateOutgoingCardDebit.Name(), err)
	reversal, err := SimulateOutgoingCardDebitReverse.Run(ctx, user.Testing(), CardDebitReverseInput{TransactionID: debit})
	cov.ok(t, SimulateOutgoingCardDebitReverse.Name(), err)
	released, err := SimulateOutgoingCardAuthorizationRelease.Run(ctx, user.Testing(), CardAuthorizationReleaseInput{TransactionID: authorize(), Reason: "MerchantReleased"})
	cov.ok(t, SimulateOutgoingCardAuthorizationRelease.Name(), err)
	reserved, err := SimulateReleaseReservedBalance.Run(ctx, user.Testing(), ReleaseReservedBalanceInput{TransactionID: authorize()})
	cov.ok(t, SimulateReleaseReservedBalance.Name(), err)
	direct, err := SimulateOutgoingCardDebitWithoutAuthorization.Run(ctx, user.Testing(), CardDebitWithoutAuthorizationInput{CardID: cardID, Amount: *amount})
	cov.ok(t, SimulateOutgoingCardDebitWithoutAuthorization.Name(), err)
	refund, err := SimulateOutgoingCardCredit.Run(ctx, user.Testing(), CardCreditInput{CardID: cardID, Amount: *amount, MerchantName: "Ops refund"})
	cov.ok(t, SimulateOutgoingCardCredit.Name(), err)
	for name, id := range map[string]string{"debit": debit, "reversal": reversal, "release": released, "reserved": reserved, "direct": direct, "refund": refund} {
		if id == "" {
			t.Errorf("%s: no transaction id", name)
		}
	}
	declined, err := SimulateOutgoingCardAuthorization.Run(ctx, user.Testing(), CardAuthorizationInput{CardID: cardID, Amount: amount, Outcome: "DoNotHonor"})
	if err != nil || declined.TransactionID == "" || declined.RejectedReason == "" {
		t.Errorf("a declined authorization: %+v, %v; want its transaction and reason", declined, err)
	}
	_, err = SimulateOutgoingCardDebit.Run(ctx, user.Testing(), CardDebitInput{TransactionID: "no-such-transaction"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "TransactionNotFoundRejection" {
		t.Errorf("debit of no transaction: %v, want a TransactionNotFoundRejection", err)
	}
	_, err = SimulateOutgoingCardCredit.Run(ctx, user.Testing(), CardCreditInput{CardID: "no-such-card", Amount: *amount})
	if !errors.As(err, &rej) || rej.Type != "CardNotFoundRejection" {
		t.Errorf("credit to no card: %v, want a CardNotFoundRejection", err)
	}
}

// openAccount is an Opened account with an IBAN the client sees.
func openAccount(t *testing.T, c *Client) *Account {
	t.Helper()
	accounts, err := c.Accounts(context.Background(), AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range accounts.Items {
		if accounts.Items[i].IBAN != "" {
			return &accounts.Items[i]
		}
	}
	t.Fatal("no Opened account with an IBAN")
	return nil
}

// directDebitOperations receives three direct debits: one due tomorrow
// rejected, one due tomorrow canceled, one debited at once then returned;
// and books a fee.
func directDebitOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	acc := openAccount(t, user)
	receive := func(at time.Time) string {
		t.Helper()
		id, err := SimulateOutgoingSepaDirectDebitReception.Run(ctx, user.Testing(), DirectDebitReceptionInput{
			Amount:     Amount{Value: "2.50", Currency: acc.Currency},
			Creditor:   DirectDebitCreditor{IBAN: "FR2730003000706315734174B93", Name: "Ops Creditor", Identifier: "FR11ZZZ123456"},
			DebtorIBAN: acc.IBAN, ExecutionDate: at.UTC().Format(time.RFC3339), MandateReference: "MANDATE-OPS-1",
			MandateSequence: "OneOff", MandateType: "Core",
		})
		cov.ok(t, SimulateOutgoingSepaDirectDebitReception.Name(), err)
		return id
	}
	tomorrow := time.Now().Add(24 * time.Hour)
	rejected, err := SimulateOutgoingSepaDirectDebitReject.Run(ctx, user.Testing(), DirectDebitRejectInput{TransactionID: receive(tomorrow), ReasonCode: "NotSpecifiedByPayer"})
	cov.ok(t, SimulateOutgoingSepaDirectDebitReject.Name(), err)
	canceled, err := SimulateOutgoingSepaDirectDebitCancel.Run(ctx, user.Testing(), DirectDebitCancelInput{TransactionID: receive(tomorrow), ReasonCode: "TransactionDuplicated"})
	cov.ok(t, SimulateOutgoingSepaDirectDebitCancel.Name(), err)
	returned, err := SimulateOutgoingSepaDirectDebitReturn.Run(ctx, user.Testing(), DirectDebitReturnInput{TransactionID: receive(time.Now()), ReasonCode: "RefundRequestedByDebtor"})
	cov.ok(t, SimulateOutgoingSepaDirectDebitReturn.Name(), err)
	if rejected == "" || canceled == "" || returned == "" {
		t.Errorf("reject %q, cancel %q, return %q: want transaction ids", rejected, canceled, returned)
	}
	fee, err := SimulateManualBankingFee.Run(ctx, user.Testing(), ManualBankingFeeInput{AccountID: acc.ID, Type: "DocumentIssuance", EffectiveDate: time.Now().UTC().Format(time.RFC3339)})
	cov.ok(t, SimulateManualBankingFee.Name(), err)
	if fee.ID == "" || fee.DebitedAmount == nil || fee.DebitedAmount.Currency != acc.Currency {
		t.Errorf("%s = %+v", SimulateManualBankingFee.Name(), fee)
	}
	_, err = SimulateManualBankingFee.Run(ctx, user.Testing(), ManualBankingFeeInput{AccountID: "no-such-account", Type: "DocumentIssuance", EffectiveDate: time.Now().UTC().Format(time.RFC3339)})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "AccountNotFoundRejection" {
		t.Errorf("a fee on no account: %v, want an AccountNotFoundRejection", err)
	}
}

// outgoingTransferOperations sends three transfers as the demo user (who
// consents automatically): one booked then returned, one rejected.
func outgoingTransferOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	acc := openAccount(t, user)
	send := func() string {
		t.Helper()
		p, err := user.InitiateCreditTransfers(ctx, InitiateCreditTransfersInput{AccountID: acc.ID, ConsentRedirectURL: "https://example.com/done",
			CreditTransfer: CreditTransferInput{Amount: Amount{Value: "1.10", Currency: acc.Currency}, Label: "ops test",
				SepaBeneficiary: SepaBeneficiaryInput{IBAN: "FR2730003000706315734174B93", Name: "Ops Beneficiary"}}})
		cov.ok(t, OpInitiateCreditTransfers, err)
		if p.Status != "Initiated" || len(p.TransactionIDs) != 1 {
			t.Fatalf("%s = %+v, want one Initiated transfer", OpInitiateCreditTransfers, p)
		}
		again, err := user.Payment(ctx, p.ID)
		cov.ok(t, OpPayment, err)
		if again.ID != p.ID || again.Status != "Initiated" || !slices.Equal(again.TransactionIDs, p.TransactionIDs) {
			t.Errorf("%s = %+v, want %+v", OpPayment, again, p)
		}
		return p.TransactionIDs[0]
	}
	booked, err := SimulateOutgoingSepaCreditTransferBooking.Run(ctx, user.Testing(), OutgoingTransferBookingInput{TransactionID: send()})
	cov.ok(t, SimulateOutgoingSepaCreditTransferBooking.Name(), err)
	returned, err := SimulateOutgoingSepaCreditTransferReturn.Run(ctx, user.Testing(), OutgoingTransferReturnInput{TransactionID: booked, ReasonCode: "BeneficiaryAccountClosed"})
	cov.ok(t, SimulateOutgoingSepaCreditTransferReturn.Name(), err)
	rejected, err := SimulateOutgoingSepaCreditTransferRejection.Run(ctx, user.Testing(), OutgoingTransferRejectionInput{TransactionID: send(), ReasonCode: "AccountClosed"})
	cov.ok(t, SimulateOutgoingSepaCreditTransferRejection.Name(), err)
	if booked == "" || returned == "" || rejected == "" || returned == booked {
		t.Errorf("booked %q, returned %q, rejected %q", booked, returned, rejected)
	}
	_, err = SimulateOutgoingSepaCreditTransferBooking.Run(ctx, user.Testing(), OutgoingTransferBookingInput{TransactionID: "no-such-transaction"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "TransactionNotFoundRejection" || rej.Message == "" {
		t.Errorf("booking of no transaction: %v, want a TransactionNotFoundRejection", err)
	}
}

// peopleOperations makes a Sandbox user, identifies it, changes both and
// deletes the user.
func peopleOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	in := SandboxUserInput{FirstName: "Grace", LastName: "Ops", BirthDate: "1985-02-03", NationalityCCA3: "DEU", AutoConsent: true}
	u, err := CreateSandboxUser.Run(ctx, user.Testing(), in)
	if err != nil {
		t.Fatal(err)
	}
	ident, err := CreateSandboxIdentification.Run(ctx, user.Testing(), SandboxIdentificationInput{UserID: u.ID, Process: "PVID", Levels: IdentificationLevelsInput{PVID: "Pending"}})
	cov.ok(t, CreateSandboxIdentification.Name(), err)
	again, err := UpdateSandboxIdentification.Run(ctx, user.Testing(), UpdateSandboxIdentificationInput{IdentificationID: ident, Process: "PVID", Levels: IdentificationLevelsInput{PVID: "Valid"}})
	cov.ok(t, UpdateSandboxIdentification.Name(), err)
	if ident == "" || again != ident {
		t.Errorf("identification %q, updated %q", ident, again)
	}
	in.LastName = "Ops-Hopper"
	changed, err := UpdateSandboxUser.Run(ctx, user.Testing(), UpdateSandboxUserInput{ID: u.ID, SandboxUserInput: in})
	cov.ok(t, UpdateSandboxUser.Name(), err)
	if changed.ID != u.ID || changed.LastName != "Ops-Hopper" {
		t.Errorf("%s = %+v", UpdateSandboxUser.Name(), changed)
	}
	cov.ok(t, DeleteSandboxUser.Name(), second(DeleteSandboxUser.Run(ctx, user.Testing(), DeleteSandboxUserInput{ID: u.ID})))
	var rej *RejectionError
	if err := second(DeleteSandboxUser.Run(ctx, user.Testing(), DeleteSandboxUserInput{ID: u.ID})); !errors.As(err, &rej) || rej.Type != "SandboxUserNotFoundRejection" {
		t.Errorf("deleting a deleted user: %v, want a SandboxUserNotFoundRejection", err)
	}
	_, err = CreateSandboxIdentification.Run(ctx, user.Testing(), SandboxIdentificationInput{UserID: "no-such-user", Process: "PVID", Levels: IdentificationLevelsInput{PVID: "Valid"}})
	if !errors.As(err, &rej) || rej.Type != "UserNotFoundRejection" {
		t.Errorf("identifying no user: %v, want a UserNotFoundRejection", err)
	}
}

// endorseOperations endorses a new Sandbox user on an emulator of its own
// (endorsing changes whom the signed-in user's token acts as, which would
// upset every other test of a shared emulator): the same token then reads
// as the new user, and endorsing one's own id comes back.
func endorseOperations(t *testing.T, cov *opCoverage) {
	ctx := context.Background()
	info := testkit.StartEmulator(t, emulator.Options{}).Info
	demo, userToken := sandboxUser(t, info)
	user := emulatorClient(t, info, "sandbox", userToken, nil)
	u, err := CreateSandboxUser.Run(ctx, user.Testing(), SandboxUserInput{FirstName: "Edith", LastName: "Endorsed", BirthDate: "1991-05-06", NationalityCCA3: "ITA", AutoConsent: true})
	if err != nil {
		t.Fatal(err)
	}
	endorsed, err := EndorseSandboxUser.Run(ctx, user.Testing(), EndorseSandboxUserInput{ID: u.ID})
	cov.ok(t, EndorseSandboxUser.Name(), err)
	if endorsed.ID != u.ID || endorsed.LastName != "Endorsed" {
		t.Errorf("%s = %+v, want %s", EndorseSandboxUser.Name(), endorsed, u.ID)
	}
	actsAs := func(want string) {
		t.Helper()
		me, err := user.User(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if me.ID != want {
			t.Errorf("the token acts as %s, want %s", me.ID, want)
		}
	}
	actsAs(u.ID)
	if _, err := EndorseSandboxUser.Run(ctx, user.Testing(), EndorseSandboxUserInput{ID: demo.UserID}); err != nil {
		t.Fatal(err)
	}
	actsAs(demo.UserID)
	var rej *RejectionError
	if _, err := EndorseSandboxUser.Run(ctx, user.Testing(), EndorseSandboxUserInput{ID: "no-such-user"}); !errors.As(err, &rej) || rej.Type != "SandboxUserNotFoundRejection" {
		t.Errorf("endorsing no user: %v, want a SandboxUserNotFoundRejection", err)
	}
	actsAs(demo.UserID)
}

// incomingDirectDebitOperations books a Pending direct debit an account
// collects, from the generated history of an emulator of its own (the
// booking changes what the other tests of a shared one would read).
func incomingDirectDebitOperations(t *testing.T, cov *opCoverage) {
	ctx := context.Background()
	info := testkit.StartEmulator(t, emulator.Options{}).Info
	project := emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), nil)
	pending, err := project.TransactionList(ctx, TransactionsParams{First: 1, Status: []string{"Pending"}, Type: []string{"SepaDirectDebitIn"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pending.Items) == 0 {
		t.Fatal("the generated history has no Pending SepaDirectDebitIn to book")
	}
	id := pending.Items[0].ID
	booked, err := SimulateIncomingSepaDirectDebitBooking.Run(ctx, project.Testing(), IncomingDirectDebitBookingInput{TransactionID: id})
	cov.ok(t, SimulateIncomingSepaDirectDebitBooking.Name(), err)
	if booked != id {
		t.Errorf("%s booked %q, want %q", SimulateIncomingSepaDirectDebitBooking.Name(), booked, id)
	}
	tx, err := project.Transaction(ctx, id)
	if err != nil || tx.StatusInfo.Status != "Booked" {
		t.Errorf("the direct debit after its booking: %+v, %v", tx, err)
	}
	var rej *RejectionError
	if _, err := SimulateIncomingSepaDirectDebitBooking.Run(ctx, project.Testing(), IncomingDirectDebitBookingInput{TransactionID: id}); !errors.As(err, &rej) || rej.Type != "ForbiddenRejection" {
		t.Errorf("booking it twice: %v, want a ForbiddenRejection", err)
	}
	if _, err := SimulateIncomingSepaDirectDebitBooking.Run(ctx, project.Testing(), IncomingDirectDebitBookingInput{TransactionID: "no-such-transaction"}); !errors.As(err, &rej) || rej.Type != "TransactionNotFoundRejection" {
		t.Errorf("booking no transaction: %v, want a TransactionNotFoundRejection", err)
	}
}
