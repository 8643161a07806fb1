package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/internal/safetext"
)

// DebugEnv turns the request lines on without --verbose: "api" for one
// line per request, "api,body" for the operation text with it; "auth"
// adds one line per step of a refresh of the user session.
const DebugEnv = "PARTNERTUI_DEBUG"

// requestLines is what --verbose and PARTNERTUI_DEBUG ask for.
type requestLines struct {
	on, body bool
	auth     bool // the steps of each refresh
}

func debugSetting(verbose bool, getenv func(string) string) requestLines {
	var r requestLines
	for _, w := range strings.Split(getenv(DebugEnv), ",") {
		switch strings.TrimSpace(w) {
		case "api":
			r.on = true
		case "body":
			r.body = true
		case "auth":
			r.auth = true
		}
	}
	r.on = r.on || verbose
	r.body = r.body && r.on
	return r
}

// onRequest is the app's OnRequest for the command line: one line per
// request on stderr (never a token: the log holds none).
func (f *Factory) onRequest(r requestLines) func(api.Entry) {
	if !r.on {
		return nil
	}
	return func(e api.Entry) {
		line := requestLine(e)
		if r.body {
			line += "\n" + indentLines(e.Query)
			if len(e.Variables) > 0 {
				if b, err := jsonCompact(e.Variables); err == nil {
					line += "\n  variables: " + b
				}
			}
		}
		// The operation's text is the user's, and may hold anything.
		f.progressLine().println(safetext.StripLines(line))
	}
}

// requestLine is one request as --verbose shows it:
//
//	api #3 20:59:01 sandbox Accounts 200 45ms 12.3 kB budget 12/2000 waited 3s (429 Retry-After)
func requestLine(e api.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "api #%d %s %s", e.Seq, e.Time.Local().Format("15:04:05"), e.Env)
	if e.Testing {
		b.WriteString(" testing")
	}
	name := e.Name
	if name == "" {
		name = "(anonymous)"
	}
	b.WriteString(" " + name)
	if e.Status != 0 {
		fmt.Fprintf(&b, " %d", e.Status)
	}
	fmt.Fprintf(&b, " %dms %s", e.Duration.Milliseconds(), e.SizeText())
	if e.Limit > 0 {
		fmt.Fprintf(&b, " budget %d/%d", e.Used, e.Limit)
	}
	if w := e.WaitText(); w != "" {
		b.WriteString(" waited " + w)
	}
	if e.RetryAfter != "" {
		b.WriteString(" Retry-After " + e.RetryAfter)
	}
	if n := len(e.Errors); n > 0 {
		fmt.Fprintf(&b, " %d error(s): %s", n, e.Errors[0])
	}
	if e.Err != "" {
		b.WriteString(" failed: " + e.Err)
	}
	if e.Answer != "" {
		// What came instead of the API's JSON: the error names it in a
		// sentence, here is its start.
		b.WriteString("\n  answer: " + e.Answer)
	}
	return b.String()
}

func indentLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}

// println writes a line of its own above the progress line, which is
// drawn again under it.
func (p *progressLine) println(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.shown {
		fmt.Fprint(p.io.Err, "\r\x1b[K")
	}
	fmt.Fprintln(p.io.Err, line)
	if p.shown {
		p.drawLocked()
	}
}

func jsonCompact(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// requestHook is the OnRequest of the command being run: nothing for the
// terminal UI (its screen is the terminal; it has the Requests view),
// else what --verbose and PARTNERTUI_DEBUG ask for.
func (f *Factory) requestHook(cmd *cobra.Command) func(api.Entry) {
	if !cmd.HasParent() {
		return nil
	}
	return f.onRequest(debugSetting(f.Session.Verbose, f.env))
}

// refreshHook is the OnRefresh of the command being run: with
// PARTNERTUI_DEBUG=auth, one line per step of each refresh on stderr, when
// it was reached (to the nanosecond, UTC, so that a harness can set it
// against the moment the answer left the server) and how long after the
// request left:
//
//	auth sandbox refresh answered 2026-01-02T10:00:01.123456789Z +48.2ms
//
// "answered" is the moment the answer's last byte was in the journal: a
// kill from then on loses nothing. Never a token.
func (f *Factory) refreshHook(cmd *cobra.Command) func(auth.RefreshEvent) {
	if !cmd.HasParent() || !debugSetting(false, f.env).auth {
		return nil
	}
	var mu sync.Mutex
	sent := map[string]time.Time{}
	return func(ev auth.RefreshEvent) {
		mu.Lock()
		if ev.Step == auth.RefreshSending {
			sent[ev.Env] = ev.At
		}
		since := ev.At.Sub(sent[ev.Env])
		mu.Unlock()
		f.progressLine().println(fmt.Sprintf("auth %s refresh %s %s +%s", ev.Env, ev.Step, ev.At.UTC().Format(time.RFC3339Nano), since.Round(time.Microsecond)))
	}
}
