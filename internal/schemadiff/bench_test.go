package schemadiff

import (
	"testing"

	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// BenchmarkDiffReferenceSchemas is `schema diff` of two reference schemas:
// both read and loaded, then compared. The partner API's against its
// copy with one change is the common case; against the Testing API's,
// nearly every type differs (the most work a diff can have).
func BenchmarkDiffReferenceSchemas(b *testing.B) {
	partner, admin := reference.Read(b, reference.PartnerSchema), reference.Read(b, reference.TestingSchema)
	changed := append([]byte(nil), partner...)
	changed = append(changed, "\ntype PlantedType { id: ID! }\n"...)
	for _, c := range []struct {
		name     string
		old, new []byte
	}{{"partner-vs-copy", partner, changed}, {"partner-vs-testing", partner, admin}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				o, err := schemafile.Load("old", c.old)
				if err != nil {
					b.Fatal(err)
				}
				n, err := schemafile.Load("new", c.new)
				if err != nil {
					b.Fatal(err)
				}
				if len(Diff(o, n)) == 0 {
					b.Fatal("no change found")
				}
			}
		})
	}
}
