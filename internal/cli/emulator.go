package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/emulator"
)

// EmulatorOptions are `partnertui emulator`'s.
type EmulatorOptions struct {
	IO         IO
	Emulator   emulator.Options
	RateLimit  string // "2000/5m"
	RequestLog string // file
	Epoch      string // --epoch: a date or an RFC 3339 time; "" is the start of today (UTC)
	JSON       bool
	Schemas    []string // --schema files, one per API
	Fixtures   string   // --fixtures file
	Coverage   bool     // print the coverage and exit
}

// NewCmdEmulator runs the local platform emulator.
func NewCmdEmulator(f *Factory) *cobra.Command {
	opts := &EmulatorOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "emulator",
		Short: "Run a local emulation of the platform (OAuth server + GraphQL) until interrupted",
		Long: "Serves /oauth2/*, /sandbox-partner/graphql, /sandbox-partner-admin/graphql and\n" +
			"/live-partner/graphql on one loopback listener, with demo clients and users.",
		Example: "  partnertui emulator\n  partnertui emulator --listen 127.0.0.1:8080 --accounts 5000 --seed 7 --json\n  partnertui emulator --token-ttl 2s   # watch refresh-token rotation\n  partnertui emulator --latency 100ms  # answer as from 100 ms away\n" +
			"  partnertui emulator --schema partner.graphql --schema admin.graphql --fixtures fixtures.toml   # every operation, not only the modelled ones\n" +
			"  partnertui emulator --schema partner.graphql --schema admin.graphql --coverage                 # what is modelled, generated, missing\n" +
			"  partnertui emulator --schema auto                                                              # the schemas pulled (partnertui schema pull)\n" +
			"  partnertui emulator --epoch 2026-01-15   # the data as of that day, whatever the day it runs (CI)",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.Emulator.RateLimit, opts.Emulator.RateWindow, err = emulator.ParseRateLimit(opts.RateLimit); err != nil {
				return &UsageError{Err: err}
			}
			if opts.Emulator.Epoch, err = parseEpoch(opts.Epoch, f.now()); err != nil {
				return err
			}
			if err := resolveSchemas(f, opts); err != nil {
				return err
			}
			if opts.Fixtures != "" {
				opts.Emulator.Fixtures = &emulator.Source{Path: opts.Fixtures}
			}
			if opts.Coverage {
				return printEmulatorCoverage(opts)
			}
			return runEmulator(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Emulator.Listen, "listen", emulator.DefaultListen, "`address` to listen on (port 0 picks a free one)")
	fl.IntVar(&opts.Emulator.Accounts, "accounts", emulator.DefaultAccounts, "`N` accounts to generate (up to 100000)")
	fl.Int64Var(&opts.Emulator.Seed, "seed", emulator.DefaultSeed, "`seed` of the generated data and of the answers generated for --schema")
	fl.StringVar(&opts.RateLimit, "rate-limit", "2000/5m", "`requests/window` per client IP per endpoint")
	fl.DurationVar(&opts.Emulator.TokenTTL, "token-ttl", time.Hour, "access-token `lifetime`")
	fl.DurationVar(&opts.Emulator.CodeTTL, "code-ttl", 10*time.Minute, "authorization-code `lifetime`")
	fl.StringVar(&opts.RequestLog, "request-log", "", "append one JSON line per request to `file` (no tokens)")
	fl.DurationVar(&opts.Emulator.WebhookRetryInterval, "webhook-retry", 30*time.Second, "time between two webhook delivery attempts (`duration`)")
	fl.IntVar(&opts.Emulator.WebhookMaxRetries, "webhook-max-retries", 7, "webhook delivery retries after the first attempt (`N`)")
	fl.DurationVar(&opts.Emulator.WebhookAnswerWindow, "webhook-timeout", 10*time.Second, "time an endpoint has to answer a delivery with 2xx (`duration`)")
	fl.DurationVar(&opts.Emulator.BookingDelay, "booking-delay", 0, "how long a simulated incoming transfer stays Pending before it is booked (`duration`)")
	fl.StringVar(&opts.Emulator.TokenAuthMethod, "token-auth-method", "client_secret_post", "how the demo clients authenticate at the token endpoint: client_secret_post or client_secret_basic (`method`)")
	fl.BoolVar(&opts.Emulator.OmitRetryAfter, "omit-retry-after", false, "answer 429 without a Retry-After header")
	fl.DurationVar(&opts.Emulator.Latency, "latency", 0, "answer as if the platform were `D` of round trip away: every answer waits D, a new connection's first one 2×D")
	fl.StringVar(&opts.Epoch, "epoch", "", "generate the data up to this `date` (YYYY-MM-DD, UTC) or RFC 3339 time, the same on any day (default: the start of today, UTC)")
	fl.BoolVar(&opts.JSON, "json", false, "print the URLs and credentials as one JSON line")
	fl.StringArrayVar(&opts.Schemas, "schema", nil, "serve the whole schema in `file` (SDL or introspection JSON), generating what is not modelled; once for the partner API, once for the Testing API; auto: the newest of each pulled (partnertui schema pull)")
	fl.StringVar(&opts.Fixtures, "fixtures", "", "set objects of the --schema schemas by type and id from `file` (TOML or JSON)")
	fl.BoolVar(&opts.Coverage, "coverage", false, "print, per domain, the operations modelled, generated and missing, and exit")
	return cmd
}

// parseEpoch reads --epoch: a date (YYYY-MM-DD) is its first instant,
// UTC; an RFC 3339 time is that instant; none is the start of now's UTC
// day, so every start on one day serves the same data. One after now, or
// before 2000, is the emulator's to refuse, with its reason.
func parseEpoch(v string, now time.Time) (time.Time, error) {
	if v == "" {
		return emulator.StartOfDay(now), nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, usageErrorf("--epoch %q is neither a date (YYYY-MM-DD, such as 2026-01-15, UTC) nor an RFC 3339 time (such as 2026-01-15T09:00:00Z)", v)
}

// resolveSchemas turns --schema into the emulator's sources: auto is the
// newest snapshot of each API pulled.
func resolveSchemas(f *Factory, opts *EmulatorOptions) error {
	for _, p := range opts.Schemas {
		if p != "auto" {
			opts.Emulator.Schemas = append(opts.Emulator.Schemas, emulator.Source{Path: p})
			continue
		}
		pulled, err := f.pulledSchemas()
		if err != nil {
			return err
		}
		if len(pulled) == 0 {
			return usageErrorf("--schema auto serves the schemas pulled, and none is kept yet: run `partnertui schema pull` and " +
				"`partnertui schema pull --testing` first, or name the files")
		}
		opts.Emulator.Schemas = append(opts.Emulator.Schemas, pulled...)
	}
	return nil
}

// printEmulatorCoverage prints the coverage of the schemas in use.
func printEmulatorCoverage(opts *EmulatorOptions) error {
	rep, err := emulator.Coverage(opts.Emulator)
	if errors.Is(err, emulator.ErrInvalidOptions) {
		return &UsageError{Err: err, Explained: true}
	}
	if err != nil {
		return err
	}
	return emulator.PrintCoverage(opts.IO.Out, rep, opts.JSON)
}

func runEmulator(ctx context.Context, opts *EmulatorOptions) error {
	if opts.RequestLog != "" {
		f, err := os.OpenFile(opts.RequestLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("could not open the request log: %w", err)
		}
		defer f.Close()
		opts.Emulator.RequestLog = f
	}
	srv, err := emulator.Start(ctx, opts.Emulator)
	if errors.Is(err, emulator.ErrBadInput) {
		return &UsageError{Err: err, Explained: true}
	}
	if errors.Is(err, emulator.ErrInvalidOptions) {
		return &UsageError{Err: err}
	}
	if err != nil {
		return err
	}
	if err := emulator.PrintInfo(opts.IO.Out, srv.Info(), opts.JSON); err != nil {
		srv.Close()
		return err
	}
	return srv.Run(ctx)
}
