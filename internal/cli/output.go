package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
)

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
// status, available balance with currency, holder, and the id the account
// commands take.
func accountColumns() []column[api.Account] {
	return []column[api.Account]{
		{title: "NAME", max: 32, cell: func(a *api.Account) string { return a.Name }},
		{title: "IBAN", cell: func(a *api.Account) string { return iban.Format(a.IBAN) }},
		{title: "STATUS", cell: func(a *api.Account) string { return a.StatusInfo.Status }},
		{title: "AVAILABLE", right: true, cell: func(a *api.Account) string { return availableText(a.Balances) }},
		{title: "HOLDER", max: 28, cell: func(a *api.Account) string { return a.Holder.Info.Name }},
		{title: "ID", cell: func(a *api.Account) string { return a.ID }},
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

// writeAccountDetail writes one account as aligned "label  value" lines:
// why its IBAN is hidden when it is, the reason of its status, its holder
// and, with a user token, the signed-in user's rights on it.
func writeAccountDetail(w io.Writer, a *api.AccountDetail) error {
	holder := a.HolderDetail.Info.Name
	var extra []string
	for _, v := range []string{a.HolderDetail.Info.Type, a.HolderDetail.VerificationStatus} {
		if v != "" {
			extra = append(extra, v)
		}
	}
	if len(extra) > 0 {
		holder += " (" + strings.Join(extra, ", ") + ")"
	}
	status := a.StatusDetail.Status
	if r := a.StatusDetail.ReasonInfo; r != nil {
		status += ": " + strings.TrimSpace(r.Type+" "+r.Message)
	}
	lines := [][2]string{
		{"ID", a.ID},
		{"Name", a.Name},
		{"Number", a.Number},
		{"IBAN", ibanLine(a)},
		{"BIC", a.BIC},
		{"Currency", a.Currency},
		{"Country", a.Country},
		{"Language", a.Language},
		{"Status", status},
		{"Payment level", a.PaymentLevel},
		{"Account type", a.PaymentAccountType},
		{"Holder", holder},
		{"Holder ID", a.HolderDetail.ID},
	}
	if addr := a.HolderDetail.ResidencyAddress; addr != nil {
		lines = append(lines, [2]string{"Address", joinNonEmpty(", ", addr.AddressLine1, addr.AddressLine2, addr.PostalCode+" "+addr.City, addr.Country)})
	}
	if m := a.Membership; m != nil {
		lines = append(lines, [2]string{"Your rights", rightsGrid(m) + "  (" + m.StatusInfo.Status + ")"})
	}
	if b := a.Balances; b != nil {
		lines = append(lines,
			[2]string{"Available", amountText(b.Available)},
			[2]string{"Booked", amountText(b.Booked)},
			[2]string{"Pending", amountText(b.Pending)},
			[2]string{"Reserved", amountText(b.Reserved)},
		)
	}
	lines = append(lines, [2]string{"Created", stamp(a.CreatedAt)}, [2]string{"Updated", stamp(a.UpdatedAt)})
	return writeAll(w, []byte(detailLines(lines)))
}

// ibanLine is the IBAN in groups of four, or why the platform hides it.
func ibanLine(a *api.AccountDetail) string {
	if a.IBAN != "" {
		return iban.Format(a.IBAN)
	}
	var why []string
	for _, r := range a.IBANHidden() {
		switch r {
		case api.IBANLimitedAccount:
			why = append(why, "the account's payment level is Limited")
		case api.IBANNoViewRight:
			why = append(why, "your membership lacks the canViewAccount right")
		case api.IBANNotAssigned:
			why = append(why, "the account has none yet")
		}
	}
	return "hidden: " + strings.Join(why, " and ")
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
