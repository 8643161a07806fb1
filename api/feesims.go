package api

// The Testing API's manual banking fee.

// ManualBankingFeeInput is SimulateManualBankingFeeInput.
type ManualBankingFeeInput struct {
	AccountID     string  `json:"accountId"`
	Type          string  `json:"type"`          // a ManualBankingFee, such as DocumentIssuance
	EffectiveDate string  `json:"effectiveDate"` // DateTime: when it is booked
	DueAmount     *Amount `json:"dueAmount,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (ManualBankingFeeInput) GetGraphQLType() string { return "SimulateManualBankingFeeInput" }

// ManualBankingFee is what a simulated fee booked.
type ManualBankingFee struct {
	ID            string  `json:"id"`
	DebitedAmount *Amount `json:"debitedAmount,omitempty"`
}

type manualBankingFeeMutation struct {
	// The payload is nullable in the schema.
	P *struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			ID            string `graphql:"id"`
			DebitedAmount *struct {
				Value    string `graphql:"value"`
				Currency string `graphql:"currency"`
			} `graphql:"debitedAmount"`
		} `graphql:"... on SimulateManualBankingFeeSuccessPayload"`
		AccountNotFound    rejectionQL `graphql:"... on AccountNotFoundRejection"`
		AccountNotEligible rejectionQL `graphql:"... on AccountNotEligibleRejection"`
		Forbidden          rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"simulateManualBankingFee(input: $input)"`
}

// SimulateManualBankingFee books a manual banking fee on an account.
var SimulateManualBankingFee = simulation[ManualBankingFeeInput](
	func(_ string, m *manualBankingFeeMutation) (*ManualBankingFee, error) {
		fee := &ManualBankingFee{ID: m.P.Success.ID}
		if a := m.P.Success.DebitedAmount; a != nil {
			fee.DebitedAmount = &Amount{Value: a.Value, Currency: a.Currency}
		}
		return fee, nil
	},
	named(func(f *ManualBankingFee) []string { return []string{f.ID} }, "id"))
