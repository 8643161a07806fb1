// Package suggest finds, among the names a value may take, those a
// mistyped one was meant to be: the did-you-mean of every usage error
// that is not cobra's own (an enum value, an event type, a scenario's
// name). A leaf.
package suggest

import (
	"slices"
	"strings"
)

// Closest returns up to n of known nearest to v (case aside), nearest
// first: those a typing mistake away (Distance at most a third of v's
// length, and 3), else those that start with v, else those that hold it
// (CardOut: CardOutDebit, CardOutCredit…).
func Closest(v string, known []string, n int) []string {
	lv := strings.ToLower(v)
	limit := min(3, max(1, len(lv)/3))
	type scored struct {
		s string
		d int
	}
	var near []scored
	for _, k := range known {
		if d := Distance(lv, k); d <= limit {
			near = append(near, scored{k, d})
		}
	}
	for _, match := range []func(k, v string) bool{strings.HasPrefix, strings.Contains} {
		if len(near) > 0 || lv == "" {
			break
		}
		for _, k := range known {
			if match(strings.ToLower(k), lv) {
				near = append(near, scored{k, len(k)})
			}
		}
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, min(n, len(near)))
	for _, s := range near[:min(n, len(near))] {
		out = append(out, s.s)
	}
	return out
}

// Fold returns the name of known that v is, case aside (booked for
// Booked), and whether there is one: names that differ only by case are
// never distinct values of the platform's.
func Fold(v string, known []string) (string, bool) {
	for _, k := range known {
		if strings.EqualFold(k, v) {
			return k, true
		}
	}
	return "", false
}

// JoinOr writes "a", "a or b", "a, b or c".
func JoinOr(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// Distance is the number of edits between a and b, case aside: a letter
// added, removed or changed, or two neighbours swapped (frist is one edit
// from first, as a person counts it).
func Distance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	// d[i][j]: the distance between x[:i] and y[:j].
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// Typo reports whether typed is a typing mistake of name: at most one
// edit (Distance) per three letters typed, and at least one. --csv is not
// --env: two of its three letters are wrong.
func Typo(typed, name string) bool {
	d := Distance(typed, name)
	return d > 0 && d <= max(1, len([]rune(typed))/3)
}
