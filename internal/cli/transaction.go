package cli

import (
	"context"
	"io"
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
)

// TransactionOptions are `partnertui transaction`'s.
type TransactionOptions struct {
	IO   IO
	F    *Factory
	ID   string
	JSON jsonFlags
}

// NewCmdTransaction shows one transaction in full.
func NewCmdTransaction(f *Factory) *cobra.Command {
	opts := &TransactionOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:     "transaction ID",
		Short:   "Show one transaction in full: status and its reason, counterparty and IBAN, dates",
		Example: "  partnertui transaction bosci_… \n  partnertui transaction bosci_… --json",
		Args:    exactlyOne("transaction", "transaction ID", "transactions"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return runTransaction(cmd.Context(), opts)
		},
	}
	opts.JSON.register(cmd, reflect.TypeFor[api.TransactionDetail](), "print one JSON object on stdout")
	return f.withSession(cmd, true)
}

func runTransaction(ctx context.Context, opts *TransactionOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	// transaction(id) belongs to the project: a user token cannot read it.
	t, err := e.ProjectAPI.Transaction(ctx, opts.ID)
	if err != nil {
		return err
	}
	return opts.F.writeItem(ctx, opts.JSON, t, func(w io.Writer) error { return writeTransactionDetail(w, t) })
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
