package emulator

import (
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Card spending: what a card spent in its limit's rolling month agrees
// with the card's transactions, and follows the card payments simulated.

type cardSpending struct {
	SpendingLimits []struct {
		Period string
		Amount struct{ Value, Currency string }
	}
	Spending struct {
		Period    string
		Amount    struct{ Value, Currency string }
		TimeRange struct{ Start, End string }
	}
	Transactions struct {
		Edges []struct {
			Node struct {
				Type, Side, CreatedAt string
				StatusInfo            struct{ Status string }
				Amount                struct{ Value string }
			}
		}
	}
}

func (e *testEnv) cardSpending(cardID string) cardSpending {
	e.t.Helper()
	var out struct{ Card cardSpending }
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { card(cardId: $id) {
	  spendingLimits { period amount { value currency } }
	  spending { period amount { value currency } timeRange { start end } }
	  transactions(first: 100) { edges { node { type side createdAt statusInfo { status } amount { value } } } } } }`, map[string]any{"id": cardID}, &out)
	return out.Card
}

// spent sums the card's debits in the window as the platform counts them.
func (c cardSpending) spent(t *testing.T) int64 {
	t.Helper()
	start, err1 := time.Parse(time.RFC3339, c.Spending.TimeRange.Start)
	end, err2 := time.Parse(time.RFC3339, c.Spending.TimeRange.End)
	if err1 != nil || err2 != nil || !start.Equal(end.AddDate(0, -1, 0)) {
		t.Fatalf("time range %+v", c.Spending.TimeRange)
	}
	var sum int64
	for _, ed := range c.Transactions.Edges {
		n := ed.Node
		at, _ := time.Parse(time.RFC3339, n.CreatedAt)
		at = at.Truncate(time.Hour)
		switch n.StatusInfo.Status {
		case "Pending", "Booked", "Deferred", "Settled":
		default:
			continue
		}
		if n.Side == "Debit" && !at.Before(start) && !at.After(end) {
			v, err := data.ParseAmount(n.Amount.Value)
			if err != nil {
				t.Fatal(err)
			}
			sum += v
		}
	}
	return sum
}

func TestCardSpending(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	nonzero := 0
	for _, a := range e.sandbox.AllAccounts() {
		if a.CreatedAt.Before(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)) {
			continue // only young accounts spend much in the last month
		}
		page, _ := e.sandbox.Cards(data.Viewer{Project: true}, data.CardQuery{First: 10, Filter: data.CardFilter{AccountID: a.ID}})
		for _, c := range page.Items {
			got := e.cardSpending(c.ID)
			v, _ := data.ParseAmount(got.Spending.Amount.Value)
			if got.Spending.Period != "Monthly" || got.Spending.Amount.Currency != c.Currency || v != got.spent(t) {
				t.Errorf("card %s spent %+v, its transactions say %d", c.ID, got.Spending, got.spent(t))
			}
			if len(got.SpendingLimits) != 1 || got.SpendingLimits[0].Period != got.Spending.Period {
				t.Errorf("card %s limits %+v", c.ID, got.SpendingLimits)
			}
			if v > 0 {
				nonzero++
			}
		}
	}
	if nonzero == 0 {
		t.Error("no card spent anything in its last month")
	}
	// An authorization counts at once; released, it no longer does.
	card, _ := e.enabledCard()
	before := e.cardSpending(card.ID)
	base, _ := data.ParseAmount(before.Spending.Amount.Value)
	auth := e.authorize(card.ID, "12.34")
	if got, _ := data.ParseAmount(e.cardSpending(card.ID).Spending.Amount.Value); got != base+1234 {
		t.Errorf("after an authorization of 12.34: spent %d, was %d", got, base)
	}
	e.mustSim(releaseField, releaseInput, releaseOK, map[string]any{"transactionId": auth})
	if got, _ := data.ParseAmount(e.cardSpending(card.ID).Spending.Amount.Value); got != base {
		t.Errorf("after the release: spent %d, was %d", got, base)
	}
}
