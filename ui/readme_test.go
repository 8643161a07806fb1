package ui

import (
	"os"
	"strings"
	"testing"
)

// The README's keys table, its account tabs and its palette names say
// what the table of views holds: they are derived from it here, so a new
// view that the README does not tell of fails this test.
func TestREADMETellsTheTableOfViews(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	vs := views()

	titles := []string{(&overviewScreen{}).title()}
	for _, tab := range accountTabs(vs) {
		titles = append(titles, tab.title)
	}
	_, numbers := tabKeys(len(titles))
	first, last, _ := strings.Cut(numbers, "-")
	var lists, ones []string
	for _, v := range vs {
		if v.list != nil {
			lists = append(lists, "`"+v.list.name+"`")
		}
		if v.one != nil {
			ones = append(ones, "`"+v.one.name+" ID`")
		}
	}
	for _, v := range vs {
		if a := v.anything; a != nil {
			ones = append(ones, "`"+a.name+" "+a.arg+"`")
		}
	}
	for _, want := range []string{
		"An account opens in tabs (" + strings.Join(titles, ", ") + ").",
		"| `tab`/`shift+tab`, `" + first + "`–`" + last + "` | an account | " + strings.Join(titles, ", ") + " |",
		"| `:` | anywhere once signed in | jump: " + strings.Join(lists, ", ") + ", or " + strings.Join(ones, ", ") + " (`tab` completes) |",
		// The charts' period key, as the Overview and :insights bind it.
		"| `" + newOverviewKeys().Period.Help().Key + "` | overview, insights | " + newInsightsKeys().Period.Help().Desc + ": ",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md lacks the line the table of views makes:\n%s", want)
		}
	}
	// The screens it shows draw the tab bar as the app does.
	bar := " " + strings.Join(titles, " │ ") + "   tab/" + numbers + " to change"
	if n := strings.Count(readme, "tab/1-"); n == 0 || n != strings.Count(readme, bar) {
		t.Errorf("README.md shows %d tab bars, %d of them as the app draws them:\n%s", n, strings.Count(readme, bar), bar)
	}
}
