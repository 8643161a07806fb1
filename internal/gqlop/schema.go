package gqlop

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/schemafile"
)

// IntrospectionQuery reads what validation needs of a schema: every type
// with its fields, arguments, input fields, interfaces, enum values and
// possible types, and the directives; and which fields and enum values
// are deprecated, and why (`partnertui check` reports their uses). Its
// depth (13) and field count (about 175, fragments expanded) are within
// the Sandbox limits.
const IntrospectionQuery = `query PartnertuiIntrospection {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind
  name
  fields(includeDeprecated: true) { name args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

// SchemaFromIntrospection builds a schema from the answer to
// IntrospectionQuery ({"data":{"__schema":…}} or its data alone).
func SchemaFromIntrospection(answer []byte) (*ast.Schema, error) {
	s, err := schemafile.FromIntrospection("the introspection answer", answer)
	if err != nil {
		return nil, err
	}
	return s.AST, nil
}
