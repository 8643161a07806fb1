package emulator

import (
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// Merchants: profiles by status with their methods, links and payments,
// each payment one of the account's online card credits and its link the
// one it came through; a link created read back and told by its event.

const profileFields = `id merchantName accountId createdAt productType expectedMonthlyMerchantProcessingVolume expectedAverageBasket { value currency }
  statusInfo { __typename status }
  merchantPaymentMethods { __typename id type statusInfo { status } }
  merchantPaymentLinks(first: 50) { totalCount edges { node { id url label amount { value currency } statusInfo { __typename status } paymentMethods { id } } } }
  merchantPayments(first: 50) { totalCount edges { node { __typename id amount { value currency } statusInfo { status }
    balance { totalCaptured { value } availableToRefund { value } }
    paymentMethod { type } ... on CardMerchantPayment { paymentLink { id statusInfo { status } amount { value } } }
    transactions(first: 2) { edges { node { id type amount { value } paymentProduct } } } } } }`

type profileNode struct {
	ID, MerchantName, AccountID, CreatedAt, ProductType string
	ExpectedMonthlyMerchantProcessingVolume             string
	StatusInfo                                          struct {
		Typename string `json:"__typename"`
		Status   string
	}
	MerchantPaymentMethods []struct {
		Typename   string `json:"__typename"`
		ID, Type   string
		StatusInfo struct{ Status string }
	}
	MerchantPaymentLinks struct {
		TotalCount int
		Edges      []struct {
			Node struct {
				ID, URL, Label string
				Amount         struct{ Value, Currency string }
				StatusInfo     struct{ Status string }
				PaymentMethods []struct{ ID string }
			}
		}
	}
	MerchantPayments struct {
		TotalCount int
		Edges      []struct {
			Node struct {
				Typename   string `json:"__typename"`
				ID         string
				Amount     struct{ Value, Currency string }
				StatusInfo struct{ Status string }
				Balance    struct {
					TotalCaptured, AvailableToRefund struct{ Value string }
				}
				PaymentMethod struct{ Type string }
				PaymentLink   *struct {
					ID         string
					StatusInfo struct{ Status string }
					Amount     struct{ Value string }
				}
				Transactions struct {
					Edges []struct {
						Node struct {
							ID, Type, PaymentProduct string
							Amount                   struct{ Value string }
						}
					}
				}
			}
		}
	}
}

func (e *testEnv) profiles(filters map[string]any) []profileNode {
	e.t.Helper()
	var out struct {
		MerchantProfiles struct {
			TotalCount int
			Edges      []struct{ Node profileNode }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($f: MerchantProfileFiltersInput) { merchantProfiles(first: 100, filters: $f) { totalCount edges { node { `+profileFields+` } } } }`,
		map[string]any{"f": filters}, &out)
	var list []profileNode
	for _, ed := range out.MerchantProfiles.Edges {
		list = append(list, ed.Node)
	}
	return list
}

func TestMerchantsRead(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 60})
	list := e.profiles(nil)
	statuses, payments, completed := map[string]int{}, 0, 0
	for _, p := range list {
		statuses[p.StatusInfo.Status]++
		acc, ok := e.sandbox.Account(data.Viewer{Project: true}, p.AccountID)
		if !ok || acc.HolderType != "Company" || len(p.MerchantPaymentMethods) == 0 || p.MerchantPaymentMethods[0].Type != "Card" {
			t.Errorf("profile %+v", p)
		}
		for _, ed := range p.MerchantPayments.Edges {
			m := ed.Node
			payments++
			tx := m.Transactions.Edges
			if m.Typename != "CardMerchantPayment" || len(tx) != 1 || tx[0].Node.Type != "CardInCredit" || tx[0].Node.PaymentProduct != "OnlineCard" || tx[0].Node.Amount.Value != m.Amount.Value {
				t.Errorf("payment %+v", m)
			}
			if m.StatusInfo.Status == "Captured" && (m.Balance.TotalCaptured.Value != m.Amount.Value || m.Balance.AvailableToRefund.Value != m.Amount.Value) {
				t.Errorf("captured payment's balance %+v", m.Balance)
			}
			if l := m.PaymentLink; l != nil {
				completed++
				if l.StatusInfo.Status != "Completed" || l.Amount.Value != m.Amount.Value {
					t.Errorf("payment %s came through link %+v", m.ID, l)
				}
			}
			var one struct{ MerchantPayment struct{ ID string } }
			e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { merchantPayment(id: $id) { id } }`, map[string]any{"id": m.ID}, &one)
			if one.MerchantPayment.ID != m.ID {
				t.Errorf("merchantPayment(%s) = %+v", m.ID, one)
			}
		}
		if p.StatusInfo.Status != "Enabled" && p.StatusInfo.Status != "Suspended" && p.StatusInfo.Status != "Disabled" && p.MerchantPayments.TotalCount > 0 {
			t.Errorf("a %s profile received payments", p.StatusInfo.Status)
		}
		var byID struct{ MerchantProfile struct{ ID string } }
		e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { merchantProfile(id: $id) { id } }`, map[string]any{"id": p.ID}, &byID)
		if byID.MerchantProfile.ID != p.ID {
			t.Errorf("merchantProfile(%s) = %+v", p.ID, byID)
		}
	}
	if statuses["Enabled"] == 0 || payments == 0 || completed == 0 {
		t.Errorf("profiles %v, %d payments, %d through a link", statuses, payments, completed)
	}
	for _, p := range e.profiles(map[string]any{"status": []string{"PendingReview"}}) {
		if p.StatusInfo.Status != "PendingReview" {
			t.Errorf("filtered: %+v", p.StatusInfo)
		}
	}
}

func TestMerchantActions(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	var enabled, pending profileNode
	for _, p := range e.profiles(nil) {
		switch p.StatusInfo.Status {
		case "Enabled":
			enabled = p
		case "PendingReview":
			pending = p
		}
	}
	if enabled.ID == "" || pending.ID == "" {
		t.Fatal("the seed has no Enabled and PendingReview profiles")
	}
	card := enabled.MerchantPaymentMethods[0].ID
	type linkPayload struct {
		Typename            string `json:"__typename"`
		Message             string
		CurrentStatus       string
		MerchantPaymentLink struct {
			ID, URL, Label string
			StatusInfo     struct{ Status string }
		}
	}
	const opLink = `mutation($input: CreateMerchantPaymentLinkInput!) { createMerchantPaymentLink(input: $input) { __typename
	  ... on CreateMerchantPaymentLinkSuccessPayload { merchantPaymentLink { id url label statusInfo { status } } }
	  ... on MerchantProfileWrongStatusRejection { currentStatus }
	  ... on Rejection { message } } }`
	link := func(profile, method string) linkPayload {
		var out struct {
			L linkPayload `json:"createMerchantPaymentLink"`
		}
		e.mustData(pathSandbox, tokSandboxProject, opLink, map[string]any{"input": map[string]any{"merchantProfileId": profile, "amount": eur("49.90"),
			"label": "Workshop", "paymentMethodIds": []string{method}}}, &out)
		return out.L
	}
	l := link(enabled.ID, card)
	if l.Typename != "CreateMerchantPaymentLinkSuccessPayload" || l.MerchantPaymentLink.StatusInfo.Status != "Active" || l.MerchantPaymentLink.URL == "" {
		t.Fatalf("createMerchantPaymentLink answered %+v", l)
	}
	e.expectEvents(ev("MerchantPaymentLink.Created", l.MerchantPaymentLink.ID))
	var back struct {
		MerchantPaymentLink struct {
			ID, Label       string
			MerchantProfile struct{ ID string }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { merchantPaymentLink(id: $id) { id label merchantProfile { id } } }`, map[string]any{"id": l.MerchantPaymentLink.ID}, &back)
	if back.MerchantPaymentLink.Label != "Workshop" || back.MerchantPaymentLink.MerchantProfile.ID != enabled.ID {
		t.Errorf("read back %+v", back)
	}
	if got := e.profiles(map[string]any{"id": []string{enabled.ID}}); got[0].MerchantPaymentLinks.Edges[0].Node.ID != l.MerchantPaymentLink.ID {
		t.Errorf("the new link is not the profile's first")
	}
	if r := link(pending.ID, pending.MerchantPaymentMethods[0].ID); r.Typename != "MerchantProfileWrongStatusRejection" || r.CurrentStatus != "PendingReview" {
		t.Errorf("a link of a pending profile: %+v", r)
	}
}
