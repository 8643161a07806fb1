package api

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// heldServer answers the accounts query; a request whose operation the
// test holds waits until released, and says when it arrives and whether
// its client went away.
type heldServer struct {
	srv              *httptest.Server
	arrived          chan struct{} // a held request reached the handler
	release          chan struct{} // closed: held requests answer
	gone             chan struct{} // a held request's context ended first
	hold             atomic.Bool
	newConns, closed atomic.Int32
	proto            atomic.Int32 // of the last request
}

func newHeldServer(t *testing.T, h2 bool) *heldServer {
	t.Helper()
	s := &heldServer{arrived: make(chan struct{}, 4), release: make(chan struct{}), gone: make(chan struct{}, 4)}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.proto.Store(int32(r.ProtoMajor))
		// Read whole, net/http watches the connection for the client
		// leaving.
		_, _ = io.Copy(io.Discard, r.Body)
		if s.hold.Load() {
			s.arrived <- struct{}{}
			select {
			case <-s.release:
			case <-r.Context().Done():
				s.gone <- struct{}{}
				return
			}
		}
		writeJSON200(w, accountsPage(0, 1, 1))
	}))
	s.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			s.newConns.Add(1)
		case http.StateClosed:
			s.closed.Add(1)
		}
	}
	if h2 {
		s.srv.EnableHTTP2 = true
		s.srv.StartTLS()
	} else {
		s.srv.Start()
	}
	t.Cleanup(s.srv.Close)
	return s
}

// client is a Client on the pool partnertui builds (NewTransport), held
// to one connection: a second request can only reuse the first one's,
// or open another once it is closed.
func (s *heldServer) client(t *testing.T, mod func(*Options)) *Client {
	t.Helper()
	pool := NewTransport()
	pool.MaxConnsPerHost = 1
	if s.srv.TLS != nil {
		pool.TLSClientConfig = s.srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	}
	opts := Options{Env: "sandbox", GraphQLURL: s.srv.URL + "/sandbox-partner/graphql", TokenSource: staticToken(),
		Transport: pool, Timeout: time.Minute}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// abandon sends a held request and cancels it once the server has it; it
// returns once the caller has its answer, which must be the cancellation.
func (s *heldServer) abandon(t *testing.T, c *Client) {
	t.Helper()
	s.hold.Store(true)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Accounts(ctx, AccountsParams{})
		errc <- err
	}()
	<-s.arrived
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the abandoned request returned %v, want the cancellation", err)
	}
	s.hold.Store(false)
}

// Over HTTP/1.1 abandoning a request would close its connection: the
// caller is answered at once, the request runs to its answer in the
// background and the answer is read and dropped, so the next request
// (here held to the one connection) finds the connection open.
func TestAbandonedRequestKeepsItsHTTP1Connection(t *testing.T) {
	t.Parallel()
	s := newHeldServer(t, false)
	c := s.client(t, nil)
	s.abandon(t, c) // answered while the server still holds the request
	close(s.release)
	if _, err := c.Accounts(t.Context(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	if n, closed := s.newConns.Load(), s.closed.Load(); n != 1 || closed != 0 {
		t.Errorf("an abandoned request and the next one opened %d connections and closed %d, want 1 and 0", n, closed)
	}
	select {
	case <-s.gone:
		t.Error("the server saw the abandoned request's client leave")
	default:
	}
}

// Over HTTP/2 the abandoned request's stream is reset (the server's
// handler sees it go) and the connection, which other requests share,
// stays: a request in flight on it at the same time is answered, and the
// next one reuses it.
func TestAbandonedRequestResetsOnlyItsHTTP2Stream(t *testing.T) {
	t.Parallel()
	s := newHeldServer(t, true)
	c := s.client(t, nil)
	if _, err := c.Accounts(t.Context(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	// A second request shares the connection while the first is
	// abandoned.
	s.hold.Store(true)
	other := make(chan error, 1)
	go func() {
		_, err := c.Accounts(t.Context(), AccountsParams{})
		other <- err
	}()
	<-s.arrived
	s.abandon(t, c)
	<-s.gone // the stream reset reached the server
	close(s.release)
	if err := <-other; err != nil {
		t.Fatalf("the request sharing the connection failed: %v", err)
	}
	if _, err := c.Accounts(t.Context(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	if p := s.proto.Load(); p != 2 {
		t.Fatalf("the requests went over HTTP/%d, want HTTP/2", p)
	}
	if n, closed := s.newConns.Load(), s.closed.Load(); n != 1 || closed != 0 {
		t.Errorf("an abandoned HTTP/2 request and the others opened %d connections and closed %d, want 1 and 0", n, closed)
	}
}

// A request that times out is torn down with its connection, even over
// HTTP/1.1: a server that does not answer is not waited for in the
// background.
func TestTimedOutRequestClosesItsConnection(t *testing.T) {
	t.Parallel()
	s := newHeldServer(t, false)
	s.hold.Store(true)
	c := s.client(t, func(o *Options) { o.Timeout = 50 * time.Millisecond })
	_, err := c.Accounts(t.Context(), AccountsParams{})
	var ne *NetworkError
	if !errors.As(err, &ne) || !ne.Timeout {
		t.Fatalf("a request the server never answered returned %v, want a timeout", err)
	}
	<-s.arrived
	<-s.gone // the server saw the connection close
}

// A FinishOnceSent request whose asker leaves once it is sent runs to its
// answer, which the call returns: the connection is kept, the budget's
// request not wasted.
func TestFinishOnceSentOutlivesItsAsker(t *testing.T) {
	t.Parallel()
	s := newHeldServer(t, false)
	c := s.client(t, nil)
	s.hold.Store(true)
	asker, leave := context.WithCancel(t.Context())
	got := make(chan error, 1)
	var page *Page[Account]
	go func() {
		var err error
		page, err = c.Accounts(FinishOnceSent(t.Context(), asker), AccountsParams{})
		got <- err
	}()
	<-s.arrived
	leave()
	close(s.release)
	if err := <-got; err != nil {
		t.Fatalf("a request sent before its asker left failed: %v", err)
	}
	if len(page.Items) != 1 {
		t.Fatalf("the answer has %d accounts, want 1", len(page.Items))
	}
	if used, _ := c.budget.Count(); used != 1 {
		t.Errorf("the budget counts %d requests, want 1", used)
	}
}

// A FinishOnceSent request whose asker leaves while it waits for the
// budget is never sent, and spends nothing.
func TestFinishOnceSentDroppedBeforeItIsSent(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		writeJSON200(w, accountsPage(0, 1, 1))
	}))
	t.Cleanup(srv.Close)
	waiting := make(chan struct{})
	var once sync.Once
	c, err := New(Options{Env: "sandbox", GraphQLURL: srv.URL + "/sandbox-partner/graphql", TokenSource: staticToken(),
		Budget: 1, Window: time.Hour,
		// The budget's wait lasts until the asker leaves.
		Sleep: func(ctx context.Context, _ time.Duration) error {
			once.Do(func() { close(waiting) })
			<-ctx.Done()
			return ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if _, err := c.Accounts(t.Context(), AccountsParams{}); err != nil {
		t.Fatal(err)
	}
	asker, leave := context.WithCancel(t.Context())
	got := make(chan error, 1)
	go func() {
		_, err := c.Accounts(FinishOnceSent(t.Context(), asker), AccountsParams{})
		got <- err
	}()
	<-waiting
	leave()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("a request whose asker left before it was sent returned %v, want the cancellation", err)
	}
	// The same once its asker has gone, without a wait.
	if _, err := c.Accounts(FinishOnceSent(t.Context(), asker), AccountsParams{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a request whose asker had gone returned %v, want the cancellation", err)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("the server had %d requests, want 1: those whose asker left were sent", n)
	}
	if used, _ := c.budget.Count(); used != 1 {
		t.Errorf("the budget counts %d requests, want 1", used)
	}
}
