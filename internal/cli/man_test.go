package cli

import (
	"strings"
	"testing"
)

// TestManPage: the man page keeps each paragraph of the help whole (man
// starts a paragraph at every line of the source), shows no backtick of
// the help's value placeholders, and `man` is listed in --help.
func TestManPage(t *testing.T) {
	t.Parallel()
	code, page, errOut := runCLI(t, "man")
	if code != ExitOK {
		t.Fatalf("man: exit %d: %s", code, errOut)
	}
	if strings.Contains(page, "`") {
		t.Errorf("the man page shows backticks:\n%s", page)
	}
	// The root's first paragraph is three lines in the help, one here.
	if !strings.Contains(page, "lists your accounts, shows IBANs, balances and transactions, and switches") {
		t.Errorf("the description's first paragraph is broken up:\n%s", page)
	}
	if !strings.Contains(page, "search holder, account name") {
		t.Errorf("the man page lost the flags' usage:\n%s", page)
	}
	_, help, _ := runCLI(t, "--help")
	if !strings.Contains(help, "\n  man ") {
		t.Errorf("--help does not list man:\n%s", help)
	}
}
