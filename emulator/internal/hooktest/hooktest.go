// Package hooktest is the webhook endpoint the emulator's tests deliver to:
// it records each POST and answers with a status the test sets. Tests only.
package hooktest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// Request is one POST a Receiver got.
type Request struct {
	Header http.Header
	Body   []byte
}

// Payload decodes the body as the flat JSON object every webhook sends.
func (r Request) Payload(t testing.TB) map[string]string {
	t.Helper()
	var p map[string]string
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatalf("payload %s: %v", r.Body, err)
	}
	return p
}

// Receiver answers every POST with Status and the body {"ok":true}.
type Receiver struct {
	URL    string
	Status atomic.Int32
	Count  atomic.Int32 // POSTs received
	reqs   chan Request
}

// New starts a receiver answering status, stopped when t ends.
func New(t testing.TB, status int) *Receiver {
	t.Helper()
	rc := &Receiver{reqs: make(chan Request, 256)}
	rc.Status.Store(int32(status))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.Count.Add(1)
		select {
		case rc.reqs <- Request{Header: r.Header.Clone(), Body: body}:
		default:
		}
		w.WriteHeader(int(rc.Status.Load()))
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	rc.URL = srv.URL + "/webhooks"
	return rc
}

// Next waits for the receiver's next request; the timer only turns a
// missing delivery into a failure instead of a hung test.
func (rc *Receiver) Next(t testing.TB) Request {
	t.Helper()
	select {
	case r := <-rc.reqs:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery reached the receiver")
		return Request{}
	}
}
