// Package opcheck checks the operations and fragments a code base holds
// (found by internal/opfind) against the schemas of the platform's
// endpoints: each operation goes to the endpoint whose root fields it
// uses (the first schema given, the partner API, unless only another's
// serve them), is validated there by gqlparser with its fragments from
// any file, and is counted against the Sandbox's limits as internal/gqlop
// counts them. Each finding (an error, a deprecated field, argument,
// input field or enum value used, with the platform's reason and the fix
// it suggests, a limit broken) is placed at its file:line:column.
package opcheck

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/partnertui/partnertui/internal/gqlop"
	"github.com/partnertui/partnertui/internal/opfind"
	"github.com/partnertui/partnertui/internal/schemafile"
)

// Kind is what a finding is about.
type Kind string

// The kinds of finding.
const (
	Error      Kind = "error"      // the operation is refused: syntax or schema
	Deprecated Kind = "deprecated" // it works, but uses what the platform will remove
	Limit      Kind = "limit"      // the Sandbox refuses it: a limit broken
)

// Finding is one problem, where it is.
type Finding struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Kind      Kind   `json:"kind"`
	Message   string `json:"message"`
	Endpoint  string `json:"endpoint,omitempty"`  // the endpoint whose schema said so
	Reason    string `json:"reason,omitempty"`    // a deprecation's reason, as the platform gives it
	Fix       string `json:"fix,omitempty"`       // what the reason says to do instead
	Operation string `json:"operation,omitempty"` // a limit's operation
}

// Operation is one operation found, where it goes and its size as the
// Sandbox counts it.
type Operation struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Name     string `json:"name"` // "" for an anonymous one
	Type     string `json:"type"` // query, mutation or subscription
	Endpoint string `json:"endpoint"`
	Fields   int    `json:"fields"`
	Depth    int    `json:"depth"`
	TopLevel int    `json:"top_level_fields"`
}

// Report is the result of a check.
type Report struct {
	Operations []Operation   `json:"operations"`
	Fragments  int           `json:"fragments"`
	Findings   []Finding     `json:"findings"`
	Notes      []opfind.Note `json:"notes"`
}

// Count is how many findings of each kind there are.
func (r *Report) Count() (errs, deprecated, limits int) {
	for _, f := range r.Findings {
		switch f.Kind {
		case Error:
			errs++
		case Deprecated:
			deprecated++
		case Limit:
			limits++
		}
	}
	return errs, deprecated, limits
}

// Options say what the operations are checked against.
type Options struct {
	// Schemas are the endpoints an operation can go to, the default
	// first; with none, only the syntax and the limits are checked.
	Schemas []*schemafile.Schema
	Limits  gqlop.Limits
}

// parsed is a document that parses.
type parsed struct {
	doc *opfind.Document
	q   *ast.QueryDocument
}

type checker struct {
	opts   Options
	report *Report
	docs   []*parsed
	bySrc  map[*ast.Source]*opfind.Document
	frags  map[string][]fragRef // every fragment, by name, in file order
	seen   map[string]bool      // findings already reported (a fragment checked with several operations)
	rules  *rules.Rules
}

type fragRef struct {
	def *ast.FragmentDefinition
	in  *parsed
}

// Check checks every operation and fragment of docs.
func Check(docs []*opfind.Document, opts Options) *Report {
	c := &checker{
		opts: opts, report: &Report{Operations: []Operation{}, Findings: []Finding{}, Notes: []opfind.Note{}},
		bySrc: map[*ast.Source]*opfind.Document{}, frags: map[string][]fragRef{}, seen: map[string]bool{},
		rules: rules.NewDefaultRules(),
	}
	// Fragments are shared across files, as graphql-codegen and Apollo
	// share them: one defined and used nowhere in its own file is normal.
	c.rules.RemoveRule("NoUnusedFragments")
	for _, d := range docs {
		c.parse(d)
	}
	for _, p := range c.docs {
		c.checkDocument(p)
	}
	slices.SortStableFunc(c.report.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Kind, b.Kind))
	})
	return c.report
}

func (c *checker) parse(d *opfind.Document) {
	src := &ast.Source{Name: d.File, Input: d.Text}
	q, err := parser.ParseQuery(src)
	if err != nil {
		c.parseFailed(d, err)
		return
	}
	if len(q.Operations) == 0 && len(q.Fragments) == 0 {
		return
	}
	p := &parsed{doc: d, q: q}
	c.docs = append(c.docs, p)
	c.bySrc[src] = d
	for _, f := range q.Fragments {
		c.frags[f.Name] = append(c.frags[f.Name], fragRef{f, p})
	}
	c.report.Fragments += len(q.Fragments)
}

// schemaKeyword: a line that starts a type system definition.
var schemaKeyword = regexp.MustCompile(`(?m)^\s*(?:extend\s+)?(?:type|input|enum|interface|union|scalar|schema|directive)\b`)

// parseFailed reports a document that does not parse: an error when the
// code says it is GraphQL, a note when it may be something else (a
// schema, prose, a string built around a value this file does not hold).
func (c *checker) parseFailed(d *opfind.Document, err error) {
	msg, line, col := err.Error(), 0, 0
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		msg = ge.Message
		if len(ge.Locations) > 0 {
			line, col = d.Position(ge.Locations[0].Line, ge.Locations[0].Column)
		}
	}
	startLine, _ := d.Start()
	switch {
	case d.Kind == opfind.GraphQLFile && schemaKeyword.MatchString(d.Text):
		c.note(d.File, 0, "skipped: a schema (type definitions), not operations")
	case len(d.Unresolved) > 0:
		c.note(d.File, startLine, fmt.Sprintf("skipped: built around ${%s}, which is not a string of this file, and the rest does not parse alone (%d:%d: %s)",
			strings.Join(d.Unresolved, "}, ${"), line, col, msg))
	case d.Kind == opfind.Keyword:
		c.note(d.File, startLine, fmt.Sprintf("skipped: a string that starts like an operation but is not GraphQL (%d:%d: %s)", line, col, msg))
	default:
		if line == 0 {
			line, col = d.Start()
		}
		c.add(Finding{File: d.File, Line: line, Column: col, Kind: Error, Message: "syntax: " + msg})
	}
}

func (c *checker) note(file string, line int, msg string) {
	c.report.Notes = append(c.report.Notes, opfind.Note{File: file, Line: line, Message: msg})
}

// add records f once.
func (c *checker) add(f Finding) {
	key := fmt.Sprintf("%s:%d:%d:%s:%s", f.File, f.Line, f.Column, f.Kind, f.Message)
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.report.Findings = append(c.report.Findings, f)
}

// resolve finds the fragment name for a spread in p: p's own first, then
// its file's, then the first of any file.
func (c *checker) resolve(name string, p *parsed) *fragRef {
	refs := c.frags[name]
	for _, pass := range []func(fragRef) bool{
		func(r fragRef) bool { return r.in == p },
		func(r fragRef) bool { return r.in.doc.File == p.doc.File },
		func(fragRef) bool { return true },
	} {
		for i := range refs {
			if pass(refs[i]) {
				return &refs[i]
			}
		}
	}
	return nil
}

// closure adds to into the fragments set spreads, each resolved from the
// document it is written in.
func (c *checker) closure(set ast.SelectionSet, p *parsed, into map[string]*ast.FragmentDefinition, order *[]*ast.FragmentDefinition) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			c.closure(s.SelectionSet, p, into, order)
		case *ast.InlineFragment:
			c.closure(s.SelectionSet, p, into, order)
		case *ast.FragmentSpread:
			if _, done := into[s.Name]; done {
				continue
			}
			r := c.resolve(s.Name, p)
			if r == nil {
				into[s.Name] = nil // reported by validation: Unknown fragment
				continue
			}
			into[s.Name] = r.def
			*order = append(*order, r.def)
			c.closure(r.def.SelectionSet, r.in, into, order)
		}
	}
}

// unit is what is validated together: operations or fragments of one
// document, against one schema, with every fragment they use.
type unit struct {
	schema *schemafile.Schema
	ops    []*ast.OperationDefinition
	frags  []*ast.FragmentDefinition // those of the document checked without an operation
}

func (c *checker) checkDocument(p *parsed) {
	var units []*unit
	unitFor := func(s *schemafile.Schema) *unit {
		for _, u := range units {
			if u.schema == s {
				return u
			}
		}
		u := &unit{schema: s}
		units = append(units, u)
		return u
	}
	used := map[*ast.FragmentDefinition]bool{}
	for _, op := range p.q.Operations {
		u := unitFor(c.target(op, p))
		u.ops = append(u.ops, op)
		into := map[string]*ast.FragmentDefinition{}
		var order []*ast.FragmentDefinition
		c.closure(op.SelectionSet, p, into, &order)
		for _, f := range order {
			used[f] = true
		}
	}
	for _, f := range p.q.Fragments {
		if !used[f] {
			u := unitFor(c.fragmentTarget(f))
			u.frags = append(u.frags, f)
		}
	}
	for _, u := range units {
		c.checkUnitSafely(p, u)
	}
}

// checkUnitSafely checks u; should gqlparser panic on a document, that
// document is a note and the others are still checked.
func (c *checker) checkUnitSafely(p *parsed, u *unit) {
	defer func() {
		if r := recover(); r != nil {
			line, _ := p.doc.Start()
			c.note(p.doc.File, line, fmt.Sprintf("skipped: the validator failed on this document (%v)", r))
		}
	}()
	c.checkUnit(p, u)
}

// target is the schema an operation goes to: the first whose root type
// has every root field it selects, else the one that has the most.
func (c *checker) target(op *ast.OperationDefinition, p *parsed) *schemafile.Schema {
	if len(c.opts.Schemas) == 0 {
		return nil
	}
	var names []string
	c.rootFields(op.SelectionSet, p, map[string]bool{}, &names)
	best, bestN := c.opts.Schemas[0], -1
	for _, s := range c.opts.Schemas {
		root := rootType(s.AST, op.Operation)
		n := 0
		for _, name := range names {
			if name == "__typename" || (root != nil && root.Fields.ForName(name) != nil) {
				n++
			}
		}
		if n == len(names) {
			return s
		}
		if n > bestN {
			best, bestN = s, n
		}
	}
	return best
}

func (c *checker) rootFields(set ast.SelectionSet, p *parsed, seen map[string]bool, names *[]string) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			*names = append(*names, s.Name)
		case *ast.InlineFragment:
			c.rootFields(s.SelectionSet, p, seen, names)
		case *ast.FragmentSpread:
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			if r := c.resolve(s.Name, p); r != nil {
				c.rootFields(r.def.SelectionSet, r.in, seen, names)
			}
		}
	}
}

func rootType(s *ast.Schema, op ast.Operation) *ast.Definition {
	switch op {
	case ast.Mutation:
		return s.Mutation
	case ast.Subscription:
		return s.Subscription
	}
	return s.Query
}

// fragmentTarget is the schema a fragment no operation of its document
// uses is checked against: the first that has its type.
func (c *checker) fragmentTarget(f *ast.FragmentDefinition) *schemafile.Schema {
	for _, s := range c.opts.Schemas {
		if s.AST.Types[f.TypeCondition] != nil {
			return s
		}
	}
	if len(c.opts.Schemas) == 0 {
		return nil
	}
	return c.opts.Schemas[0]
}

func (c *checker) checkUnit(p *parsed, u *unit) {
	into := map[string]*ast.FragmentDefinition{}
	var order []*ast.FragmentDefinition
	for _, f := range u.frags {
		into[f.Name] = f
		order = append(order, f)
	}
	for _, op := range u.ops {
		c.closure(op.SelectionSet, p, into, &order)
	}
	for _, f := range u.frags {
		c.closure(f.SelectionSet, p, into, &order)
	}
	doc := &ast.QueryDocument{Operations: u.ops, Fragments: order}
	endpoint := ""
	if u.schema != nil {
		endpoint = u.schema.Endpoint.Title()
		c.validate(p, u, doc)
	}
	for _, op := range u.ops {
		c.count(p, op, doc, endpoint)
	}
}

func (c *checker) validate(p *parsed, u *unit, doc *ast.QueryDocument) {
	endpoint := u.schema.Endpoint.Title()
	for _, e := range validator.ValidateWithRulesWithSources(u.schema.AST, doc, c.rules) {
		f := Finding{Kind: Error, Message: e.Message, Endpoint: endpoint}
		f.File = p.doc.File
		f.Line, f.Column = p.doc.Start()
		if len(e.Locations) > 0 {
			loc := e.Locations[0]
			if d := c.bySrc[loc.Source]; d != nil {
				f.File = d.File
				f.Line, f.Column = d.Position(loc.Line, loc.Column)
			}
		}
		c.add(f)
	}
	if u.schema.Deprecations {
		c.deprecations(doc, endpoint)
	}
}

// count counts op against the limits.
func (c *checker) count(p *parsed, op *ast.OperationDefinition, doc *ast.QueryDocument, endpoint string) {
	n := (&gqlop.Operation{Doc: doc, Op: op}).Count(c.opts.Limits)
	line, col := p.doc.Position(op.Position.Line, op.Position.Column)
	c.report.Operations = append(c.report.Operations, Operation{
		File: p.doc.File, Line: line, Column: col, Name: op.Name, Type: string(op.Operation), Endpoint: endpoint,
		Fields: n.Fields, Depth: n.Depth, TopLevel: n.TopLevel,
	})
	for _, b := range n.Broken {
		f := Finding{File: p.doc.File, Line: line, Column: col, Kind: Limit, Message: b.Message, Operation: opName(op)}
		if d := c.bySrc[b.Source]; d != nil && b.Line > 0 {
			f.File = d.File
			f.Line, f.Column = d.Position(b.Line, b.Column)
		}
		if f.Operation != "" {
			f.Message = f.Operation + ": " + f.Message
		}
		c.add(f)
	}
}

func opName(op *ast.OperationDefinition) string {
	if op.Name != "" {
		return op.Name
	}
	return "the anonymous " + string(op.Operation)
}
