package app

import (
	"context"
	"testing"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testenv"
)

// The user and project clients of an environment share one connection
// pool; Sandbox and Live never do, so no connection (and no token) of one
// environment serves the other.
func TestEnvironmentClientsShareOnePoolPerEnvironment(t *testing.T) {
	testenv.Isolate(t)
	a, err := New(context.Background(), Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	sb, err := a.Env(config.Sandbox)
	if err != nil {
		t.Fatal(err)
	}
	live, err := a.Env(config.Live)
	if err != nil {
		t.Fatal(err)
	}
	if sb.API == sb.ProjectAPI {
		t.Fatal("a user-token environment's project client is its user client")
	}
	for _, e := range []*Env{sb, live} {
		if !e.API.SharesConnectionsWith(e.ProjectAPI) {
			t.Errorf("%s: the user and project clients have separate connection pools", e.Name)
		}
	}
	for _, pair := range [][2]*Env{{sb, live}, {live, sb}} {
		if pair[0].API.SharesConnectionsWith(pair[1].API) || pair[0].ProjectAPI.SharesConnectionsWith(pair[1].ProjectAPI) ||
			pair[0].API.SharesConnectionsWith(pair[1].ProjectAPI) {
			t.Errorf("%s shares a connection pool with %s", pair[0].Name, pair[1].Name)
		}
	}
}
