//go:build unix

package paths

import "syscall"

// NoFollow is the flag that, added to os.OpenFile's, refuses a symbolic
// link as the last element of the path and does not wait on a named
// pipe's writer.
const NoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
