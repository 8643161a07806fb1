package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// txPageSize: transactions are read 20 at a time, as many as a detail
// screen shows on a usual terminal.
const txPageSize = 20

// simulatedDebtorIBAN is a well-known valid test IBAN used as the sender of
// simulated incoming transfers.
const simulatedDebtorIBAN = "DE89370400440532013000"

var amountRE = regexp.MustCompile(`^[0-9]{1,9}(\.[0-9]{1,2})?$`)

type detailKeys struct {
	nav                         pagedlist.KeyMap
	Copy, QR, Simulate, Refresh key.Binding
	CloseQR                     key.Binding
	Send, Cancel                key.Binding // while the amount prompt is open
}

func newDetailKeys() detailKeys {
	return detailKeys{
		nav:      navKeys(),
		Copy:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy IBAN")),
		QR:       key.NewBinding(key.WithKeys("Q"), key.WithHelp("Q", "IBAN QR code")),
		Simulate: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "simulate transfer")),
		Refresh:  refreshKey(),
		CloseQR:  escKey("close QR code"),
		Send:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Cancel:   escKey("cancel"),
	}
}

// detailScreen shows one account in full with its latest transactions.
type detailScreen struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	keys   detailKeys
	w, h   int

	acct    api.Account
	full    bool
	acctID  int
	loading bool
	err     error

	tx *pagedlist.Model[api.Transaction]

	showQR bool

	prompt    textinput.Model
	prompting bool
	simID     int
	simBusy   bool
	simErr    error
}

func newDetailScreen(c *common, env *envState, a api.Account) *detailScreen {
	ctx, cancel := context.WithCancel(env.ctx)
	d := &detailScreen{c: c, env: env, ctx: ctx, cancel: cancel, acct: a, keys: newDetailKeys()}
	d.prompt = newTextInput("Amount to receive: ", "100.00", 12)
	d.prompt.SetStyles(c.inputStyles())
	client, id := env.API, a.ID
	d.tx = pagedlist.New(pagedlist.Options[api.Transaction]{
		Columns:  txColumns(),
		ID:       func(t *api.Transaction) string { return t.ID },
		NoHeader: true,
		PageSize: txPageSize,
		Fetch: func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[api.Transaction], error) {
			p, err := client.Transactions(ctx, id, r.First, r.After)
			if err != nil || p == nil {
				return pagedlist.Page[api.Transaction]{}, err
			}
			return pagedlist.Page[api.Transaction]{Rows: p.Transactions, Total: p.TotalCount,
				StartCursor: p.PageInfo.StartCursor, EndCursor: p.PageInfo.EndCursor,
				HasNext: p.PageInfo.HasNextPage && p.PageInfo.EndCursor != ""}, nil
		},
		Keys:    d.keys.nav,
		Styles:  c.styles.list(),
		Context: ctx,
		Run:     c.listRun(env.Name),
		Now:     c.now,
		Waiting: c.listWaiting(env, false),
	})
	d.syncKeys()
	return d
}

// txColumns reproduce a statement line: date, signed amount, status, who
// and what.
func txColumns() []pagedlist.Column[api.Transaction] {
	return []pagedlist.Column[api.Transaction]{
		{Title: "Date", Width: 10, Cell: func(t *api.Transaction) string {
			if t.ExecutionDate.IsZero() {
				return ""
			}
			return t.ExecutionDate.UTC().Format("2006-01-02")
		}},
		{Title: "Amount", Width: 16, Right: true, Cell: func(t *api.Transaction) string {
			sign := ""
			switch t.Side {
			case "Debit":
				sign = "-"
			case "Credit":
				sign = "+"
			}
			return sign + amountText(t.Amount)
		}},
		// One more cell than the status needs: the gap after the amount
		// is two cells, as on a statement.
		{Title: "Status", Width: 10, Drop: 1, Cell: func(t *api.Transaction) string { return " " + t.StatusInfo.Status }},
		{Title: "Label", Width: 1, Flex: true, Drop: 2, Cell: func(t *api.Transaction) string {
			if cp := t.Counterparty; cp != "" {
				return cp + " · " + t.Label
			}
			return t.Label
		}},
	}
}

func (d *detailScreen) init() tea.Cmd {
	return tea.Batch(d.loadAccount(), d.tx.Query(nil))
}

func (d *detailScreen) title() string {
	if n := d.acct.Name; n != "" {
		return n
	}
	return "Account"
}

func (d *detailScreen) capturing() bool { return d.prompting }
func (d *detailScreen) busy() bool      { return d.loading || d.tx.Busy() || d.simBusy }
func (d *detailScreen) close()          { d.cancel(); d.tx.Close() }

// canSimulate: the Testing API exists only in Sandbox (k9s-style: the key is
// not bound at all when read-only).
func (d *detailScreen) canSimulate() bool { return !d.env.ReadOnly && d.env.Name != config.Live }

func (d *detailScreen) syncKeys() {
	k := &d.keys
	k.Copy.SetEnabled(!d.prompting)
	k.QR.SetEnabled(!d.prompting)
	if d.showQR {
		k.QR.SetHelp("Q", "close QR code")
	} else {
		k.QR.SetHelp("Q", "IBAN QR code")
	}
	k.CloseQR.SetEnabled(d.showQR && !d.prompting)
	k.Simulate.SetEnabled(d.canSimulate() && !d.simBusy && !d.prompting)
	k.Refresh.SetEnabled(!d.prompting)
	k.Send.SetEnabled(d.prompting)
	k.Cancel.SetEnabled(d.prompting)
}

func (d *detailScreen) ShortHelp() []key.Binding {
	k := d.keys
	if d.prompting {
		return []key.Binding{k.Send, k.Cancel}
	}
	// CloseQR is drawn only while the QR code is shown: first, then.
	return []key.Binding{k.CloseQR, k.Copy, k.QR, k.Simulate, k.Refresh}
}

func (d *detailScreen) FullHelp() [][]key.Binding {
	k := d.keys
	if d.prompting {
		return [][]key.Binding{{k.Send, k.Cancel}}
	}
	return [][]key.Binding{d.tx.Bindings(), {k.CloseQR, k.Copy, k.QR, k.Simulate, k.Refresh}}
}

func (d *detailScreen) setSize(w, h int) {
	d.w, d.h = w, h
	d.layout()
}

// layout gives the transactions what the title, an error line, the
// fields, a blank line, the heading and the prompt's line leave.
func (d *detailScreen) layout() {
	above := 1 + len(d.fieldLines()) + 2
	if d.err != nil {
		above++
	}
	if d.prompting || d.simBusy {
		above++
	}
	d.tx.SetSize(d.w, max(d.h-above, 0))
}

func (d *detailScreen) loadAccount() tea.Cmd {
	d.acctID = d.c.nextID()
	d.loading = true
	a, ctx, id, env, accID := d.env.API, d.ctx, d.acctID, d.env.Name, d.acct.ID
	return d.c.task(func() tea.Msg {
		acct, err := a.Account(ctx, accID)
		return accountMsg{envTag{env}, id, acct, err}
	})
}

func (d *detailScreen) update(msg tea.Msg) tea.Cmd {
	defer d.syncKeys()
	defer d.layout()
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		d.prompt.SetStyles(d.c.inputStyles())
		d.tx.SetStyles(d.c.styles.list())
	case accountMsg:
		if msg.id != d.acctID {
			return nil
		}
		d.loading = false
		if msg.err != nil {
			keepErr(&d.err, msg.err)
			return nil
		}
		if msg.acct != nil {
			d.acct, d.full, d.err = *msg.acct, true, nil
		}
	case listMsg:
		return d.tx.Update(msg.inner)
	case simulateMsg:
		if msg.id != d.simID {
			return nil
		}
		d.simBusy = false
		if msg.err != nil {
			d.simErr = msg.err
			text := "The simulated transfer failed. " + explain(msg.err, where{retry: d.keys.Simulate})
			return func() tea.Msg { return flashMsg{text: text, bad: true} }
		}
		d.simErr = nil
		d.c.log.Info("simulated transfer booked", "env", string(msg.env), "transaction", msg.txID)
		text := "Received " + amountText(msg.amount) + " (simulated transfer)"
		return tea.Batch(d.loadAccount(), d.tx.Query(nil), func() tea.Msg { return flashMsg{text: text} })
	case tea.PasteMsg:
		if d.prompting {
			_, cmd := editInput(&d.prompt, msg)
			return cmd
		}
	}
	return nil
}

func (d *detailScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer d.syncKeys()
	defer d.layout()
	if d.prompting {
		return d.promptKey(msg), true
	}
	k := d.keys
	switch {
	case key.Matches(msg, k.Copy):
		compact := iban.Compact(d.acct.IBAN)
		if compact == "" {
			return func() tea.Msg { return flashMsg{text: "This account has no IBAN to copy", bad: true} }, true
		}
		return tea.Batch(d.c.clipboard(compact), func() tea.Msg { return flashMsg{text: "IBAN copied"} }), true
	case key.Matches(msg, k.QR):
		if d.acct.IBAN == "" {
			return func() tea.Msg { return flashMsg{text: "This account has no IBAN to show as a QR code", bad: true} }, true
		}
		d.showQR = !d.showQR
		return nil, true
	case key.Matches(msg, k.CloseQR):
		d.showQR = false
		return nil, true
	case key.Matches(msg, k.Simulate):
		d.prompting = true
		d.prompt.SetValue("")
		d.simErr = nil
		return d.prompt.Focus(), true
	case key.Matches(msg, k.Refresh):
		return tea.Batch(d.loadAccount(), d.tx.Refresh()), true
	}
	return d.tx.HandleKey(msg)
}

func (d *detailScreen) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	k := d.keys
	switch {
	case key.Matches(msg, k.Cancel):
		d.prompting = false
		d.prompt.Blur()
		return nil
	case key.Matches(msg, k.Send):
		v := strings.TrimSpace(strings.ReplaceAll(d.prompt.Value(), ",", "."))
		if !amountRE.MatchString(v) || strings.Trim(v, "0.") == "" {
			d.simErr = errors.New("enter a positive amount such as 100 or 12.50")
			return nil
		}
		d.prompting = false
		d.prompt.Blur()
		return d.simulate(v)
	}
	_, cmd := editInput(&d.prompt, msg)
	return cmd
}

func (d *detailScreen) simulate(value string) tea.Cmd {
	d.simID = d.c.nextID()
	d.simBusy = true
	cur := d.acct.Currency
	if cur == "" {
		cur = "EUR"
	}
	in := api.IncomingTransfer{
		Amount:       api.Amount{Value: value, Currency: cur},
		CreditorIBAN: iban.Compact(d.acct.IBAN),
		CreditorName: d.acct.Holder.Info.Name,
		DebtorIBAN:   simulatedDebtorIBAN,
		DebtorName:   "partnertui simulator",
		Label:        "Simulated transfer from partnertui",
	}
	if in.CreditorName == "" {
		in.CreditorName = d.acct.Name
	}
	a, ctx, id, env := d.env.API, d.ctx, d.simID, d.env.Name
	d.c.log.Info("simulating an incoming transfer", "env", string(env), "amount", value, "currency", cur)
	return d.c.task(func() tea.Msg {
		txID, err := a.SimulateIncomingTransfer(ctx, in)
		return simulateMsg{envTag{env}, id, in.Amount, txID, err}
	})
}

// fieldLines are the account's fields, two per line when there is room.
func (d *detailScreen) fieldLines() []string {
	st := d.c.styles
	a := &d.acct
	w := d.w
	label := func(s string) string { return st.dim.Render(fmt.Sprintf("%-10s", s)) }
	mark := ""
	if a.IBAN != "" {
		if iban.Valid(a.IBAN) {
			mark = " " + st.ok.Render("✓ valid")
		} else {
			mark = " " + st.err.Render("✗ check digits wrong")
		}
	}
	val := func(s string) string {
		if s == "" {
			if d.full {
				return "—"
			}
			return "…"
		}
		return s
	}
	holder := a.Holder.Info.Name
	if t := a.Holder.Info.Type; t != "" && holder != "" {
		holder += " (" + t + ")"
	}
	bal := func(pick func(*api.Balances) api.Amount) string {
		if a.Balances == nil {
			return val("")
		}
		return amountText(pick(a.Balances))
	}
	pairs := [][2]string{
		{label("BIC") + val(a.BIC), label("Number") + val(a.Number)},
		{label("Holder") + val(holder), label("Status") + val(a.StatusInfo.Status)},
		{label("Payment") + val(a.PaymentLevel), label("Currency") + val(a.Currency)},
		{label("Available") + bal(func(b *api.Balances) api.Amount { return b.Available }), label("Booked") + bal(func(b *api.Balances) api.Amount { return b.Booked })},
		{label("Pending") + bal(func(b *api.Balances) api.Amount { return b.Pending }), label("Reserved") + bal(func(b *api.Balances) api.Amount { return b.Reserved })},
		{label("Created") + timeOr(a, true, d.full), label("Updated") + timeOr(a, false, d.full)},
	}
	lines := []string{label(TextIBAN) + st.bold.Render(val(ibanText(a.IBAN))) + mark}
	colW := max(w/2, 1)
	for _, p := range pairs {
		if w >= 80 {
			lines = append(lines, lipgloss.NewStyle().Width(colW).Render(trunc(p[0], colW-1))+trunc(p[1], colW))
		} else {
			lines = append(lines, p[0], p[1])
		}
	}
	return lines
}

// ibanText is an IBAN as printed on statements, in groups of four.
func ibanText(s string) string {
	return iban.Format(s)
}

func timeOr(a *api.Account, created, full bool) string {
	t := a.UpdatedAt
	if created {
		t = a.CreatedAt
	}
	if t.IsZero() && !full {
		return "…"
	}
	return formatTime(t)
}

func (d *detailScreen) where() where { return where{retry: d.keys.Refresh} }

func (d *detailScreen) view() string {
	if d.h <= 0 {
		return ""
	}
	st := d.c.styles
	if d.showQR {
		return fit(d.qrView(), d.w, d.h)
	}
	lines := []string{st.title.Render(d.acct.Name)}
	if d.err != nil {
		lines = append(lines, st.err.Render("✗ Could not load the account. ")+explain(d.err, d.where()))
	}
	lines = append(lines, d.fieldLines()...)
	lines = append(lines, "")
	head := fmt.Sprintf("Transactions (%d of %d)", d.tx.Loaded(), d.tx.Len())
	switch {
	case d.tx.Busy():
		head += " " + d.c.spinFrame
		if w := waitText(d.env.status, d.c.now()); w != "" {
			head += " " + w
		}
	case d.tx.Err() != nil:
		head += " " + st.err.Render("✗ "+explain(d.tx.Err(), d.where()))
	}
	lines = append(lines, st.bold.Render(head))
	above := strings.Join(lines, "\n")
	rows := ""
	switch {
	case d.tx.Ready() && d.tx.Len() == 0 && d.tx.Err() == nil:
		rows = st.dim.Render("No transactions yet.")
	case d.tx.Ready():
		rows = d.tx.View()
	}
	body := above + "\n" + rows
	if line := d.statusLine(); line != "" {
		return fit(body, d.w, d.h-1) + "\n" + line
	}
	return fit(body, d.w, d.h)
}

// statusLine is the amount prompt, or the simulation waiting; empty
// otherwise (the keys are on the hint line).
func (d *detailScreen) statusLine() string {
	st := d.c.styles
	switch {
	case d.prompting:
		line := d.prompt.View() + st.dim.Render(" "+d.acct.Currency)
		if d.simErr != nil {
			line += " " + st.err.Render(d.simErr.Error())
		}
		return trunc(line, d.w)
	case d.simBusy:
		return trunc(d.c.spinFrame+" Simulating an incoming SEPA transfer…", d.w)
	}
	return ""
}

// qrView draws the EPC payment QR of the IBAN, or says why it cannot.
func (d *detailScreen) qrView() string {
	st := d.c.styles
	w, h := d.w, d.h
	name := d.acct.Holder.Info.Name
	if name == "" {
		name = d.acct.Name
	}
	qr, err := iban.HalfBlocks(iban.EPCPayload(d.acct.BIC, name, d.acct.IBAN), d.c.isDark)
	if err != nil {
		return st.err.Render("✗ " + err.Error())
	}
	code, cw, ch := qr.Text, qr.Width, qr.Height
	caption := "EPC payment QR · " + ibanText(d.acct.IBAN) + " · " + d.keys.CloseQR.Help().Key + " closes"
	if cw > w || ch+1 > h {
		return st.warn.Render(fmt.Sprintf("The terminal is too small for the QR code: it needs %d×%d, this is %d×%d.", cw, ch+1, w, h)) +
			"\nEnlarge the window or press " + d.keys.CloseQR.Help().Key + "."
	}
	return lipgloss.PlaceHorizontal(w, lipgloss.Center, code) + "\n" + lipgloss.PlaceHorizontal(w, lipgloss.Center, trunc(caption, w))
}
