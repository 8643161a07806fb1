package shellcmd

import (
	"os/exec"
	"strings"
	"testing"
)

// TestQuoteSurvivesTheShell: whatever a quoted word holds, bash hands it
// back unchanged.
func TestQuoteSurvivesTheShell(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	for _, s := range []string{"plain", "", "it's", `{"query":"query { a }","x":"$HOME \\ ` + "`id`" + `"}`, "two\nlines", "a=b"} {
		out, err := exec.Command("bash", "-c", "printf %s "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("Quote(%q) came back as %q (%v)", s, out, err)
		}
	}
}

func TestAPICommand(t *testing.T) {
	t.Parallel()
	got := API{Env: "live", Project: true, OperationName: "Q", Query: "query Q($id: ID!) { a }",
		Variables: map[string]any{"id": "123", "n": 2, "in": map[string]any{"k": []any{true}}}}.String()
	want := `partnertui api --env live --project --operation-name Q -f id=123 -F 'in={"k":[true]}' -F n=2 'query Q($id: ID!) { a }'`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if c := Curl("http://127.0.0.1:1/g", []byte(`{"q":"it's"}`)); !strings.Contains(c, `"Authorization: Bearer $PARTNERTUI_TOKEN"`) || !strings.HasSuffix(c, `'{"q":"it'\''s"}'`) {
		t.Errorf("curl %s", c)
	}
}

// A command for a running --demo names its configuration and its state,
// quoted, so that it reaches that demo and no other setup.
func TestCommandsAtADemo(t *testing.T) {
	t.Parallel()
	at := &Place{Config: "/tmp/partnertui-demo-1/config.toml", StateHome: "/tmp/partnertui demo'1"}
	got := API{Env: "sandbox", Query: "{ a }", At: at}.String()
	want := `XDG_STATE_HOME='/tmp/partnertui demo'\''1' partnertui api --config /tmp/partnertui-demo-1/config.toml --env sandbox '{ a }'`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := Token("live", true, at), `XDG_STATE_HOME='/tmp/partnertui demo'\''1' partnertui token --config /tmp/partnertui-demo-1/config.toml --env live --project`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := Token("sandbox", false, nil); got != "partnertui token --env sandbox" {
		t.Errorf("token %s", got)
	}
}
