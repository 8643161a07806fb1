// Command testproc is a second process for the auth concurrency and crash
// tests: it builds a Session on a shared state directory, waits for a line
// on stdin (so several copies start together), calls TokenSource().Token()
// and prints "ok <sha256 of the access token>" or "error <message>". The
// token itself is never printed.
//
// With -ahead its clock runs that far ahead, so the stored token looks
// expired and the call refreshes. With -via every connection goes to that
// address (a proxy in front of the authorization server) whatever the URL
// says. With -mark it prints "response-read" the moment a token-endpoint
// answer has been read to its end, before auth does anything with it: the
// crash test tells a kill before the answer was read from one after.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
)

func main() {
	stateDir := flag.String("state", "", "state directory")
	env := flag.String("env", "sandbox", "environment")
	authURL := flag.String("auth", "", "auth_url")
	apiURL := flag.String("api", "", "api_url")
	clientID := flag.String("client", "", "client id")
	ahead := flag.Duration("ahead", 0, "run the clock this far ahead")
	via := flag.String("via", "", "connect to this address instead of the URL's host")
	mark := flag.Bool("mark", false, "print response-read when a token answer has been read")
	flag.Parse()
	name, err := config.ParseEnv(*env)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	e := &config.Environment{
		Name: name, APIURL: *apiURL, AuthURL: *authURL, ClientID: *clientID,
		ClientSecretEnv: "PT_TESTPROC_SECRET",
	}
	opts := auth.SessionOptions{Env: e, StateDir: *stateDir}
	if *ahead != 0 {
		opts.Now = func() time.Time { return time.Now().Add(*ahead) }
	}
	if *via != "" || *mark {
		opts.HTTPClient = &http.Client{Transport: &transport{via: *via, mark: *mark}, Timeout: time.Minute}
	}
	s, err := auth.NewSession(opts)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	tok, err := s.TokenSource().Token()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	sum := sha256.Sum256([]byte(tok.AccessToken))
	fmt.Println("ok", hex.EncodeToString(sum[:8]))
}

// transport redirects connections (-via) and marks token answers read to
// their end (-mark).
type transport struct {
	via  string
	mark bool
	once sync.Once
	base *http.Transport
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.once.Do(func() {
		t.base = http.DefaultTransport.(*http.Transport).Clone()
		if t.via != "" {
			d := &net.Dialer{Timeout: 10 * time.Second}
			t.base.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
				return d.DialContext(ctx, network, t.via)
			}
		}
	})
	resp, err := t.base.RoundTrip(req)
	if err == nil && t.mark && strings.HasSuffix(req.URL.Path, "/oauth2/token") {
		resp.Body = &markEOF{ReadCloser: resp.Body}
	}
	return resp, err
}

// markEOF prints "response-read" (one write to the stdout pipe, which
// outlives a SIGKILL) when the body has been read to its end. Its last
// bytes and the end come in separate calls, so every byte has been handed
// to the reader (and whatever it does with them done) before the mark.
type markEOF struct {
	io.ReadCloser
	atEOF, marked bool
}

func (m *markEOF) Read(p []byte) (int, error) {
	if m.atEOF {
		if !m.marked {
			m.marked = true
			os.Stdout.WriteString("response-read\n")
		}
		return 0, io.EOF
	}
	n, err := m.ReadCloser.Read(p)
	if err == io.EOF {
		m.atEOF = true
		if n > 0 {
			return n, nil
		}
		return m.Read(p)
	}
	return n, err
}
