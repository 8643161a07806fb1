// Package clock is the tests' one fake clock: time moves only when a test
// advances it or when code sleeps on it, so waits take no real time and
// freshness decisions are deterministic. It imports nothing of the module,
// so any package's tests can use it; only tests import it.
package clock

import (
	"context"
	"sync"
	"time"
)

// Fake is a settable clock, safe for concurrent use. Its Now and Sleep fit
// the Now and Sleep options of the packages that take a clock.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	sleeps  []time.Duration
	onSleep func(d time.Duration)
}

// New is a clock standing at start.
func New(start time.Time) *Fake { return &Fake{now: start} }

// Now is the clock's time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Sleep advances the clock by d instead of waiting, and remembers d. It
// fails only when ctx is already done, as a real sleep would at once.
func (c *Fake) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	hook := c.onSleep
	c.mu.Unlock()
	if hook != nil {
		hook(d)
	}
	if d > 0 {
		c.Advance(d)
	}
	return nil
}

// OnSleep makes every later Sleep call fn first, before time moves: what
// the sleeper's caller shows while it waits.
func (c *Fake) OnSleep(fn func(d time.Duration)) {
	c.mu.Lock()
	c.onSleep = fn
	c.mu.Unlock()
}

// Sleeps is every duration Sleep was asked for, in order.
func (c *Fake) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}
