package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
)

// field is one labelled value of a detail screen.
type field struct {
	label string
	value string // may be styled
	// wide takes a whole line even when the screen has room for two
	// fields side by side (an address, a reason, a grid).
	wide bool
}

// twoColumns is the width from which fields go two to a line.
const twoColumns = 80

// fieldRows lays fields out: labels in a column as wide as the longest,
// two fields to a line on a wide screen, one otherwise; every line is cut
// to w.
func fieldRows(st styles, w int, fs []field) []string {
	lw := 10
	for _, f := range fs {
		lw = max(lw, ansi.StringWidth(f.label)+1)
	}
	text := func(f field) string {
		return st.dim.Render(f.label+strings.Repeat(" ", lw-ansi.StringWidth(f.label))) + f.value
	}
	colW := max(w/2, 1)
	lines := make([]string, 0, len(fs))
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		if w < twoColumns || f.wide || i+1 == len(fs) || fs[i+1].wide {
			lines = append(lines, trunc(text(f), w))
			continue
		}
		// Padded by hand: a lipgloss Width style gives the same line, at
		// the price of a render per line on every View.
		left := trunc(text(f), colW-1)
		lines = append(lines, left+strings.Repeat(" ", colW-ansi.StringWidth(left))+trunc(text(fs[i+1]), w-colW))
		i++
	}
	return lines
}

// opensIt follows a field that key b opens: "  (a opens it)", or nothing
// while b is disabled.
func opensIt(st styles, b key.Binding) string {
	if !b.Enabled() {
		return ""
	}
	return st.dim.Render("  (" + b.Help().Key + " opens it)")
}

// orDash is s, or a dash for a value the server left empty.
func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// yesNo words a flag.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// checks draws named flags as ✓ name / ✗ name.
func checks(st styles, names []string, on []bool) string {
	parts := make([]string, len(names))
	for i, n := range names {
		if on[i] {
			parts[i] = st.ok.Render("✓") + " " + n
		} else {
			parts[i] = st.dim.Render("✗ " + n)
		}
	}
	return strings.Join(parts, "  ")
}

// The five rights of a membership, in the schema's order: the grid of
// the members list and the words of the member detail.
var rightNames = [5]string{"view account", "beneficiaries", "payments", "members", "cards"}

// rightLetters head the grid's columns.
const rightLetters = "V B P M C"

func rights(m *api.AccountMembership) []bool {
	return []bool{m.CanViewAccount, m.CanManageBeneficiaries, m.CanInitiatePayments, m.CanManageAccountMembership, m.CanManageCards}
}

// rightsGrid is the five rights under rightLetters: ✓ for each held, · for
// each missing.
func rightsGrid(m *api.AccountMembership) string {
	var b strings.Builder
	for i, ok := range rights(m) {
		if i > 0 {
			b.WriteByte(' ')
		}
		if ok {
			b.WriteString("✓")
		} else {
			b.WriteString("·")
		}
	}
	return b.String()
}

// memberName is who holds a membership: the bound user, else whom the
// invitation is for.
func memberName(m *api.AccountMembership) string {
	if m.User != nil {
		return userName(m.User)
	}
	if r := m.StatusInfo.RestrictedTo; r != nil {
		return strings.TrimSpace(r.FirstName + " " + r.LastName)
	}
	return ""
}

// userName is a member's name as the platform gives it.
func userName(u *api.MembershipUser) string {
	switch {
	case u == nil:
		return ""
	case u.FullName != "":
		return u.FullName
	}
	return strings.TrimSpace(u.FirstName + " " + u.LastName)
}

// dayText is a date as the lists print it; empty for none.
func dayText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}
