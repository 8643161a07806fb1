package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/safetext"
)

// Snapshot is an environment's first screen kept on disk between runs (who
// the token belongs to and the first page of accounts), so the next launch
// shows it at once while the first request reads it again. It is kept per
// environment and identity (client id and signed-in user, or the project),
// in a 0600 file written atomically, and deleted at logout.
type Snapshot struct {
	dir     string
	env     config.EnvName
	project bool
	// status is where the identity is read: the token store (no network).
	status func() (clientID, subject string, signedIn bool)
}

// maxSnapshot bounds what is read back: a page of accounts is tens of
// kilobytes.
const maxSnapshot = 4 << 20

type snapshotFile struct {
	Identity string    `json:"identity"`
	Saved    time.Time `json:"saved"`
	Home     *api.Home `json:"home"`
}

// identity is the key of the current token's snapshot; "" when there is
// none (nobody signed in).
func (s *Snapshot) identity() string {
	clientID, subject, signedIn := s.status()
	switch {
	case s.project:
		subject = "project"
	case !signedIn || subject == "":
		return ""
	}
	sum := sha256.Sum256([]byte(string(s.env) + "\x00" + clientID + "\x00" + subject))
	return hex.EncodeToString(sum[:12])
}

func (s *Snapshot) path(identity string) string {
	return filepath.Join(s.dir, "launch-"+string(s.env)+"-"+identity+".json")
}

// Load is the current identity's snapshot and when it was saved; nil when
// there is none.
func (s *Snapshot) Load() (*api.Home, time.Time, error) {
	id := s.identity()
	if id == "" {
		return nil, time.Time{}, nil
	}
	f, err := paths.OpenFile(s.path(id), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("the launch snapshot: %w", err)
	}
	defer f.Close()
	var sf snapshotFile
	if err := json.NewDecoder(io.LimitReader(f, maxSnapshot)).Decode(&sf); err != nil {
		return nil, time.Time{}, fmt.Errorf("the launch snapshot %s is damaged: %w", f.Name(), err)
	}
	if sf.Identity != id || sf.Home == nil || sf.Home.Accounts == nil {
		// Never another identity's, whatever the file is called.
		return nil, time.Time{}, nil
	}
	// What was saved came from the API, cleaned; the file may have been
	// changed since. Every string read back passes the sanitiser, as the
	// API's answers do, on its way to the screen.
	safetext.StripFields(sf.Home)
	return sf.Home, sf.Saved, nil
}

// Save keeps h as the current identity's snapshot, atomically and never
// through a link (paths.WriteFile: 0600, temporary file, sync, rename).
func (s *Snapshot) Save(h *api.Home) error {
	id := s.identity()
	if id == "" || h == nil || h.Accounts == nil {
		return nil
	}
	data, err := json.Marshal(snapshotFile{Identity: id, Saved: time.Now().UTC(), Home: h})
	if err != nil {
		return err
	}
	if err := paths.EnsureDir(s.dir); err != nil {
		return err
	}
	if err := paths.WriteFile(s.path(id), data); err != nil {
		return fmt.Errorf("the launch snapshot: %w", err)
	}
	return nil
}

// ForgetSnapshots deletes every launch snapshot of env, whoever's: logout
// leaves none behind.
func (a *App) ForgetSnapshots(env config.EnvName) error {
	names, err := filepath.Glob(filepath.Join(a.StateDir, "launch-"+string(env)+"-*.json"))
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range names {
		if err := os.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
