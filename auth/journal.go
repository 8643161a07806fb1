package auth

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// journal keeps a refresh's answer on disk from the moment it is read. It
// is a temporary file that holds, before the request, the token the
// answer will be merged into (one JSON line), and then the answer's bytes,
// appended as they are read. A process killed at any point after reading
// the answer thus leaves all of it on disk (in the page cache, which a
// kill does not lose), and recoverTemps rebuilds the new token from it. It
// is removed once the new token is saved.
//
// Where it can, the journal records the answer where it first reaches the
// process: the refresh gets a connection of its own, and every read from
// that connection is written to the journal by the goroutine that read it,
// before net/http parses a byte (the journal then holds the raw HTTP/1.1
// response, whose status and framing recovery checks). Only a client whose
// transport it cannot extend (not an *http.Transport, or an HTTPS URL
// reached through a proxy) falls back to journaling the body as x/oauth2
// reads it, a few goroutine hand-offs later.
type journal struct {
	f *os.File

	mu      sync.Mutex
	failed  bool      // a write failed: the journal is incomplete, stop writing
	written time.Time // when answer bytes last reached the file
}

// openJournal starts a journal whose first line is base.
func (s *store) openJournal(base *storedToken) (*journal, error) {
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	s.stamp(base)
	line, err := json.Marshal(base)
	if err != nil {
		return nil, fmt.Errorf("cannot encode the session: %w", err)
	}
	f, err := s.createTemp()
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("cannot write the temporary file %s: %w", f.Name(), err)
	}
	return &journal{f: f}, nil
}

// Write appends answer bytes; after a failure it drops the rest, since a
// journal with a hole must not be recovered (it will not parse).
func (j *journal) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.failed {
		if _, err := j.f.Write(p); err != nil {
			j.failed = true
		}
		j.written = time.Now()
	}
	return len(p), nil
}

// writtenAt is when the answer's bytes last reached the file.
func (j *journal) writtenAt() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.written
}

// remove ends the journal: its token is saved, or there was none.
func (j *journal) remove() {
	j.f.Close()
	os.Remove(j.f.Name())
}

// client is base made to journal the answer of a request to tokenURL, as
// early as base allows; answered is called once the answer's body has been
// read to its end, and so is all in the journal.
func (j *journal) client(base *http.Client, tokenURL string, answered func()) *http.Client {
	c := *base
	rt := c.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	if t, ok := j.tapTransport(rt, tokenURL); ok {
		c.Transport = watchTransport{base: t, answered: answered}
		return &c
	}
	c.Transport = watchTransport{base: rt, tee: j, answered: answered}
	return &c
}

// tapTransport is rt on a connection of its own whose reads are all
// journaled; ok is false when rt cannot be extended so.
func (j *journal) tapTransport(rt http.RoundTripper, tokenURL string) (http.RoundTripper, bool) {
	base, ok := rt.(*http.Transport)
	u, err := url.Parse(tokenURL)
	// A dialer of the caller's own for TLS would be replaced: leave it be.
	// (The deprecated Dial and DialTLS are set by nobody here.)
	if !ok || err != nil || base.DialTLSContext != nil {
		return nil, false
	}
	if u.Scheme == "https" && base.Proxy != nil {
		// Through a proxy, net/http does the TLS itself over the tunnel:
		// the connection a dialer sees carries only ciphertext.
		if p, err := base.Proxy(&http.Request{URL: u, Header: http.Header{}}); err != nil || p != nil {
			return nil, false
		}
	}
	t := base.Clone()
	// One request on one connection, in HTTP/1.1, uncompressed: the bytes
	// read are that one answer as the server sent it.
	t.DisableKeepAlives = true
	t.DisableCompression = true
	t.ForceAttemptHTTP2 = false
	t.TLSNextProto = nil
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	t.Protocols = &protocols
	dial := base.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &tapConn{Conn: c, j: j}, nil
	}
	t.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		raw, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		cfg := &tls.Config{}
		if base.TLSClientConfig != nil {
			cfg = base.TLSClientConfig.Clone()
		}
		if cfg.ServerName == "" {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = addr
			}
			cfg.ServerName = host
		}
		cfg.NextProtos = []string{"http/1.1"}
		hctx := ctx
		if base.TLSHandshakeTimeout > 0 {
			var cancel context.CancelFunc
			hctx, cancel = context.WithTimeout(ctx, base.TLSHandshakeTimeout)
			defer cancel()
		}
		tc := tls.Client(raw, cfg)
		if err := tc.HandshakeContext(hctx); err != nil {
			raw.Close()
			return nil, err
		}
		return &tapConn{Conn: tc, j: j}, nil
	}
	return t, true
}

// tapConn journals every byte read from the connection (never one written:
// the request carries the client secret) before handing it on.
type tapConn struct {
	net.Conn
	j *journal
}

func (c *tapConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.j.Write(p[:n])
	}
	return n, err
}

// watchTransport calls answered once a successful answer's body has been
// read to its end; with tee set it also journals the body as it is read
// (the fallback of journal.client).
type watchTransport struct {
	base     http.RoundTripper
	tee      io.Writer
	answered func()
}

func (t watchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusOK {
		resp.Body = &watchBody{ReadCloser: resp.Body, tee: t.tee, answered: t.answered}
	}
	return resp, err
}

type watchBody struct {
	io.ReadCloser
	tee      io.Writer
	answered func()
	done     bool
}

func (b *watchBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && b.tee != nil {
		b.tee.Write(p[:n])
	}
	if err == io.EOF && !b.done {
		b.done = true
		if b.answered != nil {
			b.answered()
		}
	}
	return n, err
}

// maxAnswer bounds the answer a journal may hold, as x/oauth2 bounds what
// it reads.
const maxAnswer = 1 << 20

// answerBody is the token answer a journal holds after its first line:
// the body as journaled, or the body of a raw HTTP/1.1 response, which
// must be a complete 200 (a 1xx before it is skipped). ok is false for
// anything else.
func answerBody(journaled []byte) ([]byte, bool) {
	if !bytes.HasPrefix(journaled, []byte("HTTP/")) {
		return journaled, true
	}
	br := bufio.NewReader(bytes.NewReader(journaled))
	for {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return nil, false
		}
		if resp.StatusCode >= 100 && resp.StatusCode < 200 {
			continue
		}
		if resp.StatusCode != http.StatusOK {
			return nil, false
		}
		var r io.Reader = resp.Body
		if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
			zr, err := gzip.NewReader(r)
			if err != nil {
				return nil, false
			}
			r = zr
		}
		// A body cut short is an error here (Content-Length, chunked);
		// one delimited by the connection's end cannot tell, but a cut
		// JSON object does not parse.
		body, err := io.ReadAll(io.LimitReader(r, maxAnswer))
		if err != nil {
			return nil, false
		}
		return body, true
	}
}
