package auth

import (
	"bytes"
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
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/safetext"
	"golang.org/x/oauth2"
)

// storeVersion is bumped when the file format changes incompatibly.
const storeVersion = 1

// maxStoreFile bounds what we read: a token file is a few kilobytes.
const maxStoreFile = 256 << 10

// Kinds of stored token: a user session (authorization code, refreshed
// with its refresh token) or a project token (client credentials).
const (
	kindUser    = ""
	kindProject = "project"
)

// storedToken is one environment+client token on disk.
type storedToken struct {
	Version      int       `json:"version"`
	Kind         string    `json:"kind,omitempty"`
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

// tokenAnswer is what a token endpoint's answer contributes to a stored
// token, read from x/oauth2's result or, by recovery, from the raw answer.
type tokenAnswer struct {
	AccessToken  string      `json:"access_token"`
	TokenType    string      `json:"token_type"`
	RefreshToken string      `json:"refresh_token"`
	IDToken      string      `json:"id_token"`
	Scope        string      `json:"scope"`
	ExpiresIn    json.Number `json:"expires_in"`
	expiry       time.Time   // x/oauth2's absolute expiry, for an answer without expires_in
}

func answerOf(tok *oauth2.Token) tokenAnswer {
	a := tokenAnswer{AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, expiry: tok.Expiry}
	if tok.ExpiresIn > 0 {
		a.ExpiresIn = json.Number(strconv.FormatInt(tok.ExpiresIn, 10))
	}
	a.IDToken, _ = tok.Extra("id_token").(string)
	a.Scope, _ = tok.Extra("scope").(string)
	return a
}

// next is the token that t becomes with answer a, obtained at now.
func (t *storedToken) next(a tokenAnswer, now time.Time) *storedToken {
	n := &storedToken{
		Issuer:       t.Issuer,
		Subject:      t.Subject,
		IDToken:      t.IDToken,
		Scope:        t.Scope,
		AccessToken:  a.AccessToken,
		TokenType:    a.TokenType,
		RefreshToken: a.RefreshToken,
		Expiry:       a.expiry,
		ObtainedAt:   now,
	}
	// RFC 6749 §6: an answer without a refresh token leaves the current
	// one valid.
	if n.RefreshToken == "" {
		n.RefreshToken = t.RefreshToken
	}
	if a.IDToken != "" {
		n.IDToken = a.IDToken
	}
	if a.Scope != "" {
		n.Scope = a.Scope
	}
	// expires_in counted on our clock, so freshness and expiry use one
	// time base.
	if secs, err := a.ExpiresIn.Int64(); err == nil && secs > 0 {
		n.Expiry = now.Add(time.Duration(secs) * time.Second)
	}
	return n
}

// store is the token file of one environment, client id and kind, with
// the lock it shares with the other kind.
type store struct {
	dir      string
	path     string
	lockPath string
	env      string
	clientID string
	issuer   string
	kind     string
}

func newStore(dir, env, clientID, issuer, kind string) *store {
	// The client id is hashed into the name so any id (even one with
	// slashes) gives a safe file name, and a new client never reads the
	// session of the old one.
	sum := sha256.Sum256([]byte(env + "\x00" + clientID))
	base := fmt.Sprintf("%s-%s", env, hex.EncodeToString(sum[:8]))
	name := base + ".json"
	if kind == kindProject {
		name = base + ".project.json"
	}
	return &store{
		dir:      dir,
		path:     filepath.Join(dir, name),
		lockPath: filepath.Join(dir, base+".lock"),
		env:      env,
		clientID: clientID,
		issuer:   issuer,
		kind:     kind,
	}
}

// read returns the stored token, or nil when there is none.
func (s *store) read() (*storedToken, error) {
	data, err := s.readChecked(s.path)
	if data == nil || err != nil {
		return nil, err
	}
	var tok storedToken
	if json.Unmarshal(data, &tok) != nil {
		return nil, s.damaged(s.path)
	}
	if err := s.check(&tok, s.path); err != nil {
		return nil, err
	}
	return &tok, nil
}

// readChecked reads a token file that is regular, not readable by others
// and small; nil data and no error when it does not exist.
func (s *store) readChecked(path string) ([]byte, error) {
	f, err := paths.OpenFile(path, os.O_RDONLY, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, paths.ErrNotRegular):
		return nil, &SessionEndedError{Env: s.env, Reason: "the stored session is not a regular file", Path: path}
	case errors.Is(err, paths.ErrLink):
		return nil, fmt.Errorf("the stored session %s %w", path, paths.ErrLink)
	case err != nil:
		return nil, fmt.Errorf("cannot open the stored session %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot inspect the stored session %s: %w", path, err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, &UnsafeStoreError{Path: path, Mode: uint32(perm)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxStoreFile+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the stored session %s: %w", path, err)
	}
	if len(data) > maxStoreFile {
		return nil, s.damaged(path)
	}
	return data, nil
}

// check refuses a decoded token that is incomplete, of another format
// version, or not this store's (environment, client, kind, issuer).
func (s *store) check(tok *storedToken, path string) error {
	if tok.Version != storeVersion || tok.AccessToken == "" {
		return s.damaged(path)
	}
	if tok.Env != s.env || tok.ClientID != s.clientID || tok.Kind != s.kind {
		return &SessionEndedError{Env: s.env, Reason: "the stored session belongs to another environment or client", Path: path}
	}
	if s.issuer != "" && tok.Issuer != "" && strings.TrimRight(tok.Issuer, "/") != strings.TrimRight(s.issuer, "/") {
		return &SessionEndedError{Env: s.env, Reason: fmt.Sprintf("the stored session was issued by %s, not the configured %s", safetext.Truncate(tok.Issuer, 100), s.issuer), Path: path}
	}
	return nil
}

// damaged: the file at path is not a token file this version can read.
func (s *store) damaged(path string) error {
	return &SessionEndedError{Env: s.env, Reason: "the stored session is damaged or from another version", Path: path}
}

// stamp fills in what makes a token this store's.
func (s *store) stamp(tok *storedToken) {
	tok.Version = storeVersion
	tok.Kind = s.kind
	tok.Env = s.env
	tok.ClientID = s.clientID
	if tok.Issuer == "" {
		tok.Issuer = s.issuer
	}
}

// write replaces the stored token atomically: readers see the old file or
// the new one, never a partial write, even if the process dies half-way.
func (s *store) write(tok *storedToken) error {
	tmp, err := s.writeTemp(tok)
	if err != nil {
		return err
	}
	return s.commit(tmp)
}

// writeTemp writes tok to a new temporary file next to the store file,
// synced to disk, and returns its name: what commit puts in place.
func (s *store) writeTemp(tok *storedToken) (string, error) {
	s.stamp(tok)
	data, err := json.MarshalIndent(tok, "", "  ")
	if err != nil {
		return "", fmt.Errorf("cannot encode the session: %w", err)
	}
	if err := s.ensureDir(); err != nil {
		return "", err
	}
	tmp, err := s.createTemp()
	if err != nil {
		return "", err
	}
	tmpName := tmp.Name()
	fail := func(step string, err error) error {
		tmp.Close() // a second Close, after a failed one, only says so
		os.Remove(tmpName)
		return fmt.Errorf("cannot save the session to %s (%s): %w", s.path, step, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return "", fail("write", err)
	}
	if err := tmp.Sync(); err != nil {
		return "", fail("fsync", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fail("close", err)
	}
	return tmpName, nil
}

// commit renames the temporary file writeTemp made over the store file,
// and makes the rename durable.
func (s *store) commit(tmpName string) error {
	if err := os.Rename(tmpName, s.path); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("cannot save the session to %s (rename): %w", s.path, err)
	}
	s.syncDir()
	return nil
}

// createTemp makes a 0600 temporary file next to the store file, so a
// rename commits it on the same file system.
func (s *store) createTemp() (*os.File, error) {
	tmp, err := os.CreateTemp(s.dir, s.tempPrefix()+"*")
	if err != nil {
		return nil, fmt.Errorf("cannot create a temporary file in %s to save the session: %w", s.dir, err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("cannot protect the temporary file %s: %w", tmp.Name(), err)
	}
	return tmp, nil
}

// readTemp reads a temporary file: a complete token file a writer was
// killed before renaming, or a journal whose answer is complete. nil when
// it is neither, or not this store's.
func (s *store) readTemp(path string) *storedToken {
	data, err := s.readChecked(path)
	if data == nil || err != nil {
		return nil
	}
	var tok storedToken
	if json.Unmarshal(data, &tok) == nil {
		if s.check(&tok, path) != nil {
			return nil
		}
		return &tok
	}
	header, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok || json.Unmarshal(header, &tok) != nil || s.check(&tok, path) != nil {
		return nil
	}
	if body, ok = answerBody(body); !ok {
		return nil
	}
	var a tokenAnswer
	if json.Unmarshal(body, &a) != nil || a.AccessToken == "" {
		return nil
	}
	// The journal's first line carries the time of the request.
	return tok.next(a, tok.ObtainedAt)
}

// recoverTemps runs under the lock, before the stored token is used. A
// writer killed between reading a token answer and renaming its file
// leaves the only copy of the new token in its journal or temporary file
// (the server has already spent the old refresh token). Such a file wins
// when it is complete, passes every check the store file passes, and
// supersedes the stored token: the same user, obtained later, with a
// different access token and (for a user session) a different refresh
// token. Anything else (empty, partial, foreign, older) is deleted.
// Without a stored token nothing is recovered: a sign-in killed before its
// rename never showed who signed in.
func (s *store) recoverTemps() error {
	temps := s.temps()
	if len(temps) == 0 {
		return nil
	}
	cur, err := s.read()
	if err != nil {
		// Left alone: once the file is repaired (chmod), the next run
		// can still recover them.
		return err
	}
	var best *storedToken
	for _, path := range temps {
		tok := s.readTemp(path)
		if tok == nil || !supersedes(tok, cur) {
			continue
		}
		if best == nil || tok.ObtainedAt.After(best.ObtainedAt) {
			best = tok
		}
	}
	if best != nil {
		// Written afresh rather than renamed: a journal is not in the
		// store's format.
		if err := s.write(best); err != nil {
			return fmt.Errorf("cannot recover the session a killed process left in %s: %w", s.dir, err)
		}
	}
	for _, path := range temps {
		os.Remove(path)
	}
	return nil
}

// supersedes reports whether next is a later token of the same session
// than cur.
func supersedes(next, cur *storedToken) bool {
	if cur == nil || next.Subject != cur.Subject || !next.ObtainedAt.After(cur.ObtainedAt) || next.AccessToken == cur.AccessToken {
		return false
	}
	if cur.Kind == kindUser {
		return next.RefreshToken != "" && next.RefreshToken != cur.RefreshToken
	}
	return true
}

// syncDir makes a rename durable: it is on disk only once the directory
// entry is.
func (s *store) syncDir() {
	if d, err := os.Open(s.dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func (s *store) tempPrefix() string { return "." + filepath.Base(s.path) + ".tmp-" }

func (s *store) temps() []string {
	matches, _ := filepath.Glob(filepath.Join(s.dir, s.tempPrefix()+"*"))
	return matches
}

// hasTemps reports whether a writer is at work or was killed at work: the
// stored token may then be out of date, and only the lock holder may tell.
func (s *store) hasTemps() bool { return len(s.temps()) > 0 }

// removeStaleTemps deletes temporary files a killed writer left behind; it
// runs under the lock, so no live writer owns them.
func (s *store) removeStaleTemps() {
	for _, m := range s.temps() {
		os.Remove(m)
	}
}

func (s *store) remove() error {
	if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot delete the stored session %s: %w", s.path, err)
	}
	return nil
}

func (s *store) ensureDir() error { return paths.EnsureDir(s.dir) }

// lock takes the cross-process lock on the separate .lock file (locking the
// data file itself would break the atomic rename). It polls so a context
// deadline can end the wait.
func (s *store) lock(ctx context.Context) (unlock func(), err error) {
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	fl := flock.New(s.lockPath, flock.SetPermissions(0o600), flock.SetFlag(os.O_CREATE|os.O_RDONLY|paths.NoFollow))
	start := time.Now()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		if fi, lerr := os.Lstat(s.lockPath); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("the session lock %s %w", s.lockPath, paths.ErrLink)
		}
		if err == nil {
			err = ctx.Err()
		}
		return nil, &LockTimeoutError{Path: s.lockPath, Wait: time.Since(start).Round(time.Second), Err: err}
	}
	return func() { fl.Unlock() }, nil
}
