package opfind

import (
	"strings"
	"unicode/utf8"
)

// scanPython finds Python's string literals, their prefixes (r, b, u, f
// and their pairs) and triple quotes understood; comments are stepped
// over. An f-string's {expr} is an interpolation and {{ }} a brace, and so
// in any string that holds {{, which can only be a str.format template
// (GraphQL never has two braces in a row).
func scanPython(t string) []*literal {
	var lits []*literal
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '#':
			for i < len(t) && t[i] != '\n' {
				i++
			}
		case c == '\'' || c == '"':
			lit, end := pyString(t, i, i, "")
			if lit != nil {
				lits = append(lits, lit)
			}
			i = end
		case isIdentByte(c):
			j := i
			for j < len(t) && isIdentByte(t[j]) {
				j++
			}
			if j < len(t) && (t[j] == '\'' || t[j] == '"') && pyPrefix(t[i:j]) {
				lit, end := pyString(t, i, j, strings.ToLower(t[i:j]))
				if lit != nil {
					lits = append(lits, lit)
				}
				i = end
				continue
			}
			i = j
		default:
			i++
		}
	}
	return lits
}

func pyPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "f", "b", "br", "rb", "fr", "rf", "t", "tr", "rt":
		return true
	}
	return false
}

// pyString reads the string whose prefix starts at start and whose quote
// is at q; it returns the literal (nil when it does not close) and the
// index past it.
func pyString(t string, start, q int, prefix string) (*literal, int) {
	quote := t[q : q+1]
	if strings.HasPrefix(t[q:], strings.Repeat(quote, 3)) {
		quote = strings.Repeat(quote, 3)
	}
	raw := strings.Contains(prefix, "r")
	var d decoder
	j := q + len(quote)
	for {
		if j >= len(t) {
			return nil, j
		}
		if strings.HasPrefix(t[j:], quote) {
			break
		}
		c := t[j]
		switch {
		case (c == '\n' || c == '\r') && len(quote) == 1:
			return nil, j // unterminated on its line
		case c == '\\' && raw:
			// A raw string keeps the backslash, and the quote after it.
			d.add('\\', j)
			if j+1 < len(t) {
				r, w := utf8.DecodeRuneInString(t[j+1:])
				d.add(r, j+1)
				j += 1 + w
			} else {
				j++
			}
		case c == '\\':
			j = pyEscape(t, j, &d)
		default:
			r, w := utf8.DecodeRuneInString(t[j:])
			d.add(r, j)
			j += w
		}
	}
	end := j + len(quote)
	parts := d.done()
	if strings.ContainsAny(prefix, "ft") || holdsDoubleBrace(parts) {
		parts = pyBraces(parts)
	}
	tagged, name := context(t, start, false)
	if !tagged {
		tagged = languageComment(t, start)
	}
	return &literal{start: start, end: end, parts: parts, tagged: tagged, name: name}, end
}

// languageComment: the line before start is the comment JetBrains IDEs
// use to mark a string's language: # language=graphql.
func languageComment(t string, start int) bool {
	lineStart := strings.LastIndexByte(t[:start], '\n')
	if lineStart < 0 {
		return false
	}
	prev := t[:lineStart]
	line := strings.TrimSpace(prev[strings.LastIndexByte(prev, '\n')+1:])
	return strings.EqualFold(strings.ReplaceAll(line, " ", ""), "#language=graphql")
}

func holdsDoubleBrace(parts []part) bool {
	for _, p := range parts {
		for i := 1; i < len(p.text); i++ {
			if p.text[i] == '{' && p.text[i-1] == '{' {
				return true
			}
		}
	}
	return false
}

// pyBraces reads a format string's braces: {{ and }} are one brace, and
// {expr} an interpolation (up to its closing brace, nested ones counted).
func pyBraces(parts []part) []part {
	var d decoder
	for _, p := range parts { // a decoded string is one text part
		text, origin := p.text, p.origin
		for i := 0; i < len(text); i++ {
			r := text[i]
			switch {
			case (r == '{' || r == '}') && i+1 < len(text) && text[i+1] == r:
				d.add(r, int(origin[i]))
				i++
			case r == '{':
				depth, j := 1, i+1
				for ; j < len(text) && depth > 0; j++ {
					switch text[j] {
					case '{':
						depth++
					case '}':
						depth--
					}
				}
				expr := string(text[i+1 : max(i+1, j-1)])
				if k := strings.IndexAny(expr, "!:="); k >= 0 {
					expr = expr[:k] // a conversion or a format spec
				}
				d.interp(expr, int(origin[i]))
				i = j - 1
			default:
				d.add(r, int(origin[i]))
			}
		}
	}
	return d.done()
}

// pyEscape decodes the escape at t[j] into d; it returns the index past
// it. A backslash before a line break continues the line; an escape
// Python does not know keeps its backslash.
func pyEscape(t string, j int, d *decoder) int {
	if next, ok := commonEscape(t, j, d); ok {
		return next
	}
	if j+1 >= len(t) {
		return j + 1
	}
	switch t[j+1] {
	case '\n':
		return j + 2
	case '\r':
		if j+2 < len(t) && t[j+2] == '\n' {
			return j + 3
		}
		return j + 2
	}
	d.add('\\', j)
	r, w := utf8.DecodeRuneInString(t[j+1:])
	d.add(r, j+1)
	return j + 1 + w
}
