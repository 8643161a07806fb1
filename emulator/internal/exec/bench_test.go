package exec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// BenchmarkExecutePage is a page the size of the platform's web app (50
// account holders, a dozen fields each, three accounts each) on the
// platform's public schema, every field answered from maps: the engine's
// own cost (parse, validate, execute, write the JSON), without the model
// or generation. README "Dependencies and why" sets it beside
// graphql-go/graphql's on the same page.
func BenchmarkExecutePage(b *testing.B) {
	dir := os.Getenv("PARTNERTUI_REFERENCE")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "reference")
	}
	src, err := os.ReadFile(filepath.Join(dir, "partner-schema.graphql"))
	if errors.Is(err, fs.ErrNotExist) {
		b.Skip("the reference schema is absent: set PARTNERTUI_REFERENCE")
	}
	if err != nil {
		b.Fatal(err)
	}
	as, err := gqlparser.LoadSchema(&ast.Source{Input: string(src)})
	if err != nil {
		b.Fatal(err)
	}
	s := NewSchema(as)
	var edges []any
	for i := range 50 {
		var accs []any
		for j := range 3 {
			accs = append(accs, obj{"node": obj{"id": fmt.Sprint(i, j), "name": "Acc", "IBAN": "FR76", "BIC": "SWNBFR22", "currency": "EUR"}})
		}
		edges = append(edges, obj{"cursor": fmt.Sprint(i), "node": obj{"id": fmt.Sprint(i), "verificationStatus": "Verified",
			"createdDate": "2026-01-01T00:00:00.000Z", "updatedDate": "2026-01-02T00:00:00.000Z",
			"info":             obj{"__typename": "AccountHolderCompanyInfo", "type": "Company", "name": "Acme", "registrationNumber": "1", "vatNumber": "2", "companyType": "Company"},
			"statusInfo":       obj{"__typename": "AccountHolderEnabledStatusInfo", "status": "Enabled"},
			"residencyAddress": obj{"addressLine1": "1 rue", "city": "Paris", "postalCode": "75011", "country": "FRA"},
			"accounts":         obj{"totalCount": 3, "edges": accs}}})
	}
	root := obj{"accountHolders": obj{"totalCount": 50, "pageInfo": obj{"hasNextPage": false, "endCursor": "49"}, "edges": edges}}
	const page = `query Page { accountHolders(first: 50) {
	  totalCount pageInfo { hasNextPage endCursor }
	  edges { cursor node { id verificationStatus createdDate updatedDate
	    info { __typename type name ... on AccountHolderCompanyInfo { registrationNumber vatNumber companyType } }
	    statusInfo { __typename status }
	    residencyAddress { addressLine1 city postalCode country }
	    accounts(first: 3) { totalCount edges { node { id name IBAN BIC currency } } } } } } }`
	b.ReportAllocs()
	for b.Loop() {
		doc, perr := parser.ParseQuery(&ast.Source{Input: page})
		if perr != nil {
			b.Fatal(perr)
		}
		if errs := s.Validate(doc); len(errs) > 0 {
			b.Fatal(errs[0])
		}
		vars, errs := s.CoerceVariables(doc.Operations[0], nil)
		if len(errs) > 0 {
			b.Fatal(errs[0])
		}
		r := Execute(context.Background(), Params{Schema: s, Doc: doc, Operation: doc.Operations[0], Variables: vars, Root: root, Resolver: &mapResolver{}})
		if len(r.Errors) > 0 {
			b.Fatal(r.Errors[0])
		}
	}
}
