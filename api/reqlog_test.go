package api

import (
	"context"
	"errors"
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

// An answer that is not the API's JSON is one sentence in the error and
// in the entry's Err; its text is the entry's Answer, with any secret the
// request carried hidden even where the body cut it.
func TestRequestLogKeepsTheAnswerThatWasNotJSON(t *testing.T) {
	t.Parallel()
	log := NewRequestLog(0, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), "hook") {
			// A proxy cut the echo of the secret.
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"data":{"addWebhookSubscription":{"secret":"hook-secr`)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><title>Hotel Wi-Fi</title>\x1b[2J<body>Accept the terms</body></html>")
	}), func(o *Options) { o.Log = log })

	_, err := c.Do(context.Background(), Request{Query: "{ a }"})
	if err == nil || strings.Contains(err.Error(), "Wi-Fi") {
		t.Fatalf("err = %v", err)
	}
	e := log.Entries()[0]
	if !strings.HasPrefix(e.Answer, "<html><title>Hotel Wi-Fi</title><body>") || e.Err != err.Error() {
		t.Errorf("entry: answer %q, err %q", e.Answer, e.Err)
	}

	_, err = c.Do(context.Background(), Request{Query: "mutation M($s: String) { addWebhookSubscription(secret: $s) { secret } }",
		Variables: map[string]any{"secret": "hook-secret-value"}})
	var be *BadResponseError
	if !errors.As(err, &be) || be.Kind != AnswerCutOff {
		t.Fatalf("err = %v", err)
	}
	e = log.Entries()[0]
	if strings.Contains(e.Answer, "hook-secr") || !strings.HasSuffix(e.Answer, `"secret":"`+hidden) {
		t.Errorf("the answer kept the secret's start: %q", e.Answer)
	}
}

// The log is newest first by the order requests started, whatever order
// their answers came in.
func TestRequestLogIsNewestFirstByStart(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	first := make(chan struct{})
	var n atomic.Int32
	log := NewRequestLog(0, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			close(first)
			<-release // the first request answers last
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"a":1}}`)
	}), func(o *Options) { o.Log = log })
	done := make(chan error, 1)
	go func() {
		_, err := c.Do(context.Background(), Request{Query: "query Slow { a }"})
		done <- err
	}()
	<-first
	for range 2 {
		if _, err := c.Do(context.Background(), Request{Query: "query Quick { a }"}); err != nil {
			t.Fatal(err)
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var seqs []uint64
	for _, e := range log.Entries() {
		seqs = append(seqs, e.Seq)
	}
	if fmt.Sprint(seqs) != "[3 2 1]" {
		t.Errorf("entries %v, want [3 2 1]", seqs)
	}
}
