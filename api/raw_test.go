package api

import (
	"context"
	"errors"
	"io"
	"net/http"
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
