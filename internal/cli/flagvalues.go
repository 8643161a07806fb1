package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/suggest"
)

// parseTime reads a --since or --until value, the same on every command:
// a duration back from now (Go's, such as 30m or 2h, or whole days such as
// 3d), a date (YYYY-MM-DD, UTC), or an RFC 3339 time. A date is its first
// instant, or with through (an --until) its last: the day is included, as
// the app's "To" includes it.
func parseTime(flag, v string, now time.Time, through bool) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	d, err := time.ParseDuration(v)
	if n, cut := strings.CutSuffix(v, "d"); cut && err != nil {
		if days, aerr := strconv.Atoi(n); aerr == nil && strconv.Itoa(days) == n {
			d, err = time.Duration(days)*24*time.Hour, nil
		}
	}
	if err == nil {
		if d <= 0 {
			return time.Time{}, usageErrorf("%s %q is no time back from now: write a positive duration such as 2h", flag, v)
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		if through {
			return t.AddDate(0, 0, 1), nil
		}
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	return time.Time{}, usageErrorf("%s %q is neither a duration such as 2h, 30m or 3d nor a time such as 2026-11-22 or 2026-11-22T10:00:00Z", flag, v)
}

// timeFlagUsage is the help of a --since or --until flag.
func timeFlagUsage(what string, through bool) string {
	day := ""
	if through {
		day = "; a date includes that day"
	}
	return what + " this `time`: a duration back (30m, 2h, 3d), a date (YYYY-MM-DD, UTC) or an RFC 3339 time" + day
}

// parseAmount reads a --min/--max value as the API's AmountValue: a decimal
// with a dot. The platform's amounts carry no sign (Transaction.side says
// which way the money went) and its amount filters compare those, so a
// negative bound would silently match everything: it is refused.
func parseAmount(flag, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if strings.HasPrefix(v, "-") {
		return "", usageErrorf("%s %q is negative, but amounts are compared without their sign (a debit shown -125.60 is 125.60): write %s %s", flag, v, flag, strings.TrimLeft(v, "-"))
	}
	dot := false
	for i, r := range v {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot && i > 0 && i < len(v)-1:
			dot = true
		default:
			return "", usageErrorf("%s %q is not an amount: write digits with a dot, such as 12.50", flag, v)
		}
	}
	return v, nil
}

// foldChoices checks values, in place, against allowed, case aside: a
// value in another case becomes allowed's (booked is Booked). One not
// among them is a usage error naming the flag as typed and the values
// meant: those a typing mistake away or that hold it, else all of them
// when they are few.
func foldChoices(flag, what string, values, allowed []string) error {
	for i, v := range values {
		k, ok := suggest.Fold(v, allowed)
		if !ok {
			return unknownChoice(flag, what, v, allowed)
		}
		values[i] = k
	}
	return nil
}

// maxListed is how many values a usage error lists when none is close.
const maxListed = 12

func unknownChoice(flag, what, v string, allowed []string) error {
	if near := suggest.Closest(v, allowed, 5); len(near) > 0 {
		return usageErrorf("%s %q is not a %s: did you mean %s?", flag, v, what, suggest.JoinOr(near))
	}
	if len(allowed) <= maxListed {
		return usageErrorf("%s %q is not a %s: write %s", flag, v, what, suggest.JoinOr(allowed))
	}
	return usageErrorf("%s %q is not a %s, nor close to one of the %d (press tab after %s to list them)", flag, v, what, len(allowed), flag)
}

// completeChoices completes a flag from a fixed list.
// choicesFlag adds a repeatable flag whose values are among allowed, in
// any case (foldChoices checks and folds them): its usage lists them after
// what, and the shell completes them.
func choicesFlag(cmd *cobra.Command, values *[]string, flag, what, placeholder string, allowed []string) {
	cmd.Flags().StringSliceVar(values, flag, nil, what+" (`"+placeholder+"`, repeat or comma-separate; any case): "+joinComma(allowed))
	completeChoices(cmd, flag, allowed)
}

func completeChoices(cmd *cobra.Command, flag string, allowed []string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return allowed, cobra.ShellCompDirectiveNoFileComp
	})
}

// signedAmount writes an amount with its sign from the side: + credit,
// - debit.
func signedAmount(side, value, currency string) string {
	if value == "" {
		return ""
	}
	sign := ""
	switch side {
	case "Credit":
		sign = "+"
	case "Debit":
		if !strings.HasPrefix(value, "-") {
			sign = "-"
		}
	}
	return strings.TrimSpace(sign + value + " " + currency)
}

// day writes a time as a UTC date; "" for the zero time.
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

// stamp writes a time in UTC to the minute; "" for the zero time.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// stampSeconds writes a time in UTC to the second: the event log, where
// a minute holds many entries.
func stampSeconds(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// localTime writes t in the local time zone to the second, with the
// zone's name: a time without one is ambiguous on a server in UTC.
func localTime(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05 MST") }

// localClock writes t's time of day in the local time zone, with the
// zone's name: the end of a wait, which is never days away.
func localClock(t time.Time) string { return t.Local().Format("15:04:05 MST") }

// detailLines writes "label  value" lines aligned on the longest label;
// empty values become "-".
func detailLines(lines [][2]string) string {
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
		fmt.Fprintf(&b, "%-*s  %s\n", width, l[0], v)
	}
	return b.String()
}

// marks writes, for each of set, its letter of letters when it holds and a
// dot when not, space-separated: marks("VBP", true, false, true) is
// "V · P". letters are ASCII, one per value.
func marks(letters string, set ...bool) string {
	var b strings.Builder
	for i, ok := range set {
		if i > 0 {
			b.WriteByte(' ')
		}
		if ok {
			b.WriteByte(letters[i])
		} else {
			b.WriteString("·")
		}
	}
	return b.String()
}

func joinComma(values []string) string { return strings.Join(values, ", ") }

// accountFlag adds --account, completed with the token's accounts.
func accountFlag(f *Factory, cmd *cobra.Command, id *string, usage string) {
	cmd.Flags().StringVar(id, "account", "", usage)
	_ = cmd.RegisterFlagCompletionFunc("account", f.completeAccountIDs)
}
