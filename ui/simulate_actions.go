package ui

import (
	"context"
	"fmt"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
)

// The simulations each screen offers, built when s is pressed from what
// the screen knows then: the account's IBAN and currency, the card's
// latest payments, the transaction's type and status. Each runs one
// operation of the Testing API (or, to send a transfer, the partner API)
// and names the transactions it made or moved.

// simRedirectURL is where a transfer's consent, given in a browser, comes
// back to when the UI was given no page of its own (Options.ConsentRedirect):
// nothing listens there, the app follows the payment.
const simRedirectURL = "http://127.0.0.1/partnertui"

// consentRedirectURL is the address a consent sends the browser back to:
// the page Options.ConsentRedirect serves, else simRedirectURL. Sending
// the transfer matters more than the page: a page that cannot be served
// is logged, not a failure.
func (c *common) consentRedirectURL() string {
	if c.consentRedirect == nil {
		return simRedirectURL
	}
	u, err := c.consentRedirect()
	if err != nil {
		c.log.Warn("no page for the consent to return to", "err", err)
		return simRedirectURL
	}
	return u
}

// simCreditorID is the SEPA creditor identifier of the simulated direct
// debits' creditor.
const simCreditorID = "FR11ZZZ123456"

// accountSims are the Overview's simulations: receive a transfer (API's
// own, so every environment that can simulate has it), receive a direct
// debit, charge a fee, send a transfer.
func accountSims(a API, sim Simulator, acct api.Account, now time.Time, redirect func() string) []simAction {
	cur, compact := currencyOr(acct.Currency), iban.Compact(acct.IBAN)
	name := acct.Holder.Info.Name
	if name == "" {
		name = acct.Name
	}
	acts := []simAction{{
		name:   "receive a transfer",
		fields: []simField{{label: "Amount", def: "100.00", amount: true}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			in := api.IncomingTransfer{
				Amount: api.Amount{Value: v[0], Currency: cur}, CreditorIBAN: compact, CreditorName: name,
				DebtorIBAN: simulatedDebtorIBAN, DebtorName: "partnertui simulator", Label: "Simulated transfer from partnertui",
			}
			id, err := a.SimulateIncomingTransfer(ctx, in)
			out := oneTx("Received "+amountText(in.Amount)+" (simulated transfer)", id, "transfer")
			out.txs[0].awaits = true
			return out, err
		},
	}}
	if sim == nil {
		return acts
	}
	return append(acts, simAction{
		name:   "receive a direct debit",
		fields: []simField{{label: "Amount", def: "50.00", amount: true}, {label: "Creditor", def: "partnertui creditor"}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			amt := api.Amount{Value: v[0], Currency: cur}
			id, err := api.SimulateOutgoingSepaDirectDebitReception.Run(ctx, sim, api.DirectDebitReceptionInput{
				Amount: amt, Creditor: api.DirectDebitCreditor{IBAN: simulatedDebtorIBAN, Name: v[1], Identifier: simCreditorID},
				DebtorIBAN: compact, ExecutionDate: now.UTC().Format(time.RFC3339),
				MandateReference: fmt.Sprintf("PARTNERTUI-%d", now.UnixNano()), MandateSequence: "OneOff", MandateType: "Core",
				Label: "Simulated direct debit from partnertui",
			})
			return oneTx("Direct debit of "+amountText(amt)+" received", id, "direct debit"), err
		},
	}, simAction{
		name:   "charge a fee",
		fields: []simField{{label: "Fee type", def: "DocumentIssuance"}, {label: "Amount", def: "10.00", amount: true}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			amt := api.Amount{Value: v[1], Currency: cur}
			fee, err := api.SimulateManualBankingFee.Run(ctx, sim, api.ManualBankingFeeInput{
				AccountID: acct.ID, Type: v[0], EffectiveDate: now.UTC().Format(time.RFC3339), DueAmount: &amt,
			})
			if err != nil {
				return simOutcome{}, err
			}
			return oneTx("Charged a fee of "+amountText(amt), fee.ID, "fee"), nil
		},
	}, simAction{
		name: "send a transfer",
		// initiateCreditTransfers needs a user's token: the user consents.
		user: true,
		fields: []simField{{label: "Amount", def: "10.00", amount: true}, {label: "To IBAN", def: iban.Format(simulatedDebtorIBAN), iban: true},
			{label: "To name", def: "partnertui beneficiary"}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			amt := api.Amount{Value: v[0], Currency: cur}
			p, err := sim.InitiateCreditTransfers(ctx, api.InitiateCreditTransfersInput{
				AccountID: acct.ID, ConsentRedirectURL: redirect(),
				CreditTransfer: api.CreditTransferInput{Amount: amt, SepaBeneficiary: api.SepaBeneficiaryInput{IBAN: iban.Compact(v[1]), Name: v[2]},
					Label: "Simulated transfer from partnertui"},
			})
			if err != nil {
				return simOutcome{}, err
			}
			return paymentOutcome(p, amt), nil
		},
	})
}

// paymentOutcome says where an initiated transfer of amt stands: sent,
// waiting for the user's consent (at its URL), or rejected.
func paymentOutcome(p *api.Payment, amt api.Amount) simOutcome {
	out := simOutcome{text: "Sent " + amountText(amt) + " (payment " + p.ID + ")"}
	switch p.Status {
	case "ConsentPending":
		out.text = "The transfer waits for your consent (payment " + p.ID + ")"
		out.consent = &awaitedConsent{payment: p, amount: amt}
	case "Rejected":
		out.text, out.bad = "The transfer was rejected: "+p.RejectedReason, true
	}
	for _, id := range p.TransactionIDs {
		out.txs = append(out.txs, simTx{id: id, noun: "outgoing transfer"})
	}
	return out
}

// isTx matches a transaction of one of types in status.
func isTx(status string, types ...string) func(*api.TransactionDetail) bool {
	return func(t *api.TransactionDetail) bool {
		if t.StatusInfo.Status != status {
			return false
		}
		for _, typ := range types {
			if t.Type == typ {
				return true
			}
		}
		return false
	}
}

var (
	pendingAuthorization = isTx("Pending", "CardOutAuthorization")
	bookedCardDebit      = isTx("Booked", "CardOutDebit")
)

// cardSims are a card's simulations: authorize a payment, then debit or
// release the authorization, reverse a debit. The transactions default to
// the card's latest ones followed on its screen.
func cardSims(sim Simulator, cardID string, follow *txFollow) []simAction {
	auth, debit := follow.last(pendingAuthorization), follow.last(bookedCardDebit)
	authID, authAmt, debitID, debitAmt := "", "25.00", "", "25.00"
	if auth != nil {
		authID, authAmt = auth.ID, auth.Amount.Value
	}
	if debit != nil {
		debitID, debitAmt = debit.ID, debit.Amount.Value
	}
	return []simAction{{
		name:   "authorize",
		fields: []simField{{label: "Amount", def: "25.00", amount: true}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			amt := api.Amount{Value: v[0], Currency: "EUR"}
			a, err := api.SimulateOutgoingCardAuthorization.Run(ctx, sim, api.CardAuthorizationInput{CardID: cardID, Amount: &amt})
			if err != nil {
				return simOutcome{}, err
			}
			out := oneTx("Authorized "+amountText(amt)+" on the card", a.TransactionID, "card authorization")
			if a.RejectedReason != "" {
				out.text, out.bad = "The authorization was declined: "+a.RejectedReason, true
			}
			return out, nil
		},
	}, cardDebitSim(sim, authID, authAmt), cardReleaseSim(sim, authID), cardReverseSim(sim, debitID, debitAmt)}
}

func cardDebitSim(sim Simulator, authID, amount string) simAction {
	return simAction{
		name:   "debit",
		fields: []simField{{label: "Transaction", def: authID}, {label: "Amount", def: amount, amount: true}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			amt := api.Amount{Value: v[1], Currency: "EUR"}
			id, err := api.SimulateOutgoingCardDebit.Run(ctx, sim, api.CardDebitInput{TransactionID: v[0], Amount: &amt})
			out := oneTx("Debited "+amountText(amt)+" from the card", id, "card debit")
			out.txs = append(out.txs, simTx{id: v[0], noun: "card authorization"})
			return out, err
		},
	}
}

func cardReleaseSim(sim Simulator, authID string) simAction {
	return simAction{
		name:   "release",
		fields: []simField{{label: "Transaction", def: authID}, {label: "Reason", def: "ManuallyReleased"}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			id, err := api.SimulateOutgoingCardAuthorizationRelease.Run(ctx, sim, api.CardAuthorizationReleaseInput{TransactionID: v[0], Reason: v[1]})
			return oneTx("Released the authorization", id, "card authorization"), err
		},
	}
}

func cardReverseSim(sim Simulator, debitID, amount string) simAction {
	return simAction{
		name:   "reverse",
		fields: []simField{{label: "Transaction", def: debitID}, {label: "Amount", def: amount, amount: true}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			amt := api.Amount{Value: v[1], Currency: "EUR"}
			id, err := api.SimulateOutgoingCardDebitReverse.Run(ctx, sim, api.CardDebitReverseInput{TransactionID: v[0], Amount: &amt})
			out := oneTx("Reversed "+amountText(amt)+" of the card debit", id, "card debit reversal")
			out.txs = append(out.txs, simTx{id: v[0], noun: "card debit"})
			return out, err
		},
	}
}

// reasonSim is a simulation on transaction id that takes a reason code
// (def) and makes or moves one transaction.
func reasonSim(name, def, text, noun, id string, run func(ctx context.Context, in api.TransferReasonInput) (string, error)) simAction {
	return simAction{
		name:   name,
		fields: []simField{{label: "Reason", def: def}},
		run: func(ctx context.Context, v []string) (simOutcome, error) {
			got, err := run(ctx, api.TransferReasonInput{TransactionID: id, ReasonCode: v[0]})
			out := oneTx(text, got, noun)
			if got != id {
				out.txs = append(out.txs, simTx{id: id, noun: "transaction"})
			}
			return out, err
		},
	}
}

// txSims are what the simulations allow on t, by its type and status.
func txSims(sim Simulator, t *api.TransactionDetail) []simAction {
	id := t.ID
	switch {
	case pendingAuthorization(t):
		return []simAction{cardDebitSim(sim, id, t.Amount.Value), cardReleaseSim(sim, id)}
	case bookedCardDebit(t):
		return []simAction{cardReverseSim(sim, id, t.Amount.Value)}
	case isTx("Booked", "SepaCreditTransferIn", "SepaInstantCreditTransferIn")(t):
		return []simAction{
			reasonSim("return", "NotSpecifiedByBeneficiary", "Returned the transfer", "return", id, func(ctx context.Context, in api.TransferReasonInput) (string, error) {
				return api.SimulateIncomingSepaCreditTransferReturn.Run(ctx, sim, api.IncomingTransferReturnInput(in))
			}),
			reasonSim("recall", "TransactionDuplicated", "Recalled the transfer", "recall", id, func(ctx context.Context, in api.TransferReasonInput) (string, error) {
				return api.SimulateIncomingSepaCreditTransferAcceptedRecall.Run(ctx, sim, api.IncomingTransferRecallInput(in))
			}),
		}
	case isTx("Pending", "SepaCreditTransferOut", "SepaInstantCreditTransferOut")(t):
		return []simAction{{
			name: "book",
			run: func(ctx context.Context, _ []string) (simOutcome, error) {
				got, err := api.SimulateOutgoingSepaCreditTransferBooking.Run(ctx, sim, api.OutgoingTransferBookingInput{TransactionID: id})
				return oneTx("Booked the transfer", orID(got, id), "outgoing transfer"), err
			},
		}, reasonSim("reject", "AccountClosed", "Rejected the transfer", "outgoing transfer", id, func(ctx context.Context, in api.TransferReasonInput) (string, error) {
			return api.SimulateOutgoingSepaCreditTransferRejection.Run(ctx, sim, api.OutgoingTransferRejectionInput(in))
		})}
	case isTx("Booked", "SepaCreditTransferOut", "SepaInstantCreditTransferOut")(t):
		return []simAction{reasonSim("return", "BeneficiaryAccountClosed", "Returned the transfer", "return", id, func(ctx context.Context, in api.TransferReasonInput) (string, error) {
			return api.SimulateOutgoingSepaCreditTransferReturn.Run(ctx, sim, api.OutgoingTransferReturnInput(in))
		})}
	case isTx("Upcoming", "SepaDirectDebitOut")(t):
		return []simAction{
			reasonSim("reject", "NotSpecifiedByPayer", "Rejected the direct debit", "direct debit", id, func(ctx context.Context, in api.TransferReasonInput) (string, error) {
				return api.SimulateOutgoingSepaDirectDebitReject.Run(ctx, sim, api.DirectDebitRejectInput(in))
			}),
			reasonSim("cancel", "TransactionDuplicated", "Canceled the direct debit", "direct debit", id, func(ctx context.Context, in api.TransferReasonInput) (string, error) {
				return api.SimulateOutgoingSepaDirectDebitCancel.Run(ctx, sim, api.DirectDebitCancelInput(in))
			}),
		}
	case isTx("Booked", "SepaDirectDebitOut")(t):
		return []simAction{reasonSim("return", "RefundRequestedByDebtor", "Returned the direct debit", "return", id, func(ctx context.Context, in api.TransferReasonInput) (string, error) {
			return api.SimulateOutgoingSepaDirectDebitReturn.Run(ctx, sim, api.DirectDebitReturnInput(in))
		})}
	}
	return nil
}

// orID is got, or id when the answer named none.
func orID(got, id string) string {
	if got == "" {
		return id
	}
	return got
}
