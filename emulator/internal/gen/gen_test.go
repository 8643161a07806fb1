package gen

import (
	"math/big"
	"regexp"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/partnertui/partnertui/emulator/internal/exec"
)

const sdl = `
type Query { order(id: ID!): Order orders(first: Int! = 50, after: String, before: String, offset: Int): OrderConnection! }
type Mutation {
  scheduleOrder(input: ScheduleOrderInput!): ScheduleOrderPayload!
  cancelOrder(input: CancelOrderInput!): CancelOrderPayload!
}
input ScheduleOrderInput { accountId: String! label: String amount: AmountInput iban: String }
input CancelOrderInput { orderId: String! }
input AmountInput { value: AmountValue! currency: Currency! }
union ScheduleOrderPayload = ScheduleOrderSuccessPayload | ForbiddenRejection
union CancelOrderPayload = CancelOrderSuccessPayload | ForbiddenRejection
interface Rejection { message: String! }
type ForbiddenRejection implements Rejection { message: String! }
type ScheduleOrderSuccessPayload { order: Order! }
type CancelOrderSuccessPayload { order: Order! }
type Account { id: ID! orders(first: Int! = 50, after: String): OrderConnection! }
type Order { id: ID! label: String amount: Amount iban: IBAN creditorIdentifier: SepaCreditorIdentifier createdAt: DateTime! updatedAt: DateTime! statusInfo: OrderStatusInfo! account: Account! }
type Amount { value: AmountValue! currency: Currency! }
interface OrderStatusInfo { status: OrderStatus! }
type OrderEnabledStatusInfo implements OrderStatusInfo { status: OrderStatus! }
type OrderCanceledStatusInfo implements OrderStatusInfo { status: OrderStatus! }
enum OrderStatus { Enabled Canceling Canceled Old @deprecated }
type OrderConnection { totalCount: Int! pageInfo: PageInfo! edges: [OrderEdge!]! }
type OrderEdge { cursor: String! node: Order! }
type PageInfo { hasNextPage: Boolean hasPreviousPage: Boolean startCursor: String endCursor: String }
scalar IBAN
scalar AmountValue
scalar Currency
scalar DateTime
scalar SepaCreditorIdentifier
`

func world(t *testing.T) *World {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Input: sdl})
	if err != nil {
		t.Fatal(err)
	}
	return New(exec.NewSchema(s), 7)
}

// mod97 is an IBAN's (or creditor identifier's) remainder, letters as
// numbers, once its first four characters are moved to the end.
func mod97(s string) int64 {
	var b strings.Builder
	for _, c := range s[4:] + s[:4] {
		if c >= 'A' && c <= 'Z' {
			b.WriteString(big.NewInt(int64(c-'A') + 10).String())
		} else {
			b.WriteRune(c)
		}
	}
	n, _ := new(big.Int).SetString(b.String(), 10)
	return new(big.Int).Mod(n, big.NewInt(97)).Int64()
}

func TestLeavesAreRealistic(t *testing.T) {
	t.Parallel()
	w := world(t)
	for i := range 200 {
		o := w.NewObject("Order", "", uint64(i)*7919)
		get := func(name string) any {
			v, err := w.Field(o, w.schema.Field(w.schema.Types["Order"], name), nil)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		iban := get("iban").(string)
		if !regexp.MustCompile(`^FR\d{25}$`).MatchString(iban) || mod97(iban) != 1 {
			t.Fatalf("IBAN %s has wrong check digits", iban)
		}
		ci := get("creditorIdentifier").(string)
		if national := ci[7:]; mod97(ci[:4]+national) != 1 || ci[4:7] != "ZZZ" {
			t.Fatalf("creditor identifier %s has wrong check digits", ci)
		}
		created, updated := get("createdAt").(string), get("updatedAt").(string)
		if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$`).MatchString(created) || updated < created {
			t.Fatalf("dates %s, %s", created, updated)
		}
		info := get("statusInfo").(*Object)
		st, _ := w.Field(info, w.schema.Field(w.schema.Types[info.Type], "status"), nil)
		if !strings.Contains(info.Type, st.(string)) || st == "Old" {
			t.Fatalf("a %s has status %v", info.Type, st)
		}
		amount := get("amount").(*Object)
		v, _ := w.Field(amount, w.schema.Field(w.schema.Types["Amount"], "value"), nil)
		if !regexp.MustCompile(`^\d+\.\d\d$`).MatchString(v.(string)) {
			t.Fatalf("amount %v", v)
		}
	}
}

func TestSameWorldSameValues(t *testing.T) {
	t.Parallel()
	a, b := world(t), world(t)
	oa, ob := a.NewObject("Order", "o-1", 0), b.NewObject("Order", "o-1", 99)
	for _, f := range []string{"label", "iban", "createdAt"} {
		va, _ := a.Field(oa, a.schema.Field(a.schema.Types["Order"], f), nil)
		vb, _ := b.Field(ob, b.schema.Field(b.schema.Types["Order"], f), nil)
		if va != vb {
			t.Errorf("%s: %v and %v for the same order", f, va, vb)
		}
	}
	other, _ := a.Field(a.NewObject("Order", "o-2", 0), a.schema.Field(a.schema.Types["Order"], "iban"), nil)
	same, _ := a.Field(oa, a.schema.Field(a.schema.Types["Order"], "iban"), nil)
	if other == same {
		t.Error("two orders share an IBAN")
	}
}

func TestConnectionsPage(t *testing.T) {
	t.Parallel()
	w := world(t)
	f := w.schema.Query.Fields.ForName("orders")
	page := func(args map[string]any) (*Object, int, []any) {
		v, err := w.Query(f, args)
		if err != nil {
			t.Fatal(err)
		}
		o := v.(*Object)
		return o, int(o.set["totalCount"].(int32)), o.set["edges"].([]any)
	}
	_, total, all := page(map[string]any{"first": int32(100)})
	if total < 1 || len(all) != total {
		t.Fatalf("total %d, %d edges", total, len(all))
	}
	first, _, edges := page(map[string]any{"first": int32(2)})
	info := first.set["pageInfo"].(*Object).set
	if len(edges) != min(2, total) || info["hasNextPage"] != (total > 2) || info["hasPreviousPage"] != false {
		t.Fatalf("first page: %d edges, %v", len(edges), info)
	}
	after := info["endCursor"].(string)
	_, _, next := page(map[string]any{"first": int32(2), "after": after})
	if total > 2 && next[0].(*Object).set["node"].(*Object).ID != all[2].(*Object).set["node"].(*Object).ID {
		t.Error("the page after the first does not start with the third")
	}
	if _, err := w.Query(f, map[string]any{"first": int32(2), "after": "nope"}); err == nil {
		t.Error("a bad cursor was accepted")
	}
	if _, err := w.Query(f, map[string]any{"first": int32(101)}); err == nil {
		t.Error("first 101 was accepted")
	}
}

func TestMutationsCreateAndCancel(t *testing.T) {
	t.Parallel()
	w := world(t)
	m, err := w.Mutate(w.schema.Mutation.Fields.ForName("scheduleOrder"), map[string]any{"input": map[string]any{
		"accountId": "acc-1", "label": "Rent", "amount": map[string]any{"value": "12.50", "currency": "EUR"}}})
	if err != nil {
		t.Fatal(err)
	}
	o := m.Target
	if !m.Created || o.Type != "Order" || o.set["label"] != "Rent" || o.set["amount"].(*Object).set["value"] != "12.50" {
		t.Fatalf("created %+v", o)
	}
	if acc, ok := o.set["account"].(*Object); !ok || acc.ID != "acc-1" {
		t.Errorf("the order's account is %+v, want acc-1 named by accountId", o.set["account"])
	}
	if got, ok := w.Store().Lookup("Order", o.ID); !ok || got != o {
		t.Error("the order is not stored by its id")
	}
	if kids := w.store.children("Account", "acc-1", "orders", "Order"); len(kids) != 1 || kids[0] != o {
		t.Errorf("acc-1's orders: %v", kids)
	}
	c, err := w.Mutate(w.schema.Mutation.Fields.ForName("cancelOrder"), map[string]any{"input": map[string]any{"orderId": o.ID}})
	if err != nil {
		t.Fatal(err)
	}
	info := o.set["statusInfo"].(*Object)
	if c.Target != o || c.Status != "Canceled" || info.Type != "OrderCanceledStatusInfo" || info.set["status"] != "Canceled" {
		t.Errorf("canceled: %+v, status %s, info %+v", c.Target, c.Status, info)
	}
	// A second run of the same mutations creates the same id.
	w2 := world(t)
	m2, _ := w2.Mutate(w2.schema.Mutation.Fields.ForName("scheduleOrder"), map[string]any{"input": map[string]any{"accountId": "acc-1"}})
	if m2.Target.ID != o.ID {
		t.Errorf("ids %s and %s for the first order of two worlds of one seed", o.ID, m2.Target.ID)
	}
}
