package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
)

// keptLog is a request log of the entries given.
type keptLog []api.Entry

func (l keptLog) Entries() []api.Entry { return l }
func (l keptLog) Seq() uint64          { return uint64(len(l)) + 1 }

// Under --demo a request copied from L runs against this demo, and says
// it is valid only while the demo runs: the command names the demo's
// configuration and state, and the curl is preceded by the line that
// sets this demo's token, since `partnertui token` alone reads the real
// configuration (issue 32, item 21). Outside a demo the copies are the
// user's own setup's.
func TestDemoCopiesReachTheDemo(t *testing.T) {
	t.Parallel()
	entry := api.Entry{Seq: 1, Time: testNow.Add(-time.Second), Env: "sandbox", Project: true, URL: "http://127.0.0.1:41234/sandbox-partner/graphql",
		Name: "ProjectInfo", Query: "query ProjectInfo { projectInfo { name } }", Status: 200}
	place := &DemoPlace{ConfigFile: "/tmp/partnertui-demo-7/config.toml", StateHome: "/tmp/partnertui-demo-7"}
	for _, demo := range []bool{true, false} {
		d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: 120, h: 40}, func(d *driver) {
			d.requests = keptLog{entry}
			if demo {
				d.demo = place
			}
		})
		d.press("L", "c", "C")
		if len(d.copied) != 2 {
			t.Fatalf("demo %v: copied %d texts", demo, len(d.copied))
		}
		command, curl := d.copied[0], d.copied[1]
		if !demo {
			if command != entry.Command() || curl != entry.Curl() {
				t.Errorf("outside a demo the copies changed:\n%s\n%s", command, curl)
			}
			d.wantScreen("Copied as curl: set PARTNERTUI_TOKEN=$(partnertui token) first")
			continue
		}
		d.wantScreen("copies valid while this demo runs")
		d.wantScreen("Copied as curl, after the line that sets this demo's token: valid only while the demo runs")
		if want := "XDG_STATE_HOME=/tmp/partnertui-demo-7 partnertui api --config /tmp/partnertui-demo-7/config.toml --env sandbox --project "; !strings.HasPrefix(command, want) {
			t.Errorf("command %q, want it to start %q", command, want)
		}
		lines := strings.Split(curl, "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "# Valid only while this partnertui --demo runs") ||
			lines[1] != `export PARTNERTUI_TOKEN="$(XDG_STATE_HOME=/tmp/partnertui-demo-7 partnertui token --config /tmp/partnertui-demo-7/config.toml --env sandbox --project)"` ||
			lines[2] != entry.Curl() {
			t.Errorf("curl:\n%s", curl)
		}
	}
}

// At 80 columns the request log's last line keeps the demo's warning
// whole, the legend shortened instead (issue 32, item 21); at 120 it has
// room for every word.
func TestDemoWarningFitsTheStatusLine(t *testing.T) {
	t.Parallel()
	entry := api.Entry{Seq: 1, Time: testNow.Add(-time.Second), Env: "sandbox", URL: "http://127.0.0.1:41234/sandbox-partner/graphql",
		Name: "ProjectInfo", Query: "query ProjectInfo { projectInfo { name } }", Status: 200}
	for _, c := range []struct {
		w, h int
		want string
	}{{80, 24, "copies valid in this demo only"}, {120, 40, "● sent by Accounts · copies valid while this demo runs"}} {
		d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: c.w, h: c.h}, func(d *driver) {
			d.requests = keptLog{entry}
			d.demo = &DemoPlace{ConfigFile: "/tmp/partnertui-demo-7/config.toml", StateHome: "/tmp/partnertui-demo-7"}
		})
		d.press("L")
		lines := strings.Split(d.screen(), "\n")
		status := ""
		for _, l := range lines {
			if strings.Contains(l, "requests kept, newest first") {
				status = l
			}
		}
		if !strings.Contains(status, c.want) || strings.Contains(status, "…") {
			t.Errorf("%dx%d: the status line %q, want it to hold %q whole", c.w, c.h, status, c.want)
		}
	}
}
