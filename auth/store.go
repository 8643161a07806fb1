package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/partnertui/partnertui/internal/safetext"
	"golang.org/x/oauth2"
)

// storeVersion is bumped when the file format changes incompatibly.
const storeVersion = 1

// maxStoreFile bounds what we read: a token file is a few kilobytes.
const maxStoreFile = 256 << 10

// storedToken is one environment+client session on disk.
type storedToken struct {
	Version      int       `json:"version"`
	Env          string    `json:"env"`
	ClientID     string    `json:"client_id"`
	Issuer       string    `json:"issuer"`
	Subject      string    `json:"subject,omitempty"`
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	IDToken      string    `json:"id_token,omitempty"`
	Scope        string    `json:"scope,omitempty"`
	Expiry       time.Time `json:"expiry"`
	ObtainedAt   time.Time `json:"obtained_at"`
}

func (t *storedToken) oauth2() *oauth2.Token {
	tok := &oauth2.Token{
		AccessToken:  t.AccessToken,
		TokenType:    t.TokenType,
		RefreshToken: t.RefreshToken,
		Expiry:       t.Expiry,
	}
	if t.IDToken != "" {
		tok = tok.WithExtra(map[string]any{"id_token": t.IDToken})
	}
	return tok
}

// store is the token file of one environment and client id, with its lock.
type store struct {
	dir      string
	path     string
	lockPath string
	env      string
	clientID string
	issuer   string
}

func newStore(dir, env, clientID, issuer string) *store {
	// The client id is hashed into the name so any id (even one with
	// slashes) gives a safe file name, and a new client never reads the
	// session of the old one.
	sum := sha256.Sum256([]byte(env + "\x00" + clientID))
	base := fmt.Sprintf("%s-%s", env, hex.EncodeToString(sum[:8]))
	return &store{
		dir:      dir,
		path:     filepath.Join(dir, base+".json"),
		lockPath: filepath.Join(dir, base+".lock"),
		env:      env,
		clientID: clientID,
		issuer:   issuer,
	}
}

// read returns the stored session, or nil when there is none.
func (s *store) read() (*storedToken, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot open the stored session %s: %w", s.path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot inspect the stored session %s: %w", s.path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, &SessionEndedError{Env: s.env, Reason: "the stored session is not a regular file", Path: s.path}
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, &UnsafeStoreError{Path: s.path, Mode: uint32(perm)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxStoreFile+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the stored session %s: %w", s.path, err)
	}
	var tok storedToken
	if len(data) > maxStoreFile || json.Unmarshal(data, &tok) != nil || tok.Version != storeVersion || tok.AccessToken == "" {
		return nil, &SessionEndedError{Env: s.env, Reason: "the stored session is damaged or from another version", Path: s.path}
	}
	if tok.Env != s.env || tok.ClientID != s.clientID {
		return nil, &SessionEndedError{Env: s.env, Reason: "the stored session belongs to another environment or client", Path: s.path}
	}
	if s.issuer != "" && tok.Issuer != "" && strings.TrimRight(tok.Issuer, "/") != strings.TrimRight(s.issuer, "/") {
		return nil, &SessionEndedError{Env: s.env, Reason: fmt.Sprintf("the stored session was issued by %s, not the configured %s", safetext.Truncate(tok.Issuer, 100), s.issuer), Path: s.path}
	}
	return &tok, nil
}

// write replaces the session atomically: readers see the old file or the new
// one, never a partial write, even if the process dies half-way.
func (s *store) write(tok *storedToken) error {
	tok.Version = storeVersion
	tok.Env = s.env
	tok.ClientID = s.clientID
	if tok.Issuer == "" {
		tok.Issuer = s.issuer
	}
	data, err := json.MarshalIndent(tok, "", "  ")
	if err != nil {
		return fmt.Errorf("cannot encode the session: %w", err)
	}
	if err := s.ensureDir(); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, "."+filepath.Base(s.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot create a temporary file in %s to save the session: %w", s.dir, err)
	}
	tmpName := tmp.Name()
	fail := func(step string, err error) error {
		tmp.Close()
		os.Remove(tmpName)
		return fmt.Errorf("cannot save the session to %s (%s): %w", s.path, step, err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		return fail("chmod", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail("write", err)
	}
	if err := tmp.Sync(); err != nil {
		return fail("fsync", err)
	}
	if err := tmp.Close(); err != nil {
		return fail("close", err)
	}
	if err := os.Rename(tmpName, s.path); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("cannot save the session to %s (rename): %w", s.path, err)
	}
	// The rename is durable only once the directory entry is on disk.
	if d, err := os.Open(s.dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// removeStaleTemps deletes temporary files a killed writer left behind; it
// runs under the lock, so no live writer owns them.
func (s *store) removeStaleTemps() {
	matches, _ := filepath.Glob(filepath.Join(s.dir, "."+filepath.Base(s.path)+".tmp-*"))
	for _, m := range matches {
		os.Remove(m)
	}
}

func (s *store) remove() error {
	if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot delete the stored session %s: %w", s.path, err)
	}
	return nil
}

func (s *store) ensureDir() error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("cannot create the state directory %s: %w", s.dir, err)
	}
	return nil
}

// lock takes the cross-process lock on the separate .lock file (locking the
// data file itself would break the atomic rename). It polls so a context
// deadline can end the wait.
func (s *store) lock(ctx context.Context) (unlock func(), err error) {
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	fl := flock.New(s.lockPath, flock.SetPermissions(0o600))
	start := time.Now()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, &LockTimeoutError{Path: s.lockPath, Wait: time.Since(start).Round(time.Second), Err: err}
	}
	return func() { fl.Unlock() }, nil
}
