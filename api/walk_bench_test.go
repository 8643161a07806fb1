package api

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// BenchmarkWalkHeap walks accounts connections of 10,000 and 100,000
// accounts from a server that renders each page on demand, and reports the
// live heap (after a collection, sampled every 20 pages) at its highest:
// Walk holds a page or two whatever the length, while a buffered listing
// (Buffered: the same walk, every account kept in one slice) grows with
// it. Compare the two totals' peak-live-MB.
func BenchmarkWalkHeap(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(b, r)
		total, _ := strconv.Atoi(r.URL.Query().Get("total"))
		from := 0
		if a, _ := q.Variables["after"].(string); a != "" {
			from, _ = strconv.Atoi(a)
		}
		writeJSON200(w, accountsPage(from, min(from+100, total), total))
	})
	srv := httptestServer(b, h)
	for _, total := range []int{10_000, 100_000} {
		for _, mode := range []string{"Walk", "Buffered"} {
			b.Run(fmt.Sprintf("%s/accounts=%d", mode, total), func(b *testing.B) {
				c, err := New(Options{Env: "sandbox", GraphQLURL: fmt.Sprintf("%s/sandbox-partner/graphql?total=%d", srv, total),
					TokenSource: staticToken(), Budget: 1 << 30, Window: time.Hour})
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				var peak uint64
				sample := func() {
					var ms runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapAlloc)
				}
				ctx := context.Background()
				for b.Loop() {
					switch mode {
					case "Walk":
						pages := 0
						err = Walk(ctx, Pages(c.Accounts, AccountsParams{}), func(*Page[Account]) error {
							if pages++; pages%20 == 0 {
								sample()
							}
							return nil
						})
					default:
						var all []Account
						all, err = collect(ctx, Pages(c.Accounts, AccountsParams{}))
						sample()
						runtime.KeepAlive(all)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-live-MB")
			})
		}
	}
}
