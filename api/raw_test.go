package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

func TestDoSendsTheTextAndKeepsTheAnswersOrder(t *testing.T) {
	t.Parallel()
	var got gqlRequest
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = decodeReq(t, r)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"z":"a\u001b]52;c;SGk=\u0007b","a":[1,2.5,true,null,"q\"\\"]},"errors":[{"message":"partial"}]}`)
	}), nil)
	resp, err := c.Do(context.Background(), Request{Query: "query Q($n: Int) { z a }", OperationName: "Q", Variables: map[string]any{"n": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Query != "query Q($n: Int) { z a }" || got.OperationName != "Q" || got.Variables["n"] != float64(1) {
		t.Errorf("sent %+v", got)
	}
	// An answer with errors is the caller's to read; the OSC 52 sequence is
	// gone and the members keep the server's order.
	if want := `{"data":{"z":"ab","a":[1,2.5,true,null,"q\"\\"]},"errors":[{"message":"partial"}]}`; string(resp.Body) != want {
		t.Errorf("body %s\nwant %s", resp.Body, want)
	}
}

func TestDoRefusesALiveMutationBeforeSending(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }), func(o *Options) {
		o.Env, o.ReadOnly, o.TestingURL = "live", true, ""
	})
	for _, q := range []string{"mutation { x }", "query A { a } mutation B { b }"} {
		name := ""
		if q != "mutation { x }" {
			name = "B"
		}
		if _, err := c.Do(context.Background(), Request{Query: q, OperationName: name}); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: %v, want ErrReadOnly", q, err)
		}
	}
	if _, err := c.Do(context.Background(), Request{Query: "{ a }", Testing: true}); !errors.Is(err, ErrNoTestingAPI) {
		t.Errorf("--testing on Live: %v", err)
	}
	if calls.Load() != 0 {
		t.Errorf("%d requests reached the server", calls.Load())
	}
}

// TestAnAnonymousClientSendsNoToken: what the platform serves to anyone
// (its schema) is asked without a token, through the budget and the
// environment guard like any request.
func TestAnAnonymousClientSendsNoToken(t *testing.T) {
	t.Parallel()
	var auth atomic.Value
	c, _, srv := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"__typename":"Query"}}`)
	}), func(o *Options) { o.TokenSource, o.Anonymous = nil, true })
	if _, err := c.Do(context.Background(), Request{Query: "{ __typename }", Testing: true}); err != nil {
		t.Fatal(err)
	}
	if got := auth.Load(); got != "" {
		t.Errorf("sent Authorization %q, want none", got)
	}
	if err := c.WarmToken(); err != nil {
		t.Errorf("WarmToken: %v", err)
	}
	if s := c.Status(); s.Used != 1 {
		t.Errorf("budget used %d, want the one request counted", s.Used)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/live-partner/graphql", nil)
	if _, err := c.http.Do(req); !errors.Is(err, ErrForeignEndpoint) {
		t.Errorf("another environment's endpoint: %v, want ErrForeignEndpoint", err)
	}
}

// TestAVerbatimAnswerKeepsItsStrings: an answer kept in a file (a schema)
// keeps its descriptions' newlines; the request log's copy of its errors
// is still made safe for a terminal.
func TestAVerbatimAnswerKeepsItsStrings(t *testing.T) {
	t.Parallel()
	const answer = `{"data":{"d":"line one\nline two"},"errors":[{"message":"bad\u001b]52;c;SGk=\u0007 thing"}]}`
	log := NewRequestLog(0, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}), func(o *Options) { o.Log = log })
	resp, err := c.Do(context.Background(), Request{Query: "{ d }", Verbatim: true})
	if err != nil || string(resp.Body) != answer {
		t.Fatalf("verbatim: %v, body %s", err, resp.Body)
	}
	if es := log.Entries(); len(es) != 1 || len(es[0].Errors) != 1 || es[0].Errors[0] != "bad thing" {
		t.Errorf("the log holds %+v, want the error stripped", es)
	}
	resp, err = c.Do(context.Background(), Request{Query: "{ d }"})
	if err != nil || !strings.Contains(string(resp.Body), `"line one line two"`) {
		t.Errorf("not verbatim: %v, body %s", err, resp.Body)
	}
}
