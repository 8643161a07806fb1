// Package teacmd runs Bubble Tea commands synchronously, for tests that
// drive a model without a program: every request is answered before the
// next key, and nothing waits on a timer. It imports nothing of the module,
// so any package's tests can use it; only tests import it.
package teacmd

import tea "charm.land/bubbletea/v2"

// MaxSteps bounds one Run: a loop of commands that keeps producing more
// has not settled, and Run stops it.
const MaxSteps = 10000

// Run runs cmd and every command that follows from it, in order, on the
// calling goroutine: the commands of a tea.BatchMsg join the queue, and
// any other message goes to deliver, whose command (nil for none) joins
// the queue in turn. It reports false when the queue was still not empty
// after MaxSteps commands.
func Run(cmd tea.Cmd, deliver func(tea.Msg) tea.Cmd) bool {
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > MaxSteps {
			return false
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			queue = append(queue, deliver(msg))
		}
	}
	return true
}
