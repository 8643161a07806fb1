package api

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
)

// What happens to a request whose caller stops waiting for it.
//
// A request the caller abandons (its context ends) is not torn down with
// its connection when the connection is shared: over HTTP/2 the stream
// is reset and the connection stays; over HTTP/1.1, where abandoning a
// request means closing its connection, the request is let run to its
// answer in the background and the answer read and dropped, so the
// connection goes back to the pool for the next request (the user and
// project clients of an environment share it, NewTransport). The caller
// is answered at once either way.
//
// A request whose answer is worth having even when its asker has gone (a
// revalidation: its answer refreshes what is kept) is made with
// FinishOnceSent: the asker leaving then stops it only while it waits to
// be sent.

// maxAbandonedAnswer bounds what is read of an abandoned HTTP/1.1 answer
// to keep its connection (an account's view, a page of every tab, is
// well under it); a longer answer closes the connection instead.
const maxAbandonedAnswer = 1 << 20

// askerKey carries the context of whoever asks for a FinishOnceSent
// request.
type askerKey struct{}

// FinishOnceSent is ctx for a request whose answer is useful beyond the
// one who asks for it: when asker ends before the request is sent (it
// waits for the budget or a 429's hold), the request is not sent; once it
// is sent, asker ending does not cancel it: it runs to its answer, which
// is decoded and returned as usual, unless ctx ends. The budget is spent
// only for a request that leaves while someone still asks for it.
func FinishOnceSent(ctx, asker context.Context) context.Context {
	return context.WithValue(ctx, askerKey{}, asker)
}

func askerFrom(ctx context.Context) context.Context {
	a, _ := ctx.Value(askerKey{}).(context.Context)
	return a
}

// untilSent is the context a request waits to be sent under: ctx, ended
// early by its asker's leaving when it was made with FinishOnceSent.
func untilSent(ctx context.Context) (context.Context, context.CancelFunc) {
	asker := askerFrom(ctx)
	if asker == nil {
		return ctx, func() {}
	}
	wctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(asker, func() { cancel(context.Cause(asker)) })
	return wctx, func() { stop(); cancel(nil) }
}

// leftBeforeSent is the asker's error when a FinishOnceSent request was
// not sent because its asker had gone; nil otherwise.
func leftBeforeSent(ctx context.Context, cs *callState) error {
	if cs.host != "" {
		return nil
	}
	if a := askerFrom(ctx); a != nil {
		return a.Err()
	}
	return nil
}

// connKind is what carries a request, as far as it is known.
type connKind = int32

const (
	connNone  connKind = iota // no connection yet (dialling, or waiting for one)
	connHTTP1                 // an HTTP/1.1 connection: abandoning closes it
	connHTTP2                 // an HTTP/2 connection: abandoning resets a stream
)

// connKeeper is the layer just above the connection pool: it sends each
// request under a context of its own, so that the caller abandoning it
// does not close an HTTP/1.1 connection the next request could use (see
// above). The context keeps the caller's values and deadline: a request
// that times out is torn down, its connection with it.
type connKeeper struct {
	next http.RoundTripper
}

type exchangeResult struct {
	resp *http.Response
	err  error
}

func (k *connKeeper) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	xctx, xcancel := context.WithCancel(context.WithoutCancel(ctx))
	if dl, ok := ctx.Deadline(); ok {
		xctx, xcancel = context.WithDeadline(context.WithoutCancel(ctx), dl)
	}
	var kind atomic.Int32
	xctx = httptrace.WithClientTrace(xctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		kind.Store(kindOf(info.Conn))
	}})
	done := make(chan exchangeResult, 1)
	go func() {
		resp, err := k.next.RoundTrip(req.WithContext(xctx))
		done <- exchangeResult{resp, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			xcancel()
			return nil, r.err
		}
		// Leaving while the body is read ends the exchange: the answer
		// is arriving, and the transport reuses what it can. A deadline
		// is xctx's own, so the body's read fails as a timeout.
		stop := context.AfterFunc(ctx, func() {
			if ctx.Err() != context.DeadlineExceeded {
				xcancel()
			}
		})
		r.resp.Body = &exchangeBody{ReadCloser: r.resp.Body, end: func() { stop(); xcancel() }}
		return r.resp, nil
	case <-ctx.Done():
	}
	if ctx.Err() == context.DeadlineExceeded || kind.Load() != connHTTP1 {
		// A timeout ends the exchange whatever it costs; over HTTP/2 a
		// reset stream costs nothing, and without a connection yet
		// there is none to lose (a dial already begun still fills the
		// pool).
		xcancel()
		if r := <-done; r.err == nil {
			_ = r.resp.Body.Close()
		}
		return nil, ctx.Err()
	}
	go func() {
		defer xcancel()
		if r := <-done; r.err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(r.resp.Body, maxAbandonedAnswer))
			_ = r.resp.Body.Close()
		}
	}()
	return nil, ctx.Err()
}

// kindOf tells an HTTP/2 connection (TLS with h2 negotiated) from an
// HTTP/1.1 one: the pool never speaks HTTP/2 in clear text.
func kindOf(c any) connKind {
	if tc, ok := c.(*tls.Conn); ok && tc.ConnectionState().NegotiatedProtocol == "h2" {
		return connHTTP2
	}
	return connHTTP1
}

// exchangeBody ends the exchange's context once its body is closed.
type exchangeBody struct {
	io.ReadCloser
	end func()
}

func (b *exchangeBody) Close() error {
	err := b.ReadCloser.Close()
	b.end()
	return err
}
