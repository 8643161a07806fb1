//go:build !unix

package config

// nonBlock is 0 where opening a file cannot block on a missing writer.
const nonBlock = 0
