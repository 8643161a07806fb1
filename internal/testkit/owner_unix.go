//go:build unix

package testkit

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs reports whether fi is the current user's.
func ownedByUs(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
