package listen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/paths"
)

// settle is how late an event may first show in the event log after
// its eventDate and still be resumed: the platform logs a first attempt
// once the endpoint answered, within its 10 s answer window; a minute
// leaves room for its queue.
const settle = time.Minute

// positionVersion is the format of a saved position.
const positionVersion = 1

// position is how far a resumed listen has forwarded: every event dated
// before mark is handled (delivered, given up, or history when listen
// first ran), and done holds the handled events dated at or after it.
// Deliveries run concurrently and finish in any order, so one date cannot
// say it: mark stays at or before the oldest event still being delivered,
// and a minute (settle) behind the newest event the log has shown,
// since an event may be logged after others dated later. Dates are the
// platform's, never the local clock.
type position struct {
	path string
	lock *flock.Flock  // held while this listen runs
	meta savedPosition // what the file is about, for whoever reads it

	mu       sync.Mutex
	saved    *sync.Cond
	mark     time.Time
	done     map[string]time.Time // eventId → eventDate
	inflight map[string]time.Time // handed to a delivery, not finished
	newest   time.Time
	gen      uint64 // changes made
	written  uint64 // changes on disk
	writing  bool
	writes   int // files written (BenchmarkPositionFinish)
}

// savedPosition is the file's content. The forward target is only in the
// file's name (hashed): the URL may carry credentials.
type savedPosition struct {
	Version      int                  `json:"version"`
	Env          string               `json:"env"`
	Subscription string               `json:"subscription,omitempty"` // "" for all
	Types        []string             `json:"types,omitempty"`
	Mark         time.Time            `json:"mark"`
	Done         map[string]time.Time `json:"done"`
}

// PositionError reports a saved position that cannot be used.
type PositionError struct {
	Path string
	Err  error
}

func (e *PositionError) Error() string {
	if errors.Is(e.Err, ErrPositionInUse) {
		return fmt.Sprintf("%v (its position is %s)", e.Err, e.Path)
	}
	return fmt.Sprintf("cannot use listen's saved position %s: %v; remove it to start again from now (or from --since)", e.Path, e.Err)
}
func (e *PositionError) Unwrap() error { return e.Err }

// positionFile is where the position of one listen is kept: one file per
// environment (and platform host), subscription, forward target and type
// filter.
func positionFile(dir, env, host, sub, forwardTo string, types []string) string {
	types = slices.Sorted(slices.Values(types))
	key, _ := json.Marshal([]any{env, host, sub, forwardTo, types})
	sum := sha256.Sum256(key)
	return filepath.Join(dir, fmt.Sprintf("listen-%s-%s.json", env, hex.EncodeToString(sum[:8])))
}

// ErrPositionInUse reports that another listen follows the same events to
// the same endpoint: each would deliver them, and their positions would
// overwrite each other.
var ErrPositionInUse = errors.New("another `partnertui listen --resume` with the same subscription, --type and --forward-to is running: stop it first")

// loadPosition takes the position saved at path for this run, and reads
// it; found is false when there is none yet. close releases it.
func loadPosition(path string, meta savedPosition) (p *position, found bool, err error) {
	p = &position{path: path, meta: meta, done: map[string]time.Time{}, inflight: map[string]time.Time{}}
	p.saved = sync.NewCond(&p.mu)
	p.lock = flock.New(path+".lock", flock.SetPermissions(0o600), flock.SetFlag(os.O_CREATE|os.O_RDONLY|paths.NoFollow))
	locked, err := p.lock.TryLock()
	if err != nil {
		return nil, false, &PositionError{Path: path, Err: err}
	}
	if !locked {
		return nil, false, &PositionError{Path: path, Err: ErrPositionInUse}
	}
	p, found, err = p.load(path)
	if err != nil {
		_ = p.lock.Unlock()
		return nil, false, err
	}
	return p, found, nil
}

// close releases the position for another run (a killed process's lock
// goes with it).
func (p *position) close() {
	if p != nil {
		_ = p.lock.Unlock()
	}
}

// load reads the file at path into p.
func (p *position) load(path string) (*position, bool, error) {
	raw, err := paths.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return p, false, nil
	}
	if err != nil {
		return p, false, &PositionError{Path: path, Err: err}
	}
	var s savedPosition
	if err := json.Unmarshal(raw, &s); err != nil {
		return p, false, &PositionError{Path: path, Err: fmt.Errorf("it is damaged: %w", err)}
	}
	if s.Version != positionVersion {
		return p, false, &PositionError{Path: path, Err: fmt.Errorf("it is of format %d, this partnertui reads %d", s.Version, positionVersion)}
	}
	p.mark = s.Mark
	if s.Done != nil {
		p.done = s.Done
	}
	return p, true, nil
}

// handled reports whether the event of that id and date was handled
// before the position was saved.
func (p *position) handled(id string, date time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, done := p.done[id]
	return done || date.Before(p.mark)
}

// since is the oldest log entry a resumed listen reads.
func (p *position) since() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mark.IsZero() {
		return time.Time{} // the log was empty when listen first ran: all of it is new
	}
	return p.mark.Add(-settle)
}

// read notes, at once, what one read of the log found: news are being
// delivered from now on, old were handled (in the log when listen first
// ran, or before --since). At once, because the newest date read moves
// the mark: an event of the same read not yet noted as being delivered
// could fall behind it.
func (p *position) read(news, old []api.WebhookEventLog) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ev := range news {
		p.inflight[ev.EventID] = eventDate(ev)
	}
	for _, ev := range old {
		p.done[ev.EventID] = eventDate(ev)
		p.gen++
	}
	for _, ev := range slices.Concat(news, old) {
		if d := eventDate(ev); d.After(p.newest) {
			p.newest = d
		}
	}
}

// finish counts an event as handled and returns once that is on disk.
func (p *position) finish(id string, date time.Time) error {
	p.mu.Lock()
	delete(p.inflight, id)
	p.done[id] = date
	p.gen++
	return p.flushLocked()
}

// flush saves the position and returns once it is on disk.
func (p *position) flush() error {
	p.mu.Lock()
	p.gen++
	return p.flushLocked()
}

// flushLocked writes until the changes made so far are on disk, and
// unlocks. Writes are never concurrent: whoever finds one under way
// waits, and the next write carries every change made meanwhile (a
// burst of deliveries costs a few writes, not one each).
func (p *position) flushLocked() error {
	defer p.mu.Unlock()
	want := p.gen
	for p.written < want {
		if p.writing {
			p.saved.Wait()
			continue
		}
		p.advance()
		data, gen := p.encode(), p.gen
		p.writing = true
		p.mu.Unlock()
		err := paths.WriteFile(p.path, data)
		p.mu.Lock()
		p.writing = false
		p.writes++
		p.saved.Broadcast()
		if err != nil {
			return fmt.Errorf("cannot save listen's position: %w", err)
		}
		p.written = gen
	}
	return nil
}

// advance moves mark as far as it may go and forgets the done events
// before it.
func (p *position) advance() {
	if p.newest.IsZero() {
		return
	}
	m := p.newest.Add(-settle)
	for _, d := range p.inflight {
		if d.Before(m) {
			m = d
		}
	}
	if m.After(p.mark) {
		p.mark = m
	}
	maps.DeleteFunc(p.done, func(_ string, d time.Time) bool { return d.Before(p.mark) })
}

func (p *position) encode() []byte {
	s := p.meta
	s.Version, s.Mark, s.Done = positionVersion, p.mark, p.done
	data, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("listen: encode a position of strings and times: %v", err)) // cannot happen
	}
	return data
}
