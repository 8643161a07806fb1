//go:build !unix

package budget

// noFollow is 0 where the system has no O_NOFOLLOW: file checks the path
// with Lstat instead.
const noFollow = 0
