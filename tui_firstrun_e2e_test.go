package main

import (
	"os"
	"testing"
)

// TestTmuxFirstRun: plain partnertui on a machine with no configuration
// shows the first-run screen, at 80×24 and 120×40, instead of an error: w
// writes the commented template (0600) where partnertui looks for it, d
// starts the demo, q leaves having written nothing; with the template not
// yet filled in, the screen says so.
func TestTmuxFirstRun(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		tm := newTmux(t)
		file := tm.home.Locations.ConfigFile
		tm.start(sz[0], sz[1], realBinary.Path(t))
		tm.waitFor("the first-run screen", "first run", "No configuration yet", file, "Try it now", "client_id", "d try the demo", "q quit")
		if sz[0] == 120 {
			tm.keys("q")
			tm.waitExit()
			if _, err := os.Stat(file); err == nil {
				t.Errorf("q wrote %s", file)
			}
			continue
		}
		tm.keys("w")
		tm.waitFor("the template written", "Wrote the template", file)
		fi, err := os.Stat(file)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("the template: %v, %v; want a 0600 file at %s", fi, err, file)
		}
		tm.keys("d")
		tm.waitFor("the demo's sign-in", "Sign in", "SANDBOX")
		tm.keys("a")
		tm.waitFor("the demo's accounts", "Accounts", "FR76")
		tm.keys("q")
		tm.waitExit()
		// The template written but not filled in: the screen again, saying
		// so, with nothing to write.
		tm.start(sz[0], sz[1], realBinary.Path(t))
		tm.waitFor("the first-run screen over the template", "No environment has its credentials yet", file, "d try the demo")
		tm.keys("q")
		tm.waitExit()
	}
}
