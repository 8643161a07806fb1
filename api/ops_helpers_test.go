package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// opServer answers each operation with {"data": handler(request)}; an
// operation without a handler fails the test. It records every request.
type opServer struct {
	t        *testing.T
	handlers map[string]func(q gqlRequest) any

	mu   sync.Mutex
	reqs []gqlRequest
}

func newOpServer(t *testing.T, handlers map[string]func(q gqlRequest) any) *opServer {
	return &opServer{t: t, handlers: handlers}
}

func (s *opServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := decodeReq(s.t, r)
	s.mu.Lock()
	s.reqs = append(s.reqs, q)
	s.mu.Unlock()
	h, ok := s.handlers[q.OperationName]
	if !ok {
		s.t.Errorf("unexpected operation %q", q.OperationName)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	writeJSON200(w, map[string]any{"data": h(q)})
}

func (s *opServer) requests() []gqlRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]gqlRequest(nil), s.reqs...)
}

// last is the last request the server saw.
func (s *opServer) last() gqlRequest {
	r := s.requests()
	if len(r) == 0 {
		s.t.Fatal("no request was sent")
	}
	return r[len(r)-1]
}

// connection renders nodes [from, to) of total as a connection page;
// cursors are the decimal index of the next node.
func connection[N any](from, to, total int, node func(i int) N) map[string]any {
	edges := make([]any, 0, max(to-from, 0))
	for i := from; i < to; i++ {
		edges = append(edges, map[string]any{"cursor": strconv.Itoa(i + 1), "node": node(i)})
	}
	return map[string]any{
		"totalCount": total,
		"pageInfo":   map[string]any{"hasNextPage": to < total, "hasPreviousPage": from > 0, "startCursor": strconv.Itoa(from), "endCursor": strconv.Itoa(to)},
		"edges":      edges,
	}
}

// pageOf serves a page of total nodes for the request's first and after.
func pageOf[N any](t *testing.T, q gqlRequest, total int, node func(i int) N) map[string]any {
	t.Helper()
	from := 0
	if a, _ := q.Variables["after"].(string); a != "" {
		n, err := strconv.Atoi(a)
		if err != nil {
			t.Errorf("bad cursor %q", a)
		}
		from = n
	}
	first := int(q.Variables["first"].(float64))
	return connection(from, min(from+first, total), total, node)
}

// operationTexts maps each operation's name to the text Operations() lists.
func operationTexts(t *testing.T) map[string]string {
	t.Helper()
	ops, err := Operations()
	if err != nil {
		t.Fatal(err)
	}
	texts := make(map[string]string, len(ops))
	for _, o := range ops {
		texts[o.Name] = o.Query
	}
	return texts
}

// varJSON re-encodes a request variable for comparison with a JSON literal.
func varJSON(t *testing.T, q gqlRequest, name string) string {
	t.Helper()
	b, err := json.Marshal(q.Variables[name])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// jsonObject marshals v and returns its top-level object.
func jsonObject(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

func amountJSON(v string) map[string]any { return map[string]any{"value": v, "currency": "EUR"} }

func id(prefix string, i int) string { return fmt.Sprintf("%s-%04d", prefix, i) }
