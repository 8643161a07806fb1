package gql

import (
	"github.com/partnertui/partnertui/emulator/internal/data"
)

type statementsArgs struct {
	First   int32
	After   *string
	Filters *struct {
		IsAfterUpdatedAt  *scalar
		IsBeforeUpdatedAt *scalar
		Period            *string
	}
	OrderBy *orderArgs
}

type statementR struct {
	acc *accountR
	s   data.Statement
}

func (s *statementR) amount(c int64) *amountR  { return amount(c, s.s.Currency) }
func (s *statementR) ID() ID                   { return ID(s.s.ID) }
func (s *statementR) Account() *accountR       { return s.acc }
func (s *statementR) OpeningBalance() *amountR { return s.amount(s.s.OpeningBalance) }
func (s *statementR) ClosingBalance() *amountR { return s.amount(s.s.ClosingBalance) }
func (s *statementR) OpeningDate() scalar      { return dateTime(s.s.OpeningDate) }
func (s *statementR) ClosingDate() scalar      { return dateTime(s.s.ClosingDate) }
func (s *statementR) Period() *string          { p := "Monthly"; return &p }
func (s *statementR) TotalCredits() *amountR   { return s.amount(s.s.TotalCredits) }
func (s *statementR) TotalDebits() *amountR    { return s.amount(s.s.TotalDebits) }
func (s *statementR) Fees() *amountR           { return s.amount(s.s.FeeDebits - s.s.FeeCredits) }
func (s *statementR) FeeCredits() *amountR     { return s.amount(s.s.FeeCredits) }
func (s *statementR) FeeDebits() *amountR      { return s.amount(s.s.FeeDebits) }
func (s *statementR) Format() string           { return "PDF" }
func (s *statementR) CreatedAt() scalar        { return dateTime(s.s.CreatedAt) }
func (s *statementR) UpdatedAt() scalar        { return dateTime(s.s.UpdatedAt) }
func (s *statementR) StatusInfo() *stmtStatusR { return &stmtStatusR{s: s.s} }

// Status is the deprecated StatementStatus of the same state.
func (s *statementR) Status() string {
	switch s.s.Status {
	case data.StatementPending:
		return "Pending"
	case data.StatementFailed:
		return "Failed"
	}
	return "Available"
}

type stmtStatusR struct{ s data.Statement }

func (s *stmtStatusR) Status() string { return s.s.Status }
func (s *stmtStatusR) URL() scalar    { return scalar(data.StatementURL(s.s)) }
func (s *stmtStatusR) ToGeneratedStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementGenerated
}
func (s *stmtStatusR) ToPendingStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementPending
}
func (s *stmtStatusR) ToFailedStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementFailed
}
func (s *stmtStatusR) ToVoidedStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementVoided
}
