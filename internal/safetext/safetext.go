// Package safetext makes text from a server safe to draw on a terminal. It
// is the one place where that is decided: the API client runs every decoded
// response through StripFields, the sign-in code and the configuration
// quote server and file text through Truncate, and nothing else strips
// again.
package safetext

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Strip makes a server-supplied string safe to draw on a terminal: it
// removes ANSI escape sequences (CSI, OSC, DCS, APC, …), every C0 and C1
// control (whitespace controls become a space so words stay apart), DEL,
// bidirectional overrides (they reorder what the user reads) and invalid
// UTF-8, and keeps all printable Unicode.
func Strip(s string) string {
	if unchanged(s) {
		return s // the common case: no allocation
	}
	return strip(s)
}

func strip(s string) string {
	s = ansi.Strip(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' ||
			r == '\u2028' || r == '\u2029' || r == '\u0085':
			b.WriteByte(' ')
		case r == '\u009b':
			// C1 CSI: drop it with its parameters and final byte, as a
			// terminal honouring 8-bit controls would consume them.
			i = skipCSI(s, i)
		case r == '\u0090' || r == '\u0098' || r == '\u009d' || r == '\u009e' || r == '\u009f':
			// C1 DCS, SOS, OSC, PM, APC: drop through the terminator.
			i = skipString(s, i)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			// C0, DEL, the other C1 controls: dropped.
		case isBidiControl(r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// skipCSI returns the index after a CSI sequence's final byte (0x40-0x7E),
// starting just after the introducer.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 || c > 0x7e {
			return i - 1 // not a CSI byte: stop before it and let the caller judge it
		}
	}
	return i
}

// skipString returns the index after a control string's terminator: ST
// (U+009C or ESC \\) or BEL; an unterminated string runs to the end.
func skipString(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\u009c' || r == '\a':
			return i + size
		case r == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		}
		i += size
	}
	return i
}

// isBidiControl: the embeddings, overrides, isolates and marks that
// reorder what the user reads.
func isBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u200e' || r == '\u200f'
}

// unchanged reports whether Strip would return s as it is: valid UTF-8
// without controls, line separators or bidi controls. Checking first lets
// names with accents, like plain ASCII, go through without an allocation.
func unchanged(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c > 0x7e {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || r <= 0x9f || r == '\u2028' || r == '\u2029' || isBidiControl(r) {
			return false
		}
		i += size
	}
	return true
}

// StripLines is Strip for a text of several lines, such as an error that
// lists one problem a line: each line is stripped, the line ends (\n) are
// kept.
func StripLines(s string) string {
	if unchanged(strings.ReplaceAll(s, "\n", " ")) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Strip(l)
	}
	return strings.Join(lines, "\n")
}

// JSON makes JSON text safe to write to a terminal without changing what
// it says: every rune Strip would drop that JSON may hold raw in a string
// (DEL, the C1 controls, bidi controls, the line and paragraph
// separators) is written as its \u escape instead. encoding/json already
// escapes the C0 controls and replaces invalid UTF-8. For JSON a program
// made (a jq filter's result), whose strings did not come through Strip.
func JSON(b []byte) []byte {
	if unchanged(strings.NewReplacer("\n", " ", "\t", " ", "\r", " ").Replace(string(b))) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u2028' || r == '\u2029' || isBidiControl(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// Truncate strips s and cuts it to max runes, marking the cut with "…":
// for server text quoted inside an error message.
func Truncate(s string, max int) string {
	s = Strip(s)
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// StripFields strips, in place, every string reachable from ptr through
// struct fields, pointers, slices, arrays and map values: a decoded response
// is made safe as a whole, so a field added to a response type later cannot
// be forgotten. ptr must be a pointer; anything else is left alone.
// Exported struct fields are reached; unexported ones, byte slices
// (json.RawMessage is not text on screen) and fields tagged
// `safetext:"raw"` (a secret that must go back to a server byte for byte,
// and is never drawn) are not. A Stripper does the
// same for types it has seen before at a fraction of the cost.
func StripFields(ptr any) {
	var s Stripper
	s.StripFields(ptr)
}

// Stripper is StripFields with a memory: it learns once per type where
// strings can be (which struct fields, element types), so a response's
// walk skips numbers and booleans and reads no struct metadata again.
// The zero value is ready to use; it is safe for concurrent use.
type Stripper struct {
	plans sync.Map // reflect.Type → *plan
}

// StripFields is the package's StripFields.
func (s *Stripper) StripFields(ptr any) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	s.plan(v.Type()).strip(s, v)
}

// plan is how to strip a value of one type.
type plan struct {
	kind reflect.Kind
	// none: no string can be reached from a value of this type.
	none   bool
	elem   *plan       // of a pointer, slice, array or map value
	fields []fieldPlan // of a struct: its exported fields that can hold strings
}

type fieldPlan struct {
	index int
	plan  *plan
}

func (s *Stripper) plan(t reflect.Type) *plan {
	if p, ok := s.plans.Load(t); ok {
		return p.(*plan)
	}
	seen := make(map[reflect.Type]*plan)
	p := buildPlan(t, seen)
	// Concurrent builders store complete plans of their own: whichever
	// lands is as good as the other.
	for t, q := range seen {
		s.plans.LoadOrStore(t, q)
	}
	return p
}

// buildPlan plans t. seen holds the plans under construction, so a
// recursive type refers to itself; one still being built counts as
// holding strings, which at worst walks a value that holds none.
func buildPlan(t reflect.Type, seen map[reflect.Type]*plan) *plan {
	if p, ok := seen[t]; ok {
		return p
	}
	p := &plan{kind: t.Kind()}
	seen[t] = p
	switch t.Kind() {
	case reflect.String, reflect.Interface:
	case reflect.Pointer, reflect.Map:
		p.elem = buildPlan(t.Elem(), seen)
		p.none = p.elem.none
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			p.none = true
			break
		}
		p.elem = buildPlan(t.Elem(), seen)
		p.none = p.elem.none
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("safetext") == "raw" {
				continue
			}
			if fp := buildPlan(f.Type, seen); !fp.none {
				p.fields = append(p.fields, fieldPlan{index: i, plan: fp})
			}
		}
		p.none = len(p.fields) == 0
	default:
		p.none = true
	}
	return p
}

func (p *plan) strip(s *Stripper, v reflect.Value) {
	if p.none {
		return
	}
	switch p.kind {
	case reflect.String:
		if v.CanSet() {
			if str := v.String(); !unchanged(str) {
				v.SetString(strip(str))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			p.elem.strip(s, v.Elem())
		}
	case reflect.Interface:
		// What an interface holds is not addressable: strip a copy and put
		// it back (decoded JSON keeps strings in map[string]any).
		if v.IsNil() || !v.CanSet() {
			return
		}
		c := reflect.New(v.Elem().Type()).Elem()
		c.Set(v.Elem())
		s.plan(c.Type()).strip(s, c)
		v.Set(c)
	case reflect.Struct:
		for _, f := range p.fields {
			f.plan.strip(s, v.Field(f.index))
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			p.elem.strip(s, v.Index(i))
		}
	case reflect.Map:
		if p.elem.kind == reflect.String {
			for _, k := range v.MapKeys() {
				if str := v.MapIndex(k).String(); !unchanged(str) {
					v.SetMapIndex(k, reflect.ValueOf(strip(str)).Convert(v.Type().Elem()))
				}
			}
			return
		}
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			// Map values are not addressable: strip a copy and put it back.
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			p.elem.strip(s, c)
			v.SetMapIndex(k, c)
		}
	}
}
