package emulatortest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator"
)

// The kit's tokens are the ones a client would get: the project token
// sees every account, the demo user's only theirs, and the request log
// records both without a token in it.
func TestKitSignsInAndQueries(t *testing.T) {
	t.Parallel()
	var log Log
	srv := Start(t, emulator.Options{Accounts: 12, RequestLog: &log})
	info := srv.Info()
	url := info.Environments["sandbox"].GraphQLURL
	q := `{ accounts(first: 100) { totalCount } }`
	count := func(token string) int {
		t.Helper()
		status, out := GraphQL(t, url, token, q, nil)
		total, ok := out["data"].(map[string]any)["accounts"].(map[string]any)["totalCount"].(float64)
		if status != http.StatusOK || !ok {
			t.Fatalf("accounts: %d %v", status, out)
		}
		return int(total)
	}
	project, user := ProjectToken(t, info, "sandbox"), UserToken(t, info, "sandbox")
	if n := count(project); n != 12 {
		t.Fatalf("the project token sees %d of 12 accounts", n)
	}
	if n := count(user); n == 0 || n >= 12 {
		t.Fatalf("the demo user sees %d of 12 accounts", n)
	}
	if status, _ := GraphQL(t, url, "", q, nil); status != http.StatusUnauthorized {
		t.Fatalf("no token: %d, want 401", status)
	}
	lines := log.String()
	if strings.Count(lines, `"endpoint":"/sandbox-partner/graphql"`) != 3 || strings.Contains(lines, project) || strings.Contains(lines, user) {
		t.Fatalf("request log:\n%s", lines)
	}
}
