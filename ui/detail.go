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
)

const txPageSize = 20

// simulatedDebtorIBAN is a well-known valid test IBAN used as the sender of
// simulated incoming transfers.
const simulatedDebtorIBAN = "DE89370400440532013000"

var amountRE = regexp.MustCompile(`^[0-9]{1,9}(\.[0-9]{1,2})?$`)

// detailScreen shows one account in full with its latest transactions.
type detailScreen struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc

	acct    api.Account
	full    bool
	acctID  int
	loading bool
	err     error

	txs       []api.Transaction
	txTotal   int
	txEnd     string
	txHasNext bool
	txGen     int
	txBusy    bool
	txErr     error
	txCursor  int
	txOffset  int

	showQR bool

	prompt    textinput.Model
	prompting bool
	simID     int
	simBusy   bool
	simErr    error
}

func newDetailScreen(c *common, env *envState, a api.Account) *detailScreen {
	ctx, cancel := context.WithCancel(env.ctx)
	d := &detailScreen{c: c, env: env, ctx: ctx, cancel: cancel, acct: a}
	d.prompt = newTextInput("Amount to receive: ", "100.00", 12)
	d.prompt.SetStyles(c.inputStyles())
	return d
}

func (d *detailScreen) init() tea.Cmd {
	return tea.Batch(d.loadAccount(), d.loadTx(""))
}

func (d *detailScreen) title() string {
	if n := d.acct.Name; n != "" {
		return n
	}
	return "Account"
}

func (d *detailScreen) capturing() bool { return d.prompting }
func (d *detailScreen) busy() bool      { return d.loading || d.txBusy || d.simBusy }
func (d *detailScreen) close()          { d.cancel() }

// canSimulate: the Testing API exists only in Sandbox (k9s-style: the key is
// not bound at all when read-only).
func (d *detailScreen) canSimulate() bool { return !d.env.ReadOnly && d.env.Name != config.Live }

func (d *detailScreen) ShortHelp() []key.Binding {
	k := d.c.keys
	if d.prompting {
		return []key.Binding{k.Submit, k.Cancel}
	}
	b := []key.Binding{k.Back, k.Copy, k.QR}
	if d.canSimulate() {
		b = append(b, k.Simulate)
	}
	return append(b, k.Refresh, k.Help)
}

func (d *detailScreen) FullHelp() [][]key.Binding {
	k := d.c.keys
	acts := []key.Binding{k.Copy, k.QR}
	if d.canSimulate() {
		acts = append(acts, k.Simulate)
	}
	acts = append(acts, k.Refresh, k.Back)
	return [][]key.Binding{k.navigation(), acts}
}

func (d *detailScreen) back() (bool, tea.Cmd) {
	if d.showQR {
		d.showQR = false
		return true, nil
	}
	return false, nil
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

func (d *detailScreen) loadTx(after string) tea.Cmd {
	if after == "" {
		d.txGen = d.c.nextID()
	}
	d.txBusy = true
	a, ctx, id, env, accID := d.env.API, d.ctx, d.txGen, d.env.Name, d.acct.ID
	return d.c.task(func() tea.Msg {
		page, err := a.Transactions(ctx, accID, txPageSize, after)
		return txMsg{envTag{env}, id, after, page, err}
	})
}

// txVisible is how many transaction rows view draws in a body of w×h: what
// the title, an error line, the fields, a blank line, the heading and the
// status line leave. It must follow view's layout, or page keys would jump
// past the rows on screen.
func (d *detailScreen) txVisible(w, h int) int {
	above := 1 + len(d.fieldLines(w)) + 2
	if d.err != nil {
		above++
	}
	return max(h-above-1, 0)
}

// txPage is the transaction rows of the current terminal, for the keys.
func (d *detailScreen) txPage() int {
	return max(d.txVisible(d.c.width, d.c.height-3), 1)
}

func (d *detailScreen) moreTx() tea.Cmd {
	if !d.txHasNext || d.txBusy || d.txCursor < len(d.txs)-d.txPage()-1 {
		return nil
	}
	return d.loadTx(d.txEnd)
}

func (d *detailScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		d.prompt.SetStyles(d.c.inputStyles())
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
	case txMsg:
		if msg.id != d.txGen {
			return nil
		}
		d.txBusy = false
		if msg.err != nil {
			keepErr(&d.txErr, msg.err)
			return nil
		}
		if msg.page == nil {
			return nil
		}
		if msg.after == "" {
			d.txs = append([]api.Transaction(nil), msg.page.Transactions...)
			d.txCursor, d.txOffset = 0, 0
		} else {
			d.txs = append(d.txs, msg.page.Transactions...)
		}
		d.txTotal = msg.page.TotalCount
		d.txEnd = msg.page.PageInfo.EndCursor
		d.txHasNext = msg.page.PageInfo.HasNextPage && d.txEnd != ""
		d.txErr = nil
		return d.moreTx()
	case simulateMsg:
		if msg.id != d.simID {
			return nil
		}
		d.simBusy = false
		if msg.err != nil {
			d.simErr = msg.err
			return func() tea.Msg { return flashMsg{text: "Simulated transfer failed: " + describe(msg.err), bad: true} }
		}
		d.simErr = nil
		d.c.log.Info("simulated transfer booked", "env", string(msg.env), "transaction", msg.txID)
		text := "Received " + amountText(msg.amount) + " (simulated transfer)"
		return tea.Batch(d.loadAccount(), d.loadTx(""), func() tea.Msg { return flashMsg{text: text} })
	case tea.KeyPressMsg:
		if d.prompting {
			return d.promptKey(msg)
		}
		return d.key(msg)
	}
	if d.prompting {
		_, cmd := editInput(&d.prompt, msg)
		return cmd
	}
	return nil
}

func (d *detailScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := d.c.keys
	switch {
	case key.Matches(msg, k.Copy):
		compact := iban.Compact(d.acct.IBAN)
		if compact == "" {
			return func() tea.Msg { return flashMsg{text: "This account has no IBAN to copy", bad: true} }
		}
		return tea.Batch(d.c.clipboard(compact), func() tea.Msg { return flashMsg{text: "IBAN copied"} })
	case key.Matches(msg, k.QR):
		if d.acct.IBAN == "" {
			return func() tea.Msg { return flashMsg{text: "This account has no IBAN to show as a QR code", bad: true} }
		}
		d.showQR = !d.showQR
		return nil
	case key.Matches(msg, k.Simulate) && d.canSimulate():
		if d.simBusy {
			return nil
		}
		d.prompting = true
		d.prompt.SetValue("")
		d.simErr = nil
		return d.prompt.Focus()
	case key.Matches(msg, k.Refresh):
		return tea.Batch(d.loadAccount(), d.loadTx(""))
	}
	c, ok := k.move(msg, d.txCursor, d.txPage(), len(d.txs))
	if !ok {
		return nil
	}
	d.txCursor = clampInt(c, 0, max(len(d.txs)-1, 0))
	return d.moreTx()
}

func (d *detailScreen) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	k := d.c.keys
	switch {
	case key.Matches(msg, k.Cancel):
		d.prompting = false
		d.prompt.Blur()
		return nil
	case key.Matches(msg, k.Submit):
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
func (d *detailScreen) fieldLines(w int) []string {
	st := d.c.styles
	a := &d.acct
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

func (d *detailScreen) view(w, h int) string {
	st := d.c.styles
	if d.showQR {
		return d.qrView(w, h)
	}
	lines := []string{st.title.Render(d.acct.Name)}
	if d.err != nil {
		lines = append(lines, st.err.Render("✗ Could not load the account: "+describe(d.err)+" (r retries)"))
	}
	lines = append(lines, d.fieldLines(w)...)
	lines = append(lines, "")
	head := fmt.Sprintf("Transactions (%d of %d)", len(d.txs), d.txTotal)
	switch {
	case d.txBusy:
		head += " " + d.c.spinFrame
	case d.txErr != nil:
		head += " " + st.err.Render("✗ "+describe(d.txErr))
	}
	lines = append(lines, st.bold.Render(head))
	vis := max(h-len(lines)-1, 0) // txVisible counts the same lines
	if vis > 0 {
		switch {
		case len(d.txs) == 0 && !d.txBusy && d.txErr == nil:
			lines = append(lines, st.dim.Render("No transactions yet."))
		default:
			d.txOffset = clampInt(d.txOffset, max(d.txCursor-vis+1, 0), d.txCursor)
			end := min(d.txOffset+vis, len(d.txs))
			for i := d.txOffset; i < end; i++ {
				row := txRow(&d.txs[i], w)
				if i == d.txCursor {
					row = st.selected.Render(row)
				}
				lines = append(lines, row)
			}
		}
	}
	body := fit(strings.Join(lines, "\n"), w, max(h-1, 0))
	return body + "\n" + d.statusLine(w)
}

func (d *detailScreen) statusLine(w int) string {
	st := d.c.styles
	switch {
	case d.prompting:
		line := d.prompt.View() + st.dim.Render(" "+d.acct.Currency+" · enter send · esc cancel")
		if d.simErr != nil {
			line += " " + st.err.Render(d.simErr.Error())
		}
		return trunc(line, w)
	case d.simBusy:
		return trunc(d.c.spinFrame+" Simulating an incoming SEPA transfer…", w)
	}
	hints := []string{"y copy IBAN", "Q QR code"}
	if d.canSimulate() {
		hints = append(hints, "s simulate transfer")
	}
	hints = append(hints, "esc back")
	return trunc(st.dim.Render(strings.Join(hints, " · ")), w)
}

func txRow(t *api.Transaction, w int) string {
	sign := ""
	switch t.Side {
	case "Debit":
		sign = "-"
	case "Credit":
		sign = "+"
	}
	date := "          "
	if !t.ExecutionDate.IsZero() {
		date = t.ExecutionDate.UTC().Format("2006-01-02")
	}
	amount := fmt.Sprintf("%16s", sign+amountText(t.Amount))
	label := t.Label
	if cp := t.Counterparty; cp != "" {
		label = cp + " · " + label
	}
	row := fmt.Sprintf("%s %s  %-9s %s", date, amount, trunc(t.StatusInfo.Status, 9), label)
	return trunc(row, w)
}

// qrView draws the EPC payment QR of the IBAN, or says why it cannot.
func (d *detailScreen) qrView(w, h int) string {
	st := d.c.styles
	name := d.acct.Holder.Info.Name
	if name == "" {
		name = d.acct.Name
	}
	qr, err := iban.HalfBlocks(iban.EPCPayload(d.acct.BIC, name, d.acct.IBAN), d.c.isDark)
	code, cw, ch := qr.Text, qr.Width, qr.Height
	if err != nil {
		return st.err.Render("✗ " + err.Error())
	}
	caption := "EPC payment QR · " + ibanText(d.acct.IBAN) + " · esc closes"
	if cw > w || ch+1 > h {
		return st.warn.Render(fmt.Sprintf("The terminal is too small for the QR code: it needs %d×%d, this is %d×%d.", cw, ch+1, w, h)) +
			"\nEnlarge the window or press esc."
	}
	return lipgloss.PlaceHorizontal(w, lipgloss.Center, code) + "\n" + lipgloss.PlaceHorizontal(w, lipgloss.Center, trunc(caption, w))
}
