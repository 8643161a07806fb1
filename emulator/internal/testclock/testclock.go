// Package testclock is the emulator tests' one fake clock: time stands
// still until the test advances it, so rate-limit windows, code expiry and
// log stamps are deterministic. The emulator shares no code with the
// client, so the client's tests have their own.
package testclock

import (
	"sync"
	"time"
)

// Clock is a manual clock, safe for concurrent use; its zero value reads
// the zero time.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a clock reading start.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's time; pass the method value where a func() time.Time
// is wanted.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
