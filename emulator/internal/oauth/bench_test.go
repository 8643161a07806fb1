package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

func benchToken(b *testing.B, srv *Server, form url.Values) map[string]any {
	b.Helper()
	rec := serve(srv, http.MethodPost, "/oauth2/token", "", form.Encode())
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusOK {
		b.Fatalf("token: %d %s", rec.Code, rec.Body.String())
	}
	return body
}

// BenchmarkIntrospect is the cost every GraphQL request pays to check its
// bearer token (a live token is looked up in the sandbox realm first).
func BenchmarkIntrospect(b *testing.B) {
	srv := newServer(b)
	for _, env := range []struct{ name, id, secret string }{{"sandbox", sandboxID, sandboxSecret}, {"live", liveID, liveSecret}} {
		tok := benchToken(b, srv, url.Values{"grant_type": {"client_credentials"}, "client_id": {env.id}, "client_secret": {env.secret}})
		at, _ := tok["access_token"].(string)
		b.Run(env.name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				if _, err := srv.Introspect(ctx, at); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkClientCredentials is one project-token request, bcrypt included.
func BenchmarkClientCredentials(b *testing.B) {
	srv := newServer(b)
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {sandboxID}, "client_secret": {sandboxSecret}}
	for b.Loop() {
		benchToken(b, srv, form)
	}
}

// BenchmarkSignInAndExchange is a whole user sign-in: four form pages, the
// code exchange with an RS256 id_token, then one refresh.
func BenchmarkSignInAndExchange(b *testing.B) {
	srv := newServer(b)
	q := authQuery(sandboxID).Encode()
	for b.Loop() {
		flow := flowRE.FindStringSubmatch(serve(srv, http.MethodGet, "/oauth2/auth", q, "").Body.String())[1]
		page := serve(srv, http.MethodPost, "/oauth2/auth", "", url.Values{"flow": {flow}, "phoneNumber": {testPhone}}.Encode())
		otp := otpRE.FindStringSubmatch(page.Body.String())[1]
		serve(srv, http.MethodPost, "/oauth2/auth", "", url.Values{"flow": {flow}, "otp": {otp}}.Encode())
		rec := serve(srv, http.MethodPost, "/oauth2/auth", "", url.Values{"flow": {flow}, "decision": {"approve"}}.Encode())
		loc, err := url.Parse(rec.Header().Get("Location"))
		if err != nil || rec.Code != http.StatusSeeOther {
			b.Fatalf("approve: %d", rec.Code)
		}
		tok := benchToken(b, srv, exchangeForm(sandboxID, sandboxSecret, loc.Query().Get("code")))
		rt, _ := tok["refresh_token"].(string)
		benchToken(b, srv, refreshForm(sandboxID, sandboxSecret, rt))
	}
}
