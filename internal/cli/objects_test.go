package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/testkit"
)

// decodeList runs a list command with --json and decodes its array,
// which must hold something.
func decodeList[T any](t *testing.T, args ...string) []T {
	t.Helper()
	items := decodeAny[T](t, args...)
	if len(items) == 0 {
		t.Fatalf("%v listed nothing", args)
	}
	return items
}

// decodeAny runs a list command with --json and decodes its array.
func decodeAny[T any](t *testing.T, args ...string) []T {
	t.Helper()
	code, out, errOut := runCLI(t, append(args, "--json")...)
	if code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var items []T
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("%v: the output is not one JSON array: %v\n%s", args, err, out)
	}
	return items
}

// tableEndsWithID runs a list command as a table and checks that its last
// column is the ID and that id is on a row.
func tableEndsWithID(t *testing.T, id string, args ...string) {
	t.Helper()
	code, out, errOut := runCLI(t, args...)
	if code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if f := strings.Fields(lines[0]); f[len(f)-1] != "ID" {
		t.Errorf("%v: header %q does not end with ID", args, lines[0])
	}
	if !strings.Contains(out, id) {
		t.Errorf("%v: the table lacks %s:\n%s", args, id, out)
	}
}

// Every command of the account's other objects lists them, as JSON, JSON
// lines and a table, on both environments of the modelled emulator, and
// a list of one account refuses to run without it.
func TestObjectCommandsListThem(t *testing.T) {
	t.Parallel()
	home := homeOf(t).Dir
	e := testkit.StartEmulator(t, emulator.Options{Accounts: 10})
	cfg := home + "/objects.toml"
	e.WriteConfig(t, cfg, testkit.Config{Token: "project", Envs: []config.EnvName{config.Sandbox, config.Live}})
	for _, env := range []string{"sandbox", "live"} {
		base := []string{"--config", cfg, "--env", env}
		// The account is the first with virtual IBANs, standing orders and
		// beneficiaries.
		acct := ""
		for _, a := range decodeList[api.Account](t, append([]string{"accounts"}, base...)...) {
			on := append([]string{"--account", a.ID}, base...)
			if len(decodeAny[api.VirtualIban](t, append([]string{"virtual-ibans"}, on...)...)) > 0 &&
				len(decodeAny[api.StandingOrder](t, append([]string{"standing-orders"}, on...)...)) > 0 &&
				len(decodeAny[api.Beneficiary](t, append([]string{"beneficiaries"}, on...)...)) > 0 {
				acct = a.ID
				break
			}
		}
		if acct == "" {
			t.Fatalf("%s: no account has virtual IBANs, standing orders and beneficiaries", env)
		}
		onAccount := append([]string{"--account", acct}, base...)

		vi := decodeList[api.VirtualIban](t, append([]string{"virtual-ibans"}, onAccount...)...)
		if vi[0].IBAN == "" || vi[0].Status == "" {
			t.Errorf("%s virtual-ibans: %+v", env, vi[0])
		}
		tableEndsWithID(t, vi[0].ID, append([]string{"virtual-ibans"}, onAccount...)...)
		so := decodeList[api.StandingOrder](t, append([]string{"standing-orders"}, onAccount...)...)
		tableEndsWithID(t, so[0].ID, append([]string{"standing-orders"}, onAccount...)...)
		be := decodeList[api.Beneficiary](t, append([]string{"beneficiaries", "--all"}, onAccount...)...)
		tableEndsWithID(t, be[0].ID, append([]string{"beneficiaries"}, onAccount...)...)

		ho := decodeList[api.AccountHolder](t, append([]string{"account-holders"}, base...)...)
		if ho[0].VerificationStatusInfo.Status == "" {
			t.Errorf("%s account-holders: %+v", env, ho[0])
		}
		tableEndsWithID(t, ho[0].ID, append([]string{"account-holders"}, base...)...)
		on := decodeList[api.Onboarding](t, append([]string{"onboardings"}, base...)...)
		tableEndsWithID(t, on[0].ID, append([]string{"onboardings"}, base...)...)
		cd := decodeList[api.CapitalDeposit](t, append([]string{"capital-deposits"}, base...)...)
		tableEndsWithID(t, cd[0].ID, append([]string{"capital-deposits"}, base...)...)
		mp := decodeList[api.MerchantProfile](t, append([]string{"merchant-profiles"}, base...)...)
		tableEndsWithID(t, mp[0].ID, append([]string{"merchant-profiles"}, base...)...)
		pl := decodeList[api.PaymentLink](t, append([]string{"payment-links", mp[0].ID}, base...)...)
		tableEndsWithID(t, pl[0].ID, append([]string{"payment-links", mp[0].ID}, base...)...)

		code, out, errOut := runCLI(t, append([]string{"virtual-ibans", "--jsonl"}, onAccount...)...)
		if code != ExitOK || strings.Count(out, "\n") != len(vi) {
			t.Errorf("%s virtual-ibans --jsonl: exit %d, %d lines for %d items: %s", env, code, strings.Count(out, "\n"), len(vi), errOut)
		}
	}
	var ops []string
	for _, r := range e.Log.Requests(t) {
		if r.Status != 200 {
			t.Errorf("%s was answered %d", r.Operation, r.Status)
		}
		ops = append(ops, r.Operation)
	}
	for _, op := range []string{api.OpVirtualIbans, api.OpStandingOrders, api.OpBeneficiaries, api.OpAccountHolders,
		api.OpOnboardings, api.OpCapitalDeposits, api.OpMerchantProfiles, api.OpPaymentLinks} {
		if !strings.Contains(strings.Join(ops, " "), op) {
			t.Errorf("no %s was sent", op)
		}
	}
}

// A list of one account's objects without --account, or with a status
// the platform does not have, is a usage error that says what to do, and
// nothing is sent.
func TestObjectCommandsUsageErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"virtual-ibans"}, "virtual-ibans needs --account ID: run `partnertui accounts` to find one"},
		{[]string{"standing-orders"}, "standing-orders needs --account ID"},
		{[]string{"beneficiaries", "--account", "a", "--type", "Swift"}, "--type"},
		{[]string{"account-holders", "--verification", "Done"}, "--verification"},
		{[]string{"onboardings", "--status", "Ongoing"}, "--status"},
		{[]string{"capital-deposits", "--status", "Initiated"}, "--status"},
		{[]string{"merchant-profiles", "--status", "Active"}, "--status"},
		{[]string{"payment-links"}, "payment-links needs exactly one merchant profile ID: run `partnertui merchant-profiles` to find one"},
	} {
		code, _, errOut := runCLI(t, append(c.args, "--demo")...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, ExitUsage, c.want)
		}
	}
}
