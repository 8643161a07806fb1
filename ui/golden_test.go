package ui

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
)

// asciiView renders the model as a terminal with the ASCII colour profile
// shows it: colours dropped, attributes such as bold and reverse kept.
func asciiView(t *testing.T, d *driver) string {
	t.Helper()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.Ascii}
	if _, err := w.WriteString(d.m.View().Content); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestGoldenViews snapshots every screen at 80×24 and 120×40. Refresh with
// go test ./ui -run TestGoldenViews -update.
func TestGoldenViews(t *testing.T) {
	t.Parallel()
	scenes := []struct {
		name string
		fx   fixture
		keys []string
	}{
		{"signin", fixture{rows: 3, demo: true}, nil},
		{"accounts", fixture{rows: 250, signedIn: true}, []string{"j", "j"}},
		{"filter", fixture{rows: 30, signedIn: true}, []string{"/", "1"}},
		{"detail", fixture{rows: 3, signedIn: true}, []string{"j", "enter"}},
		{"qr", fixture{rows: 3, signedIn: true}, []string{"enter", "Q"}},
		{"amount", fixture{rows: 3, signedIn: true}, []string{"enter", "s", "1", "2", "left"}},
		{"help", fixture{rows: 3, signedIn: true}, []string{"?"}},
		{"confirm", fixture{rows: 3, signedIn: true}, []string{"e"}},
		{"live", fixture{rows: 3, signedIn: true, liveSigned: true}, []string{"e", "y"}},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				fx := sc.fx
				fx.w, fx.h, fx.color = sz[0], sz[1], true
				d := newDriver(t, fx)
				d.sbx.txs["acc-1"] = makeTxs(25)
				d.sbx.txs["acc-0"] = makeTxs(3)
				d.press(sc.keys...)
				golden.RequireEqual(t, asciiView(t, d))
			})
		}
	}
}
