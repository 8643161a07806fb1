package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/ui/balancechart"
)

// simulatedDebtorIBAN is a well-known valid test IBAN used as the sender of
// simulated incoming transfers.
const simulatedDebtorIBAN = "DE89370400440532013000"

type overviewKeys struct {
	Copy, QR, Refresh key.Binding
	CloseQR           key.Binding
	// Period is the balance chart's own key (30/90/365 days).
	Period key.Binding
}

func newOverviewKeys() overviewKeys {
	return overviewKeys{
		Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy IBAN")),
		QR:      key.NewBinding(key.WithKeys("Q"), key.WithHelp("Q", "IBAN QR code")),
		Refresh: refreshKey(),
		// Q opens the QR code and, as esc, closes it: one key in the help.
		CloseQR: key.NewBinding(key.WithKeys("esc", "Q"), key.WithHelp("esc/Q", "close QR code")),
		Period:  balancechart.DefaultKeyMap().Period,
	}
}

// overviewScreen is an account's Overview tab: the account in full, read in
// one request (its status and why, its holder, the signed-in user's
// membership of it), its IBAN as text and as a QR code, its booked balance
// over the last days as a chart (overview_chart.go), and in Sandbox the
// account's simulations (s): receive a transfer or a direct debit, charge
// a fee, send a transfer.
type overviewScreen struct {
	c      *common
	env    *envState
	ctx    context.Context
	cancel context.CancelFunc
	keys   overviewKeys
	w, h   int

	// acct is the account as far as it is known: the list's row until
	// the detail comes.
	acct   api.Account
	detail loader[api.AccountDetail]

	showQR bool
	// retype is the : key when the account was asked for by an ID the
	// user typed (where.retype).
	retype key.Binding

	// opening, until the first read, is the request that opens the
	// account: that read sends it and takes the account from it.
	opening *accountOpening
	// fromView: the read in flight is the opening's; refreshed runs when
	// it ends, so the tabs shown from the kept view read the new one.
	fromView  bool
	refreshed func() tea.Cmd
	// kept is when the account shown was read, while it is the view kept
	// from an earlier visit; zero once it is fresh.
	kept time.Time
	// chart is the booked balance over the last days, read after the
	// account (its first reads with it, when the opening carries them).
	chart *overviewChart
	// took is what the read in flight brought of the chart, once it has
	// answered: the opening's view's first reads of it, nil for any other
	// read. The read's command writes it before its answer, the loop reads
	// it once that answer is applied.
	took **chartFrom
	sim  *simulating
	// simulated runs when a simulation touched the account: the account
	// screen reads its transactions again.
	simulated func() tea.Cmd
}

func newOverviewScreen(c *common, env *envState, a api.Account) *overviewScreen {
	ctx, cancel := context.WithCancel(env.ctx)
	d := &overviewScreen{c: c, env: env, ctx: ctx, cancel: cancel, acct: a, keys: newOverviewKeys(), chart: newOverviewChart(c, env)}
	d.sim = newSimulating(c, env, ctx, "simulate transfer", "simulate transfer, fee…", d.simulations,
		func() simTouchedMsg { return simTouchedMsg{accountID: d.acct.ID} })
	d.syncKeys()
	return d
}

func (d *overviewScreen) init() tea.Cmd { return d.loadAccount() }

func (d *overviewScreen) title() string { return "Overview" }

func (d *overviewScreen) capturing() bool { return d.prompting() }

// prompting reports whether the simulation panel is open, taking every key.
func (d *overviewScreen) prompting() bool { return d.sim.capturing() }
func (d *overviewScreen) busy() bool {
	return d.detail.busy() || d.sim.panel.busy() || d.chart.busy()
}
func (d *overviewScreen) close() { d.cancel() }

// simulations are the account's, once it is known (k9s-style: none, and
// no key, on a read-only environment).
func (d *overviewScreen) simulations() []simAction {
	if !d.known() || d.env.ReadOnly {
		return nil
	}
	return accountSims(d.env.API, d.env.simulator(), d.acct, d.c.now(), d.c.consentRedirectURL)
}

// known: the account was read, or came with the list's row (which always
// names it); an ID nobody has found yet offers nothing to copy or show.
func (d *overviewScreen) known() bool { return d.detail.item != nil || d.acct.Name != "" }

func (d *overviewScreen) syncKeys() {
	k := &d.keys
	k.Copy.SetEnabled(d.known() && !d.prompting())
	k.QR.SetEnabled(d.known() && !d.prompting() && !d.showQR)
	k.CloseQR.SetEnabled(d.showQR && !d.prompting())
	k.Refresh.SetEnabled(!d.prompting())
	k.Period.SetEnabled(d.known() && !d.prompting() && !d.showQR && d.chart.hidden == "")
	d.sim.syncKeys()
}

func (d *overviewScreen) ShortHelp() []key.Binding {
	k := d.keys
	if d.prompting() {
		return d.sim.help()
	}
	// CloseQR is drawn only while the QR code is shown: first, then.
	return append(append([]key.Binding{k.CloseQR, k.Copy, k.QR}, d.sim.help()...), k.Period, k.Refresh)
}

func (d *overviewScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{d.ShortHelp()}
}

func (d *overviewScreen) setSize(w, h int) { d.w, d.h = w, h }

// loadAccount reads the account in full; with a user token the same
// request brings the user's membership of it.
func (d *overviewScreen) loadAccount() tea.Cmd {
	a, id, project, o, bg := d.env.API, d.acct.ID, d.env.Project, d.opening, d.env.ctx
	d.opening, d.fromView = nil, o != nil
	took := new(*chartFrom)
	d.took = took
	if o != nil {
		o.begin()
	}
	// A chart drawn from what the request brought is kept only if no
	// kept chart was forgotten since it was sent.
	since := d.env.charts.generation()
	return d.detail.load(d.c, d.ctx, d.env.Name, func(ctx context.Context) (*api.AccountDetail, error) {
		if o != nil {
			if v, err := o.send(bg, ctx, a); err == nil {
				*took = o.chartOf(v, since)
				return v.Detail, nil
			}
		}
		return a.AccountDetail(ctx, id, project)
	})
}

func (d *overviewScreen) update(msg tea.Msg) tea.Cmd {
	defer d.syncKeys()
	if d.detail.apply(msg) {
		var cmds []tea.Cmd
		if it := d.detail.item; it != nil {
			d.acct = it.Account
		}
		// The answer applied is the read in flight's: took is written.
		var from *chartFrom
		if d.took != nil {
			from = *d.took
		}
		if d.detail.err == nil {
			d.kept = time.Time{}
			cmds = append(cmds, d.readChart(from))
		}
		if d.fromView && d.refreshed != nil {
			d.fromView = false
			cmds = append(cmds, d.refreshed())
		}
		return tea.Batch(cmds...)
	}
	if cmd, ok := d.chart.apply(msg, d.acct.ID); ok {
		return cmd
	}
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		d.chart.restyle()
		return nil
	}
	if cmd, ok := d.sim.update(msg); ok {
		return cmd
	}
	if msg, ok := msg.(simTouchedMsg); ok && msg.accountID == d.acct.ID && msg.accountID != "" {
		// The chart shown stays, marked, until the account and then its
		// chart are read again.
		d.env.charts.forget(d.acct.ID)
		cmds := []tea.Cmd{d.loadAccount()}
		if d.simulated != nil {
			cmds = append(cmds, d.simulated())
		}
		return tea.Batch(cmds...)
	}
	return nil
}

func (d *overviewScreen) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer d.syncKeys()
	if cmd, ok := d.sim.handleKey(msg); ok {
		return cmd, true
	}
	k := d.keys
	switch {
	case key.Matches(msg, k.Copy):
		compact := iban.Compact(d.acct.IBAN)
		if compact == "" {
			return func() tea.Msg { return flashMsg{text: "This account has no IBAN to copy", bad: true} }, true
		}
		return copyCmd(d.c, compact, "IBAN copied"), true
	case key.Matches(msg, k.QR):
		if d.acct.IBAN == "" {
			return func() tea.Msg { return flashMsg{text: "This account has no IBAN to show as a QR code", bad: true} }, true
		}
		d.showQR = !d.showQR
		return nil, true
	case key.Matches(msg, k.CloseQR):
		d.showQR = false
		return nil, true
	case key.Matches(msg, k.Refresh):
		return d.loadAccount(), true
	case key.Matches(msg, k.Period):
		if !d.chart.cycle(msg, d.acct.ID) || d.detail.item == nil {
			// Without the account's balance, the read waits for it.
			return nil, true
		}
		return d.readChart(nil), true
	}
	return nil, false
}

// readChart reads the balance chart: after the account's one request, from
// the booked balance it brought, and from its first reads of the chart
// when it brought them (from, nil otherwise).
func (d *overviewScreen) readChart(from *chartFrom) tea.Cmd {
	if det := d.detail.item; det != nil && det.Membership != nil && !det.Membership.CanViewAccount {
		d.chart.hide("your membership lacks canViewAccount, which the platform requires to show its bookings")
		return nil
	}
	return d.chart.read(d.ctx, &d.acct, from)
}

// fieldLines are the account's fields: what the list's row had at once,
// the rest once the detail came; without the first shed groups of
// overviewShed.
func (d *overviewScreen) fieldLines(shed int) []string {
	st := d.c.styles
	a := &d.acct
	det := d.detail.item
	val := func(s string) string {
		switch {
		case s != "":
			return s
		case det != nil:
			return "—"
		}
		return "…"
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
	status := a.StatusInfo.Status
	if det != nil {
		status = accountStatusText(&det.StatusDetail)
	}
	fs := append(d.ibanFields(), []field{
		{label: "BIC", value: val(a.BIC)}, {label: "Number", value: val(a.Number)},
		{label: "Holder", value: val(holder)}, {label: "Status", value: val(status)},
		{label: "Payment", value: val(a.PaymentLevel)}, {label: "Currency", value: val(a.Currency)},
		{label: "Available", value: bal(func(b *api.Balances) api.Amount { return b.Available })},
		{label: "Booked", value: bal(func(b *api.Balances) api.Amount { return b.Booked })},
		{label: "Pending", value: bal(func(b *api.Balances) api.Amount { return b.Pending })},
		{label: "Reserved", value: bal(func(b *api.Balances) api.Amount { return b.Reserved })},
		{label: "Created", value: timeOr(a.CreatedAt, det != nil)}, {label: "Updated", value: timeOr(a.UpdatedAt, det != nil)},
	}...)
	if det != nil {
		fs = append(fs, holderFields(&det.HolderDetail)...)
		if m := det.Membership; m != nil {
			fs = append(fs, field{label: "You", value: m.StatusInfo.Status + " member, legal representative: " + yesNo(m.LegalRepresentative), wide: true},
				field{label: "Your rights", value: checks(st, rightNames[:], rights(m)), wide: true})
		}
	}
	if shed > 0 {
		gone := map[string]bool{}
		for _, g := range overviewShed[:min(shed, len(overviewShed))] {
			for _, l := range g {
				gone[l] = true
			}
		}
		kept := fs[:0]
		for _, f := range fs {
			if !gone[f.label] {
				kept = append(kept, f)
			}
		}
		fs = kept
	}
	return fieldRows(st, d.w, fs)
}

// ibanFields are the IBAN checked, or why there is none: a line for each
// reason the platform has to hide it.
func (d *overviewScreen) ibanFields() []field {
	st := d.c.styles
	a := &d.acct
	det := d.detail.item
	one := func(v string) []field { return []field{{label: TextIBAN, value: v, wide: true}} }
	switch {
	case a.IBAN != "" && iban.Valid(a.IBAN):
		return one(st.bold.Render(iban.Format(a.IBAN)) + " " + st.ok.Render("✓ valid"))
	case a.IBAN != "":
		return one(st.bold.Render(iban.Format(a.IBAN)) + " " + st.err.Render("✗ check digits wrong"))
	case det == nil:
		return one("…")
	}
	var fs []field
	for i, r := range det.IBANHidden() {
		text := "also: " + ibanHiddenText(r)
		if i == 0 {
			text = "not shown: " + ibanHiddenText(r)
		}
		fs = append(fs, field{value: st.warn.Render(text), wide: true})
	}
	fs[0].label = TextIBAN
	return fs
}

// ibanHiddenText says what one reason for a missing IBAN means.
func ibanHiddenText(r api.IBANHiddenReason) string {
	switch r {
	case api.IBANLimitedAccount:
		return "the account is Limited; only Unlimited ones get an IBAN"
	case api.IBANNoViewRight:
		return "your membership lacks canViewAccount"
	}
	return "none is assigned to this account yet"
}

// accountStatusText is the status with its reason and dates.
func accountStatusText(s *api.AccountStatusDetail) string {
	parts := []string{s.Status}
	if r := s.ReasonInfo; r != nil {
		parts = append(parts, joinNonEmpty(": ", r.Type, r.Message))
	}
	if !s.ClosingAt.IsZero() {
		parts = append(parts, "closing "+formatTime(s.ClosingAt))
	}
	if !s.ClosedAt.IsZero() {
		parts = append(parts, "closed "+formatTime(s.ClosedAt))
	}
	return strings.Join(parts, " · ")
}

// holderFields are what the detail adds about the holder.
func holderFields(h *api.HolderDetail) []field {
	fs := []field{{label: "Verified", value: orDash(h.VerificationStatus)}}
	if s := h.StatusInfo; s != nil {
		fs = append(fs, field{label: "Holder is", value: joinNonEmpty(" · ", s.Status, s.Reason)})
	} else {
		fs = append(fs, field{label: "Holder is", value: "—"})
	}
	if i := h.Info; i.RegistrationNumber != "" || i.VatNumber != "" || i.TradeName != "" {
		fs = append(fs, field{label: "Company", value: joinNonEmpty(" · ", i.TradeName, joinNonEmpty(" ", "reg.", i.RegistrationNumber), joinNonEmpty(" ", "VAT", i.VatNumber)), wide: true})
	}
	if a := h.ResidencyAddress; a != nil {
		fs = append(fs, field{label: "Address", value: orDash(joinNonEmpty(", ", a.AddressLine1, a.AddressLine2, joinNonEmpty(" ", a.PostalCode, a.City), a.State, a.Country)), wide: true})
	}
	return fs
}

// timeOr is t, or "…" until the detail came.
func timeOr(t time.Time, full bool) string {
	if t.IsZero() && !full {
		return "…"
	}
	return formatTime(t)
}

func (d *overviewScreen) where() where {
	return where{retry: d.keys.Refresh, project: d.env.Project, retype: d.retype}
}

func (d *overviewScreen) view() string {
	if d.h <= 0 {
		return ""
	}
	st := d.c.styles
	if d.showQR {
		return fit(d.qrView(), d.w, d.h)
	}
	lines := []string{st.title.Render(accountTitle(&d.acct))}
	if w := waitText(d.env.status, d.c.now()); w != "" && d.detail.busy() {
		lines = append(lines, d.c.spinFrame+" "+w)
	}
	if err := d.detail.err; err != nil {
		lines = append(lines, wrap(st.err.Render("✗ Could not load the account. ")+d.c.explain(err, d.where()), d.w))
	}
	h := d.h
	line := d.keptLine()
	if line != "" {
		h--
	}
	if d.known() || d.detail.err == nil {
		lines = append(lines, d.withChart(h-len(lines)-d.sim.lines(d.w, h))...)
	}
	body := strings.Join(lines, "\n")
	if line != "" {
		return d.sim.view(body, d.w, h) + "\n" + line
	}
	return d.sim.view(body, d.w, h)
}

// withChart are the fields and the balance chart under them in room
// lines: on a short terminal the fields give up their least needed lines
// (overviewShed) until the chart has chartMin lines.
func (d *overviewScreen) withChart(room int) []string {
	switch {
	case !d.known() || d.chart.none():
		return d.fieldLines(0)
	case d.chart.hidden != "":
		return append(d.fieldLines(0), "", d.chart.hiddenLine(d.w))
	}
	for shed := 0; ; shed++ {
		fields := d.fieldLines(shed)
		left := room - len(fields) - 1
		if left >= d.chart.need() || shed == len(overviewShed) {
			return append(append(fields, ""), d.chart.lines(d.w, left, d.where())...)
		}
	}
}

// keptLine says how old the account shown is while it is the view kept
// from an earlier visit, and the chart's age when it is another (the
// chart is drawn, and kept, once the account's answer reaches its screen,
// so a revalidation that outlived its screen may have refreshed one and
// not the other); empty once both are fresh.
func (d *overviewScreen) keptLine() string {
	now := d.c.now()
	var parts []string
	account := ""
	if !d.kept.IsZero() {
		account = shortDuration(now.Sub(d.kept))
		parts = append(parts, "updated "+account+" ago")
	}
	if c := d.chart.keptAt(); !c.IsZero() {
		switch chart := shortDuration(now.Sub(c)); {
		case account == "":
			parts = append(parts, "chart updated "+chart+" ago")
		case chart != account:
			parts = append(parts, "chart "+chart+" ago")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	line := strings.Join(parts, " · ")
	if d.detail.busy() || d.chart.busy() {
		line += " · " + d.c.spinFrame + " refreshing"
	}
	return trunc(d.c.styles.dimP.Render(line), d.w)
}

// qrView draws the EPC payment QR of the IBAN, or says why it cannot.
func (d *overviewScreen) qrView() string {
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
	caption := "EPC payment QR · " + iban.Format(d.acct.IBAN) + " · " + d.keys.CloseQR.Help().Key + " closes"
	if cw > w || ch+1 > h {
		return st.warn.Render(fmt.Sprintf("The terminal is too small for the QR code: it needs %d×%d, this is %d×%d.", cw, ch+1, w, h)) +
			"\nEnlarge the window or press " + d.keys.CloseQR.Help().Key + "."
	}
	return lipgloss.PlaceHorizontal(w, lipgloss.Center, code) + "\n" + lipgloss.PlaceHorizontal(w, lipgloss.Center, trunc(caption, w))
}
