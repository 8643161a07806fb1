package auth

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnertui/partnertui/config"
)

const journalTestAnswer = `{"access_token":"at-2","refresh_token":"rt-2","token_type":"bearer","expires_in":3600,"scope":"openid offline"}`

// tokenServer answers every refresh with journalTestAnswer (rt-1 only,
// once) and counts the connections it was asked on.
type tokenServer struct {
	srv    *httptest.Server
	conns  atomic.Int32
	mu     sync.Mutex
	protos []string
	spent  bool
}

func newTokenServer(t *testing.T, tlsOn bool) *tokenServer {
	t.Helper()
	ts := &tokenServer{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		ts.mu.Lock()
		ts.protos = append(ts.protos, r.Proto)
		ok := r.PostForm.Get("refresh_token") == "rt-1" && r.PostForm.Get("client_secret") == fakeSecret && !ts.spent
		ts.spent = true
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		w.Write([]byte(journalTestAnswer))
	})
	ts.srv = httptest.NewUnstartedServer(h)
	ts.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			ts.conns.Add(1)
		}
	}
	if tlsOn {
		ts.srv.EnableHTTP2 = true
		ts.srv.StartTLS()
	} else {
		ts.srv.Start()
	}
	t.Cleanup(ts.srv.Close)
	return ts
}

// journalSession is a session signed in as rt-1 (written straight to the
// store) against ts, with client as its HTTP client; journals holds what
// the journal had when each refresh's answer was in it.
func journalSession(t *testing.T, ts *tokenServer, client *http.Client) (*Session, *[]string) {
	t.Helper()
	env := &config.Environment{Name: config.Sandbox, AuthURL: ts.srv.URL, APIURL: ts.srv.URL, ClientID: "SANDBOX_fake", ClientSecret: fakeSecret}
	var journals []string
	var s *Session
	s, err := NewSession(SessionOptions{Env: env, StateDir: t.TempDir(), HTTPClient: client, OnRefresh: func(ev RefreshEvent) {
		if ev.Step != RefreshAnswered {
			return
		}
		for _, p := range s.store.temps() {
			b, _ := os.ReadFile(p)
			journals = append(journals, string(b))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := s.store.write(&storedToken{Subject: "user-1", AccessToken: "at-1", RefreshToken: "rt-1", TokenType: "bearer", Expiry: old.Add(time.Hour), ObtainedAt: old}); err != nil {
		t.Fatal(err)
	}
	return s, &journals
}

// TestJournalHoldsTheAnswerAsReadFromTheConnection: over TLS (with HTTP/2
// on offer) and over plain HTTP, the refresh has a connection of its own
// in HTTP/1.1, and by the time its answer is read the journal holds that
// raw response, decrypted, and never the request (which carries the client
// secret and the spent refresh token). The journal alone is enough to
// recover the new token.
func TestJournalHoldsTheAnswerAsReadFromTheConnection(t *testing.T) {
	t.Parallel()
	for _, tlsOn := range []bool{true, false} {
		ts := newTokenServer(t, tlsOn)
		client := ts.srv.Client()
		client.Transport.(*http.Transport).ForceAttemptHTTP2 = true
		s, journals := journalSession(t, ts, client)
		tok, err := s.TokenSource().Token()
		if err != nil || tok.AccessToken != "at-2" {
			t.Fatalf("TLS %v: refresh: %v %v", tlsOn, tok, err)
		}
		if stored := readStored(t, s); stored.RefreshToken != "rt-2" || len(s.store.temps()) != 0 {
			t.Fatalf("TLS %v: stored %+v, temporary files %v", tlsOn, stored, s.store.temps())
		}
		if len(*journals) != 1 {
			t.Fatalf("TLS %v: journals at the answer: %q", tlsOn, *journals)
		}
		j := (*journals)[0]
		header, raw, _ := strings.Cut(j, "\n")
		if !strings.HasPrefix(raw, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(raw, journalTestAnswer) {
			t.Errorf("TLS %v: the journal holds %q after its first line, want the raw answer", tlsOn, raw)
		}
		if strings.Contains(j, fakeSecret) || strings.Contains(header, "rt-2") || strings.Contains(raw, "rt-1") || strings.Contains(raw, "POST ") {
			t.Errorf("TLS %v: the journal holds more than the answer: %q", tlsOn, j)
		}
		ts.mu.Lock()
		protos := ts.protos
		ts.mu.Unlock()
		if len(protos) != 1 || protos[0] != "HTTP/1.1" || ts.conns.Load() != 1 {
			t.Errorf("TLS %v: the refresh was sent as %v on %d connections, want one HTTP/1.1 request on one", tlsOn, protos, ts.conns.Load())
		}
		// What a killed process would have left: the journal recovers.
		path := s.store.tempPrefix() + "killed"
		full := s.store.dir + string(os.PathSeparator) + path
		if err := os.WriteFile(full, []byte(j), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := s.store.readTemp(full); got == nil || got.RefreshToken != "rt-2" || got.AccessToken != "at-2" || got.Subject != "user-1" {
			t.Errorf("TLS %v: recovered %+v from the journal", tlsOn, got)
		}
		os.Remove(full)
	}
}

// TestJournalFallsBackToTheBody: a client whose transport is not an
// *http.Transport (or an HTTPS token URL reached through a proxy) still
// journals the answer, as its body is read, before it is parsed.
func TestJournalFallsBackToTheBody(t *testing.T) {
	t.Parallel()
	ts := newTokenServer(t, false)
	wrapped := &http.Client{Transport: roundTripFunc(http.DefaultTransport.RoundTrip)}
	s, journals := journalSession(t, ts, wrapped)
	if _, err := s.TokenSource().Token(); err != nil {
		t.Fatal(err)
	}
	if len(*journals) != 1 {
		t.Fatalf("journals at the answer: %q", *journals)
	}
	if _, body, _ := strings.Cut((*journals)[0], "\n"); body != journalTestAnswer {
		t.Errorf("the journal holds %q after its first line, want the body", body)
	}

	proxied := http.DefaultTransport.(*http.Transport).Clone()
	proxied.Proxy = func(*http.Request) (*url.URL, error) { return url.Parse("http://proxy.example:3128") }
	j := &journal{}
	if _, ok := j.tapTransport(proxied, "https://oauth.example.com/oauth2/token"); ok {
		t.Error("an HTTPS token URL through a proxy was tapped below TLS")
	}
	if _, ok := j.tapTransport(proxied, "http://oauth.example.com/oauth2/token"); !ok {
		t.Error("a plain HTTP token URL through a proxy was not tapped")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestAnswerBodyOfARawResponse: recovery takes a raw response's body only
// when the response is a complete 200.
func TestAnswerBodyOfARawResponse(t *testing.T) {
	t.Parallel()
	body := journalTestAnswer
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(body))
	zw.Close()
	chunked := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + "10\r\n" + body[:16] + "\r\n" + strconv.FormatInt(int64(len(body)-16), 16) + "\r\n" + body[16:] + "\r\n0\r\n\r\n"
	cases := []struct {
		name, raw string
		ok        bool
	}{
		{"a body as journaled", body, true},
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body, true},
		{"chunked", chunked, true},
		{"gzip", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + strconv.Itoa(gz.Len()) + "\r\n\r\n" + gz.String(), true},
		{"after a 100 Continue", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body, true},
		{"cut in the body", "HTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body[:30], false},
		{"cut in the chunks", chunked[:len(chunked)-12], false},
		{"cut in the headers", "HTTP/1.1 200 OK\r\nContent-Le", false},
		{"an error answer", "HTTP/1.1 400 Bad Request\r\nContent-Length: 25\r\n\r\n{\"error\":\"invalid_grant\"}", false},
	}
	for _, tc := range cases {
		got, ok := answerBody([]byte(tc.raw))
		if ok != tc.ok || (ok && string(got) != body) {
			t.Errorf("%s: %q, %v", tc.name, got, ok)
		}
	}
	// A cut JSON object, whatever the framing said, is no token.
	var a tokenAnswer
	if json.Unmarshal([]byte(body[:len(body)-1]), &a) == nil {
		t.Error("a cut answer parses")
	}
}
