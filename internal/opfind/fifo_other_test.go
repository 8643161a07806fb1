//go:build !unix

package opfind

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
