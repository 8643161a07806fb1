package testkit

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// Buffer is what a command writes, safe for its goroutines and the
// test's, that says when it is written to: a test waits for a line instead
// of sleeping.
type Buffer struct {
	mu    sync.Mutex
	b     strings.Builder
	wrote chan struct{}
}

// NewBuffer is an empty Buffer.
func NewBuffer() *Buffer { return &Buffer{wrote: make(chan struct{}, 1)} }

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	n, err := b.b.Write(p)
	b.mu.Unlock()
	select {
	case b.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Wrote delivers a value after writes (at most one pending): a test that
// also waits for something else selects on it.
func (b *Buffer) Wrote() <-chan struct{} { return b.wrote }

// WaitFor waits until the text written so far satisfies ok, failing the
// test (naming what) after 30 s without it.
func (b *Buffer) WaitFor(t testing.TB, what string, ok func(string) bool) {
	t.Helper()
	for !ok(b.String()) {
		select {
		case <-b.wrote:
		case <-time.After(30 * time.Second):
			t.Fatalf("still waiting for %s; so far:\n%s", what, b.String())
		}
	}
}
