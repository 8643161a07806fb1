package clock

import (
	"testing"
	"time"
)

func TestClockStandsStillUntilAdvanced(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)
	c := New(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now = %s, want %s", got, start)
	}
	c.Advance(90 * time.Second)
	if got := c.Now(); !got.Equal(start.Add(90 * time.Second)) {
		t.Fatalf("after Advance, Now = %s", got)
	}
	var zero Fake
	if !zero.Now().IsZero() {
		t.Fatal("the zero Fake does not read the zero time")
	}
}
