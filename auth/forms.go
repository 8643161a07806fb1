package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/internal/safetext"
	"golang.org/x/net/html"
)

// maxFormSteps bounds the pages ApproveWithForms walks through, so a server
// that loops cannot keep it busy forever.
const maxFormSteps = 12

// ApproveWithForms returns a LoginOptions.Open func that plays the browser on
// the emulator's server-rendered sign-in forms: it enters phone, reads the
// 6-digit code shown on the page, enters it, presses Approve (or Deny when
// deny is true) and follows the redirect to the loopback callback.
func ApproveWithForms(client *http.Client, phone string, deny bool) func(ctx context.Context, url string) error {
	return func(ctx context.Context, authURL string) error {
		b, err := newFormBrowser(client, authURL)
		if err != nil {
			return err
		}
		decision := "approve"
		if deny {
			decision = "deny"
		}
		return b.run(ctx, phone, decision)
	}
}

type formBrowser struct {
	client   *http.Client // own copy: cookies stay on the sign-in host
	callback *url.URL     // redirect_uri from the authorization URL
	start    *url.URL
}

func newFormBrowser(base *http.Client, authURL string) (*formBrowser, error) {
	start, err := url.Parse(authURL)
	if err != nil || start.Host == "" {
		return nil, fmt.Errorf("the sign-in URL %q is not absolute", safetext.Truncate(authURL, 100))
	}
	cb, err := url.Parse(start.Query().Get("redirect_uri"))
	if err != nil || cb.Host == "" {
		return nil, errors.New("the sign-in URL carries no absolute redirect_uri, so the callback cannot be recognised")
	}
	c := &http.Client{Timeout: 30 * time.Second}
	if base != nil {
		c.Transport = base.Transport
		c.Timeout = base.Timeout
		c.Jar = base.Jar
	}
	if c.Jar == nil {
		jar, _ := cookiejar.New(nil)
		c.Jar = jar
	}
	// Redirects are followed by hand, so the callback is never reached
	// through this client (and its cookies).
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &formBrowser{client: c, callback: cb, start: start}, nil
}

func (b *formBrowser) isCallback(u *url.URL) bool {
	return u.Scheme == b.callback.Scheme && u.Hostname() == b.callback.Hostname() && u.Path == b.callback.Path &&
		(b.callback.Port() == "" || u.Port() == b.callback.Port())
}

func (b *formBrowser) run(ctx context.Context, phone, decision string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.start.String(), nil)
	if err != nil {
		return err
	}
	otpTries, phoneTries := 0, 0
	for step := 0; step < maxFormSteps; step++ {
		pg, done, err := b.do(ctx, req)
		if err != nil || done {
			return err
		}
		if msg := pg.errorText; msg != "" && pg.form == nil {
			return fmt.Errorf("the sign-in page reports an error: %s", msg)
		}
		if pg.form == nil {
			return fmt.Errorf("the sign-in page at %s has no form to fill (HTTP %d)", safetext.Truncate(pg.url.Redacted(), 100), pg.status)
		}
		f := pg.form
		vals := f.hidden
		switch {
		case f.has("phoneNumber"):
			if pg.errorText != "" && phoneTries > 0 {
				return fmt.Errorf("the sign-in page refused the phone number: %s", pg.errorText)
			}
			vals.Set("phoneNumber", phone)
			phoneTries++
		case f.has("otp"):
			if pg.errorText != "" && otpTries > 0 {
				return fmt.Errorf("the sign-in page refused the one-time code: %s", pg.errorText)
			}
			if !otpPattern().MatchString(pg.otp) {
				return fmt.Errorf("the sign-in page shows no 6-digit code in #otp-code (found %q)", safetext.Truncate(pg.otp, 20))
			}
			vals.Set("otp", pg.otp)
			otpTries++
		case f.hasButton("decision", decision):
			vals.Set("decision", decision)
		default:
			return fmt.Errorf("the sign-in page's form has no phoneNumber, otp or %s button", decision)
		}
		req, err = f.request(ctx, pg.url, vals)
		if err != nil {
			return err
		}
	}
	return fmt.Errorf("the sign-in did not reach the callback within %d pages", maxFormSteps)
}

var otpPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{6}$`) })

type formPage struct {
	url       *url.URL
	status    int
	form      *htmlForm
	otp       string
	errorText string
}

// do sends req and follows redirects by hand until a page or the callback.
func (b *formBrowser) do(ctx context.Context, req *http.Request) (*formPage, bool, error) {
	for hops := 0; hops < 10; hops++ {
		if b.isCallback(req.URL) {
			return nil, true, b.hitCallback(ctx, req.URL)
		}
		resp, err := b.client.Do(req)
		if err != nil {
			return nil, false, fmt.Errorf("the sign-in page could not be loaded: %w", sanitizeErr(err))
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			return nil, false, fmt.Errorf("the sign-in page could not be read: %w", err)
		}
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			loc, err := resp.Location()
			if err != nil {
				return nil, false, fmt.Errorf("the sign-in server redirected without a valid Location (HTTP %d)", resp.StatusCode)
			}
			req, err = http.NewRequestWithContext(ctx, http.MethodGet, loc.String(), nil)
			if err != nil {
				return nil, false, err
			}
			continue
		}
		pg := parsePage(body)
		pg.url = resp.Request.URL
		pg.status = resp.StatusCode
		if resp.StatusCode >= 400 && pg.errorText == "" && pg.form == nil {
			pg.errorText = fmt.Sprintf("HTTP %d", resp.StatusCode)
		}
		return pg, false, nil
	}
	return nil, false, errors.New("the sign-in server redirected more than 10 times")
}

// hitCallback GETs the loopback callback once, as a browser would, with no
// cookies from the sign-in host.
func (b *formBrowser) hitCallback(ctx context.Context, u *url.URL) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	c := &http.Client{Timeout: TokenCallTimeout + 15*time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("the sign-in callback on %s could not be reached: %w", u.Host, sanitizeErr(err))
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return fmt.Errorf("the sign-in callback answered HTTP %d", resp.StatusCode)
	}
	return nil
}

type htmlForm struct {
	method  string
	action  string
	hidden  url.Values
	inputs  map[string]bool
	buttons map[string][]string
}

func (f *htmlForm) has(name string) bool { return f.inputs[name] }

func (f *htmlForm) hasButton(name, value string) bool {
	for _, v := range f.buttons[name] {
		if v == value {
			return true
		}
	}
	return false
}

func (f *htmlForm) request(ctx context.Context, pageURL *url.URL, vals url.Values) (*http.Request, error) {
	target := pageURL
	if f.action != "" {
		a, err := pageURL.Parse(strings.TrimSpace(f.action))
		if err != nil {
			return nil, fmt.Errorf("the sign-in form's action %q is not a URL", safetext.Truncate(f.action, 100))
		}
		target = a
	}
	if strings.EqualFold(f.method, "post") {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), strings.NewReader(vals.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return req, nil
	}
	u := *target
	u.RawQuery = vals.Encode()
	return http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
}

// parsePage extracts the first form, the #otp-code text and any error text.
func parsePage(body []byte) *formPage {
	pg := &formPage{}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return pg
	}
	var walk func(n *html.Node, form *htmlForm)
	walk = func(n *html.Node, form *htmlForm) {
		if n.Type == html.ElementNode {
			id, class := attr(n, "id"), attr(n, "class")
			switch {
			case id == "otp-code":
				pg.otp = strings.TrimSpace(text(n))
			case id == "error" || hasClass(class, "error"):
				if t := strings.TrimSpace(text(n)); t != "" && pg.errorText == "" {
					pg.errorText = safetext.Truncate(t, 300)
				}
			}
			switch n.Data {
			case "form":
				if pg.form == nil {
					form = &htmlForm{method: attr(n, "method"), action: attr(n, "action"), hidden: url.Values{}, inputs: map[string]bool{}, buttons: map[string][]string{}}
					pg.form = form
				} else {
					form = nil
				}
			case "input":
				if form != nil && attr(n, "name") != "" {
					name := attr(n, "name")
					if strings.EqualFold(attr(n, "type"), "hidden") {
						form.hidden.Add(name, attr(n, "value"))
					} else if t := strings.ToLower(attr(n, "type")); t == "submit" {
						form.buttons[name] = append(form.buttons[name], attr(n, "value"))
					} else {
						form.inputs[name] = true
					}
				}
			case "button":
				if form != nil && attr(n, "name") != "" {
					form.buttons[attr(n, "name")] = append(form.buttons[attr(n, "name")], attr(n, "value"))
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, form)
		}
	}
	walk(doc, nil)
	return pg
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(class, want string) bool {
	for _, c := range strings.Fields(class) {
		if c == want {
			return true
		}
	}
	return false
}

func text(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return b.String()
}
