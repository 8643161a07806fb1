package auth

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/testkit/clock"
)

// killedRefresh runs a refresh up to the moment the answer has been read
// into the journal, then stops as a killed process would: no save, no
// cleanup. It returns the journal's path.
func killedRefresh(t *testing.T, s *Session) string {
	t.Helper()
	prev := readStored(t, s)
	base := *prev
	base.ObtainedAt = s.now()
	j, err := s.store.openJournal(&base)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := s.tokenCallContext()
	defer cancel()
	cfg, err := s.oauthConfig(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, j.client(s.httpClient, cfg.Endpoint.TokenURL, nil))
	if _, err := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: prev.RefreshToken, Expiry: time.Unix(1, 0)}).Token(); err != nil {
		t.Fatal(err)
	}
	j.f.Close()
	return j.f.Name()
}

// A process killed once it had read the refresh answer: the next run
// finds the new token in the journal, checks it and carries on with it,
// never replaying the refresh token the server spent.
func TestRecoverKilledRefresh(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	spent := readStored(t, s).RefreshToken
	clk.Advance(2 * time.Hour)
	journal := killedRefresh(t, s)
	if stored := readStored(t, s); stored.RefreshToken != spent {
		t.Fatal("the store changed without a save")
	}
	next := newTestSession(t, f.env(config.Sandbox), filepath.Dir(s.StorePath()), clk)
	tok, err := next.TokenSource().Token()
	if err != nil {
		t.Fatalf("next run: %v", err)
	}
	stored := readStored(t, next)
	if stored.RefreshToken == spent || !f.refresh[stored.RefreshToken] || stored.AccessToken != tok.AccessToken || stored.Subject != "user-1" {
		t.Fatalf("recovered %+v", stored)
	}
	// The recovered token was fresh (obtained when the killed process
	// asked for it): no second refresh, and the journal is gone.
	if f.refreshCalls != 1 {
		t.Fatalf("refresh requests = %d, want 1", f.refreshCalls)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Fatal("journal left behind")
	}
	// It also refreshes when due, with the recovered refresh token.
	clk.Advance(2 * time.Hour)
	if _, err := next.TokenSource().Token(); err != nil || f.refreshCalls != 2 {
		t.Fatalf("refresh after recovery: %v (%d requests)", err, f.refreshCalls)
	}
}

// Only a complete, checked, newer token wins; every other leftover is
// deleted and the stored session used as it is.
func TestRecoverRefusesWhatIsNotNewer(t *testing.T) {
	t.Parallel()
	_, _, s := signedInFake(t)
	cur := readStored(t, s)
	later := cur.ObtainedAt.Add(time.Minute)
	record := func(edit func(*storedToken)) []byte {
		tok := *cur
		tok.AccessToken, tok.RefreshToken, tok.ObtainedAt = "at-new", "rt-new", later
		edit(&tok)
		b, _ := json.Marshal(tok)
		return b
	}
	header := func(edit func(*storedToken)) string {
		tok := *cur
		tok.ObtainedAt = later
		edit(&tok)
		b, _ := json.Marshal(tok)
		return string(b) + "\n"
	}
	keep := func(*storedToken) {}
	answer := `{"access_token":"at-new","refresh_token":"rt-new","token_type":"bearer","expires_in":3600}`
	cases := map[string]struct {
		data string
		mode os.FileMode
	}{
		"empty journal":            {"", 0o600},
		"journal without answer":   {header(keep), 0o600},
		"journal with half answer": {header(keep) + answer[:40], 0o600},
		"journal with an error":    {header(keep) + `{"error":"invalid_grant"}`, 0o600},
		"older journal":            {header(func(t *storedToken) { t.ObtainedAt = cur.ObtainedAt.Add(-time.Minute) }) + answer, 0o600},
		"other client":             {header(func(t *storedToken) { t.ClientID = "SANDBOX_other" }) + answer, 0o600},
		"other environment":        {string(record(func(t *storedToken) { t.Env = "live" })), 0o600},
		"other user":               {string(record(func(t *storedToken) { t.Subject = "user-2" })), 0o600},
		"same refresh token":       {string(record(func(t *storedToken) { t.RefreshToken = cur.RefreshToken })), 0o600},
		"other issuer":             {string(record(func(t *storedToken) { t.Issuer = "https://evil.example" })), 0o600},
		"readable by others":       {string(record(keep)), 0o644},
		"truncated record":         {string(record(keep))[:60], 0o600},
	}
	for name, tc := range cases {
		path := filepath.Join(filepath.Dir(s.StorePath()), s.store.tempPrefix()+name)
		if err := os.WriteFile(path, []byte(tc.data), tc.mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, tc.mode)
		if got := s.store.readTemp(path); got != nil && supersedes(got, cur) {
			t.Errorf("%s: accepted as newer", name)
		}
	}
	unlock, err := s.lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	err = s.store.recoverTemps()
	unlock()
	if err != nil {
		t.Fatal(err)
	}
	if stored := readStored(t, s); stored.AccessToken != cur.AccessToken || stored.RefreshToken != cur.RefreshToken {
		t.Fatalf("a leftover replaced the session: %+v", stored)
	}
	if left := s.store.temps(); len(left) != 0 {
		t.Fatalf("leftovers not deleted: %v", left)
	}
}

// Of several newer leftovers the newest wins, whether a journal or a
// complete file that missed its rename.
func TestRecoverPicksNewest(t *testing.T) {
	t.Parallel()
	_, _, s := signedInFake(t)
	cur := readStored(t, s)
	dir := filepath.Dir(s.StorePath())
	rec := *cur
	rec.AccessToken, rec.RefreshToken, rec.ObtainedAt = "at-file", "rt-file", cur.ObtainedAt.Add(time.Minute)
	b, _ := json.Marshal(rec)
	os.WriteFile(filepath.Join(dir, s.store.tempPrefix()+"a"), b, 0o600)
	head := *cur
	head.ObtainedAt = cur.ObtainedAt.Add(2 * time.Minute)
	h, _ := json.Marshal(head)
	os.WriteFile(filepath.Join(dir, s.store.tempPrefix()+"b"), append(append(h, '\n'), []byte(`{"access_token":"at-journal","refresh_token":"rt-journal","expires_in":60}`)...), 0o600)
	unlock, err := s.lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	err = s.store.recoverTemps()
	unlock()
	stored := readStored(t, s)
	if err != nil || stored.RefreshToken != "rt-journal" || !stored.Expiry.Equal(head.ObtainedAt.Add(time.Minute)) || stored.IDToken != cur.IDToken {
		t.Fatalf("recovered %+v, %v", stored, err)
	}
}

// A stored token that still looks fresh is not handed out while a journal
// says a newer one exists: the server revoked the old access token when it
// rotated.
func TestRecoverBeforeUsingFreshLookingToken(t *testing.T) {
	t.Parallel()
	f, clk, s := signedInFake(t)
	old := readStored(t, s).AccessToken
	start := clk.Now()
	clk.Advance(10 * time.Minute)
	killedRefresh(t, s)
	next := newTestSession(t, f.env(config.Sandbox), filepath.Dir(s.StorePath()), clock.New(start))
	tok, err := next.TokenSource().Token()
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken == old || f.refreshCalls != 1 {
		t.Fatalf("got the old token: %v (%d refreshes)", tok.AccessToken == old, f.refreshCalls)
	}
}
