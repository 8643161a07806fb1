// Command plainloop is the yardstick of the whole-process benchmark in
// bench_process_test.go: the least a client can do to read every account —
// the same accounts query, page after page, with plain net/http and a token
// already in hand (PLAINLOOP_TOKEN: a token never goes in process
// arguments). It prints "first" on stdout when the first page has arrived
// and the number of accounts at the end.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	token := os.Getenv("PLAINLOOP_TOKEN")
	if len(os.Args) != 3 || token == "" {
		fmt.Fprintln(os.Stderr, "usage: PLAINLOOP_TOKEN=… plainloop GRAPHQL_URL QUERY")
		os.Exit(2)
	}
	gql, query := os.Args[1], os.Args[2]
	var after *string
	n := 0
	for page := 0; ; page++ {
		body, _ := json.Marshal(map[string]any{"query": query, "operationName": "Accounts",
			"variables": map[string]any{"first": 100, "after": after, "filters": nil, "orderBy": nil}})
		req, _ := http.NewRequest(http.MethodPost, gql, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fail(err)
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			fail(fmt.Errorf("page %d: HTTP %d: %v", page, resp.StatusCode, err))
		}
		var out struct {
			Data struct {
				Accounts struct {
					PageInfo struct {
						HasNextPage bool   `json:"hasNextPage"`
						EndCursor   string `json:"endCursor"`
					} `json:"pageInfo"`
					Edges []json.RawMessage `json:"edges"`
				} `json:"accounts"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &out); err != nil {
			fail(err)
		}
		if page == 0 {
			fmt.Println("first")
		}
		n += len(out.Data.Accounts.Edges)
		if !out.Data.Accounts.PageInfo.HasNextPage {
			break
		}
		c := out.Data.Accounts.PageInfo.EndCursor
		after = &c
	}
	fmt.Println(n)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "plainloop:", err)
	os.Exit(1)
}
