package testkit

import (
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// WholeSchema is opts serving the platform's public schemas (the shared
// reference files): the emulator then answers every operation of them,
// what its model lacks generated (README, "The whole schema"). The test
// skips without the reference files, and fails in CI.
func WholeSchema(t testing.TB, opts emulator.Options) emulator.Options {
	t.Helper()
	opts.Schemas = append(opts.Schemas,
		emulator.Source{Path: reference.PartnerSchema, Data: reference.Read(t, reference.PartnerSchema)},
		emulator.Source{Path: reference.TestingSchema, Data: reference.Read(t, reference.TestingSchema)})
	return opts
}
