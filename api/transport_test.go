package api

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/oauth2"
)

// The user and project clients of one environment share a pool: the
// second client's first request reuses the first one's connection, and
// each client's guard still refuses any other environment's endpoint.
func TestClientsSharingATransportShareConnections(t *testing.T) {
	t.Parallel()
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON200(w, accountsPage(0, 1, 1))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	pool := NewTransport()
	build := func(tok string) *Client {
		c, err := New(Options{
			Env: "sandbox", GraphQLURL: srv.URL + "/sandbox-partner/graphql", Transport: pool,
			TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok}),
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	user, project := build("user-token"), build("project-token")
	if !user.SharesConnectionsWith(project) {
		t.Fatal("clients built on one Transport do not share it")
	}
	for _, c := range []*Client{user, project, user} {
		if _, err := c.Accounts(context.Background(), AccountsParams{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("three sequential requests of two clients opened %d connections, want 1", n)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/live-partner/graphql", strings.NewReader("{}"))
	if _, err := project.http.Do(req); !errors.Is(err, ErrForeignEndpoint) {
		t.Errorf("a client on a shared pool sent to another environment's endpoint: %v", err)
	}
	own := build("other")
	other, err := New(Options{Env: "live", GraphQLURL: srv.URL + "/live-partner/graphql", TokenSource: staticToken()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	if other.SharesConnectionsWith(own) {
		t.Error("a client built without a Transport shares another's pool")
	}
}
