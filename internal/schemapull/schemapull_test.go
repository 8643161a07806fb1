package schemapull

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/schemacache"
	"github.com/partnertui/partnertui/internal/schemadiff"
	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

var at = time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)

// client is an API client of base's Sandbox endpoints: anonymous without
// a token.
func client(t *testing.T, base, token string) *api.Client {
	t.Helper()
	opts := api.Options{Env: "sandbox", GraphQLURL: base + "/sandbox-partner/graphql", TestingURL: base + "/sandbox-partner-admin/graphql",
		Timeout: 30 * time.Second}
	if token == "" {
		opts.Anonymous = true
	} else {
		opts.TokenSource = oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token, TokenType: "Bearer"})
	}
	c, err := api.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestAPulledSchemaIsTheSchemaServed: pulled from an emulator serving the
// public schemas, each endpoint's snapshot is that schema to the letter
// (descriptions, defaults, deprecated fields, arguments, input fields and
// enum values with their reasons), read without a token.
func TestAPulledSchemaIsTheSchemaServed(t *testing.T) {
	t.Parallel()
	partner, testing := reference.Path(t, reference.PartnerSchema), reference.Path(t, reference.TestingSchema)
	emu := testkit.StartEmulator(t, emulator.Options{Accounts: 1, Schemas: []emulator.Source{{Path: partner}, {Path: testing}}})
	var tokens atomic.Int32
	base := proxy(t, emu, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("Authorization") != "" {
			tokens.Add(1)
		}
		return false
	})
	store := schemacache.New(t.TempDir())
	public := client(t, base, "")
	for _, c := range []struct {
		file    string
		testing bool
		want    schemafile.Endpoint
	}{{partner, false, schemafile.Partner}, {testing, true, schemafile.Testing}} {
		res, err := Pull(context.Background(), store, Target{Env: "sandbox", Testing: c.testing, Public: public}, at)
		if err != nil {
			t.Fatal(err)
		}
		if res.Refused != "" || res.Previous != nil || res.Snapshot.API != c.want || res.Schema.Endpoint != c.want || !res.Schema.Deprecations {
			t.Errorf("%s: %+v", c.want, res)
		}
		ref, err := schemafile.Load(c.file, reference.Read(t, c.file[strings.LastIndex(c.file, "/")+1:]))
		if err != nil {
			t.Fatal(err)
		}
		kept, err := store.Load(res.Snapshot)
		if err != nil {
			t.Fatal(err)
		}
		if changes := schemadiff.Diff(ref, kept); len(changes) != 0 {
			t.Errorf("%s: the pulled schema differs from the one served in %d ways, first %+v", c.want, len(changes), changes[0])
		}
	}
	if n := strings.Count(strings.Join(emu.Log.Operations(t), ","), "PartnertuiIntrospection"); n != 2 {
		t.Errorf("introspected %d times, want once per endpoint", n)
	}
	if tokens.Load() != 0 {
		t.Errorf("%d pulls sent a token", tokens.Load())
	}
}

// proxy is a server in front of emu: intercept answers a request itself
// when it returns true.
func proxy(t *testing.T, emu *testkit.Emulator, intercept func(http.ResponseWriter, *http.Request) bool) string {
	t.Helper()
	target, err := url.Parse(emu.Info.APIURL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !intercept(w, r) {
			rp.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestAnEndpointThatRefusesWithoutATokenIsAskedWithOne: the query is sent
// without a token first; refused, it is sent again with the
// environment's, and the result says so; without a token to send, the
// error says the endpoint wants one and why there is none.
func TestAnEndpointThatRefusesWithoutATokenIsAskedWithOne(t *testing.T) {
	t.Parallel()
	emu := testkit.StartEmulator(t, emulator.Options{Accounts: 1})
	var anonymous, authed atomic.Int32
	base := proxy(t, emu, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("Authorization") == "" {
			anonymous.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"errors":[{"message":"introspection needs a token here"}]}`)
			return true
		}
		authed.Add(1)
		r.Header.Del("Authorization") // the emulator serves its schema to anyone
		return false
	})
	store := schemacache.New(t.TempDir())
	withToken := func(context.Context) (*api.Client, error) { return client(t, base, "a-token"), nil }
	res, err := Pull(context.Background(), store, Target{Env: "sandbox", Public: client(t, base, ""), WithToken: withToken}, at)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Refused, "introspection needs a token here") || res.Snapshot.API != schemafile.Partner || anonymous.Load() != 1 || authed.Load() != 1 {
		t.Errorf("result %+v after %d requests without a token and %d with one", res, anonymous.Load(), authed.Load())
	}

	_, err = Pull(context.Background(), store, Target{Env: "sandbox", Public: client(t, base, "")}, at.Add(time.Hour))
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "gives its schema only with a token") {
		t.Errorf("no token to send: %v", err)
	}
	noSession := errors.New("no session for the Sandbox API")
	_, err = Pull(context.Background(), store, Target{Env: "sandbox", Public: client(t, base, ""),
		WithToken: func(context.Context) (*api.Client, error) { return nil, noSession }}, at.Add(time.Hour))
	if !errors.Is(err, noSession) || !strings.Contains(err.Error(), "and there is none to send: no session") {
		t.Errorf("no session: %v", err)
	}
	if kept, _ := store.Snapshots(res.Snapshot.Endpoint); len(kept) != 1 {
		t.Errorf("%d snapshots kept, want the one pull that succeeded", len(kept))
	}
}

// TestAFailureATokenWouldNotChangeIsReturned: the network, the server's
// own errors are not answered by asking again with a token.
func TestAFailureATokenWouldNotChangeIsReturned(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	base := srv.URL
	withToken := func(context.Context) (*api.Client, error) {
		t.Error("a token was asked for after a server error")
		return nil, errors.New("unused")
	}
	_, err := Pull(context.Background(), schemacache.New(t.TempDir()), Target{Env: "sandbox", Public: client(t, base, ""), WithToken: withToken}, at)
	if !errors.Is(err, api.ErrServer) || asked.Load() == 0 {
		t.Errorf("%v after %d requests, want the server's error", err, asked.Load())
	}
}
