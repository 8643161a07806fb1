// Package apischema reads a schema a user brings to the emulator, as SDL
// or as the JSON answer of an introspection query, and tells which of the
// platform's two APIs it is (the partner API or the Sandbox Testing API)
// from its root types' fields.
package apischema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// ErrBadSchema is matched by every error about a schema file itself.
var ErrBadSchema = errors.New("bad schema file")

type schemaError struct{ msg string }

func (e *schemaError) Error() string { return e.msg }
func (e *schemaError) Is(t error) bool {
	return t == ErrBadSchema
}

func badf(format string, args ...any) error { return &schemaError{msg: fmt.Sprintf(format, args...)} }

// maxSchema bounds a schema file: the platform's is under 1 MB.
const maxSchema = 32 << 20

// Load reads a schema from data, named name in errors (a file path): SDL,
// or an introspection answer ({"data": {"__schema": …}} or
// {"__schema": …}). It must have a Query or a Mutation type.
func Load(name string, data []byte) (*ast.Schema, error) {
	if len(data) > maxSchema {
		return nil, badf("%s is %d bytes, more than a schema's %d: give the schema file itself", name, len(data), maxSchema)
	}
	if !utf8.Valid(data) {
		return nil, badf("%s is not text: give a schema as SDL (.graphql) or as the JSON answer of an introspection query", name)
	}
	trimmed := bytes.TrimSpace(data)
	var s *ast.Schema
	var err error
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		s, err = fromIntrospection(name, trimmed)
	} else {
		s, err = fromSDL(name, string(data))
	}
	if err != nil {
		return nil, err
	}
	if s.Query == nil && s.Mutation == nil {
		return nil, badf("%s has neither a Query nor a Mutation type: give the schema of the partner API or of the Testing API, whose root types say which it is", name)
	}
	return s, nil
}

func fromSDL(name, src string) (*ast.Schema, error) {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: src})
	if err == nil {
		return s, nil
	}
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		where := name
		if len(ge.Locations) > 0 {
			where = fmt.Sprintf("%s:%d:%d", name, ge.Locations[0].Line, ge.Locations[0].Column)
		}
		return nil, badf("%s: %s (the file must be a GraphQL schema in SDL, or the JSON answer of an introspection query)", where, strings.TrimSuffix(ge.Message, "."))
	}
	return nil, badf("%s: %v", name, err)
}

// API is which of the platform's endpoints a schema is.
type API string

// The platform's two GraphQL APIs.
const (
	Partner API = "partner API"
	Testing API = "Testing API"
)

// Which tells which API s is from the fields of its root types: the API
// whose model (the emulator's own schema of it) shares more root fields
// with s. A schema that shares none with either is refused.
func Which(name string, s *ast.Schema, partner, testing *ast.Schema) (API, error) {
	p, t := shared(s, partner), shared(s, testing)
	switch {
	case p > t:
		return Partner, nil
	case t > p:
		return Testing, nil
	}
	return "", badf("%s: cannot tell whether it is the partner API or the Testing API: its root types share %d fields with each (the partner API has accounts, projectInfo…; the Testing API has sandboxUser, simulate… mutations)", name, p)
}

// shared counts the root fields s and model have in common.
func shared(s, model *ast.Schema) int {
	n := 0
	for _, pair := range [][2]*ast.Definition{{s.Query, model.Query}, {s.Mutation, model.Mutation}} {
		if pair[0] == nil || pair[1] == nil {
			continue
		}
		for _, f := range pair[0].Fields {
			if !strings.HasPrefix(f.Name, "__") && pair[1].Fields.ForName(f.Name) != nil {
				n++
			}
		}
	}
	return n
}
