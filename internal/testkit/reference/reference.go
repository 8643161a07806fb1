// Package reference reads the platform's public reference files (its
// schemas) for tests, from $PARTNERTUI_REFERENCE when set, else from
// shared/reference beside the checkout. They are never copied into the
// repository. When they are absent a test skips, except in CI ($CI set),
// where a skipped check would pass unnoticed: there it fails.
package reference

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// The reference schemas' file names.
const (
	PartnerSchema = "partner-schema.graphql"
	TestingSchema = "partner-admin-schema.graphql"
)

// Read is the reference file name's contents.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	path := Path(t, name)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Path is where the reference file name is; the test skips (or, in CI,
// fails) when it is absent.
func Path(t testing.TB, name string) string {
	t.Helper()
	dir := os.Getenv("PARTNERTUI_REFERENCE")
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(root, "..", "shared", "reference")
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		fail, msg := Missing(os.Getenv("CI"), path)
		if fail {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// Missing decides what an absent reference file means: a failure in CI
// (ci is $CI), a skip with its reason elsewhere.
func Missing(ci, path string) (fail bool, msg string) {
	if ci != "" && ci != "false" && ci != "0" {
		return true, fmt.Sprintf("%s is absent and CI is set: this test needs the shared reference files (set PARTNERTUI_REFERENCE to their folder)", path)
	}
	return false, fmt.Sprintf("%s is absent: this test needs the shared reference files (set PARTNERTUI_REFERENCE to their folder)", path)
}

// moduleRoot is the folder of the go.mod above the test's directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's directory")
		}
		dir = parent
	}
}
