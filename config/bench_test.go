package config

import "testing"

func BenchmarkParseTemplate(b *testing.B) {
	data := []byte(Template())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("config.toml", data); err != nil {
			b.Fatal(err)
		}
	}
}
