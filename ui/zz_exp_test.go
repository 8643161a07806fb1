package ui

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestExpRefreshFail(t *testing.T) {
	d := newDriver(t, fixture{rows: 30, signedIn: true})
	d.accounts()
	d.press("E")
	t.Log(d.screen())
	d.sbx.mu.Lock()
	d.sbx.err = errors.New("boom network")
	d.sbx.mu.Unlock()
	d.press("r")
	t.Log(d.screen())
	d.fire(func(tea.Msg) bool { return true })
	d.fire(func(tea.Msg) bool { return true })
	t.Log(d.screen())
}
