package apicall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/partnertui/partnertui/internal/usage"
)

// maxOperationFile bounds what is read for an operation or variables file
// (and standard input): a GraphQL operation is kilobytes.
const maxOperationFile = 4 << 20

// readOperation is the operation text: the argument itself, @file, or -
// for standard input.
func readOperation(arg string, stdin io.Reader) (string, error) {
	switch {
	case arg == "-":
		b, err := readAllMax(stdin, "standard input")
		return string(b), err
	case strings.HasPrefix(arg, "@"):
		b, err := readFileMax(arg[1:])
		return string(b), err
	}
	return arg, nil
}

func readFileMax(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usage.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	return readAllMax(f, path)
}

func readAllMax(r io.Reader, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxOperationFile+1))
	if err != nil {
		return nil, usage.Errorf("cannot read %s: %w", what, err)
	}
	if len(b) > maxOperationFile {
		return nil, usage.Errorf("%s is larger than %d MB: it is not a GraphQL operation or its variables", what, maxOperationFile>>20)
	}
	return b, nil
}

// readVariables merges --input's JSON object, then each -F (typed) and -f
// (string) in turn; a later one wins.
func readVariables(input string, typed, raw []string) (map[string]any, error) {
	vars := map[string]any{}
	if input != "" {
		b, err := readFileMax(input)
		if input == "-" {
			return nil, usage.Errorf("--input takes a file; the operation is what - reads from standard input")
		}
		if err != nil {
			return nil, err
		}
		if err := decodeJSON(b, &vars); err != nil || vars == nil {
			return nil, usage.Errorf("--input %s is not one JSON object of variables: %v", input, err)
		}
	}
	for _, kv := range typed {
		name, value, err := splitField("-F", kv)
		if err != nil {
			return nil, err
		}
		if vars[name], err = typedValue(name, value); err != nil {
			return nil, err
		}
	}
	for _, kv := range raw {
		name, value, err := splitField("-f", kv)
		if err != nil {
			return nil, err
		}
		vars[name] = value
	}
	return vars, nil
}

func splitField(flag, kv string) (string, string, error) {
	name, value, ok := strings.Cut(kv, "=")
	if !ok || name == "" {
		return "", "", usage.Errorf("%s %q: write name=value", flag, kv)
	}
	return name, value, nil
}

// typedValue reads -F's value as gh does: true, false, null and numbers
// are themselves, @file is the JSON in that file (an input object), a
// value starting with { or [ is JSON, and anything else is a string.
func typedValue(name, v string) (any, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n, nil
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && strings.ContainsAny(v, "0123456789") && !strings.ContainsAny(v, "xXnN") {
		return f, nil
	}
	var data []byte
	switch {
	case strings.HasPrefix(v, "@"):
		b, err := readFileMax(v[1:])
		if err != nil {
			return nil, err
		}
		data = b
	case strings.HasPrefix(v, "{"), strings.HasPrefix(v, "["):
		data = []byte(v)
	default:
		return v, nil
	}
	var x any
	if err := decodeJSON(data, &x); err != nil {
		return nil, usage.Errorf("-F %s=%s is not JSON: %v", name, v, err)
	}
	return x, nil
}

// decodeJSON reads exactly one JSON value, numbers kept as written.
func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}
