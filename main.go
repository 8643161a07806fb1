// Command partnertui is a terminal client for a banking platform's partner
// API. This file only turns the process into a call: signals become a
// context, internal/cli runs the command line, its result the exit code.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/partnertui/partnertui/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := cli.Run(ctx, cli.System(), os.Args[1:])
	stop()
	os.Exit(code)
}
