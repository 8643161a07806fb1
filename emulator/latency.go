package emulator

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// latency holds every answer back as if the emulator were d of round trip
// away (Options.Latency), and the first answer of a connection d more: its
// TCP handshake. It wraps the middleware, so the request log and the rate
// limit see the server's own time.
type latency struct {
	d     time.Duration
	sleep func(ctx context.Context, d time.Duration)
	next  http.Handler
}

// withLatency wraps next when opts asks for a latency.
func withLatency(opts Options, next http.Handler) http.Handler {
	if opts.Latency <= 0 {
		return next
	}
	sleep := opts.sleep
	if sleep == nil {
		sleep = sleepCtx
	}
	return &latency{d: opts.Latency, sleep: sleep, next: next}
}

func (l *latency) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d := l.d
	if c, ok := r.Context().Value(connKey{}).(*connState); ok && c.answered.CompareAndSwap(false, true) {
		d += l.d
	}
	readBodyFirst(r)
	l.sleep(r.Context(), d)
	l.next.ServeHTTP(w, r)
}

// readBodyFirst reads the request's body (up to the largest any endpoint
// reads) before the wait, as the platform would have it by then: net/http
// watches the connection for the client leaving only once the body is
// read, and a client that leaves during the wait is one the request log
// must report (499). The handler reads the same bytes, then the rest.
func readBodyFirst(r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength > maxBody {
		return
	}
	body := r.Body
	head, err := io.ReadAll(io.LimitReader(body, maxBody+1))
	rest := io.Reader(body)
	if err != nil {
		rest = errReader{err}
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), rest), body}
}

// connKey is the context key of a connection's connState.
type connKey struct{}

// connState is what the emulator knows of one client connection.
type connState struct {
	answered atomic.Bool // a request of it has been served
}

// markConn is the http.Server's ConnContext: each connection's requests
// share one connState.
func markConn(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, &connState{})
}

// sleepCtx waits d, or less if the client goes away.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
