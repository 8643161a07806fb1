package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
	"golang.org/x/oauth2"
)

// splitEmulator is an emulator of the test's own (the walk creates items
// in it) behind a proxy that counts the GraphQL requests and answers
// HTTP 400 QUERY_TOO_COMPLEX to an operation carrying more than maxPages
// pages (0: no such limit).
type splitEmulator struct {
	info     emulator.Info
	requests atomic.Int32
	refused  atomic.Int32 // answered 400 for carrying too many pages
	maxPages atomic.Int32
	// refuseOp, when set before the first request, is an operation name
	// answered 400 QUERY_TOO_COMPLEX every time.
	refuseOp string
	// rtt delays each answer by a round trip (benchmarks only: tests
	// never wait).
	rtt      time.Duration
	proxyURL string
}

func newSplitEmulator(t testing.TB, accounts int) *splitEmulator {
	t.Helper()
	srv, err := emulator.Start(context.Background(), emulator.Options{Accounts: accounts, RateLimit: 1 << 30, SigningKey: emulatortest.SigningKey()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	e := &splitEmulator{info: srv.Info()}
	target, err := url.Parse(e.info.APIURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e.rtt > 0 {
			time.Sleep(e.rtt)
		}
		if strings.HasSuffix(r.URL.Path, "/graphql") {
			e.requests.Add(1)
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			max := int(e.maxPages.Load())
			if (max > 0 && bytes.Contains(body, fmt.Appendf(nil, "p%d:", max))) ||
				(e.refuseOp != "" && bytes.Contains(body, []byte(`"operationName":"`+e.refuseOp+`"`))) {
				e.refused.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"errors":[{"message":"Query is too complex","extensions":{"code":"QUERY_TOO_COMPLEX"}}]}`)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	e.proxyURL = front.URL
	return e
}

// client is a project-token client of the Sandbox through the proxy.
func (e *splitEmulator) client(t testing.TB) *Client {
	t.Helper()
	return e.clientWith(t, projectTokenSource(t, e.info, "sandbox"))
}

// clientWith is a client of the Sandbox through the proxy with ts's tokens.
func (e *splitEmulator) clientWith(t testing.TB, ts oauth2.TokenSource) *Client {
	t.Helper()
	env := e.info.Environments["sandbox"]
	return emulatorClient(t, e.info, "sandbox", ts, func(o *Options) {
		o.GraphQLURL = strings.Replace(env.GraphQLURL, e.info.APIURL, e.proxyURL, 1)
		o.TestingURL = strings.Replace(env.TestingGraphQLURL, e.info.APIURL, e.proxyURL, 1)
	})
}

// singleTransactionWalk is the project's transactions in one walk, and
// their ids.
func singleTransactionWalk(t *testing.T, c *Client) ([]TransactionDetail, []string) {
	t.Helper()
	single, err := collect(context.Background(), Pages(c.TransactionList, TransactionsParams{First: 100}))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(single))
	for i := range single {
		ids[i] = single[i].ID
	}
	return single, ids
}

// sameSet fails unless got holds exactly want's ids, each once.
func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	seen := make(map[string]int, len(got))
	for _, id := range got {
		seen[id]++
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("%s: %s came %d times", what, id, n)
		}
	}
	for _, id := range want {
		if seen[id] == 0 {
			t.Errorf("%s: %s is missing", what, id)
		}
		delete(seen, id)
	}
	for id := range seen {
		t.Errorf("%s: %s is not in the single walk", what, id)
	}
	if t.Failed() {
		t.Fatalf("%s: %d items, the single walk %d", what, len(got), len(want))
	}
}

// The transactions walked by type from both ends are exactly those of a
// single walk started at the same moment, each once, though transactions
// are created while the walk goes on (the single walk, newest first, would
// not reach them either).
func TestSplitTransactionsEqualTheSingleWalk(t *testing.T) {
	t.Parallel()
	e := newSplitEmulator(t, 30)
	c := e.client(t)
	ctx := context.Background()
	single, want := singleTransactionWalk(t, c)
	iban := ""
	for i := range single {
		if single[i].Creditor != nil && single[i].Creditor.IBAN != "" && single[i].Side == "Credit" {
			iban = single[i].Creditor.IBAN
			break
		}
	}
	if iban == "" {
		t.Fatal("no transaction with a creditor IBAN to send transfers to")
	}
	before := e.requests.Load()
	var got []string
	created := 0
	err := c.ProjectTransactionsInParts(ctx, TransactionsParams{First: 20}, 0, func(items []TransactionDetail, _ int) error {
		for i := range items {
			got = append(got, items[i].ID)
		}
		if created < 5 {
			created++
			_, err := c.SimulateIncomingTransfer(ctx, IncomingTransfer{Amount: Amount{Value: "1.00", Currency: "EUR"},
				CreditorIBAN: iban, CreditorName: "Split", DebtorIBAN: "DE89370400440532013000", DebtorName: "Walk", Label: "during the walk"})
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	requests := int(e.requests.Load()-before) - created
	sameSet(t, "transactions in parts", got, want)
	singleRequests := (len(want) + 19) / 20
	t.Logf("%d transactions: %d requests in parts, %d for a single walk of 20 a page", len(want), requests, singleRequests)
	if requests*10 > singleRequests*4 {
		t.Errorf("the walk in parts took %d requests, more than 0.4× the single walk's %d", requests, singleRequests)
	}
}

// Accounts walked from both ends are those of a single walk, each once,
// and each request carries both ends' pages.
func TestSplitAccountsEqualTheSingleWalk(t *testing.T) {
	t.Parallel()
	e := newSplitEmulator(t, 250)
	c := e.client(t)
	ctx := context.Background()
	for _, first := range []int{7, 100} {
		single, err := collect(ctx, Pages(c.Accounts, AccountsParams{First: first}))
		if err != nil {
			t.Fatal(err)
		}
		want := make([]string, len(single))
		for i := range single {
			want[i] = single[i].ID
		}
		before := e.requests.Load()
		var got []string
		err = c.AccountsInParts(ctx, AccountsParams{First: first}, func(items []Account, _ int) error {
			for i := range items {
				got = append(got, items[i].ID)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		sameSet(t, fmt.Sprintf("accounts in parts, %d a page", first), got, want)
		requests, singleRequests := int(e.requests.Load()-before), (len(want)+first-1)/first
		t.Logf("%d accounts, %d a page: %d requests in parts, %d for a single walk", len(want), first, requests, singleRequests)
		if requests > singleRequests/2+1 {
			t.Errorf("%d a page: %d requests, want at most half the single walk's %d, plus one", first, requests, singleRequests)
		}
	}
}

// An HTTP 400 for an operation limit halves the pages per request, and
// the walk goes on to the same items.
func TestSplitWalkHalvesPagesOnALimit(t *testing.T) {
	t.Parallel()
	e := newSplitEmulator(t, 20)
	c := e.client(t)
	ctx := context.Background()
	_, want := singleTransactionWalk(t, c)
	e.maxPages.Store(2) // an operation with p2: is refused
	var got []string
	err := c.ProjectTransactionsInParts(ctx, TransactionsParams{First: 25}, 5, func(items []TransactionDetail, _ int) error {
		for i := range items {
			got = append(got, items[i].ID)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the walk stopped at the limit: %v", err)
	}
	// Five pages were refused once; two, then, are not refused again.
	if n := e.refused.Load(); n != 1 {
		t.Errorf("%d requests were refused for their size, want the first one only", n)
	}
	sameSet(t, "transactions after a 400", got, want)
}
