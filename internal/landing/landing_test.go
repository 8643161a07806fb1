package landing

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The page loads at its address on 127.0.0.1, whatever the platform adds
// to its query, and shows nothing of it; any other path or method is
// refused; once closed it is gone.
func TestPageLoadsAndShowsNothingOfTheRequest(t *testing.T) {
	t.Parallel()
	p, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(p.URL())
	if err != nil || u.Hostname() != "127.0.0.1" || u.Path != Path {
		t.Fatalf("URL %q (%v), want http://127.0.0.1:port%s", p.URL(), err, Path)
	}
	get := func(method, target string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, target, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b)
	}
	code, body := get(http.MethodGet, p.URL()+"?consentId=<script>x</script>&status=Accepted")
	if code != http.StatusOK || !strings.Contains(body, "go back to partnertui") || strings.Contains(body, "script") || strings.Contains(body, "Accepted") {
		t.Fatalf("GET: %d\n%s", code, body)
	}
	if code, _ := get(http.MethodGet, "http://"+u.Host+"/other"); code != http.StatusNotFound {
		t.Errorf("another path: %d, want 404", code)
	}
	if code, _ := get(http.MethodPost, p.URL()); code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", code)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(p.URL()); err == nil {
		t.Error("the page still answers once closed")
	}
}
