package api

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Sanitize makes a server-supplied string safe to draw on a terminal: it
// removes ANSI escape sequences (CSI, OSC, DCS, APC, …), every C0 and C1
// control (whitespace controls become a space so words stay apart), DEL,
// bidirectional overrides (they reorder what the user reads) and invalid
// UTF-8, and keeps all printable Unicode.
func Sanitize(s string) string {
	if printableASCII(s) {
		return s // the common case: no allocation
	}
	s = ansi.Strip(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' ||
			r == '\u2028' || r == '\u2029' || r == '\u0085':
			b.WriteByte(' ')
		case r == '\u009b':
			// C1 CSI: drop it with its parameters and final byte, as a
			// terminal honouring 8-bit controls would consume them.
			i = skipCSI(s, i)
		case r == '\u0090' || r == '\u0098' || r == '\u009d' || r == '\u009e' || r == '\u009f':
			// C1 DCS, SOS, OSC, PM, APC: drop through the terminator.
			i = skipString(s, i)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			// C0, DEL, the other C1 controls: dropped.
		case (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u200e' || r == '\u200f':
			// bidi embeddings, overrides and isolates: dropped.
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// skipCSI returns the index after a CSI sequence's final byte (0x40-0x7E),
// starting just after the introducer.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 || c > 0x7e {
			return i - 1 // not a CSI byte: stop before it and let the caller judge it
		}
	}
	return i
}

// skipString returns the index after a control string's terminator: ST
// (U+009C or ESC \\) or BEL; an unterminated string runs to the end.
func skipString(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\u009c' || r == '\a':
			return i + size
		case r == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		}
		i += size
	}
	return i
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

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
