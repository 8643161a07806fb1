package listen

import (
	"testing"

	"github.com/partnertui/partnertui/internal/testkit"
)

// TestMain runs up to 8 tests at once (testkit.RunWaiting): they mostly
// wait on an emulator's deliveries and bookings and on local receivers.
func TestMain(m *testing.M) { testkit.RunWaiting(m) }
