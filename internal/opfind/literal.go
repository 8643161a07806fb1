package opfind

import (
	"strings"
)

// literal is a string literal of a source file, decoded: each part is text
// (each rune with the byte offset it came from) or an interpolation.
type literal struct {
	start, end int // the literal's bytes in the file, quotes included
	parts      []part
	tagged     bool   // the code marks it as GraphQL
	name       string // the constant it is assigned to ("" for none)
}

type part struct {
	text   []rune
	origin []int32
	expr   string // an interpolation's expression (text is then empty)
	at     int    // an interpolation's byte offset
	interp bool
}

// decoder accumulates a literal's decoded runes and their origins.
type decoder struct {
	parts []part
	cur   part
}

func (d *decoder) add(r rune, off int) {
	d.cur.text = append(d.cur.text, r)
	d.cur.origin = append(d.cur.origin, int32(off))
}

func (d *decoder) interp(expr string, off int) {
	d.flush()
	d.parts = append(d.parts, part{expr: expr, at: off, interp: true})
}

func (d *decoder) flush() {
	if len(d.cur.text) > 0 {
		d.parts = append(d.parts, d.cur)
	}
	d.cur = part{}
}

func (d *decoder) done() []part {
	d.flush()
	return d.parts
}

// commonEscape decodes, into d, the escape at t[j] (a backslash) if it is
// one Go and Python read alike: \a \b \f \n \r \t \v \\ \' \", up to three
// octal digits, \xhh, \uhhhh and \Uhhhhhhhh. It returns the index past it,
// or ok false for any other escape (each language has its own rule).
func commonEscape(t string, j int, d *decoder) (next int, ok bool) {
	if j+1 >= len(t) {
		return j + 1, false
	}
	n := t[j+1]
	var r rune
	switch n {
	case 'a':
		r = '\a'
	case 'b':
		r = '\b'
	case 'f':
		r = '\f'
	case 'n':
		r = '\n'
	case 'r':
		r = '\r'
	case 't':
		r = '\t'
	case 'v':
		r = '\v'
	case '\\', '\'', '"':
		r = rune(n)
	case 'x', 'u', 'U':
		width := 2
		switch n {
		case 'u':
			width = 4
		case 'U':
			width = 8
		}
		v, ok := hexValue(t, j+2, width)
		if !ok {
			return j, false
		}
		d.add(v, j)
		return j + 2 + width, true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v, k := rune(0), j+1
		for ; k < j+4 && k < len(t) && t[k] >= '0' && t[k] <= '7'; k++ {
			v = v*8 + rune(t[k]-'0')
		}
		d.add(v, j)
		return k, true
	default:
		return j, false
	}
	d.add(r, j)
	return j + 2, true
}

// hexValue reads n hex digits at t[i:]; ok is false when they are not.
func hexValue(t string, i, n int) (rune, bool) {
	if i+n > len(t) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(t[i : i+n]) {
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v*16 + rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v*16 + rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// context reads the code just before a literal starting at start: whether
// it marks the literal as GraphQL (a /* GraphQL */ comment; a gql or
// graphql tag, when tag allows one; a call to gql or graphql), and the
// name of the constant it is assigned to.
func context(t string, start int, tag bool) (tagged bool, name string) {
	i := skipSpaceBack(t, start)
	if strings.HasSuffix(t[:i], "*/") {
		if open := strings.LastIndex(t[:i-2], "/*"); open >= 0 {
			if strings.EqualFold(strings.TrimSpace(t[open+2:i-2]), "graphql") {
				tagged = true
			}
			i = skipSpaceBack(t, open)
		}
	}
	switch {
	case tag && i > 0 && isIdentByte(t[i-1]):
		from, word := identBack(t, i)
		if isGQLName(word) {
			tagged, i = true, skipSpaceBack(t, from)
		}
	case i > 0 && t[i-1] == '(':
		j := skipSpaceBack(t, i-1)
		if j > 0 && t[j-1] == '>' { // a TypeScript type argument: graphql<T>(…)
			if lt := strings.LastIndexByte(t[:j-1], '<'); lt >= 0 && !strings.ContainsAny(t[lt:j], "();\n") {
				j = skipSpaceBack(t, lt)
			}
		}
		from, word := identBack(t, j)
		if isGQLName(word) {
			tagged, i = true, skipSpaceBack(t, from)
		}
	}
	if i > 0 && t[i-1] == '=' && (i < 2 || !strings.ContainsRune("=!<>+-*/%&|^", rune(t[i-2]))) {
		if _, word := identBack(t, skipSpaceBack(t, i-1)); word != "" && !strings.Contains(word, ".") {
			name = word
		}
	}
	return tagged, name
}

// isGQLName: a tag or function the GraphQL libraries name gql or graphql
// (also as a member: Apollo.gql).
func isGQLName(word string) bool {
	if i := strings.LastIndexByte(word, '.'); i >= 0 {
		word = word[i+1:]
	}
	return word == "gql" || word == "graphql"
}

func skipSpaceBack(t string, i int) int {
	for i > 0 && isSpace(t[i-1]) {
		i--
	}
	return i
}

// identBack reads the identifier (dots allowed) ending at t[i].
func identBack(t string, i int) (from int, word string) {
	from = i
	for from > 0 && (isIdentByte(t[from-1]) || t[from-1] == '.') {
		from--
	}
	return from, t[from:i]
}

// definitionStart: text, past blanks and # comments, starts with an
// operation or a fragment: query, mutation, subscription, fragment.
func definitionStart(text []rune) bool {
	s := string(text)
	for {
		s = strings.TrimLeft(s, " \t\r\n\ufeff,")
		if !strings.HasPrefix(s, "#") {
			break
		}
		_, rest, ok := strings.Cut(s, "\n")
		if !ok {
			return false
		}
		s = rest
	}
	for _, kw := range []string{"query", "mutation", "subscription", "fragment"} {
		if rest, ok := strings.CutPrefix(s, kw); ok {
			return rest == "" || !isIdentByte(rest[0])
		}
	}
	return false
}

// assembled is a literal's text with its interpolations resolved.
type assembled struct {
	text       []rune
	origin     []int32
	unresolved []string
}

// maxConstantDepth bounds constants spliced into constants.
const maxConstantDepth = 4

// assemble builds lit's text: an interpolation of a constant of the same
// file that holds part of an operation (a list of fields) is that
// constant's text, each character still placed where it is written; an
// interpolation of a constant that holds whole definitions (a fragment:
// found by its name anyway), or of anything else, is a blank.
func assemble(lit *literal, byName map[string]*literal, depth int) assembled {
	var a assembled
	for _, p := range lit.parts {
		if !p.interp {
			a.text = append(a.text, p.text...)
			a.origin = append(a.origin, p.origin...)
			continue
		}
		expr := strings.TrimSpace(p.expr)
		if c := byName[expr]; c != nil && c != lit && depth < maxConstantDepth {
			sub := assemble(c, byName, depth+1)
			if !definitionStart(sub.text) {
				a.text = append(a.text, sub.text...)
				a.origin = append(a.origin, sub.origin...)
				a.unresolved = append(a.unresolved, sub.unresolved...)
				continue
			}
			a.text = append(a.text, ' ')
			a.origin = append(a.origin, int32(p.at))
			continue
		}
		a.text = append(a.text, ' ')
		a.origin = append(a.origin, int32(p.at))
		a.unresolved = append(a.unresolved, expr)
	}
	return a
}

// joinConcatenations makes one literal of each concatenation of literals
// and names ("query { … " + fields + " }", `…` + fragment): a name is an
// interpolation, resolved as a template's are. With adjacent, literals
// with only blanks between are joined too (Python's implicit
// concatenation).
func joinConcatenations(t string, lits []*literal, adjacent bool) []*literal {
	var out []*literal
	for i := 0; i < len(lits); i++ {
		cur := lits[i]
		// A template's interpolations hold literals of their own, listed
		// before it: only a literal after this one can continue it.
		for i+1 < len(lits) && lits[i+1].start >= cur.end {
			names, ok := concatGap(t, cur.end, lits[i+1].start, adjacent)
			if !ok {
				break
			}
			next := lits[i+1]
			joined := &literal{start: cur.start, end: next.end, tagged: cur.tagged, name: cur.name}
			joined.parts = append(append(append([]part(nil), cur.parts...), names...), next.parts...)
			cur = joined
			i++
		}
		cur.parts = append(cur.parts, trailingNames(t, cur.end)...)
		out = append(out, cur)
	}
	return out
}

// concatGap reads the code between two literals: + and names only (or,
// with adjacent, nothing but blanks).
func concatGap(t string, from, to int, adjacent bool) ([]part, bool) {
	gap := t[from:to]
	if adjacent && strings.TrimSpace(gap) == "" {
		return nil, true
	}
	pieces := strings.Split(gap, "+")
	if len(pieces) < 2 || strings.TrimSpace(pieces[0]) != "" || strings.TrimSpace(pieces[len(pieces)-1]) != "" {
		return nil, false
	}
	var names []part
	off := from + len(pieces[0]) + 1
	for _, p := range pieces[1 : len(pieces)-1] {
		name := strings.TrimSpace(p)
		if !isName(name) {
			return nil, false
		}
		names = append(names, part{interp: true, expr: name, at: off + strings.Index(p, name)})
		off += len(p) + 1
	}
	return names, true
}

// trailingNames are the names a literal is followed by: `…` + a + b.
func trailingNames(t string, i int) []part {
	var names []part
	for {
		j := skipBlanks(t, i)
		if j >= len(t) || t[j] != '+' || (j+1 < len(t) && (t[j+1] == '+' || t[j+1] == '=')) {
			return names
		}
		k := skipBlanks(t, j+1)
		e := k
		for e < len(t) && (isIdentByte(t[e]) || t[e] == '.') {
			e++
		}
		name := t[k:e]
		if !isName(name) {
			return names
		}
		if n := skipBlanks(t, e); n < len(t) && (t[n] == '(' || t[n] == '[') {
			return names // a call or an index: not a constant
		}
		names = append(names, part{interp: true, expr: name, at: k})
		i = e
	}
}

func skipBlanks(t string, i int) int {
	for i < len(t) && isSpace(t[i]) {
		i++
	}
	return i
}

// isName: an identifier, or a dotted one (pkg.Name).
func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

// documents turns a file's literals into the documents among them.
func documents(path string, src *source, lits []*literal) ([]*Document, []Note) {
	byName := map[string]*literal{}
	for _, l := range lits {
		if l.name != "" {
			if _, dup := byName[l.name]; !dup {
				byName[l.name] = l
			}
		}
	}
	var docs []*Document
	for _, l := range lits {
		a := assemble(l, byName, 0)
		kind := Keyword
		switch {
		case l.tagged:
			kind = Tagged
			if strings.TrimSpace(string(a.text)) == "" {
				continue
			}
		case !definitionStart(a.text) || !strings.ContainsRune(string(a.text), '{'):
			continue
		}
		docs = append(docs, &Document{File: path, Text: string(a.text), Kind: kind, Unresolved: a.unresolved,
			src: src, origin: a.origin, end: l.end})
	}
	return docs, nil
}
