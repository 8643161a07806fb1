//go:build !unix

package paths

// NoFollow is 0 where the system has no O_NOFOLLOW: OpenFile checks the
// path with Lstat instead.
const NoFollow = 0
