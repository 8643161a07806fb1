package api

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"

	"github.com/partnertui/partnertui/internal/safetext"
	"github.com/partnertui/partnertui/internal/shellcmd"
)

// DefaultLogSize is how many requests a RequestLog keeps.
const DefaultLogSize = 500

// Redacted replaces every secret in the request log.
const Redacted = "[redacted]"

// RequestLog keeps a process's last requests, of every client it is given
// to (Options.Log), for the app's Requests screen and --verbose. It never
// holds a token, and the secrets an operation carries (a webhook
// subscription's secret, say) are redacted before they are kept. It is
// safe for concurrent use.
type RequestLog struct {
	size     int
	onRecord func(Entry)

	mu      sync.Mutex
	seq     uint64
	entries []Entry // a ring of size entries
	next    int
}

// NewRequestLog keeps the last size requests (DefaultLogSize when size
// is 0). onRecord, when set, hears of each one as it is recorded, one at
// a time; it should return quickly.
func NewRequestLog(size int, onRecord func(Entry)) *RequestLog {
	if size <= 0 {
		size = DefaultLogSize
	}
	return &RequestLog{size: size, onRecord: onRecord}
}

// Entry is one request: every send, a query's retry after a 429 included.
type Entry struct {
	Seq           uint64 // 1, 2, …: the order requests started in
	Time          time.Time
	Env           string
	Project       bool // sent with the project's token
	URL           string
	Testing       bool           // to the Sandbox Testing API
	OperationName string         // as sent; "" when the document has one operation
	Name          string         // the operation's name: OperationName, else the one in the text
	Query         string         // secrets in string literals redacted
	Variables     map[string]any // secrets redacted
	Status        int            // 0: no HTTP answer
	Duration      time.Duration  // from sending to the end of the answer
	Size          int64          // bytes of the answer read
	Used, Limit   int            // the request budget's count as it was sent
	Waited        time.Duration  // held back before sending (budget, 429)
	WaitReason    WaitReason     // why, when Waited > 0
	RetryAfter    string         // the answer's Retry-After header
	Errors        []string       // the answer's GraphQL errors, sanitised
	Err           string         // what went wrong, when it did (no token in it)
	// Answer is the start of an answer that was not the API's JSON (an
	// HTML page, a cut-off body), sanitised: the error says what it was in
	// one sentence, and this is where its text is read.
	Answer string
}

// Entries are the kept requests, newest first: by the order they
// started in (Seq), whatever order their answers came in.
func (l *RequestLog) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Entry, 0, len(l.entries))
	for i := range len(l.entries) {
		out = append(out, l.entries[(l.next-1-i+2*len(l.entries))%len(l.entries)])
	}
	// Kept in the order they ended: nearly sorted already.
	slices.SortStableFunc(out, func(a, b Entry) int { return cmp.Compare(b.Seq, a.Seq) })
	return out
}

// Seq is the sequence number the next request will get: requests with a
// Seq of at least this start later.
func (l *RequestLog) Seq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq + 1
}

func (l *RequestLog) take() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	return l.seq
}

func (l *RequestLog) add(e Entry) {
	l.mu.Lock()
	if len(l.entries) < l.size {
		l.entries = append(l.entries, e)
		l.next = len(l.entries) % l.size
	} else {
		l.entries[l.next] = e
		l.next = (l.next + 1) % l.size
	}
	l.mu.Unlock()
	if l.onRecord != nil {
		l.onRecord(e)
	}
}

// SizeText is the answer's size for people: "900 B", "12.3 kB".
func (e Entry) SizeText() string {
	if e.Size < 1000 {
		return fmt.Sprintf("%d B", e.Size)
	}
	return fmt.Sprintf("%.1f kB", float64(e.Size)/1000)
}

// WaitText says how long the request was held back and why, in a few
// words ("3s 429 Retry-After"); "" when it was not.
func (e Entry) WaitText() string {
	if e.Waited <= 0 {
		return ""
	}
	why := "request budget"
	switch e.WaitReason {
	case WaitRetryAfter:
		why = "429 Retry-After"
	case WaitBackoff:
		why = "429 backoff"
	}
	return max(e.Waited.Round(time.Second), time.Second).String() + " " + why
}

// Request is the entry as a Request, to send it again.
func (e Entry) Request() Request {
	return Request{Query: e.Query, OperationName: e.OperationName, Variables: e.Variables, Testing: e.Testing}
}

// Curl is the request as a curl command reading the token from
// $PARTNERTUI_TOKEN.
func (e Entry) Curl() string {
	body, err := e.Request().Body()
	if err != nil {
		return ""
	}
	return shellcmd.Curl(e.URL, body)
}

// Command is the request as a `partnertui api` command.
func (e Entry) Command() string {
	return shellcmd.API{Env: e.Env, Project: e.Project, Testing: e.Testing, OperationName: e.OperationName,
		Query: e.Query, Variables: e.Variables}.String()
}

// record adds what one send of an operation left in cs to the log.
func (c *Client) record(cs *callState, err error) {
	if c.log == nil || cs.seq == 0 {
		return
	}
	var body struct {
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables"`
		OperationName string         `json:"operationName"`
	}
	_ = json.Unmarshal(cs.body, &body)
	shown := Request{Query: body.Query, OperationName: body.OperationName, Variables: body.Variables}.Redacted()
	e := Entry{
		Seq: cs.seq, Time: cs.started, Env: c.env, Project: c.project, URL: cs.url, Testing: cs.url == c.testingURL && cs.url != "",
		OperationName: body.OperationName, Query: shown.Query, Variables: shown.Variables,
		Status: cs.status, Duration: cs.duration, Size: cs.size, Used: cs.used, Limit: cs.limit,
		Waited: cs.waited, WaitReason: cs.waitReason, Errors: cs.errs,
	}
	if e.Name = e.OperationName; e.Name == "" {
		e.Name = nameIn(body.Query)
	}
	if cs.header != nil {
		e.RetryAfter = safetext.Truncate(cs.header.Get("Retry-After"), 40)
	}
	var ge *GraphQLError
	var bad *BadResponseError
	if errors.As(err, &bad) {
		e.Answer = bad.Snippet
		for _, sec := range secretValues(body.Variables) {
			e.Answer = redactText(e.Answer, sec)
		}
	}
	switch {
	case errors.As(err, &ge):
		for _, d := range ge.Errors {
			e.Errors = append(e.Errors, d.Message)
		}
	case err != nil:
		e.Err = err.Error()
	}
	c.log.add(e)
}

// Redacted is the request as every printed form of it shows it (the
// request log, --verbose, the commands `--dry-run` prints and `L`
// copies): each secret it carries replaced by Redacted — a variable or
// input field named like a secret, a token or a password, at any depth,
// and a string literal given to such an argument in the text — and every
// other string of its variables made safe for a terminal. It is the one
// rule of what a printed request holds.
func (r Request) Redacted() Request {
	r.Query = redactQuery(r.Query)
	r.Variables = redactVars(r.Variables)
	return r
}

// secretish reports whether name is one whose value is never kept: a
// webhook subscription's secret, and anything named like a token or a
// password. It is a plain search (no regexp): it runs on every request.
func secretish(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "secret") || strings.Contains(l, "token") ||
		strings.Contains(l, "password") || strings.Contains(l, "authorization")
}

func redactVars(vars map[string]any) map[string]any {
	if vars == nil {
		return nil
	}
	out := make(map[string]any, len(vars))
	for k, v := range vars {
		out[k] = redactValue(k, v)
	}
	return out
}

func redactValue(name string, v any) any {
	if secretish(name) && v != nil {
		return Redacted
	}
	switch x := v.(type) {
	case map[string]any:
		return redactVars(x)
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			out[i] = redactValue(name, y)
		}
		return out
	case string:
		return safetext.Strip(x)
	}
	return v
}

// secretValues are the string values of vars given to a secret-like
// name, at any depth, which an answer may echo.
func secretValues(vars map[string]any) []string {
	var out []string
	var walk func(name string, v any)
	walk = func(name string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				walk(k, y)
			}
		case []any:
			for _, y := range x {
				walk(name, y)
			}
		case string:
			if secretish(name) && x != "" {
				out = append(out, x)
			}
		}
	}
	for k, v := range vars {
		walk(k, v)
	}
	return out
}

// redactQuery replaces the string literals given to a secret-like
// argument or input field (secret: "…") in an operation's text.
func redactQuery(q string) string {
	if !secretish(q) {
		return q
	}
	lx := lexer.New(&ast.Source{Input: q})
	runes := []rune(q)
	type span struct{ start, end int }
	var spans []span
	var prev [2]lexer.Token
	for {
		t, err := lx.ReadToken()
		if err != nil || t.Kind == lexer.EOF {
			break
		}
		if (t.Kind == lexer.String || t.Kind == lexer.BlockString) && prev[1].Kind == lexer.Colon &&
			prev[0].Kind == lexer.Name && secretish(prev[0].Value) {
			spans = append(spans, span{t.Pos.Start, t.Pos.End})
		}
		prev[0], prev[1] = prev[1], t
	}
	if len(spans) == 0 {
		return q
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(string(runes[at:s.start]))
		b.WriteString(`"` + Redacted + `"`)
		at = s.end
	}
	b.WriteString(string(runes[at:]))
	return b.String()
}

// noteRequest starts an operation's entry: its number, time, URL and body.
func (c *Client) noteRequest(cs *callState, req *http.Request) {
	if c.log == nil || cs == nil {
		return
	}
	cs.seq = c.log.take()
	cs.started = c.now()
	cs.url = req.URL.Scheme + "://" + req.URL.Host + req.URL.Path
	if req.GetBody != nil {
		if rc, err := req.GetBody(); err == nil {
			cs.body, _ = io.ReadAll(io.LimitReader(rc, maxLoggedBody))
			_ = rc.Close()
		}
	}
}

// maxLoggedBody bounds what the log reads of a request body.
const maxLoggedBody = 1 << 20

// noteSent records how long the request waited and the budget's count as
// it left.
func (c *Client) noteSent(cs *callState, sentAt time.Time) {
	if cs.seq == 0 {
		return
	}
	if cs.waitReason != "" {
		cs.waited = max(sentAt.Sub(cs.started), 0)
	}
	cs.used, cs.limit = c.budget.Count()
}

// noteErrors keeps the messages of a 200 answer's "errors" for the log.
func noteErrors(ctx context.Context, body []byte) {
	cs := callFrom(ctx)
	if cs == nil || cs.seq == 0 {
		return
	}
	var env struct {
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &env) != nil {
		return
	}
	for _, e := range env.Errors {
		// A verbatim answer's are not stripped yet; Strip leaves the
		// others as they are.
		cs.errs = append(cs.errs, safetext.Strip(e.Message))
	}
}

// nameIn is the name of the first operation of a document, "" when it is
// anonymous.
func nameIn(q string) string {
	lx := lexer.New(&ast.Source{Input: q})
	kw := false
	for {
		t, err := lx.ReadToken()
		if err != nil || t.Kind == lexer.EOF {
			return ""
		}
		if kw {
			if t.Kind == lexer.Name {
				return t.Value
			}
			return ""
		}
		switch {
		case t.Kind == lexer.BraceL:
			return ""
		case t.Kind == lexer.Name && (t.Value == "query" || t.Value == "mutation" || t.Value == "subscription"):
			kw = true
		}
	}
}
