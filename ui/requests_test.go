package ui

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/shellcmd"
)

// TestRequestsViewShowsWhatEachScreenAsked: after browsing, L lists the
// account list's and the account's operations, newest first, with the
// account's own marked; enter shows one pretty-printed; c and C copy it as
// commands with no token, and the copied curl answers what the API does.
func TestRequestsViewShowsWhatEachScreenAsked(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 12}, false)
	e.press("j", "enter")
	e.account()
	e.press("L")
	s := topAs[*requestsScreen](e.driver)
	e.wantScreen(api.OpAccountViewUser)
	e.wantScreen(api.OpHomeUser)
	e.wantScreen("sent by")
	if len(s.entries) < 2 || s.entries[0].Name != api.OpAccountViewUser || !s.mine(s.entries[0]) {
		t.Fatalf("newest first, the account's own marked: %+v", s.entries)
	}
	for _, en := range s.entries[1:] {
		if en.Name == api.OpHomeUser && s.mine(en) {
			t.Error("the account list's request is marked as the account's")
		}
	}
	e.press("L") // no second Requests view over the first
	topAs[*requestsScreen](e.driver)

	e.press("enter")
	detail := topAs[*requestScreen](e.driver)
	e.wantScreen("Operation")
	e.wantScreen("query AccountViewWithMembership ($accountId: ID!")
	e.wantScreen("HTTP 200")
	if text := detail.content(); !strings.Contains(text, "Variables") || !strings.Contains(text, "{\n  \"accountId\": ") {
		t.Errorf("the variables are not shown pretty-printed:\n%s", text)
	}
	e.press("c", "C")
	if len(e.copied) != 2 {
		t.Fatalf("copied %d texts, want 2", len(e.copied))
	}
	command, curl := e.copied[0], e.copied[1]
	tok, err := e.sess.APITokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range e.copied {
		if strings.Contains(c, tok.AccessToken) {
			t.Fatalf("a copied command holds the access token: %s", c)
		}
	}
	if !strings.HasPrefix(command, "partnertui api --env sandbox --operation-name AccountViewWithMembership -f accountId=") {
		t.Errorf("copied command %q", command)
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	cmd := exec.Command("bash", "-c", curl)
	cmd.Env = append(os.Environ(), shellcmd.TokenVariable+"="+tok.AccessToken)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the copied curl failed: %v\n%s", err, curl)
	}
	want, err := e.client.Do(context.Background(), s.entries[0].Request())
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if json.Unmarshal(out, &a) != nil || json.Unmarshal(want.Body, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("the copied curl answered %s\nthe API answers %s", out, want.Body)
	}
	e.press("esc", "esc")
	e.account()
}

// fakeRequestLog is a request log whose entries the test writes.
type fakeRequestLog struct {
	entries []api.Entry
	next    uint64
}

func (f *fakeRequestLog) Entries() []api.Entry {
	out := slices.Clone(f.entries)
	slices.Reverse(out)
	return out
}
func (f *fakeRequestLog) Seq() uint64 { return f.next }

// withRequests gives the UI a request log holding the account list's
// page, a 429 and its retry after the wait, and the Overview's request.
func withRequests(d *driver) {
	url := "https://api.example.test/sandbox-partner/graphql"
	at := func(s int) time.Time { return testNow.Add(time.Duration(s) * time.Second) }
	log := &fakeRequestLog{}
	log.entries = []api.Entry{
		{Seq: 1, Time: at(-40), Env: "sandbox", URL: url, Name: api.OpHomeUser, OperationName: api.OpHomeUser, Status: 200,
			Duration: 45 * time.Millisecond, Size: 12345, Used: 1, Limit: 2000, Query: "query Home($first: Int!) { user { id } accounts(first: $first) { totalCount } }",
			Variables: map[string]any{"first": 100}},
		{Seq: 2, Time: at(-20), Env: "sandbox", URL: url, Name: api.OpAccounts, Status: 429, RetryAfter: "3", Duration: 2 * time.Millisecond,
			Size: 60, Used: 2, Limit: 2000, Errors: []string{"more than 2000 requests in 5m0s: retry after 3 seconds"}, Query: "query Accounts { accounts { totalCount } }"},
		{Seq: 3, Time: at(-16), Env: "sandbox", URL: url, Name: api.OpAccounts, Status: 200, Duration: 30 * time.Millisecond, Size: 900,
			Used: 3, Limit: 2000, Waited: 3 * time.Second, WaitReason: api.WaitRetryAfter, Query: "query Accounts { accounts { totalCount } }"},
		{Seq: 4, Time: at(-1), Env: "sandbox", URL: url, Name: api.OpAccountDetailUser,
			Status: 200, Duration: 18 * time.Millisecond, Size: 1600, Used: 4, Limit: 2000,
			Query:     "query AccountDetailWithMembership($accountId: ID!) { account(accountId: $accountId) { id name IBAN } }",
			Variables: map[string]any{"accountId": "acc-0"}},
	}
	// The UI starts when the account's request is the next one: it is the
	// account screen's.
	log.next = 4
	d.requests = log
}
