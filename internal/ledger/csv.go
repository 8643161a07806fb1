package ledger

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// CSVHeader is the one header row of a CSV export, in the order of its
// columns: what an accountant's tool (hledger, ledger, a spreadsheet) maps.
var CSVHeader = []string{"Date", "Value date", "Counterparty", "Label", "Reference", "Amount", "Currency", "Status", "Running balance", "Transaction ID"}

// CSVWriter writes transactions as RFC 4180 CSV: CRLF line ends, fields
// quoted when they hold a comma, a quote or a line break, amounts as exact
// signed decimals ("-125.60"). A text field that a spreadsheet would take
// for a formula (starting with =, +, -, @, a tab or a carriage return) is
// written after a single quote, as OWASP advises; ParseCSV takes it off.
type CSVWriter struct {
	w   *csv.Writer
	row []string
}

// NewCSVWriter writes the header row to w and returns the writer of the rows.
func NewCSVWriter(w io.Writer) (*CSVWriter, error) {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(CSVHeader); err != nil {
		return nil, fmt.Errorf("could not write the CSV: %w", err)
	}
	return &CSVWriter{w: cw, row: make([]string, len(CSVHeader))}, nil
}

// Row writes e, dated date (its booking date when it is booked), with
// balance as its running balance ("" when it has none).
func (c *CSVWriter) Row(e *Entry, date time.Time, balance string) error {
	c.row[0] = dateOrEmpty(date)
	c.row[1] = dateOrEmpty(e.ValueDate)
	c.row[2] = defuse(e.Counterparty)
	c.row[3] = defuse(e.Label)
	c.row[4] = defuse(e.Reference)
	c.row[5] = Format(e.Amount, e.Currency)
	c.row[6] = e.Currency
	c.row[7] = e.Status
	c.row[8] = balance
	c.row[9] = e.ID
	if err := c.w.Write(c.row); err != nil {
		return fmt.Errorf("could not write the CSV: %w", err)
	}
	return nil
}

// Flush writes what is buffered.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return fmt.Errorf("could not write the CSV: %w", err)
	}
	return nil
}

func dateOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

func defuse(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func undefuse(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
		return s[1:]
	}
	return s
}

// CSVRow is one row of a CSV export read back.
type CSVRow struct {
	Date, ValueDate                string
	Counterparty, Label, Reference string
	Amount                         decimal.Decimal
	Currency, Status               string
	RunningBalance                 *decimal.Decimal // nil when the row has none
	ID                             string
}

// ParseCSV reads a CSV export back, checking its header and every amount.
func ParseCSV(r io.Reader) ([]CSVRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(CSVHeader)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("reading the CSV: %w", err)
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(CSVHeader, ",") {
		return nil, fmt.Errorf("the CSV does not start with the header %q", strings.Join(CSVHeader, ","))
	}
	out := make([]CSVRow, 0, len(recs)-1)
	for i, rec := range recs[1:] {
		row := CSVRow{Date: rec[0], ValueDate: rec[1], Counterparty: undefuse(rec[2]), Label: undefuse(rec[3]),
			Reference: undefuse(rec[4]), Currency: rec[6], Status: rec[7], ID: rec[9]}
		if row.Amount, err = ParseAmount(rec[5]); err != nil {
			return nil, fmt.Errorf("CSV row %d: %w", i+2, err)
		}
		if rec[8] != "" {
			b, err := ParseAmount(rec[8])
			if err != nil {
				return nil, fmt.Errorf("CSV row %d: running balance: %w", i+2, err)
			}
			row.RunningBalance = &b
		}
		out = append(out, row)
	}
	return out, nil
}
