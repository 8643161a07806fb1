package testkit

import (
	"bufio"
	"io"
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

// FollowLines reads r a line at a time into b, handing each line to see,
// until see returns true: a process's output up to the line that says it
// is ready. The rest of r is then copied into b in the background; the
// channel returned is closed once r has ended. If r ends before see is
// satisfied, the test fails with what was read and the reason ended gives
// (it may stop the process first).
func (b *Buffer) FollowLines(t testing.TB, r io.Reader, see func(line string) bool, ended func() string) <-chan struct{} {
	t.Helper()
	lines := bufio.NewReader(r)
	for {
		line, err := lines.ReadString('\n')
		_, _ = b.Write([]byte(line))
		if err != nil {
			t.Fatalf("the output ended before it was ready: %q (%s)", b.String(), ended())
		}
		if see(line) {
			break
		}
	}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(b, lines)
		close(copied)
	}()
	return copied
}
