package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
)

// firstOf is the first item of a --jsonl listing.
func firstOf[T any](t *testing.T, args ...string) T {
	t.Helper()
	code, out, errOut := runCLI(t, append(args, "--jsonl", "--first", "100")...)
	var v T
	if code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	line, _, _ := strings.Cut(out, "\n")
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatalf("%v: %q: %v", args, line, err)
	}
	return v
}

// TestCardMemberAndStatementCommands: `card ID`, `member ID` and
// `statement ID` show one item of the lists cards, members and statements
// print, as the app's palette opens them, with --json and --jq; a
// statement's document is saved by --download (whole, no token sent) or
// opened by --open; an id that is none is a failure that says to check it.
func TestCardMemberAndStatementCommands(t *testing.T) {
	t.Parallel()
	cfg, _ := signedInUserEmulator(t, 5)
	acc := firstOf[api.Account](t, "accounts", "--config", cfg)
	card := firstOf[api.Card](t, "cards", "--config", cfg)
	member := firstOf[api.AccountMembership](t, "members", acc.ID, "--config", cfg)
	var generated api.Statement
	code, out, errOut := runCLI(t, "statements", acc.ID, "--config", cfg, "--jsonl", "--all")
	if code != ExitOK {
		t.Fatalf("statements: exit %d: %s", code, errOut)
	}
	for line := range strings.Lines(out) {
		var s api.Statement
		if err := json.Unmarshal([]byte(line), &s); err == nil && s.StatusInfo.Status == "Generated" && generated.ID == "" {
			generated = s
		}
	}
	if generated.ID == "" {
		t.Fatalf("account %s has no Generated statement:\n%s", acc.ID, out)
	}

	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"card", card.ID}, []string{"Number", card.CardMaskedNumber, "Options"}},
		{[]string{"member", member.ID}, []string{"Rights", member.Email, acc.ID}},
		{[]string{"statement", generated.ID}, []string{"Closing", acc.Name, "Document", "Generated"}},
		{[]string{"card", card.ID, "--jq", ".id"}, []string{card.ID}},
		{[]string{"member", member.ID, "--json", "id,email"}, []string{`"email":"` + member.Email + `"`}},
		{[]string{"statement", generated.ID, "--json", "id,account"}, []string{`"account":{"id":"` + acc.ID + `"`}},
	} {
		code, out, errOut := runCLI(t, append(c.args, "--config", cfg)...)
		for _, w := range c.want {
			if code != ExitOK || !strings.Contains(out, w) {
				t.Errorf("%v: exit %d, stdout %q (%s); want %q", c.args, code, out, errOut, w)
			}
		}
	}

	pdf := filepath.Join(t.TempDir(), "statement.pdf")
	code, out, errOut = runCLI(t, "statement", generated.ID, "--download", pdf, "--config", cfg)
	body, err := os.ReadFile(pdf)
	if code != ExitOK || err != nil || !bytes.HasPrefix(body, []byte("%PDF-")) || !bytes.Contains(body, []byte(generated.ID)) || out != "" || !strings.Contains(errOut, "Saved statement") {
		t.Errorf("--download: exit %d, %d bytes (%v), stdout %q, stderr %q", code, len(body), err, out, errOut)
	}
	if code, out, _ := runCLI(t, "statement", generated.ID, "--download", "-", "--config", cfg); code != ExitOK || out != string(body) {
		t.Errorf("--download -: exit %d, %d bytes on stdout, want the same document", code, len(out))
	}

	// --open runs $BROWSER with the document's address.
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf %s \"$1\" > "+opened+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	homeOf(t).Vars["BROWSER"] = script
	code, _, errOut = runCLI(t, "statement", generated.ID, "--open", "--config", cfg)
	if got, _ := os.ReadFile(opened); code != ExitOK || string(got) != generated.StatusInfo.URL {
		t.Errorf("--open: exit %d (%s), the browser got %q, want %q", code, errOut, got, generated.StatusInfo.URL)
	}

	for _, args := range [][]string{{"card", "no-such-card"}, {"member", "no-such-member"}, {"statement", "no-such-statement"}} {
		code, out, errOut := runCLI(t, append(args, "--config", cfg)...)
		if code != ExitFailure || out != "" || !strings.Contains(errOut, "no-such-") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 naming the id", args, code, out, errOut)
		}
	}
}
