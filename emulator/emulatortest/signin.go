package emulatortest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/partnertui/partnertui/emulator"
)

// RedirectURI is the callback a test's sign-in returns to: the registered
// loopback URI with a port, which the emulator accepts (RFC 8252). Nothing
// listens there; the tests read the redirect instead.
const RedirectURI = "http://127.0.0.1:43117/callback"

// form is the single form of a sign-in page.
type form struct {
	action string
	fields url.Values // hidden and prefilled inputs
}

// parsePage finds the page's form and the text of #otp-code, per the
// sign-in form protocol.
func parsePage(tb testing.TB, pageURL string, body io.Reader) (form, string) {
	tb.Helper()
	doc, err := html.Parse(body)
	if err != nil {
		tb.Fatal(err)
	}
	f := form{fields: url.Values{}}
	var otp string
	var visit func(n *html.Node)
	attr := func(n *html.Node, k string) string {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val
			}
		}
		return ""
	}
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "form":
				base, _ := url.Parse(pageURL)
				act, _ := url.Parse(attr(n, "action"))
				f.action = base.ResolveReference(act).String()
			case n.Data == "input" && attr(n, "name") != "":
				f.fields.Set(attr(n, "name"), attr(n, "value"))
			case attr(n, "id") == "otp-code" && n.FirstChild != nil:
				otp = strings.TrimSpace(n.FirstChild.Data)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	if f.action == "" {
		tb.Fatal("the page has no form")
	}
	return f, otp
}

// submit posts a form with extra values and returns the response.
func submit(tb testing.TB, f form, extra url.Values) *http.Response {
	tb.Helper()
	vals := url.Values{}
	for k, v := range f.fields {
		vals[k] = v
	}
	for k, v := range extra {
		vals[k] = v
	}
	resp, err := client.PostForm(f.action, vals)
	if err != nil {
		tb.Fatal(err)
	}
	return resp
}

// SignIn walks the sign-in forms from authURL as phone, deciding "approve"
// or "deny", and returns the callback URL the browser is sent to.
func SignIn(tb testing.TB, authURL, phone, decision string) *url.URL {
	tb.Helper()
	resp, err := client.Get(authURL)
	if err != nil {
		tb.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		tb.Fatalf("sign-in page: %d %s", resp.StatusCode, b)
	}
	f, _ := parsePage(tb, authURL, resp.Body)
	resp.Body.Close()
	resp = submit(tb, f, url.Values{"phoneNumber": {phone}})
	f, otp := parsePage(tb, f.action, resp.Body)
	resp.Body.Close()
	if len(otp) != 6 {
		tb.Fatalf("the code page shows %q, want 6 digits", otp)
	}
	resp = submit(tb, f, url.Values{"otp": {otp}})
	f, _ = parsePage(tb, f.action, resp.Body)
	resp.Body.Close()
	resp = submit(tb, f, url.Values{"decision": {decision}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		tb.Fatalf("decision: %d, want 303", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		tb.Fatal(err)
	}
	return loc
}

// UserToken signs in to env as its first demo user (authorization code
// with PKCE, approved on the forms) and returns the access token.
func UserToken(tb testing.TB, info emulator.Info, env string) string {
	tb.Helper()
	e := info.Environments[env]
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	verifier := base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	state := "emulatortest-" + base64.RawURLEncoding.EncodeToString(b[:12])
	authURL := info.AuthURL + "/oauth2/auth?" + url.Values{
		"response_type": {"code"}, "client_id": {e.ClientID}, "redirect_uri": {RedirectURI},
		"scope": {"openid offline"}, "state": {state},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
	}.Encode()
	loc := SignIn(tb, authURL, DemoUser(tb, info, env).Phone, "approve")
	if loc.Query().Get("state") != state || loc.Query().Get("code") == "" {
		tb.Fatalf("sign-in callback %s", loc)
	}
	var body struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
	}
	status, err := postForm(context.Background(), info.AuthURL+"/oauth2/token", url.Values{
		"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {RedirectURI},
		"client_id": {e.ClientID}, "client_secret": {e.ClientSecret}, "code_verifier": {verifier},
	}, &body)
	if err != nil || status != http.StatusOK || body.AccessToken == "" {
		tb.Fatalf("code exchange: %d %s %v", status, body.Error, err)
	}
	return body.AccessToken
}
