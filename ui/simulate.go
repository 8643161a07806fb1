package ui

import (
	"context"
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// Simulator is what the simulation menus need beyond API's incoming
// transfer: the environment's Testing API, through which every simulation
// declared in the api package runs (api.Simulator: a menu runs a
// declaration, so a new simulation needs no method here), and the partner
// API's initiateCreditTransfers and payment. An *api.Client gives both
// (its Testing API beside its own methods); a test's fake answers them
// itself. An environment whose API gives neither is offered the incoming
// transfer only.
type Simulator interface {
	api.Simulator
	payments
}

// payments are the partner API's operations the menus send a transfer
// with.
type payments interface {
	InitiateCreditTransfers(ctx context.Context, in api.InitiateCreditTransfersInput) (*api.Payment, error)
	// Payment reads a payment again (partner API), to learn when the user
	// answered its consent.
	Payment(ctx context.Context, id string) (*api.Payment, error)
}

// testingClient is an API with a Testing API of its own (*api.Client).
type testingClient interface {
	payments
	Testing() *api.Testing
}

// An *api.Client offers every simulation: were it to lose one of these
// methods, the menus would silently offer the incoming transfer only.
var _ testingClient = (*api.Client)(nil)

// clientSimulator is a client's Testing API beside its payments.
type clientSimulator struct {
	api.Simulator
	payments
}

// simulator is the environment's Simulator; nil on a read-only
// environment (Live), where the Testing API does not exist and no
// simulation is offered.
func (e *envState) simulator() Simulator {
	if e.ReadOnly {
		return nil
	}
	switch a := e.API.(type) {
	case Simulator:
		return a
	case testingClient:
		return clientSimulator{Simulator: a.Testing(), payments: a}
	}
	return nil
}

// simField is one input of a simulation's form.
type simField struct {
	label string
	// def is shown greyed in the empty field and used when it is left
	// empty, so enter alone runs the simulation with the defaults.
	def    string
	amount bool // checked as a positive amount
	iban   bool // checked as an IBAN, its check digits included
}

// simOutcome is what a simulation did.
type simOutcome struct {
	text string // said in the flash line
	bad  bool   // the platform declined it (a declined card authorization)
	// txs are the transactions it made or moved, newest first: the screen
	// follows them.
	txs []simTx
	// consent is a payment waiting for the user's consent: the screen
	// shows its page and reads it until the user answers.
	consent *awaitedConsent
}

// awaitedConsent is a payment waiting for the user's consent and the
// amount it sends, said once the user has answered.
type awaitedConsent struct {
	payment *api.Payment
	amount  api.Amount
}

// simTx is a transaction a simulation made or moved.
type simTx struct {
	id   string
	noun string // "transfer": "The simulated transfer is Booked"
	// awaits: it leaves Pending on its own (a received transfer is booked
	// after the platform's delay), so it is read until it does.
	awaits bool
}

// simAction is one simulation a menu offers: its name, its form and what
// runs it. run is given the form's values in the order of fields.
type simAction struct {
	name   string
	fields []simField
	run    func(ctx context.Context, v []string) (simOutcome, error)
	// user: only a user's token can run it (the user consents to it), so
	// it is not offered with a project token.
	user bool
}

// simDoneMsg is a simulation's answer. It is an environment's message: the
// root drops it after a switch, and the screen whose panel asked (id)
// takes it.
type simDoneMsg struct {
	envTag
	id     int
	action string
	out    simOutcome
	err    error
}

func (m simDoneMsg) msgErr() error { return m.err }

// simTouchedMsg says what a simulation, or a followed transaction's new
// status, may have changed. It is broadcast to every screen of the
// environment: each reads again what it shows of these (the account's
// Overview and Transactions tab, the card, the transaction), and a cache
// of views drops them here.
type simTouchedMsg struct {
	envTag
	accountID string
	cardID    string
	txIDs     []string
}

// touches reports whether the message concerns the transaction id.
func (m simTouchedMsg) touches(id string) bool {
	for _, t := range m.txIDs {
		if t == id {
			return true
		}
	}
	return false
}

// touchedCmd broadcasts what changed.
func touchedCmd(m simTouchedMsg) tea.Cmd { return func() tea.Msg { return m } }

// errPositiveAmount is what a form says of an amount that is not one.
var errPositiveAmount = errors.New("enter a positive amount such as 100 or 12.50")

// positiveAmount checks an amount typed in a form.
func positiveAmount(v string) (string, error) {
	v, err := parseAmount(strings.TrimSpace(v))
	if err != nil || strings.Trim(v, "0.") == "" {
		return "", errPositiveAmount
	}
	return v, nil
}

// oneTx is the outcome of a simulation that made or moved one transaction.
func oneTx(text, id, noun string) simOutcome {
	return simOutcome{text: text, txs: []simTx{{id: id, noun: noun}}}
}

// currencyOr is the account's currency, EUR until it is known.
func currencyOr(c string) string {
	if c == "" {
		return "EUR"
	}
	return c
}

// simulating is what a screen that offers simulations holds: the panel s
// opens, the follow of what the simulations made, how the screen builds
// the simulations that fit now, and which of its objects they touch.
type simulating struct {
	env     *envState
	ctx     context.Context
	panel   *simPanel
	follow  *txFollow
	consent *consentWait
	// acts are the simulations that fit now; none on a read-only
	// environment or where nothing fits.
	acts func() []simAction
	// touched names the screen's account and card, for the broadcast.
	touched func() simTouchedMsg
	// many is s's description when more than one simulation fits.
	one, many string
}

// newSimulating builds what a screen holds to simulate: s is described as
// one when a single simulation fits, else as many.
func newSimulating(c *common, env *envState, ctx context.Context, one, many string, acts func() []simAction, touched func() simTouchedMsg) *simulating {
	return &simulating{env: env, ctx: ctx, panel: newSimPanel(c, one), follow: newTxFollow(c, env, ctx, touched),
		consent: newConsentWait(c, env, ctx), acts: acts, touched: touched, one: one, many: many}
}

// capturing reports whether the panel is open, taking every key.
func (s *simulating) capturing() bool { return s.panel.open }

// offered are the simulations that fit now and that the environment's
// token can run: none on a read-only environment, none a user must run
// with a project token.
func (s *simulating) offered() []simAction {
	if s.env.ReadOnly {
		return nil
	}
	acts := s.acts()
	if s.env.Project {
		acts = slices.DeleteFunc(slices.Clone(acts), func(a simAction) bool { return a.user })
	}
	return acts
}

func (s *simulating) syncKeys() {
	n := len(s.offered())
	desc := s.one
	if n > 1 {
		desc = s.many
	}
	s.panel.keys.Open.SetHelp(s.panel.keys.Open.Help().Key, desc)
	s.panel.syncKeys(n > 0)
}

// help is the panel's keys while it is open, else s.
func (s *simulating) help() []key.Binding {
	if s.panel.open {
		return s.panel.help()
	}
	return append([]key.Binding{s.panel.keys.Open}, s.consent.help()...)
}

// handleKey opens the panel on s and gives it every key while open.
func (s *simulating) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	defer s.syncKeys()
	switch {
	case s.panel.open:
		return s.panel.handleKey(msg, s.ctx, s.env.Name), true
	case key.Matches(msg, s.panel.keys.Open):
		return s.panel.show(s.offered()), true
	}
	return s.consent.handleKey(msg)
}

// update handles the simulations' answers and the follow; it reports
// whether msg was one of theirs.
func (s *simulating) update(msg tea.Msg) (tea.Cmd, bool) {
	defer s.syncKeys()
	if cmd, ok := s.follow.update(msg); ok {
		return cmd, true
	}
	if cmd, ok, answered := s.consent.update(msg); ok {
		if answered != nil {
			// Answered: the payment is sent or rejected, never pending.
			cmd = tea.Batch(cmd, s.outcome(paymentOutcome(answered, s.consent.amount)))
		}
		return cmd, true
	}
	switch msg := msg.(type) {
	case simDoneMsg:
		if !s.panel.done(msg) {
			return nil, true
		}
		if msg.err != nil {
			text := "The simulation (" + msg.action + ") failed. " + explain(msg.err, where{retry: s.panel.keys.Open})
			return func() tea.Msg { return flashMsg{text: text, bad: true} }, true
		}
		s.panel.c.log.Info("simulation done", "env", string(msg.env), "simulation", msg.action)
		return s.outcome(msg.out), true
	case tea.PasteMsg:
		return s.panel.paste(msg), s.panel.open
	case tea.BackgroundColorMsg:
		for j := range s.panel.in {
			s.panel.in[j].SetStyles(s.panel.c.inputStyles())
		}
	}
	return nil, false
}

// outcome says what a simulation did (or how the user answered a
// payment's consent), broadcasts what it touched, follows its transactions
// and waits for the consent it asks for.
func (s *simulating) outcome(out simOutcome) tea.Cmd {
	m := s.touched()
	m.env = s.env.Name
	for _, t := range out.txs {
		m.txIDs = append(m.txIDs, t.id)
	}
	cmds := []tea.Cmd{func() tea.Msg { return flashMsg{text: out.text, bad: out.bad} }, touchedCmd(m), s.follow.add(out.txs)}
	if out.consent != nil {
		cmds = append(cmds, s.consent.start(out.consent))
	}
	return tea.Batch(cmds...)
}

// lines is how many of h lines view takes from the body: the followed
// transactions and the consent under it, the panel at the bottom.
func (s *simulating) lines(w, h int) int {
	n := 0
	if f := len(s.consent.lines(w)) + len(s.follow.lines(w)); f > 0 {
		n = f + 1
	}
	if p := len(s.panel.lines(w)); p > 0 && p < h {
		n += p
	}
	return n
}

// view puts the panel under body, fitted to w×h.
func (s *simulating) view(body string, w, h int) string {
	if f := append(s.consent.lines(w), s.follow.lines(w)...); len(f) > 0 {
		body += "\n\n" + strings.Join(f, "\n")
	}
	p := s.panel.lines(w)
	if len(p) == 0 || len(p) >= h {
		return fit(body, w, h)
	}
	return fit(body, w, h-len(p)) + "\n" + strings.Join(p, "\n")
}
