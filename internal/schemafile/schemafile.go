// Package schemafile reads a GraphQL schema as people keep one: SDL, or
// the JSON answer to an introspection query (deprecations, descriptions
// and default values included), and tells which of the platform's
// endpoints it is by its root types.
package schemafile

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/partnertui/partnertui/internal/platform"
)

// Endpoint is which of the platform's GraphQL endpoints a schema is.
type Endpoint string

// The endpoints; Other is a schema that is neither (another API's).
const (
	Partner Endpoint = "partner"
	Testing Endpoint = "testing"
	Other   Endpoint = "other"
)

// Title is the endpoint as messages name it.
func (e Endpoint) Title() string {
	switch e {
	case Partner:
		return "partner API"
	case Testing:
		return "Testing API"
	}
	return "other API"
}

// Schema is one loaded schema and where it came from.
type Schema struct {
	Name     string // the file (or snapshot) it was read from, for messages
	AST      *ast.Schema
	Endpoint Endpoint
	// Deprecations: the source says which members are deprecated. SDL
	// always does; an introspection answer only when it asked for
	// isDeprecated (internal/gqlop's query does).
	Deprecations bool
}

// MaxFileSize bounds a schema file: the partner API's SDL is about 1 MB,
// its introspection answer a few.
const MaxFileSize = 64 << 20

// ErrTooLarge is a schema file past maxFile.
var ErrTooLarge = errors.New("the schema file is larger than 64 MB")

// Load reads data, SDL or introspection JSON ({"data":{"__schema":…}},
// {"__schema":…} or the __schema object itself), named name in messages.
func Load(name string, data []byte) (*Schema, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
	}
	sdl, deprecations, fromJSON := string(data), true, false
	if trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(trimmed) > 0 && trimmed[0] == '{' {
		var err error
		if sdl, deprecations, err = introspectionSDL(trimmed); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		fromJSON = true
	}
	s, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: sdl})
	if err != nil {
		var ge *gqlerror.Error
		switch {
		case fromJSON:
			// The SDL written from the answer is nobody's file: no place.
			if errors.As(err, &ge) {
				err = errors.New(ge.Message)
			}
			return nil, fmt.Errorf("%s: the introspection answer is not a valid schema: %w", name, err)
		case errors.As(err, &ge) && len(ge.Locations) > 0:
			return nil, fmt.Errorf("%s:%d:%d: %s", name, ge.Locations[0].Line, ge.Locations[0].Column, ge.Message)
		}
		return nil, fmt.Errorf("%s: not a schema gqlparser can load: %w", name, err)
	}
	return &Schema{Name: name, AST: s, Endpoint: Detect(s), Deprecations: deprecations}, nil
}

// FromIntrospection reads an introspection answer ({"data":{"__schema":…}},
// {"__schema":…} or the __schema object itself), named name in messages.
func FromIntrospection(name string, answer []byte) (*Schema, error) {
	if trimmed := bytes.TrimLeft(answer, " \t\r\n\ufeff"); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("%s is not JSON", name)
	}
	return Load(name, answer)
}

// SDL writes an introspection answer ({"data":{"__schema":…}},
// {"__schema":…} or the __schema object itself) as SDL, the text Load
// reads it back as, so that a schema read from an endpoint can be kept as
// a file people and other tools read. deprecations reports whether the
// answer says which members are deprecated.
func SDL(answer []byte) (sdl string, deprecations bool, err error) {
	trimmed := bytes.TrimLeft(answer, " \t\r\n\ufeff")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return "", false, errors.New("the introspection answer is not JSON")
	}
	return introspectionSDL(trimmed)
}

// Detect says which endpoint s is by the query only that endpoint serves.
func Detect(s *ast.Schema) Endpoint {
	if s == nil || s.Query == nil {
		return Other
	}
	switch {
	case s.Query.Fields.ForName(platform.TestingAPIQuery) != nil:
		return Testing
	case s.Query.Fields.ForName(platform.PartnerAPIQuery) != nil:
		return Partner
	}
	return Other
}

// Deprecation is why a member of a schema is deprecated, and whether it
// is: the reason @deprecated gives, or the directive's default.
func Deprecation(dirs ast.DirectiveList) (reason string, deprecated bool) {
	d := dirs.ForName("deprecated")
	if d == nil {
		return "", false
	}
	if a := d.Arguments.ForName("reason"); a != nil && a.Value != nil && a.Value.Kind == ast.StringValue {
		return a.Value.Raw, true
	}
	return "No longer supported", true
}
