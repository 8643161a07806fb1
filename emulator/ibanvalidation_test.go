package emulator

import (
	"testing"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// IBAN validation: every IBAN the emulator gives out is valid, with its
// bank; a wrong length, structure, checksum or bank says which. The
// company registry finds a company account by its registration number.

func (e *testEnv) validateIBAN(iban string) (typ, code, bank, bic string) {
	e.t.Helper()
	var out struct {
		IbanValidation struct {
			Typename string `json:"__typename"`
			Iban     string
			Code     string
			Bank     struct{ Name, Bic string }
		}
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($iban: IBAN!) { ibanValidation(input: {iban: $iban}) { __typename
	  ... on ValidIban { iban accountNumber checksum bank { name nationalId bic address { city country } } reachability { sepaCreditTransfer sepaCreditTransferInst } }
	  ... on InvalidIban { iban code message } } }`, map[string]any{"iban": iban}, &out)
	v := out.IbanValidation
	return v.Typename, v.Code, v.Bank.Name, v.Bank.Bic
}

func TestIBANValidation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 30})
	for _, a := range e.sandbox.AllAccounts() {
		if typ, code, bank, bic := e.validateIBAN(a.IBAN); typ != "ValidIban" || bank != "Swan" || bic != a.BIC {
			t.Errorf("account IBAN %s (%s): %s %s %s %s", a.IBAN, a.Country, typ, code, bank, bic)
		}
		page, err := e.sandbox.VirtualIBANs(a, data.VirtualIBANQuery{First: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range page.Items {
			if typ, code, bank, _ := e.validateIBAN(v.IBAN); typ != "ValidIban" || bank != "Swan" {
				t.Errorf("virtual IBAN %s: %s %s %s", v.IBAN, typ, code, bank)
			}
		}
	}
	for iban, want := range map[string]string{
		"FR7630006000011234567890189": "Crédit Agricole", "DE89370400440532013000": "Commerzbank", "ES9121000418450200051332": "CaixaBank",
		"IT60X0542811101000000123456": "Banco BPM", "NL91ABNA0417164300": "ABN AMRO", "BE68539007547034": "Belfius",
	} {
		if typ, _, bank, _ := e.validateIBAN(iban); typ != "ValidIban" || bank != want {
			t.Errorf("%s: %s %s, want %s", iban, typ, bank, want)
		}
	}
	for iban, want := range map[string]string{
		"FR7630006000011234567890188": "InvalidChecksum",
		"FR763000600001123456789018":  "InvalidLength",
		"F17630006000011234567890189": "InvalidStructure",
		"GB82WEST12345698765432":      "InvalidBank",
	} {
		if typ, code, _, _ := e.validateIBAN(iban); typ != "InvalidIban" || code != want {
			t.Errorf("%s: %s %s, want %s", iban, typ, code, want)
		}
	}
	// The registry.
	co := e.accountWhere(func(a *data.Account) bool { return a.HolderType == "Company" && a.Country == "FRA" })
	var out struct {
		PublicCompanyInfoRegistryData *struct{ RegistrationNumber, Name, VatNumber string }
	}
	const op = `query($n: String!) { publicCompanyInfoRegistryData(input: {registrationNumber: $n, residencyAddressCountry: FRA}) { registrationNumber name vatNumber } }`
	e.mustData(pathSandbox, tokSandboxProject, op, map[string]any{"n": co.RegistrationNumber}, &out)
	if c := out.PublicCompanyInfoRegistryData; c == nil || c.Name != co.HolderName || c.VatNumber != co.VATNumber {
		t.Errorf("registry of %s: %+v", co.RegistrationNumber, c)
	}
	e.mustData(pathSandbox, tokSandboxProject, op, map[string]any{"n": "000000000"}, &out)
	if out.PublicCompanyInfoRegistryData != nil {
		t.Errorf("an unknown company: %+v", out.PublicCompanyInfoRegistryData)
	}
}
