package ui

import (
	"context"
	"net"
	"net/url"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// A transfer the signed-in user sends waits for their consent unless their
// Sandbox user consents automatically: initiateCreditTransfers answers
// ConsentPending with the consent page's address. The screen that sent it
// shows the address, opens it in the browser (o) or copies it (c), and
// reads the payment every consentPoll until the user has answered; the
// payment's transfer is then followed like any simulated transaction.
const (
	consentPoll = 2 * time.Second
	// consentPolls bounds the reading: ten minutes. Opening the page
	// starts it over.
	consentPolls = 300
)

type consentKeys struct {
	Open key.Binding
	Copy key.Binding
}

// consentWait is a screen's payment waiting for the user's consent.
type consentWait struct {
	c    *common
	env  *envState
	ctx  context.Context
	keys consentKeys
	// payment is the payment waiting, nil when none does; amount is what
	// it sends.
	payment *api.Payment
	amount  api.Amount
	// id is the current read, 0 when none (stale ticks and answers are
	// dropped): after consentPolls reads the page is no longer read.
	id    int
	polls int
	err   error // the last read's
}

func newConsentWait(c *common, env *envState, ctx context.Context) *consentWait {
	w := &consentWait{c: c, env: env, ctx: ctx, keys: consentKeys{
		Open: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the consent page")),
		Copy: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy the consent link")),
	}}
	w.syncKeys()
	return w
}

// consentTickMsg asks for the payment again; consentMsg is its answer.
// Both are an environment's messages, so that they reach the screen under
// any screen opened on top of it.
type consentTickMsg struct {
	envTag
	id int
}

type consentMsg struct {
	envTag
	id      int
	payment *api.Payment
	err     error
}

func (m consentMsg) msgErr() error { return m.err }

func (w *consentWait) syncKeys() {
	waiting := w.payment != nil
	// Over SSH or without a display no browser would reach the user
	// (unless they set $BROWSER): only the copy is offered.
	w.keys.Open.SetEnabled(waiting && w.c.opens)
	w.keys.Copy.SetEnabled(waiting)
}

func (w *consentWait) help() []key.Binding {
	if w.payment == nil {
		return nil
	}
	return []key.Binding{w.keys.Open, w.keys.Copy}
}

// start waits for a's consent: its page is read every consentPoll.
func (w *consentWait) start(a *awaitedConsent) tea.Cmd {
	defer w.syncKeys()
	w.payment, w.amount, w.err = a.payment, a.amount, nil
	return w.restart()
}

func (w *consentWait) restart() tea.Cmd {
	w.polls = 0
	w.id = w.c.nextID()
	return w.tick()
}

func (w *consentWait) tick() tea.Cmd {
	env, id := w.env.Name, w.id
	return w.c.tick(consentPoll, func(time.Time) tea.Msg { return consentTickMsg{envTag{env}, id} })
}

// handleKey opens or copies the consent page's address.
func (w *consentWait) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, w.keys.Open):
		// The answer comes soon after: read from now on, also when the
		// reading had stopped or its timer was lost to an environment
		// switch (the old chain's ticks are dropped by id).
		return tea.Batch(w.open(w.payment.ConsentURL), w.restart()), true
	case key.Matches(msg, w.keys.Copy):
		return copyCmd(w.c, w.payment.ConsentURL, "Consent link copied"), true
	}
	return nil, false
}

// open starts the browser on the consent page (openPage).
func (w *consentWait) open(address string) tea.Cmd { return openPage(w.c, w.ctx, address, "consent") }

// webPage reports whether address is a page a browser may be started on:
// https, or http on this machine.
func webPage(address string) bool {
	u, err := url.Parse(address)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		ip := net.ParseIP(u.Hostname())
		return u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())
	}
	return false
}

func (w *consentWait) read() tea.Cmd {
	sim := w.env.simulator()
	if sim == nil {
		return nil
	}
	ctx, env, id, paymentID := w.ctx, w.env.Name, w.id, w.payment.ID
	return w.c.task(func() tea.Msg {
		p, err := sim.Payment(ctx, paymentID)
		return consentMsg{envTag: envTag{env}, id: id, payment: p, err: err}
	})
}

// update handles the wait's messages; it reports whether msg was one, and
// the payment once the user has answered (it is no longer ConsentPending).
func (w *consentWait) update(msg tea.Msg) (cmd tea.Cmd, ok bool, answered *api.Payment) {
	defer w.syncKeys()
	switch msg := msg.(type) {
	case consentTickMsg:
		if msg.id != w.id || msg.id == 0 {
			return nil, true, nil
		}
		return w.read(), true, nil
	case consentMsg:
		if msg.id != w.id || msg.id == 0 {
			return nil, true, nil
		}
		w.err = msg.err
		if msg.err == nil && msg.payment.Status != "ConsentPending" {
			w.payment, w.id = nil, 0
			return nil, true, msg.payment
		}
		if msg.err != nil {
			w.c.log.Warn("could not read a payment waiting for consent", "payment", w.payment.ID, "error", msg.err.Error())
		}
		w.polls++
		if w.polls >= consentPolls {
			w.id = 0
			return nil, true, nil
		}
		return w.tick(), true, nil
	}
	return nil, false, nil
}

// lines show the payment waiting: its id, where the wait stands and the
// consent page's address (c copies it whole when the screen cuts it).
func (w *consentWait) lines(width int) []string {
	if w.payment == nil {
		return nil
	}
	st := w.c.styles
	state := "waiting for your consent"
	switch {
	case w.err != nil:
		state = st.err.Render("status unknown: " + w.err.Error())
	case w.id == 0 && w.c.opens:
		state = "no answer yet, and no longer read: o opens the page and reads it again"
	case w.id == 0:
		state = "no answer yet, and no longer read"
	case !w.c.opens:
		state = "waiting for your consent; no browser opens from here, c copies the link"
	}
	return []string{
		st.title.Render("Consent"),
		trunc("  payment "+w.payment.ID+" · "+state, width),
		trunc("  "+w.payment.ConsentURL, width),
	}
}
