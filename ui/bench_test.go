package ui

import (
	"fmt"
	"testing"

	"github.com/partnertui/partnertui/api"
)

// BenchmarkAccountsScroll measures one key press (j or k) through Update
// and View with 100 and 100,000 loaded rows: only the rows on screen are
// formatted, and the chrome is redrawn only when it changes, so both cost
// the same.
func BenchmarkAccountsScroll(b *testing.B) {
	for _, n := range []int{100, 100000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			d := newDriver(b, fixture{rows: 0, signedIn: true, color: true})
			a := d.accounts()
			d.run(a.seed(&api.Page[api.Account]{Items: makeAccounts(n), TotalCount: n}))
			d.run(a.list.SetCursor(n / 2))
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
