// Package usage is the mistake in how a command was called: an option
// that cannot work, alone or with another. The command line maps flags to
// the options of an engine (listen, trigger, the api command's call); the
// engine, which knows which options go together, says what is wrong with
// an Error, worded once by its own message. internal/remedy classifies it
// (read the usage, or type what was probably meant) and the command line
// exits 2.
package usage

import "fmt"

// Error is a mistake in how a command was called.
type Error struct {
	Err error
	// Suggest is the command or flag closest to what was typed
	// ("partnertui accounts", "--first"); "" when none is close.
	Suggest string
	// Explained: the message itself says what to fix (a refused
	// operation's problems), so the usage is not pointed at.
	Explained bool
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf is an Error whose message is format with args (%w wraps).
func Errorf(format string, args ...any) error {
	return &Error{Err: fmt.Errorf(format, args...)}
}
