package api

import "context"

// OpSimulateManualBankingFee is the Testing API's manual banking fee.
const OpSimulateManualBankingFee = "SimulateManualBankingFee"

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

func (m *manualBankingFeeMutation) outcome() (string, string) {
	if m.P == nil {
		return "null", "the Testing API returned no payload"
	}
	return m.P.Typename, message(m.P.AccountNotFound, m.P.AccountNotEligible, m.P.Forbidden)
}

// SimulateManualBankingFee books a manual banking fee on an account.
func (c *Client) SimulateManualBankingFee(ctx context.Context, in ManualBankingFeeInput) (*ManualBankingFee, error) {
	m, err := simulate[manualBankingFeeMutation](ctx, c, OpSimulateManualBankingFee, "SimulateManualBankingFeeSuccessPayload", in)
	if err != nil {
		return nil, err
	}
	fee := &ManualBankingFee{ID: m.P.Success.ID}
	if a := m.P.Success.DebitedAmount; a != nil {
		fee.DebitedAmount = &Amount{Value: a.Value, Currency: a.Currency}
	}
	return fee, nil
}
