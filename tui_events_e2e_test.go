package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTmuxEventsEndToEnd is issue 11's story in a real terminal: simulate
// a transfer from an account, see Transaction.Booked appear in the Events
// view, open it, jump to the transaction.
func TestTmuxEventsEndToEnd(t *testing.T) {
	t.Parallel()
	tm := newTmux(t)
	bin := realBinary.Path(t)
	tm.start(120, 40, bin, "--demo")
	tm.waitFor("sign-in screen", "Sign in", "SANDBOX")
	tm.keys("a")
	tm.waitFor("account list", "Accounts", "FR76")
	tm.keys("Enter")
	tm.waitFor("account overview", "IBAN", "Your rights")
	tm.keys("s", "2", "5", "Enter")
	tm.waitFor("simulated transfer", "Received 25 ", "(simulated transfer)")
	// The account's events first (its Account.Updated once booked), then
	// every event: the transfer is Pending for 3 s, then Booked.
	tm.keys("E")
	tm.waitFor("the account's events", "Events (", "account ")
	tm.keys("Escape")
	tm.waitFor("the booked transfer's event", "Transaction.Booked", "live")
	// Only that type, so the event is the first row.
	tm.keys("t")
	tm.keys("Transaction.Booked")
	tm.keys("Enter")
	tm.waitFor("the filtered log", "type Transaction.Booked")
	tm.keys("Enter")
	tm.waitFor("the event", `"eventType": "Transaction.Booked"`, "(enter opens it)")
	tm.keys("Enter")
	tm.waitFor("the transaction", "25", "Booked")
	tm.keys("q")
	tm.waitExit()
}

// hinted is the screen with the text drawn in italics, the hint style of
// what the user did not type (placeholders, completions), between « and »,
// each line on its own.
func (m *tmux) hinted() string {
	raw, _ := m.cmd("capture-pane", "-p", "-e", "-t", m.session).Output()
	var b strings.Builder
	italic := false
	for i := 0; i < len(raw); i++ {
		switch {
		case raw[i] == '\x1b' && i+1 < len(raw) && raw[i+1] == '[':
			j := i + 2
			for j < len(raw) && (raw[j] < 0x40 || raw[j] > 0x7e) {
				j++
			}
			if j == len(raw) {
				i = j
				continue
			}
			now := italic
			if raw[j] == 'm' {
				params := strings.Split(string(raw[i+2:j]), ";")
				for k := 0; k < len(params); k++ {
					switch params[k] {
					case "", "0", "23":
						now = false
					case "3":
						now = true
					case "38", "48", "58": // a colour's own numbers
						if k+1 < len(params) && params[k+1] == "5" {
							k += 2
						} else if k+1 < len(params) && params[k+1] == "2" {
							k += 4
						}
					}
				}
			}
			if now != italic {
				b.WriteString(map[bool]string{true: "«", false: "»"}[now])
				italic = now
			}
			i = j
		case raw[i] == '\n' && italic:
			b.WriteString("»\n«")
		default:
			b.WriteByte(raw[i])
		}
	}
	return b.String()
}

// waitForHinted waits until every text is on the screen as hinted shows
// it, and returns that screen.
func (m *tmux) waitForHinted(what string, texts ...string) string {
	m.t.Helper()
	var screen string
	onScreen := func() bool {
		screen = m.hinted()
		for _, s := range texts {
			if !strings.Contains(screen, s) {
				return false
			}
		}
		return true
	}
	if !poll(60*time.Second, onScreen) {
		m.t.Fatalf("waiting for the %s (%q), the screen (italics in «») is:\n%s", what, texts, screen)
	}
	return screen
}

// ageSeconds reads an Age cell of the Events view (42s, 3m, 5h, 2d) as
// seconds.
func ageSeconds(cell string) (int, bool) {
	unit := map[byte]int{'s': 1, 'm': 60, 'h': 3600, 'd': 86400}
	if len(cell) < 2 || unit[cell[len(cell)-1]] == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(cell[:len(cell)-1])
	return n * unit[cell[len(cell)-1]], err == nil
}

// eventRows are the rows of the Events view on screen, each split into its
// fields: age, type, resource…
func eventRows(screen string) [][]string {
	var rows [][]string
	lines := strings.Split(screen, "\n")
	for i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Age ") }) + 1; i > 0 && i < len(lines); i++ {
		f := strings.Fields(lines[i])
		if len(f) < 2 || !strings.Contains(f[1], ".") {
			break
		}
		rows = append(rows, f)
	}
	return rows
}

// TestTmuxOrdersAndHints is issue 32's items 17 and 18 in a real terminal,
// at 80×24 and 120×40, one --demo session a size: what the user did not
// type is drawn as a hint, never as a value (item 17: a simulation's
// amount, the Events type prompt's placeholder and its completion, which
// enter applies); the Events view is ordered by what its Age column shows,
// the age of the attempt, so the replay of the oldest event comes first,
// and the request log (L) is strictly newest first (item 18). Two
// simulated transfers make the events.
func TestTmuxOrdersAndHints(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, w, h int) {
		tm := newTmux(t)
		tm.startDemo(w, h, realBinary.Path(t))
		tm.keys("Enter")
		tm.waitFor("account overview", "IBAN", "Your rights")

		// Item 17: the amount's default is a hint (its first cell under
		// the cursor), what is typed is not, and the typed amount is sent.
		tm.keys("s")
		tm.waitForHinted("the amount's default, a hint", "Simulate ▸ receive a transfer", "Amount:     1«00.00")
		tm.keys("25")
		amountLine := func() string {
			for line := range strings.Lines(tm.hinted()) {
				if strings.Contains(line, "Amount:") {
					return line
				}
			}
			return ""
		}
		if !poll(60*time.Second, func() bool { return strings.Contains(amountLine(), "Amount:     25") }) || strings.Contains(amountLine(), "«") {
			t.Fatalf("the typed amount is not drawn as typed: %q\n%s", amountLine(), tm.hinted())
		}
		tm.keys("Enter")
		tm.waitFor("the transfer", "Received 25 ")
		// A second transfer, for more events; both are booked 3 s later.
		tm.keys("s", "3", "Enter")
		tm.waitFor("the second transfer", "Received 3 ")

		// Item 18: every event, by what Age says: the age of the
		// delivery attempt.
		tm.keys("E")
		tm.waitFor("the account's events", "Events (")
		tm.keys("Escape")
		var rows [][]string
		count := func(typ string) int {
			return len(slices.DeleteFunc(slices.Clone(rows), func(r []string) bool { return r[1] != typ }))
		}
		if !poll(60*time.Second, func() bool {
			rows = eventRows(tm.capture())
			return count("Transaction.Booked") >= 2 && count("Transaction.Pending") >= 2
		}) {
			t.Fatalf("the two transfers' events are not in the Events view:\n%s", tm.capture())
		}
		// The oldest event (the first transfer's Pending) delivered again:
		// an attempt younger than every other row, of the oldest event.
		tm.keys("G", "R")
		tm.waitFor("the replay's question", "Replay Transaction.Pending")
		tm.keys("y")
		tm.waitFor("the replay", "Replayed Transaction.Pending")
		var screen string
		if !poll(60*time.Second, func() bool {
			screen = tm.capture()
			rows = eventRows(screen)
			return len(rows) > 0 && rows[0][1] == "Transaction.Pending" && slices.Contains(rows[0], "replay")
		}) {
			t.Fatalf("the replayed attempt is not the first row:\n%s", screen)
		}
		last := -1
		for i, r := range rows {
			secs, ok := ageSeconds(r[0])
			if !ok {
				t.Fatalf("row %d's age is %q:\n%s", i+1, r[0], screen)
			}
			if secs < last {
				t.Errorf("the Events view is not ordered by its Age column: row %d's %s after %s\n%s", i+1, r[0], rows[i-1][0], screen)
			}
			last = secs
		}
		if len(rows) < 7 {
			t.Fatalf("read %d event rows:\n%s", len(rows), screen)
		}

		// Item 17: the type prompt's placeholder and its completion are
		// hints; enter applies the completion shown.
		tm.keys("t")
		tm.waitForHinted("the type prompt's placeholder, a hint", "type: a«n event type, such as Transaction.Booked (tab completes)")
		tm.keys("Transaction.Boo")
		tm.waitForHinted("the completion, a hint", "type: Transaction.Book«ed")
		tm.keys("Enter")
		if !poll(60*time.Second, func() bool {
			screen = tm.capture()
			rows = eventRows(screen)
			return strings.Contains(screen, "type Transaction.Booked") && len(rows) >= 2 && count("Transaction.Booked") == len(rows)
		}) {
			t.Fatalf("enter did not filter on the completion shown:\n%s", screen)
		}

		// Item 18: the request log, strictly newest first.
		tm.keys("L")
		tm.waitFor("the requests", "requests kept, newest first")
		var numbers []int
		for _, row := range requestRow.FindAllStringSubmatch(tm.capture(), -1) {
			n, _ := strconv.Atoi(row[1])
			if len(numbers) > 0 && n >= numbers[len(numbers)-1] {
				t.Errorf("the request log is not newest first: #%d under #%d", n, numbers[len(numbers)-1])
			}
			numbers = append(numbers, n)
		}
		if len(numbers) < 10 {
			t.Fatalf("read %d request rows:\n%s", len(numbers), tm.capture())
		}
		tm.keys("q")
		tm.waitExit()
	})
}
