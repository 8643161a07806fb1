package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/ledger"
	"github.com/partnertui/partnertui/ui/stackchart"
)

// withProjectYear gives the fake project three accounts' years of
// transactions, some of them still Pending, Rejected or Upcoming.
func withProjectYear(d *driver) {
	for i, id := range []string{"acc-0", "acc-1", "acc-2"} {
		year, _ := bookedYear(id)
		// acc-0 the most active, each a few days after the one before.
		var txs []api.TransactionDetail
		for j, tx := range year {
			if j%(i+1) == 0 {
				at := tx.ExecutionDate.AddDate(0, 0, -2*i)
				tx.ExecutionDate, tx.CreatedAt, tx.UpdatedAt = at, at, at
				txs = append(txs, tx)
			}
		}
		for j := range txs {
			switch {
			case j%9 == 4:
				txs[j].StatusInfo = api.TransactionStatusInfo{Status: "Pending"}
			case j%13 == 6:
				txs[j].StatusInfo = api.TransactionStatusInfo{Status: "Rejected", Reason: "InsufficientFunds"}
			case j%17 == 8:
				txs[j].StatusInfo = api.TransactionStatusInfo{Status: "Canceled"}
			}
		}
		d.sbx.txs[id] = txs
	}
}

// TestGoldenInsights snapshots :insights at 80×24 and 120×40 without
// colour: the last 30 and 90 days of the fake project. Refresh with
// go test ./ui -run TestGoldenInsights -update.
func TestGoldenInsights(t *testing.T) {
	t.Parallel()
	for _, sc := range []struct {
		name string
		keys []string
	}{
		{"days30", nil},
		{"days90", []string{"p"}},
		{"days365", []string{"p", "p"}},
	} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				d := newDriverWith(t, fixture{rows: 3, project: true, w: sz[0], h: sz[1]}, withProjectYear)
				jump(d, "insights")
				d.press(sc.keys...)
				view := asciiView(t, d)
				for i, l := range strings.Split(view, "\n") {
					if w := ansi.StringWidth(l); w > sz[0] {
						t.Errorf("line %d is %d cells wide, more than %d", i, w, sz[0])
					}
				}
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// :insights counts the project's transactions: every one of the period
// once, by day, product and status, and the accounts by how many they
// have; without a project token it says what it needs.
func TestInsightsCountEveryTransactionOnce(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 3, project: true, w: 120, h: 40}, withProjectYear)
	jump(d, "insights")
	d.press("p") // 90 days
	s := topAs[*insightsScreen](d)
	if s.data == nil || !s.data.complete {
		t.Fatalf("insights not read: %+v", s.data)
	}
	period := ledger.LastDays(testNow, 90)
	byProduct, byStatus, byAccount := map[string]int{}, map[string]int{}, map[string]int{}
	total := 0
	for _, txs := range d.sbx.txs {
		for _, tx := range txs {
			if tx.ExecutionDate.Before(period.Start()) || !tx.ExecutionDate.Before(period.End()) {
				continue
			}
			total++
			byProduct[ledger.ProductLabel(tx.PaymentProduct)]++
			byStatus[tx.StatusInfo.Status]++
			byAccount[tx.Account.ID]++
		}
	}
	if s.data.read != total || total == 0 {
		t.Errorf("%d transactions counted, the period has %d", s.data.read, total)
	}
	for _, c := range []struct {
		what   string
		series []seriesTotal
		want   map[string]int
	}{{"product", totals(s.data.byProduct), byProduct}, {"status", totals(s.data.byStatus), byStatus}} {
		if len(c.series) != len(c.want) {
			t.Errorf("by %s: %v, want %v", c.what, c.series, c.want)
		}
		for _, st := range c.series {
			if c.want[st.name] != st.total {
				t.Errorf("by %s: %s counts %d, want %d", c.what, st.name, st.total, c.want[st.name])
			}
		}
	}
	for i, a := range s.data.top {
		if byAccount[a.id] != a.count || i > 0 && s.data.top[i-1].count < a.count {
			t.Errorf("account %s counts %d (place %d), want %d, most first", a.id, a.count, i, byAccount[a.id])
		}
	}
	d.wantScreen("✓ every transaction of the period: " + fmt.Sprint(total) + " transactions")

	// enter opens the account under the cursor.
	d.press("down", "enter")
	if a := d.account(); a.overview.acct.ID != s.data.top[1].id {
		t.Errorf("enter opened %s, the cursor was on %s", a.overview.acct.ID, s.data.top[1].id)
	}

	// A user token may not read the project's transactions.
	u := newDriver(t, fixture{rows: 3, signedIn: true})
	jump(u, "insights")
	u.wantScreen("Insights need a project token: start partnertui with --project")
	if _, ok := u.m.top().(*insightsScreen); ok {
		t.Error("insights opened with a user token")
	}
}

// A period busier than insightsMaxPages pages is counted back from its
// newest transactions, and the screen says from which day; the read stops
// there.
func TestInsightsStopShortOfABusyPeriod(t *testing.T) {
	t.Parallel()
	const perDay, days = 200, 30
	d := newDriverWith(t, fixture{rows: 3, project: true, w: 80, h: 24}, func(d *driver) {
		var txs []api.TransactionDetail
		for day := range days {
			for i := range perDay {
				at := testNow.AddDate(0, 0, -day).Add(-time.Duration(i) * time.Second)
				txs = append(txs, api.TransactionDetail{ID: fmt.Sprintf("tx-%d-%d", day, i), Side: "Debit", PaymentProduct: "Card",
					Amount: api.Amount{Value: "1.00", Currency: "EUR"}, ExecutionDate: at, CreatedAt: at, UpdatedAt: at,
					StatusInfo: api.TransactionStatusInfo{Status: "Booked"}, Account: &api.AccountRef{ID: "acc-0", Name: "Account 0"}})
			}
		}
		d.sbx.txs["acc-0"] = txs
	})
	before := len(d.sbx.txParams)
	jump(d, "insights")
	s := topAs[*insightsScreen](d)
	read := insightsMaxPages * 100
	oldest := ledger.Day(testNow.AddDate(0, 0, -(read-1)/perDay))
	if s.data == nil || !s.data.complete || s.data.read != read || !s.data.from.Equal(oldest) || s.data.pages != insightsMaxPages {
		t.Fatalf("a busy period: %+v, want %d transactions back to %s", s.data, read, oldest)
	}
	// The walk may have asked for the page after the last it took.
	if n := len(d.sbx.txParams) - before; n < insightsMaxPages || n > insightsMaxPages+1 {
		t.Errorf("%d requests, want %d", n, insightsMaxPages)
	}
	d.wantScreen("the newest " + fmt.Sprint(read) + " transactions only, back to " + oldest.Format(time.DateOnly))
}

type seriesTotal struct {
	name  string
	total int
}

func totals(series []stackchart.Series) []seriesTotal {
	out := make([]seriesTotal, len(series))
	for i := range series {
		out[i] = seriesTotal{series[i].Name, series[i].Total()}
	}
	return out
}

// On the emulator, :insights counts the project's transactions of the last
// 30 days as a walk of them does, and opens the most active account.
func TestEmulatorInsights(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the emulator")
	}
	e := newEmu(t, emulator.Options{Accounts: 30}, true)
	period := ledger.LastDays(time.Now(), 30)
	all := every(t, api.Pages(e.client.TransactionList, api.TransactionsParams{IsAfterExecutionDate: period.Start(), IsBeforeExecutionDate: period.End()}))
	jump(e.driver, "insights")
	s := topAs[*insightsScreen](e.driver)
	if s.data == nil || !s.data.complete || s.data.read != len(all) || len(all) == 0 {
		t.Fatalf("insights counted %+v, the period has %d transactions", s.data, len(all))
	}
	most := map[string]int{}
	for _, tx := range all {
		most[tx.Account.ID]++
	}
	if top := s.data.top[0]; most[top.id] != top.count {
		t.Errorf("the most active account %s counts %d, the walk %d", top.id, top.count, most[top.id])
	}
	for _, c := range most {
		if c > s.data.top[0].count {
			t.Errorf("an account has %d transactions, more than the first of the list (%d)", c, s.data.top[0].count)
		}
	}
	e.press("enter")
	e.wantScreen(s.data.top[0].name)
}
