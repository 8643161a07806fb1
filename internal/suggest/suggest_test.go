package suggest

import (
	"slices"
	"testing"
)

func TestDistanceCountsASwapAsOneEdit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"first", "first", 0}, {"frist", "first", 1}, {"evn", "env", 1}, {"acount", "account", 1},
		{"csv", "env", 2}, {"Booked", "booked", 0}, {"", "abc", 3}, {"ca", "abc", 3},
	} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestTypoIsOneEditInThree(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		typed, name string
		typo        bool
	}{
		{"frist", "first", true}, {"evn", "env", true}, {"jsno", "json", true}, {"acount", "account", true},
		{"csv", "env", false}, {"zz", "all", false}, {"first", "first", false}, {"accnt", "account", false},
	} {
		if got := Typo(c.typed, c.name); got != c.typo {
			t.Errorf("Typo(%q, %q) = %v, want %v", c.typed, c.name, got, c.typo)
		}
	}
}

func TestClosestFindsTyposThenPrefixesThenWords(t *testing.T) {
	t.Parallel()
	known := []string{"CardOutDebit", "CardOutCredit", "CardInDebit", "SepaCreditTransferIn", "FeesOut"}
	for _, c := range []struct {
		v    string
		want []string
	}{
		{"CardOutDebt", []string{"CardOutDebit"}},
		{"cardout", []string{"CardOutDebit", "CardOutCredit"}},
		{"Transfer", []string{"SepaCreditTransferIn"}},
		{"zzz", []string{}},
	} {
		if got := Closest(c.v, known, 3); !slices.Equal(got, c.want) {
			t.Errorf("Closest(%q) = %v, want %v", c.v, got, c.want)
		}
	}
	if k, ok := Fold("cardoutdebit", known); !ok || k != "CardOutDebit" {
		t.Errorf("Fold = %q, %v", k, ok)
	}
	if got := JoinOr([]string{"a", "b", "c"}); got != "a, b or c" {
		t.Errorf("JoinOr = %q", got)
	}
}
