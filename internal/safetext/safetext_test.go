package safetext

import (
	"strings"
	"testing"
	"unicode"
)

func TestStripHostileStrings(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"Zoë Œuvre 東京 🏦", "Zoë Œuvre 東京 🏦"},
		{"\x1b[2J\x1b[HCleared", "Cleared"},                               // CSI erase + cursor home
		{"up\x1b[5Aand\x1b[10;20Hmoved", "upandmoved"},                    // cursor moves
		{"\x1b]0;owned title\x07Acme", "Acme"},                            // OSC 0 retitle (BEL)
		{"\x1b]0;owned\x1b\\Acme", "Acme"},                                // OSC 0 retitle (ST)
		{"\x1b]52;c;cm0gLXJmIH4=\x07Acme", "Acme"},                        // OSC 52 clipboard write
		{"\x1bP1$qm\x1b\\Acme", "Acme"},                                   // DCS
		{"\x1b_apc payload\x1b\\Acme", "Acme"},                            // APC
		{"bare\x1b escape", "barescape"},                                  // lone ESC: ESC SP e is itself a sequence
		{"c1\u009b31mcsi", "c1csi"},                                       // C1 CSI with its parameters
		{"c1 \u009d0;t\u009c osc", "c1  osc"},                             // C1 OSC … ST
		{"tab\there\nnew\rline", "tab here new line"},                     // whitespace controls → space
		{"nul\x00bell\x07del\x7fbs\x08", "nulbelldelbs"},                  // C0 and DEL
		{"pay\u202eevil\u202c.exe", "payevil.exe"},                        // bidi override
		{"trailing\x1b", "trailing"},                                      // ESC at the very end
		{"bad\xffutf8", "badutf8"},                                        // invalid UTF-8
		{"\u0085next line", " next line"},                                 // NEL
		{"\x1b[38;2;255;0;0mred\x1b[0m text", "red text"},                 // SGR
		{"\x1b[?1049h\x1b[?25lalt screen", "alt screen"},                  // private modes
		{"link \x1b]8;;http://evil\x1b\\here\x1b]8;;\x1b\\", "link here"}, // OSC 8 hyperlink
		{"ACME\x1b[31m red\x1b[0m\x07\nline\u202eevil", "ACME red lineevil"},
	}
	for _, tc := range cases {
		got := Strip(tc.in)
		if got != tc.want {
			t.Errorf("Strip(%q) = %q, want %q", tc.in, got, tc.want)
		}
		AssertClean(t, got)
	}
}

// AssertClean fails t when s still holds a control character, an escape or
// a bidi override.
func AssertClean(t testing.TB, s string) {
	t.Helper()
	for _, r := range s {
		if r == 0x1b || r == 0x9b || r == 0x7f || (r < 0x20) || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%q still contains control %U", s, r)
		}
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

func TestStripFieldsReachesEveryString(t *testing.T) {
	t.Parallel()
	type inner struct {
		S   string
		P   *string
		Raw []byte
	}
	type outer struct {
		A     string
		In    inner
		Ptr   *inner
		List  []inner
		Arr   [2]string
		M     map[string]string
		Any   any
		Named []string
		low   string
	}
	h := hostile
	v := &outer{
		A: hostile, In: inner{S: hostile, P: &h, Raw: []byte(hostile)},
		Ptr:   &inner{S: hostile},
		List:  []inner{{S: hostile}, {S: hostile}},
		Arr:   [2]string{hostile, hostile},
		M:     map[string]string{"k": hostile},
		Any:   map[string]any{"x": hostile, "y": []any{hostile}},
		Named: []string{hostile},
		low:   hostile,
	}
	StripFields(v)
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
	StripFields(nil)     // no panic
	StripFields(outer{}) // not a pointer: left alone
	StripFields((*outer)(nil))
}

func TestStripFastPathDoesNotAllocate(t *testing.T) {
	s := "Compte courant FR76 3000 6000 0112 3456 7890 189"
	if n := testing.AllocsPerRun(100, func() { _ = Strip(s) }); n != 0 {
		t.Errorf("Strip of printable ASCII allocates %v times", n)
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
