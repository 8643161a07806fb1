// Package budget counts requests against the platform's rate limit, a
// number of requests per sliding window per IP address, for every
// partnertui process of the machine at once. Each send, the server's own
// count (X-RateLimit-*) and the "not before" time an HTTP 429 imposed are
// recorded in one small file per API host, read and rewritten under a file
// lock, so processes that talk to the same host never exceed its limit
// together and each shows the machine's real count. Without a directory
// the budget counts for its own process only.
//
// The file, dir/budget-<host> (host escaped, see fileName), is binary and
// little-endian:
//
//	offset  size  field
//	0       8     magic "PTUIBDG1"
//	8       8     hold: not-before time, Unix ns (0: none)
//	16      8     hold reason: 1 retry-after, 2 backoff
//	24      8     server count observed at, Unix ns (0: none)
//	32      8     server limit
//	40      8     server remaining
//	48      8     server reset, Unix ns
//	56      8     sends recorded since the server count
//	64      8     n, number of sends
//	72      8n    send times, Unix ns, ascending
//
// Every write drops what the window no longer counts, so the file holds at
// most MaxSends sends (128 KiB); bytes after the last send are ignored, and
// truncated once there are more than truncSlack of them. A file that is
// not in this format, or is larger, is treated as empty and overwritten: a
// damaged budget costs an estimate, never a failure. Times more than an
// hour ahead (maxHold) are dropped the same way: a clock set back must not
// hold every process.
//
// dir/budget-<host>.lock is the lock file; the data file is never locked
// itself, so the scheme also works where locks are mandatory (Windows).
// Processes sharing a file should use the same window: the shortest one
// decides what is dropped.
package budget

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// Reason says why requests must wait.
type Reason string

// The reasons of a Hold.
const (
	// Spent: the window's requests are used up (by this machine's count,
	// or by the server's X-RateLimit-Remaining).
	Spent Reason = "budget"
	// RetryAfter: an HTTP 429 said when to come back.
	RetryAfter Reason = "retry-after"
	// Backoff: an HTTP 429 did not say; the client chose the wait.
	Backoff Reason = "backoff"
)

// Hold is a time before which no request may be sent, and why.
type Hold struct {
	Reason Reason
	Until  time.Time
}

// IsZero reports whether h holds nothing back.
func (h Hold) IsZero() bool { return h.Until.IsZero() }

const (
	// MaxSends bounds the sends a shared file records; a shared budget's
	// limit is capped to it.
	MaxSends = 1 << 14
	// maxHold: a stored time further ahead than this is taken for damage
	// (or a clock that jumped back), not obeyed.
	maxHold = time.Hour
	// readTTL is how long Count trusts what it last read from the file;
	// a footer may poll Count many times a second.
	readTTL = 250 * time.Millisecond
	// DefaultLockTimeout bounds the wait for another process's lock.
	DefaultLockTimeout = 5 * time.Second
	lockRetry          = time.Millisecond

	magic     = "PTUIBDG1"
	headerLen = 72
	maxFile   = headerLen + 8*MaxSends
)

// ErrLocked reports that another process held the budget's lock for longer
// than the lock timeout.
var ErrLocked = errors.New("locked by another process")

// FileError reports that the shared budget's file or lock could not be used.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string {
	return fmt.Sprintf("cannot use the request budget file %s: %v", e.Path, e.Err)
}
func (e *FileError) Unwrap() error { return e.Err }

// Config configures a Budget.
type Config struct {
	Limit       int           // requests per Window; must be positive
	Window      time.Duration // must be positive
	Now         func() time.Time
	LockTimeout time.Duration // default DefaultLockTimeout
}

// Budget is a sliding-window request count, shared through a file or
// private to the process. It is safe for concurrent use.
type Budget struct {
	limit       int
	window      time.Duration
	now         func() time.Time
	lockTimeout time.Duration

	path string       // "" when private
	lock *flock.Flock // nil when private

	// io serialises this process's use of the file (a Flock is not a
	// mutex between goroutines) and guards the fields below.
	io       sync.Mutex
	data     *os.File    // the data file, kept open between operations
	dataInfo os.FileInfo // what data was when opened, to notice a replaced file
	buf      []byte      // reused for reading and writing
	closed   bool        // Close was called: the files are not touched again

	mu     sync.Mutex // guards st and readAt
	st     state      // private: the state; shared: the last one read
	readAt time.Time  // when st was read from the file; zero before the first read
}

// New returns a budget private to this process.
func New(cfg Config) (*Budget, error) {
	if cfg.Limit <= 0 || cfg.Window <= 0 {
		return nil, fmt.Errorf("budget: limit %d per %s is not a budget", cfg.Limit, cfg.Window)
	}
	b := &Budget{limit: cfg.Limit, window: cfg.Window, now: cfg.Now, lockTimeout: cfg.LockTimeout}
	if b.now == nil {
		b.now = time.Now
	}
	if b.lockTimeout <= 0 {
		b.lockTimeout = DefaultLockTimeout
	}
	return b, nil
}

// Open returns the budget of host shared through dir (created 0700 when
// missing). It reads and rewrites the file once, so that a budget that
// cannot be used fails here rather than on the first request.
func Open(dir, host string, cfg Config) (*Budget, error) {
	b, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if host == "" {
		return nil, errors.New("budget: no host to key the shared budget by")
	}
	b.path = filepath.Join(dir, fileName(host))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, &FileError{Path: b.path, Err: err}
	}
	b.lock = flock.New(b.path+".lock", flock.SetPermissions(0o600), flock.SetFlag(os.O_CREATE|os.O_RDONLY|noFollow))
	if err := b.update(context.Background(), func(*state, int64) bool { return true }); err != nil {
		return nil, err
	}
	return b, nil
}

// fileName keeps a host's letters, digits, dots and hyphens and writes
// every other byte as _ and two hex digits, so that distinct hosts never
// share a file and the name is valid on every file system.
func fileName(host string) string {
	const hex = "0123456789abcdef"
	out := []byte("budget-")
	for i := 0; i < len(host); i++ {
		c := host[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || c == '.' || c == '-' {
			out = append(out, c)
			continue
		}
		out = append(out, '_', hex[c>>4], hex[c&15])
	}
	return string(out)
}

// Path is the shared file, "" for a private budget.
func (b *Budget) Path() string { return b.path }

// Window is the budget's window.
func (b *Budget) Window() time.Duration { return b.window }

// Take records a send now when the budget allows one and returns the time
// it recorded. Otherwise it records nothing and returns the hold in force:
// a 429's not-before time, or the moment a slot frees.
func (b *Budget) Take(ctx context.Context) (sentAt time.Time, hold Hold, err error) {
	err = b.update(ctx, func(s *state, now int64) bool {
		if h := b.holdOf(s, now); !h.IsZero() {
			hold = h
			return false
		}
		s.add(now, b.stored())
		sentAt = time.Unix(0, now)
		return true
	})
	return sentAt, hold, err
}

// Release forgets a send recorded at t that never left (refused before the
// network, or its token could not be had).
func (b *Budget) Release(t time.Time) error {
	return b.update(context.Background(), func(s *state, _ int64) bool { return s.remove(t.UnixNano()) })
}

// HoldUntil records that no request may be sent before h.Until (a 429's
// Retry-After, or the backoff after a 429 without one). A later hold
// already recorded is kept.
func (b *Budget) HoldUntil(h Hold) error {
	code := reasonCode(h.Reason)
	if code == 0 || h.Until.IsZero() {
		return fmt.Errorf("budget: %q is not a hold a 429 can impose", h.Reason)
	}
	until := h.Until.UnixNano()
	return b.update(context.Background(), func(s *state, now int64) bool {
		if until <= s.hold || until <= now {
			return false
		}
		s.hold, s.reason = until, code
		return true
	})
}

// Observe records the server's own count (X-RateLimit-Limit, -Remaining,
// -Reset). Until reset it replaces the machine's count, plus the sends
// recorded after it.
func (b *Budget) Observe(limit, remaining int, reset time.Time) error {
	if limit <= 0 || remaining < 0 {
		return fmt.Errorf("budget: the server's count %d of %d is not a count", remaining, limit)
	}
	return b.update(context.Background(), func(s *state, now int64) bool {
		if now < s.srv.at {
			return false
		}
		s.srv = server{at: now, limit: int64(limit), remaining: int64(min(remaining, limit)), reset: reset.UnixNano()}
		return true
	})
}

// Count returns the requests counted against the current window and the
// number allowed. It never waits: a shared budget re-reads its file at
// most every readTTL, and keeps what it knew while another process holds
// the lock.
func (b *Budget) Count() (used, limit int) {
	b.mu.Lock()
	now := b.now()
	stale := b.readAt.IsZero() || now.Sub(b.readAt) >= readTTL || now.Before(b.readAt)
	b.mu.Unlock()
	if b.path != "" && stale {
		b.refresh(now)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st.used(now.UnixNano(), b.window), b.capOf(&b.st)
}

// refresh re-reads the file unless someone holds the lock.
func (b *Budget) refresh(now time.Time) {
	if !b.io.TryLock() {
		return
	}
	defer b.io.Unlock()
	if b.closed {
		return
	}
	if ok, err := b.lock.TryRLock(); err != nil || !ok {
		return
	}
	defer func() { _ = b.lock.Unlock() }()
	f, err := b.file()
	if err != nil {
		return
	}
	st, _ := b.read(f)
	st.prune(now.UnixNano(), b.window)
	b.mu.Lock()
	b.st, b.readAt = st, now
	b.mu.Unlock()
}

// update runs fn on the current state under the lock, and writes the
// state back when fn reports a change. Times are read under the lock, so
// the sends of all processes are recorded in order.
func (b *Budget) update(ctx context.Context, fn func(s *state, now int64) bool) error {
	if b.path == "" {
		b.mu.Lock()
		defer b.mu.Unlock()
		now := b.now().UnixNano()
		b.st.prune(now, b.window)
		fn(&b.st, now)
		return nil
	}
	b.io.Lock()
	defer b.io.Unlock()
	if b.closed {
		return &FileError{Path: b.path, Err: ErrClosed}
	}
	lctx, cancel := context.WithTimeout(ctx, b.lockTimeout)
	ok, err := b.lock.TryLockContext(lctx, lockRetry)
	cancel()
	if err != nil || !ok {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			return &FileError{Path: b.path, Err: fmt.Errorf("%w for more than %s", ErrLocked, b.lockTimeout)}
		}
		return &FileError{Path: b.lock.Path(), Err: linkOr(b.lock.Path(), err)}
	}
	defer func() { _ = b.lock.Unlock() }()
	f, err := b.file()
	if err != nil {
		return &FileError{Path: b.path, Err: err}
	}
	st, size := b.read(f)
	nowT := b.now()
	now := nowT.UnixNano()
	st.prune(now, b.window)
	if fn(&st, now) {
		if err := b.write(f, &st, size); err != nil {
			return &FileError{Path: b.path, Err: err}
		}
	}
	b.mu.Lock()
	b.st, b.readAt = st, nowT
	b.mu.Unlock()
	return nil
}

// ErrLink reports a symbolic link where the budget's file should be; it is
// refused, never followed (writing through it would overwrite its target).
var ErrLink = errors.New("it is a symbolic link, which partnertui never writes through")

// linkOr is ErrLink when path is a symbolic link (which is why opening it
// failed with err), else err.
func linkOr(path string, err error) error {
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return ErrLink
	}
	return err
}

// file is the open data file, opened again when its path no longer names
// it (removed or replaced), so that every process works on the same file.
// A stat costs a fifth of an open and a close. The caller holds b.io.
func (b *Budget) file() (*os.File, error) {
	fi, err := os.Lstat(b.path)
	if b.data != nil && err == nil && os.SameFile(fi, b.dataInfo) {
		return b.data, nil
	}
	if b.data != nil {
		_ = b.data.Close()
		b.data = nil
	}
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, ErrLink
	}
	f, err := os.OpenFile(b.path, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return nil, linkOr(b.path, err)
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		_ = f.Close()
		if err == nil {
			err = errors.New("it is not a regular file")
		}
		return nil, err
	}
	if li, lerr := os.Lstat(b.path); noFollow == 0 && (lerr != nil || !os.SameFile(li, fi)) {
		_ = f.Close()
		return nil, ErrLink
	}
	b.data, b.dataInfo = f, fi
	return f, nil
}

// ErrClosed reports a shared budget used after Close. A request still in
// flight when its program ends must not create the budget's files again in
// a state directory that may be on its way out.
var ErrClosed = errors.New("the request budget was closed")

// Close releases the data file; a shared budget refuses to count requests
// from then on (ErrClosed) and Count reports what it last knew.
func (b *Budget) Close() error {
	b.io.Lock()
	defer b.io.Unlock()
	b.closed = true
	if b.data == nil {
		return nil
	}
	err := b.data.Close()
	b.data = nil
	return err
}

// read decodes f and returns its size; anything unreadable is an empty
// budget. One read of up to maxFile+1 bytes replaces a stat. The caller
// holds b.io.
func (b *Budget) read(f *os.File) (state, int) {
	if cap(b.buf) < maxFile+1 {
		b.buf = make([]byte, maxFile+1)
	}
	n, err := f.ReadAt(b.buf[:maxFile+1], 0)
	if (err != nil && !errors.Is(err, io.EOF)) || n > maxFile {
		return state{}, n
	}
	st, _ := decode(b.buf[:n])
	return st, n
}

// truncSlack is how many stale bytes a file may keep after its last send
// before it is truncated: decode ignores them, and a truncation costs as
// much as the rest of a take.
const truncSlack = 4096

// write replaces f's content with s; size is f's size. The caller holds
// b.io and the lock.
func (b *Budget) write(f *os.File, s *state, size int) error {
	b.buf = s.encode(b.buf[:0])
	if _, err := f.WriteAt(b.buf, 0); err != nil {
		return err
	}
	if size-len(b.buf) <= truncSlack {
		return nil
	}
	return f.Truncate(int64(len(b.buf)))
}

// stored bounds the sends a shared file keeps; 0 (no bound) when private.
func (b *Budget) stored() int {
	if b.path != "" {
		return MaxSends
	}
	return 0
}

// capOf is the number of requests allowed per window: the server's when
// it said, else the configured one.
func (b *Budget) capOf(s *state) int {
	limit := b.limit
	if s.srv.at != 0 && s.srv.limit > 0 {
		limit = int(s.srv.limit)
	}
	if b.path != "" {
		limit = min(limit, MaxSends)
	}
	return limit
}

// holdOf is the hold in force at now: a 429's, else a spent window's.
func (b *Budget) holdOf(s *state, now int64) Hold {
	if s.hold > now {
		return Hold{Reason: reasonOf(s.reason), Until: time.Unix(0, s.hold)}
	}
	used, capacity := s.used(now, b.window), b.capOf(s)
	if used < capacity {
		return Hold{}
	}
	if s.srvActive(now) {
		return Hold{Reason: Spent, Until: time.Unix(0, s.srv.reset)}
	}
	// The (used-capacity)th oldest send leaving the window frees a slot.
	live := s.live(now, b.window)
	if len(live) == 0 {
		return Hold{Reason: Spent, Until: time.Unix(0, now).Add(b.window)}
	}
	idx := min(used-capacity, len(live)-1)
	return Hold{Reason: Spent, Until: time.Unix(0, live[idx]).Add(b.window)}
}

// state is what the file records.
type state struct {
	hold   int64 // not before, Unix ns; 0: none
	reason uint64
	srv    server
	sends  []int64 // Unix ns, ascending
}

// server is the last X-RateLimit-* count a response carried.
type server struct {
	at        int64 // Unix ns; 0: none
	limit     int64
	remaining int64
	reset     int64 // Unix ns
	since     int64 // sends recorded after it
}

func reasonCode(r Reason) uint64 {
	switch r {
	case RetryAfter:
		return 1
	case Backoff:
		return 2
	}
	return 0
}

func reasonOf(code uint64) Reason {
	if code == 2 {
		return Backoff
	}
	return RetryAfter
}

func (s *state) srvActive(now int64) bool { return s.srv.at != 0 && now < s.srv.reset }

// live is the sends the window at now still counts.
func (s *state) live(now int64, window time.Duration) []int64 {
	cut := now - int64(window)
	i := sort.Search(len(s.sends), func(i int) bool { return s.sends[i] > cut })
	return s.sends[i:]
}

// used counts the requests against the window at now: the server's count
// plus what was sent since, while the server's count holds; else the sends
// inside the window.
func (s *state) used(now int64, window time.Duration) int {
	if s.srvActive(now) {
		return int(s.srv.limit - s.srv.remaining + s.srv.since)
	}
	return len(s.live(now, window))
}

// prune drops what no longer counts at now, and what lies implausibly far
// ahead (a damaged file, or a clock set back).
func (s *state) prune(now int64, window time.Duration) {
	ahead := now + int64(maxHold)
	if s.hold <= now || s.hold > ahead || reasonCode(reasonOf(s.reason)) != s.reason {
		s.hold, s.reason = 0, 0
	}
	if s.srv.at != 0 && (s.srv.reset+int64(window) <= now || s.srv.reset > ahead || s.srv.at > now+int64(window) ||
		s.srv.limit <= 0 || s.srv.remaining < 0 || s.srv.remaining > s.srv.limit || s.srv.since < 0) {
		s.srv = server{}
	}
	start := len(s.sends) - len(s.live(now, window))
	end := len(s.sends)
	for end > start && s.sends[end-1] > now+int64(window) {
		end--
	}
	if start > 0 {
		end = copy(s.sends, s.sends[start:end])
	}
	s.sends = s.sends[:end]
}

// add records a send at now, keeping the sends in order and, when limit
// is positive, at most limit of them.
func (s *state) add(now int64, limit int) {
	i := len(s.sends)
	for i > 0 && s.sends[i-1] > now {
		i--
	}
	s.sends = slices.Insert(s.sends, i, now)
	if limit > 0 && len(s.sends) > limit {
		s.sends = s.sends[len(s.sends)-limit:]
	}
	if s.srv.at != 0 {
		s.srv.since++
	}
}

// remove forgets one send at t.
func (s *state) remove(t int64) bool {
	for i := len(s.sends) - 1; i >= 0; i-- {
		if s.sends[i] == t {
			s.sends = slices.Delete(s.sends, i, i+1)
			s.srv.since = max(s.srv.since-1, 0)
			return true
		}
	}
	return false
}

func (s *state) encode(buf []byte) []byte {
	buf = append(buf, magic...)
	for _, v := range []int64{s.hold, int64(s.reason), s.srv.at, s.srv.limit, s.srv.remaining, s.srv.reset, s.srv.since, int64(len(s.sends))} {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	for _, t := range s.sends {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(t))
	}
	return buf
}

// decode reads the format of the package comment; ok is false (and the
// state empty) for anything else. Bytes after the last send are ignored.
func decode(b []byte) (s state, ok bool) {
	if len(b) < headerLen || string(b[:8]) != magic {
		return state{}, false
	}
	field := func(i int) int64 { return int64(binary.LittleEndian.Uint64(b[8+8*i:])) }
	n := field(7)
	if n < 0 || n > MaxSends || int64(len(b)) < headerLen+8*n {
		return state{}, false
	}
	s = state{hold: field(0), reason: uint64(field(1)),
		srv:   server{at: field(2), limit: field(3), remaining: field(4), reset: field(5), since: field(6)},
		sends: make([]int64, n)}
	for i := range s.sends {
		s.sends[i] = int64(binary.LittleEndian.Uint64(b[headerLen+8*i:]))
		if s.sends[i] <= 0 || (i > 0 && s.sends[i] < s.sends[i-1]) {
			return state{}, false
		}
	}
	return s, true
}
