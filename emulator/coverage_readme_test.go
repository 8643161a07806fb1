package emulator

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestREADMECoverageTableIsTheEmulators: the README's coverage table for
// the public schemas is what --coverage reports for them, so that it
// follows the model as domains are modelled.
func TestREADMECoverageTableIsTheEmulators(t *testing.T) {
	t.Parallel()
	rep, err := Coverage(referenceOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	type counts struct{ modelled, generated string }
	byDomain := map[string][2]*counts{}
	var order []string
	for i, api := range rep.APIs {
		for _, r := range api.Rows {
			if _, ok := byDomain[r.Domain]; !ok {
				order = append(order, r.Domain)
				byDomain[r.Domain] = [2]*counts{}
			}
			c := byDomain[r.Domain]
			c[i] = &counts{fmt.Sprint(r.Modelled), fmt.Sprint(r.Generated)}
			byDomain[r.Domain] = c
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	for _, d := range order {
		cells := []string{d}
		for _, c := range byDomain[d] {
			if c == nil {
				cells = append(cells, "", "")
				continue
			}
			cells = append(cells, c.modelled, c.generated)
		}
		// An API without the domain leaves its cells empty: "| |".
		row := "|"
		for _, c := range cells {
			if c == "" {
				row += " |"
			} else {
				row += " " + c + " |"
			}
		}
		if !strings.Contains(text, "\n"+row+"\n") {
			t.Errorf("the README's coverage table lacks the row %q", row)
		}
	}
	p, a := rep.APIs[0].Total, rep.APIs[1].Total
	total := fmt.Sprintf("| **total** (%d operations, none missing) | **%d** | **%d** | **%d** | **%d** |",
		p.Modelled+p.Generated+p.Missing+a.Modelled+a.Generated+a.Missing, p.Modelled, p.Generated, a.Modelled, a.Generated)
	if p.Missing+a.Missing != 0 {
		t.Errorf("%d operations are not answered", p.Missing+a.Missing)
	}
	if !strings.Contains(text, "\n"+total+"\n") {
		t.Errorf("the README's coverage table lacks its total %q", total)
	}
}
