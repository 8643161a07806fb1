package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// BenchmarkLoadAccounts loads the emulator's 10,000 accounts through
// Walk: 100 requests of 100, the next one prefetched while the caller
// walks the current page.
func BenchmarkLoadAccounts(b *testing.B) {
	info := startEmulator(b)
	ts := oauth2.ReuseTokenSource(nil, projectTokenSource(b, info, "sandbox"))
	c := emulatorClient(b, info, "sandbox", ts, func(o *Options) {
		o.Budget = 1 << 30 // the benchmark measures paging, not the budget
		o.Window = 24 * time.Hour
	})
	if _, err := c.ProjectInfo(context.Background()); err != nil { // token fetched, connection warm
		b.Fatal(err)
	}
	start := c.Status().Used
	benchWalk(b, c, emulatorAccounts)
	b.ReportMetric(float64(c.Status().Used-start)/float64(b.N), "requests/op")
}

// benchWalk walks the whole accounts connection (total accounts) through
// Walk on every iteration and reports the allocations per account.
func benchWalk(b *testing.B, c *Client, total int) {
	ctx := context.Background()
	accounts := 0
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu := startCPU()
	b.ResetTimer()
	for b.Loop() {
		if err := Walk(ctx, Pages(c.Accounts, AccountsParams{}), func(page *Page[Account]) error {
			accounts += len(page.Items)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu.report(b)
	runtime.ReadMemStats(&ms1)
	if accounts != b.N*total {
		b.Fatalf("loaded %d accounts in %d runs", accounts, b.N)
	}
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(accounts), "allocs/account")
}

// cpuSince reports the process's CPU time per iteration as cpu-ms/op:
// client and server together (they share the process), but unlike ns/op
// it does not count time spent waiting for the other helpers of a busy
// machine.
type cpuSince struct {
	at time.Duration
	ok bool
}

func startCPU() cpuSince {
	at, ok := processCPU()
	return cpuSince{at: at, ok: ok}
}

func (c cpuSince) report(b *testing.B) {
	if now, ok := processCPU(); ok && c.ok {
		b.ReportMetric(float64(now-c.at)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkLoadAccountsPlainHTTP sends the same 100 queries, with the same
// token, from a plain net/http loop decoding with encoding/json: the floor
// Walk is measured against.
func BenchmarkLoadAccountsPlainHTTP(b *testing.B) {
	info := startEmulator(b)
	tok, err := projectTokenSource(b, info, "sandbox").Token()
	if err != nil {
		b.Fatal(err)
	}
	benchPlainLoop(b, info.Environments["sandbox"].GraphQLURL, tok.AccessToken, emulatorAccounts)
}

// BenchmarkWalkClientSide walks 10,000 accounts served from pre-rendered
// pages, so the figures are the client's own cost (the emulator
// benchmarks include the server, which runs in the same process). Compare
// with BenchmarkPlainClientSide.
func BenchmarkWalkClientSide(b *testing.B) {
	const total = emulatorAccounts
	c, err := New(Options{Env: "sandbox", GraphQLURL: prerenderedAccounts(b, total) + "/sandbox-partner/graphql", TokenSource: staticToken(),
		Budget: 1 << 30, Window: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	benchWalk(b, c, total)
}

// BenchmarkPlainClientSide is the plain net/http loop against the same
// pre-rendered pages as BenchmarkWalkClientSide: the floor of the
// client's own cost.
func BenchmarkPlainClientSide(b *testing.B) {
	const total = emulatorAccounts
	benchPlainLoop(b, prerenderedAccounts(b, total)+"/sandbox-partner/graphql", secretToken, total)
}

// prerenderedAccounts starts a server of the accounts connection of total
// accounts, pages of 100 rendered once, and returns its URL.
func prerenderedAccounts(b *testing.B, total int) string {
	pages := make(map[string][]byte, total/100)
	for from := 0; from < total; from += 100 {
		body, err := json.Marshal(accountsPage(from, from+100, total))
		if err != nil {
			b.Fatal(err)
		}
		cursor := ""
		if from > 0 {
			cursor = fmt.Sprint(from)
		}
		pages[cursor] = body
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Variables struct{ After string }
		}
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(pages[q.Variables.After])
	})
	return httptestServer(b, h)
}

// benchPlainLoop reads the whole accounts connection (total accounts) at
// url on every iteration, 100 at a time, with the Accounts query's text,
// from a plain net/http loop that decodes each node as a real client would.
func benchPlainLoop(b *testing.B, url, token string, total int) {
	var query string
	ops, err := Operations()
	if err != nil {
		b.Fatal(err)
	}
	for _, op := range ops {
		if op.Name == OpAccounts {
			query = op.Query
		}
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer hc.CloseIdleConnections()

	type page struct {
		Data struct {
			Accounts struct {
				TotalCount int
				PageInfo   struct {
					HasNextPage bool
					EndCursor   *string
				}
				Edges []struct{ Node json.RawMessage }
			}
		}
	}
	fetch := func(after *string) (*page, error) {
		body, err := json.Marshal(map[string]any{"query": query, "operationName": OpAccounts,
			"variables": map[string]any{"first": 100, "after": after, "filters": nil, "orderBy": nil}})
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer func() { _ = resp.Body.Close() }()
		if resp.StatusCode != http.StatusOK {
			_, _ = io.Copy(io.Discard, resp.Body)
			return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		var p page
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
			return nil, err
		}
		return &p, nil
	}
	fullNodes := func(p *page) error { // decode the nodes as a real client would
		for _, e := range p.Data.Accounts.Edges {
			var a Account
			if err := json.Unmarshal(e.Node, &a); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := fetch(nil); err != nil { // warm the connection
		b.Fatal(err)
	}
	requests, accounts := 0, 0
	cpu := startCPU()
	b.ResetTimer()
	for b.Loop() {
		var after *string
		for {
			p, err := fetch(after)
			if err != nil {
				b.Fatal(err)
			}
			requests++
			if err := fullNodes(p); err != nil {
				b.Fatal(err)
			}
			accounts += len(p.Data.Accounts.Edges)
			if !p.Data.Accounts.PageInfo.HasNextPage {
				break
			}
			after = p.Data.Accounts.PageInfo.EndCursor
		}
	}
	b.StopTimer()
	cpu.report(b)
	if accounts != b.N*total {
		b.Fatalf("loaded %d accounts in %d runs", accounts, b.N)
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
}
