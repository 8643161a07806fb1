package emulator

import (
	"errors"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Limits are the Sandbox operation limits of the platform.
type Limits struct {
	MaxFields   int // fields per operation, after expanding fragments
	MaxDepth    int // nesting; a root field has depth 1
	MaxTopLevel int // root fields (queries or mutations) per operation
}

// sandboxLimits are the documented Sandbox values.
func sandboxLimits() Limits { return Limits{MaxFields: 1000, MaxDepth: 15, MaxTopLevel: 5} }

// opStats is what analyze measured. Fields and Depth stop growing once a
// limit is passed: a fragment bomb is not expanded further.
type opStats struct {
	Fields, Depth, TopLevel int
	// Nodes counts every selection visited, spreads and inline fragments
	// included: spreads of spreads can double without adding a field.
	Nodes int
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
// is exceeded.
func analyze(doc *ast.QueryDocument, op *ast.OperationDefinition, lim Limits) opStats {
	var st opStats
	var walk func(ss ast.SelectionSet, depth int, stack map[string]bool, top bool) error
	walk = func(ss ast.SelectionSet, depth int, stack map[string]bool, top bool) error {
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
				if err := walk(s.SelectionSet, depth+1, stack, false); err != nil {
					return err
				}
			case *ast.InlineFragment:
				if err := walk(s.SelectionSet, depth, stack, top); err != nil {
					return err
				}
			case *ast.FragmentSpread:
				f := doc.Fragments.ForName(s.Name)
				if f == nil || stack[s.Name] {
					continue
				}
				stack[s.Name] = true
				err := walk(f.SelectionSet, depth, stack, top)
				delete(stack, s.Name)
				if err != nil {
					return err
				}
			}
		}
		return nil
	}
	_ = walk(op.SelectionSet, 1, map[string]bool{}, true)
	return st
}

// check returns the message of the first limit the operation exceeds.
func (l Limits) check(st opStats) (string, bool) {
	switch {
	case st.TopLevel > l.MaxTopLevel:
		return fmt.Sprintf("operation has %d top-level fields, the Sandbox limit is %d: split it into several operations", st.TopLevel, l.MaxTopLevel), false
	case st.Nodes > l.MaxFields*nodesPerField:
		return fmt.Sprintf("operation expands to more than %d selections (fields, fragment spreads and inline fragments), the Sandbox limit is %d fields: use fewer nested fragments", l.MaxFields*nodesPerField, l.MaxFields), false
	case st.Fields > l.MaxFields:
		return fmt.Sprintf("operation has more than %d fields after expanding fragments (counted %d before stopping), the Sandbox limit is %d: select fewer fields", l.MaxFields, st.Fields, l.MaxFields), false
	case st.Depth > l.MaxDepth:
		return fmt.Sprintf("operation depth is %d, the Sandbox limit is %d: nest fewer fields", st.Depth, l.MaxDepth), false
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
