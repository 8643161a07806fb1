package cli

import (
	"strings"
	"testing"
)

// TestUsageErrorsSuggest: a mistyped command or flag is answered with the
// closest one, as gh and kubectl do; nothing close, nothing suggested.
func TestUsageErrorsSuggest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string // "" when nothing is close
	}{
		{[]string{"acounts"}, "Did you mean `partnertui accounts`?"},
		{[]string{"transactoins"}, "Did you mean `partnertui transactions`?"},
		{[]string{"config", "initt"}, "Did you mean `partnertui config init`?"},
		{[]string{"accounts", "--frist", "3"}, "Did you mean `--first`?"},
		{[]string{"transactions", "--acount", "x"}, "Did you mean `--account`?"},
		// An inherited flag is suggested as well as the command's own.
		{[]string{"accounts", "--evn", "live"}, "Did you mean `--env`?"},
		{[]string{"accounts", "--jsno"}, "Did you mean `--json`?"},
		{[]string{"zzzzzz"}, ""},
		{[]string{"accounts", "--zz"}, ""},
		{[]string{"accounts", "-Z"}, ""},
		// Two of three letters wrong is no typing mistake.
		{[]string{"accounts", "--csv"}, ""},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		if code != ExitUsage || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want %d and nothing", c.args, code, out, ExitUsage)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: %q is not one line", c.args, errOut)
		}
		// The usage hint is the help of the command the mistake is in.
		help := "Run `partnertui --help` for usage."
		if len(c.args) > 1 {
			help = "Run `partnertui " + c.args[0] + " --help` for usage."
		}
		switch {
		case c.want == "" && (!strings.Contains(errOut, help) || strings.Contains(errOut, "Did you mean")):
			t.Errorf("%v: stderr %q, want %q and no guess", c.args, errOut, help)
		case c.want != "" && !strings.Contains(errOut, c.want):
			t.Errorf("%v: stderr %q lacks %q", c.args, errOut, c.want)
		case c.want != "" && strings.Contains(errOut, "--help"):
			t.Errorf("%v: stderr %q gives two remedies", c.args, errOut)
		}
	}
}
