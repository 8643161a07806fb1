package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// A simulated incoming transfer is accepted Pending and booked later (the
// emulator books it after its booking delay, the platform when it
// settles): the account's balances change on booking. The Overview follows
// the transaction until it leaves Pending, then reads the account again,
// so nobody has to press r to see the money arrive.
const (
	bookingPoll = time.Second
	// bookingPolls bounds the following: a transfer still Pending after
	// this many polls is left for r.
	bookingPolls = 60
)

// bookingFollow is the transaction the Overview follows.
type bookingFollow struct {
	id    int // the follow, 0 when none: stale ticks and answers are dropped
	txID  string
	polls int
}

// bookingTickMsg asks for the followed transaction's status again. It is
// an environment's message so that it reaches the Overview under any
// screen opened on top of it.
type bookingTickMsg struct {
	envTag
	id int
}

// bookingMsg is the followed transaction's status.
type bookingMsg struct {
	envTag
	id     int
	status string
	err    error
}

// followBooking starts following txID; without a project client (which
// reads transactions by id) there is nothing to follow it with.
func (d *overviewScreen) followBooking(txID string) tea.Cmd {
	if d.env.ProjectAPI == nil || txID == "" {
		return nil
	}
	d.follow = bookingFollow{id: d.c.nextID(), txID: txID}
	return d.bookingTick()
}

func (d *overviewScreen) bookingTick() tea.Cmd {
	env, id := d.env.Name, d.follow.id
	return d.c.tick(bookingPoll, func(time.Time) tea.Msg { return bookingTickMsg{envTag{env}, id} })
}

// booking handles the follow's messages; it reports whether msg was one.
func (d *overviewScreen) booking(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case bookingTickMsg:
		if msg.id != d.follow.id || msg.id == 0 {
			return nil, true
		}
		p, ctx, env, id, txID := d.env.ProjectAPI, d.ctx, d.env.Name, d.follow.id, d.follow.txID
		return d.c.task(func() tea.Msg {
			tx, err := p.Transaction(ctx, txID)
			m := bookingMsg{envTag: envTag{env}, id: id, err: err}
			if tx != nil {
				m.status = tx.StatusInfo.Status
			}
			return m
		}), true
	case bookingMsg:
		if msg.id != d.follow.id || msg.id == 0 {
			return nil, true
		}
		d.follow.polls++
		switch {
		case msg.err != nil:
			d.c.log.Warn("could not follow the simulated transfer", "transaction", d.follow.txID, "error", msg.err.Error())
		case msg.status == "Pending" && d.follow.polls < bookingPolls:
			return d.bookingTick(), true
		case msg.status != "Pending":
			d.follow = bookingFollow{}
			text := "The simulated transfer is " + msg.status
			cmds := []tea.Cmd{d.loadAccount(), func() tea.Msg { return flashMsg{text: text, bad: msg.status != "Booked"} }}
			if d.simulated != nil {
				cmds = append(cmds, d.simulated())
			}
			return tea.Batch(cmds...), true
		}
		d.follow = bookingFollow{}
		return nil, true
	}
	return nil, false
}
