package opcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/opfind"
	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// thousandOperations writes 1,000 operations of the sizes a client holds
// (a fragment of another file, nested connections, variables, enum
// arguments), a tenth of them with a problem, as 100 files of each kind
// check reads.
func thousandOperations(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("fragments.graphql", `fragment AccountBasics on Account {
  id
  name
  statusInfo { status }
  balances { available { value currency } booked { value currency } }
  holder { id info { name type } }
}
`)
	op := func(i int) string {
		field := "name"
		if i%10 == 0 {
			field = "nmae" // a tenth of them are wrong
		}
		return fmt.Sprintf(`query Accounts%d($first: Int!, $after: String) {
  accounts(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges {
      node {
        ...AccountBasics
        %s
        memberships(first: 10) { edges { node { id email statusInfo { status } user { id firstName lastName } } } }
        transactions(first: 10) { edges { node { id amount { value currency } statusInfo { status } } } }
      }
    }
  }
}
`, i, field)
	}
	n := 0
	for f := range 100 {
		var ops []string
		for range 10 {
			ops = append(ops, op(n))
			n++
		}
		switch f % 4 {
		case 0:
			write(fmt.Sprintf("ops%d.graphql", f), strings.Join(ops, "\n"))
		case 1:
			write(fmt.Sprintf("ops%d.ts", f), "import { gql } from '@apollo/client';\n\nexport const q = gql`\n"+strings.Join(ops, "`;\nexport const r = gql`\n")+"`;\n")
		case 2:
			write(fmt.Sprintf("ops%d.go", f), "package ops\n\nconst q = `"+strings.Join(ops, "`\nconst r = `")+"`\n")
		case 3:
			write(fmt.Sprintf("ops%d.py", f), "Q = \"\"\""+strings.Join(ops, "\"\"\"\nR = \"\"\"")+"\"\"\"\n")
		}
	}
	return dir
}

// BenchmarkCheckThousandOperations is `check` over 1,000 operations: the
// files found and read, the schemas loaded, every operation validated,
// its deprecations looked for and its size counted.
func BenchmarkCheckThousandOperations(b *testing.B) {
	dir := thousandOperations(b)
	partner, testing := reference.Read(b, reference.PartnerSchema), reference.Read(b, reference.TestingSchema)
	b.ResetTimer()
	for b.Loop() {
		p, err := schemafile.Load("partner", partner)
		if err != nil {
			b.Fatal(err)
		}
		t, err := schemafile.Load("testing", testing)
		if err != nil {
			b.Fatal(err)
		}
		docs, _, _, err := opfind.Find([]string{dir}, opfind.Options{})
		if err != nil {
			b.Fatal(err)
		}
		r := Check(docs, Options{Schemas: []*schemafile.Schema{p, t}, Limits: gqlop.SandboxLimits()})
		if len(r.Operations) != 1000 || len(r.Findings) != 100 {
			b.Fatalf("%d operations, %d findings: want 1,000 and 100", len(r.Operations), len(r.Findings))
		}
	}
}
