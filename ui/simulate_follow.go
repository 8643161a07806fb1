package ui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
)

// A simulation's transactions move on: a received transfer is accepted
// Pending and booked after the platform's delay, a card authorization is
// released when it is debited. The screen that ran the simulation follows
// them by reading their status (with the project's token, the only one the
// platform answers transactions by id to): once right after the
// simulation, then every bookingPoll while one that moves on its own is
// still Pending. Each new status is drawn, said in the flash line and
// broadcast (simTouchedMsg), so nobody has to press r.
const (
	bookingPoll = time.Second
	// bookingPolls bounds the following: a transfer still Pending after
	// this many polls is left for r.
	bookingPolls = 60
	// followedMax is how many of a screen's simulated transactions it
	// shows and follows.
	followedMax = 5
)

// followedTx is one followed transaction.
type followedTx struct {
	simTx
	tx  *api.TransactionDetail // nil until read
	err error                  // the last read's
}

// txFollow follows a screen's simulated transactions.
type txFollow struct {
	c   *common
	env *envState
	ctx context.Context
	// id is the current read, 0 when none: stale ticks and answers are
	// dropped.
	id    int
	polls int
	txs   []followedTx
	// touched is what the screen says changed when a status moves (its
	// account, its card): the broadcast's ids.
	touched func() simTouchedMsg
}

func newTxFollow(c *common, env *envState, ctx context.Context, touched func() simTouchedMsg) *txFollow {
	return &txFollow{c: c, env: env, ctx: ctx, touched: touched}
}

// bookingTickMsg asks for the followed transactions' status again. It is
// an environment's message so that it reaches the screen under any screen
// opened on top of it.
type bookingTickMsg struct {
	envTag
	id int
}

// bookingMsg is the followed transactions' status, in the order asked.
type bookingMsg struct {
	envTag
	id   int
	txs  []*api.TransactionDetail
	errs []error
}

// add follows txs, newest first, and reads them at once; without a
// project client (which reads transactions by id) they are shown by id
// only.
func (f *txFollow) add(txs []simTx) tea.Cmd {
	for i := len(txs) - 1; i >= 0; i-- {
		t := txs[i]
		if t.id == "" {
			continue
		}
		f.txs = removeFollowed(f.txs, t.id)
		f.txs = append([]followedTx{{simTx: t}}, f.txs...)
	}
	if len(f.txs) > followedMax {
		f.txs = f.txs[:followedMax]
	}
	f.polls = 0
	return f.read()
}

func removeFollowed(txs []followedTx, id string) []followedTx {
	out := txs[:0]
	for _, t := range txs {
		if t.id != id {
			out = append(out, t)
		}
	}
	return out
}

// last is the newest followed transaction that fits, nil when none.
func (f *txFollow) last(fits func(*api.TransactionDetail) bool) *api.TransactionDetail {
	for _, t := range f.txs {
		if t.tx != nil && fits(t.tx) {
			return t.tx
		}
	}
	return nil
}

// read asks for every followed transaction's status.
func (f *txFollow) read() tea.Cmd {
	p := f.env.ProjectAPI
	if p == nil || len(f.txs) == 0 {
		return nil
	}
	f.id = f.c.nextID()
	ids := make([]string, len(f.txs))
	for i, t := range f.txs {
		ids[i] = t.id
	}
	ctx, env, id := f.ctx, f.env.Name, f.id
	return f.c.task(func() tea.Msg {
		m := bookingMsg{envTag: envTag{env}, id: id, txs: make([]*api.TransactionDetail, len(ids)), errs: make([]error, len(ids))}
		for i, txID := range ids {
			m.txs[i], m.errs[i] = p.Transaction(ctx, txID)
		}
		return m
	})
}

func (f *txFollow) tick() tea.Cmd {
	env, id := f.env.Name, f.id
	return f.c.tick(bookingPoll, func(time.Time) tea.Msg { return bookingTickMsg{envTag{env}, id} })
}

// update handles the follow's messages; it reports whether msg was one.
func (f *txFollow) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case bookingTickMsg:
		if msg.id != f.id || msg.id == 0 {
			return nil, true
		}
		return f.read(), true
	case bookingMsg:
		if msg.id != f.id || msg.id == 0 {
			return nil, true
		}
		return f.apply(msg), true
	}
	return nil, false
}

// apply takes the statuses read: what moved is said and broadcast, and
// the reads go on while a transaction that moves on its own is Pending.
func (f *txFollow) apply(msg bookingMsg) tea.Cmd {
	var cmds []tea.Cmd
	var moved []string
	waiting := false
	for i := range f.txs {
		if i >= len(msg.txs) {
			break
		}
		t := &f.txs[i]
		t.err = msg.errs[i]
		if t.err != nil {
			f.c.log.Warn("could not follow a simulated transaction", "transaction", t.id, "error", t.err.Error())
			continue
		}
		before := ""
		if t.tx != nil {
			before = t.tx.StatusInfo.Status
		}
		t.tx = msg.txs[i]
		now := t.tx.StatusInfo.Status
		if before != "" && now != before {
			moved = append(moved, t.id)
			text := "The simulated " + t.noun + " is " + now
			cmds = append(cmds, func() tea.Msg { return flashMsg{text: text, bad: now == "Rejected"} })
		}
		if t.awaits && now == "Pending" {
			waiting = true
		}
	}
	if len(moved) > 0 {
		m := f.touched()
		m.env, m.txIDs = f.env.Name, moved
		cmds = append(cmds, touchedCmd(m))
	}
	f.polls++
	if waiting && f.polls < bookingPolls {
		cmds = append(cmds, f.tick())
	} else {
		f.id = 0
	}
	return tea.Batch(cmds...)
}

// lines are the followed transactions, one a line: id, type, amount,
// status.
func (f *txFollow) lines(w int) []string {
	if len(f.txs) == 0 {
		return nil
	}
	st := f.c.styles
	out := []string{st.title.Render("Simulated here")}
	for _, t := range f.txs {
		parts := []string{t.id, t.noun}
		switch {
		case t.tx != nil:
			parts = append(parts, amountText(t.tx.Amount), st.bold.Render(t.tx.StatusInfo.Status))
			if r := t.tx.StatusInfo.Reason; r != "" {
				parts = append(parts, r)
			}
		case t.err != nil:
			parts = append(parts, st.err.Render("status unknown: "+t.err.Error()))
		case f.env.ProjectAPI != nil:
			parts = append(parts, "…")
		}
		out = append(out, trunc("  "+strings.Join(parts, " · "), w))
	}
	return out
}
