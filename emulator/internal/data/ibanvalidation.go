package data

import (
	"strconv"
	"strings"
	"sync"
)

// IBANCheck is an IBAN's validation: valid with its bank, or why not
// (InvalidIbanCode: InvalidLength, InvalidStructure, InvalidChecksum,
// InvalidBank).
type IBANCheck struct {
	IBAN          string
	Invalid       string // "" when valid
	Message       string
	AccountNumber string
	Checksum      string
	Bank          Bank
	Instant       bool // reachable by instant SEPA credit transfers
}

// Bank is a bank the emulator knows: its issuer in each country, and the
// banks of its generated counterparties.
type Bank struct {
	Name, NationalID, BIC string
	Address               Address
	Instant               bool
}

// ibanLengths are the IBAN lengths of the countries the emulator's banks
// are in, and of the other SEPA countries most often met (ISO 13616).
var ibanLengths = map[string]int{
	"FR": 27, "DE": 22, "ES": 24, "IT": 27, "NL": 18, "BE": 16, "LU": 20, "PT": 25, "AT": 20, "IE": 22,
	"GB": 22, "CH": 21, "FI": 18, "SE": 24, "DK": 18, "PL": 28, "MC": 27,
}

// nationalBank is where a country's BBAN holds the bank's national id and
// the account number.
var nationalBank = map[string]struct{ bank, accFrom, accTo int }{
	"FR": {5, 10, 21}, "DE": {8, 8, 18}, "ES": {4, 10, 20}, "NL": {4, 4, 14}, "BE": {3, 3, 10},
}

// banks are the banks the emulator knows, by country and national id.
var banks = sync.OnceValue(func() map[string]Bank {
	b := map[string]Bank{}
	add := func(cc, id, name, bic, city, postal, line string, instant bool) {
		b[cc+id] = Bank{Name: name, NationalID: id, BIC: bic, Instant: instant,
			Address: Address{Line1: line, City: city, PostalCode: postal, Country: cca3[cc]}}
	}
	// The issuer's, which every generated account and virtual IBAN uses.
	add("FR", frBank, "Swan", "SWNBFR22", "Paris", "75010", "95 avenue du Président Wilson", true)
	add("DE", deBLZ, "Swan", "SWNBDEB2XXX", "Berlin", "10115", "Invalidenstraße 65", true)
	add("ES", esBank, "Swan", "SWNBESM2XXX", "Madrid", "28001", "Calle de Serrano 41", true)
	add("NL", nlBank, "Swan", "SWNBNL2AXXX", "Amsterdam", "1017", "Herengracht 450", true)
	add("IT", itABI, "Swan", "SWNBITM2XXX", "Milano", "20121", "Via Manzoni 38", true)
	add("BE", beBank, "Swan", "SWNBBEB2XXX", "Bruxelles", "1000", "Avenue Louise 54", true)
	// The generated counterparties' (counterpartyIBANs).
	add("FR", "30006", "Crédit Agricole", "AGRIFRPPXXX", "Montrouge", "92120", "12 place des États-Unis", true)
	add("DE", "37040044", "Commerzbank", "COBADEFFXXX", "Frankfurt am Main", "60311", "Kaiserplatz", true)
	add("ES", "2100", "CaixaBank", "CAIXESBBXXX", "Valencia", "46002", "Calle Pintor Sorolla 2-4", true)
	add("IT", "05428", "Banco BPM", "BPMOIT22XXX", "Milano", "20121", "Piazza F. Meda 4", false)
	add("NL", "ABNA", "ABN AMRO", "ABNANL2AXXX", "Amsterdam", "1082", "Gustav Mahlerlaan 10", true)
	add("BE", "539", "Belfius", "GKCCBEBBXXX", "Bruxelles", "1210", "Place Rogier 11", true)
	return b
})

var cca3 = map[string]string{"FR": "FRA", "DE": "DEU", "ES": "ESP", "IT": "ITA", "NL": "NLD", "BE": "BEL"}

// ValidateIBAN checks an IBAN as the platform's validation does: its
// length for its country, its structure, its check digits, and its bank,
// which must be one the emulator knows.
func ValidateIBAN(iban string) IBANCheck {
	s := normalizeIBAN(iban)
	c := IBANCheck{IBAN: s}
	fail := func(code, msg string) IBANCheck {
		c.Invalid, c.Message = code, msg
		return c
	}
	if len(s) < 5 {
		return fail("InvalidLength", "an IBAN has at least 15 characters")
	}
	cc := s[:2]
	if n, ok := ibanLengths[cc]; ok && len(s) != n {
		return fail("InvalidLength", "an IBAN of "+cc+" has "+strconv.Itoa(n)+" characters")
	}
	for i, r := range s {
		letter, digit := r >= 'A' && r <= 'Z', r >= '0' && r <= '9'
		if (i < 2 && !letter) || (i >= 2 && i < 4 && !digit) || (!letter && !digit) {
			return fail("InvalidStructure", "an IBAN is two letters, two check digits, then letters and digits")
		}
	}
	if !ValidIBAN(s) {
		return fail("InvalidChecksum", "the check digits do not match the rest of the IBAN")
	}
	c.Checksum = s[2:4]
	bban := s[4:]
	id, acc := "", bban
	switch cc {
	case "IT":
		if len(bban) >= 23 {
			id, acc = bban[1:6], bban[11:23]
		}
	default:
		if f, ok := nationalBank[cc]; ok && len(bban) >= f.accTo {
			id, acc = bban[:f.bank], bban[f.accFrom:f.accTo]
		}
	}
	b, ok := banks()[cc+id]
	if !ok {
		return fail("InvalidBank", "the emulator knows no bank "+id+" in "+cc+": it knows its issuer's and its generated counterparties'")
	}
	c.AccountNumber, c.Bank, c.Instant = acc, b, b.Instant
	return c
}

// CompanyByRegistration is the company account with this registration
// number in a country (CCA3), whoever sees it: the company registry's
// answer for an onboarding.
func (s *Store) CompanyByRegistration(number, country string) (*Account, bool) {
	number = strings.TrimSpace(number)
	for i := range s.accounts {
		if a := &s.accounts[i]; a.HolderType == "Company" && a.RegistrationNumber == number && a.Country == country {
			return a, true
		}
	}
	return nil, false
}
