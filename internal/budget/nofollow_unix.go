//go:build unix

package budget

import "syscall"

// noFollow refuses a symbolic link planted where the budget's files are
// (it would have the budget overwrite the link's target) and does not wait
// on a named pipe. internal/paths has the same flag; a leaf imports no
// other package of the module.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
