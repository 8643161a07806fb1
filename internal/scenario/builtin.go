package scenario

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// builtinFiles are the built-in scenarios, one TOML file each, in the same
// format as a user's --file.
//
//go:embed builtin/*.toml
var builtinFiles embed.FS

// Builtins are the built-in scenarios, by name.
func Builtins() ([]Scenario, error) {
	names, err := fs.Glob(builtinFiles, "builtin/*.toml")
	if err != nil {
		return nil, err
	}
	var out []Scenario
	for _, n := range names {
		data, err := builtinFiles.ReadFile(n)
		if err != nil {
			return nil, err
		}
		sc, err := Parse(n, data)
		if err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(path.Base(n), ".toml"); sc.Name != want {
			return nil, fmt.Errorf("%s: the scenario is named %q; name it as its file", n, sc.Name)
		}
		out = append(out, sc)
	}
	slices.SortFunc(out, func(a, b Scenario) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}
