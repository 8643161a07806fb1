package api

import (
	"reflect"
	"strings"
	"testing"
	"unicode"
)

func TestSanitizeHostileStrings(t *testing.T) {
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
	}
	for _, tc := range cases {
		got := Sanitize(tc.in)
		if got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		assertClean(t, got)
	}
}

func assertClean(t *testing.T, s string) {
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

const hostile = "\x1b]0;pwn\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\u009b1;1H\x1bPdcs\x1b\\\x1b_apc\x1b\\\tname\x7f\x00\u202e"

// fillStrings sets every string field reachable from v (a pointer) to s,
// allocating nil struct pointers on the way.
func fillStrings(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(v.Elem(), s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillStrings(v.Field(i), s)
			}
		}
	case reflect.String:
		v.SetString(s)
	}
}

func checkStrings(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			checkStrings(t, path, v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				checkStrings(t, path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	case reflect.String:
		if v.String() != " name" { // the tab became a space; everything else went
			t.Errorf("%s = %q after sanitising, want %q", path, v.String(), " name")
		}
	}
}

// TestSanitizeCoversEveryField fails when a string field is added to a type
// without being added to its sanitize function.
func TestSanitizeCoversEveryField(t *testing.T) {
	checkSanitizes(t, "Account", sanitizeAccount)
	checkSanitizes(t, "User", sanitizeUser)
	checkSanitizes(t, "ProjectInfo", sanitizeProjectInfo)
	checkSanitizes(t, "Transaction", sanitizeTransaction)
	checkSanitizes(t, "PageInfo", sanitizePageInfo)
}

// checkSanitizes fills every string field of a T with hostile text and
// checks that sanitize leaves only the printable remainder in each.
func checkSanitizes[T any](t *testing.T, name string, sanitize func(*T)) {
	t.Helper()
	var v T
	fillStrings(reflect.ValueOf(&v), hostile)
	sanitize(&v)
	checkStrings(t, name, reflect.ValueOf(v))
}

func TestSanitizeFastPathDoesNotAllocate(t *testing.T) {
	s := "Compte courant FR76 3000 6000 0112 3456 7890 189"
	if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
		t.Errorf("Sanitize of printable ASCII allocates %v times", n)
	}
}

func BenchmarkSanitize(b *testing.B) {
	for _, in := range []string{"Compte courant de Marie Dupont", hostile + "Zoë"} {
		b.Run(strings.ToValidUTF8(in[:4], "?"), func(b *testing.B) {
			for b.Loop() {
				_ = Sanitize(in)
			}
		})
	}
}
