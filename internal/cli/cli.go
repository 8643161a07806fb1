// Package cli is partnertui's command line: one file per command, each a
// NewCmdX(f) constructor, an options struct and a run function. Tests run
// the real command tree (NewCmdRoot) in-process with their own IO, so the
// flags, the session set-up and the error rendering they exercise are the
// binary's; the exit codes and every error's wording live in errors.go. It uses cobra's own help, which shows each flag's value
// placeholder (`--search text`); fang's styled help cannot.
package cli

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/partnertui/partnertui/internal/paths"
)

// IO is where a command reads and writes. Data goes to Out, everything
// else (progress, waits, errors) to Err.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// Process is what the command line is given by the process it runs in:
// its streams, where its files are and its environment variables. Nothing
// below the command line reads the environment for a location; tests give
// their own directories and variables, so that they run side by side.
type Process struct {
	IO
	// Locations are resolved once, when the process starts.
	Locations paths.Locations
	// Getenv reads the variables that change what a command does
	// (PARTNERTUI_DEBUG, NO_COLOR, BROWSER, SSH_CONNECTION…); nil reads
	// none.
	Getenv func(string) string
	// Now is the process's clock (nil: time.Now); tests give a fixed one
	// so that --demo's data does not move with the calendar.
	Now func() time.Time
}

// System is this process's own: its standard streams, the locations its
// environment gives (paths.FromEnvironment) and its variables.
func System() Process {
	return Process{IO: IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, Locations: paths.FromEnvironment(), Getenv: os.Getenv}
}

// OutIsTerminal reports whether Out is a terminal (tables, not JSON).
func (s IO) OutIsTerminal() bool { return isTerminal(s.Out) }

// ErrIsTerminal reports whether Err is a terminal (live countdowns, styled
// errors).
func (s IO) ErrIsTerminal() bool { return isTerminal(s.Err) }

// errWidth is the width of the terminal Err writes to, in cells; 0 when
// Err is no terminal or its size cannot be read.
func (s IO) errWidth() int {
	f, ok := s.Err.(*os.File)
	if !ok {
		return 0
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return w
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// Run executes the command line args in p and returns the exit code.
func Run(ctx context.Context, p Process, args []string) int {
	f := &Factory{IO: p.IO, Locations: p.Locations, Getenv: p.Getenv, Now: p.Now}
	defer f.Close()
	root := NewCmdRoot(f)
	root.SetArgs(jsonFieldArgs(root, args))
	root.SetIn(p.In)
	root.SetOut(p.Out)
	root.SetErr(p.Err)
	ran, err := root.ExecuteContextC(ctx)
	if err != nil {
		path := ""
		if ran != nil {
			path = ran.CommandPath()
		}
		printError(p.IO, f.env, f.describeIn(err, path), err)
	}
	return exitCode(err)
}
