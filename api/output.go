package api

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// WriteAccountsJSON writes accounts as one JSON array with the schema's
// field names, followed by a newline, and nothing else.
func WriteAccountsJSON(w io.Writer, accounts []Account) error {
	if accounts == nil {
		accounts = []Account{}
	}
	return writeJSON(w, accounts)
}

// WriteAccountJSON writes one account as a JSON object with the schema's
// field names, followed by a newline.
func WriteAccountJSON(w io.Writer, a *Account) error {
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

const (
	maxNameCells   = 32
	maxHolderCells = 28
)

// WriteAccountsTable writes an aligned table: name, IBAN in groups of four,
// status, available balance with currency, holder. Every cell is sanitised
// again here, so accounts built outside this package are safe too.
func WriteAccountsTable(w io.Writer, accounts []Account) error {
	rows := make([][5]string, 0, len(accounts)+1)
	rows = append(rows, [5]string{"NAME", "IBAN", "STATUS", "AVAILABLE", "HOLDER"})
	for i := range accounts {
		a := &accounts[i]
		iban := FormatIBAN(Sanitize(a.IBAN))
		if iban == "" {
			iban = "-"
		}
		rows = append(rows, [5]string{
			ansi.Truncate(Sanitize(a.Name), maxNameCells, "…"),
			iban,
			Sanitize(a.StatusInfo.Status),
			availableText(a.Balances),
			ansi.Truncate(Sanitize(a.Holder.Info.Name), maxHolderCells, "…"),
		})
	}
	var widths [5]int
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, cell := range r {
			pad := widths[i] - ansi.StringWidth(cell)
			switch {
			case i == 3: // amounts align on the right
				b.WriteString(strings.Repeat(" ", pad))
				b.WriteString(cell)
				b.WriteString("  ")
			case i == len(r)-1:
				b.WriteString(cell)
			default:
				b.WriteString(cell)
				b.WriteString(strings.Repeat(" ", pad+2))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("could not write the accounts table: %w", err)
	}
	return nil
}

func availableText(b *Balances) string {
	if b == nil {
		return "-"
	}
	return amountText(b.Available)
}

func amountText(a Amount) string {
	v, c := Sanitize(a.Value), Sanitize(a.Currency)
	if v == "" && c == "" {
		return "-"
	}
	return strings.TrimSpace(v + " " + c)
}

// WriteAccountDetail writes one account as aligned "label  value" lines.
func WriteAccountDetail(w io.Writer, a *Account) error {
	if a == nil {
		return fmt.Errorf("no account to write")
	}
	holder := Sanitize(a.Holder.Info.Name)
	var extra []string
	if t := Sanitize(a.Holder.Info.Type); t != "" {
		extra = append(extra, t)
	}
	if v := Sanitize(a.Holder.VerificationStatus); v != "" {
		extra = append(extra, v)
	}
	if len(extra) > 0 {
		holder += " (" + strings.Join(extra, ", ") + ")"
	}
	lines := [][2]string{
		{"ID", Sanitize(a.ID)},
		{"Name", Sanitize(a.Name)},
		{"Number", Sanitize(a.Number)},
		{"IBAN", FormatIBAN(Sanitize(a.IBAN))},
		{"BIC", Sanitize(a.BIC)},
		{"Currency", Sanitize(a.Currency)},
		{"Country", Sanitize(a.Country)},
		{"Language", Sanitize(a.Language)},
		{"Status", Sanitize(a.StatusInfo.Status)},
		{"Payment level", Sanitize(a.PaymentLevel)},
		{"Account type", Sanitize(a.PaymentAccountType)},
		{"Holder", holder},
		{"Holder ID", Sanitize(a.Holder.ID)},
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

// FormatIBAN writes an IBAN in upper case in groups of four characters
// ("FR76 3000 6000 ..."); "" stays "".
func FormatIBAN(s string) string {
	c := CompactIBAN(s)
	if c == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(c) + len(c)/4)
	for i, r := range c {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CompactIBAN is the IBAN without spaces, upper-cased: the form to copy,
// check or encode (FormatIBAN groups it back for people).
func CompactIBAN(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

// ValidIBAN checks an IBAN's shape (country code, check digits, 15-34
// alphanumerics) and its ISO 7064 mod-97 checksum. Spaces are ignored.
func ValidIBAN(s string) bool {
	c := CompactIBAN(s)
	if len(c) < 15 || len(c) > 34 {
		return false
	}
	for i := 0; i < len(c); i++ {
		ch := c[i]
		switch {
		case i < 2 && (ch < 'A' || ch > 'Z'):
			return false
		case i >= 2 && i < 4 && (ch < '0' || ch > '9'):
			return false
		case !(ch >= 'A' && ch <= 'Z') && !(ch >= '0' && ch <= '9'):
			return false
		}
	}
	// Moving the first four characters to the end and reading letters as
	// 10..35 gives a number that is 1 mod 97; fold it digit by digit.
	rem := 0
	for _, ch := range []byte(c[4:] + c[:4]) {
		if ch >= 'A' {
			rem = (rem*100 + int(ch-'A') + 10) % 97
		} else {
			rem = (rem*10 + int(ch-'0')) % 97
		}
	}
	return rem == 1
}
