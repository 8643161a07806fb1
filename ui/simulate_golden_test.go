package ui

import (
	"context"
	"fmt"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
)

// fakeSimulator is the fake API with the Testing API's simulations: each
// answers the transaction "sim-tx" and records its name. A transfer sent
// answers initiated (nil: sent at once); the payment read again is paid
// (nil: as initiated).
type fakeSimulator struct {
	*fakeAPI
	ran       []string
	initiated *api.Payment
	paid      *api.Payment
	reads     int // of Payment
	// sent are the transfers initiated, as the menu built them.
	sent []api.InitiateCreditTransfersInput
}

func (f *fakeSimulator) tx(op string) (string, error) {
	f.ran = append(f.ran, op)
	return "sim-tx", nil
}

func (f *fakeSimulator) InitiateCreditTransfers(_ context.Context, in api.InitiateCreditTransfersInput) (*api.Payment, error) {
	f.sent = append(f.sent, in)
	id, err := f.tx("send")
	if f.initiated != nil {
		p := *f.initiated
		return &p, err
	}
	return &api.Payment{ID: "payment-1", Status: "Initiated", TransactionIDs: []string{id}}, err
}
func (f *fakeSimulator) Payment(_ context.Context, id string) (*api.Payment, error) {
	f.reads++
	p := f.paid
	if p == nil {
		p = f.initiated
	}
	if p == nil || p.ID != id {
		return nil, fmt.Errorf("no payment %s", id)
	}
	cp := *p
	return &cp, nil
}

// Simulate answers every simulation of the Testing API with the
// transaction "sim-tx", recording the menu's name of it.
func (f *fakeSimulator) Simulate(_ context.Context, s *api.Spec, _ any) (any, error) {
	id, err := f.tx(menuName(s.Name))
	switch s.Name {
	case api.SimulateManualBankingFee.Name():
		return &api.ManualBankingFee{ID: id}, err
	case api.SimulateOutgoingCardAuthorization.Name():
		return &api.CardAuthorization{TransactionID: id}, err
	}
	return id, err
}

// menuName is how the menus name the simulation of an operation.
func menuName(op string) string {
	return map[string]string{
		api.SimulateOutgoingSepaDirectDebitReception.Name():         "direct debit",
		api.SimulateManualBankingFee.Name():                         "fee",
		api.SimulateOutgoingCardAuthorization.Name():                "authorize",
		api.SimulateOutgoingCardDebit.Name():                        "debit",
		api.SimulateOutgoingCardAuthorizationRelease.Name():         "release",
		api.SimulateOutgoingCardDebitReverse.Name():                 "reverse",
		api.SimulateIncomingSepaCreditTransferReturn.Name():         "return",
		api.SimulateIncomingSepaCreditTransferAcceptedRecall.Name(): "recall",
		api.SimulateOutgoingSepaCreditTransferBooking.Name():        "book",
		api.SimulateOutgoingSepaCreditTransferRejection.Name():      "reject",
		api.SimulateOutgoingSepaCreditTransferReturn.Name():         "return",
		api.SimulateOutgoingSepaDirectDebitReject.Name():            "reject",
		api.SimulateOutgoingSepaDirectDebitReturn.Name():            "return",
		api.SimulateOutgoingSepaDirectDebitCancel.Name():            "cancel",
	}[op]
}

// withSimulator gives both environments' APIs the simulations (Live's
// read-only policy still hides them there).
func withSimulator(d *driver) *fakeSimulator {
	s := &fakeSimulator{fakeAPI: d.sbx}
	d.m.envs[config.Sandbox].API = s
	d.m.envs[config.Live].API = &fakeSimulator{fakeAPI: d.live}
	return s
}

// withAccountTxs gives the first account of each environment Booked incoming transfers, which can be
// returned or recalled.
func withAccountTxs(d *driver) {
	d.sbx.txs["acc-0"] = makeTxs("acc-0", 3)
	d.live.txs["acc-0"] = makeTxs("acc-0", 3)
}

// TestGoldenSimulationMenus snapshots each screen's simulation menu at
// 80×24 and 120×40. Refresh with go test ./ui -run
// TestGoldenSimulationMenus -update.
func TestGoldenSimulationMenus(t *testing.T) {
	t.Parallel()
	scenes := []struct {
		name string
		keys []string
	}{
		{"account", []string{"enter", "s", "down", "down", "down"}},
		{"card", []string{"enter", "4", "enter", "s", "down"}},
		{"transaction", []string{"enter", "2", "enter", "s"}},
	}
	for _, sc := range scenes {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				d := newDriverWith(t, fixture{rows: 3, signedIn: true, w: sz[0], h: sz[1], color: true}, withAccountTxs)
				withSimulator(d)
				d.press(sc.keys...)
				golden.RequireEqual(t, asciiView(t, d))
			})
		}
	}
}

// Each menu offers what fits and runs the chosen simulation with the
// defaults on enter; on Live none is offered and s does nothing.
func TestSimulationMenusRunAndLiveHidesThem(t *testing.T) {
	t.Parallel()
	d := newDriverWith(t, fixture{rows: 3, signedIn: true, liveSigned: true}, withAccountTxs)
	sim := withSimulator(d)
	d.press("enter", "s", "down", "down", "enter")
	d.wantScreen("Charged a fee of 10.00 EUR")
	d.press("4", "enter", "s", "enter")
	d.wantScreen("Authorized 25.00 EUR on the card")
	d.press("esc", "2", "enter", "s", "down", "enter")
	d.wantScreen("Recalled the transfer")
	if want := []string{"fee", "authorize", "recall"}; fmt.Sprint(sim.ran) != fmt.Sprint(want) {
		t.Fatalf("ran %v, want %v", sim.ran, want)
	}
	// Live: the card and the transaction offer nothing.
	d.press("esc", "esc", "e", "y", "enter", "4", "enter", "s")
	if d.m.env.Name != config.Live {
		t.Fatal("not on Live")
	}
	card, ok := d.m.top().(*cardScreen)
	if !ok {
		t.Fatalf("top is %T, not a card", d.m.top())
	}
	if card.capturing() || hasKey(card.ShortHelp(), "s") {
		t.Fatal("a simulation is offered on Live's card")
	}
	d.press("esc", "2", "enter", "s")
	tx, ok := d.m.top().(*txDetailScreen)
	if !ok {
		t.Fatalf("top is %T, not a transaction", d.m.top())
	}
	if tx.capturing() || hasKey(tx.ShortHelp(), "s") {
		t.Fatal("a simulation is offered on Live's transaction")
	}
}

// hasKey reports whether an enabled binding of bs is k.
func hasKey(bs []key.Binding, k string) bool {
	for _, b := range bs {
		if b.Enabled() && b.Help().Key == k {
			return true
		}
	}
	return false
}
