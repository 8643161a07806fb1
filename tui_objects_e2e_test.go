package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/internal/testkit/reference"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

// graphqlLines counts the GraphQL requests an emulator's --request-log
// holds and names their operations.
func graphqlLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ops []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r struct {
			Endpoint  string `json:"endpoint"`
			Operation string `json:"operation_name"`
		}
		if json.Unmarshal(sc.Bytes(), &r) == nil && strings.Contains(r.Endpoint, "graphql") {
			ops = append(ops, r.Operation)
		}
	}
	return ops
}

// TestTmuxAccountObjects is issue 28's end-to-end test, the real binary
// on an emulator serving the platform's public schemas: on an account's
// Virtual IBANs tab n then y adds one, listed first within four requests
// of the key, and x then y cancels one; on its Upcoming tab, x then y
// cancels a standing order; on its Beneficiaries tab, enter shows a
// beneficiary's transfers with their payee verification.
func TestTmuxAccountObjects(t *testing.T) {
	tm := newTmux(t)
	bin := realBinary.Path(t)
	reqLog := filepath.Join(tm.tmpdir, "requests.jsonl")
	emu := startEmulatorProcess(t, bin, 20, "1000000/1m", "--request-log", reqLog,
		"--schema", reference.Path(t, reference.PartnerSchema), "--schema", reference.Path(t, reference.TestingSchema))
	cfgPath := writeUserConfig(t, filepath.Join(tm.tmpdir, "config.toml"), emu, "")
	cfg, _, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	env := cfg.Env(config.Sandbox)
	sess := signin.Session(t, emu.kit, env, filepath.Join(os.Getenv("XDG_STATE_HOME"), "partnertui"))
	user, err := api.New(api.Options{Env: "sandbox", GraphQLURL: env.GraphQLURL(), TestingURL: env.TestingGraphQLURL(), TokenSource: sess.TokenSource()})
	if err != nil {
		t.Fatal(err)
	}
	defer user.Close()
	ctx := context.Background()
	page, err := user.Accounts(ctx, api.AccountsParams{First: 50, Status: []string{"Opened"}})
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("no opened account: %v", err)
	}
	accountID := page.Items[0].ID

	tm.start(120, 40, bin, "--config", cfgPath)
	tm.waitFor("account list", "Accounts", "row 1 of")
	tm.keys(":")
	tm.waitFor("palette", "accounts  transactions  members  cards")
	tm.keys("account "+accountID, "Enter")
	tm.waitFor("the account", "Your rights", "tab/1-8 to change")

	// Add a virtual IBAN: the mutation and the list read again.
	tm.keys("6")
	tm.waitFor("the virtual IBANs", "IBAN", "SDD", "row 1 of")
	before := len(graphqlLines(t, reqLog))
	tm.keys("n")
	tm.waitFor("the question", "Add a virtual IBAN to this account?", "y confirm")
	tm.keys("y")
	tm.waitFor("the IBAN added", "Added the virtual IBAN ")
	added := regexp.MustCompile(`Added the virtual IBAN ([A-Z0-9 ]+[0-9])`).FindStringSubmatch(tm.capture())
	if added == nil {
		t.Fatalf("the flash does not name the IBAN added:\n%s", tm.capture())
	}
	// The app's requests, up to its read of the list, before the test
	// reads the list itself.
	var ops []string
	if !poll(time.Minute, func() bool {
		ops = graphqlLines(t, reqLog)[before:]
		return slices.Contains(ops, api.OpVirtualIbans)
	}) {
		t.Fatalf("the list was not read again after the add: %q", ops)
	}
	list, err := user.VirtualIbans(ctx, api.VirtualIbansParams{AccountID: accountID})
	if err != nil || len(list.Items) == 0 || iban.Format(list.Items[0].IBAN) != added[1] {
		t.Fatalf("the platform lists first %+v (%v), the app added %s", list.Items, err, added[1])
	}
	tm.waitFor("the list with the IBAN added first", fmt.Sprintf("row 1 of %d/%d", list.TotalCount, list.TotalCount))
	if len(ops) > 4 || ops[0] != api.OpAddVirtualIbanEntry {
		t.Fatalf("from n to the updated list: %q, want the mutation and at most 4 requests", ops)
	}
	t.Logf("from n to the updated list: %d requests %q", len(ops), ops)

	// Cancel an Enabled one.
	i := slices.IndexFunc(list.Items, func(v api.VirtualIban) bool { return v.Status == "Enabled" })
	if i < 0 {
		t.Fatal("no Enabled virtual IBAN to cancel")
	}
	for range i {
		tm.keys("j")
	}
	shown := iban.Format(list.Items[i].IBAN)
	tm.keys("x")
	tm.waitFor("the question", "Cancel the virtual IBAN "+shown+"?")
	before = len(graphqlLines(t, reqLog))
	tm.keys("y")
	tm.waitFor("the IBAN canceled", "The virtual IBAN "+shown+" is Canceled")
	if !poll(time.Minute, func() bool {
		ops = graphqlLines(t, reqLog)[before:]
		return slices.Contains(ops, api.OpVirtualIbans)
	}) || len(ops) > 4 || ops[0] != api.OpCancelVirtualIbanEntry {
		t.Fatalf("from y to the updated list: %q", ops)
	}
	t.Logf("from y to the updated list: %d requests %q", len(ops), ops)

	// Cancel a standing order.
	orders, err := user.StandingOrders(ctx, api.StandingOrdersParams{AccountID: accountID, OrderBy: api.OrderCreatedAt, Direction: api.DirectionDesc})
	if err != nil {
		t.Fatal(err)
	}
	j := slices.IndexFunc(orders.Items, func(o api.StandingOrder) bool { return o.StatusInfo.Status != "Canceled" })
	if j < 0 {
		t.Fatal("no standing order to cancel")
	}
	tm.keys("7")
	tm.waitFor("the upcoming tab", "Upcoming transactions (", "Standing orders (")
	tm.keys("o")
	tm.waitFor("the standing orders", "Beneficiary · label", "o upcoming transactions")
	for range j {
		tm.keys("j")
	}
	tm.keys("x")
	tm.waitFor("the question", "Cancel the standing order ")
	tm.keys("y")
	tm.waitFor("the order canceled", " is Canceled")
	if o, err := user.StandingOrder(ctx, orders.Items[j].ID); err != nil || o.StatusInfo.Status != "Canceled" {
		t.Fatalf("the order is read back %+v, %v", o, err)
	}

	// A beneficiary's transfers.
	tm.keys("8")
	tm.waitFor("the beneficiaries", "IBAN or route", "row 1 of")
	tm.keys("Enter")
	tm.waitFor("a beneficiary's transfers", "Transfers (", "Payee check", "enter open transfer")
	tm.keys("q")
	tm.waitExit()
}
