package safetext

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestStripLinesKeepsTheLines: a text of lines is stripped line by line,
// its line ends kept, and what is left is clean.
func TestStripLinesKeepsTheLines(t *testing.T) {
	t.Parallel()
	for _, tc := range HostileSamples() {
		got := StripLines(tc.In + "\n" + tc.In)
		if want := strings.Count(tc.In, "\n")*2 + 1; strings.Count(got, "\n") != want {
			t.Errorf("StripLines(%q) keeps %d line ends, want %d", tc.In, strings.Count(got, "\n"), want)
		}
		for line := range strings.SplitSeq(got, "\n") {
			AssertClean(t, line)
		}
	}
	if got := StripLines("one\x1b[2J\ntwo\u202e"); got != "one\ntwo" {
		t.Errorf("StripLines = %q, want the lines kept and each stripped", got)
	}
}

// TestJSONEscapesWithoutChangingTheValue: JSON text with raw C1, DEL and
// bidi controls in its strings is written with their escapes instead, and
// decodes to the same value.
func TestJSONEscapesWithoutChangingTheValue(t *testing.T) {
	t.Parallel()
	for _, tc := range HostileSamples() {
		b, err := json.Marshal(map[string]any{"k": tc.In, "list": []string{tc.In}})
		if err != nil {
			t.Fatal(err)
		}
		safe := JSON(b)
		AssertClean(t, string(safe))
		var before, after any
		if err := json.Unmarshal(b, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(safe, &after); err != nil {
			t.Fatalf("JSON(%s) = %s is not JSON: %v", b, safe, err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Errorf("JSON(%s) = %s changed the value", b, safe)
		}
	}
	if in := []byte(`{"a":"plain ünïcode"}`); &JSON(in)[0] != &in[0] {
		t.Error("clean JSON is copied")
	}
}
