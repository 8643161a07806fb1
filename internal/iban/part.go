package iban

import "strings"

// Whole reports whether s (spaces ignored) has the shape of a whole IBAN:
// a country of the registry, two check digits, letters and digits only,
// and that country's exact length. It does not check the check digits: a
// mistyped whole IBAN is still looked for as one.
func Whole(s string) bool {
	c := Compact(s)
	if len(c) < 4 || !alnum(c) || !digits(c[2:4]) {
		return false
	}
	n, ok := lengths[c[:2]]
	return ok && len(c) == n
}

// Part is what a search means when it is a part of an IBAN rather than a
// whole one or a name, compact: its start (a country code of the
// registry, the two check digits, then letters or digits, shorter than
// that country's IBANs: "FR76 1741 8000") or its last digits (four or
// more digits, spaces allowed: "9315 521"). It is "" for anything else.
func Part(s string) string {
	c := Compact(s)
	switch {
	case len(c) >= 4 && digits(c):
		return c
	case len(c) >= 4 && alnum(c) && digits(c[2:4]):
		if n, ok := lengths[c[:2]]; ok && len(c) < n {
			return c
		}
	}
	return ""
}

// HasPart reports whether the IBAN account (spaced or compact) has part
// (as Part gives it): starts with it when part is a start, ends with it
// when part is digits.
func HasPart(account, part string) bool {
	c := Compact(account)
	switch {
	case part == "" || c == "":
		return false
	case digits(part):
		return strings.HasSuffix(c, part)
	}
	return strings.HasPrefix(c, part)
}

// digits reports whether s is made of ASCII digits only.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// alnum reports whether s is made of upper-case ASCII letters and digits.
func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if ch := s[i]; !(ch >= '0' && ch <= '9') && !(ch >= 'A' && ch <= 'Z') {
			return false
		}
	}
	return true
}
