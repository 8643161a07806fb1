package exec

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// Validate checks a parsed document against the schema with the
// specification's rules (gqlparser's validator); the operation runs only
// when it returns nothing.
func (s *Schema) Validate(doc *ast.QueryDocument) []*Error {
	return fromGQL(validator.ValidateWithRules(s.Schema, doc, rules.NewDefaultRules()), "GRAPHQL_VALIDATION_FAILED")
}

func fromGQL(list gqlerror.List, code string) []*Error {
	out := make([]*Error, 0, len(list))
	for _, e := range list {
		qe := &Error{Message: e.Message, Extensions: map[string]any{"code": code}}
		for _, l := range e.Locations {
			qe.Locations = append(qe.Locations, Location{Line: l.Line, Column: l.Column})
		}
		out = append(out, qe)
	}
	return out
}
