package api

import (
	"context"
	"testing"
	"time"
)

// BenchmarkWalkInParts compares walking a whole list in parts with the
// single walk (--ordered) over more than 20,000 transactions and 20,000
// accounts, with every answer a round trip away (rtt), and reports the
// requests and wall time of each:
//
//	go test ./api -run '^$' -bench WalkInParts -benchtime 1x
func BenchmarkWalkInParts(b *testing.B) {
	for _, rtt := range []time.Duration{0, 100 * time.Millisecond} {
		txs := newSplitEmulator(b, 560)
		txs.rtt = rtt
		accts := newSplitEmulator(b, 20000)
		accts.rtt = rtt
		ctx := context.Background()
		type walk struct {
			name string
			e    *splitEmulator
			run  func(c *Client, n *int) error
		}
		count := func(n *int) func(int) { return func(k int) { *n += k } }
		for _, w := range []walk{
			{"transactions/single", txs, func(c *Client, n *int) error {
				return Walk(ctx, Pages(c.TransactionList, TransactionsParams{}), func(p *Page[TransactionDetail]) error { count(n)(len(p.Items)); return nil })
			}},
			{"transactions/parts", txs, func(c *Client, n *int) error {
				return c.ProjectTransactionsInParts(ctx, TransactionsParams{}, 0, func(items []TransactionDetail, _ int) error { count(n)(len(items)); return nil })
			}},
			{"accounts/single", accts, func(c *Client, n *int) error {
				return Walk(ctx, Pages(c.Accounts, AccountsParams{}), func(p *Page[Account]) error { count(n)(len(p.Items)); return nil })
			}},
			{"accounts/parts", accts, func(c *Client, n *int) error {
				return c.AccountsInParts(ctx, AccountsParams{}, func(items []Account, _ int) error { count(n)(len(items)); return nil })
			}},
		} {
			b.Run("rtt="+rtt.String()+"/"+w.name, func(b *testing.B) {
				c := w.e.client(b)
				items := 0
				before := w.e.requests.Load()
				start := time.Now()
				for range b.N {
					items = 0
					if err := w.run(c, &items); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(w.e.requests.Load()-before)/float64(b.N), "requests/op")
				b.ReportMetric(float64(items), "items")
				b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/walk")
			})
		}
	}
}
