package gen

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
)

// Leaves are realistic for their scalar and their field's name: an IBAN
// has its check digits, an amount is a decimal string, a date is one, an
// email an address, an enum one of its values that is not deprecated.
// What a field's name suggests is read from one table, nameRules; what a
// custom scalar is, from scalarRules.

var (
	firstNames = []string{"Alice", "Bruno", "Camille", "David", "Emma", "Farid", "Giulia", "Hugo", "Inès", "Jonas", "Karima", "Louis", "Maya", "Nathan", "Olivia", "Paul"}
	lastNames  = []string{"Martin", "Bernard", "Dubois", "Moreau", "Laurent", "Rossi", "Schmidt", "García", "Lefèvre", "Nguyen", "Fontaine", "Chevalier", "Meyer", "Costa"}
	companies  = []string{"Atelier Lumière", "Boulangerie Dupain", "Cobalt Logistics", "Delta Conseil", "Éclat Studio", "Ferme des Tilleuls", "Garage Central", "Helios Énergie", "Innova Santé", "Jardin Urbain"}
	cities     = []struct{ city, postal, country2, country3 string }{
		{"Paris", "75011", "FR", "FRA"}, {"Lyon", "69002", "FR", "FRA"}, {"Bordeaux", "33000", "FR", "FRA"}, {"Berlin", "10115", "DE", "DEU"},
		{"Madrid", "28013", "ES", "ESP"}, {"Milano", "20121", "IT", "ITA"}, {"Amsterdam", "1012", "NL", "NLD"}, {"Bruxelles", "1000", "BE", "BEL"},
	}
	streets = []string{"12 rue de la Paix", "4 avenue Jean Jaurès", "27 boulevard Voltaire", "8 place Bellecour", "15 Friedrichstraße", "3 calle Mayor", "21 via Roma"}
	bics    = []string{"SWNBFR22", "BNPAFRPP", "AGRIFRPP", "SOGEFRPP", "CEPAFRPP", "DEUTDEFF", "INGBNL2A", "BBVAESMM"}
	phrases = []string{"Monthly rent", "Office supplies", "Team lunch", "Consulting services", "Annual subscription", "Equipment purchase", "Travel expenses", "Customer refund", "Invoice payment", "Quarterly fees"}
	words   = []string{"Alpha", "Bravo", "Cedar", "Delta", "Ember", "Falcon", "Garnet", "Harbor", "Indigo", "Juniper"}
)

// epoch and span bound generated dates: from 2024 to late 2026.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

const spanDays = 1000

// objectTime is an object's base time (its creation); its other dates
// follow it, so createdAt comes before updatedAt.
func objectTime(h uint64) time.Time {
	r := rnd{h: mix(h, hashString("createdAt"))}
	return epoch.Add(time.Duration(r.intn(spanDays*24*60)) * time.Minute)
}

func fieldTime(obj uint64, name string, fh uint64) time.Time {
	base := objectTime(obj)
	if strings.HasPrefix(name, "created") {
		return base
	}
	r := rnd{h: mix(obj, fh)}
	return base.Add(time.Duration(r.intn(60*24*60)) * time.Minute)
}

// scalarRules generate the platform's custom scalars.
var scalarRules = map[string]func(r *rnd, obj uint64, name string, fh uint64) any{
	"IBAN":        func(r *rnd, _ uint64, _ string, _ uint64) any { return iban(r) },
	"BIC":         func(r *rnd, _ uint64, _ string, _ uint64) any { return pick(r, bics) },
	"AmountValue": func(r *rnd, _ uint64, _ string, _ uint64) any { return amount(r) },
	"Currency":    func(*rnd, uint64, string, uint64) any { return "EUR" },
	"Date": func(_ *rnd, obj uint64, name string, fh uint64) any {
		return fieldTime(obj, name, fh).Format(time.DateOnly)
	},
	"DateTime":               func(_ *rnd, obj uint64, name string, fh uint64) any { return dateTime(fieldTime(obj, name, fh)) },
	"CCA3":                   func(r *rnd, _ uint64, _ string, _ uint64) any { return pick(r, cities).country3 },
	"CCA2":                   func(r *rnd, _ uint64, _ string, _ uint64) any { return pick(r, cities).country2 },
	"PhoneNumber":            func(r *rnd, _ uint64, _ string, _ uint64) any { return phone(r) },
	"URL":                    func(r *rnd, _ uint64, name string, _ uint64) any { return url(r, name) },
	"EmailAddress":           func(r *rnd, _ uint64, _ string, _ uint64) any { return email(r) },
	"HexColorCode":           func(r *rnd, _ uint64, _ string, _ uint64) any { return fmt.Sprintf("#%06X", r.intn(1<<24)) },
	"AccountNumber":          func(r *rnd, _ uint64, _ string, _ uint64) any { return digits(r, 11) },
	"SepaCreditorIdentifier": func(r *rnd, _ uint64, _ string, _ uint64) any { return creditorID(r) },
	"SepaReference":          func(r *rnd, _ uint64, _ string, _ uint64) any { return "REF-" + strings.ToUpper(alnum(r, 10)) },
	"PIN":                    func(r *rnd, _ uint64, _ string, _ uint64) any { return digits(r, 4) },
}

// nameRule generates a string for fields whose name (lower case) the
// rule matches.
type nameRule struct {
	match func(name string) bool
	gen   func(r *rnd, obj uint64, name string, fh uint64) string
}

func suffix(ss ...string) func(string) bool {
	return func(n string) bool {
		for _, s := range ss {
			if strings.HasSuffix(n, s) {
				return true
			}
		}
		return false
	}
}

func contains(ss ...string) func(string) bool {
	return func(n string) bool {
		for _, s := range ss {
			if strings.Contains(n, s) {
				return true
			}
		}
		return false
	}
}

// nameRules are tried in order; the first that matches a String field's
// name generates it.
var nameRules = []nameRule{
	{suffix("iban"), func(r *rnd, _ uint64, _ string, _ uint64) string { return iban(r) }},
	{suffix("bic"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, bics) }},
	{contains("email"), func(r *rnd, _ uint64, _ string, _ uint64) string { return email(r) }},
	{contains("phone"), func(r *rnd, _ uint64, _ string, _ uint64) string { return phone(r) }},
	{contains("firstname"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, firstNames) }},
	{contains("lastname"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, lastNames) }},
	{contains("fullname", "holdername", "debtorname", "creditorname", "beneficiaryname", "cardholder"), func(r *rnd, _ uint64, _ string, _ uint64) string {
		return pick(r, firstNames) + " " + pick(r, lastNames)
	}},
	{contains("companyname", "tradename", "legalname", "brandname", "merchantname", "organization"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, companies) }},
	{contains("addressline1", "street"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, streets) }},
	{contains("addressline2"), func(r *rnd, _ uint64, _ string, _ uint64) string { return fmt.Sprintf("Bâtiment %c", 'A'+r.intn(6)) }},
	{contains("city"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, cities).city }},
	{contains("postalcode", "zipcode"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, cities).postal }},
	{contains("country", "nationality"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, cities).country3 }},
	{suffix("url", "uri", "link"), func(r *rnd, _ uint64, name string, _ uint64) string { return url(r, name) }},
	{suffix("currency"), func(*rnd, uint64, string, uint64) string { return "EUR" }},
	{suffix("language", "locale"), func(r *rnd, _ uint64, _ string, _ uint64) string {
		return pick(r, []string{"en", "fr", "de", "es", "it", "nl"})
	}},
	{contains("maskednumber", "maskedpan", "cardnumber"), func(r *rnd, _ uint64, _ string, _ uint64) string { return "5427********" + digits(r, 4) }},
	{contains("expirydate", "expirationdate"), func(r *rnd, _ uint64, _ string, _ uint64) string {
		return fmt.Sprintf("%02d/%02d", r.between(1, 12), r.between(27, 31))
	}},
	{suffix("cvv"), func(r *rnd, _ uint64, _ string, _ uint64) string { return digits(r, 3) }},
	{suffix("at", "date", "time"), func(_ *rnd, obj uint64, name string, fh uint64) string { return dateTime(fieldTime(obj, name, fh)) }},
	{suffix("amount", "value", "balance"), func(r *rnd, _ uint64, _ string, _ uint64) string { return amount(r) }},
	{suffix("id", "ids"), func(r *rnd, _ uint64, _ string, _ uint64) string { return uuid(r.next()) }},
	{contains("token", "secret", "signature", "hash"), func(r *rnd, _ uint64, _ string, _ uint64) string {
		return fmt.Sprintf("%016x%016x", r.next(), r.next())
	}},
	{contains("reference"), func(r *rnd, _ uint64, _ string, _ uint64) string { return "REF-" + strings.ToUpper(alnum(r, 8)) }},
	{contains("registrationnumber", "vatnumber", "taxidentification", "siren", "siret"), func(r *rnd, _ uint64, _ string, _ uint64) string { return "FR" + digits(r, 11) }},
	{suffix("number"), func(r *rnd, _ uint64, _ string, _ uint64) string { return digits(r, 10) }},
	{suffix("code", "mcc"), func(r *rnd, _ uint64, _ string, _ uint64) string { return strings.ToUpper(alnum(r, 6)) }},
	{suffix("name"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, companies) }},
	{contains("label", "description", "message", "reason", "purpose", "comment", "note", "title"), func(r *rnd, _ uint64, _ string, _ uint64) string { return pick(r, phrases) }},
}

// leaf generates a scalar or enum value for the field name of an object
// whose identity hash is obj; fh is the field name's hash.
func (g *World) leaf(def *ast.Definition, objType string, obj uint64, name string, fh uint64) any {
	r := &rnd{h: mix(obj, fh)}
	if def.Kind == ast.Enum {
		return g.enumValue(def, objType, name, r)
	}
	lower := strings.ToLower(name)
	switch def.Name {
	case "ID":
		return uuid(r.next())
	case "Boolean":
		return r.intn(2) == 1
	case "Int":
		return int32(intFor(lower, r))
	case "Float":
		return float64(r.intn(100000)) / 100
	case "String":
		for _, rule := range nameRules {
			if rule.match(lower) {
				return rule.gen(r, obj, lower, fh)
			}
		}
		return pick(r, words) + " " + pick(r, words)
	}
	if rule, ok := scalarRules[def.Name]; ok {
		return rule(r, obj, lower, fh)
	}
	// A custom scalar the platform may add later: a string its field's
	// name suggests.
	for _, rule := range nameRules {
		if rule.match(lower) {
			return rule.gen(r, obj, lower, fh)
		}
	}
	return strings.ToUpper(alnum(r, 12))
}

func intFor(name string, r *rnd) int {
	switch {
	case strings.Contains(name, "year"):
		return r.between(2020, 2026)
	case strings.Contains(name, "month"):
		return r.between(1, 12)
	case strings.Contains(name, "day"):
		return r.between(1, 28)
	case strings.Contains(name, "percent"), strings.Contains(name, "rate"):
		return r.between(0, 100)
	case strings.Contains(name, "limit"), strings.Contains(name, "max"):
		return r.between(100, 10000)
	case strings.Contains(name, "count"), strings.Contains(name, "total"):
		return r.between(0, 50)
	}
	return r.between(1, 100)
}

// enumValue picks a value that is not deprecated. A status field of an
// object whose type names one of its values (AccountClosedStatus) takes
// that value, so an abstract status's member and its status agree.
func (g *World) enumValue(def *ast.Definition, objType, name string, r *rnd) any {
	live := g.liveValues(def)
	if strings.HasSuffix(strings.ToLower(name), "status") {
		if v := valueNamedIn(live, objType); v != "" {
			return v
		}
	}
	if len(live) == 0 {
		return def.EnumValues[0].Name
	}
	return pick(r, live)
}

// valueNamedIn is the longest of values that typeName contains.
func valueNamedIn(values []string, typeName string) string {
	best := ""
	for _, v := range values {
		if len(v) > len(best) && strings.Contains(typeName, v) {
			best = v
		}
	}
	return best
}

func (g *World) liveValues(def *ast.Definition) []string {
	if v, ok := g.enums[def.Name]; ok {
		return v
	}
	var out []string
	for _, v := range def.EnumValues {
		if v.Directives.ForName("deprecated") == nil {
			out = append(out, v.Name)
		}
	}
	return out
}

func dateTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func amount(r *rnd) string {
	return fmt.Sprintf("%d.%02d", r.between(1, 4999), r.intn(100))
}

func digits(r *rnd, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.intn(10))
	}
	return string(b)
}

func alnum(r *rnd, n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.intn(len(chars))]
	}
	return string(b)
}

func phone(r *rnd) string { return "+336" + digits(r, 8) }

func email(r *rnd) string {
	return strings.ToLower(asciiName(pick(r, firstNames))+"."+asciiName(pick(r, lastNames))) + "@example.com"
}

func asciiName(s string) string {
	return strings.NewReplacer("è", "e", "é", "e", "î", "i", "í", "i", "ç", "c", "É", "E").Replace(s)
}

func url(r *rnd, name string) string {
	return "https://example.com/" + strings.TrimSuffix(strings.TrimSuffix(name, "url"), "uri") + "/" + alnum(r, 8)
}

// iban is a French IBAN with valid check digits (ISO 13616, mod 97).
func iban(r *rnd) string {
	bban := "30003" + digits(r, 5) + digits(r, 11) + digits(r, 2)
	return "FR" + checkDigits(bban, "FR") + bban
}

// creditorID is a French SEPA creditor identifier (ISO 7064 mod 97-10
// over the national identifier).
func creditorID(r *rnd) string {
	national := digits(r, 6)
	return "FR" + checkDigits(national, "FR") + "ZZZ" + national
}

// checkDigits are the two digits that make code+country+"00" ≡ 1 (mod 97)
// once letters are numbers (A=10 … Z=35).
func checkDigits(code, country string) string {
	var b strings.Builder
	for _, c := range code + country + "00" {
		if c >= 'A' && c <= 'Z' {
			b.WriteString(strconv.Itoa(int(c-'A') + 10))
		} else {
			b.WriteRune(c)
		}
	}
	n, _ := new(big.Int).SetString(b.String(), 10)
	rem := new(big.Int).Mod(n, big.NewInt(97)).Int64()
	return fmt.Sprintf("%02d", 98-rem)
}
