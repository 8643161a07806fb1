package api

import (
	"context"
	"testing"
)

// simulationShapes are the hostile server's shapes of the Testing API's
// simulations.
func simulationShapes() map[string]any {
	return map[string]any{
		OpCreateSandboxUser:                                &createSandboxUserMutation{},
		OpSimulateOutgoingCardAuthorization:                &cardAuthorizationMutation{},
		OpSimulateOutgoingCardDebit:                        &cardDebitMutation{},
		OpSimulateOutgoingCardDebitWithoutAuthorization:    &cardDebitWithoutAuthorizationMutation{},
		OpSimulateOutgoingCardAuthorizationRelease:         &cardAuthorizationReleaseMutation{},
		OpSimulateOutgoingCardDebitReverse:                 &cardDebitReverseMutation{},
		OpSimulateOutgoingCardCredit:                       &cardCreditMutation{},
		OpSimulateReleaseReservedBalance:                   &releaseReservedBalanceMutation{},
		OpSimulateIncomingSepaCreditTransferReturn:         &incomingTransferReturnMutation{},
		OpSimulateIncomingSepaCreditTransferAcceptedRecall: &incomingTransferRecallMutation{},
		OpSimulateOutgoingSepaDirectDebitReception:         &directDebitReceptionMutation{},
		OpSimulateOutgoingSepaDirectDebitReject:            &directDebitRejectMutation{},
		OpSimulateOutgoingSepaDirectDebitReturn:            &directDebitReturnMutation{},
		OpSimulateOutgoingSepaDirectDebitCancel:            &directDebitCancelMutation{},
		OpSimulateManualBankingFee:                         &manualBankingFeeMutation{},
		OpSimulateOutgoingSepaCreditTransferBooking:        &outgoingTransferBookingMutation{},
		OpSimulateOutgoingSepaCreditTransferRejection:      &outgoingTransferRejectionMutation{},
		OpSimulateOutgoingSepaCreditTransferReturn:         &outgoingTransferReturnMutation{},
		OpInitiateCreditTransfers:                          &initiateCreditTransfersMutation{},
		OpPayment:                                          &paymentQuery{},
		OpUpdateSandboxUser:                                &updateSandboxUserMutation{},
		OpDeleteSandboxUser:                                &deleteSandboxUserMutation{},
		OpCreateSandboxIdentification:                      &createSandboxIdentificationMutation{},
		OpUpdateSandboxIdentification:                      &updateSandboxIdentificationMutation{},
		OpEndorseSandboxUser:                               &endorseSandboxUserMutation{},
		OpSimulateIncomingSepaDirectDebitBooking:           &incomingDirectDebitBookingMutation{},
		OpAddDirectDebitFundingSource:                      &addDirectDebitFundingSourceMutation{},
		OpUpdateAccountVerificationStatus:                  &updateAccountVerificationStatusMutation{},
	}
}

// simulationMembers are the union members the hostile server answers
// with: a success full of strings where the client hands strings out, a
// rejection (its message) elsewhere.
func simulationMembers() map[string]string {
	return map[string]string{
		OpCreateSandboxUser:                                "CreateSandboxUserSuccessPayload",
		OpSimulateOutgoingCardAuthorization:                "SimulateOutgoingCardAuthorizationRejectPayload",
		OpSimulateOutgoingCardDebit:                        "TransactionNotFoundRejection",
		OpSimulateOutgoingCardDebitWithoutAuthorization:    "CardNotFoundRejection",
		OpSimulateOutgoingCardAuthorizationRelease:         "ForbiddenRejection",
		OpSimulateOutgoingCardDebitReverse:                 "TransactionNotFoundRejection",
		OpSimulateOutgoingCardCredit:                       "CardNotFoundRejection",
		OpSimulateReleaseReservedBalance:                   "ReleaseReservedBalanceSuccessPayload",
		OpSimulateIncomingSepaCreditTransferReturn:         "TransactionNotFoundRejection",
		OpSimulateIncomingSepaCreditTransferAcceptedRecall: "ForbiddenRejection",
		OpSimulateOutgoingSepaDirectDebitReception:         "ForbiddenRejection",
		OpSimulateOutgoingSepaDirectDebitReject:            "TransactionNotFoundRejection",
		OpSimulateOutgoingSepaDirectDebitReturn:            "ForbiddenRejection",
		OpSimulateOutgoingSepaDirectDebitCancel:            "TransactionNotFoundRejection",
		OpSimulateManualBankingFee:                         "SimulateManualBankingFeeSuccessPayload",
		OpSimulateOutgoingSepaCreditTransferBooking:        "ForbiddenRejection",
		OpSimulateOutgoingSepaCreditTransferRejection:      "TransactionNotFoundRejection",
		OpSimulateOutgoingSepaCreditTransferReturn:         "ForbiddenRejection",
		OpInitiateCreditTransfers:                          "InitiateCreditTransfersSuccessPayload",
		OpUpdateSandboxUser:                                "UpdateSandboxUserSuccessPayload",
		OpDeleteSandboxUser:                                "LastSandboxUserCannotBeDeletedRejection",
		OpCreateSandboxIdentification:                      "CreateSandboxIdentificationSuccessPayload",
		OpUpdateSandboxIdentification:                      "InvalidIdentificationLevelsRejection",
		OpEndorseSandboxUser:                               "EndorseSandboxUserSuccessPayload",
		OpSimulateIncomingSepaDirectDebitBooking:           "TransactionNotFoundRejection",
		OpAddDirectDebitFundingSource:                      "AddDirectDebitFundingSourceSuccessPayload",
		OpUpdateAccountVerificationStatus:                  "UpdateAccountVerificationStatusSuccessPayload",
	}
}

// simulationsStripped runs each simulation against the hostile server:
// what a success hands out, and a rejection's message, keep nothing a
// terminal would act on. It returns how many strings it checked.
func simulationsStripped(t *testing.T, c *Client, check func(string, any, error)) int {
	t.Helper()
	ctx := context.Background()
	u, err := c.CreateSandboxUser(ctx, SandboxUserInput{})
	check("CreateSandboxUser", u, err)
	a, err := c.SimulateOutgoingCardAuthorization(ctx, CardAuthorizationInput{})
	check("SimulateOutgoingCardAuthorization", a, err)
	fee, err := c.SimulateManualBankingFee(ctx, ManualBankingFeeInput{})
	check("SimulateManualBankingFee", fee, err)
	pay, err := c.InitiateCreditTransfers(ctx, InitiateCreditTransfersInput{})
	check("InitiateCreditTransfers", pay, err)
	again, err := c.Payment(ctx, "p")
	check("Payment", again, err)
	changed, err := c.UpdateSandboxUser(ctx, UpdateSandboxUserInput{})
	check("UpdateSandboxUser", changed, err)
	endorsed, err := c.EndorseSandboxUser(ctx, "")
	check("EndorseSandboxUser", endorsed, err)
	ident, err := c.CreateSandboxIdentification(ctx, SandboxIdentificationInput{})
	check("CreateSandboxIdentification", struct{ ID string }{ident}, err)
	n := 0
	for name, err := range map[string]error{
		"SimulateOutgoingCardDebit":                        second(c.SimulateOutgoingCardDebit(ctx, CardDebitInput{})),
		"SimulateOutgoingCardDebitWithoutAuthorization":    second(c.SimulateOutgoingCardDebitWithoutAuthorization(ctx, CardDebitWithoutAuthorizationInput{})),
		"SimulateOutgoingCardAuthorizationRelease":         second(c.SimulateOutgoingCardAuthorizationRelease(ctx, CardAuthorizationReleaseInput{})),
		"SimulateOutgoingCardDebitReverse":                 second(c.SimulateOutgoingCardDebitReverse(ctx, CardDebitReverseInput{})),
		"SimulateOutgoingCardCredit":                       second(c.SimulateOutgoingCardCredit(ctx, CardCreditInput{})),
		"SimulateIncomingSepaCreditTransferReturn":         second(c.SimulateIncomingSepaCreditTransferReturn(ctx, IncomingTransferReturnInput{})),
		"SimulateIncomingSepaCreditTransferAcceptedRecall": second(c.SimulateIncomingSepaCreditTransferAcceptedRecall(ctx, IncomingTransferRecallInput{})),
		"SimulateOutgoingSepaDirectDebitReception":         second(c.SimulateOutgoingSepaDirectDebitReception(ctx, DirectDebitReceptionInput{})),
		"SimulateOutgoingSepaDirectDebitReject":            second(c.SimulateOutgoingSepaDirectDebitReject(ctx, DirectDebitRejectInput{})),
		"SimulateOutgoingSepaDirectDebitReturn":            second(c.SimulateOutgoingSepaDirectDebitReturn(ctx, DirectDebitReturnInput{})),
		"SimulateOutgoingSepaDirectDebitCancel":            second(c.SimulateOutgoingSepaDirectDebitCancel(ctx, DirectDebitCancelInput{})),
		"SimulateIncomingSepaDirectDebitBooking":           second(c.SimulateIncomingSepaDirectDebitBooking(ctx, IncomingDirectDebitBookingInput{})),
		"DeleteSandboxUser":                                c.DeleteSandboxUser(ctx, ""),
		"UpdateSandboxIdentification":                      second(c.UpdateSandboxIdentification(ctx, UpdateSandboxIdentificationInput{})),
		"SimulateOutgoingSepaCreditTransferBooking":        second(c.SimulateOutgoingSepaCreditTransferBooking(ctx, OutgoingTransferBookingInput{})),
		"SimulateOutgoingSepaCreditTransferRejection":      second(c.SimulateOutgoingSepaCreditTransferRejection(ctx, OutgoingTransferRejectionInput{})),
		"SimulateOutgoingSepaCreditTransferReturn":         second(c.SimulateOutgoingSepaCreditTransferReturn(ctx, OutgoingTransferReturnInput{})),
	} {
		if strippedRejection(t, name, err) {
			n++
		}
	}
	src, err := c.AddDirectDebitFundingSource(ctx, DirectDebitFundingSourceInput{})
	check("AddDirectDebitFundingSource", src, err)
	verif, err := c.UpdateAccountVerificationStatus(ctx, AccountVerificationStatusInput{})
	check("UpdateAccountVerificationStatus", verif, err)
	id, err := c.SimulateReleaseReservedBalance(ctx, ReleaseReservedBalanceInput{})
	check("SimulateReleaseReservedBalance", struct{ ID string }{id}, err)
	return n
}
