package api

import "github.com/partnertui/partnertui/api/safetext"

// Sanitize makes a server-supplied string safe to draw on a terminal (see
// safetext.Strip): ANSI sequences, C0/C1 controls, DEL, bidi overrides and
// invalid UTF-8 go; printable Unicode stays.
func Sanitize(s string) string { return safetext.Strip(s) }

// The functions below sanitise every string field of each type that leaves
// the package. They are explicit on purpose: a new field must be added here,
// and TestSanitizeCoversEveryField fails until it is.

func sanitizeAmount(a *Amount) {
	a.Value = Sanitize(a.Value)
	a.Currency = Sanitize(a.Currency)
}

func sanitizeBalances(b *Balances) {
	if b == nil {
		return
	}
	sanitizeAmount(&b.Available)
	sanitizeAmount(&b.Booked)
	sanitizeAmount(&b.Pending)
	sanitizeAmount(&b.Reserved)
}

func sanitizeAccount(a *Account) {
	a.ID = Sanitize(a.ID)
	a.Number = Sanitize(a.Number)
	a.Name = Sanitize(a.Name)
	a.IBAN = Sanitize(a.IBAN)
	a.BIC = Sanitize(a.BIC)
	a.Currency = Sanitize(a.Currency)
	a.Country = Sanitize(a.Country)
	a.Language = Sanitize(a.Language)
	a.PaymentLevel = Sanitize(a.PaymentLevel)
	a.PaymentAccountType = Sanitize(a.PaymentAccountType)
	a.StatusInfo.Status = Sanitize(a.StatusInfo.Status)
	a.Holder.ID = Sanitize(a.Holder.ID)
	a.Holder.VerificationStatus = Sanitize(a.Holder.VerificationStatus)
	a.Holder.Info.Type = Sanitize(a.Holder.Info.Type)
	a.Holder.Info.Name = Sanitize(a.Holder.Info.Name)
	sanitizeBalances(a.Balances)
}

func sanitizePageInfo(p *PageInfo) {
	p.StartCursor = Sanitize(p.StartCursor)
	p.EndCursor = Sanitize(p.EndCursor)
}

func sanitizeUser(u *User) {
	u.ID = Sanitize(u.ID)
	u.FirstName = Sanitize(u.FirstName)
	u.LastName = Sanitize(u.LastName)
	u.FullName = Sanitize(u.FullName)
	u.MobilePhoneNumber = Sanitize(u.MobilePhoneNumber)
	u.BirthDate = Sanitize(u.BirthDate)
	u.Status = Sanitize(u.Status)
}

func sanitizeProjectInfo(p *ProjectInfo) {
	p.ID = Sanitize(p.ID)
	p.Name = Sanitize(p.Name)
	p.Type = Sanitize(p.Type)
	p.Status = Sanitize(p.Status)
}

func sanitizeTransaction(t *Transaction) {
	t.ID = Sanitize(t.ID)
	t.Reference = Sanitize(t.Reference)
	t.Side = Sanitize(t.Side)
	t.Type = Sanitize(t.Type)
	sanitizeAmount(&t.Amount)
	t.Label = Sanitize(t.Label)
	t.Counterparty = Sanitize(t.Counterparty)
	t.StatusInfo.Status = Sanitize(t.StatusInfo.Status)
}
