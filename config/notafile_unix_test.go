//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A device or a FIFO is refused before a byte is read: an endless device
// would be read up to the size limit for nothing, and opening a FIFO with
// no writer would block (and a blocked open ignores Ctrl+C).
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	cases := []struct{ path, kind string }{
		{t.TempDir(), "a directory"},
		{fifo, "a named pipe (FIFO)"},
	}
	for _, dev := range []string{"/dev/null", "/dev/zero"} {
		if _, err := os.Stat(dev); err == nil {
			cases = append(cases, struct{ path, kind string }{dev, "a device"})
		}
	}
	for _, tc := range cases {
		done := make(chan error, 1)
		go func() {
			_, _, err := Load(tc.path)
			done <- err
		}()
		select {
		case err := <-done:
			var nf *NotAFileError
			if !errors.As(err, &nf) || nf.Kind != tc.kind || nf.Path != tc.path {
				t.Errorf("Load(%s) = %v, want %s", tc.path, err, tc.kind)
				continue
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, tc.path) || !strings.Contains(msg, "--config") {
				t.Errorf("message %q: one line naming the path and the fix", msg)
			}
		case <-time.After(10 * time.Second):
			// Only a blocked open gets here; the FIFO is then released
			// so the goroutine ends with the test.
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatalf("Load(%s) blocked", tc.path)
		}
	}
}
