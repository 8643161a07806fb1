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

	"github.com/charmbracelet/x/term"
)

// IO is where a command reads and writes. Data goes to Out, everything
// else (progress, waits, errors) to Err.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// System is the process's own standard streams.
func System() IO { return IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr} }

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

// Run executes the command line args and returns the exit code.
func Run(ctx context.Context, streams IO, args []string) int {
	return run(ctx, &Factory{IO: streams}, args)
}

// run executes args with f, whose directories a test may have set.
func run(ctx context.Context, f *Factory, args []string) int {
	streams := f.IO
	defer f.Close()
	root := NewCmdRoot(f)
	root.SetArgs(jsonFieldArgs(root, args))
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.Err)
	ran, err := root.ExecuteContextC(ctx)
	if err != nil {
		path := ""
		if ran != nil {
			path = ran.CommandPath()
		}
		printError(streams, f.describeIn(err, path), err)
	}
	return exitCode(err)
}
