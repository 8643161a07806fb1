package gqlop

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/schemafile"
)

// IntrospectionQuery reads a schema whole, so that the SDL written from
// its answer (internal/schemafile) is the schema the endpoint serves:
// every type with its description, fields, arguments, input fields,
// interfaces, enum values and possible types, and the directives; which
// fields, arguments, input fields and enum values are deprecated, and why
// (`partnertui check` reports their uses). Deprecated arguments and input
// fields are asked for too (includeDeprecated), as graphql-js's own
// query does with inputValueDeprecation: without it a server leaves them
// out, and a schema rebuilt from its answer lacks them. It leaves out
// specifiedByURL, isRepeatable and isOneOf, which servers older than the
// 2021 specification refuse, failing the whole query. Its depth (13) and
// field count (about 190, fragments expanded) are within the Sandbox
// limits (TestIntrospectionQueryFitsTheSandboxLimits).
const IntrospectionQuery = `query PartnertuiIntrospection {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args(includeDeprecated: true) { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind
  name
  description
  fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
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
