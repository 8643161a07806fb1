package data

import "testing"

// BenchmarkSimulatedStep measures one simulated step, a card authorization
// then its release, on an account of a 1,000-account Sandbox: each step
// sums the account's generated history for its balances.
func BenchmarkSimulatedStep(b *testing.B) {
	s := mustStore(b, "sandbox", 1, 1000)
	var card Card
	for _, a := range s.accounts {
		for _, c := range s.accountCards(&a) {
			if c.Status == CardEnabled && a.Status == "Opened" {
				card = c
				break
			}
		}
		if card.ID != "" {
			break
		}
	}
	v := Viewer{Project: true}
	p := CardPayment{CardID: card.ID, Amount: 1, Currency: card.Currency, Merchant: Merchant{Name: "Bench"}, AuthorizationType: "Classic"}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		t, err := s.AuthorizeCard(v, p)
		if err != nil || t.Status != StatusPending {
			b.Fatalf("authorize: %+v %v", t, err)
		}
		if _, err := s.ReleaseCardAuthorization(v, t.ID, "Expired"); err != nil {
			b.Fatal(err)
		}
		// Two transactions a round: start afresh before the account's
		// maximum.
		if n++; n == MaxSimulatedPerAccount/2 {
			n = 0
			b.StopTimer()
			s.mu.Lock()
			s.extraTx = map[int32][]Transaction{}
			s.simulated = nil
			s.mu.Unlock()
			b.StartTimer()
		}
	}
}
