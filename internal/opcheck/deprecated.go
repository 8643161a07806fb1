package opcheck

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/internal/schemafile"
)

// deprecations reports each deprecated field, argument, input field and
// enum value doc uses, as validation resolved them against the schema.
func (c *checker) deprecations(doc *ast.QueryDocument, endpoint string) {
	w := &deprecationWalker{c: c, endpoint: endpoint}
	for _, op := range doc.Operations {
		for _, v := range op.VariableDefinitions {
			w.value(v.DefaultValue)
		}
		w.selections(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		w.selections(f.SelectionSet)
	}
}

type deprecationWalker struct {
	c        *checker
	endpoint string
}

func (w *deprecationWalker) selections(set ast.SelectionSet) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			w.field(s)
			w.selections(s.SelectionSet)
		case *ast.InlineFragment:
			w.selections(s.SelectionSet)
		}
	}
}

func (w *deprecationWalker) field(f *ast.Field) {
	def := f.Definition
	if def == nil {
		return // unknown: validation said so
	}
	parent := ""
	if f.ObjectDefinition != nil {
		parent = f.ObjectDefinition.Name + "."
	}
	if reason, ok := schemafile.Deprecation(def.Directives); ok {
		w.report(f.Position, parent+def.Name, "", reason)
	}
	for _, a := range f.Arguments {
		if ad := def.Arguments.ForName(a.Name); ad != nil {
			if reason, ok := schemafile.Deprecation(ad.Directives); ok {
				w.report(a.Position, parent+def.Name+"("+a.Name+":)", "an argument", reason)
			}
		}
		w.value(a.Value)
	}
}

// value reports the deprecated enum values and input fields in v, at any
// depth of lists and input objects.
func (w *deprecationWalker) value(v *ast.Value) {
	if v == nil {
		return
	}
	switch v.Kind {
	case ast.EnumValue:
		if v.Definition != nil && v.Definition.Kind == ast.Enum {
			if ev := v.Definition.EnumValues.ForName(v.Raw); ev != nil {
				if reason, ok := schemafile.Deprecation(ev.Directives); ok {
					w.report(v.Position, v.Definition.Name+"."+v.Raw, "an enum value", reason)
				}
			}
		}
	case ast.ObjectValue:
		for _, child := range v.Children {
			if v.Definition != nil && v.Definition.Kind == ast.InputObject {
				if fd := v.Definition.Fields.ForName(child.Name); fd != nil {
					if reason, ok := schemafile.Deprecation(fd.Directives); ok {
						w.report(child.Position, v.Definition.Name+"."+child.Name, "an input field", reason)
					}
				}
			}
			w.value(child.Value)
		}
	case ast.ListValue:
		for _, child := range v.Children {
			w.value(child.Value)
		}
	}
}

func (w *deprecationWalker) report(pos *ast.Position, what, kind, reason string) {
	if pos == nil {
		return
	}
	d := w.c.bySrc[pos.Src]
	if d == nil {
		return
	}
	line, col := d.Position(pos.Line, pos.Column)
	if kind != "" {
		what += " (" + kind + ")"
	}
	w.c.add(Finding{File: d.File, Line: line, Column: col, Kind: Deprecated, Endpoint: w.endpoint,
		Message: fmt.Sprintf("%s is deprecated: %s", what, reason), Reason: reason, Fix: Fix(reason)})
}

// insteadPattern finds what a deprecation reason says to use: "use X
// instead", "Use X.", "replaced by X", "look for X", "please use X".
var insteadPattern = regexp.MustCompile(`(?i)\b(?:use|replaced by|look for)\s+(.+)`)

// Fix is what a deprecation reason says to do instead ("use `search`"),
// or "" when it says nothing of the kind.
func Fix(reason string) string {
	m := insteadPattern.FindStringSubmatch(reason)
	if m == nil {
		return ""
	}
	what := m[1]
	for _, stop := range []string{" instead", ". ", ", ", "; "} {
		if i := strings.Index(what, stop); i >= 0 {
			what = what[:i]
		}
	}
	what = strings.TrimRight(strings.TrimSpace(what), ".")
	if what == "" {
		return ""
	}
	return "use " + what
}
