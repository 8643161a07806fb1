package ui

import (
	"fmt"
	"testing"
)

// BenchmarkAccountsScroll measures one key press (j) through Update and View
// with 100 and 100,000 loaded rows: the table is windowed, so both should
// cost the same.
func BenchmarkAccountsScroll(b *testing.B) {
	for _, n := range []int{100, 100000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			d := newDriver(b, fixture{rows: 0, signedIn: true, color: true})
			a, ok := d.m.top().(*accountsScreen)
			if !ok {
				b.Fatalf("top screen is %T", d.m.top())
			}
			a.rows = makeAccounts(n)
			a.total, a.hasNext = n, false
			a.cursor = n / 2
			a.invalidate()
			a.sync()
			down := keyMsg("j")
			up := keyMsg("k")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := down
				// Walk down and up through the middle of the list so the
				// window keeps moving and never sits at an edge.
				if (i/40)%2 == 1 {
					k = up
				}
				d.m.Update(k)
				_ = d.m.View()
			}
		})
	}
}
