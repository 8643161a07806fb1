package gql

import "github.com/partnertui/partnertui/emulator/internal/data"

// ibanCheckR is a ValidIban or an InvalidIban.
type ibanCheckR struct{ c data.IBANCheck }

func (i *ibanCheckR) Iban() scalar                       { return scalar(i.c.IBAN) }
func (i *ibanCheckR) Code() string                       { return i.c.Invalid }
func (i *ibanCheckR) Message() string                    { return i.c.Message }
func (i *ibanCheckR) AccountNumber() string              { return i.c.AccountNumber }
func (i *ibanCheckR) Checksum() string                   { return i.c.Checksum }
func (i *ibanCheckR) Bank() *bankR                       { return &bankR{b: i.c.Bank} }
func (i *ibanCheckR) Reachability() *ibanCheckR          { return i }
func (i *ibanCheckR) SepaCreditTransfer() bool           { return true }
func (i *ibanCheckR) SepaCreditTransferInst() bool       { return i.c.Instant }
func (i *ibanCheckR) SepaDirectDebitCore() bool          { return true }
func (i *ibanCheckR) SepaDirectDebitB2b() bool           { return true }
func (i *ibanCheckR) ToValidIban() (*ibanCheckR, bool)   { return i, i.c.Invalid == "" }
func (i *ibanCheckR) ToInvalidIban() (*ibanCheckR, bool) { return i, i.c.Invalid != "" }

// bankR is a Bank.
type bankR struct{ b data.Bank }

func (b *bankR) Name() string       { return b.b.Name }
func (b *bankR) Branch() *string    { return nil }
func (b *bankR) NationalID() string { return b.b.NationalID }
func (b *bankR) Bic() scalar        { return scalar(b.b.BIC) }
func (b *bankR) Address() *addressR { return &addressR{a: b.b.Address} }

// IbanValidation validates an IBAN; without one there is nothing to say.
func (r *partnerResolver) IbanValidation(args struct{ Input *struct{ Iban scalar } }) *ibanCheckR {
	if args.Input == nil {
		return nil
	}
	return &ibanCheckR{c: data.ValidateIBAN(string(args.Input.Iban))}
}
