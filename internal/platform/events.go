package platform

// WebhookEventTypes are the platform's webhook event types, as its
// webhooks documentation lists them and webhookEventTypes answers: what
// `events --type` accepts and completes.
func WebhookEventTypes() []string {
	return []string{
		"Account.Created", "Account.Updated", "Account.Closing", "Account.Closed",
		"AccountStatement.Generated", "AccountStatement.Voided",
		"AccountHolder.Created", "AccountHolder.Updated",
		"AccountInvoice.Generated", "AccountInvoice.Updated",
		"AccountMembership.Bound", "AccountMembership.Created", "AccountMembership.Disabled",
		"AccountMembership.Resumed", "AccountMembership.Suspended", "AccountMembership.Updated",
		"AccountSetting.Updated",
		"CapitalDepositCaseEvent.Canceled", "CapitalDepositCaseEvent.Created", "CapitalDepositCaseEvent.Updated",
		"CapitalDepositDocument.Created", "CapitalDepositDocument.Updated",
		"Card.Created", "Card.Updated",
		"Consent.Canceled", "Consent.Created", "Consent.Expired", "Consent.Granted", "Consent.Refused", "Consent.Started",
		"FundingLimitSettingsChangeRequest.Created", "FundingLimitSettingsChangeRequest.Updated",
		"FundingSource.Created", "FundingSource.Updated",
		"MerchantPayment.Authorized", "MerchantPayment.Captured", "MerchantPayment.Created",
		"MerchantPayment.Disputed", "MerchantPayment.Rejected",
		"MerchantPaymentLink.Created", "MerchantPaymentLink.Updated",
		"MerchantPaymentMethod.Created", "MerchantPaymentMethod.Updated",
		"MerchantPaymentMethodUpdateRequest.Created", "MerchantPaymentMethodUpdateRequest.Updated",
		"MerchantProfile.Created", "MerchantProfile.Updated",
		"MerchantProfileUpdateRequest.Created", "MerchantProfileUpdateRequest.Updated",
		"Onboarding.Created", "Onboarding.Updated",
		"ReceivedDirectDebitMandate.Created", "ReceivedDirectDebitMandate.Updated",
		"Shareholder.Created", "Shareholder.Updated",
		"StandingOrder.Canceled", "StandingOrder.Scheduled",
		"SupportingDocument.Updated", "SupportingDocumentCollection.Created", "SupportingDocumentCollection.Updated",
		"Transaction.Booked", "Transaction.Canceled", "Transaction.Deleted", "Transaction.Enriched",
		"Transaction.Pending", "Transaction.Rejected", "Transaction.Released", "Transaction.Upcoming",
		"TransactionRollingReserve.Released", "TransactionRollingReserve.Updated",
		"TransactionStatement.Generated",
		"User.Deactivated", "User.Joined", "User.Updated",
	}
}
