package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/platform"
)

// secretFlags are the ways a command is given a webhook secret, so that it
// need never be typed on the command line where the process list shows it:
// --secret-env names a variable, --secret-file a file, --secret - reads
// standard input; --secret VALUE works too.
type secretFlags struct {
	value, env, file string
}

// register adds --secret, --secret-env and --secret-file; what says what
// the secret is for.
func (s *secretFlags) register(cmd *cobra.Command, what string) {
	fl := cmd.Flags()
	fl.StringVar(&s.value, "secret", "", what+" (`secret`; - reads it from stdin; --secret-env and --secret-file keep it out of the process list)")
	fl.StringVar(&s.env, "secret-env", "", "read the secret from the environment `variable` of this name")
	fl.StringVar(&s.file, "secret-file", "", "read the secret from the first line of this `file`")
}

// given reports whether a secret was given, whichever way, and by which
// flag, for messages.
func (s *secretFlags) given() (flag string, ok bool) {
	switch {
	case s.value != "":
		return "--secret", true
	case s.env != "":
		return "--secret-env", true
	case s.file != "":
		return "--secret-file", true
	}
	return "", false
}

// maxSecretFile bounds what is read of --secret-file: a secret is a line.
const maxSecretFile = 64 << 10

// read returns the secret given ("" when none), read from stdin, the
// variable (as getenv reads the process's) or the file; a secret the x-swan-secret header cannot carry is
// a usage error that never echoes it.
func (s *secretFlags) read(stdin io.Reader, getenv func(string) string) (string, error) {
	n := 0
	for _, v := range []string{s.value, s.env, s.file} {
		if v != "" {
			n++
		}
	}
	if n > 1 {
		return "", usageErrorf("give the secret one way: --secret, --secret-env or --secret-file")
	}
	flag, _ := s.given()
	var secret string
	switch {
	case s.value == "-":
		line, size, err := readLine(bufio.NewReader(stdin), platform.WebhookSecretMax*4+2)
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("cannot read --secret from stdin: %w", err)
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if size > len(line)+1 || line == "" {
			return "", usageErrorf("--secret - read %d bytes from stdin: give one line of at most %d characters", size, platform.WebhookSecretMax)
		}
		secret = line
	case s.value != "":
		secret = s.value
	case s.env != "":
		v := getenv(s.env)
		if v == "" {
			return "", usageErrorf("--secret-env %s: the variable is not set, or empty: export it first", s.env)
		}
		secret = v
	case s.file != "":
		v, err := readSecretFile(s.file)
		if err != nil {
			return "", err
		}
		secret = v
	default:
		return "", nil
	}
	if p := platform.WebhookSecretProblem(secret); p != "" {
		if flag != "--secret" {
			return "", usageErrorf("%s %s: the secret %s", flag, s.env+s.file, p)
		}
		return "", usageErrorf("--secret %s", p)
	}
	return secret, nil
}

// readSecretFile reads the first line of a regular file, without its line
// end.
func readSecretFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", &UsageError{Err: fmt.Errorf("--secret-file: %w", err)}
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxSecretFile {
		return "", usageErrorf("--secret-file %s is not a secret: a regular file whose first line is the secret", path)
	}
	line, _, err := readLine(bufio.NewReader(f), maxSecretFile)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("cannot read --secret-file %s: %w", path, err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", usageErrorf("--secret-file %s: its first line is empty", path)
	}
	return line, nil
}
