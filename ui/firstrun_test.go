package ui

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// firstRunView is the screen as a terminal with the ASCII profile shows it.
func firstRunView(t *testing.T, m *firstRunModel) string {
	t.Helper()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.Ascii}
	if _, err := w.WriteString(m.View().Content); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestFirstRunScreen: with no configuration, the screen offers the demo
// and the template and says where the credentials go, at 80×24 and
// 120×40; w writes the template once, d chooses the demo, q leaves.
// Refresh the goldens with go test ./ui -run TestFirstRunScreen -update.
func TestFirstRunScreen(t *testing.T) {
	t.Parallel()
	const path = "/home/alice/.config/partnertui/config.toml"
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		for _, scene := range []string{"offer", "wrote", "failed", "unfilled"} {
			t.Run(fmt.Sprintf("%s_%dx%d", scene, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				writes := 0
				m := newFirstRun(FirstRunOptions{ConfigPath: path, NoColor: true, Exists: scene == "unfilled", WriteTemplate: func() error {
					writes++
					if scene == "failed" {
						return errors.New("open " + path + ": permission denied")
					}
					return nil
				}})
				m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				if scene != "offer" {
					m.Update(keyMsg("w"))
					m.Update(keyMsg("w"))
				}
				if scene == "unfilled" && (writes != 0 || strings.Contains(ansi.Strip(firstRunView(t, m)), "w write")) {
					t.Errorf("with the file there, w is offered or writes (%d)", writes)
				}
				view := firstRunView(t, m)
				golden.RequireEqual(t, view)
				view = ansi.Strip(view)
				lines := strings.Split(view, "\n")
				if len(lines) != sz[1] {
					t.Errorf("%d lines, want the screen's %d", len(lines), sz[1])
				}
				for _, want := range []string{path, "d try the demo", "client_id", "q quit"} {
					if !strings.Contains(view, want) {
						t.Errorf("the screen lacks %q:\n%s", want, view)
					}
				}
				switch {
				case scene == "wrote" && (writes != 1 || !strings.Contains(view, "Wrote the template") || strings.Contains(view, "w write")):
					t.Errorf("after w, w: %d writes, and the screen:\n%s", writes, view)
				case scene == "failed" && (writes != 2 || !strings.Contains(view, "permission denied")):
					t.Errorf("a failed write: %d writes, and the screen:\n%s", writes, view)
				}
			})
		}
	}
	for k, want := range map[string]FirstRunChoice{"d": FirstRunDemo, "q": FirstRunQuit, "esc": FirstRunQuit} {
		m := newFirstRun(FirstRunOptions{ConfigPath: path, WriteTemplate: func() error { return nil }})
		_, cmd := m.Update(keyMsg(k))
		if cmd == nil || m.choice != want {
			t.Errorf("%s: choice %v (a command: %v), want %v and the screen closed", k, m.choice, cmd != nil, want)
		}
		if msg := cmd(); msg != (tea.QuitMsg{}) {
			t.Errorf("%s: %T, want the program to end", k, msg)
		}
	}
}
