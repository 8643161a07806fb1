package gql

import (
	"slices"
	"strings"

	"github.com/partnertui/partnertui/emulator/internal/gen"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// simulationEvents are the webhook events each Testing API mutation the
// model does not answer emits when it succeeds, in the platform's order.
// The platform's webhooks page (swan-io/docs,
// docs/developers/using-api/webhooks.mdx) says which event each change
// of a resource triggers; each topic's sandbox page says which resource a
// simulation changes. A simulation whose change the docs give no event for
// (project billing, credit and loans, test checks) emits none.
var simulationEvents = map[string][]string{
	// Transactions: booked, rejected, returned (a return books its own
	// transaction), enriched.
	"simulateCardTransactionEnrichment":                    {"Transaction.Enriched"},
	"simulateOutgoingCardAdvice":                           {"Transaction.Pending"},
	"simulateIncomingCheckBooking":                         {"Transaction.Booked"},
	"simulateIncomingCheckRejection":                       {"Transaction.Rejected"},
	"simulateIncomingCheckReturn":                          {"Transaction.Booked"},
	"simulateIncomingInternalDirectDebitBooking":           {"Transaction.Booked"},
	"simulateIncomingInternalDirectDebitRejection":         {"Transaction.Rejected"},
	"simulateIncomingInternalDirectDebitReturn":            {"Transaction.Booked"},
	"simulateIncomingSepaDirectDebitRejection":             {"Transaction.Rejected"},
	"simulateIncomingSepaDirectDebitReturn":                {"Transaction.Booked"},
	"simulateOutgoingSepaDirectDebitReverse":               {"Transaction.Booked"},
	"simulateIncomingInternationalCreditTransferReception": {"Transaction.Pending", "Transaction.Booked"},
	"simulateIncomingInternationalCreditTransferReturn":    {"Transaction.Booked"},
	"simulateOutgoingInternationalCreditTransferBooking":   {"Transaction.Booked"},
	"simulateOutgoingInternationalCreditTransferRejection": {"Transaction.Rejected"},
	"simulateOutgoingInternationalCreditTransferReturn":    {"Transaction.Booked"},
	// Merchant acquiring: the merchant payment, then its transaction.
	"simulateIncomingCardAuthorization":                 {"MerchantPayment.Authorized"},
	"simulateIncomingOnlineCardAuthorization":           {"MerchantPayment.Authorized"},
	"simulateIncomingInPersonCardAuthorization":         {"MerchantPayment.Authorized"},
	"simulateIncomingCardBooking":                       {"MerchantPayment.Captured", "Transaction.Booked"},
	"simulateIncomingOnlineCardBooking":                 {"MerchantPayment.Captured", "Transaction.Booked"},
	"simulateIncomingInPersonCardSettlement":            {"MerchantPayment.Captured", "Transaction.Booked"},
	"simulateMerchantProfileRequestOutcome":             {"MerchantProfile.Updated"},
	"simulateMerchantProfileUpdateRequestOutcome":       {"MerchantProfileUpdateRequest.Updated"},
	"simulateMerchantPaymentMethodRequestOutcome":       {"MerchantPaymentMethod.Updated"},
	"simulateMerchantPaymentMethodUpdateRequestOutcome": {"MerchantPaymentMethodUpdateRequest.Updated"},
	// Cards: printed, delivered, provisioned, renewed.
	"physicalCardReception":                   {"Card.Updated"},
	"simulatePhysicalCardDelivery":            {"Card.Updated"},
	"simulatePhysicalCardRenewalProcess":      {"Card.Updated"},
	"simulateManualProvisioning":              {"Card.Updated"},
	"simulateInAppProvisioningCompletion":     {"Card.Updated"},
	"simulateInsuranceSubscriptionEnablement": {"Card.Updated"},
	// Capital deposits.
	"simulateApproveCapitalDepositCase":    {"CapitalDepositCaseEvent.Updated"},
	"simulateCapitalDepositDocumentStatus": {"CapitalDepositDocument.Updated"},
	// Billing.
	"simulateInvoiceGeneration": {"AccountInvoice.Generated"},
	// Account holders, their documents and funding limits.
	"promoteAccountHolderToProjectOwner":       {"AccountHolder.Updated"},
	"updateAccountHolder":                      {"AccountHolder.Updated"},
	"updateAccountHolderFundingLimits":         {"AccountHolder.Updated"},
	"requestSupportingDocuments":               {"SupportingDocumentCollection.Updated"},
	"updateSupportingDocumentCollectionStatus": {"SupportingDocumentCollection.Updated"},
	"updateSupportingDocumentStatus":           {"SupportingDocument.Updated"},
	"updateFundingLimitSettingsChangeRequest":  {"FundingLimitSettingsChangeRequest.Updated"},
	// No event in the docs.
	"simulateStartProjectBilling": nil,
	"simulateCreditLimitUpdated":  nil,
	"simulateRepayment":           nil,
	"simulateRepaymentUpdated":    nil,
	"simulateToRepayLoan":         nil,
	"generateTestCheck":           nil,
}

// SimulationEvents are the events a generated Testing API mutation emits
// and whether the table names it at all.
func SimulationEvents(mutation string) ([]string, bool) {
	ev, ok := simulationEvents[mutation]
	return ev, ok
}

// generated returns what emits the events of an API's mutations the
// world answered: a Testing API mutation's are the table's; a partner
// mutation's follow its object's type as the event list names them
// (Card.Created for a card it created, StandingOrder.Canceled for a
// standing order it canceled, AccountHolder.Updated for any other change).
func (e *Events) generated(api string) func(string, *gen.Mutation) {
	return func(field string, m *gen.Mutation) {
		var types []string
		resource := ""
		if m.Target != nil {
			resource = m.Target.ID
		} else if len(m.IDs) > 0 {
			resource = m.IDs[0]
		}
		if api == TestingAPI {
			types, _ = SimulationEvents(field)
			if len(m.IDs) > 0 {
				resource = m.IDs[0] // the resource the simulation names
			}
		} else if m.Target != nil {
			types = derivedEvents(m)
		}
		if resource == "" {
			return
		}
		for _, t := range types {
			e.hub.Emit(t, resource)
		}
	}
}

// derivedEvents are the events of a partner mutation's change to its
// object, from the platform's event types: <Type>.Created,
// <Type>.<Status> (StandingOrder.Canceled, Account.Closing), else
// <Type>.Updated.
func derivedEvents(m *gen.Mutation) []string {
	known := webhooks.EventTypes()
	try := func(names ...string) []string {
		for _, n := range names {
			if slices.Contains(known, n) {
				return []string{n}
			}
		}
		return nil
	}
	t := m.Target.Type
	switch {
	case m.Created:
		return try(t+".Created", t+".Scheduled")
	case m.Status != "":
		return try(t+"."+m.Status, t+"."+strings.TrimSuffix(m.Status, "d")+"ing", t+".Updated")
	}
	return try(t + ".Updated")
}
