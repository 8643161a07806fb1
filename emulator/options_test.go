package emulator_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
)

// Options the emulator cannot run with are the caller's mistake, and say so
// with ErrInvalidOptions, so `partnertui emulator` can report a usage error.
func TestStartRefusesInvalidOptions(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string]emulator.Options{
		"too many accounts":    {Accounts: 100001},
		"negative accounts":    {Accounts: -1},
		"negative rate limit":  {RateLimit: -5},
		"sub-second token TTL": {TokenTTL: 500 * time.Millisecond},
		"sub-second code TTL":  {CodeTTL: 10 * time.Millisecond},
		"negative latency":     {Latency: -time.Millisecond},
	} {
		srv, err := emulator.Start(context.Background(), opts)
		if err == nil {
			srv.Close()
			t.Errorf("%s: Start accepted %+v", name, opts)
			continue
		}
		if !errors.Is(err, emulator.ErrInvalidOptions) {
			t.Errorf("%s: error %q does not match ErrInvalidOptions", name, err)
		}
	}
}
