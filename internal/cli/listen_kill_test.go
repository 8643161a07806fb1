package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/partnertui/partnertui/internal/testkit"
)

// realBinary is the real partnertui, for the tests that run it as a user
// would.
var realBinary *testkit.Binary

func TestMain(m *testing.M) { testkit.Main(m, &realBinary) }

// gatedReceiver is a local webhook endpoint that counts the events it
// answered 200; once holdAfter are answered it holds every further POST
// unanswered until the client goes away, so that a listener killed then
// has events on the wire that were never delivered.
type gatedReceiver struct {
	mu        sync.Mutex
	answered  map[string]int // eventId → 200s answered
	total     int
	holdAfter int           // 0: never hold
	held      chan struct{} // one per POST held
}

func newGatedReceiver(t *testing.T) (*gatedReceiver, string) {
	r := &gatedReceiver{answered: map[string]int{}, held: make(chan struct{}, 1000)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var ev struct {
			EventID string `json:"eventId"`
		}
		body, _ := io.ReadAll(req.Body)
		if err := json.Unmarshal(body, &ev); err != nil || ev.EventID == "" {
			t.Errorf("forwarded body is not a payload: %q", body)
		}
		r.mu.Lock()
		if r.holdAfter > 0 && r.total >= r.holdAfter {
			r.mu.Unlock()
			r.held <- struct{}{}
			<-req.Context().Done()
			return
		}
		r.answered[ev.EventID]++
		r.total++
		r.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return r, srv.URL + "/webhooks"
}

func (r *gatedReceiver) distinct() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.answered)
}

// binaryListen is the real partnertui listen, in a process of its own.
type binaryListen struct {
	cmd      *exec.Cmd
	out, err *testkit.Buffer
	copied   sync.WaitGroup
}

func startBinaryListen(t *testing.T, bin string, args ...string) *binaryListen {
	t.Helper()
	b := &binaryListen{cmd: exec.Command(bin, append([]string{"listen"}, args...)...), out: testkit.NewBuffer(), err: testkit.NewBuffer()}
	b.cmd.Env = homeOf(t).Environ()
	stdout, err := b.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := b.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b.copied.Add(2)
	go func() { defer b.copied.Done(); _, _ = io.Copy(b.out, stdout) }()
	go func() { defer b.copied.Done(); _, _ = io.Copy(b.err, stderr) }()
	t.Cleanup(func() {
		if b.cmd.ProcessState == nil {
			_ = b.cmd.Process.Kill()
			b.wait()
		}
	})
	b.err.WaitFor(t, "listen to be ready", func(s string) bool { return strings.Contains(s, "Ready:") })
	return b
}

func (b *binaryListen) wait() error {
	b.copied.Wait()
	return b.cmd.Wait()
}

// TestListenResumeAfterKill9: the real binary, `listen --resume`, is
// killed with SIGKILL in the middle of a burst of 50 events (20
// delivered, others on the wire unanswered, others waiting their turn,
// the burst's last ones being made as it dies) and
// started again after 20 more: the local endpoint has answered exactly the
// 70 events, each once.
func TestListenResumeAfterKill9(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary; skipped in -short mode")
	}
	w := newListenWorld(t)
	bin := realBinary.Path(t)
	platformSide := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer platformSide.Close()
	sub := w.BookedOnly(t, platformSide.URL)
	rec, url := newGatedReceiver(t)
	rec.holdAfter = 20
	args := []string{"--config", w.cfg, "--subscription", sub.ID, "--resume", "--forward-to", url, "--interval", "50ms"}

	run := startBinaryListen(t, bin, args...)
	var txs []string
	burst := make(chan []string)
	var emitted atomic.Int32
	rest := make(chan struct{}) // the burst's last 20 are made as listen is killed
	go func() {
		var ids []string
		for i := range 50 {
			if i == 30 {
				<-rest
			}
			id, err := w.TryTransfer()
			if err != nil {
				t.Error(err)
			}
			ids = append(ids, id)
			emitted.Add(1)
		}
		burst <- ids
	}()
	run.out.WaitFor(t, "20 deliveries", func(s string) bool { return strings.Count(s, "→ 200 OK") == 20 })
	select {
	case <-rec.held:
	case <-time.After(30 * time.Second):
		t.Fatal("no event was on the wire")
	}
	close(rest)
	if err := run.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = run.wait()
	t.Logf("killed with %d of the burst's 50 transfers made, 20 events delivered and %d on the wire", emitted.Load(), len(rec.held)+1)
	txs = append(txs, <-burst...)
	for range 20 {
		txs = append(txs, w.Transfer(t))
	}

	rec.mu.Lock()
	rec.holdAfter = 0
	rec.mu.Unlock()
	run = startBinaryListen(t, bin, args...)
	run.out.WaitFor(t, "the 50 missed events", func(s string) bool { return strings.Count(s, "→ 200 OK") >= 50 })
	// One more, live: by the time it is delivered, a read that would
	// forward anything twice has been made.
	last := w.Transfer(t)
	txs = append(txs, last)
	run.out.WaitFor(t, "the live event", func(string) bool { return rec.distinct() == 71 })
	if err := run.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := run.wait(); err != nil {
		t.Errorf("listen after Ctrl+C: %v; stderr:\n%s", err, run.err.String())
	}

	want := w.LoggedBooked(t, txs...)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for id, n := range rec.answered {
		if n != 1 || !want[id] {
			t.Errorf("event %s answered %d times (one of the transfers' events: %v)", id, n, want[id])
		}
	}
	if len(rec.answered) != 71 || len(want) != 71 {
		t.Errorf("%d distinct events answered, want the 70 of the burst and the restart, and the live one (%d logged)", len(rec.answered), len(want))
	}
	if n := strings.Count(run.out.String(), "→ 200 OK"); n != 51 {
		t.Errorf("the restarted listen reported %d deliveries, want 51:\n%s", n, run.out.String())
	}
}
