// Command plainloop is the yardstick of the whole-process benchmark in
// bench_process_test.go: the least a client can do to read every account —
// one client-credentials token, then the same accounts query, page after
// page, with plain net/http. It prints "first" on stdout when the first page
// has arrived and the number of accounts at the end.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: plainloop GRAPHQL_URL TOKEN_URL CLIENT_ID CLIENT_SECRET QUERY")
		os.Exit(2)
	}
	gql, tokenURL, id, secret, query := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
	resp, err := http.Post(tokenURL, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		fail(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		fail(fmt.Errorf("token: %v", err))
	}
	resp.Body.Close()
	var after *string
	n := 0
	for page := 0; ; page++ {
		body, _ := json.Marshal(map[string]any{"query": query, "operationName": "Accounts",
			"variables": map[string]any{"first": 100, "after": after, "filters": nil, "orderBy": nil}})
		req, _ := http.NewRequest(http.MethodPost, gql, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
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
