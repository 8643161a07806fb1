package opcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/opfind"
	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// schemas are the partner API's and the Testing API's reference schemas.
func schemas(t testing.TB) []*schemafile.Schema {
	t.Helper()
	var out []*schemafile.Schema
	for _, name := range []string{reference.PartnerSchema, reference.TestingSchema} {
		s, err := schemafile.Load(name, reference.Read(t, name))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

const planted = "testdata/planted"

// planting is one problem planted in the fixtures: the nth occurrence of
// token in file is where it is reported.
type planting struct {
	file  string
	token string
	nth   int
	kind  Kind
	says  string
	fix   string
}

// where is the line and column (in characters) of the nth token in file.
func where(t *testing.T, file, token string, nth int) (int, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(planted, file))
	if err != nil {
		t.Fatal(err)
	}
	src, off := string(b), -1
	for range nth {
		i := strings.Index(src[off+1:], token)
		if i < 0 {
			t.Fatalf("%s holds fewer than %d %q", file, nth, token)
		}
		off += 1 + i
	}
	line := strings.Count(src[:off], "\n") + 1
	return line, utf8.RuneCountInString(src[strings.LastIndexByte(src[:off], '\n')+1:off]) + 1
}

func TestPlantedProblemsAreReportedWhereTheyAreAndNothingElse(t *testing.T) {
	t.Parallel()
	docs, notes, files, err := opfind.Find([]string{planted}, opfind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := Check(docs, Options{Schemas: schemas(t), Limits: gqlop.SandboxLimits()})
	wants := []planting{
		{"operations.graphql", "emailAddresses", 1, Deprecated, "User.emailAddresses is deprecated: Use verifiedEmails field instead", "use verifiedEmails field"},
		{"operations.graphql", "nickname", 1, Error, `Cannot query field "nickname" on type "User"`, ""},
		{"operations.graphql", "NotStarted", 1, Deprecated, "SwanIdentificationStatus.NotStarted (an enum value) is deprecated: Use 'Started' instead.", "use 'Started'"},
		{"operations.graphql", "totalCount", 2, Limit, "Deep: totalCount is at depth 16; the Sandbox limit is a depth of 15", ""},
		{"operations.graphql", "f: projectInfo", 1, Limit, "Six: f is top-level field number 6; the Sandbox limit is 5", ""},
		{"server/queries.go", "ibann", 1, Error, `Cannot query field "ibann" on type "Account"`, ""},
		{"server/queries.go", "onboarding", 1, Deprecated, "AccountHolder.onboarding is deprecated: Use `accountHolderOnboarding` instead", "use `accountHolderOnboarding`"},
		{"server/queries.go", "ProjectNoSuchFields", 1, Error, `Unknown fragment "ProjectNoSuchFields"`, ""},
		{"server/queries.go", "f: projectInfo", 1, Limit, "SixGo: f is top-level field number 6", ""},
		// The constant interpolated into the template is reported where it
		// is written, and what follows the interpolation where it is.
		{"web/api.ts", "emailAddresses", 1, Deprecated, "User.emailAddresses is deprecated", "use verifiedEmails field"},
		{"web/api.ts", "lastNam", 1, Error, `Cannot query field "lastNam" on type "User". Did you mean "lastName"?`, ""},
		{"web/api.ts", "NotDefinedAnywhere", 1, Error, `Unknown fragment "NotDefinedAnywhere"`, ""},
		{"web/Widget.tsx", "NotStarted", 1, Deprecated, "SwanIdentificationStatus.NotStarted (an enum value) is deprecated", "use 'Started'"},
		{"web/legacy.js", "nmae", 1, Error, `Cannot query field "nmae" on type "ProjectInfo"`, ""},
		{"jobs/sync.py", "statu", 1, Error, `Cannot query field "statu" on type "Account"`, ""},
		{"jobs/sync.py", "simulateIncomingCardAuthorization(", 1, Deprecated, "Mutation.simulateIncomingCardAuthorization is deprecated", "use simulateIncomingOnlineCardAuthorization"},
		{"jobs/sync.py", "f: projectInfo", 1, Limit, "SixPy: f is top-level field number 6", ""},
	}
	matched := make([]bool, len(r.Findings))
	for _, w := range wants {
		line, col := where(t, w.file, w.token, w.nth)
		file := filepath.Join(planted, w.file)
		found := false
		for i, f := range r.Findings {
			if f.File == file && f.Line == line && f.Column == col && f.Kind == w.kind {
				matched[i], found = true, true
				if !strings.Contains(f.Message, w.says) || f.Fix != w.fix {
					t.Errorf("%s:%d:%d: %q (fix %q), want it to say %q (fix %q)", w.file, line, col, f.Message, f.Fix, w.says, w.fix)
				}
			}
		}
		if !found {
			t.Errorf("no %s at %s:%d:%d (%s)", w.kind, w.file, line, col, w.says)
		}
	}
	for i, f := range r.Findings {
		if !matched[i] {
			t.Errorf("unexpected finding %s:%d:%d %s %s", f.File, f.Line, f.Column, f.Kind, f.Message)
		}
	}

	notes = append(notes, r.Notes...)
	if len(notes) != 1 || notes[0].File != filepath.Join(planted, "web/legacy.js") || notes[0].Line != 10 || !strings.Contains(notes[0].Message, "starts like an operation but is not GraphQL") {
		t.Errorf("notes %v, want one, on the prose of legacy.js:10", notes)
	}
	if files != 6 || len(r.Operations) != 16 || r.Fragments != 2 {
		t.Errorf("%d files, %d operations, %d fragments; want 6, 16, 2", files, len(r.Operations), r.Fragments)
	}
	for _, o := range r.Operations {
		want := "partner API"
		if o.Name == "Credit" || o.Name == "Authorize" {
			want = "Testing API"
		}
		if o.Endpoint != want {
			t.Errorf("%s goes to the %s, want the %s", o.Name, o.Endpoint, want)
		}
		if o.Name == "Deep" && (o.Depth != 16 || o.Fields != 16 || o.TopLevel != 1) {
			t.Errorf("Deep counts %+v, want depth 16, 16 fields, 1 top-level field", o)
		}
	}
}

func TestWithoutSchemasOnlyTheSyntaxAndLimitsAreChecked(t *testing.T) {
	t.Parallel()
	docs, _ := opfind.Extract("a.graphql", []byte("query A { a b c d e f }\nquery B { x(\n"))
	r := Check(docs, Options{Limits: gqlop.SandboxLimits()})
	if len(r.Findings) != 1 || r.Findings[0].Kind != Error || !strings.Contains(r.Findings[0].Message, "syntax") {
		t.Errorf("findings %+v, want the syntax error alone (the document does not parse)", r.Findings)
	}
	docs, _ = opfind.Extract("a.graphql", []byte("query A { a b c d e f }"))
	if r := Check(docs, Options{Limits: gqlop.SandboxLimits()}); len(r.Findings) != 1 || r.Findings[0].Kind != Limit {
		t.Errorf("findings %+v, want the six top-level fields", r.Findings)
	}
}

func TestSchemaFilesAndUnreadableStringsAreNotes(t *testing.T) {
	t.Parallel()
	var docs []*opfind.Document
	for path, src := range map[string]string{
		"schema.graphql": "type Query { a: String }",
		"x.ts":           "const q = gql`query Q { a { ${fields} } }`; const s = 'mutation failed: {x}';",
	} {
		d, _ := opfind.Extract(path, []byte(src))
		docs = append(docs, d...)
	}
	r := Check(docs, Options{Schemas: schemas(t), Limits: gqlop.SandboxLimits()})
	if len(r.Findings) != 0 || len(r.Notes) != 3 {
		t.Fatalf("findings %v, notes %v: want three notes and no finding", r.Findings, r.Notes)
	}
	said := ""
	for _, n := range r.Notes {
		said += n.String() + "\n"
	}
	for _, want := range []string{"schema.graphql: skipped: a schema", "built around ${fields}", "starts like an operation"} {
		if !strings.Contains(said, want) {
			t.Errorf("notes\n%s lack %q", said, want)
		}
	}
}

func TestFixIsWhatTheReasonSaysToUse(t *testing.T) {
	t.Parallel()
	for reason, want := range map[string]string{
		"use `search` instead":                                         "use `search`",
		"Use `reasonInfo` instead.":                                    "use `reasonInfo`",
		"replaced by `PendingCompliance`":                              "use `PendingCompliance`",
		"The cardType field is deprecated, use the type field instead": "use the type field",
		"use userId, which can be null in the oAuth2 consent case":     "use userId",
		"This query is deprecated and will be removed in a future version. please use publicCompanyInfoRegistryData instead": "use publicCompanyInfoRegistryData",
		"Use CapitalDepositWithdrawn":                "use CapitalDepositWithdrawn",
		"field is not used anymore":                  "",
		"because it is not already implemented":      "",
		"Unused, will be removed in future versions": "",
		"No longer supported":                        "",
	} {
		if got := Fix(reason); got != want {
			t.Errorf("Fix(%q) = %q, want %q", reason, got, want)
		}
	}
}

func FuzzCheckNeverPanics(f *testing.F) {
	s, err := schemafile.Load("tiny.graphql", []byte(`type Query { a(x: Int, e: E, i: I): A  b: [A!]! }
type Mutation { m(i: I!): A }
type A { id: ID! old: String @deprecated(reason: "use id") a: A }
enum E { ONE TWO @deprecated }
input I { x: Int y: E z: [I!] }`))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		"query Q($v: E = TWO) { a(e: TWO, i: {y: TWO, z: [{x: 1}]}) { old ...F } }\nfragment F on A { a { ...F } }",
		"{ a { ...Nope } } fragment X on Nope { y }",
		"mutation { m(i: {z: [{z: [{y: ONE}]}]}) { id } } subscription S { a }",
		"query ($x: [[E!]!] = [[ONE]]) { b { a { a { a { id } } } } }",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		docs, _ := opfind.Extract("fuzz.graphql", []byte(text))
		r := Check(docs, Options{Schemas: []*schemafile.Schema{s}, Limits: gqlop.SandboxLimits()})
		for _, n := range r.Notes {
			if strings.Contains(n.Message, "validator failed") {
				t.Logf("gqlparser panicked on %q: %s", text, n.Message)
			}
		}
	})
}
