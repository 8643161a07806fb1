package api

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// simulationMembers are the union members the hostile server answers
// with: a success full of strings where the client hands strings out, a
// rejection (its message) elsewhere.
func simulationMembers() map[string]string {
	return map[string]string{
		CreateSandboxUser.Name():                                "CreateSandboxUserSuccessPayload",
		SimulateOutgoingCardAuthorization.Name():                "SimulateOutgoingCardAuthorizationRejectPayload",
		SimulateOutgoingCardDebit.Name():                        "TransactionNotFoundRejection",
		SimulateOutgoingCardDebitWithoutAuthorization.Name():    "CardNotFoundRejection",
		SimulateOutgoingCardAuthorizationRelease.Name():         "ForbiddenRejection",
		SimulateOutgoingCardDebitReverse.Name():                 "TransactionNotFoundRejection",
		SimulateOutgoingCardCredit.Name():                       "CardNotFoundRejection",
		SimulateReleaseReservedBalance.Name():                   "ReleaseReservedBalanceSuccessPayload",
		SimulateIncomingSepaCreditTransferReturn.Name():         "TransactionNotFoundRejection",
		SimulateIncomingSepaCreditTransferAcceptedRecall.Name(): "ForbiddenRejection",
		SimulateOutgoingSepaDirectDebitReception.Name():         "ForbiddenRejection",
		SimulateOutgoingSepaDirectDebitReject.Name():            "TransactionNotFoundRejection",
		SimulateOutgoingSepaDirectDebitReturn.Name():            "ForbiddenRejection",
		SimulateOutgoingSepaDirectDebitCancel.Name():            "TransactionNotFoundRejection",
		SimulateManualBankingFee.Name():                         "SimulateManualBankingFeeSuccessPayload",
		SimulateOutgoingSepaCreditTransferBooking.Name():        "ForbiddenRejection",
		SimulateOutgoingSepaCreditTransferRejection.Name():      "TransactionNotFoundRejection",
		SimulateOutgoingSepaCreditTransferReturn.Name():         "ForbiddenRejection",
		OpInitiateCreditTransfers:                               "InitiateCreditTransfersSuccessPayload",
		UpdateSandboxUser.Name():                                "UpdateSandboxUserSuccessPayload",
		DeleteSandboxUser.Name():                                "LastSandboxUserCannotBeDeletedRejection",
		CreateSandboxIdentification.Name():                      "CreateSandboxIdentificationSuccessPayload",
		UpdateSandboxIdentification.Name():                      "InvalidIdentificationLevelsRejection",
		EndorseSandboxUser.Name():                               "EndorseSandboxUserSuccessPayload",
		SimulateIncomingSepaDirectDebitBooking.Name():           "TransactionNotFoundRejection",
		OpAddDirectDebitFundingSource:                           "AddDirectDebitFundingSourceSuccessPayload",
		UpdateAccountVerificationStatus.Name():                  "UpdateAccountVerificationStatusSuccessPayload",
	}
}

// simulationsStripped runs every simulation declared (but the incoming
// transfer, which the reads' test runs), and the payments' operations,
// against the hostile server: what a success hands out, and a
// rejection's message, keep nothing a terminal would act on. It returns
// how many rejections it checked.
func simulationsStripped(t *testing.T, c *Client, check func(string, any, error)) int {
	t.Helper()
	ctx := context.Background()
	pay, err := c.InitiateCreditTransfers(ctx, InitiateCreditTransfersInput{})
	check("InitiateCreditTransfers", pay, err)
	again, err := c.Payment(ctx, "p")
	check("Payment", again, err)
	src, err := c.AddDirectDebitFundingSource(ctx, DirectDebitFundingSourceInput{})
	check("AddDirectDebitFundingSource", src, err)
	members := simulationMembers()
	n := 0
	for _, s := range Simulations() {
		if s.Name == SimulateIncomingSepaCreditTransferReception.Name() {
			continue
		}
		member, ok := members[s.Name]
		if !ok {
			t.Errorf("%s: the hostile server has no union member to answer it with (simulationMembers)", s.Name)
			continue
		}
		v, err := c.Testing().Simulate(ctx, s, reflect.Zero(s.Input).Interface())
		if strings.HasSuffix(member, "Rejection") {
			if strippedRejection(t, s.Name, err) {
				n++
			}
			continue
		}
		if id, ok := v.(string); ok {
			v = struct{ ID string }{id}
		}
		check(s.Name, v, err)
	}
	return n
}
