package gql

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strings"
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
<h1>{{.Title}}</h1>
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
	v, ok := c.events.consentView(id)
	if !ok {
		http.Error(w, "nothing waits for this consent: open the consentUrl the mutation answered", http.StatusNotFound)
		return
	}
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := consentTemplate().Execute(w, v); err != nil {
			// The answer has started: nothing more can be said to the user.
			return
		}
	case http.MethodPost:
		c.answer(w, r, id, r.Form.Get("decision"))
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "the consent page answers GET and POST", http.StatusMethodNotAllowed)
	}
}

// consentLine is one transfer a consent allows.
type consentLine struct{ Amount, Currency, Name, IBAN string }

// consentPageView is what the page shows of what waits for a consent.
type consentPageView struct {
	ConsentID, AccountID, Title string
	Transfers                   []consentLine
}

// consentView describes what waits for a consent: a payment, a standing
// order or a trusted beneficiary.
func (e *Events) consentView(id string) (consentPageView, bool) {
	if p, err := e.store.PaymentOfConsent(id); err == nil {
		v := consentPageView{ConsentID: id, AccountID: p.AccountID, Title: "Confirm the payment"}
		for _, t := range p.Transfers {
			v.Transfers = append(v.Transfers, consentLine{data.FormatCents(t.Amount), t.Currency, t.CreditorName, t.CreditorIBAN})
		}
		return v, true
	}
	if o, ok := e.store.OrderOfConsent(id); ok {
		v := consentPageView{ConsentID: id, AccountID: e.store.AccountOfIndex(o.AccountIndex).ID, Title: "Confirm the " + strings.ToLower(o.Period) + " standing order"}
		amount := data.FormatCents(o.Amount)
		if o.HasTarget {
			amount = "what is above " + data.FormatCents(o.Target)
		}
		v.Transfers = []consentLine{{amount, o.Currency, o.Beneficiary, o.IBAN}}
		return v, true
	}
	if b, ok := e.store.BeneficiaryOfConsent(id); ok {
		return consentPageView{ConsentID: id, AccountID: e.store.AccountOfIndex(b.AccountIndex).ID, Title: "Trust a new beneficiary",
			Transfers: []consentLine{{"future transfers", "", b.Name, b.IBAN}}}, true
	}
	return consentPageView{}, false
}

func (c *consentPage) answer(w http.ResponseWriter, r *http.Request, id, decision string) {
	redirect, err := c.events.consentAnswered(id, decision)
	switch {
	case errors.Is(err, data.ErrWrongState):
		http.Error(w, err.Error(), http.StatusConflict)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, redirect, http.StatusSeeOther)
}

// consentAnswered records the user's decision on a consent and emits its
// events: Consent.Granted and what the consented change caused, or
// Consent.Refused. It returns where the user goes back to.
func (e *Events) consentAnswered(id, decision string) (string, error) {
	if decision != "accept" && decision != "refuse" {
		return "", fmt.Errorf("decision %q is neither accept nor refuse", decision)
	}
	accept := decision == "accept"
	if _, ok := e.store.OrderOfConsent(id); ok {
		c, err := e.store.AnswerOrderConsent(id, accept)
		if err != nil {
			return "", err
		}
		if accept {
			e.hub.Emit(webhooks.ConsentGranted, id)
			e.orderChanged(c, eventOrderScheduled)
		} else {
			e.hub.Emit(webhooks.ConsentRefused, id)
			e.hub.Emit(eventOrderCanceled, c.Order.ID)
		}
		return c.Order.RedirectURL, nil
	}
	if _, ok := e.store.BeneficiaryOfConsent(id); ok {
		b, err := e.store.AnswerBeneficiaryConsent(id, accept)
		if err != nil {
			return "", err
		}
		if accept {
			e.hub.Emit(webhooks.ConsentGranted, id)
		} else {
			e.hub.Emit(webhooks.ConsentRefused, id)
		}
		return b.RedirectURL, nil
	}
	if !accept {
		p, err := e.store.RefuseConsent(id)
		if err == nil {
			e.hub.Emit(webhooks.ConsentRefused, id)
		}
		return p.RedirectURL, err
	}
	p, err := e.store.AcceptConsent(id)
	if err != nil {
		return "", err
	}
	e.hub.Emit(webhooks.ConsentGranted, id)
	e.paymentSent(p)
	return p.RedirectURL, nil
}
