package ui

import (
	"slices"
	"strconv"
	"testing"
)

// The table of views holds each kind, palette name and event type once,
// and each account tab's screen goes by its tab's title; its number key
// shows it.
func TestTheTableOfViews(t *testing.T) {
	t.Parallel()
	vs := views()
	var kinds []resourceKind
	var names, events []string
	for _, v := range vs {
		if v.one != nil && v.kind == "" {
			t.Errorf("%s opens one by ID but names no kind", v.one.name)
		}
		if v.kind != "" {
			kinds = append(kinds, v.kind)
		}
		if v.event != "" {
			events = append(events, v.event)
		}
	}
	for _, j := range jumpTargets(vs) {
		names = append(names, j.name)
	}
	for what, l := range map[string][]string{"palette name": names, "event type": events} {
		if dup := firstDuplicate(l); dup != "" {
			t.Errorf("the %s %q is in the table twice", what, dup)
		}
	}
	if dup := firstDuplicate(kinds); dup != "" {
		t.Errorf("the kind %q is in the table twice", dup)
	}

	d := newDriver(t, fixture{rows: 3, signedIn: true, w: 120, h: 40})
	d.wantScreen("row 1 of 3")
	before := d.sbx.requests()
	d.press("enter")
	a := d.account()
	if len(a.tabs) != 1+len(accountTabs(vs)) || a.tabs[tabOverview].screen != a.overview {
		t.Fatalf("the account has %d tabs, the Overview first: %v", len(a.tabs), a.tabs[tabOverview].title)
	}
	for i := len(a.tabs) - 1; i >= 0; i-- {
		p := a.tabs[i]
		d.press(strconv.Itoa(i + 1))
		if a.active != i || p.title != p.screen.title() {
			t.Errorf("key %d: tab %d shown; the tab %q's screen is titled %q", i+1, a.active, p.title, p.screen.title())
		}
		if i != tabOverview {
			d.wantScreen("Accounts › Account 0 › " + p.title)
		}
	}
	if n := d.sbx.requests() - before; n != 1 || d.sbx.viewCalls != 1 || d.sbx.chartReads() != 0 || !a.overview.chart.complete() {
		t.Errorf("%d requests opened the account, drew its chart and went through its tabs, want the 1 that opens it", n)
	}
}

func firstDuplicate[T comparable](l []T) T {
	var zero T
	for i, x := range l {
		if slices.Contains(l[i+1:], x) {
			return x
		}
	}
	return zero
}

// Tabs have the number keys 1 to 9 at most, and say so.
func TestTabKeys(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{1: "1-1", 5: "1-5", 9: "1-9", 12: "1-9"} {
		keys, help := tabKeys(n)
		if help != want || len(keys) != min(n, 9) || keys[len(keys)-1] != strconv.Itoa(min(n, 9)) {
			t.Errorf("tabKeys(%d) = %v, %q; want the help %q", n, keys, help, want)
		}
	}
}
