// Package consent holds the kit's fixtures for a payment's consent: a
// Sandbox user who does not consent automatically (as every Live user),
// and the consent page answered as the user would in the browser. Only
// tests import it.
package consent

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/partnertui/partnertui/api"
)

// Manual makes the Sandbox user userID consent to their payments on the
// consent page, through c (a client with that user's token).
func Manual(t testing.TB, c *api.Client, userID string) {
	t.Helper()
	if _, err := api.UpdateSandboxUser.Run(context.Background(), c.Testing(), api.UpdateSandboxUserInput{ID: userID, SandboxUserInput: api.SandboxUserInput{
		FirstName: "Manual", LastName: "Consent", BirthDate: "1988-03-04", NationalityCCA3: "FRA", AutoConsent: false}}); err != nil {
		t.Fatalf("making user %s consent by hand: %v", userID, err)
	}
}

// Answer answers a payment's consent page as the user would in the
// browser: decision is "accept" or "refuse", posted to the page of
// consentURL (the address the payment names). It returns where the page
// sends the browser next: the payment's consentRedirectUrl.
func Answer(t testing.TB, consentURL, decision string) (redirect string) {
	t.Helper()
	u, err := url.Parse(consentURL)
	if err != nil {
		t.Fatalf("consent URL %q: %v", consentURL, err)
	}
	form := url.Values{"consentId": {u.Query().Get("consentId")}, "decision": {decision}}
	u.RawQuery = ""
	// The page redirects to the payment's consent redirect URL, which is
	// returned for the test to follow if it serves one.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(u.String(), form)
	if err != nil {
		t.Fatalf("answering the consent: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		t.Fatalf("answering the consent: HTTP %d", resp.StatusCode)
	}
	return resp.Header.Get("Location")
}
