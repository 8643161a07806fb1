package stackchart

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/ui/balancechart"
)

// TestColumnsAreTheirCounts reads a drawn chart back: each column is as
// high as its count over the highest column's (whole cells, half up, at
// least one for a count), its cells split between the series in
// proportion (each series within a cell of its exact share), largest
// series at the bottom; the legend totals each series; the top label is
// the highest column's count.
func TestColumnsAreTheirCounts(t *testing.T) {
	t.Parallel()
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ days, w, h int }{{30, 80, 10}, {90, 120, 14}, {365, 80, 8}} {
		series := []Series{{Name: "A"}, {Name: "B"}, {Name: "C"}}
		for i := range series {
			series[i].Counts = make([]int, tc.days)
			for d := range tc.days {
				series[i].Counts[d] = (d*(i+3) + i*7) % (9 - 2*i)
			}
		}
		lines := Draw(first, series, tc.w, tc.h, lipgloss.Style{})
		if len(lines) != tc.h {
			t.Fatalf("%d days: %d lines, want %d", tc.days, len(lines), tc.h)
		}
		for i, s := range series {
			if want := Glyphs[i] + " " + s.Name + " " + strconv.Itoa(s.Total()); !strings.Contains(lines[0], want) {
				t.Errorf("%d days: the legend %q lacks %q", tc.days, lines[0], want)
			}
		}
		rows := tc.h - 3
		var grid [][]rune
		for _, l := range lines[1 : 1+rows] {
			at := strings.IndexAny(l, "┤│")
			grid = append(grid, []rune(ansi.Strip(l[at:]))[1:])
		}
		width := len(grid[0])
		last := balancechart.Columns(tc.days, width)
		counts := make([][]int, width)
		top := 0
		for j, d := range last {
			from := d
			if j > 0 && last[j-1] < d {
				from = last[j-1] + 1
			}
			counts[j] = make([]int, len(series))
			for k, s := range series {
				for day := from; day <= d; day++ {
					counts[j][k] += s.Counts[day]
				}
			}
			top = max(top, sum(counts[j]))
		}
		if label := strings.TrimSpace(lines[1][:strings.Index(lines[1], "┤")]); label != strconv.Itoa(top) {
			t.Errorf("%d days: the top label is %q, the highest column counts %d", tc.days, label, top)
		}
		for j := range width {
			total := sum(counts[j])
			want := 0
			if total > 0 {
				want = max(1, (2*total*rows+top)/(2*top))
			}
			drawn := make([]int, len(series))
			height, prev := 0, -1
			for r := rows - 1; r >= 0; r-- {
				g := string(grid[r][j])
				if g == " " {
					continue
				}
				k := glyphIndex(g)
				if k < prev {
					t.Errorf("%d days, column %d: %s above a later series", tc.days, j, g)
				}
				prev = k
				drawn[k]++
				height++
			}
			if height != want {
				t.Errorf("%d days, column %d counts %d of %d: %d cells high, want %d", tc.days, j, total, top, height, want)
			}
			for k, n := range drawn {
				if total == 0 {
					break
				}
				// n within a cell of the exact share counts[j][k]·height/total.
				if exact := counts[j][k] * height; n*total < exact-total || n*total > exact+total {
					t.Errorf("%d days, column %d: series %d has %d cells, its share is %d/%d", tc.days, j, k, n, exact, total)
				}
			}
		}
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

func glyphIndex(g string) int {
	for i, x := range Glyphs {
		if x == g {
			return i
		}
	}
	return -1
}
