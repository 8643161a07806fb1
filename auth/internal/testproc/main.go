// Command testproc is a second process for the auth concurrency tests: it
// builds a Session on a shared state directory, waits for a line on stdin
// (so several copies start together), calls TokenSource().Token() and prints
// "ok <sha256 of the access token>" or "error <message>". The token itself
// is never printed.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
)

func main() {
	stateDir := flag.String("state", "", "state directory")
	env := flag.String("env", "sandbox", "environment")
	authURL := flag.String("auth", "", "auth_url")
	apiURL := flag.String("api", "", "api_url")
	clientID := flag.String("client", "", "client id")
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
	s, err := auth.NewSession(auth.SessionOptions{Env: e, StateDir: *stateDir})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	tok, err := s.TokenSource().Token()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	sum := sha256.Sum256([]byte(tok.AccessToken))
	fmt.Println("ok", hex.EncodeToString(sum[:8]))
}
