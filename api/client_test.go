package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

func okAccounts(w http.ResponseWriter) { writeJSON200(w, accountsPage(0, 2, 2)) }

func TestRequestCarriesTokenOperationNameAndExactQuery(t *testing.T) {
	t.Parallel()
	want := operationTexts(t)
	var got gqlRequest
	var auth string
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		got = decodeReq(t, r)
		okAccounts(w)
	}), nil)
	page, err := c.Accounts(context.Background(), AccountsParams{Search: "Dupont", OrderBy: OrderCreatedAt, Direction: DirectionDesc})
	if err != nil {
		t.Fatalf("Accounts: %v", err)
	}
	if len(page.Items) != 2 || page.TotalCount != 2 || page.PageInfo.HasNextPage {
		t.Errorf("page = %+v", page)
	}
	a := page.Items[0]
	if a.ID != "acc-00000" || a.IBAN != "FR7630006000011234567890189" || a.Holder.Info.Name != "Holder Account 0" ||
		a.Balances == nil || a.Balances.Available.Value != "12.50" || a.StatusInfo.Status != "Opened" {
		t.Errorf("account = %+v", a)
	}
	if auth != "Bearer "+secretToken {
		t.Errorf("Authorization = %q", auth)
	}
	if got.OperationName != OpAccounts || got.Query != want[OpAccounts] {
		t.Errorf("sent %q / %q, Operations() says %q", got.OperationName, got.Query, want[OpAccounts])
	}
	if got.Variables["first"] != float64(100) {
		t.Errorf("first = %v, want the default page size 100", got.Variables["first"])
	}
	f, _ := got.Variables["filters"].(map[string]any)
	if f["search"] != "Dupont" {
		t.Errorf("filters = %v", got.Variables["filters"])
	}
	o, _ := got.Variables["orderBy"].(map[string]any)
	if o["field"] != "createdAt" || o["direction"] != "Desc" {
		t.Errorf("orderBy = %v", got.Variables["orderBy"])
	}
	if _, sent := f["mainIBAN"]; sent {
		t.Errorf("an empty mainIBAN was sent: %v", f)
	}
	if _, err := c.Accounts(context.Background(), AccountsParams{MainIBAN: "fr76 3000 6000 0112 3456 7890 189"}); err != nil {
		t.Fatal(err)
	}
	if f, _ := got.Variables["filters"].(map[string]any); f["mainIBAN"] != "FR7630006000011234567890189" || f["search"] != nil {
		t.Errorf("an IBAN search sent filters %v, want the compact mainIBAN only", f)
	}
}

func TestRetryAfterIsHonouredAndQueryRetried(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"errors":[{"message":"too many requests"}]}`))
			return
		}
		okAccounts(w)
	}), nil)
	start := clk.Now()
	var during Status
	clk.OnSleep(func(time.Duration) { during = c.Status() })
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatalf("Accounts after one 429: %v", err)
	}
	if calls.Load() != 2 {
		t.Errorf("requests = %d, want 2", calls.Load())
	}
	if s := clk.Sleeps(); len(s) != 1 || s[0] != 7*time.Second {
		t.Errorf("sleeps = %v, want [7s]", s)
	}
	if !during.RetryAt.Equal(start.Add(7*time.Second)) || during.WaitReason == WaitBudget || during.LastStatus != 429 ||
		!during.Retrying || during.Waiting != 1 || during.WaitReason != WaitRetryAfter {
		t.Errorf("status while waiting = %+v", during)
	}
	if s := c.Status(); !s.RetryAt.IsZero() || s.LastStatus != 200 || s.Used != 2 || s.Waiting != 0 || s.Retrying {
		t.Errorf("status after success = %+v", s)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var clk *clock.Fake
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", clk.Now().Add(90*time.Second).UTC().Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		okAccounts(w)
	}), nil)
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	if s := clk.Sleeps(); len(s) != 1 || s[0] != 90*time.Second {
		t.Errorf("sleeps = %v, want [1m30s]", s)
	}
}

func TestBackoffWithoutRetryAfter(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 3 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		okAccounts(w)
	}), nil)
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatalf("Accounts after three 429s: %v", err)
	}
	s := clk.Sleeps()
	if len(s) != 3 {
		t.Fatalf("sleeps = %v, want 3", s)
	}
	for i, d := range s {
		full := backoffBase << i
		if d < full/2 || d > full {
			t.Errorf("backoff %d = %v, want within [%v, %v]", i+1, d, full/2, full)
		}
	}
}

func TestRetriesAreBounded(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
	}), nil)
	_, err := c.Accounts(context.Background(), AccountsParams{})
	var rl *RateLimitedError
	if !errors.As(err, &rl) || !errors.Is(err, ErrRateLimited) || rl.RetryAt.IsZero() {
		t.Fatalf("err = %v, want *RateLimitedError with RetryAt", err)
	}
	if calls.Load() != DefaultMaxAttempts {
		t.Errorf("requests = %d, want %d", calls.Load(), DefaultMaxAttempts)
	}
	// Nothing will be retried, so nothing counts down to a retry.
	if s := c.Status(); !s.RetryAt.IsZero() || s.Retrying || s.Waiting != 0 {
		t.Errorf("status after the last attempt = %+v", s)
	}
}

func TestMutationIsNeverRetried(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusTooManyRequests)
	}), nil)
	_, err := c.SimulateIncomingTransfer(context.Background(), IncomingTransfer{Amount: Amount{Value: "10", Currency: "EUR"}})
	if !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v, want rate limited", err)
	}
	if calls.Load() != 1 || len(clk.Sleeps()) != 0 {
		t.Errorf("requests = %d, sleeps = %v: a mutation must be sent once", calls.Load(), clk.Sleeps())
	}
	// The footer must not count down to a retry that never happens.
	if s := c.Status(); !s.RetryAt.IsZero() || s.Retrying || s.Waiting != 0 || s.LastStatus != 429 {
		t.Errorf("Status after a mutation's 429 = %+v", s)
	}
}

func TestSimulateTransferSuccessAndRejection(t *testing.T) {
	t.Parallel()
	var path string
	reject := false
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.Path
		q := decodeReq(t, r)
		in, _ := q.Variables["input"].(map[string]any)
		if in["creditorIban"] != "FR7630006000011234567890189" || in["endToEndId"] != "ref-1" {
			t.Errorf("input = %v", in)
		}
		if reject {
			writeJSON200(w, map[string]any{"data": map[string]any{"simulateIncomingSepaCreditTransferReception": map[string]any{
				"__typename": "ForbiddenRejection", "message": "not \x1b]0;pwned\x07allowed"}}})
			return
		}
		writeJSON200(w, map[string]any{"data": map[string]any{"simulateIncomingSepaCreditTransferReception": map[string]any{
			"__typename": "SimulateIncomingSepaCreditTransferReceptionSuccessPayload", "transactionId": "tx-1"}}})
	}), nil)
	in := IncomingTransfer{Amount: Amount{Value: "10.00", Currency: "EUR"}, CreditorIBAN: "FR7630006000011234567890189",
		CreditorName: "A", DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "B", Reference: "ref-1"}
	id, err := c.SimulateIncomingTransfer(context.Background(), in)
	if err != nil || id != "tx-1" {
		t.Fatalf("id, err = %q, %v", id, err)
	}
	if path != "/sandbox-partner-admin/graphql" {
		t.Errorf("sent to %s, want the Testing API", path)
	}
	reject = true
	_, err = c.SimulateIncomingTransfer(context.Background(), in)
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Message != "not allowed" {
		t.Fatalf("err = %v, want a sanitised *RejectionError", err)
	}
}

func TestSimulateOnLiveSendsNothing(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }), func(o *Options) {
		o.Env = "live"
		o.GraphQLURL = strings.Replace(o.GraphQLURL, "sandbox-partner", "live-partner", 1)
		o.TestingURL = ""
	})
	_, err := c.SimulateIncomingTransfer(context.Background(), IncomingTransfer{})
	if !errors.Is(err, ErrNoTestingAPI) || calls.Load() != 0 {
		t.Errorf("err = %v, calls = %d", err, calls.Load())
	}
}

// TestReadOnlyRefusesMutationsBeforeSending: the read-only policy holds in
// the client itself, whatever a surface offers.
func TestReadOnlyRefusesMutationsBeforeSending(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }), func(o *Options) {
		o.ReadOnly = true
	})
	_, err := c.SimulateIncomingTransfer(context.Background(), IncomingTransfer{})
	var ro *ReadOnlyError
	if !errors.As(err, &ro) || !errors.Is(err, ErrReadOnly) || calls.Load() != 0 {
		t.Errorf("err = %v, calls = %d", err, calls.Load())
	}
	if s := c.Status(); s.Used != 0 {
		t.Errorf("a refused mutation counts against the budget: %+v", s)
	}
}

// respond answers every request with status and body.
func respond(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// faultCase is one misbehaving server and what the client must make of it.
type faultCase struct {
	name    string
	handler http.HandlerFunc
	check   func(t *testing.T, page *Page[Account], err error)
}

// statusFaults are servers that answer with an error status (or a 200
// that is one): the typed error each must become.
func statusFaults() []faultCase {
	return []faultCase{
		{"400 complexity limit", respond(http.StatusBadRequest, `{"errors":[{"message":"Query exceeds the complexity limit of 1000 fields","extensions":{"code":"QUERY_TOO_COMPLEX"}}]}`),
			func(t *testing.T, _ *Page[Account], err error) {
				var ol *OperationLimitError
				if !errors.As(err, &ol) || !errors.Is(err, ErrOperationLimit) || ol.Limit != "complexity" || !strings.Contains(ol.Message, "1000") {
					t.Errorf("err = %#v", err)
				}
			}},
		{"400 depth limit", respond(http.StatusBadRequest, `{"errors":[{"message":"Query depth 16 exceeds maximum depth 15","extensions":{"code":"QUERY_TOO_COMPLEX"}}]}`),
			func(t *testing.T, _ *Page[Account], err error) {
				var ol *OperationLimitError
				if !errors.As(err, &ol) || ol.Limit != "depth" {
					t.Errorf("err = %v", err)
				}
			}},
		{"400 validation is a GraphQL error", respond(http.StatusBadRequest, `{"errors":[{"message":"Cannot query field \"foo\"","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`),
			func(t *testing.T, _ *Page[Account], err error) {
				var ge *GraphQLError
				if !errors.As(err, &ge) || ge.Errors[0].Code != "GRAPHQL_VALIDATION_FAILED" || errors.Is(err, ErrOperationLimit) {
					t.Errorf("err = %v", err)
				}
			}},
		{"401", respond(http.StatusUnauthorized, `{"errors":[{"message":"token expired","extensions":{"code":"UNAUTHENTICATED"}}]}`),
			func(t *testing.T, _ *Page[Account], err error) {
				var ue *UnauthorizedError
				if !errors.As(err, &ue) || !errors.Is(err, ErrUnauthorized) || ue.Status != 401 || err.Error() != "the Sandbox API refused the access token (HTTP 401: token expired)" {
					t.Errorf("err = %v", err)
				}
			}},
		{"200 UNAUTHENTICATED", func(w http.ResponseWriter, r *http.Request) {
			writeJSON200(w, map[string]any{"data": nil, "errors": []any{map[string]any{"message": "unauthenticated", "extensions": map[string]any{"code": "UNAUTHENTICATED"}}}})
		}, func(t *testing.T, _ *Page[Account], err error) {
			if !errors.Is(err, ErrUnauthorized) {
				t.Errorf("err = %v", err)
			}
		}},
		{"500", respond(http.StatusInternalServerError, `{"errors":[{"message":"boom\u001b[2J"}]}`),
			func(t *testing.T, _ *Page[Account], err error) {
				var se *ServerError
				if !errors.As(err, &se) || se.Status != 500 || !errors.Is(err, ErrServer) || se.Message != "boom" {
					t.Errorf("err = %#v", err)
				}
			}},
	}
}

// badAnswer is err as the *BadResponseError of kind and status it must
// be: one sentence that names what came, never the body it quotes.
func badAnswer(t *testing.T, err error, kind BadAnswer, status int) *BadResponseError {
	t.Helper()
	var be *BadResponseError
	if !errors.As(err, &be) || !errors.Is(err, ErrBadResponse) || be.Kind != kind || be.Status != status {
		t.Fatalf("err = %#v, want a %d answer of kind %d", err, status, kind)
	}
	if be.Snippet != "" && len(be.Snippet) > 3 && strings.Contains(err.Error(), be.Snippet[:4]) || strings.ContainsAny(err.Error(), "<>\"\n") {
		t.Errorf("the message quotes the body: %q", err)
	}
	return be
}

// bodyFaults are bodies that are not the GraphQL JSON the client asked
// for: a proxy's or a portal's HTML, cut-off or misshapen JSON, none.
func bodyFaults() []faultCase {
	return []faultCase{
		{"502 HTML from a proxy", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<html><body>Bad gateway</body></html>"))
		}, func(t *testing.T, _ *Page[Account], err error) {
			var se *ServerError
			if !errors.As(err, &se) || se.Status != 502 {
				t.Errorf("err = %v", err)
			}
		}},
		{"200 HTML body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html>\x1b]52;c;ZXZpbA==\x07<title>Captive portal</title>" + strings.Repeat("x", 400) + "</html>"))
		}, func(t *testing.T, _ *Page[Account], err error) {
			be := badAnswer(t, err, AnswerHTML, 200)
			if !strings.HasPrefix(be.Snippet, "<html><title>Captive portal</title>") || len(be.Snippet) > snippetLen || strings.ContainsRune(be.Snippet, 0x1b) {
				t.Errorf("snippet = %q", be.Snippet)
			}
			want := "the Sandbox API's address answered with a web page (HTTP 200), not the API's JSON: a network's sign-in page (captive portal) or a proxy answered instead"
			if err.Error() != want {
				t.Errorf("err = %q, want %q", err, want)
			}
		}},
		{"200 HTML page without its Content-Type", respond(http.StatusOK, "\n  <!DOCTYPE html><html><body>Accept the terms</body></html>"),
			func(t *testing.T, _ *Page[Account], err error) { badAnswer(t, err, AnswerHTML, 200) }},
		{"403 HTML body", respond(http.StatusForbidden, "<h1>Forbidden</h1>"),
			func(t *testing.T, _ *Page[Account], err error) {
				if be := badAnswer(t, err, AnswerHTML, 403); be.Snippet != "<h1>Forbidden</h1>" {
					t.Errorf("snippet = %q", be.Snippet)
				}
				if !strings.HasSuffix(err.Error(), "HTTP 403), not the API's JSON: it is not the API") {
					t.Errorf("err = %q", err)
				}
			}},
		{"truncated JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"data":{"accounts":{"totalCount":3,"edges":[{"node":{"id":"a`))
		}, func(t *testing.T, _ *Page[Account], err error) {
			be := badAnswer(t, err, AnswerCutOff, 200)
			if !strings.HasPrefix(be.Snippet, `{"data":{"accounts"`) || be.Size != 61 {
				t.Errorf("snippet = %q, size %d", be.Snippet, be.Size)
			}
			if want := "the Sandbox API's answer was cut off after 61 bytes (HTTP 200): the connection ended before the whole answer came"; err.Error() != want {
				t.Errorf("err = %q, want %q", err, want)
			}
		}},
		{"a body shorter than its Content-Length", func(w http.ResponseWriter, r *http.Request) {
			// The connection closes 20 bytes into a 4,000-byte answer.
			conn, buf, herr := w.(http.Hijacker).Hijack()
			if herr != nil {
				return
			}
			defer conn.Close()
			_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"data\":{\"accounts\":")
			_ = buf.Flush()
		}, func(t *testing.T, _ *Page[Account], err error) {
			if be := badAnswer(t, err, AnswerCutOff, 200); be.Size != 20 {
				t.Errorf("size %d, want the 20 bytes that came", be.Size)
			}
		}},
		{"data of the wrong shape", func(w http.ResponseWriter, r *http.Request) {
			writeJSON200(w, map[string]any{"data": map[string]any{"accounts": map[string]any{"totalCount": "many"}}})
		}, func(t *testing.T, _ *Page[Account], err error) {
			if be := badAnswer(t, err, AnswerShape, 200); !strings.Contains(be.Snippet, "many") {
				t.Errorf("snippet = %q", be.Snippet)
			}
		}},
		{"204 no content", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		}, func(t *testing.T, _ *Page[Account], err error) {
			badAnswer(t, err, AnswerStatus, 204)
		}},
		{"plain text", respond(http.StatusOK, "service temporarily moved"),
			func(t *testing.T, _ *Page[Account], err error) { badAnswer(t, err, AnswerNotJSON, 200) }},
	}
}

// shapeFaults are GraphQL answers with errors beside partial data, errors
// or data of the wrong shape, and a redirect the client must not follow.
func shapeFaults() []faultCase {
	return []faultCase{
		{"GraphQL errors with partial data", func(w http.ResponseWriter, r *http.Request) {
			p := accountsPage(0, 3, 3)
			p["errors"] = []any{map[string]any{"message": "IBAN unavailable\x1b[1A", "path": []any{"accounts", "edges", 1, "node", "IBAN"},
				"extensions": map[string]any{"code": "Forbidden"}}}
			writeJSON200(w, p)
		}, func(t *testing.T, page *Page[Account], err error) {
			var ge *GraphQLError
			if !errors.As(err, &ge) || !errors.Is(err, ErrGraphQL) {
				t.Fatalf("err = %v", err)
			}
			d := ge.Errors[0]
			if d.Message != "IBAN unavailable" || d.Code != "Forbidden" || d.Path != "accounts.edges.1.node.IBAN" {
				t.Errorf("detail = %+v", d)
			}
			if page == nil || len(page.Items) != 3 || page.Items[2].ID != "acc-00002" {
				t.Errorf("partial data lost: %+v", page)
			}
		}},
		{"data of the wrong shape beside GraphQL errors", func(w http.ResponseWriter, r *http.Request) {
			p := accountsPage(0, 2, 2)
			p["data"].(map[string]any)["accounts"].(map[string]any)["totalCount"] = "many"
			p["errors"] = []any{map[string]any{"message": "count unavailable", "path": []any{"accounts", "totalCount"}}}
			writeJSON200(w, p)
		}, func(t *testing.T, page *Page[Account], err error) {
			var ge *GraphQLError
			if !errors.As(err, &ge) || ge.Errors[0].Message != "count unavailable" {
				t.Fatalf("err = %v", err)
			}
			if page == nil || len(page.Items) != 2 {
				t.Errorf("partial data lost: %+v", page)
			}
		}},
		{"errors of the wrong shape", respond(http.StatusOK, `{"data":null,"errors":{"message":"not a list"}}`),
			func(t *testing.T, page *Page[Account], err error) {
				var be *BadResponseError
				if !errors.As(err, &be) || be.Status != 200 || be.Reason != "the body is not the expected GraphQL JSON" || page != nil {
					t.Errorf("err = %#v, page = %v", err, page)
				}
			}},
		{"JSON null", respond(http.StatusOK, "null"),
			func(t *testing.T, page *Page[Account], err error) {
				var be *BadResponseError
				if !errors.As(err, &be) || be.Status != 200 || page != nil {
					t.Errorf("err = %#v, page = %v", err, page)
				}
			}},
		{"redirect elsewhere is not followed", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://127.0.0.1:1/steal", http.StatusTemporaryRedirect)
		}, func(t *testing.T, _ *Page[Account], err error) {
			var be *BadResponseError
			if !errors.As(err, &be) || be.Status != 307 {
				t.Errorf("err = %v", err)
			}
		}},
	}
}

func TestFaultServers(t *testing.T) {
	t.Parallel()
	cases := slices.Concat(statusFaults(), bodyFaults(), shapeFaults())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _, _ := newTestClient(t, tc.handler, nil)
			page, err := c.Accounts(context.Background(), AccountsParams{})
			if err == nil {
				t.Fatal("no error")
			}
			tc.check(t, page, err)
			checkNoSecret(t, "error", err.Error())
			if !strings.Contains(err.Error(), "Sandbox") {
				t.Errorf("error does not name the environment: %v", err)
			}
			if strings.ContainsRune(err.Error(), 0x1b) {
				t.Errorf("error text carries an escape: %q", err.Error())
			}
		})
	}
}

func TestServerThatNeverAnswersTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	c, _, srv := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), func(o *Options) { o.Timeout = 150 * time.Millisecond })
	defer close(release)
	_, err := c.Accounts(context.Background(), AccountsParams{})
	var ne *NetworkError
	if !errors.As(err, &ne) || !ne.Timeout || !errors.Is(err, ErrNetwork) {
		t.Fatalf("err = %v, want a timed-out *NetworkError", err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	if ne.Host != host || !strings.Contains(err.Error(), "timed out") || !strings.Contains(err.Error(), "Sandbox API at "+host) {
		t.Errorf("err = %v", err)
	}
	if s := c.Status(); s.InFlight != 0 || s.LastStatus != 0 {
		t.Errorf("status = %+v", s)
	}
}

func TestStalledBodyTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"accounts":{"totalCount":`))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), func(o *Options) { o.Timeout = 150 * time.Millisecond })
	defer close(release)
	_, err := c.Accounts(context.Background(), AccountsParams{})
	var ne *NetworkError
	if !errors.As(err, &ne) || !ne.Timeout || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want a timed-out *NetworkError", err)
	}
}

func TestUnreachableHostIsANetworkError(t *testing.T) {
	t.Parallel()
	addr := fmt.Sprintf("127.0.0.1:%d", testkit.UnusedPort(t)) // nothing listens there
	c, err := New(Options{Env: "live", GraphQLURL: "http://" + addr + "/live-partner/graphql", TokenSource: staticToken()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.ProjectInfo(context.Background())
	var ne *NetworkError
	if !errors.As(err, &ne) || ne.Timeout || ne.Env != "live" {
		t.Fatalf("err = %v", err)
	}
	want := "could not reach the Live API at " + addr + ": "
	if !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "check") {
		t.Errorf("err = %q, want it to start %q", err, want)
	}
}

func TestCancelledContextIsNotANetworkError(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Accounts(ctx, AccountsParams{})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNetwork) {
		t.Errorf("err = %v", err)
	}
}

type failingSource struct{ err error }

// sessionOver is a token-source error that says the session has ended, the
// way auth's errors do (SignInRequirer).
type sessionOver struct{}

func (sessionOver) Error() string        { return "the session has ended" }
func (sessionOver) SignInRequired() bool { return true }

func (f failingSource) Token() (*oauth2.Token, error) { return nil, f.err }

func TestTokenSourceSignInRequired(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }), func(o *Options) {
		o.TokenSource = failingSource{fmt.Errorf("refresh refused: %w", sessionOver{})}
	})
	_, err := c.User(context.Background())
	var ue *UnauthorizedError
	if !errors.As(err, &ue) || !errors.Is(err, ErrUnauthorized) || !errors.As(err, new(sessionOver)) || ue.Status != 0 {
		t.Fatalf("err = %v", err)
	}
	// The facts of the token source, and no claim that the server answered.
	if err.Error() != "refresh refused: the session has ended" || calls.Load() != 0 {
		t.Errorf("err = %v, requests = %d", err, calls.Load())
	}
	if s := c.Status(); s.Used != 0 || s.InFlight != 0 {
		t.Errorf("a request that never left counts against the budget: %+v", s)
	}
}

func TestTokenSourceOtherFailure(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), func(o *Options) {
		o.TokenSource = failingSource{errors.New("dial tcp: connection refused")}
	})
	_, err := c.User(context.Background())
	if err == nil || errors.Is(err, ErrUnauthorized) || !strings.Contains(err.Error(), "access token for the Sandbox API") {
		t.Errorf("err = %v", err)
	}
}

// A 401 says which token was refused: the signed-in user's access token,
// or the project token, whose remedy is the client credentials.
func TestUnauthorizedNamesTheToken(t *testing.T) {
	t.Parallel()
	refuse := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"errors":[{"message":"invalid client"}]}`))
	})
	for _, project := range []bool{false, true} {
		c, _, _ := newTestClient(t, refuse, func(o *Options) { o.Project = project })
		_, err := c.Accounts(context.Background(), AccountsParams{})
		want := "the Sandbox API refused the access token (HTTP 401: invalid client)"
		if project {
			want = "the Sandbox API refused the project token (HTTP 401: invalid client)"
		}
		if !errors.Is(err, ErrUnauthorized) || err.Error() != want {
			t.Errorf("project %v: err = %v, want %q", project, err, want)
		}
	}
}

func TestGuardRefusesForeignEndpoints(t *testing.T) {
	t.Parallel()
	var foreign atomic.Int32
	evilURL := httptestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { foreign.Add(1) }))
	var own atomic.Int32
	c, _, srv := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sandbox-partner/graphql" && r.URL.Path != "/sandbox-partner-admin/graphql" {
			own.Add(1)
		}
	}), nil)
	targets := []string{
		evilURL + "/sandbox-partner/graphql",                                               // another host (and port) entirely
		srv.URL + "/live-partner/graphql",                                                  // same host, other environment
		srv.URL + "/sandbox-partner/graphql/extra",                                         // path prefix is not enough
		strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/sandbox-partner/graphql", // other host name
		"https://" + strings.TrimPrefix(srv.URL, "http://") + "/sandbox-partner/graphql",   // other scheme
	}
	for _, u := range targets {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader("{}"))
		resp, err := c.http.Do(req)
		if resp != nil {
			_ = resp.Body.Close()
		}
		if !errors.Is(err, ErrForeignEndpoint) {
			t.Errorf("%s: err = %v, want ErrForeignEndpoint", u, err)
			continue
		}
		checkNoSecret(t, "guard error", err.Error())
	}
	if own.Load() != 0 || foreign.Load() != 0 {
		t.Errorf("refused requests reached a server: %d, %d", own.Load(), foreign.Load())
	}
	if s := c.Status(); s.Used != 0 {
		t.Errorf("refused requests count against the budget: %+v", s)
	}
}

func TestNewRejectsUnsafeURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "ftp://x/graphql", "http://api.example.com/sandbox-partner/graphql", "https://user:pw@api.example.com/x", "/relative"} {
		if _, err := New(Options{Env: "sandbox", GraphQLURL: u, TokenSource: staticToken()}); err == nil {
			t.Errorf("New accepted %q", u)
		}
	}
	if _, err := New(Options{Env: "sandbox", GraphQLURL: "https://api.example.com/sandbox-partner/graphql"}); err == nil {
		t.Error("New accepted a missing token source")
	}
	if _, err := New(Options{Env: "sandbox", GraphQLURL: "https://api.example.com/sandbox-partner/graphql", TokenSource: staticToken()}); err != nil {
		t.Errorf("New refused an https URL: %v", err)
	}
}

func TestBudgetWaitsInsteadOfSending(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		okAccounts(w)
	}), func(o *Options) { o.Budget = 3; o.Window = time.Minute })
	start := clk.Now()
	for i := range 3 {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			clk.Advance(10 * time.Second)
		}
	}
	if s := c.Status(); s.Used != 3 || s.Limit != 3 || s.WaitReason == WaitBudget {
		t.Fatalf("status = %+v", s)
	}
	var during Status
	var sentWhileWaiting int32
	clk.OnSleep(func(time.Duration) { during = c.Status(); sentWhileWaiting = calls.Load() })
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	// The first request (at start) leaves the window at start+1m.
	if s := clk.Sleeps(); len(s) != 1 || s[0] != 50*time.Second {
		t.Errorf("sleeps = %v, want [50s]", s)
	}
	if during.WaitReason != WaitBudget || !during.RetryAt.Equal(start.Add(time.Minute)) || sentWhileWaiting != 3 {
		t.Errorf("while throttled: %+v, sent %d", during, sentWhileWaiting)
	}
	if s := c.Status(); s.WaitReason == WaitBudget || !s.RetryAt.IsZero() || s.Used != 3 {
		t.Errorf("after the wait: %+v", s)
	}
}

func TestBudgetWaitHonoursContext(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }),
		func(o *Options) {
			o.Budget = 1
			o.Sleep = func(ctx context.Context, d time.Duration) error { return context.DeadlineExceeded }
		})
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	_, err := c.Accounts(context.Background(), AccountsParams{})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrNetwork) {
		t.Errorf("err = %v", err)
	}
	if s := c.Status(); s.Used != 1 || s.WaitReason == WaitBudget {
		t.Errorf("status = %+v", s)
	}
}

func TestServerRateLimitHeadersOverride(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "500")
		w.Header().Set("X-RateLimit-Remaining", "120")
		w.Header().Set("X-RateLimit-Reset", "60")
		okAccounts(w)
	}), nil)
	if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	if s := c.Status(); s.Used != 380 || s.Limit != 500 {
		t.Errorf("status = %+v, want 380/500 from the headers", s)
	}
}

func TestServerSaysBudgetSpent(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, clk, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		w.Header().Set("X-RateLimit-Limit", "100")
		if n == 1 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", "30")
		} else {
			w.Header().Set("X-RateLimit-Remaining", "99")
			w.Header().Set("X-RateLimit-Reset", "300")
		}
		okAccounts(w)
	}), nil)
	for range 2 {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
	}
	if s := clk.Sleeps(); len(s) != 1 || s[0] != 30*time.Second {
		t.Errorf("sleeps = %v, want to wait for the server's reset (30s)", s)
	}
}

func TestUpdatesNeverBlockAndDeliverTheLatest(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }), nil)
	for range 20 {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case s := <-c.Updates():
		if s.Used != 20 || s.InFlight != 0 || s.LastStatus != 200 || s.Env != "sandbox" || s.Limit != platform.RequestBudget || s.Window != platform.BudgetWindow {
			t.Errorf("latest update = %+v", s)
		}
	default:
		t.Fatal("no update delivered")
	}
	select {
	case s := <-c.Updates():
		t.Errorf("a second, stale update was queued: %+v", s)
	default:
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okAccounts(w) }), nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if s := c.Status(); s.Used != 8 || s.InFlight != 0 {
		t.Errorf("status = %+v", s)
	}
}

func TestAccountUserProjectTransactions(t *testing.T) {
	t.Parallel()
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		switch q.OperationName {
		case OpAccount:
			if q.Variables["accountId"] == "missing" {
				writeJSON200(w, map[string]any{"data": map[string]any{"account": nil}})
				return
			}
			writeJSON200(w, map[string]any{"data": map[string]any{"account": map[string]any{
				"id": "acc-1", "number": "12345678901", "name": "Main\x1b[31m", "IBAN": nil, "BIC": "SWNBFR22", "currency": "EUR",
				"country": "FRA", "language": "fr", "paymentLevel": "Limited", "paymentAccountType": "EMoney",
				"statusInfo": map[string]any{"status": "Opened"},
				"holder":     map[string]any{"id": "h-1", "verificationStatus": "Verified", "info": map[string]any{"type": "Individual", "name": "Ada"}},
				"balances": map[string]any{"available": map[string]any{"value": "1.00", "currency": "EUR"}, "booked": map[string]any{"value": "2.00", "currency": "EUR"},
					"pending": map[string]any{"value": "0.00", "currency": "EUR"}, "reserved": map[string]any{"value": "1.00", "currency": "EUR"}},
				"createdAt": "2025-01-02T03:04:05.678Z", "updatedAt": "2025-02-02T03:04:05Z",
			}}})
		case OpUser:
			writeJSON200(w, map[string]any{"data": map[string]any{"user": map[string]any{
				"id": "u-1", "firstName": "Ada", "lastName": nil, "fullName": "Ada", "mobilePhoneNumber": "+33612345678",
				"birthDate": nil, "status": "Active", "identificationLevels": map[string]any{"PVID": true, "QES": false, "expert": true},
				"createdAt": "2025-01-02T03:04:05Z"}}})
		case OpProjectInfo:
			writeJSON200(w, map[string]any{"data": map[string]any{"projectInfo": map[string]any{"id": "p-1", "name": "Demo", "type": "Company", "status": "Enabled"}}})
		case OpAccountTransactionList:
			if q.Variables["first"] != float64(5) || q.Variables["after"] != "c1" || q.Variables["accountId"] != "acc-1" {
				t.Errorf("variables = %v", q.Variables)
			}
			writeJSON200(w, map[string]any{"data": map[string]any{"account": map[string]any{"transactions": map[string]any{
				"totalCount": 1, "pageInfo": map[string]any{"hasNextPage": false, "endCursor": "c2"},
				"edges": []any{map[string]any{"node": map[string]any{"id": "tx-1", "reference": "r", "side": "Credit", "type": "SepaCreditTransferIn",
					"amount": map[string]any{"value": "10.00", "currency": "EUR"}, "label": "Salary\u009b2J", "counterparty": "ACME",
					"executionDate": "2025-03-01T00:00:00Z", "statusInfo": map[string]any{"status": "Booked"}}}},
			}}}})
		default:
			t.Errorf("unexpected operation %q", q.OperationName)
		}
	}), nil)
	ctx := context.Background()
	a, err := c.Account(ctx, "acc-1")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "Main" || a.IBAN != "" || a.Number != "12345678901" || a.Holder.VerificationStatus != "Verified" ||
		a.Balances.Booked.Value != "2.00" || a.CreatedAt.IsZero() || a.UpdatedAt.Month() != time.February || a.Country != "FRA" {
		t.Errorf("account = %+v", a)
	}
	if _, err := c.Account(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing account: err = %v", err)
	}
	u, err := c.User(ctx)
	if err != nil || u.ID != "u-1" || u.LastName != "" || !u.IdentificationLevels.Expert || u.MobilePhoneNumber != "+33612345678" {
		t.Errorf("user = %+v, %v", u, err)
	}
	p, err := c.ProjectInfo(ctx)
	if err != nil || p.Name != "Demo" || p.Status != "Enabled" {
		t.Errorf("project = %+v, %v", p, err)
	}
	tp, err := c.TransactionList(ctx, TransactionsParams{AccountID: "acc-1", First: 5, After: "c1"})
	if err != nil || len(tp.Items) != 1 || tp.Items[0].Label != "Salary" || tp.Items[0].ExecutionDate.IsZero() || tp.PageInfo.EndCursor != "c2" {
		t.Errorf("transactions = %+v, %v", tp, err)
	}
}
