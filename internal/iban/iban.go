// Package iban formats and checks International Bank Account Numbers
// (ISO 13616) and builds the EPC "SEPA payment" QR code for one. It is a
// leaf: the CLI writers, the terminal UI and the API's search all use the
// same rules.
package iban

import (
	"errors"
	"fmt"
	"strings"
)

// Compact is the IBAN without spaces, upper-cased: the form to copy, check,
// search or encode (Format groups it back for people).
func Compact(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

// Format writes an IBAN in upper case in groups of four characters
// ("FR76 3000 6000 ..."), as printed on statements; "" stays "".
func Format(s string) string {
	c := Compact(s)
	if c == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(c) + len(c)/4)
	for i, r := range c {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Reasons Check gives; errors.Is matches them.
var (
	ErrShape    = errors.New("not an IBAN")
	ErrCountry  = errors.New("unknown IBAN country")
	ErrLength   = errors.New("wrong length for its country")
	ErrChecksum = errors.New("check digits do not match")
)

// Check validates s (spaces ignored): two letters of a country in the IBAN
// registry, two check digits, the country's exact length, only letters and
// digits, and the ISO 7064 mod-97 checksum. The error says which rule failed.
func Check(s string) error {
	c := Compact(s)
	if len(c) < 4 {
		return fmt.Errorf("%w: too short", ErrShape)
	}
	for i := 0; i < len(c); i++ {
		ch := c[i]
		switch {
		case i < 2 && (ch < 'A' || ch > 'Z'):
			return fmt.Errorf("%w: it must start with a two-letter country code", ErrShape)
		case i >= 2 && i < 4 && (ch < '0' || ch > '9'):
			return fmt.Errorf("%w: the third and fourth characters must be check digits", ErrShape)
		case !(ch >= 'A' && ch <= 'Z') && !(ch >= '0' && ch <= '9'):
			return fmt.Errorf("%w: only letters and digits are allowed", ErrShape)
		}
	}
	want, ok := lengths[c[:2]]
	if !ok {
		return fmt.Errorf("%w %s", ErrCountry, c[:2])
	}
	if len(c) != want {
		return fmt.Errorf("%w: %s IBANs have %d characters, this one has %d", ErrLength, c[:2], want, len(c))
	}
	// Moving the first four characters to the end and reading letters as
	// 10..35 gives a number that is 1 mod 97; fold it digit by digit.
	rem := 0
	for _, ch := range []byte(c[4:] + c[:4]) {
		if ch >= 'A' {
			rem = (rem*100 + int(ch-'A') + 10) % 97
		} else {
			rem = (rem*10 + int(ch-'0')) % 97
		}
	}
	if rem != 1 {
		return ErrChecksum
	}
	return nil
}

// Valid reports whether Check accepts s.
func Valid(s string) bool { return Check(s) == nil }

// LooksLike reports whether what a user typed is meant as an IBAN rather
// than a name: a country code, two digits and at least eight more letters or
// digits, spaces allowed. It does not check the number (a half-typed IBAN
// is still a search for one).
func LooksLike(s string) bool {
	c := Compact(s)
	if len(c) < 12 || len(c) > 34 {
		return false
	}
	if _, ok := lengths[c[:2]]; !ok {
		return false
	}
	if c[2] < '0' || c[2] > '9' || c[3] < '0' || c[3] > '9' {
		return false
	}
	digits := 0
	for i := 0; i < len(c); i++ {
		ch := c[i]
		switch {
		case ch >= '0' && ch <= '9':
			digits++
		case ch >= 'A' && ch <= 'Z':
		default:
			return false
		}
	}
	// Names have few digits; account numbers are mostly digits.
	return digits*2 >= len(c)
}

// lengths is the IBAN length of each country in the SWIFT IBAN registry.
var lengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
	"IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
	"LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
	"NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
	"RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
	"SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}
