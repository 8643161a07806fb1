// Package landing serves the page a browser lands on when the platform
// sends the user back to partnertui after a step they took in the
// browser: a payment's consent sends them to its consentRedirectUrl. The
// terminal is where partnertui shows what came of it, so the page says to
// go back there; it only needs to load. It listens on 127.0.0.1 only,
// keeps nothing the browser sends and shows none of it.
package landing

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"
)

// Path is where the page answers.
const Path = "/partnertui/consent-answered"

// Page is the page, served until Close.
type Page struct {
	url string
	srv *http.Server
}

// page is the whole answer: static, so nothing of the request reaches it.
const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Answer sent · partnertui</title></head>
<body><h1>Your answer was sent</h1>
<p>You can close this tab and go back to partnertui: the terminal shows what became of the payment.</p>
</body></html>
`

// Start listens on a free port of 127.0.0.1 and serves the page there.
func Start() (*Page, error) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+Path, func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Security-Policy", "default-src 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		_, _ = io.WriteString(w, page)
	})
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       30 * time.Second,
		MaxHeaderBytes:    32 << 10,
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = ln.Close()
		}
	}()
	return &Page{url: "http://" + ln.Addr().String() + Path, srv: srv}, nil
}

// URL is the page's address.
func (p *Page) URL() string { return p.url }

// Close stops serving, waiting a moment for a page being sent.
func (p *Page) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return p.srv.Shutdown(ctx)
}
