package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
)

// WriteAccountJSON writes one account as a JSON object with the schema's
// field names, followed by a newline.
func WriteAccountJSON(w io.Writer, a *api.Account) error {
	if a == nil {
		return fmt.Errorf("no account to write")
	}
	return writeJSON(w, a)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("could not write the JSON output: %w", err)
	}
	return nil
}

// accountColumns are the accounts table's: name, IBAN in groups of four,
// status, available balance with currency, holder.
func accountColumns() []column[api.Account] {
	return []column[api.Account]{
		{title: "NAME", max: 32, cell: func(a *api.Account) string { return a.Name }},
		{title: "IBAN", cell: func(a *api.Account) string { return iban.Format(a.IBAN) }},
		{title: "STATUS", cell: func(a *api.Account) string { return a.StatusInfo.Status }},
		{title: "AVAILABLE", right: true, cell: func(a *api.Account) string { return availableText(a.Balances) }},
		{title: "HOLDER", max: 28, cell: func(a *api.Account) string { return a.Holder.Info.Name }},
	}
}

func availableText(b *api.Balances) string {
	if b == nil {
		return "-"
	}
	return amountText(b.Available)
}

func amountText(a api.Amount) string {
	v, c := a.Value, a.Currency
	if v == "" && c == "" {
		return "-"
	}
	return strings.TrimSpace(v + " " + c)
}

// WriteAccountDetail writes one account as aligned "label  value" lines.
func WriteAccountDetail(w io.Writer, a *api.Account) error {
	if a == nil {
		return fmt.Errorf("no account to write")
	}
	holder := a.Holder.Info.Name
	var extra []string
	if t := a.Holder.Info.Type; t != "" {
		extra = append(extra, t)
	}
	if v := a.Holder.VerificationStatus; v != "" {
		extra = append(extra, v)
	}
	if len(extra) > 0 {
		holder += " (" + strings.Join(extra, ", ") + ")"
	}
	lines := [][2]string{
		{"ID", a.ID},
		{"Name", a.Name},
		{"Number", a.Number},
		{"IBAN", iban.Format(a.IBAN)},
		{"BIC", a.BIC},
		{"Currency", a.Currency},
		{"Country", a.Country},
		{"Language", a.Language},
		{"Status", a.StatusInfo.Status},
		{"Payment level", a.PaymentLevel},
		{"Account type", a.PaymentAccountType},
		{"Holder", holder},
		{"Holder ID", a.Holder.ID},
	}
	if b := a.Balances; b != nil {
		lines = append(lines,
			[2]string{"Available", amountText(b.Available)},
			[2]string{"Booked", amountText(b.Booked)},
			[2]string{"Pending", amountText(b.Pending)},
			[2]string{"Reserved", amountText(b.Reserved)},
		)
	}
	if !a.CreatedAt.IsZero() {
		lines = append(lines, [2]string{"Created", a.CreatedAt.UTC().Format(time.RFC3339)})
	}
	if !a.UpdatedAt.IsZero() {
		lines = append(lines, [2]string{"Updated", a.UpdatedAt.UTC().Format(time.RFC3339)})
	}
	width := 0
	for _, l := range lines {
		width = max(width, len(l[0]))
	}
	var b strings.Builder
	for _, l := range lines {
		v := l[1]
		if v == "" {
			v = "-"
		}
		b.WriteString(l[0])
		b.WriteString(strings.Repeat(" ", width-len(l[0])+2))
		b.WriteString(v)
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("could not write the account: %w", err)
	}
	return nil
}
