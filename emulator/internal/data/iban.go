package data

import (
	"strconv"
	"strings"
)

// Fixed national bank identifiers, so every generated IBAN of a country
// shares the bank part like the real issuer's accounts do.
const (
	frBank   = "17418" // the issuer's French bank code
	frBranch = "00001"
	deBLZ    = "10010123"
	esBank   = "6713"
	esBranch = "0001"
	nlBank   = "SWNB"
	itABI    = "03669"
	itCAB    = "01600"
	beBank   = "967"
)

// bicFor returns the issuer's BIC for an account country (ISO 3166 alpha-3).
func bicFor(country string) string {
	switch country {
	case "DEU":
		return "SWNBDEB2XXX"
	case "ESP":
		return "SWNBESM2XXX"
	case "NLD":
		return "SWNBNL2AXXX"
	case "ITA":
		return "SWNBITM2XXX"
	case "BEL":
		return "SWNBBEB2XXX"
	default:
		return "SWNBFR22"
	}
}

// buildIBAN derives the national BBAN of an account from its 11-digit
// account number and prefixes it with the country code and mod-97 check
// digits (ISO 13616).
func buildIBAN(country, number string) string {
	var cc, bban string
	switch country {
	case "DEU":
		cc, bban = "DE", deBLZ+number[1:]
	case "ESP":
		acct := number[1:]
		cc, bban = "ES", esBank+esBranch+esControl(esBank, esBranch, acct)+acct
	case "NLD":
		cc, bban = "NL", nlBank+number[1:]
	case "ITA":
		acct := "0" + number
		cc, bban = "IT", itCIN(itABI+itCAB+acct)+itABI+itCAB+acct
	case "BEL":
		acct := number[4:]
		first := beBank + acct
		n, _ := strconv.ParseUint(first, 10, 64)
		check := n % 97
		if check == 0 {
			check = 97
		}
		cc, bban = "BE", first+twoDigits(int(check))
	default:
		cc, bban = "FR", frBank+frBranch+number+ribKey(frBank, frBranch, number)
	}
	return cc + twoDigits(ibanCheck(cc, bban)) + bban
}

// ibanCheck computes the two check digits of an IBAN: 98 minus the
// remainder of BBAN+country+"00" (letters as 10..35) divided by 97.
func ibanCheck(cc, bban string) int {
	return 98 - mod97(bban+cc+"00")
}

// ValidIBAN reports whether s has correct ISO 13616 check digits.
func ValidIBAN(s string) bool {
	if len(s) < 5 {
		return false
	}
	return mod97(s[4:]+s[:4]) == 1
}

func mod97(s string) int {
	r := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = (r*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			v := int(c-'A') + 10
			r = (r*100 + v) % 97
		case c >= 'a' && c <= 'z':
			v := int(c-'a') + 10
			r = (r*100 + v) % 97
		default:
			return -1
		}
	}
	return r
}

// ribKey is the French "clé RIB": 97 - (89*bank + 15*branch + 3*account) mod 97.
func ribKey(bank, branch, account string) string {
	b, _ := strconv.Atoi(bank)
	g, _ := strconv.Atoi(branch)
	a, _ := strconv.ParseInt(account, 10, 64)
	k := 97 - int((89*int64(b)+15*int64(g)+3*(a%97))%97)
	return twoDigits(k)
}

// esControl computes the two Spanish "dígitos de control".
func esControl(bank, branch, account string) string {
	weights := [10]int{1, 2, 4, 8, 5, 10, 9, 7, 3, 6}
	digit := func(s string) byte {
		sum := 0
		for i := 0; i < 10; i++ {
			sum += int(s[i]-'0') * weights[i]
		}
		d := 11 - sum%11
		switch d {
		case 11:
			d = 0
		case 10:
			d = 1
		}
		return byte('0' + d)
	}
	return string([]byte{digit("00" + bank + branch), digit(account)})
}

// itCIN computes the Italian control letter over ABI+CAB+account.
func itCIN(s string) string {
	odd := [10]int{1, 0, 5, 7, 9, 13, 15, 17, 19, 21}
	sum := 0
	for i := 0; i < len(s); i++ {
		d := int(s[i] - '0')
		if i%2 == 0 {
			sum += odd[d]
		} else {
			sum += d
		}
	}
	return string(rune('A' + sum%26))
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// normalizeIBAN removes spaces and upper-cases, as IBANs are often typed
// in groups of four.
func normalizeIBAN(s string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
}
