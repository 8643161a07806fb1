package cli

import (
	"context"
	"io"

	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/iban"
)

// NewCmdTransaction shows one transaction in full.
func NewCmdTransaction(f *Factory) *cobra.Command {
	return newCmdItem(f, itemCommand[api.TransactionDetail]{
		use:     "transaction ID",
		short:   "Show one transaction in full: status and its reason, counterparty and IBAN, dates",
		example: "  partnertui transaction bosci_… \n  partnertui transaction bosci_… --json",
		args:    exactlyOne("transaction", "transaction ID", "transactions"),
		read: func(ctx context.Context, e *app.Env, id string) (*api.TransactionDetail, error) {
			// transaction(id) belongs to the project: a user token cannot read it.
			return e.ProjectAPI.Transaction(ctx, id)
		},
		lines: writeTransactionDetail,
	})
}

// writeTransactionDetail writes a transaction as aligned lines.
func writeTransactionDetail(w io.Writer, t *api.TransactionDetail) error {
	party := t.CounterpartyParty()
	lines := [][2]string{
		{"ID", t.ID},
		{"Type", strings.TrimSpace(t.Type + "  " + t.Typename)},
		{"Side", t.Side},
		{"Amount", signedAmount(t.Side, t.Amount.Value, t.Amount.Currency)},
		{"Status", transactionStatus(&t.StatusInfo)},
		{"Counterparty", t.Counterparty},
	}
	if party != nil {
		acct := iban.Format(party.IBAN)
		if acct == "" {
			acct = party.MaskedIBAN
		}
		if acct == "" {
			acct = party.AccountNumber
		}
		lines = append(lines, [2]string{"Counterparty account", strings.TrimSpace(acct + "  " + party.BIC)})
	}
	lines = append(lines,
		[2]string{"Reference", t.Reference},
		[2]string{"Label", t.Label},
		[2]string{"Payment product", t.PaymentProduct},
		[2]string{"Created", stamp(t.CreatedAt)},
		[2]string{"Executed", stamp(t.ExecutionDate)},
	)
	if !t.StatusInfo.BookingDate.IsZero() {
		lines = append(lines, [2]string{"Booked", stamp(t.StatusInfo.BookingDate)})
	}
	if t.FeesType != "" {
		lines = append(lines, [2]string{"Fees type", t.FeesType})
	}
	if t.Account != nil {
		lines = append(lines, [2]string{"Account", strings.TrimSpace(t.Account.Name + "  " + t.Account.ID)})
	}
	return writeAll(w, []byte(detailLines(lines)))
}

// transactionStatus is the status with what its type adds: why it was
// rejected or released, when it was canceled, the balance after booking.
func transactionStatus(s *api.TransactionStatusInfo) string {
	parts := []string{s.Status}
	if s.Reason != "" {
		parts = append(parts, "reason "+s.Reason)
	}
	if s.HasFallback != nil && *s.HasFallback {
		parts = append(parts, "with fallback")
	}
	for _, d := range []struct {
		label string
		at    string
	}{
		{"canceled", day(s.CanceledDate)}, {"released", day(s.ReleaseDate)}, {"pending until", day(s.PendingEndDate)},
		{"deferred until", day(s.DeferredEndDate)}, {"to be executed", day(s.ExecutionDate)}, {"value date", day(s.ValueDate)},
	} {
		if d.at != "" {
			parts = append(parts, d.label+" "+d.at)
		}
	}
	if s.BalanceAfter != nil && s.BalanceAfter.Amount != nil {
		parts = append(parts, "balance after "+amountText(*s.BalanceAfter.Amount))
	}
	return strings.Join(parts, ", ")
}
