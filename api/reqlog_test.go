package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

func TestRequestLogKeepsEveryRequestWithoutSecrets(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var lines []string
	log := NewRequestLog(3, func(e Entry) { lines = append(lines, fmt.Sprintf("%+v", e)) })
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"errors":[{"message":"slow down"}]}`)
			return
		}
		_, _ = io.WriteString(w, `{"data":{"a":1},"errors":[{"message":"half"}]}`)
	}), func(o *Options) { o.Log = log; o.Project = true })

	q := `query Q($in: WebhookInput) { a(input: {secret: "s3cr3t-literal", url: "u"}) }`
	vars := map[string]any{"in": map[string]any{"secret": "s3cr3t-var", "tokens": []any{"t1"}, "name": "ok"}}
	if _, err := c.Do(context.Background(), Request{Query: q, OperationName: "Q", Variables: vars}); err != nil {
		t.Fatal(err)
	}
	es := log.Entries()
	if len(es) != 2 {
		t.Fatalf("%d entries, want the 429 and its retry", len(es))
	}
	retry, first := es[0], es[1]
	if first.Seq != 1 || retry.Seq != 2 || first.Status != 429 || first.RetryAfter != "3" || retry.Status != 200 {
		t.Errorf("entries %+v / %+v", first, retry)
	}
	if retry.WaitReason != WaitRetryAfter || retry.Waited <= 0 || clk.Sleeps()[0] != retry.Waited {
		t.Errorf("the retry waited %v for %q; want the Retry-After wait", retry.Waited, retry.WaitReason)
	}
	if len(retry.Errors) != 1 || retry.Errors[0] != "half" || retry.Size == 0 || retry.Used != 2 || retry.Limit == 0 {
		t.Errorf("retry summary %+v", retry)
	}
	if retry.OperationName != "Q" || !retry.Project || retry.Env != "sandbox" || !strings.HasSuffix(retry.URL, "/sandbox-partner/graphql") {
		t.Errorf("retry %+v", retry)
	}
	in := retry.Variables["in"].(map[string]any)
	if in["secret"] != Redacted || in["tokens"] != Redacted || in["name"] != "ok" {
		t.Errorf("variables %v: want secrets redacted", retry.Variables)
	}
	if !strings.Contains(retry.Query, `secret: "[redacted]", url: "u"`) {
		t.Errorf("query %q: want the literal secret redacted", retry.Query)
	}
	all := strings.Join(lines, "\n") + retry.Curl() + retry.Command()
	for _, secret := range []string{"s3cr3t", secretToken} {
		if strings.Contains(all, secret) {
			t.Errorf("the log or a copied command holds %q:\n%s", secret, all)
		}
	}
	if !strings.Contains(retry.Curl(), "$PARTNERTUI_TOKEN") || !strings.HasPrefix(retry.Command(), "partnertui api --env sandbox --project --operation-name Q -F ") {
		t.Errorf("commands:\n%s\n%s", retry.Curl(), retry.Command())
	}

	// Only the last 3 are kept, newest first.
	for range 3 {
		if _, err := c.Do(context.Background(), Request{Query: "{ a }"}); err != nil {
			t.Fatal(err)
		}
	}
	es = log.Entries()
	if len(es) != 3 || es[0].Seq != 5 || es[2].Seq != 3 || log.Seq() != 6 {
		t.Errorf("kept %d, seqs %d..%d, next %d", len(es), es[0].Seq, es[len(es)-1].Seq, log.Seq())
	}
}

// BenchmarkRequestLog is the cost the log adds to a request: the same
// query sent with and without one.
func BenchmarkRequestLog(b *testing.B) {
	for _, withLog := range []bool{false, true} {
		b.Run(fmt.Sprintf("log=%v", withLog), func(b *testing.B) {
			url := httptestServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }))
			opts := Options{Env: "sandbox", GraphQLURL: url + "/sandbox-partner/graphql", TokenSource: staticToken(), Budget: 1 << 30}
			if withLog {
				opts.Log = NewRequestLog(0, nil)
			}
			benchAccounts(b, opts)
		})
	}
}
