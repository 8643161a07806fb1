//go:build unix

package config

import "syscall"

// nonBlock opens without waiting for a FIFO's writer.
const nonBlock = syscall.O_NONBLOCK
