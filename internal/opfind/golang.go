package opfind

import "unicode/utf8"

// scanGo finds Go's string literals: interpreted "…" (escapes decoded)
// and raw `…`; comments and rune literals are stepped over.
func scanGo(t string) []*literal {
	var lits []*literal
	add := func(start, end int, parts []part) {
		tagged, name := context(t, start, false)
		lits = append(lits, &literal{start: start, end: end, parts: parts, tagged: tagged, name: name})
	}
	for i := 0; i < len(t); {
		if next, ok := skipComment(t, i); ok {
			i = next
			continue
		}
		c := t[i]
		switch {
		case c == '\'':
			i = skipGoRune(t, i)
		case c == '`':
			end := indexFrom(t, "`", i+1)
			if end < 0 {
				return lits
			}
			var d decoder
			for j := i + 1; j < end; {
				r, w := utf8.DecodeRuneInString(t[j:])
				if r != '\r' { // a raw string drops carriage returns
					d.add(r, j)
				}
				j += w
			}
			add(i, end+1, d.done())
			i = end + 1
		case c == '"':
			var d decoder
			j := i + 1
			for j < len(t) && t[j] != '"' && t[j] != '\n' {
				if t[j] == '\\' {
					j = goEscape(t, j, &d)
					continue
				}
				r, w := utf8.DecodeRuneInString(t[j:])
				d.add(r, j)
				j += w
			}
			if j < len(t) && t[j] == '"' {
				add(i, j+1, d.done())
				j++
			}
			i = j
		default:
			i++
		}
	}
	return lits
}

// skipGoRune steps over a rune literal ('x', '\n', '\”, '"', '`').
func skipGoRune(t string, i int) int {
	j := i + 1
	for j < len(t) && t[j] != '\'' && t[j] != '\n' {
		if t[j] == '\\' {
			j++
		}
		j++
	}
	return min(j+1, len(t))
}

// goEscape decodes the escape at t[j] into d; it returns the index past
// it. A mistake (Go refuses it) is read as the character escaped.
func goEscape(t string, j int, d *decoder) int {
	if next, ok := commonEscape(t, j, d); ok {
		return next
	}
	if j+1 >= len(t) {
		return j + 1
	}
	r, w := utf8.DecodeRuneInString(t[j+1:])
	d.add(r, j)
	return j + 1 + w
}
