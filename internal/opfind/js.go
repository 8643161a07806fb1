package opfind

import (
	"strings"
	"unicode/utf8"
)

// jsScanner reads JavaScript and TypeScript (JSX included) far enough to
// find its string literals and template literals: comments, regular
// expressions and the code inside ${…} are stepped over, not parsed. A
// quote that does not close on its line (an apostrophe in JSX text) ends
// there, so a misreading never runs past one line.
type jsScanner struct {
	t    string
	lits []*literal
	// regexOK: a / here starts a regular expression, not a division (the
	// previous token is an operator, a keyword or nothing).
	regexOK bool
	depth   int // templates open inside ${…}
}

// maxTemplateDepth bounds templates nested in templates' ${…}: past it
// the rest of the file is not read (no stack grows with the input).
const maxTemplateDepth = 64

func scanJS(t string) []*literal {
	s := &jsScanner{t: t, regexOK: true}
	s.code(0, false)
	return s.lits
}

// regexKeywords are the keywords after which / starts a regular
// expression.
func regexKeyword(w string) bool {
	switch w {
	case "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await":
		return true
	}
	return false
}

// code steps over code from i; nested, it ends after the } that closes a
// ${ and returns the index past it.
func (s *jsScanner) code(i int, nested bool) int {
	t := s.t
	depth := 0
	for i < len(t) {
		c := t[i]
		if next, ok := skipComment(t, i); ok {
			i = next
			continue
		}
		switch {
		case c == '\'' || c == '"':
			i = s.str(i, c)
			s.regexOK = false
		case c == '`':
			i = s.template(i)
			s.regexOK = false
		case c == '/':
			if s.regexOK {
				i = s.regex(i)
				s.regexOK = false
			} else {
				i++
				s.regexOK = true
			}
		case c == '{' || c == '(' || c == '[':
			if c == '{' {
				depth++
			}
			i++
			s.regexOK = true
		case c == '}':
			if nested && depth == 0 {
				return i + 1
			}
			depth--
			i++
			s.regexOK = false
		case c == ')' || c == ']':
			i++
			s.regexOK = false
		case isIdentByte(c):
			j := i
			for j < len(t) && isIdentByte(t[j]) {
				j++
			}
			s.regexOK = regexKeyword(t[i:j])
			i = j
		case isSpace(c):
			i++
		default:
			i++
			s.regexOK = true
		}
	}
	return i
}

// skipComment steps over the // or /* */ comment at t[i], as C, Go and
// JavaScript write them; ok is false when there is none. An unclosed one
// runs to the end.
func skipComment(t string, i int) (next int, ok bool) {
	if t[i] != '/' || i+1 >= len(t) {
		return i, false
	}
	switch t[i+1] {
	case '/':
		for i < len(t) && t[i] != '\n' {
			i++
		}
		return i, true
	case '*':
		end := indexFrom(t, "*/", i+2)
		if end < 0 {
			return len(t), true
		}
		return end + 2, true
	}
	return i, false
}

func indexFrom(t, sub string, from int) int {
	if from > len(t) {
		return -1
	}
	j := strings.Index(t[from:], sub)
	if j < 0 {
		return -1
	}
	return from + j
}

// regex steps over a regular expression literal (its class brackets may
// hold a /), ending at the line's end if it does not close.
func (s *jsScanner) regex(i int) int {
	t := s.t
	inClass := false
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				j++
				for j < len(t) && isIdentByte(t[j]) {
					j++
				}
				return j
			}
		case '\n', '\r':
			return j
		}
	}
	return len(t)
}

// str reads a '…' or "…" literal.
func (s *jsScanner) str(i int, q byte) int {
	t := s.t
	var d decoder
	j := i + 1
	for j < len(t) {
		c := t[j]
		switch {
		case c == q:
			s.add(i, j+1, d.done(), false)
			return j + 1
		case c == '\n' || c == '\r':
			return j // unterminated on its line: not a literal
		case c == '\\':
			j = jsEscape(t, j, &d)
		default:
			r, w := utf8.DecodeRuneInString(t[j:])
			d.add(r, j)
			j += w
		}
	}
	return j
}

// template reads a `…` literal, with its ${…} interpolations.
func (s *jsScanner) template(i int) int {
	t := s.t
	if s.depth >= maxTemplateDepth {
		return len(t)
	}
	s.depth++
	defer func() { s.depth-- }()
	var d decoder
	j := i + 1
	for j < len(t) {
		c := t[j]
		switch {
		case c == '`':
			s.add(i, j+1, d.done(), true)
			return j + 1
		case c == '\\':
			j = jsEscape(t, j, &d)
		case c == '$' && j+1 < len(t) && t[j+1] == '{':
			s.regexOK = true
			end := s.code(j+2, true)
			expr := t[j+2 : max(j+2, end-1)]
			d.interp(expr, j)
			j = end
			s.regexOK = false
		default:
			r, w := utf8.DecodeRuneInString(t[j:])
			d.add(r, j)
			j += w
		}
	}
	return j // unterminated: not a literal
}

func (s *jsScanner) add(start, end int, parts []part, template bool) {
	tagged, name := context(s.t, start, template)
	s.lits = append(s.lits, &literal{start: start, end: end, parts: parts, tagged: tagged, name: name})
}

// jsEscape decodes the escape at t[j] (a backslash) into d and returns the
// index past it.
func jsEscape(t string, j int, d *decoder) int {
	if j+1 >= len(t) {
		return j + 1
	}
	n := t[j+1]
	switch n {
	case 'n':
		d.add('\n', j)
	case 't':
		d.add('\t', j)
	case 'r':
		d.add('\r', j)
	case 'b':
		d.add('\b', j)
	case 'f':
		d.add('\f', j)
	case 'v':
		d.add('\v', j)
	case '0':
		d.add(0, j)
	case '\n':
		// a line continuation: nothing
	case '\r':
		if j+2 < len(t) && t[j+2] == '\n' {
			return j + 3
		}
	case 'x':
		if v, ok := hexValue(t, j+2, 2); ok {
			d.add(v, j)
			return j + 4
		}
		d.add('x', j)
	case 'u':
		if j+2 < len(t) && t[j+2] == '{' {
			end := indexFrom(t, "}", j+3)
			if end > 0 && end-(j+3) <= 6 {
				if v, ok := hexValue(t, j+3, end-(j+3)); ok {
					d.add(v, j)
					return end + 1
				}
			}
		} else if v, ok := hexValue(t, j+2, 4); ok {
			d.add(v, j)
			return j + 6
		}
		d.add('u', j)
	default:
		r, w := utf8.DecodeRuneInString(t[j+1:])
		d.add(r, j)
		return j + 1 + w
	}
	return j + 2
}
