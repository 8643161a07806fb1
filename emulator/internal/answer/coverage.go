package answer

import (
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Coverage counts, per domain of the platform, the root operations of a
// served schema that the model answers, that are generated, and that are
// not answered at all (subscriptions: the platform's GraphQL is queries
// and mutations over HTTP).
type Coverage struct {
	Rows  []CoverageRow // by domain, in domains' order
	Total CoverageRow
}

// CoverageRow is one domain's count.
type CoverageRow struct {
	Domain                       string
	Modelled, Generated, Missing int
	// Operations names each operation by how it is answered.
	Operations map[string][]string `json:"-"`
}

// domains classify an operation by the words of its name, in this order:
// the first whose words the name contains (ignoring case) is its domain.
var domains = []struct {
	name  string
	words []string
}{
	{"sandbox users", []string{"sandboxuser", "sandboxidentification"}},
	{"webhooks", []string{"webhook"}},
	{"capital deposits", []string{"capitaldeposit", "shareholder"}},
	{"merchants and payment links", []string{"merchant", "paymentlink", "inpersonpayment", "terminalconnection"}},
	{"standing orders", []string{"standingorder"}},
	{"virtual IBANs", []string{"virtualiban"}},
	{"beneficiaries", []string{"beneficiar"}},
	{"onboarding", []string{"onboard", "companyinforegistry", "legalforms", "verificationrenewal", "accountadminchange"}},
	{"supporting documents", []string{"supportingdocument"}},
	{"exports", []string{"export"}},
	{"credit and billing", []string{"creditlimit", "creditstatement", "repayment", "loan", "invoice", "billing", "bankingfee"}},
	{"funding", []string{"funding"}},
	{"cards", []string{"card", "provisioning", "insurance"}},
	{"direct debits and mandates", []string{"directdebit", "mandate", "sdd"}},
	{"account holders", []string{"accountholder"}},
	{"memberships", []string{"membership"}},
	{"users, consents and identifications", []string{"user", "consent", "identification"}},
	{"payments and transactions", []string{"transfer", "payment", "transaction", "check", "refund", "reservedbalance"}},
	{"accounts", []string{"account", "statement", "iban"}},
	{"project", []string{"project", "notification"}},
}

// Domain is the domain of an operation, by its name.
func Domain(operation string) string {
	lower := strings.ToLower(operation)
	for _, d := range domains {
		for _, w := range d.words {
			if strings.Contains(lower, w) {
				return d.name
			}
		}
	}
	return "other"
}

// Covered counts a served schema's root operations by how they are
// answered; modelled nil means the model answers every one (the served
// schema is its own).
func Covered(served *ast.Schema, modelled *Modelled) Coverage {
	rows := map[string]*CoverageRow{}
	row := func(op string) *CoverageRow {
		d := Domain(op)
		if rows[d] == nil {
			rows[d] = &CoverageRow{Domain: d, Operations: map[string][]string{}}
		}
		return rows[d]
	}
	for _, root := range []*ast.Definition{served.Query, served.Mutation, served.Subscription} {
		if root == nil {
			continue
		}
		for _, f := range root.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			r := row(f.Name)
			switch {
			case root == served.Subscription:
				r.Missing++
				r.Operations["missing"] = append(r.Operations["missing"], f.Name)
			case modelled == nil || modelled.Field(root.Name, f.Name):
				r.Modelled++
				r.Operations["modelled"] = append(r.Operations["modelled"], f.Name)
			default:
				r.Generated++
				r.Operations["generated"] = append(r.Operations["generated"], f.Name)
			}
		}
	}
	var c Coverage
	order := append(slices.Collect(func(yield func(string) bool) {
		for _, d := range domains {
			if !yield(d.name) {
				return
			}
		}
	}), "other")
	for _, d := range order {
		if r, ok := rows[d]; ok {
			c.Rows = append(c.Rows, *r)
			c.Total.Modelled += r.Modelled
			c.Total.Generated += r.Generated
			c.Total.Missing += r.Missing
		}
	}
	c.Total.Domain = "total"
	return c
}
