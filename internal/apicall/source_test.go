package apicall

import (
	"context"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
)

// TestSourceReadsOnceThenTheSnapshot: the app's view of anything reads the
// schema as `api` does: by introspection the first time, kept as a
// snapshot, read from it after.
func TestSourceReadsOnceThenTheSnapshot(t *testing.T) {
	t.Parallel()
	w := newWorld(t, emulator.Options{Accounts: 5})
	src := Source{Env: w.env}
	s, from, err := src.Schema(context.Background())
	if err != nil || s == nil || s.Types["Account"] == nil || from != "read by introspection" {
		t.Fatalf("first read: %v, %q, %v", s != nil, from, err)
	}
	s, from, err = src.Schema(context.Background())
	if err != nil || s == nil || !strings.HasPrefix(from, "the snapshot of ") {
		t.Fatalf("second read: %v, %q, %v", s != nil, from, err)
	}
	if n := countOf(w.emu.Log.Operations(t), "PartnertuiIntrospection"); n != 1 {
		t.Errorf("introspected %d times, want once", n)
	}
}
