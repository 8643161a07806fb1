// Command testproc is a second process for the auth concurrency tests: it
// builds a Session on a shared state directory, waits for a line on stdin
// (so several copies start together), calls TokenSource().Token() and prints
// "ok <sha256 of the access token>" or "error <message>". The token itself
// is never printed. With -loop it instead refreshes forever (its clock jumps
// two hours per call), printing one line per refresh, until it is killed:
// the crash-safety test kills it at random points.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
)

func main() {
	stateDir := flag.String("state", "", "state directory")
	env := flag.String("env", "sandbox", "environment")
	authURL := flag.String("auth", "", "auth_url")
	apiURL := flag.String("api", "", "api_url")
	clientID := flag.String("client", "", "client id")
	loop := flag.Bool("loop", false, "refresh until killed")
	flag.Parse()
	name, err := config.ParseEnv(*env)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	e := &config.Environment{
		Name: name, APIURL: *apiURL, AuthURL: *authURL, ClientID: *clientID,
		ClientSecretEnv: "PT_TESTPROC_SECRET",
	}
	opts := auth.SessionOptions{Env: e, StateDir: *stateDir}
	now := time.Now()
	if *loop {
		opts.Now = func() time.Time { return now }
	}
	s, err := auth.NewSession(opts)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	if *loop {
		last := ""
		for i := 0; ; {
			now = now.Add(2 * time.Hour)
			tok, err := s.TokenSource().Token()
			if err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			// The clock may trail a token saved by someone with a clock
			// further ahead; only a new token counts as a refresh.
			if tok.AccessToken != last {
				last = tok.AccessToken
				fmt.Println("refreshed", i)
				i++
			}
		}
	}
	bufio.NewReader(os.Stdin).ReadString('\n')
	tok, err := s.TokenSource().Token()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	sum := sha256.Sum256([]byte(tok.AccessToken))
	fmt.Println("ok", hex.EncodeToString(sum[:8]))
}
