package ui

import (
	"testing"

	"github.com/partnertui/partnertui/internal/testkit"
)

// TestMain runs up to 8 tests at once: the flows against the emulator
// wait on it in real time (a transfer's booking, the screen following it),
// most of the time with the cores idle.
func TestMain(m *testing.M) { testkit.RunWaiting(m) }
