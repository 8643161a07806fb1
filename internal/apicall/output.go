package apicall

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/itchyny/gojq"

	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/usage"
)

// output writes the answers: each page as it comes, or every page in one
// array (--slurp); through a jq filter when one is given.
type output struct {
	ctx    context.Context
	out    io.Writer
	errw   io.Writer
	indent bool       // a terminal reads it: indented; a pipe: compact
	jq     *gojq.Code // nil without --jq
	slurp  bool       // --slurp
	bodies [][]byte   // --slurp without --jq: the pages as they came
	values []any      // --slurp with --jq: the pages decoded
	failed bool       // an answer carried "errors"
}

// CompileJQ compiles a --jq expression, as every command's --jq does; a
// mistake is a usage error.
func CompileJQ(expr string) (*gojq.Code, error) { return compileJQ(expr) }

func compileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, usage.Errorf("--jq %q: %v", expr, err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, usage.Errorf("--jq %q: %v", expr, err)
	}
	return code, nil
}

// page takes one answer (its body, and the body decoded).
func (o *output) page(body []byte, decoded map[string]any) error {
	o.reportErrors(decoded)
	switch {
	case o.slurp && o.jq == nil:
		o.bodies = append(o.bodies, body)
		return nil
	case o.slurp:
		o.values = append(o.values, any(decoded))
		return nil
	case o.jq != nil:
		return o.filter(any(decoded))
	}
	return o.writeRaw(body)
}

// finish writes what --slurp gathered.
func (o *output) finish() error {
	if !o.slurp {
		return nil
	}
	if o.jq != nil {
		if o.values == nil {
			o.values = []any{}
		}
		return o.filter(o.values)
	}
	return o.writeRaw(append(append([]byte("["), bytes.Join(o.bodies, []byte(","))...), ']'))
}

func (o *output) writeRaw(body []byte) error {
	var b bytes.Buffer
	var err error
	if o.indent {
		err = json.Indent(&b, body, "", "  ")
	} else {
		err = json.Compact(&b, body)
	}
	if err != nil {
		return fmt.Errorf("could not write the answer: %w", err)
	}
	b.WriteByte('\n')
	_, err = o.out.Write(b.Bytes())
	return err
}

// filter runs the jq filter on v and writes each result (WriteJQ).
func (o *output) filter(v any) error { return WriteJQ(o.ctx, o.jq, v, o.out, o.indent) }

// WriteJQ runs the jq program code on v (JSON as encoding/json decodes it
// into any) and writes each result to out: a string as it is (as jq -r
// and gh --jq do, made safe for a terminal), anything else as JSON,
// indented for a terminal. The program's halt ends the output; its
// halt_error and error(…) are an error whose text is the program's (a
// surface shows it through the sanitiser, like any error).
func WriteJQ(ctx context.Context, code *gojq.Code, v any, out io.Writer, indent bool) error {
	iter := code.RunWithContext(ctx, v)
	for {
		r, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := r.(error); isErr {
			// jq's `halt` ends the output without an error; the iterator
			// yields it as it is (gojq's documented check).
			if halt, ok := err.(*gojq.HaltError); ok && halt.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %w", err)
		}
		if s, isString := r.(string); isString {
			if _, err := fmt.Fprintln(out, safetext.Strip(s)); err != nil {
				return err
			}
			continue
		}
		// A filter makes strings of its own ("\u009b2J"): written as
		// their escapes, they say the same and draw nothing.
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if indent {
			enc.SetIndent("", "  ")
		}
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("could not write the --jq result: %w", err)
		}
		if _, err := out.Write(safetext.JSON(b.Bytes())); err != nil {
			return err
		}
	}
}

// reportErrors writes an answer's "errors" on stderr, one line each.
func (o *output) reportErrors(decoded map[string]any) {
	errs, _ := decoded["errors"].([]any)
	for _, e := range errs {
		m, _ := e.(map[string]any)
		msg, _ := m["message"].(string)
		line := "error: " + msg
		if path, ok := m["path"].([]any); ok && len(path) > 0 {
			parts := make([]string, 0, len(path))
			for _, p := range path {
				parts = append(parts, fmt.Sprint(p))
			}
			line += " (at " + strings.Join(parts, ".") + ")"
		}
		if ext, ok := m["extensions"].(map[string]any); ok {
			if code, ok := ext["code"].(string); ok && code != "" {
				line += " [" + code + "]"
			}
		}
		fmt.Fprintln(o.errw, line)
		o.failed = true
	}
}
