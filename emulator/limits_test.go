package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/gql"
)

// fiftyAliasQuery is the 7 KB Live query that built a 16 MB answer: 50
// aliases of accounts(first: 100) { transactions(first: 100) }.
func fiftyAliasQuery() string {
	var b strings.Builder
	b.WriteString("query Big {")
	for i := range 50 {
		fmt.Fprintf(&b, " a%d: accounts(first: 100) { edges { node { id name transactions(first: 100) { edges { node { id label amount { value currency } } } } } } }", i)
	}
	b.WriteString(" }")
	return b.String()
}

// Not parallel: it counts the bytes allocated while the request runs.
func TestLiveCostGuardRefusesTheFiftyAliasQuery(t *testing.T) {
	e := newTestEnv(t, Options{Accounts: 120})
	body, err := json.Marshal(map[string]any{"query": fiftyAliasQuery()})
	if err != nil {
		t.Fatal(err)
	}
	if len(body) < 6500 || len(body) > 8000 {
		t.Fatalf("the query is %d bytes, want the 7 KB one", len(body))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := e.do(pathLive, tokLiveProject, "application/json", body)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc

	if r.Status != http.StatusBadRequest || r.code() != "QUERY_TOO_COMPLEX" || len(r.Data) > 0 && string(r.Data) != "null" {
		t.Fatalf("status %d, errors %+v, data %s", r.Status, r.Errors, r.Data)
	}
	msg := r.Errors[0].Message
	if !strings.Contains(msg, "505000 connection nodes") || !strings.Contains(msg, fmt.Sprint(gql.MaxQueryNodes)) {
		t.Fatalf("the message must name the measured cost and the limit: %q", msg)
	}
	// The refused query costs the server and this client a few hundred KB
	// (parse, analysis, log line), not the 16 MB answer.
	if allocated > 4<<20 {
		t.Fatalf("refusing the query allocated %d bytes", allocated)
	}
	t.Logf("refused with %d bytes allocated in the whole process: %s", allocated, msg)

	// A screen's largest real query stays well inside the bound.
	q := `{ accounts(first: 100) { edges { node { id transactions(first: 100) { edges { node { id } } } } } } }`
	if r := e.query(pathLive, tokLiveProject, q, nil); r.Status != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("accounts×transactions page: %d %+v", r.Status, r.Errors)
	}
}
