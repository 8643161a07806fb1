package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/auth"
)

// TestHeadlessSignInSaysWhatToDo: over SSH the sign-in prints the URL, the
// exact ssh -L command for the callback's port, and how to paste the
// redirected address back; stdout stays empty.
func TestHeadlessSignInSaysWhatToDo(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	p := auth.SignInPrompt{Env: "sandbox", URL: "https://oauth.example/oauth2/auth?x=1", CallbackPort: 43123, Headless: true,
		SSHForward: "ssh -N -L 43123:127.0.0.1:43123 alice@203.0.113.7"}
	showSignIn(IO{In: strings.NewReader("not a url\n"), Out: &out, Err: &errb}, p)
	got := errb.String()
	for _, want := range []string{p.URL, p.SSHForward, "paste here the address the browser ends on (http://127.0.0.1:43123/", "Waiting for the browser"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q", out.String())
	}
}

func TestSignInWithABrowserSaysItOpens(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	showSignIn(IO{Err: &errb}, auth.SignInPrompt{Env: "live", URL: "https://o/a", Opening: true})
	if !strings.Contains(errb.String(), "in the browser that is opening") || strings.Contains(errb.String(), "paste") {
		t.Errorf("stderr = %q", errb.String())
	}
}
