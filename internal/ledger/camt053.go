package ledger

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Camt053Namespace is the ISO 20022 message the camt.053 export writes:
// BankToCustomerStatement, version 8 (the 2019 message set the EPC's SEPA
// rulebooks use).
const Camt053Namespace = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"

// Account is the account a statement is about.
type Account struct {
	ID, Name, IBAN, BIC, Currency, Holder string
}

// camtAmt is an ActiveOrHistoricCurrencyAndAmount: positive, the side in
// the CdtDbtInd beside it.
type camtAmt struct {
	Ccy   string `xml:"Ccy,attr"`
	Value string `xml:",chardata"`
}

type camtBal struct {
	XMLName xml.Name `xml:"Bal"`
	Tp      string   `xml:"Tp>CdOrPrtry>Cd"` // OPBD | CLBD
	Amt     camtAmt  `xml:"Amt"`
	Ind     string   `xml:"CdtDbtInd"` // CRDT | DBIT
	Dt      string   `xml:"Dt>Dt"`
}

type camtNumSum struct {
	Nb  int    `xml:"NbOfNtries"`
	Sum string `xml:"Sum"`
}

type camtSummary struct {
	XMLName xml.Name `xml:"TxsSummry"`
	Ttl     struct {
		Nb  int    `xml:"NbOfNtries"`
		Sum string `xml:"Sum"`
		Net struct {
			Amt string `xml:"Amt"`
			Ind string `xml:"CdtDbtInd"`
		} `xml:"TtlNetNtry"`
	} `xml:"TtlNtries"`
	Cdt camtNumSum `xml:"TtlCdtNtries"`
	Dbt camtNumSum `xml:"TtlDbtNtries"`
}

type camtParty struct {
	Nm string `xml:"Pty>Nm,omitempty"`
}

// camtAcct is a CashAccount's Id: an IBAN, or another identification.
type camtAcct struct {
	IBAN  string     `xml:"Id>IBAN,omitempty"`
	Other *camtOther `xml:"Id>Othr,omitempty"`
}

type camtOther struct {
	ID string `xml:"Id"`
}

type camtAgent struct {
	BIC string `xml:"FinInstnId>BICFI"`
}

type camtTxDtls struct {
	Refs struct {
		AcctSvcrRef string `xml:"AcctSvcrRef"`
		EndToEndID  string `xml:"EndToEndId,omitempty"`
	} `xml:"Refs"`
	Amt       camtAmt `xml:"Amt"`
	Ind       string  `xml:"CdtDbtInd"`
	RltdPties *struct {
		Dbtr     *camtParty `xml:"Dbtr,omitempty"`
		DbtrAcct *camtAcct  `xml:"DbtrAcct,omitempty"`
		Cdtr     *camtParty `xml:"Cdtr,omitempty"`
		CdtrAcct *camtAcct  `xml:"CdtrAcct,omitempty"`
	} `xml:"RltdPties,omitempty"`
	RltdAgts *struct {
		DbtrAgt *camtAgent `xml:"DbtrAgt,omitempty"`
		CdtrAgt *camtAgent `xml:"CdtrAgt,omitempty"`
	} `xml:"RltdAgts,omitempty"`
	Ustrd string `xml:"RmtInf>Ustrd,omitempty"`
	// AddtlTxInf holds the transaction's whole id: the references are
	// cut to the message's 35 characters, an id may be longer.
	AddtlTxInf string `xml:"AddtlTxInf,omitempty"`
}

type camtEntry struct {
	XMLName     xml.Name   `xml:"Ntry"`
	NtryRef     string     `xml:"NtryRef,omitempty"`
	Amt         camtAmt    `xml:"Amt"`
	Ind         string     `xml:"CdtDbtInd"`
	Sts         string     `xml:"Sts>Cd"`
	BookgDt     string     `xml:"BookgDt>DtTm"`
	ValDt       string     `xml:"ValDt>DtTm,omitempty"`
	AcctSvcrRef string     `xml:"AcctSvcrRef"`
	BkTxCd      string     `xml:"BkTxCd>Prtry>Cd"`
	BkTxIssr    string     `xml:"BkTxCd>Prtry>Issr"`
	TxDtls      camtTxDtls `xml:"NtryDtls>TxDtls"`
}

// clip cuts s to n characters (the message's maximum lengths), never in
// the middle of a character.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

func indicator(d decimal.Decimal) string {
	if d.Sign() < 0 {
		return "DBIT"
	}
	return "CRDT"
}

func dtTm(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// camtWriter writes one camt.053 document a piece at a time: the head, the
// balances and the totals (known before the entries, from the fold), then
// one entry per booking as the spool gives them.
type camtWriter struct {
	w   io.Writer
	enc *xml.Encoder
}

func (c *camtWriter) raw(s string) error {
	if err := c.enc.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(c.w, s)
	return err
}

func (c *camtWriter) head(acct Account, p Period, created time.Time, h *History) error {
	msgID := "PTUI" + created.UTC().Format("20060102150405") + clip(acct.ID, 17)
	stmtID := p.First.Format("20060102") + "-" + p.Last.Format("20060102") + "-" + clip(acct.ID, 17)
	if err := c.raw(xml.Header + `<Document xmlns="` + Camt053Namespace + `">` + "\n<BkToCstmrStmt>\n<GrpHdr><MsgId>"); err != nil {
		return err
	}
	if err := xml.EscapeText(c.w, []byte(clip(msgID, 35))); err != nil {
		return err
	}
	if err := c.raw("</MsgId><CreDtTm>" + dtTm(created) + "</CreDtTm></GrpHdr>\n<Stmt>\n"); err != nil {
		return err
	}
	id := camtAcct{IBAN: acct.IBAN}
	if id.IBAN == "" {
		id.Other = &camtOther{ID: clip(acct.ID, 34)}
	}
	// The statement's own elements are written one by one inside <Stmt>,
	// so its head is encoded without its wrapper.
	for _, v := range []any{
		struct {
			XMLName xml.Name `xml:"Id"`
			V       string   `xml:",chardata"`
		}{V: stmtID},
		struct {
			XMLName xml.Name `xml:"CreDtTm"`
			V       string   `xml:",chardata"`
		}{V: dtTm(created)},
		struct {
			XMLName xml.Name `xml:"FrToDt"`
			Fr      string   `xml:"FrDtTm"`
			To      string   `xml:"ToDtTm"`
		}{Fr: dtTm(p.Start()), To: dtTm(p.End().Add(-time.Millisecond))},
		struct {
			XMLName xml.Name `xml:"Acct"`
			camtAcct
			Ccy      string `xml:"Ccy"`
			Nm       string `xml:"Nm,omitempty"`
			Ownr     string `xml:"Ownr>Nm,omitempty"`
			Servicer string `xml:"Svcr>FinInstnId>BICFI,omitempty"`
		}{camtAcct: id, Ccy: acct.Currency, Nm: clip(acct.Name, 70), Ownr: clip(acct.Holder, 140), Servicer: acct.BIC},
		camtBal{Tp: "OPBD", Amt: camtAmt{Ccy: h.Currency, Value: Format(h.Opening.Abs(), h.Currency)}, Ind: indicator(h.Opening), Dt: p.First.Format(time.DateOnly)},
		camtBal{Tp: "CLBD", Amt: camtAmt{Ccy: h.Currency, Value: Format(h.Closing.Abs(), h.Currency)}, Ind: indicator(h.Closing), Dt: p.Last.Format(time.DateOnly)},
		summary(h),
	} {
		if err := c.enc.Encode(v); err != nil {
			return err
		}
	}
	return c.raw("\n")
}

func summary(h *History) camtSummary {
	var s camtSummary
	net := h.In.Sub(h.Out)
	s.Ttl.Nb = h.Bookings
	s.Ttl.Sum = Format(h.In.Add(h.Out), h.Currency)
	s.Ttl.Net.Amt, s.Ttl.Net.Ind = Format(net.Abs(), h.Currency), indicator(net)
	for _, pt := range h.InBy {
		s.Cdt.Nb += pt.Count
	}
	for _, pt := range h.OutBy {
		s.Dbt.Nb += pt.Count
	}
	s.Cdt.Sum, s.Dbt.Sum = Format(h.In, h.Currency), Format(h.Out, h.Currency)
	return s
}

func (c *camtWriter) entry(e *Entry) error {
	amt := camtAmt{Ccy: e.Currency, Value: Format(e.Amount.Abs(), e.Currency)}
	ce := camtEntry{NtryRef: clip(e.ID, 35), Amt: amt, Ind: indicator(e.Amount), Sts: "BOOK", BookgDt: dtTm(e.BookingDate),
		AcctSvcrRef: clip(e.ID, 35), BkTxCd: e.Type, BkTxIssr: "partnertui"}
	if !e.ValueDate.IsZero() {
		ce.ValDt = dtTm(e.ValueDate)
	}
	if ce.BkTxCd == "" {
		ce.BkTxCd = "Unknown"
	}
	d := &ce.TxDtls
	d.Refs.AcctSvcrRef = clip(e.ID, 35)
	d.Refs.EndToEndID = clip(e.Reference, 35)
	d.Amt, d.Ind = amt, ce.Ind
	d.Ustrd = clip(e.Label, 140)
	d.AddtlTxInf = clip(e.ID, 500)
	if e.Counterparty != "" || e.CounterpartyIBAN != "" {
		d.RltdPties = &struct {
			Dbtr     *camtParty `xml:"Dbtr,omitempty"`
			DbtrAcct *camtAcct  `xml:"DbtrAcct,omitempty"`
			Cdtr     *camtParty `xml:"Cdtr,omitempty"`
			CdtrAcct *camtAcct  `xml:"CdtrAcct,omitempty"`
		}{}
		party := &camtParty{Nm: clip(e.Counterparty, 140)}
		var acct *camtAcct
		if e.CounterpartyIBAN != "" {
			acct = &camtAcct{IBAN: e.CounterpartyIBAN}
		}
		if e.Credit() {
			d.RltdPties.Dbtr, d.RltdPties.DbtrAcct = party, acct
		} else {
			d.RltdPties.Cdtr, d.RltdPties.CdtrAcct = party, acct
		}
	}
	if e.CounterpartyBIC != "" {
		d.RltdAgts = &struct {
			DbtrAgt *camtAgent `xml:"DbtrAgt,omitempty"`
			CdtrAgt *camtAgent `xml:"CdtrAgt,omitempty"`
		}{}
		if e.Credit() {
			d.RltdAgts.DbtrAgt = &camtAgent{BIC: e.CounterpartyBIC}
		} else {
			d.RltdAgts.CdtrAgt = &camtAgent{BIC: e.CounterpartyBIC}
		}
	}
	if err := c.enc.Encode(ce); err != nil {
		return err
	}
	return c.raw("\n")
}

func (c *camtWriter) end() error { return c.raw("</Stmt>\n</BkToCstmrStmt>\n</Document>\n") }

// Camt053 is a camt.053 statement read back: its balances, totals and
// entries, amounts signed.
type Camt053 struct {
	MsgID, StmtID                   string
	IBAN, Currency, Holder, Name    string
	Opening, Closing                decimal.Decimal
	OpeningDate, ClosingDate        string
	Entries                         int // TxsSummry's count
	Credits, Debits                 decimal.Decimal
	CreditEntries, DebitEntries     int
	Ntries                          []Camt053Entry
	Namespace                       string
	FromDateTime, ToDateTime        string
	BookingCodeIssuer, ServicingBIC string
}

// Camt053Entry is one Ntry read back.
type Camt053Entry struct {
	ID, EndToEndID, BookingCode string          // ID: the whole transaction id
	Amount                      decimal.Decimal // signed
	Currency, Status            string
	BookingDate, ValueDate      time.Time
	Counterparty, CounterpartyIBAN,
	CounterpartyBIC, Label string
}

// ParseCamt053 reads a camt.053 document the export wrote (the elements it
// writes; others are ignored), every amount exactly.
func ParseCamt053(r io.Reader) (*Camt053, error) {
	var doc struct {
		XMLName xml.Name
		Msg     struct {
			MsgID string `xml:"GrpHdr>MsgId"`
			Stmt  struct {
				ID   string `xml:"Id"`
				Fr   string `xml:"FrToDt>FrDtTm"`
				To   string `xml:"FrToDt>ToDtTm"`
				Acct struct {
					IBAN string `xml:"Id>IBAN"`
					Ccy  string `xml:"Ccy"`
					Nm   string `xml:"Nm"`
					Ownr string `xml:"Ownr>Nm"`
					BIC  string `xml:"Svcr>FinInstnId>BICFI"`
				} `xml:"Acct"`
				Bal     []camtBal   `xml:"Bal"`
				Summary camtSummary `xml:"TxsSummry"`
				Ntry    []camtEntry `xml:"Ntry"`
			} `xml:"Stmt"`
		} `xml:"BkToCstmrStmt"`
	}
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading the camt.053: %w", err)
	}
	st := &doc.Msg.Stmt
	out := &Camt053{MsgID: doc.Msg.MsgID, StmtID: st.ID, IBAN: st.Acct.IBAN, Currency: st.Acct.Ccy, Holder: st.Acct.Ownr,
		Name: st.Acct.Nm, Namespace: doc.XMLName.Space, FromDateTime: st.Fr, ToDateTime: st.To, ServicingBIC: st.Acct.BIC,
		Entries: st.Summary.Ttl.Nb, CreditEntries: st.Summary.Cdt.Nb, DebitEntries: st.Summary.Dbt.Nb}
	signed := func(a camtAmt, ind string) (decimal.Decimal, error) {
		d, err := ParseAmount(a.Value)
		if err != nil {
			return d, err
		}
		switch ind {
		case "DBIT":
			return d.Neg(), nil
		case "CRDT":
			return d, nil
		}
		return d, fmt.Errorf("CdtDbtInd %q is neither CRDT nor DBIT", ind)
	}
	var err error
	for _, b := range st.Bal {
		v, err := signed(b.Amt, b.Ind)
		if err != nil {
			return nil, fmt.Errorf("balance %s: %w", b.Tp, err)
		}
		switch b.Tp {
		case "OPBD":
			out.Opening, out.OpeningDate = v, b.Dt
		case "CLBD":
			out.Closing, out.ClosingDate = v, b.Dt
		}
	}
	if out.Credits, err = ParseAmount(st.Summary.Cdt.Sum); err != nil {
		return nil, fmt.Errorf("credit total: %w", err)
	}
	if out.Debits, err = ParseAmount(st.Summary.Dbt.Sum); err != nil {
		return nil, fmt.Errorf("debit total: %w", err)
	}
	for i, n := range st.Ntry {
		e := Camt053Entry{ID: n.TxDtls.AddtlTxInf, EndToEndID: n.TxDtls.Refs.EndToEndID, BookingCode: n.BkTxCd, Currency: n.Amt.Ccy,
			Status: n.Sts, Label: n.TxDtls.Ustrd}
		out.BookingCodeIssuer = n.BkTxIssr
		if e.Amount, err = signed(n.Amt, n.Ind); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		if e.BookingDate, err = time.Parse(time.RFC3339Nano, n.BookgDt); err != nil {
			return nil, fmt.Errorf("entry %d: booking date: %w", i+1, err)
		}
		if n.ValDt != "" {
			if e.ValueDate, err = time.Parse(time.RFC3339Nano, n.ValDt); err != nil {
				return nil, fmt.Errorf("entry %d: value date: %w", i+1, err)
			}
		}
		if p := n.TxDtls.RltdPties; p != nil {
			party, acct := p.Cdtr, p.CdtrAcct
			if e.Amount.Sign() > 0 {
				party, acct = p.Dbtr, p.DbtrAcct
			}
			if party != nil {
				e.Counterparty = party.Nm
			}
			if acct != nil {
				e.CounterpartyIBAN = acct.IBAN
			}
		}
		if a := n.TxDtls.RltdAgts; a != nil {
			agent := a.CdtrAgt
			if e.Amount.Sign() > 0 {
				agent = a.DbtrAgt
			}
			if agent != nil {
				e.CounterpartyBIC = agent.BIC
			}
		}
		out.Ntries = append(out.Ntries, e)
	}
	return out, nil
}

// Check reports whether the statement adds up: its opening balance plus its
// entries is its closing balance, and its totals count and sum its entries.
func (c *Camt053) Check() error {
	sum := c.Opening
	var cr, db decimal.Decimal
	nc, nd := 0, 0
	for _, e := range c.Ntries {
		sum = sum.Add(e.Amount)
		if e.Amount.Sign() > 0 {
			cr, nc = cr.Add(e.Amount), nc+1
		} else {
			db, nd = db.Sub(e.Amount), nd+1
		}
	}
	switch {
	case !sum.Equal(c.Closing):
		return fmt.Errorf("opening %s plus %d entries is %s, not the closing %s", c.Opening, len(c.Ntries), sum, c.Closing)
	case c.Entries != len(c.Ntries) || c.CreditEntries != nc || c.DebitEntries != nd:
		return fmt.Errorf("the totals count %d entries (%d credits, %d debits), the statement holds %d (%d, %d)",
			c.Entries, c.CreditEntries, c.DebitEntries, len(c.Ntries), nc, nd)
	case !cr.Equal(c.Credits) || !db.Equal(c.Debits):
		return fmt.Errorf("the totals sum credits %s and debits %s, the entries %s and %s", c.Credits, c.Debits, cr, db)
	}
	return nil
}
