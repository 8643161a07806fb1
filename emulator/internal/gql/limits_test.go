package gql

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

func TestQueryCostEstimate(t *testing.T) {
	t.Parallel()
	src, err := sdl(PartnerAPI)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gqlparser.LoadSchema(&ast.Source{Input: src})
	if err != nil {
		t.Fatal(err)
	}
	lim := endpointLimits(s, false)
	for name, c := range map[string]struct {
		query string
		vars  map[string]any
		want  int64
	}{
		"schema defaults":      {`{ accounts { edges { node { transactions { totalCount } } } } }`, nil, 50 + 50*50},
		"variables":            {`query($n: Int!) { accounts(first: $n) { edges { node { transactions(first: $n) { totalCount } } } } }`, map[string]any{"n": float64(30)}, 30 + 30*30},
		"variable default":     {`query($n: Int = 7) { accounts(first: $n) { totalCount } }`, nil, 7},
		"capped at a page":     {`{ accounts(first: 1000) { totalCount } }`, nil, 100},
		"negative is nothing":  {`{ accounts(first: -5) { edges { node { transactions(first: 10) { totalCount } } } } }`, nil, 0},
		"fragments":            {`{ accounts(first: 20) { edges { node { ...F } } } } fragment F on Account { transactions(first: 10) { totalCount } }`, nil, 20 + 200},
		"aliases add up":       {`{ a: accounts(first: 3) { totalCount } b: accounts(first: 4) { totalCount } }`, nil, 7},
		"no connection":        {`{ projectInfo { id } webhookEventTypes }`, nil, 0},
		"mutation root":        {`mutation { addWebhookSubscription(input: {label: "l", endpoint: "https://x", eventTypes: [], status: Enabled}) { ... on WebhookSubscriptionSuccessPayload { webhookSubscription { webhookEventLogs(first: 5) { totalCount } } } } }`, nil, 5},
		"interface conditions": {`{ webhookEventLogs(first: 10) { ... on Connection { totalCount } edges { node { webhookSubscription { webhookEventLogs { totalCount } } } } } }`, nil, 10 + 10*50},
	} {
		doc, op, err := parseOperation(c.query, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := analyze(doc, op, lim, c.vars).Cost; got != c.want {
			t.Errorf("%s: cost %d, want %d", name, got, c.want)
		}
	}
	// Deep nesting saturates instead of overflowing.
	deep := `{ webhookSubscriptions(first: 100) { edges { node { ` + strings.Repeat(`webhookEventLogs(first: 100) { edges { node { webhookSubscription { `, 12) +
		`id` + strings.Repeat(` } } } }`, 12) + ` } } } }`
	doc, op, err := parseOperation(deep, "")
	if err != nil {
		t.Fatal(err)
	}
	st := analyze(doc, op, lim, nil)
	if st.Cost != costCap {
		t.Errorf("deep nesting cost %d, want the cap %d", st.Cost, costCap)
	}
	if _, ok := lim.check(st); ok {
		t.Error("deep nesting passed the check")
	}
}
