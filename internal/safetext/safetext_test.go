package safetext

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode"
)

func TestStripHostileStrings(t *testing.T) {
	t.Parallel()
	for _, tc := range HostileSamples() {
		got := Strip(tc.In)
		if got != tc.Want {
			t.Errorf("Strip(%q) = %q, want %q", tc.In, got, tc.Want)
		}
		AssertClean(t, got)
	}
}

// AssertClean fails t when s still holds a control character, an escape or
// a bidi override.
func AssertClean(t testing.TB, s string) {
	t.Helper()
	if r, dirty := Dirty(s); dirty {
		t.Errorf("%q still contains control %U", s, r)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' && r != '\uFFFD' {
			t.Errorf("%q contains non-printable %U", s, r)
		}
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	if got := Truncate("a\x1b[2Jb\nc\u202ed", 100); got != "ab cd" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate("abcdef", 3); got != "abc…" {
		t.Errorf("Truncate = %q", got)
	}
}

const hostile = "\x1b]0;pwn\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\u009b1;1H\x1bPdcs\x1b\\\x1b_apc\x1b\\\tname\x7f\x00\u202e"

type strippedInner struct {
	S   string
	P   *string
	Raw []byte
}

type strippedOuter struct {
	A     string
	In    strippedInner
	Ptr   *strippedInner
	List  []strippedInner
	Arr   [2]string
	M     map[string]string
	Any   any
	Named []string
	N     int
	low   string
}

func hostileValue() *strippedOuter {
	h := hostile
	return &strippedOuter{
		A: hostile, In: strippedInner{S: hostile, P: &h, Raw: []byte(hostile)},
		Ptr:   &strippedInner{S: hostile},
		List:  []strippedInner{{S: hostile}, {S: hostile}},
		Arr:   [2]string{hostile, hostile},
		M:     map[string]string{"k": hostile},
		Any:   map[string]any{"x": hostile, "y": []any{hostile}},
		Named: []string{hostile},
		N:     7,
		low:   hostile,
	}
}

func checkStripped(t *testing.T, v *strippedOuter) {
	t.Helper()
	for _, s := range []string{v.A, v.In.S, *v.In.P, v.Ptr.S, v.List[0].S, v.List[1].S, v.Arr[0], v.Arr[1], v.M["k"], v.Named[0],
		v.Any.(map[string]any)["x"].(string), v.Any.(map[string]any)["y"].([]any)[0].(string)} {
		if s != " name" {
			t.Errorf("a field holds %q after StripFields, want %q", s, " name")
		}
	}
	if string(v.In.Raw) != hostile {
		t.Error("raw bytes were changed; they are not text")
	}
	if v.low != hostile {
		t.Error("an unexported field was changed")
	}
	if v.N != 7 {
		t.Error("a number was changed")
	}
}

func TestStripFieldsReachesEveryString(t *testing.T) {
	t.Parallel()
	v := hostileValue()
	StripFields(v)
	checkStripped(t, v)
	StripFields(nil)             // no panic
	StripFields(strippedOuter{}) // not a pointer: left alone
	StripFields((*strippedOuter)(nil))
}

func TestStripperRemembersEachTypesPlan(t *testing.T) {
	t.Parallel()
	var s Stripper
	for range 2 { // the second walk follows the plan the first one made
		v := hostileValue()
		s.StripFields(v)
		checkStripped(t, v)
	}

	// A type that refers to itself is planned once and walked to the end.
	type node struct {
		Name string
		Next *node
		Kids []node
		ID   int
	}
	n := &node{Name: hostile, Next: &node{Name: hostile, Next: &node{Name: hostile}}, Kids: []node{{Name: hostile, Kids: []node{{Name: hostile}}}}}
	s.StripFields(n)
	for _, got := range []string{n.Name, n.Next.Name, n.Next.Next.Name, n.Kids[0].Name, n.Kids[0].Kids[0].Name} {
		if got != " name" {
			t.Errorf("a node's name is %q", got)
		}
	}

	type numbers struct {
		A, B int
		C    []float64
		D    *bool
	}
	if p := s.plan(reflect.TypeFor[*numbers]()); !p.none {
		t.Error("a type without strings is walked")
	}
	s.StripFields(&numbers{A: 1, C: []float64{2}})
}

func TestStripperIsSafeForConcurrentUse(t *testing.T) {
	t.Parallel()
	var s Stripper
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			v := hostileValue()
			s.StripFields(v)
			checkStripped(t, v)
		})
	}
	wg.Wait()
}

// TestStripFastPathDoesNotAllocate is not parallel: testing.AllocsPerRun
// counts the process's allocations, other tests' included.
func TestStripFastPathDoesNotAllocate(t *testing.T) {
	for _, s := range []string{"Compte courant FR76 3000 6000 0112 3456 7890 189", "Zoë Œuvre 東京 🏦 Müller"} {
		if n := testing.AllocsPerRun(100, func() { _ = Strip(s) }); n != 0 {
			t.Errorf("Strip(%q) allocates %v times", s, n)
		}
	}
}

// TestUnchangedAgreesWithStrip checks every rune the fast path lets
// through: stripping runs of them changes nothing.
func TestUnchangedAgreesWithStrip(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	check := func() {
		if s := b.String(); s != "" && strip(s) != s {
			t.Errorf("unchanged lets through %q, which Strip changes to %q", s, strip(s))
		}
		b.Reset()
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue // surrogates are not runes of a UTF-8 string
		}
		if s := string(r); unchanged(s) {
			b.WriteString(s)
			if b.Len() >= 512 {
				check()
			}
		}
	}
	check()
	for _, s := range []string{"bad\xffutf8", "line\u2028sep", "\u00a0\u0085", "a\u200fb", "tab\t"} {
		if unchanged(s) {
			t.Errorf("unchanged(%q) is true; Strip changes it to %q", s, Strip(s))
		}
	}
}

func BenchmarkStrip(b *testing.B) {
	for _, in := range []string{"Compte courant de Marie Dupont", hostile + "Zoë"} {
		b.Run(strings.ToValidUTF8(in[:4], "?"), func(b *testing.B) {
			for b.Loop() {
				_ = Strip(in)
			}
		})
	}
}

// BenchmarkStripFields strips a page of a hundred accounts whose names
// need no change, as most do: the walk is the whole cost.
func BenchmarkStripFields(b *testing.B) {
	type amount struct{ Value, Currency string }
	type account struct {
		ID, Name, BIC, Currency string
		IBAN                    *string
		StatusInfo              struct{ Status string }
		Holder                  struct{ Info struct{ Name string } }
		Balances                *struct{ Available amount }
		TotalCount              int
	}
	page := &struct {
		Edges []struct{ Node account }
	}{Edges: make([]struct{ Node account }, 100)}
	for i := range page.Edges {
		iban := "FR7630006000011234567890189"
		page.Edges[i].Node = account{ID: "acc", Name: "Zoë Müller", BIC: "SWNBFR22", Currency: "EUR", IBAN: &iban,
			Balances: &struct{ Available amount }{amount{"1.00", "EUR"}}}
	}
	b.Run("StripFields", func(b *testing.B) {
		for b.Loop() {
			StripFields(page)
		}
	})
	b.Run("Stripper", func(b *testing.B) {
		var s Stripper
		for b.Loop() {
			s.StripFields(page)
		}
	})
}
