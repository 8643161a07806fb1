package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/apicall"
	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/suggest"
)

// jsonFlags are gh's --json and --jq, on every list and single-item
// command: --json writes JSON with every field, --json id,name only those
// (in that order), --jq EXPR filters the JSON with jq (implying --json).
type jsonFlags struct {
	JSON jsonFlag
	JQ   string
	// known are the item's fields, by their JSON names.
	known []string
}

// jsonFlag is --json's value: off, on with every field, or on with some.
// It is a flag without a value that takes one after =; `--json id,name`
// with a space is read as `--json=id,name` before parsing
// (jsonFieldArgs), when every name is one of the command's fields.
type jsonFlag struct {
	on     bool
	fields []string
}

func (j *jsonFlag) String() string {
	switch {
	case !j.on:
		return "false"
	case j.fields == nil:
		return "true"
	}
	return strings.Join(j.fields, ",")
}

func (j *jsonFlag) Set(v string) error {
	switch v {
	case "true":
		j.on, j.fields = true, nil
	case "false":
		j.on, j.fields = false, nil
	default:
		j.on, j.fields = true, nil
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				j.fields = append(j.fields, f)
			}
		}
	}
	return nil
}

// Type is "bool" so that help shows --json without a value placeholder.
func (j *jsonFlag) Type() string { return "bool" }

// jsonFieldsAnnotation lists, on a command, the fields --json takes.
const jsonFieldsAnnotation = "partnertui/json-fields"

// register adds --json and --jq (-q) to cmd for items of type T, whose
// JSON fields the help lists; what is the --json flag's usage.
func (j *jsonFlags) register(cmd *cobra.Command, item reflect.Type, what string) {
	j.known = jsonFields(item)
	fl := cmd.Flags()
	fl.Var(&j.JSON, "json", what+"; --json field,field writes only those fields")
	fl.Lookup("json").NoOptDefVal = "true"
	fl.StringVarP(&j.JQ, "jq", "q", "", "filter the JSON with a jq `expression` (implies --json), as gh --jq does")
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[jsonFieldsAnnotation] = strings.Join(j.known, ",")
	cmd.Long = strings.TrimRight(cmd.Long, "\n") + "\n\nJSON fields (--json field,field): " + strings.Join(j.known, ", ") + "."
	cmd.Long = strings.TrimLeft(cmd.Long, "\n")
}

// on reports whether JSON is asked for, by --json or --jq.
func (j jsonFlags) on() bool { return j.JSON.on || j.JQ != "" }

// output checks the fields and compiles the filter: what the writers need.
func (j jsonFlags) output() (jsonOutput, error) {
	o := jsonOutput{fields: j.JSON.fields}
	for _, f := range o.fields {
		if !slices.Contains(j.known, f) {
			if near := suggest.Closest(f, j.known, 3); len(near) > 0 {
				return o, usageErrorf("--json: no field %q: did you mean %s?", f, suggest.JoinOr(near))
			}
			return o, usageErrorf("--json: no field %q; the fields are %s", f, strings.Join(j.known, ", "))
		}
	}
	if j.JQ != "" {
		code, err := apicall.CompileJQ(j.JQ)
		if err != nil {
			return o, err
		}
		o.jq = code
	}
	return o, nil
}

// jsonOutput is what --json and --jq ask of the JSON written.
type jsonOutput struct {
	fields []string   // nil: every field
	jq     *gojq.Code // nil: none
}

// encode is v's JSON, with only the fields asked for (null for one the
// platform did not return), in their order.
func (o jsonOutput) encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("could not encode the JSON output: %w", err)
	}
	whole := bytes.TrimRight(b.Bytes(), "\n")
	if o.fields == nil {
		return whole, nil
	}
	if bytes.HasPrefix(whole, []byte("[")) {
		// Several items (status of every environment): each its fields.
		var items []json.RawMessage
		if err := json.Unmarshal(whole, &items); err != nil {
			return nil, fmt.Errorf("could not select the JSON fields: %w", err)
		}
		out := []byte("[")
		for i, item := range items {
			one, err := o.project(item)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, one...)
		}
		return append(out, ']'), nil
	}
	return o.project(whole)
}

// project is the JSON object whole with only the fields asked for.
func (o jsonOutput) project(whole []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(whole, &m); err != nil {
		return nil, fmt.Errorf("could not select the JSON fields: %w", err)
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i, f := range o.fields {
		if i > 0 {
			out.WriteByte(',')
		}
		name, _ := json.Marshal(f)
		out.Write(name)
		out.WriteByte(':')
		if raw, ok := m[f]; ok {
			out.Write(raw)
		} else {
			out.WriteString("null")
		}
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// write writes one value as --json and --jq ask: through the filter, or
// as JSON (indented on a terminal).
func (o jsonOutput) write(ctx context.Context, w io.Writer, v any, indent bool) error {
	b, err := o.encode(v)
	if err != nil {
		return err
	}
	if o.jq != nil {
		var decoded any
		if err := json.Unmarshal(b, &decoded); err != nil {
			return fmt.Errorf("could not filter the JSON output: %w", err)
		}
		return apicall.WriteJQ(ctx, o.jq, decoded, w, indent)
	}
	if indent {
		var ib bytes.Buffer
		if err := json.Indent(&ib, b, "", "  "); err != nil {
			return err
		}
		b = ib.Bytes()
	}
	return writeAll(w, append(safetext.JSON(b), '\n'))
}

// writeItem writes one item as the command's --json and --jq ask, or with
// human when neither does.
func (f *Factory) writeItem(ctx context.Context, j jsonFlags, v any, human func(io.Writer) error) error {
	if !j.on() {
		return human(f.IO.Out)
	}
	o, err := j.output()
	if err != nil {
		return err
	}
	return o.write(ctx, f.IO.Out, v, f.IO.OutIsTerminal())
}

// jsonFields are the JSON names of t's fields (a struct, or a pointer to
// one), an embedded struct's as its own, in their order.
func jsonFields(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// jsonFieldArgs reads `--json a,b` as `--json=a,b` when the command args
// run takes JSON fields: --json alone writes every field, so its value
// must be joined to it for the flag parser. A command that takes no
// argument (its Use is one word) takes any word after --json as fields,
// so a mistyped one is answered as such; one that takes an id joins only
// a list of its fields, and an id stays an argument.
func jsonFieldArgs(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd.Annotations[jsonFieldsAnnotation] == "" {
		return args
	}
	known := strings.Split(cmd.Annotations[jsonFieldsAnnotation], ",")
	takesArgs := strings.Contains(strings.TrimSpace(cmd.Use), " ")
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--json" && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && (!takesArgs || allFields(args[i+1], known)) {
			out = append(out, "--json="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func allFields(list string, known []string) bool {
	for f := range strings.SplitSeq(list, ",") {
		if !slices.Contains(known, strings.TrimSpace(f)) {
			return false
		}
	}
	return list != ""
}
