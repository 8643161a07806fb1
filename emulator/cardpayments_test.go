package emulator

import (
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Names of the card simulations' types, as the schema spells them.
const (
	authField, authInput, authOK          = "simulateOutgoingCardAuthorization", "SimulateOutgoingCardAuthorizationInput", "SimulateOutgoingCardAuthorizationSuccessPayload"
	debitField, debitInput, debitOK       = "simulateOutgoingCardDebit", "SimulateOutgoingCardDebitInput", "SimulateOutgoingCardDebitSuccessPayload"
	releaseField, releaseInput, releaseOK = "simulateOutgoingCardAuthorizationRelease", "SimulateOutgoingCardAuthorizationReleaseInput", "SimulateOutgoingCardAuthorizationReleaseSuccessPayload"
	reverseField, reverseInput, reverseOK = "simulateOutgoingCardDebitReverse", "SimulateOutgoingCardDebitReverseInput", "SimulateOutgoingCardDebitReverseSuccessPayload"
)

func (e *simEnv) authorize(cardID, amount string) string {
	e.t.Helper()
	return e.mustSim(authField, authInput, authOK, map[string]any{"cardId": cardID, "amount": eur(amount)})
}

func TestCardAuthorizationThenDebit(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	card, acc := e.enabledCard()
	before := e.balances(acc.ID)

	auth := e.authorize(card.ID, "12.50")
	// The authorization reserves: available drops, booked does not.
	before = e.moved(acc.ID, before, -1250, 0, 0, 1250)
	e.expectEvents(ev("Transaction.Pending", auth), ev("Transaction.Enriched", auth))
	if s := e.transactionStatus(auth); s != "Pending" {
		t.Fatalf("authorization %s, want Pending", s)
	}

	debit := e.mustSim(debitField, debitInput, debitOK, map[string]any{"transactionId": auth})
	// The debit books and the reservation ends: available is unchanged.
	e.moved(acc.ID, before, 0, -1250, 0, -1250)
	e.expectEvents(ev("Transaction.Booked", debit), ev("Transaction.Released", auth), ev("Account.Updated", acc.ID))
	if s, d := e.transactionStatus(auth), e.transactionStatus(debit); s != "Released Captured" || d != "Booked" || debit == auth {
		t.Fatalf("authorization %s and debit %s (%s), want Released Captured and a new Booked debit", s, d, debit)
	}

	// A released authorization cannot be debited or released again.
	e.rejected(debitField, debitInput, debitOK, "ForbiddenRejection", map[string]any{"transactionId": auth})
	e.rejected(releaseField, releaseInput, releaseOK, "ForbiddenRejection", map[string]any{"transactionId": auth})
	e.expectEvents()
}

func TestCardDebitOfAnotherAmount(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	card, acc := e.enabledCard()
	auth := e.authorize(card.ID, "20.00")
	before := e.balances(acc.ID)
	e.mustSim(debitField, debitInput, debitOK, map[string]any{"transactionId": auth, "amount": eur("18.40")})
	// 20.00 stops being reserved, 18.40 is booked.
	e.moved(acc.ID, before, 2000-1840, -1840, 0, -2000)
}

func TestCardAuthorizationRelease(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	card, acc := e.enabledCard()
	before := e.balances(acc.ID)
	auth := e.authorize(card.ID, "30.00")
	e.mustSim(releaseField, releaseInput, releaseOK, map[string]any{"transactionId": auth, "reason": "MerchantReleased"})
	// Released, the reservation is gone: back where it started.
	e.moved(acc.ID, before, 0, 0, 0, 0)
	e.expectEvents(ev("Transaction.Pending", auth), ev("Transaction.Enriched", auth), ev("Transaction.Released", auth))
	if s := e.transactionStatus(auth); s != "Released MerchantReleased" {
		t.Fatalf("authorization %s, want Released MerchantReleased", s)
	}
	// The schema's default reason is Expired.
	auth2 := e.authorize(card.ID, "1.00")
	e.mustSim(releaseField, releaseInput, releaseOK, map[string]any{"transactionId": auth2})
	if s := e.transactionStatus(auth2); s != "Released Expired" {
		t.Fatalf("authorization %s, want Released Expired", s)
	}
	// A released authorization is not debited.
	e.rejected(debitField, debitInput, debitOK, "ForbiddenRejection", map[string]any{"transactionId": auth})
}

func TestReleaseReservedBalance(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	card, acc := e.enabledCard()
	before := e.balances(acc.ID)
	auth := e.authorize(card.ID, "7.00")
	e.mustSim("simulateReleaseReservedBalance", "SimulateReleaseReservedBalanceInput", "ReleaseReservedBalanceSuccessPayload", map[string]any{"transactionId": auth})
	e.moved(acc.ID, before, 0, 0, 0, 0)
	e.expectEvents(ev("Transaction.Pending", auth), ev("Transaction.Enriched", auth), ev("Transaction.Released", auth))
	e.rejected("simulateReleaseReservedBalance", "SimulateReleaseReservedBalanceInput", "ReleaseReservedBalanceSuccessPayload", "ForbiddenRejection", map[string]any{"transactionId": auth})
	e.rejected("simulateReleaseReservedBalance", "SimulateReleaseReservedBalanceInput", "ReleaseReservedBalanceSuccessPayload", "TransactionNotFoundRejection", map[string]any{"transactionId": "bosci_sim9999999999unknown"})
}

func TestCardDebitWithoutAuthorizationReverseAndCredit(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	card, acc := e.enabledCard()
	before := e.balances(acc.ID)
	debit := e.mustSim("simulateOutgoingCardDebitWithoutAuthorization", "SimulateOutgoingCardDebitWithoutAuthorizationInput",
		"SimulateOutgoingCardDebitWithoutAuthorizationSuccessPayload", map[string]any{"cardId": card.ID, "amount": eur("40.00")})
	before = e.moved(acc.ID, before, -4000, -4000, 0, 0)
	e.expectEvents(ev("Transaction.Booked", debit), ev("Account.Updated", acc.ID))

	// The merchant gives part of it back, then no more than the rest.
	rev := e.mustSim(reverseField, reverseInput, reverseOK, map[string]any{"transactionId": debit, "amount": eur("15.00")})
	before = e.moved(acc.ID, before, 1500, 1500, 0, 0)
	e.expectEvents(ev("Transaction.Booked", rev), ev("Account.Updated", acc.ID))
	e.rejected(reverseField, reverseInput, reverseOK, "ForbiddenRejection", map[string]any{"transactionId": debit, "amount": eur("40.01")})
	// Only a debit is reversed.
	e.rejected(reverseField, reverseInput, reverseOK, "ForbiddenRejection", map[string]any{"transactionId": rev})

	credit := e.mustSim("simulateOutgoingCardCredit", "SimulateOutgoingCardCreditInput", "SimulateOutgoingCardCreditSuccessPayload",
		map[string]any{"cardId": card.ID, "amount": eur("9.99"), "merchantName": "Librairie Dupont"})
	e.moved(acc.ID, before, 999, 999, 0, 0)
	e.expectEvents(ev("Transaction.Booked", credit), ev("Account.Updated", acc.ID))
	if s := e.transactionStatus(credit); s != "Booked" {
		t.Fatalf("credit %s, want Booked", s)
	}
}

func TestCardAuthorizationRejections(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	card, acc := e.enabledCard()
	before := e.balances(acc.ID)

	// More than the available balance: a rejected transaction, no reservation.
	r := e.sim(authField, authInput, authOK, map[string]any{"cardId": card.ID, "amount": eur("99999999.00")})
	if r.Typename != "SimulateOutgoingCardAuthorizationRejectPayload" {
		t.Fatalf("authorization beyond the balance: %+v", r)
	}
	var rej struct {
		S struct {
			TransactionID, RejectedReason string
		} `json:"simulateOutgoingCardAuthorization"`
	}
	e.mustData(pathAdmin, tokSandboxProject, `mutation($input: SimulateOutgoingCardAuthorizationInput!) {
  simulateOutgoingCardAuthorization(input: $input) { ... on SimulateOutgoingCardAuthorizationRejectPayload { transactionId rejectedReason } } }`,
		map[string]any{"input": map[string]any{"cardId": card.ID, "amount": eur("5.00"), "outcome": "PinInvalid"}}, &rej)
	if rej.S.RejectedReason != "PinInvalid" || e.transactionStatus(rej.S.TransactionID) != "Rejected PinInvalid" {
		t.Fatalf("asked outcome PinInvalid: %+v %s", rej.S, e.transactionStatus(rej.S.TransactionID))
	}
	e.moved(acc.ID, before, 0, 0, 0, 0)
	e.expectEvents(ev("Transaction.Rejected", r.TransactionID), ev("Transaction.Rejected", rej.S.TransactionID))

	// An unknown card, a canceled card.
	e.rejected(authField, authInput, authOK, "CardNotFoundRejection", map[string]any{"cardId": "no-such-card", "amount": eur("1.00")})
	canceled, _ := e.cardWhere(func(c data.Card) bool { return c.Status == data.CardCanceled })
	r = e.sim(authField, authInput, authOK, map[string]any{"cardId": canceled.ID, "amount": eur("1.00")})
	if r.Typename != "SimulateOutgoingCardAuthorizationRejectPayload" || e.transactionStatus(r.TransactionID) != "Rejected CardPermanentlyBlocked" {
		t.Fatalf("authorization on a canceled card: %+v", r)
	}
	// Steps on unknown or generated transactions are refused.
	e.rejected(debitField, debitInput, debitOK, "TransactionNotFoundRejection", map[string]any{"transactionId": "bosci_unknown"})
	e.rejected(releaseField, releaseInput, releaseOK, "TransactionNotFoundRejection", map[string]any{"transactionId": "bosci_0123456789abcdef0123456789abcdef"})
	// A bad amount is a GraphQL error, as any invalid input.
	if res := e.query(pathAdmin, tokSandboxProject, `mutation($input: SimulateOutgoingCardAuthorizationInput!) { simulateOutgoingCardAuthorization(input: $input) { __typename } }`,
		map[string]any{"input": map[string]any{"cardId": card.ID, "amount": eur("-3")}}); len(res.Errors) == 0 {
		t.Fatal("a negative amount was accepted")
	}
}
