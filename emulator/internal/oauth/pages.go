package oauth

import (
	"bytes"
	"html/template"
	"net/http"
	"sync"
)

// The sign-in pages follow the shared "sign-in form protocol": one form per
// page, no JavaScript, the code in #otp-code, errors in .error (form steps)
// or #error (dead ends). auth.ApproveWithForms parses exactly these shapes,
// so the element ids, names and values below are a contract.
const pageTemplate = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · {{.Env}}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:26rem;margin:3rem auto;background:#fff;padding:1.5rem 2rem;border-radius:.5rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem}
.env{display:inline-block;padding:.1rem .5rem;border-radius:.3rem;background:{{if eq .Env "live"}}#c62828{{else}}#2e7d32{{end}};color:#fff;font-size:.8rem;text-transform:uppercase}
label{display:block;margin:.8rem 0 .3rem}
input[type=tel],input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
button{margin:1rem .5rem 0 0;padding:.5rem 1.2rem;font-size:1rem}
.error{color:#b00020;background:#fdecea;padding:.5rem;border-radius:.3rem}
#error{color:#b00020}
#otp-code{font-family:monospace;font-size:1.6rem;letter-spacing:.2rem}
dl{font-size:.9rem;color:#555}
dt{float:left;clear:left;margin-right:.5rem;font-weight:600}
small{color:#666}
</style>
</head>
<body>
<main>
<p><span class="env">{{.Env}}</span>{{if .ClientID}} <small>{{.ClientID}}</small>{{end}}</p>
{{- if eq .Step "error"}}
<h1>Sign-in failed</h1>
<p id="error">{{.Message}}</p>
{{- else}}
{{- if .Error}}
<p class="error" role="alert">{{.Error}}</p>
{{- end}}
{{- if eq .Step "phone"}}
<h1>Sign in with your phone</h1>
{{- if .Prefill}}
<p>Details the application already provided:</p>
<dl>{{range .Prefill}}<dt>{{.Name}}</dt><dd>{{.Value}}</dd>{{end}}</dl>
{{- end}}
<form method="post" action="{{.Action}}">
<input type="hidden" name="flow" value="{{.Flow}}">
<label for="phoneNumber">Mobile phone number (international format)</label>
<input id="phoneNumber" name="phoneNumber" type="tel" {{if .PhoneAttr}}{{.PhoneAttr}}{{else}}value="{{.Phone}}"{{end}} placeholder="+33612345678" autocomplete="tel" autofocus>
<button type="submit">Send code</button>
</form>
{{- else if eq .Step "otp"}}
<h1>Enter your code</h1>
<p>The emulator sends no text message to {{.Phone}}; your code is <strong id="otp-code">{{.OTP}}</strong></p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="flow" value="{{.Flow}}">
<label for="otp">6-digit code</label>
<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" autofocus>
<button type="submit">Verify</button>
</form>
{{- else if eq .Step "consent"}}
<h1>Allow access?</h1>
<p><strong>{{.ClientID}}</strong> asks to act on your behalf ({{.Phone}}) in the {{.Env}} environment with the scopes <code>{{.Scopes}}</code>.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="flow" value="{{.Flow}}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
{{- end}}
{{- end}}
</main>
</body>
</html>
`

// Steps of the sign-in page.
const (
	stepPhone   = "phone"
	stepOTP     = "otp"
	stepConsent = "consent"
	stepError   = "error"
)

type prefillField struct{ Name, Value string }

// pageData is everything one sign-in page shows; html/template escapes every
// field, including the prefill values that come straight from the URL.
type pageData struct {
	Step     string
	Env      string
	ClientID string
	Action   string
	Flow     string
	Phone    string
	// PhoneAttr is value="…" written without entity escaping when the phone
	// holds only digits, spaces and + ( ) . -, so a client reading the page
	// with a plain pattern sees +33… rather than &#43;33….
	PhoneAttr template.HTMLAttr
	OTP       string
	Scopes    string
	Prefill   []prefillField
	Error     string // a retryable mistake on a form step (.error)
	Message   string // a dead end (#error)
}

// pageTmpl is parsed on first use: the emulator is linked into every
// partnertui command, and package initialisation runs before each of them.
var pageTmpl = sync.OnceValue(func() *template.Template { return template.Must(template.New("page").Parse(pageTemplate)) })

// writePage renders into a buffer first so a template failure never leaves a
// half-written page behind a 200 status.
func writePage(w http.ResponseWriter, status int, d pageData) {
	if d.Env == "" {
		d.Env = "emulator"
	}
	if d.Phone != "" && plainPhoneChars(d.Phone) {
		d.PhoneAttr = template.HTMLAttr(`value="` + d.Phone + `"`)
	}
	var buf bytes.Buffer
	if err := pageTmpl().Execute(&buf, d); err != nil {
		http.Error(w, "The sign-in page could not be rendered; try again.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	// The page must not be framed (spec 4.3: no iframes) and needs no
	// script; form-action is left open because Approve redirects to the
	// client's loopback callback.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// errorPage is the dead end for requests that cannot be answered with a
// redirect: no client, no registered redirect_uri, no flow.
func errorPage(w http.ResponseWriter, status int, env, clientID, msg string) {
	writePage(w, status, pageData{Step: stepError, Env: env, ClientID: clientID, Message: msg})
}

func plainPhoneChars(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '+' || r == ' ' || r == '(' || r == ')' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}
