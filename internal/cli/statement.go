package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/platform"
)

// StatementOptions are `partnertui statement`'s.
type StatementOptions struct {
	IO       IO
	F        *Factory
	ID       string
	JSON     jsonFlags
	Download string // a file, or - for stdout
	Open     bool
}

// NewCmdStatement shows one account statement, downloads its document or
// opens it in the browser.
func NewCmdStatement(f *Factory) *cobra.Command {
	opts := &StatementOptions{IO: f.IO, F: f}
	cmd := &cobra.Command{
		Use:   "statement ID",
		Short: "Show one account statement, download its document (--download FILE) or open it (--open)",
		Long: "Shows an account statement (statements lists an account's): its period, balances, totals and\n" +
			"status. A Generated statement has a document (a PDF): --download FILE saves it (- writes it to\n" +
			"stdout, not to a terminal), --open opens it in your browser. The document's address needs no\n" +
			"token: none is sent to it.",
		Example: "  partnertui statement 4c1d…\n  partnertui statement 4c1d… --download november.pdf\n  partnertui statement 4c1d… --open",
		Args:    exactlyOne("statement", "statement ID", "statements ACCOUNT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if opts.Download != "" && opts.Open {
				return usageErrorf("--download and --open cannot be used together")
			}
			if opts.Download == "-" && opts.IO.OutIsTerminal() {
				return usageErrorf("--download - writes the PDF to stdout, which is a terminal: name a file, or pipe it")
			}
			return runStatement(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Download, "download", "", "save the statement's document to this `file` (- for stdout)")
	fl.BoolVar(&opts.Open, "open", false, "open the statement's document in your browser")
	opts.JSON.register(cmd, reflect.TypeFor[api.StatementDetail](), "print one JSON object on stdout")
	return f.withSession(cmd, true)
}

func runStatement(ctx context.Context, opts *StatementOptions) error {
	e, err := opts.F.Env(ctx)
	if err != nil {
		return err
	}
	s, err := e.API.Statement(ctx, opts.ID)
	if err != nil {
		return err
	}
	if opts.Download == "" && !opts.Open {
		return opts.F.writeItem(ctx, opts.JSON, s, func(w io.Writer) error { return writeStatementDetail(w, s) })
	}
	doc := s.StatusInfo.URL
	if doc == "" {
		return &NoDocumentError{ID: s.ID, Status: s.StatusInfo.Status}
	}
	if !webPage(doc) {
		return fmt.Errorf("statement %s's document is at %q, which is not a web address (https, or http on this machine): nothing was fetched", s.ID, doc)
	}
	if opts.Open {
		if !auth.CanOpen(opts.F.env) {
			return usageErrorf("no browser can be opened here (over SSH or without a display, with no $BROWSER set): use --download FILE")
		}
		if err := auth.OpenBrowser(ctx, doc, opts.F.env); err != nil {
			return fmt.Errorf("the browser did not open: %w", err)
		}
		fmt.Fprintf(opts.IO.Err, "Opened statement %s in your browser.\n", s.ID)
		return nil
	}
	n, err := download(ctx, doc, opts.Download, opts.IO.Out)
	if err != nil {
		return err
	}
	if opts.Download != "-" {
		fmt.Fprintf(opts.IO.Err, "Saved statement %s (%s, %d bytes) to %s.\n", s.ID, s.Format, n, opts.Download)
	}
	return nil
}

// NoDocumentError reports a statement that has no document yet (Pending,
// Failed).
type NoDocumentError struct{ ID, Status string }

func (e *NoDocumentError) Error() string {
	return fmt.Sprintf("statement %s is %s and has no document: only a Generated (or Voided) statement has one", e.ID, e.Status)
}

// webPage reports whether address is one a browser or a download may be
// sent to: https, or http on this machine (the emulator's); never another
// scheme the system would hand to some other program.
func webPage(address string) bool {
	u, err := url.Parse(address)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	return u.Scheme == "https" || (u.Scheme == "http" && platform.IsLoopback(u.Hostname()))
}

// downloadTimeout bounds a statement's download: a PDF of a few pages.
const downloadTimeout = 2 * time.Minute

// maxDocument bounds what is saved of a statement's document.
const maxDocument = 256 << 20

// download saves the document at address to file (stdout for -), with no
// token: the address is the platform's download link. A file is written
// whole or not at all (a temporary file beside it, renamed).
func download(ctx context.Context, address, file string, stdout io.Writer) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, downloadTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("could not download the statement's document: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("could not download the statement's document: its address answered %s", resp.Status)
	}
	body := io.LimitReader(resp.Body, maxDocument)
	if file == "-" {
		return io.Copy(stdout, body)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return 0, &UsageError{Err: fmt.Errorf("--download: %w", err)}
	}
	n, err := io.Copy(tmp, body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		if errors.Is(err, context.DeadlineExceeded) {
			return 0, fmt.Errorf("the statement's document did not arrive within %s", downloadTimeout)
		}
		return 0, fmt.Errorf("could not save the statement's document to %s: %w", file, err)
	}
	return n, nil
}

// writeStatementDetail writes a statement as aligned lines.
func writeStatementDetail(w io.Writer, s *api.StatementDetail) error {
	account := ""
	if a := s.Account; a != nil {
		account = a.ID
		if a.Name != "" {
			account = a.Name + " (" + a.ID + ")"
		}
	}
	lines := [][2]string{
		{"ID", s.ID},
		{"Account", account},
		{"Period", s.Period},
		{"From", day(s.OpeningDate)},
		{"To", day(s.ClosingDate)},
		{"Opening", amountText(s.OpeningBalance)},
		{"Credits", amountText(s.TotalCredits)},
		{"Debits", amountText(s.TotalDebits)},
		{"Fees", "credits " + amountText(s.FeeCredits) + ", debits " + amountText(s.FeeDebits)},
		{"Closing", amountText(s.ClosingBalance)},
		{"Status", s.StatusInfo.Status},
		{"Format", s.Format},
		{"Document", s.StatusInfo.URL},
		{"Created", stamp(s.CreatedAt)},
	}
	return writeAll(w, []byte(detailLines(lines)))
}
