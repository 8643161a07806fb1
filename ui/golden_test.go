package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/partnertui/partnertui/api"
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
	limited := func(d *driver) {
		d.sbx.accounts[0].IBAN, d.sbx.accounts[0].PaymentLevel = "", "Limited"
		d.sbx.viewer = map[string]*api.AccountMembership{"acc-0": {ID: "mem-acc-0-me", CanViewAccount: false, StatusInfo: api.MembershipStatusInfo{Status: "Enabled"}}}
	}
	typed := func(s string) []string { return strings.Split(s, "") }
	scenes := []struct {
		name  string
		fx    fixture
		keys  []string
		setup func(*driver)
	}{
		{"signin", fixture{rows: 3, demo: true}, nil, nil},
		{"accounts", fixture{rows: 250, signedIn: true}, []string{"j", "j"}, nil},
		{"filter", fixture{rows: 30, signedIn: true}, []string{"/", "1"}, nil},
		{"detail", fixture{rows: 3, signedIn: true}, []string{"j", "enter"}, nil},
		{"qr", fixture{rows: 3, signedIn: true}, []string{"enter", "Q"}, nil},
		{"amount", fixture{rows: 3, signedIn: true}, []string{"enter", "s", "1", "2", "left"}, nil},
		{"help", fixture{rows: 3, signedIn: true}, []string{"?"}, nil},
		{"txhelp", fixture{rows: 3, signedIn: true}, []string{"enter", "2", "?"}, nil},
		{"confirm", fixture{rows: 3, signedIn: true}, []string{"e"}, nil},
		{"live", fixture{rows: 3, signedIn: true, liveSigned: true}, []string{"e", "y"}, nil},
		{"limited", fixture{rows: 3, signedIn: true}, []string{"enter"}, limited},
		{"transactions", fixture{rows: 3, signedIn: true}, []string{"j", "enter", "2"}, nil},
		{"txfilter", fixture{rows: 3, signedIn: true}, []string{"j", "enter", "2", "f", "b", "o", "tab", "down", "down", "2", "0", "2", "6"}, nil},
		{"txfiltered", fixture{rows: 3, signedIn: true}, append([]string{"j", "enter", "2", "/"}, append(typed("Payment 1"), "enter")...), nil},
		{"txdetail", fixture{rows: 3, signedIn: true}, []string{"j", "enter", "2", "j", "enter"}, nil},
		{"members", fixture{rows: 3, signedIn: true}, []string{"enter", "3"}, nil},
		{"member", fixture{rows: 3, signedIn: true}, []string{"enter", "3", "enter"}, nil},
		{"cards", fixture{rows: 3, signedIn: true}, []string{"enter", "4"}, nil},
		{"card", fixture{rows: 3, signedIn: true}, []string{"enter", "4", "enter"}, nil},
		{"statements", fixture{rows: 3, signedIn: true}, []string{"enter", "5"}, nil},
		{"statement", fixture{rows: 3, signedIn: true}, []string{"enter", "5", "enter"}, nil},
		{"palette", fixture{rows: 3, signedIn: true}, []string{":", "c"}, nil},
		{"unknownaccount", fixture{rows: 3, signedIn: true}, append(typed(":account 00000000-0000-0000-0000-000000000000"), "enter"), nil},
		{"alltransactions", fixture{rows: 3, signedIn: true}, append(typed(":transactions"), "enter"), nil},
		{"projecttransactions", fixture{rows: 3, project: true}, append(typed(":transactions"), "enter"), nil},
		{"allmembers", fixture{rows: 3, project: true}, append(typed(":members"), "enter"), nil},
		{"allcards", fixture{rows: 3, project: true}, append(typed(":cards"), "enter"), nil},
		{"requests", fixture{rows: 3, signedIn: true}, []string{"enter", "L"}, withRequests},
		{"request", fixture{rows: 3, signedIn: true}, []string{"enter", "L", "enter"}, withRequests},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				fx := sc.fx
				fx.w, fx.h, fx.color = sz[0], sz[1], true
				d := newDriverWith(t, fx, func(d *driver) {
					d.sbx.txs["acc-1"] = makeTxs("acc-1", 25)
					d.sbx.txs["acc-0"] = makeTxs("acc-0", 3)
					if sc.setup != nil {
						sc.setup(d)
					}
				})
				d.press(sc.keys...)
				golden.RequireEqual(t, asciiView(t, d))
			})
		}
	}
}
