package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/emulator/internal/answer"
	"github.com/partnertui/partnertui/emulator/internal/apischema"
	"github.com/partnertui/partnertui/emulator/internal/fixtures"
	"github.com/partnertui/partnertui/emulator/internal/gen"
	"github.com/partnertui/partnertui/emulator/internal/gql"
)

// Source is a file a user brings: a schema or fixtures. Data is its
// contents; when nil, the file at Path is read. Path names it in
// messages either way, so a caller that found the file itself (the
// schema pulled earlier) passes both.
type Source struct {
	Path string
	Data []byte
}

func (s Source) read() ([]byte, error) {
	if s.Data != nil {
		return s.Data, nil
	}
	b, err := os.ReadFile(s.Path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.Path, err)
	}
	return b, nil
}

// ErrBadInput is matched by Start's errors about a schema or fixtures
// file the user gave: not a schema, no root types, an unknown type or
// field in the fixtures, a value of the wrong type.
var ErrBadInput = errors.New("bad schema or fixtures file")

// inputError reads as its own message and matches ErrBadInput and
// ErrInvalidOptions: the caller's to fix.
type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{e.err, ErrBadInput, ErrInvalidOptions} }

// served is what the emulator serves besides its model: the schemas a
// user brought, by API, and the fixtures checked against them.
type served struct {
	schemas  map[string]*ast.Schema // by gql API
	paths    map[string]string
	fixtures *fixtures.Set
	// mismatches are the model's fields that answer differently from a
	// supplied schema, by API: they are generated instead.
	mismatches map[string][]string
}

// loadServed reads the schemas and fixtures of opts; nil when none are
// given.
func loadServed(opts Options) (*served, error) {
	if len(opts.Schemas) == 0 {
		if opts.Fixtures != nil {
			return nil, inputError{errors.New("fixtures set objects of a schema: give the schemas too (--schema FILE, once for the partner API and once for the Testing API)")}
		}
		return nil, nil
	}
	models := map[string]*ast.Schema{}
	for _, api := range []string{gql.PartnerAPI, gql.TestingAPI} {
		m, err := gql.ModelSchema(api)
		if err != nil {
			return nil, err
		}
		models[api] = m
	}
	s := &served{schemas: map[string]*ast.Schema{}, paths: map[string]string{}, mismatches: map[string][]string{}}
	for _, src := range opts.Schemas {
		data, err := src.read()
		if err != nil {
			return nil, inputError{err}
		}
		schema, err := apischema.Load(src.Path, data)
		if err != nil {
			return nil, inputError{err}
		}
		which, err := apischema.Which(src.Path, schema, models[gql.PartnerAPI], models[gql.TestingAPI])
		if err != nil {
			return nil, inputError{err}
		}
		api := gql.PartnerAPI
		if which == apischema.Testing {
			api = gql.TestingAPI
		}
		if prev, dup := s.paths[api]; dup {
			return nil, inputError{fmt.Errorf("%s and %s are both the %s: give one schema per API", prev, src.Path, which)}
		}
		s.schemas[api], s.paths[api] = schema, src.Path
		s.mismatches[api] = answer.CheckModel(models[api], schema).Mismatches
	}
	if opts.Fixtures != nil {
		if err := s.loadFixtures(*opts.Fixtures); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *served) loadFixtures(src Source) error {
	data, err := src.read()
	if err != nil {
		return inputError{err}
	}
	set, err := fixtures.Parse(src.Path, data)
	if err != nil {
		return inputError{err}
	}
	var against []fixtures.Schema
	for _, api := range []string{gql.PartnerAPI, gql.TestingAPI} {
		if sc, ok := s.schemas[api]; ok {
			against = append(against, fixtures.Schema{API: apiName(api), Schema: sc})
		}
	}
	if err := set.Check(against); err != nil {
		return inputError{err}
	}
	s.fixtures = set
	return nil
}

func apiName(api string) string {
	if api == gql.TestingAPI {
		return string(apischema.Testing)
	}
	return string(apischema.Partner)
}

// supplied is what an environment's endpoint of an API serves, with its
// own seed; nil when the user brought no schema for the API.
func (s *served) supplied(api string, seed int64) *gql.Supplied {
	if s == nil || s.schemas[api] == nil {
		return nil
	}
	sup := &gql.Supplied{Schema: s.schemas[api], Seed: seed}
	if s.fixtures != nil {
		sup.Fixtures = func(w *gen.World) { s.fixtures.Apply(w) }
	}
	return sup
}

// describe adds the schemas served to the start banner.
func (s *served) describe(info *Info) {
	if s == nil {
		return
	}
	info.Schemas = map[string]string{}
	for _, api := range []string{gql.PartnerAPI, gql.TestingAPI} {
		if p, ok := s.paths[api]; ok {
			info.Schemas[apiName(api)] = p
			for _, m := range s.mismatches[api] {
				info.Mismatches = append(info.Mismatches, apiName(api)+": "+m)
			}
		}
	}
}

// CoverageReport is, for each API, how the root operations of the schema
// in use are answered, per domain of the platform.
type CoverageReport struct {
	APIs []APICoverage `json:"apis"`
}

// APICoverage is one API's coverage.
type APICoverage struct {
	API        string        `json:"api"`    // "partner API", "Testing API"
	Schema     string        `json:"schema"` // the file served, or "the model's own"
	Rows       []CoverageRow `json:"domains"`
	Total      CoverageRow   `json:"total"`
	Mismatches []string      `json:"mismatches,omitempty"`
}

// CoverageRow is one domain's count of operations.
type CoverageRow struct {
	Domain    string `json:"domain"`
	Modelled  int    `json:"modelled"`
	Generated int    `json:"generated"`
	Missing   int    `json:"missing"`
}

// Coverage reports how the emulator would answer the operations of the
// schemas opts serves (Schemas, else the model's own), without starting.
func Coverage(opts Options) (*CoverageReport, error) {
	s, err := loadServed(opts)
	if err != nil {
		return nil, err
	}
	rep := &CoverageReport{}
	for _, api := range []string{gql.PartnerAPI, gql.TestingAPI} {
		model, err := gql.ModelSchema(api)
		if err != nil {
			return nil, err
		}
		c := APICoverage{API: apiName(api), Schema: "the model's own"}
		var cov answer.Coverage
		if s != nil && s.schemas[api] != nil {
			c.Schema, c.Mismatches = s.paths[api], s.mismatches[api]
			cov = answer.Covered(s.schemas[api], answer.CheckModel(model, s.schemas[api]))
		} else {
			cov = answer.Covered(model, nil)
		}
		for _, r := range cov.Rows {
			c.Rows = append(c.Rows, CoverageRow{Domain: r.Domain, Modelled: r.Modelled, Generated: r.Generated, Missing: r.Missing})
		}
		c.Total = CoverageRow{Domain: "total", Modelled: cov.Total.Modelled, Generated: cov.Total.Generated, Missing: cov.Total.Missing}
		rep.APIs = append(rep.APIs, c)
	}
	return rep, nil
}

// PrintCoverage writes a coverage report as a Markdown table per API (as
// the README carries it), or as one JSON object when asJSON is set.
func PrintCoverage(w io.Writer, rep *CoverageReport, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return fmt.Errorf("encode the coverage: %w", err)
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	var b strings.Builder
	for i, api := range rep.APIs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s): %d operations, %d modelled, %d generated, %d missing\n\n", api.API, api.Schema,
			api.Total.Modelled+api.Total.Generated+api.Total.Missing, api.Total.Modelled, api.Total.Generated, api.Total.Missing)
		fmt.Fprintf(&b, "| Domain | Modelled | Generated | Missing |\n|---|--:|--:|--:|\n")
		for _, r := range append(api.Rows, api.Total) {
			fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", r.Domain, r.Modelled, r.Generated, r.Missing)
		}
		if len(api.Mismatches) > 0 {
			fmt.Fprintf(&b, "\nThe schema types %d of the model's fields differently; they are generated:\n", len(api.Mismatches))
			for _, m := range api.Mismatches {
				fmt.Fprintf(&b, "  %s\n", m)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
