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
		c := t[i]
		switch {
		case c == '/' && i+1 < len(t) && t[i+1] == '/':
			for i < len(t) && t[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(t) && t[i+1] == '*':
			end := indexFrom(t, "*/", i+2)
			if end < 0 {
				return lits
			}
			i = end + 2
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

// goEscape decodes the escape at t[j] into d; it returns the index past it.
func goEscape(t string, j int, d *decoder) int {
	if j+1 >= len(t) {
		return j + 1
	}
	n := t[j+1]
	width := 0
	switch n {
	case 'a':
		d.add('\a', j)
	case 'b':
		d.add('\b', j)
	case 'f':
		d.add('\f', j)
	case 'n':
		d.add('\n', j)
	case 'r':
		d.add('\r', j)
	case 't':
		d.add('\t', j)
	case 'v':
		d.add('\v', j)
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := rune(0)
		k := j + 1
		for ; k < j+4 && k < len(t) && t[k] >= '0' && t[k] <= '7'; k++ {
			v = v*8 + rune(t[k]-'0')
		}
		d.add(v, j)
		return k
	default: // \\, \", \' and mistakes: the character itself
		r, w := utf8.DecodeRuneInString(t[j+1:])
		d.add(r, j)
		return j + 1 + w
	}
	if width > 0 {
		if v, ok := hexValue(t, j+2, width); ok {
			d.add(v, j)
			return j + 2 + width
		}
		d.add(rune(n), j)
	}
	return j + 2
}
