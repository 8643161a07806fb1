// Package safetexttest holds, for tests, the hostile strings the terminal
// sanitiser (internal/safetext) is tested with and the check that a text
// is clean of them, so that every surface that writes to a terminal is fed
// the same payloads, as httptest serves net/http's tests.
package safetexttest

import (
	"strings"
	"testing"
	"unicode"
)

// Payloads are strings that would move the cursor, clear or retitle the
// terminal, write its clipboard, open a control string, reorder what is
// read or carry invalid UTF-8, were they written as they are.
func Payloads() []string {
	return []string{
		"\x1b[2J\x1b[HCleared",                             // CSI erase + cursor home
		"up\x1b[5Aand\x1b[10;20Hmoved",                     // cursor moves
		"\x1b]0;owned title\x07Acme",                       // OSC 0 retitle (BEL)
		"\x1b]0;owned\x1b\\Acme",                           // OSC 0 retitle (ST)
		"\x1b]52;c;cm0gLXJmIH4=\x07Acme",                   // OSC 52 clipboard write
		"\x1bP1$qm\x1b\\Acme",                              // DCS
		"\x1b_apc payload\x1b\\Acme",                       // APC
		"bare\x1b escape",                                  // lone ESC
		"c1\u009b31mcsi",                                   // C1 CSI with its parameters
		"c1 \u009d0;t\u009c osc",                           // C1 OSC … ST
		"tab\there\nnew\rline",                             // whitespace controls
		"nul\x00bell\x07del\x7fbs\x08",                     // C0 and DEL
		"pay\u202eevil\u202c.exe",                          // bidi override
		"trailing\x1b",                                     // ESC at the very end
		"bad\xffutf8",                                      // invalid UTF-8
		"\u0085next line",                                  // NEL
		"\x1b[38;2;255;0;0mred\x1b[0m text",                // SGR
		"\x1b[?1049h\x1b[?25lalt screen",                   // private modes
		"link \x1b]8;;http://evil\x1b\\here\x1b]8;;\x1b\\", // OSC 8 hyperlink
		"x\x1b]0;t\x07\u009b2J\u202ey",                     // retitle, C1 CSI and bidi at once
		"\x1b]0;pwn\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\u009b1;1H\x1bPdcs\x1b\\\x1b_apc\x1b\\\tname\x7f\x00\u202e",
	}
}

// AssertClean fails t when s holds a control character (an escape, C0 or
// C1, DEL), a bidi control or anything not printable.
func AssertClean(t testing.TB, s string) {
	t.Helper()
	for _, r := range s {
		if r == 0x1b || r == 0x9b || r == 0x7f || (r < 0x20) || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f {
			t.Errorf("%q still contains control %U", s, r)
			return
		}
		if !unicode.IsPrint(r) && r != ' ' && r != '\uFFFD' {
			t.Errorf("%q contains non-printable %U", s, r)
			return
		}
	}
}

// AssertCleanLines is AssertClean for text of several lines: each line
// clean, the line ends (\n) allowed.
func AssertCleanLines(t testing.TB, s string) {
	t.Helper()
	for line := range strings.SplitSeq(s, "\n") {
		AssertClean(t, line)
	}
}
