// Package gqlop reads a GraphQL operation the user wrote (`partnertui
// api`) before anything is sent: it parses it, checks it against an
// environment's schema and the Sandbox's documented operation limits,
// counted as the platform counts them, and finds the connection that
// --paginate follows. Every problem carries its line and column. It shares
// no code with the emulator, which counts the same limits on its side.
package gqlop

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// Problem is one reason an operation is refused, and where it is.
type Problem struct {
	Message      string
	Line, Column int // 1-based; 0 when the problem has no place (a variable's value)
	// Source is the document Line and Column are in, when the check knows
	// it (a limit's count: an operation assembled from several documents).
	Source *ast.Source
}

func (p Problem) String() string {
	if p.Line == 0 {
		return p.Message
	}
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Column, p.Message)
}

// Error lists every problem found in an operation. Kind says which check
// found them.
type Error struct {
	Kind     Kind
	Problems []Problem
}

// Kind is the check that refused an operation.
type Kind int

// The checks.
const (
	Syntax Kind = iota + 1
	Schema
	Limit
	Variables
)

// ErrInvalid matches every *Error.
var ErrInvalid = errors.New("invalid operation")

// ErrSchema matches an *Error of the schema check, whose verdict is only
// as new as the schema it was checked against.
var ErrSchema = errors.New("the operation does not fit the schema")

// what each check says of an operation it refuses; the checks run before
// anything is sent.
var refusals = map[Kind]string{
	Syntax:    "the operation cannot be sent",
	Schema:    ErrSchema.Error(),
	Limit:     "the operation breaks a Sandbox limit",
	Variables: "a variable does not fit the operation",
}

func (e *Error) Error() string {
	parts := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		parts = append(parts, p.String())
	}
	return refusals[e.Kind] + " (nothing was sent): " + strings.Join(parts, "; ")
}

func (e *Error) Is(target error) bool {
	return target == ErrInvalid || (target == ErrSchema && e.Kind == Schema)
}

// fromGQL turns gqlparser's errors into problems; list may hold nils.
func fromGQL(kind Kind, list gqlerror.List) *Error {
	e := &Error{Kind: kind}
	for _, g := range list {
		if g == nil {
			continue
		}
		p := Problem{Message: g.Message}
		if len(g.Locations) > 0 {
			p.Line, p.Column = g.Locations[0].Line, g.Locations[0].Column
		}
		e.Problems = append(e.Problems, p)
	}
	if len(e.Problems) == 0 {
		return nil
	}
	return e
}

// Operation is one parsed document and the operation in it that is sent.
type Operation struct {
	Text string
	Doc  *ast.QueryDocument
	Op   *ast.OperationDefinition
}

// Parse parses text and selects the operation named name, or the only
// one when name is empty. A syntax error is an *Error of kind Syntax.
func Parse(text, name string) (*Operation, error) {
	doc, err := parser.ParseQuery(&ast.Source{Name: "operation", Input: text})
	if err != nil {
		var ge *gqlerror.Error
		if errors.As(err, &ge) {
			return nil, fromGQL(Syntax, gqlerror.List{ge})
		}
		return nil, &Error{Kind: Syntax, Problems: []Problem{{Message: err.Error()}}}
	}
	o := &Operation{Text: text, Doc: doc}
	switch {
	case name != "":
		o.Op = doc.Operations.ForName(name)
		if o.Op == nil {
			return nil, &Error{Kind: Syntax, Problems: []Problem{{Message: fmt.Sprintf("the document has no operation named %q", name)}}}
		}
	case len(doc.Operations) == 1:
		o.Op = doc.Operations[0]
	case len(doc.Operations) == 0:
		return nil, &Error{Kind: Syntax, Problems: []Problem{{Message: "the document has no operation: write a query or a mutation"}}}
	default:
		return nil, &Error{Kind: Syntax, Problems: []Problem{{
			Message: "the document has several operations: name the one to send with --operation-name",
			Line:    doc.Operations[1].Position.Line, Column: doc.Operations[1].Position.Column,
		}}}
	}
	return o, nil
}

// Name is the operation's name ("" for an anonymous one).
func (o *Operation) Name() string { return o.Op.Name }

// Mutation reports whether the operation changes something: a mutation
// (or a subscription, which no read-only environment serves either).
func (o *Operation) Mutation() bool { return o.Op.Operation != ast.Query }

// Validate checks the document against schema: every field, argument,
// type and variable must exist there and fit. The document is validated
// whole, as the server validates it.
func (o *Operation) Validate(schema *ast.Schema) error {
	if err := fromGQL(Schema, validator.ValidateWithRules(schema, o.Doc, nil)); err != nil {
		return err
	}
	return nil
}

// ValidateVariables checks the variables' values against the types the
// operation declares for them in schema.
func (o *Operation) ValidateVariables(schema *ast.Schema, vars map[string]any) (err error) {
	defer func() {
		// gqlparser panics on a type its schema lacks; the document was
		// validated first, but a panic must never be how a user learns it.
		if r := recover(); r != nil {
			err = &Error{Kind: Variables, Problems: []Problem{{Message: fmt.Sprint(r)}}}
		}
	}()
	if vars == nil {
		vars = map[string]any{}
	}
	if _, err := validator.VariableValues(schema, o.Op, vars); err != nil {
		var ge *gqlerror.Error
		if errors.As(err, &ge) {
			msg := ge.Message
			if len(ge.Path) > 0 {
				msg = ge.Path.String() + ": " + msg
			}
			return &Error{Kind: Variables, Problems: []Problem{{Message: msg}}}
		}
		return &Error{Kind: Variables, Problems: []Problem{{Message: err.Error()}}}
	}
	return nil
}
