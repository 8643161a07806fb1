// Command testbrowser is the scripted browser of the auth tests: $BROWSER
// points at it, and it fills the emulator's sign-in forms with
// auth.ApproveWithForms. It reads its script from the environment:
//
//	PT_TESTBROWSER_PHONE  phone number to sign in with
//	PT_TESTBROWSER_MODE   approve (default), deny, wrongstate (first hits the
//	                      callback with a forged state, then approves), or
//	                      ignore (does nothing, as a closed tab would)
//	PT_TESTBROWSER_LOG    file that receives the URL and what happened
package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/partnertui/partnertui/auth"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: testbrowser URL")
		os.Exit(2)
	}
	target := os.Args[1]
	logf := func(format string, args ...any) {
		if p := os.Getenv("PT_TESTBROWSER_LOG"); p != "" {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err == nil {
				fmt.Fprintf(f, format+"\n", args...)
				f.Close()
			}
		}
	}
	logf("url %s", target)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	mode := os.Getenv("PT_TESTBROWSER_MODE")
	switch mode {
	case "ignore":
		logf("ignored")
		return
	case "wrongstate":
		u, err := url.Parse(target)
		if err != nil {
			fail(logf, err)
		}
		cb, err := url.Parse(u.Query().Get("redirect_uri"))
		if err != nil {
			fail(logf, err)
		}
		cb.RawQuery = url.Values{"code": {"forged"}, "state": {"not-the-state"}}.Encode()
		resp, err := http.Get(cb.String())
		if err != nil {
			fail(logf, err)
		}
		resp.Body.Close()
		logf("forged %d", resp.StatusCode)
	}
	err := auth.ApproveWithForms(nil, os.Getenv("PT_TESTBROWSER_PHONE"), mode == "deny")(ctx, target)
	if err != nil {
		fail(logf, err)
	}
	logf("done")
}

func fail(logf func(string, ...any), err error) {
	logf("error %v", err)
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
