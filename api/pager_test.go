package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// pagingServer serves total accounts, page size from the request, and
// reports each request's cursor on seen.
func pagingServer(t *testing.T, total int, seen chan<- string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		from := 0
		after, _ := q.Variables["after"].(string)
		if after != "" {
			n, err := strconv.Atoi(after)
			if err != nil {
				t.Errorf("bad cursor %q", after)
			}
			from = n
		}
		first := int(q.Variables["first"].(float64))
		if seen != nil {
			seen <- after
		}
		writeJSON200(w, accountsPage(from, min(from+first, total), total))
	}
}

func TestPagerWalksWholeConnection(t *testing.T) {
	const total = 1234
	var calls atomic.Int32
	h := pagingServer(t, total, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1); h(w, r) }), nil)
	pg := c.NewPager(AccountsParams{})
	defer pg.Close()
	all := drain(t, pg)
	seen := map[string]bool{}
	for _, a := range all {
		if seen[a.ID] {
			t.Fatalf("duplicate %s", a.ID)
		}
		seen[a.ID] = true
	}
	if len(all) != total {
		t.Fatalf("got %d accounts, want %d", len(all), total)
	}
	for i, a := range all {
		if a.ID != fmt.Sprintf("acc-%05d", i) {
			t.Fatalf("account %d is %s: gap or reorder", i, a.ID)
		}
	}
	if want := int32((total + 99) / 100); calls.Load() != want {
		t.Errorf("requests = %d, want ceil(N/100) = %d", calls.Load(), want)
	}
	if _, ok, err := pg.Next(context.Background()); ok || err != nil {
		t.Errorf("Next after the end = %v, %v", ok, err)
	}
}

func TestPagerPrefetchesTheNextPage(t *testing.T) {
	seen := make(chan string, 4)
	c, _, _ := newTestClient(t, pagingServer(t, 250, seen), nil)
	pg := c.NewPager(AccountsParams{})
	defer pg.Close()
	if _, _, err := pg.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := <-seen; got != "" {
		t.Fatalf("first request cursor = %q", got)
	}
	// Page 2 is requested before anyone asks for it.
	if got := <-seen; got != "100" {
		t.Fatalf("prefetch cursor = %q, want 100", got)
	}
	page, ok, err := pg.Next(context.Background())
	if err != nil || !ok || page.Accounts[0].ID != "acc-00100" {
		t.Fatalf("page 2 = %v, %v, %v", page, ok, err)
	}
	if got := <-seen; got != "200" {
		t.Fatalf("second prefetch cursor = %q", got)
	}
}

func TestPagerCloseCancelsPrefetch(t *testing.T) {
	onWire := make(chan struct{})
	serverSawCancel := make(chan struct{})
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		if q.Variables["after"] == nil {
			writeJSON200(w, accountsPage(0, 100, 250))
			return
		}
		close(onWire)
		<-r.Context().Done()
		close(serverSawCancel)
	}), nil)
	pg := c.NewPager(AccountsParams{})
	if _, _, err := pg.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-onWire
	pg.Close() // returns only once the prefetch goroutine has ended
	if s := c.Status(); s.InFlight != 0 {
		t.Errorf("a prefetch is still in flight after Close: %+v", s)
	}
	if _, _, err := pg.Next(context.Background()); !errors.Is(err, ErrPagerClosed) {
		t.Errorf("Next after Close: %v", err)
	}
	select {
	case <-serverSawCancel:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the prefetch cancelled")
	}
}

func TestPagerContextCancelWhileWaiting(t *testing.T) {
	release := make(chan struct{})
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		if q.Variables["after"] == nil {
			writeJSON200(w, accountsPage(0, 100, 250))
			return
		}
		select {
		case <-release:
			writeJSON200(w, accountsPage(100, 200, 250))
		case <-r.Context().Done():
		}
	}), nil)
	defer close(release)
	pg := c.NewPager(AccountsParams{})
	defer pg.Close()
	if _, _, err := pg.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := pg.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if s := c.Status(); s.InFlight != 0 {
		t.Errorf("cancelled prefetch still in flight: %+v", s)
	}
}

func TestPagerRetriesSamePageAfterError(t *testing.T) {
	var calls atomic.Int32
	h := pagingServer(t, 150, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 2 { // the prefetch of page 2 fails
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		h(w, r)
	}), nil)
	pg := c.NewPager(AccountsParams{})
	defer pg.Close()
	if _, _, err := pg.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := pg.Next(context.Background()); !errors.Is(err, ErrServer) {
		t.Fatalf("err = %v, want the prefetch's server error", err)
	}
	page, ok, err := pg.Next(context.Background())
	if err != nil || !ok || page.Accounts[0].ID != "acc-00100" || len(page.Accounts) != 50 {
		t.Fatalf("retry of page 2 = %+v, %v, %v", page, ok, err)
	}
	if _, ok, _ := pg.Next(context.Background()); ok {
		t.Error("connection not exhausted")
	}
}

func TestPagerHonoursPageSize(t *testing.T) {
	var calls atomic.Int32
	h := pagingServer(t, 95, nil)
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1); h(w, r) }),
		func(o *Options) { o.PageSize = 10 })
	pg := c.NewPager(AccountsParams{})
	defer pg.Close()
	n := len(drain(t, pg))
	if n != 95 || calls.Load() != 10 {
		t.Errorf("accounts = %d, requests = %d; want 95, 10", n, calls.Load())
	}
}
