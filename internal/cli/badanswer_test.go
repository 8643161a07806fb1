package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badAnswerPlatform answers the token request, then every GraphQL request
// with answer.
func badAnswerPlatform(t *testing.T, answer http.HandlerFunc) (cfg string) {
	t.Helper()
	home := homeOf(t).Dir
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth2/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"access_token":"tok","token_type":"bearer","expires_in":3600,"scope":""}`)
			return
		}
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg = filepath.Join(home, "c.toml")
	body := fmt.Sprintf("[sandbox]\napi_url = %q\nauth_url = %q\nclient_id = \"SANDBOX_test\"\nclient_secret = \"s\"\ntoken = \"project\"\n", srv.URL, srv.URL)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// An answer that is not the API's JSON is one sentence on stderr with its
// remedy (issue 31, item 9): a captive portal's page is named as one, and
// its body is for --verbose only.
func TestCaptivePortalIsDescribedNotQuoted(t *testing.T) {
	t.Parallel()
	cfg := badAnswerPlatform(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<!DOCTYPE html>\n<html><head><title>Hotel Wi-Fi</title></head><body><form>Accept the \"terms\"</form></body></html>")
	})
	code, out, errOut := runCLI(t, "accounts", "--config", cfg)
	want := "the Sandbox API's address answered with a web page (HTTP 200), not the API's JSON: a network's sign-in page (captive portal) or a proxy answered instead. " +
		"Open any web page in a browser to sign in to the network (a captive portal), or check api_url in the configuration; then run the command again."
	if code != ExitFailure || out != "" || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant %q", code, out, errOut, want)
	}
	if strings.Contains(errOut, "Wi-Fi") || strings.Contains(errOut, "<") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("stderr quotes the page or takes more than a line:\n%s", errOut)
	}

	_, _, errOut = runCLI(t, "accounts", "--config", cfg, "--verbose")
	if !strings.Contains(errOut, "\n  answer: <!DOCTYPE html> <html><head><title>Hotel Wi-Fi</title>") {
		t.Errorf("--verbose does not show the answer:\n%s", errOut)
	}
}

// A cut-off answer is said as one, and the remedy is to run the command
// again, not to check the configuration.
func TestCutOffAnswerSaysRunAgain(t *testing.T) {
	t.Parallel()
	cfg := badAnswerPlatform(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"accounts":{"totalCount":3,"edges":[{"node":{"id":"acc-1","name":"Ma`)
	})
	code, _, errOut := runCLI(t, "accounts", "--config", cfg)
	want := "the Sandbox API's answer was cut off after 77 bytes (HTTP 200): the connection ended before the whole answer came. Run the command again."
	if code != ExitFailure || !strings.Contains(errOut, want) || strings.Contains(errOut, "api_url") {
		t.Fatalf("exit %d, stderr:\n%s\nwant %q", code, errOut, want)
	}
}
