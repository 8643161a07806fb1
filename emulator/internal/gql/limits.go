package gql

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Limits bound what one operation may ask of an endpoint.
type Limits struct {
	Name        string // whose limit it is, in messages: "Sandbox" or "Live"
	MaxFields   int    // fields per operation, after expanding fragments
	MaxDepth    int    // nesting; a root field has depth 1
	MaxTopLevel int    // root fields (queries or mutations) per operation; 0: any
	// MaxNodes bounds the connection nodes an operation may ask for: the
	// sum, over every field with a `first` argument, of the product of the
	// `first` values down to it. It is the emulator's own guard (the
	// platform documents no Live limit): one 7 KB query of 50 aliased
	// accounts(first: 100) { transactions(first: 100) } would otherwise
	// build a 16 MB answer in memory.
	MaxNodes int64
	// pageArgs maps type → field → the default of its `first` argument,
	// for the fields that have one.
	pageArgs map[string]map[string]pageField
}

// pageField is what the cost estimate needs of a schema field.
type pageField struct {
	first    int64  // default of `first`; 0 when the field has none
	hasFirst bool   // the field pages with `first`
	typ      string // named type of the result
}

// MaxQueryNodes is the emulator's bound on connection nodes per operation,
// on every endpoint: generous for any screen (100 accounts with 100
// transactions each is 10,100) and small enough to answer in a few MB.
const MaxQueryNodes = 100_000

// sandboxLimits are the documented Sandbox values.
func sandboxLimits() Limits {
	return Limits{Name: "Sandbox", MaxFields: 1000, MaxDepth: 15, MaxTopLevel: 5, MaxNodes: MaxQueryNodes}
}

// liveLimits only stop abuse: the platform documents no Live limits.
func liveLimits() Limits {
	return Limits{Name: "Live", MaxFields: 100_000, MaxDepth: 64, MaxNodes: MaxQueryNodes}
}

// endpointLimits returns an endpoint's limits with the schema's paging
// fields indexed for the cost estimate.
func endpointLimits(s *ast.Schema, sandbox bool) *Limits {
	l := liveLimits()
	if sandbox {
		l = sandboxLimits()
	}
	l.pageArgs = pagingFields(s)
	return &l
}

// pagingFields indexes every object and interface field by its result type
// and the default of its `first` argument.
func pagingFields(s *ast.Schema) map[string]map[string]pageField {
	out := map[string]map[string]pageField{}
	for name, t := range s.Types {
		if t.Kind != ast.Object && t.Kind != ast.Interface {
			continue
		}
		m := make(map[string]pageField, len(t.Fields))
		for _, f := range t.Fields {
			pf := pageField{typ: f.Type.Name()}
			if a := f.Arguments.ForName("first"); a != nil {
				pf.hasFirst = true
				if a.DefaultValue != nil && a.DefaultValue.Kind == ast.IntValue {
					pf.first, _ = strconv.ParseInt(a.DefaultValue.Raw, 10, 64)
				}
			}
			m[f.Name] = pf
		}
		out[name] = m
	}
	return out
}

// opStats is what analyze measured. Fields and Depth stop growing once a
// limit is passed: a fragment bomb is not expanded further.
type opStats struct {
	Fields, Depth, TopLevel int
	// Nodes counts every selection visited, spreads and inline fragments
	// included: spreads of spreads can double without adding a field.
	Nodes int
	// Cost is the estimate of connection nodes (see Limits.MaxNodes).
	Cost int64
}

// nodesPerField bounds the walk: an operation may visit at most this many
// selections per allowed field before it is refused as too complex.
const nodesPerField = 10

var errTooBig = errors.New("operation exceeds a limit")

// parseOperation parses the document and selects the operation to run; a
// syntax error or an unknown operation name is the client's fault.
func parseOperation(query, opName string) (*ast.QueryDocument, *ast.OperationDefinition, error) {
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return nil, nil, err
	}
	var op *ast.OperationDefinition
	switch {
	case opName != "":
		op = doc.Operations.ForName(opName)
		if op == nil {
			return nil, nil, fmt.Errorf("operation %q is not in the document: send one of its operation names", opName)
		}
	case len(doc.Operations) == 1:
		op = doc.Operations[0]
	case len(doc.Operations) == 0:
		return nil, nil, errors.New("the document has no operation: send a query or mutation")
	default:
		return nil, nil, errors.New("the document has several operations: set operationName to the one to run")
	}
	return doc, op, nil
}

// analyze measures an operation, expanding fragment spreads (unknown or
// cyclic spreads are left to validation) and stopping early once a limit
// is exceeded. The cost follows the schema's types through fields and
// fragments; `first` values come from the operation's literals, its
// variables or the defaults, capped at the page maximum the resolvers
// enforce anyway.
func analyze(doc *ast.QueryDocument, op *ast.OperationDefinition, lim *Limits, vars map[string]any) opStats {
	var st opStats
	root := "Query"
	if op.Operation == ast.Mutation {
		root = "Mutation"
	}
	var walk func(ss ast.SelectionSet, depth int, typ string, mult int64, stack map[string]bool, top bool) error
	walk = func(ss ast.SelectionSet, depth int, typ string, mult int64, stack map[string]bool, top bool) error {
		for _, sel := range ss {
			st.Nodes++
			if st.Nodes > lim.MaxFields*nodesPerField {
				return errTooBig
			}
			switch s := sel.(type) {
			case *ast.Field:
				st.Fields++
				if top {
					st.TopLevel++
				}
				st.Depth = max(st.Depth, depth)
				if st.Fields > lim.MaxFields || st.Depth > lim.MaxDepth {
					return errTooBig
				}
				pf := lim.pageArgs[typ][s.Name]
				m := mult
				if pf.hasFirst {
					// Not a reason to stop: the walk is bounded by the
					// field count, and the message reports the whole cost.
					m = satMul(mult, pageSize(s, pf, op, vars))
					st.Cost = min(st.Cost+m, costCap)
				}
				if err := walk(s.SelectionSet, depth+1, pf.typ, m, stack, false); err != nil {
					return err
				}
			case *ast.InlineFragment:
				t := typ
				if s.TypeCondition != "" {
					t = s.TypeCondition
				}
				if err := walk(s.SelectionSet, depth, t, mult, stack, top); err != nil {
					return err
				}
			case *ast.FragmentSpread:
				f := doc.Fragments.ForName(s.Name)
				if f == nil || stack[s.Name] {
					continue
				}
				stack[s.Name] = true
				err := walk(f.SelectionSet, depth, f.TypeCondition, mult, stack, top)
				delete(stack, s.Name)
				if err != nil {
					return err
				}
			}
		}
		return nil
	}
	_ = walk(op.SelectionSet, 1, root, 1, map[string]bool{}, true)
	return st
}

// costCap saturates the cost estimate: nested pages multiply, and 64
// levels of 100 would overflow.
const costCap = 1 << 60

func satMul(a, b int64) int64 {
	if b != 0 && a > costCap/b {
		return costCap
	}
	return a * b
}

// pageSize is the `first` a field will be resolved with, between 0 and
// maxPage: a larger value is refused by the resolver, so it never costs
// more than a full page.
func pageSize(f *ast.Field, pf pageField, op *ast.OperationDefinition, vars map[string]any) int64 {
	n := pf.first
	if arg := f.Arguments.ForName("first"); arg != nil {
		switch v := arg.Value; v.Kind {
		case ast.IntValue:
			n, _ = strconv.ParseInt(v.Raw, 10, 64)
		case ast.Variable:
			n = maxPage
			if x, ok := jsonInt(vars[v.Raw]); ok {
				n = x
			} else if d := op.VariableDefinitions.ForName(v.Raw); d != nil && d.DefaultValue != nil && d.DefaultValue.Kind == ast.IntValue {
				n, _ = strconv.ParseInt(d.DefaultValue.Raw, 10, 64)
			}
		}
	}
	return min(max(n, 0), maxPage)
}

// jsonInt reads a variable's JSON number, decoded with or without
// UseNumber.
func jsonInt(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case float64:
		return int64(x), true
	}
	return 0, false
}

// check returns the message of the first limit the operation exceeds.
func (l *Limits) check(st opStats) (string, bool) {
	switch {
	case l.MaxTopLevel > 0 && st.TopLevel > l.MaxTopLevel:
		return fmt.Sprintf("operation has %d top-level fields, the %s limit is %d: split it into several operations", st.TopLevel, l.Name, l.MaxTopLevel), false
	case st.Nodes > l.MaxFields*nodesPerField:
		return fmt.Sprintf("operation expands to more than %d selections (fields, fragment spreads and inline fragments), the %s limit is %d fields: use fewer nested fragments", l.MaxFields*nodesPerField, l.Name, l.MaxFields), false
	case st.Fields > l.MaxFields:
		return fmt.Sprintf("operation has more than %d fields after expanding fragments (counted %d before stopping), the %s limit is %d: select fewer fields", l.MaxFields, st.Fields, l.Name, l.MaxFields), false
	case st.Depth > l.MaxDepth:
		return fmt.Sprintf("operation depth is %d, the %s limit is %d: nest fewer fields", st.Depth, l.Name, l.MaxDepth), false
	case l.MaxNodes > 0 && st.Cost > l.MaxNodes:
		return fmt.Sprintf("operation may return %d connection nodes (each connection's `first` multiplied by the `first` of the connections around it, summed over fields and aliases), the emulator's limit is %d: ask for smaller pages, fewer nested connections or fewer aliases", st.Cost, l.MaxNodes), false
	}
	return "", true
}

// onlyIntrospection reports whether every root selection is __schema,
// __type or __typename: the platform answers those without a token.
func onlyIntrospection(op *ast.OperationDefinition) bool {
	if op.Operation != ast.Query || len(op.SelectionSet) == 0 {
		return false
	}
	for _, sel := range op.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok || (f.Name != "__schema" && f.Name != "__type" && f.Name != "__typename") {
			return false
		}
	}
	return true
}
