package ui

import (
	"math/big"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
)

// A card's spending against its limits, drawn so that a glance says
// whether the next payment passes: each limit with its period, a bar of
// how much of it is used, what is left, and the verdict, the most the
// next payment may be.

// spendBar is the width of a limit's bar on a wide screen; half of it
// below twoColumns.
const spendBar = 20

// limitUse is one spending limit and, when the platform reports it for
// the limit's period, how much of it is used.
type limitUse struct {
	whose string // "card" or "member": whose limit it is
	limit api.SpendingLimit
	used  *big.Rat // nil: not reported for this period
	max   *big.Rat
}

// left is what the limit leaves, never below zero; nil when not known.
func (u limitUse) left() *big.Rat {
	if u.used == nil {
		return nil
	}
	l := new(big.Rat).Sub(u.max, u.used)
	if l.Sign() < 0 {
		return new(big.Rat)
	}
	return l
}

// rat reads an AmountValue; nil when it is not one.
func rat(v string) *big.Rat {
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return nil
	}
	return r
}

// limitUses pairs each limit with the spending of its period: the card's
// with the card's spending, the membership's with the member's.
func limitUses(s *api.CardSpending) []limitUse {
	var out []limitUse
	add := func(whose string, ls []api.SpendingLimit, sp *api.Spending) {
		for _, l := range ls {
			u := limitUse{whose: whose, limit: l, max: rat(l.Amount.Value)}
			if u.max == nil {
				continue
			}
			if sp != nil && sp.Period == l.Period && sp.Amount != nil && sp.Amount.Currency == l.Amount.Currency {
				u.used = rat(sp.Amount.Value)
			}
			out = append(out, u)
		}
	}
	add("card", s.Limits, s.Spending)
	add("member", s.MemberLimits, s.MemberSpending)
	return out
}

// spendingLines are the card's limits as lines of width w, then the
// verdict.
func spendingLines(st styles, w int, s *api.CardSpending) []string {
	uses := limitUses(s)
	if len(uses) == 0 {
		return []string{st.dim.Render("No spending limit applies to this card.")}
	}
	var lines []string
	var tightest *limitUse
	for i := range uses {
		u := &uses[i]
		lines = append(lines, trunc(limitLine(st, w, u), w))
		if l := u.left(); l != nil && (tightest == nil || l.Cmp(tightest.left()) < 0) {
			tightest = u
		}
	}
	if sp := s.Spending; sp != nil && !sp.Start.IsZero() {
		lines = append(lines, st.dim.Render(trunc("The card's use counts from "+formatTime(sp.Start)+" to "+formatTime(sp.End), w)))
	}
	return append(lines, trunc(verdict(st, tightest, len(uses)), w))
}

// limitLine is one limit: its period, the bar, used of the limit and
// what is left, then whose limit it is.
func limitLine(st styles, w int, u *limitUse) string {
	cur := u.limit.Amount.Currency
	bw := spendBar
	if w < twoColumns+20 {
		bw = spendBar / 2
	}
	head := padTo(u.limit.Period, 8)
	whose := st.dim.Render(" · " + u.whose + ", " + u.limit.Type)
	if u.used == nil {
		return head + st.dim.Render(strings.Repeat("·", bw)) + "  limit " + money(u.max, cur) + st.dim.Render(" (use not reported)") + whose
	}
	frac := 1.0
	if u.max.Sign() > 0 {
		frac, _ = new(big.Rat).Quo(u.used, u.max).Float64()
	}
	filled := min(max(int(frac*float64(bw)+0.5), 0), bw)
	if u.used.Sign() > 0 && filled == 0 {
		filled = 1
	}
	style := st.ok
	switch {
	case frac >= 1:
		style = st.err
	case frac >= 0.75:
		style = st.warn
	}
	bar := style.Render(strings.Repeat("█", filled)) + st.dim.Render(strings.Repeat("░", bw-filled))
	return head + bar + "  " + u.used.FloatString(2) + "/" + money(u.max, cur) + " · " + u.left().FloatString(2) + " left" + whose
}

// verdict says how much the next payment may be: what the tightest limit
// of known use leaves.
func verdict(st styles, tightest *limitUse, n int) string {
	if tightest == nil {
		return st.dim.Render("The platform reports no use of these limits: the next payment is bounded by them alone.")
	}
	cur := tightest.limit.Amount.Currency
	left := tightest.left()
	if left.Sign() == 0 {
		return st.err.Render("✗ The "+strings.ToLower(tightest.limit.Period)+" limit is used up:") + " no payment passes until its period ends."
	}
	text := st.ok.Render("✓") + " The next payment passes up to " + money(left, cur)
	if n > 1 {
		text += " (the " + tightest.whose + " " + strings.ToLower(tightest.limit.Period) + " limit)"
	}
	return text + "."
}

// money is an amount to the cent with its currency.
func money(r *big.Rat, currency string) string {
	return strings.TrimSpace(r.FloatString(2) + " " + currency)
}

// padTo pads s with spaces to n cells (s is never cut).
func padTo(s string, n int) string {
	if w := ansi.StringWidth(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s + " "
}
