package gql

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"sync"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// ConsentPath is where an environment's consent page answers: the URL a
// payment's consent carries.
func ConsentPath(env string) string { return "/" + env + "-consent" }

// NewConsentPage is the page where a user accepts or refuses a payment's
// consent, as the platform's consent flow does after strong
// authentication (which the emulator leaves out): GET shows the payment,
// POST with decision=accept or refuse answers, then redirects to the
// payment's consentRedirectUrl.
func NewConsentPage(events *Events) http.Handler {
	return &consentPage{events: events}
}

type consentPage struct{ events *Events }

// consentTemplate is parsed on first use: the emulator is linked into
// every partnertui command.
var consentTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("consent").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Consent</title></head><body>
<h1>Confirm the payment</h1>
<p>{{len .Transfers}} transfer(s) from account {{.AccountID}}:</p>
<ul>{{range .Transfers}}<li>{{.Amount}} {{.Currency}} to {{.Name}} ({{.IBAN}})</li>{{end}}</ul>
<form method="post"><input type="hidden" name="consentId" value="{{.ConsentID}}">
<button name="decision" value="accept">Accept</button> <button name="decision" value="refuse">Refuse</button></form>
</body></html>`))
})

func (c *consentPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "the form could not be read: retry", http.StatusBadRequest)
		return
	}
	id := r.Form.Get("consentId")
	p, err := c.events.store.PaymentOfConsent(id)
	if err != nil {
		http.Error(w, "no payment waits for this consent: open the consentUrl initiateCreditTransfers answered", http.StatusNotFound)
		return
	}
	switch r.Method {
	case http.MethodGet:
		c.show(w, p)
	case http.MethodPost:
		c.answer(w, r, id, r.Form.Get("decision"))
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "the consent page answers GET and POST", http.StatusMethodNotAllowed)
	}
}

func (c *consentPage) show(w http.ResponseWriter, p data.Payment) {
	type line struct{ Amount, Currency, Name, IBAN string }
	view := struct {
		ConsentID, AccountID string
		Transfers            []line
	}{ConsentID: p.Consent.ID, AccountID: p.AccountID}
	for _, t := range p.Transfers {
		view.Transfers = append(view.Transfers, line{data.FormatCents(t.Amount), t.Currency, t.CreditorName, t.CreditorIBAN})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := consentTemplate().Execute(w, view); err != nil {
		// The answer has started: nothing more can be said to the user.
		return
	}
}

func (c *consentPage) answer(w http.ResponseWriter, r *http.Request, id, decision string) {
	p, err := c.events.consentAnswered(id, decision)
	switch {
	case errors.Is(err, data.ErrWrongState):
		http.Error(w, err.Error(), http.StatusConflict)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, p.RedirectURL, http.StatusSeeOther)
}

// consentAnswered records the user's decision on a payment's consent and
// emits its events: Consent.Granted and the sent transfers', or
// Consent.Refused.
func (e *Events) consentAnswered(id, decision string) (data.Payment, error) {
	switch decision {
	case "accept":
		p, err := e.store.AcceptConsent(id)
		if err != nil {
			return data.Payment{}, err
		}
		e.hub.Emit(webhooks.ConsentGranted, id)
		e.paymentSent(p)
		return p, nil
	case "refuse":
		p, err := e.store.RefuseConsent(id)
		if err == nil {
			e.hub.Emit(webhooks.ConsentRefused, id)
		}
		return p, err
	}
	return data.Payment{}, fmt.Errorf("decision %q is neither accept nor refuse", decision)
}
