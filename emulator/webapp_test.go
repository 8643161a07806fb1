package emulator

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// TestWebAppOperationsAnswer runs the operations a web app sends (its .gql
// files, in the folder $PARTNERTUI_WEBAPP_GQL names; a file whose name
// has "admin" is the Testing API's) against the emulator serving the
// public schemas: each answers without a GraphQL error, and its answer is
// what the schema says. The platform's own web apps are the yardstick of
// "every field a real client selects is answered"; their files are not
// ours to copy, so the test reads them where the developer keeps them and
// skips without them.
func TestWebAppOperationsAnswer(t *testing.T) {
	dir := os.Getenv("PARTNERTUI_WEBAPP_GQL")
	if dir == "" {
		t.Skip("set PARTNERTUI_WEBAPP_GQL to a folder of a web app's .gql operation files to run them")
	}
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(dir, "*.gql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .gql file in %s: %v", dir, err)
	}
	e := newTestEnv(t, referenceOptions(t))
	ids := modelIDs(e) // the model answers an id it does not know with an error
	acc := e.transferTarget()
	byVariable := map[string]string{"transactionId": ids["transaction"], "paymentId": ids["payment"], "accountId": acc.ID,
		"accountMembershipId": e.sandbox.LegalRepresentative(acc).ID}
	schemas := map[string]*ast.Schema{pathSandbox: referenceSchema(t, "partner-schema.graphql"), pathAdmin: referenceSchema(t, "partner-admin-schema.graphql")}
	total, answered := 0, 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, perr := parser.ParseQuery(&ast.Source{Name: file, Input: string(src)})
		if perr != nil {
			t.Fatalf("%s: %v", file, perr)
		}
		path := pathSandbox
		if strings.Contains(filepath.Base(file), "admin") {
			path = pathAdmin
		}
		b := &opBuilder{s: schemas[path]}
		for _, op := range doc.Operations {
			total++
			q := operationText(doc, op)
			vars := map[string]any{}
			// The id of a root field that reads one the model has.
			for _, sel := range op.SelectionSet {
				if f, ok := sel.(*ast.Field); ok && ids[f.Name] != "" {
					for _, a := range f.Arguments {
						if a.Value.Kind == ast.Variable {
							vars[a.Value.Raw] = ids[f.Name]
						}
					}
				}
			}
			for _, v := range op.VariableDefinitions {
				if _, set := vars[v.Variable]; set {
					continue
				}
				if id, ok := byVariable[v.Variable]; ok {
					vars[v.Variable] = id
					continue
				}
				if v.Type.NonNull && v.DefaultValue == nil {
					var val any
					if err := json.Unmarshal([]byte(literalJSON(b.literal(v.Variable, v.Type, 0))), &val); err != nil {
						t.Fatalf("%s $%s: %v", op.Name, v.Variable, err)
					}
					vars[v.Variable] = val
				}
			}
			r := e.query(path, tokSandboxUser0, q, vars)
			if len(r.Errors) > 0 && path == pathSandbox {
				r = e.query(path, tokSandboxProject, q, vars)
			}
			if r.Status != 200 || len(r.Errors) > 0 {
				t.Errorf("%s %s: status %d, %+v", filepath.Base(file), op.Name, r.Status, r.Errors)
				continue
			}
			one, _ := parser.ParseQuery(&ast.Source{Input: q})
			dec := json.NewDecoder(bytes.NewReader(r.Data))
			dec.UseNumber()
			var data any
			if err := dec.Decode(&data); err != nil {
				t.Fatal(err)
			}
			if problems := checkAnswer(schemas[path], one, data, vars); len(problems) > 0 {
				t.Errorf("%s %s: the answer breaks the schema:\n  %s", filepath.Base(file), op.Name, strings.Join(problems[:min(len(problems), 5)], "\n  "))
				continue
			}
			answered++
		}
	}
	t.Logf("%d of %d web-app operations answered without a GraphQL error, their answers valid", answered, total)
}

// operationText is an operation with the fragments it uses, and only
// those (a fragment unused is a validation error).
func operationText(doc *ast.QueryDocument, op *ast.OperationDefinition) string {
	var used []string
	var walk func(ast.SelectionSet)
	walk = func(ss ast.SelectionSet) {
		for _, sel := range ss {
			switch x := sel.(type) {
			case *ast.Field:
				walk(x.SelectionSet)
			case *ast.InlineFragment:
				walk(x.SelectionSet)
			case *ast.FragmentSpread:
				if !slices.Contains(used, x.Name) {
					used = append(used, x.Name)
					if f := doc.Fragments.ForName(x.Name); f != nil {
						walk(f.SelectionSet)
					}
				}
			}
		}
	}
	walk(op.SelectionSet)
	var b strings.Builder
	b.WriteString(sourceOf(op.Position, doc))
	for _, f := range doc.Fragments {
		if slices.Contains(used, f.Name) {
			b.WriteString("\n" + sourceOf(f.Position, doc))
		}
	}
	return b.String()
}

// sourceOf is the text of the definition starting at p: up to the next
// top-level definition.
func sourceOf(p *ast.Position, doc *ast.QueryDocument) string {
	src := p.Src.Input
	rest := src[p.Start:]
	end := len(rest)
	for _, kw := range []string{"\nquery ", "\nmutation ", "\nfragment ", "\nsubscription ", "\nquery{", "\n# "} {
		if i := strings.Index(rest[1:], kw); i >= 0 && i+1 < end {
			end = i + 1
		}
	}
	return rest[:end]
}

// literalJSON turns an opBuilder literal into JSON: enum values quoted,
// object keys quoted.
func literalJSON(lit string) string {
	var b strings.Builder
	inString := false
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		switch {
		case c == '"':
			inString = !inString
			b.WriteByte(c)
		case !inString && (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'):
			j := i
			for j < len(lit) && (lit[j] >= 'A' && lit[j] <= 'Z' || lit[j] >= 'a' && lit[j] <= 'z' || lit[j] >= '0' && lit[j] <= '9' || lit[j] == '_') {
				j++
			}
			word := lit[i:j]
			if word == "true" || word == "false" || word == "null" {
				b.WriteString(word)
			} else {
				b.WriteString(`"` + word + `"`)
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
