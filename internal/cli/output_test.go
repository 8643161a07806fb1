package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/safetext"
)

// sampleAccounts are accounts as the API client hands them out: the hostile
// name has been through safetext.StripFields, as every decoded response is.
func sampleAccounts() []api.Account {
	accounts := []api.Account{
		{ID: "acc-1", Name: "Compte principal", IBAN: "FR7630006000011234567890189", BIC: "SWNBFR22", Currency: "EUR",
			StatusInfo: api.StatusInfo{Status: "Opened"}, Holder: api.Holder{Info: api.HolderInfo{Name: "Marie Dupont"}},
			Balances: &api.Balances{Available: api.Amount{Value: "1250.00", Currency: "EUR"}}},
		{ID: "acc-2", Name: "東京 savings \x1b]0;pwn\x07", Currency: "EUR",
			StatusInfo: api.StatusInfo{Status: "Suspended"}, Holder: api.Holder{Info: api.HolderInfo{Name: "ACME"}}},
	}
	safetext.StripFields(&accounts)
	return accounts
}

// writeList writes items with the list writer for f, as one page.
func writeList[T any](t *testing.T, f listFormat, cols []column[T], items []T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	w := newItemWriter(&buf, f, cols, 100)
	if err := w.write(items); err != nil {
		t.Fatal(err)
	}
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

func TestWriteAccountsJSON(t *testing.T) {
	t.Parallel()
	buf := writeList(t, formatJSON, accountColumns(), sampleAccounts())
	var got []map[string]any
	dec := json.NewDecoder(buf)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value written")
	}
	if len(got) != 2 {
		t.Fatalf("got %d objects", len(got))
	}
	for _, k := range []string{"id", "name", "IBAN", "BIC", "currency", "statusInfo", "holder", "balances"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("missing schema field %q in %v", k, got[0])
		}
	}
	if got[0]["balances"].(map[string]any)["available"].(map[string]any)["value"] != "1250.00" {
		t.Errorf("balances = %v", got[0]["balances"])
	}
	if got[1]["balances"] != nil {
		t.Errorf("null balances written as %v", got[1]["balances"])
	}
	if _, ok := got[0]["createdAt"]; ok {
		t.Error("zero createdAt written")
	}

	if empty := writeList(t, formatJSON, accountColumns(), nil); empty.String() != "[]\n" {
		t.Errorf("empty list = %q", empty.String())
	}
}

func TestWriteAccountJSON(t *testing.T) {
	t.Parallel()
	a := api.AccountDetail{Account: sampleAccounts()[0]}
	a.CreatedAt = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	a.Number = "12345678901"
	a.StatusDetail = api.AccountStatusDetail{Status: "Opened"}
	var buf bytes.Buffer
	if err := writeJSON(&buf, &a); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got["createdAt"] != "2025-01-02T03:04:05Z" || got["number"] != "12345678901" || got["IBAN"] != a.IBAN {
		t.Errorf("object = %v", got)
	}
	if st, _ := got["statusInfo"].(map[string]any); st["status"] != "Opened" {
		t.Errorf("statusInfo = %v", got["statusInfo"])
	}
}

func TestWriteAccountsTableIsAligned(t *testing.T) {
	t.Parallel()
	out := writeList(t, formatTable, accountColumns(), sampleAccounts()).String()
	if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) {
		t.Fatalf("escape sequences reached the table: %q", out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("lines = %q", lines)
	}
	if !strings.Contains(lines[1], "FR76 3000 6000 0112 3456 7890 189") || !strings.Contains(lines[1], "1250.00 EUR") {
		t.Errorf("row = %q", lines[1])
	}
	// Columns start at the same display cell on every line.
	col := func(line, word string) int { return ansi.StringWidth(line[:strings.Index(line, word)]) }
	if col(lines[0], "STATUS") != col(lines[1], "Opened") || col(lines[1], "Opened") != col(lines[2], "Suspended") {
		t.Errorf("STATUS column misaligned:\n%s", out)
	}
	if col(lines[0], "HOLDER") != col(lines[1], "Marie") || col(lines[1], "Marie") != col(lines[2], "ACME") {
		t.Errorf("HOLDER column misaligned:\n%s", out)
	}
	// Amounts are right-aligned: they end at the same cell.
	end := func(line, word string) int { return col(line, word) + ansi.StringWidth(word) }
	if end(lines[0], "AVAILABLE") != end(lines[1], "1250.00 EUR") {
		t.Errorf("AVAILABLE column misaligned:\n%s", out)
	}
}

func accountDetail() *api.AccountDetail {
	a := &api.AccountDetail{Account: sampleAccounts()[0]}
	a.HolderDetail = api.HolderDetail{ID: "h-1", VerificationStatus: "Verified", Info: api.HolderInfoDetail{Type: "Individual", Name: "Marie Dupont"},
		ResidencyAddress: &api.Address{AddressLine1: "1 rue de la Paix", PostalCode: "75002", City: "Paris", Country: "FRA"}}
	a.StatusDetail = api.AccountStatusDetail{Status: "Suspended", ReasonInfo: &api.StatusReason{Type: "ComplianceReason", Message: "KYC review"}}
	a.UpdatedAt = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	a.Membership = &api.AccountMembership{CanViewAccount: true, CanInitiatePayments: true, StatusInfo: api.MembershipStatusInfo{Status: "Enabled"}}
	return a
}

func TestWriteAccountDetail(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := writeAccountDetail(&buf, accountDetail()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"IBAN           FR76 3000", "Holder         Marie Dupont (Individual, Verified)", "Available      1250.00 EUR",
		"Updated        2025-03-01 00:00 UTC", "Number         -", "Status         Suspended: ComplianceReason KYC review",
		"Address        1 rue de la Paix, 75002 Paris, FRA", "Your rights    V · P · ·  (Enabled)"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
}

// TestHiddenIBANSaysWhy: a null IBAN is explained, not left blank.
func TestHiddenIBANSaysWhy(t *testing.T) {
	t.Parallel()
	a := accountDetail()
	a.IBAN = ""
	a.PaymentLevel = "Limited"
	a.Membership.CanViewAccount = false
	var buf bytes.Buffer
	if err := writeAccountDetail(&buf, a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "IBAN           hidden: the account's payment level is Limited and your membership lacks the canViewAccount right") {
		t.Errorf("detail:\n%s", buf.String())
	}
}

func TestMarks(t *testing.T) {
	t.Parallel()
	m := &api.AccountMembership{CanViewAccount: true, CanInitiatePayments: true, CanManageCards: true}
	if got := rightsGrid(m); got != "V · P · C" {
		t.Errorf("rightsGrid = %q, want %q", got, "V · P · C")
	}
	if got := cardOptions(&api.Card{International: true}); got != "· I ·" {
		t.Errorf("cardOptions = %q, want %q", got, "· I ·")
	}
}
