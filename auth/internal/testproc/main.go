// Command testproc is a second process for the auth concurrency and crash
// tests: it builds a Session on a shared state directory, waits for a line
// on stdin (so several copies start together), calls TokenSource().Token()
// and prints "ok <sha256 of the access token>" or "error <message>". The
// token itself is never printed.
//
// With -ahead its clock runs that far ahead, so the stored token looks
// expired and the call refreshes. With -via every connection goes to that
// address (a proxy in front of the authorization server) whatever the URL
// says. With -mark it prints "step NAME" as the refresh reaches each of its
// steps (auth.RefreshStep: "step answered" once the answer's last byte is
// in the journal), one write to the stdout pipe each, which outlives a
// SIGKILL. With -stop NAME it prints "stopped NAME" at that step and waits
// there for ever: the test kills it at that very step.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"net"
	"net/http"
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
	ahead := flag.Duration("ahead", 0, "run the clock this far ahead")
	via := flag.String("via", "", "connect to this address instead of the URL's host")
	mark := flag.Bool("mark", false, "print each step of a refresh as it is reached")
	stop := flag.String("stop", "", "stop at this step of a refresh until killed")
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
	if *ahead != 0 {
		opts.Now = func() time.Time { return time.Now().Add(*ahead) }
	}
	if *via != "" {
		// An *http.Transport, as the app's own client is: auth journals
		// the answer from its connection.
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.Proxy = nil
		d := &net.Dialer{Timeout: 10 * time.Second}
		tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, *via)
		}
		opts.HTTPClient = &http.Client{Transport: tr, Timeout: time.Minute}
	}
	if *mark || *stop != "" {
		opts.OnRefresh = func(ev auth.RefreshEvent) {
			if *mark {
				os.Stdout.WriteString("step " + string(ev.Step) + "\n")
			}
			if string(ev.Step) == *stop {
				os.Stdout.WriteString("stopped " + string(ev.Step) + "\n")
				for {
					time.Sleep(time.Hour)
				}
			}
		}
	}
	s, err := auth.NewSession(opts)
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
