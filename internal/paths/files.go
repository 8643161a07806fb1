package paths

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrLink reports that a path where partnertui keeps a file of its own is
// a symbolic link. Whoever planted it would have partnertui read or
// overwrite its target: it is refused, never followed.
var ErrLink = errors.New("is a symbolic link, which partnertui never opens its files through")

// ErrNotRegular reports that the path is a directory, a named pipe, a
// device or a socket, not a file partnertui wrote.
var ErrNotRegular = errors.New("is not a regular file")

// OpenFile opens a file of partnertui's own, in the state directory, as
// os.OpenFile does but without following a symbolic link and without
// waiting on a named pipe; anything but a regular file is refused with an
// *fs.PathError that names the path and wraps ErrLink or ErrNotRegular.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|NoFollow, perm)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLink}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if err == nil && NoFollow == 0 {
		// Without O_NOFOLLOW, check that the path still names what was
		// opened and is no link.
		if li, lerr := os.Lstat(path); lerr != nil || li.Mode()&fs.ModeSymlink != 0 || !os.SameFile(li, fi) {
			err = &fs.PathError{Op: "open", Path: path, Err: ErrLink}
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// DirError reports that the state directory could not be made
// partnertui's alone.
type DirError struct {
	Path string
	Mode fs.FileMode // its permissions
	Err  error
}

func (e *DirError) Error() string {
	if e.Mode != 0 {
		return fmt.Sprintf("the state directory %s (mode %04o) is open to other users, holds tokens, and could not be restricted to 0700: %v", e.Path, e.Mode, e.Err)
	}
	return fmt.Sprintf("cannot use the state directory %s: %v", e.Path, e.Err)
}
func (e *DirError) Unwrap() error { return e.Err }

// EnsureDir makes dir (and its parents) with mode 0700 when it is missing.
// One that exists with any permission for group or others is tightened to
// 0700: it holds tokens, and whoever can write to it can plant a link
// where a token file will be. When that fails (it belongs to someone else)
// it is refused with a *DirError.
func EnsureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &DirError{Path: dir, Err: err}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return &DirError{Path: dir, Err: err}
	}
	if !fi.IsDir() {
		return &DirError{Path: dir, Err: errors.New("it is not a directory")}
	}
	perm := fi.Mode().Perm()
	if perm&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return &DirError{Path: dir, Mode: perm, Err: err}
	}
	return nil
}

// ReadFile reads a file of partnertui's own as os.ReadFile does, opened
// through OpenFile: a link or odd file is refused.
func ReadFile(path string) ([]byte, error) {
	f, err := OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// WriteFile replaces a file of partnertui's own with data, mode 0600,
// atomically: a reader, or the next run after a kill -9, finds the old
// content or the new, never a part. The data goes to a new temporary file
// in the same directory (created exclusively, so no planted link is
// followed), is synced, then renamed over path (a rename replaces a link
// at path instead of writing through it).
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync() // the rename itself survives a crash
		d.Close()
	}
	return nil
}
