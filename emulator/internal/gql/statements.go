package gql

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

type statementsArgs struct {
	First   int32
	After   *string
	Filters *struct {
		IsAfterUpdatedAt  *scalar
		IsBeforeUpdatedAt *scalar
		Period            *string
	}
	OrderBy *orderArgs
}

// AccountStatement is Query.accountStatement: a statement of an account
// the token sees, with the right to view it.
func (r *partnerResolver) AccountStatement(ctx context.Context, args struct{ ID ID }) (*statementR, error) {
	a, st, ok := r.store.Statement(viewerOf(ctx), string(args.ID))
	if ok {
		if acc := r.request(ctx).account(a); acc.canViewAccount() {
			return &statementR{acc: acc, s: st}, nil
		}
	}
	return nil, fmt.Errorf("no statement has the id %q: pass an id Account.statements lists", string(args.ID))
}

type statementR struct {
	acc *accountR
	s   data.Statement
}

func (s *statementR) amount(c int64) *amountR  { return amount(c, s.s.Currency) }
func (s *statementR) ID() ID                   { return ID(s.s.ID) }
func (s *statementR) Account() *accountR       { return s.acc }
func (s *statementR) OpeningBalance() *amountR { return s.amount(s.s.OpeningBalance) }
func (s *statementR) ClosingBalance() *amountR { return s.amount(s.s.ClosingBalance) }
func (s *statementR) OpeningDate() scalar      { return dateTime(s.s.OpeningDate) }
func (s *statementR) ClosingDate() scalar      { return dateTime(s.s.ClosingDate) }
func (s *statementR) Period() *string          { p := "Monthly"; return &p }
func (s *statementR) TotalCredits() *amountR   { return s.amount(s.s.TotalCredits) }
func (s *statementR) TotalDebits() *amountR    { return s.amount(s.s.TotalDebits) }
func (s *statementR) Fees() *amountR           { return s.amount(s.s.FeeDebits - s.s.FeeCredits) }
func (s *statementR) FeeCredits() *amountR     { return s.amount(s.s.FeeCredits) }
func (s *statementR) FeeDebits() *amountR      { return s.amount(s.s.FeeDebits) }
func (s *statementR) Format() string           { return "PDF" }
func (s *statementR) CreatedAt() scalar        { return dateTime(s.s.CreatedAt) }
func (s *statementR) UpdatedAt() scalar        { return dateTime(s.s.UpdatedAt) }
func (s *statementR) StatusInfo() *stmtStatusR {
	return &stmtStatusR{s: s.s, url: s.acc.r.base + StatementPath(s.acc.r.store.Env()) + s.s.ID + ".pdf"}
}

// Status is the deprecated StatementStatus of the same state.
func (s *statementR) Status() string {
	switch s.s.Status {
	case data.StatementPending:
		return "Pending"
	case data.StatementFailed:
		return "Failed"
	}
	return "Available"
}

type stmtStatusR struct {
	s   data.Statement
	url string // where the emulator serves its document
}

func (s *stmtStatusR) Status() string { return s.s.Status }
func (s *stmtStatusR) URL() scalar    { return scalar(s.url) }

// StatementPath is where an environment serves its statements' documents,
// by id (…/ID.pdf): the URL a Generated or Voided statement carries. As
// the platform's download links, they need no token.
func StatementPath(env string) string { return "/" + env + "-statements/" }

// NewStatementDocuments serves the statements' documents of store: a PDF
// of one page stating the statement's account, period and balances.
func NewStatementDocuments(store *data.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, StatementPath(store.Env())), ".pdf")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "statements are downloaded with GET", http.StatusMethodNotAllowed)
			return
		}
		a, st, found := store.Statement(data.Viewer{Project: true}, id)
		if !ok || !found || (st.Status != data.StatementGenerated && st.Status != data.StatementVoided) {
			http.Error(w, "no statement document has this address: use the url of a Generated statement's statusInfo", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Disposition", `attachment; filename="statement-`+st.ID+`.pdf"`)
		_, _ = w.Write(statementPDF(a, st))
	})
}

// statementPDF is a statement as a one-page PDF 1.4 document.
func statementPDF(a *data.Account, st data.Statement) []byte {
	money := func(c int64) string { return string(amount(c, st.Currency).Value()) + " " + st.Currency }
	lines := []string{
		"Account statement " + st.ID,
		"Account " + a.Name + " (" + a.ID + ")",
		"From " + st.OpeningDate.Format(time.DateOnly) + " to " + st.ClosingDate.Format(time.DateOnly),
		"Opening balance " + money(st.OpeningBalance),
		"Credits " + money(st.TotalCredits) + "  Debits " + money(st.TotalDebits),
		"Closing balance " + money(st.ClosingBalance),
	}
	var text strings.Builder
	text.WriteString("BT /F1 11 Tf 50 780 Td 16 TL\n")
	for _, l := range lines {
		l = strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(l)
		text.WriteString("(" + l + ") Tj T*\n")
	}
	text.WriteString("ET")
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", text.Len(), text.String()),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}
func (s *stmtStatusR) ToGeneratedStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementGenerated
}
func (s *stmtStatusR) ToPendingStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementPending
}
func (s *stmtStatusR) ToFailedStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementFailed
}
func (s *stmtStatusR) ToVoidedStatusInfo() (*stmtStatusR, bool) {
	return s, s.s.Status == data.StatementVoided
}
