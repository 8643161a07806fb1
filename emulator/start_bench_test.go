package emulator_test

import (
	"testing"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
)

// BenchmarkStart100k is the start-up of `partnertui emulator --accounts
// 100000`: both data sets, the authorization server and the listener.
func BenchmarkStart100k(b *testing.B) {
	for b.Loop() {
		srv, err := emulator.Start(b.Context(), emulator.Options{Accounts: 100_000, SigningKey: emulatortest.SigningKey()})
		if err != nil {
			b.Fatal(err)
		}
		if err := srv.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
