package data

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Identification is a simulated identification of a sandbox user: the
// process it followed and the status of each level it may award.
type Identification struct {
	ID      string
	UserID  string
	Process string            // IdentificationProcess
	Levels  map[string]string // level (expert, pvid, qes) → SwanIdentificationStatus
	// ErrorReasons are IdentificationInvalidReason values of an Invalid
	// level.
	ErrorReasons []string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// processLevels are the levels each process may award, as the platform's
// documentation lists them: a successful PVID awards PVID and Expert.
var processLevels = map[string][]string{
	"Expert": {"expert"},
	"PVID":   {"expert", "pvid"},
	"QES":    {"expert", "qes"},
}

// Rejections of an identification's input.
var (
	ErrInvalidLevels  = errors.New("the levels do not fit the process")
	ErrInvalidReasons = errors.New("error reasons are given only with an Invalid level")
)

// MaxIdentifications bounds the identifications simulated in one emulator.
const MaxIdentifications = 10_000

// checkIdentification checks the levels and reasons of a process.
func checkIdentification(process string, levels map[string]string, reasons []string) error {
	allowed, ok := processLevels[process]
	if !ok || len(levels) == 0 {
		return fmt.Errorf("process %s sets none of its levels %v: %w", process, allowed, ErrInvalidLevels)
	}
	invalid := false
	for level, status := range levels {
		if !slices.Contains(allowed, level) {
			return fmt.Errorf("process %s awards %v, not %s: %w", process, allowed, level, ErrInvalidLevels)
		}
		invalid = invalid || status == "Invalid"
	}
	if len(reasons) > 0 && !invalid {
		return ErrInvalidReasons
	}
	return nil
}

// CreateIdentification records an identification of a sandbox user, whose
// identification levels then follow it: a Valid level is awarded, any
// other status withdraws it.
func (s *Store) CreateIdentification(userID, process string, levels map[string]string, reasons []string) (Identification, error) {
	if err := checkIdentification(process, levels, reasons); err != nil {
		return Identification{}, err
	}
	now := s.now().UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.userByID[userID]
	if !ok {
		return Identification{}, fmt.Errorf("user %s: %w", userID, ErrNotFound)
	}
	if len(s.idents) >= MaxIdentifications {
		return Identification{}, fmt.Errorf("the emulator holds %d identifications, its maximum: %w", MaxIdentifications, ErrForbidden)
	}
	id := &Identification{ID: s.runtimeID(0x6964656e74, len(s.idents)), UserID: userID, CreatedAt: now}
	s.idents[id.ID] = id
	s.identifyLocked(u, id, process, levels, reasons, now)
	return id.clone(), nil
}

// UpdateIdentification changes an identification, and its user's levels.
func (s *Store) UpdateIdentification(id, process string, levels map[string]string, reasons []string) (Identification, error) {
	if err := checkIdentification(process, levels, reasons); err != nil {
		return Identification{}, err
	}
	now := s.now().UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	ident, ok := s.idents[id]
	if !ok {
		return Identification{}, fmt.Errorf("identification %s: %w", id, ErrNotFound)
	}
	u, ok := s.userByID[ident.UserID]
	if !ok {
		return Identification{}, fmt.Errorf("the user of identification %s was deleted: %w", id, ErrNotFound)
	}
	s.identifyLocked(u, ident, process, levels, reasons, now)
	return ident.clone(), nil
}

func (s *Store) identifyLocked(u *User, id *Identification, process string, levels map[string]string, reasons []string, now time.Time) {
	id.Process, id.ErrorReasons, id.UpdatedAt = process, slices.Clone(reasons), now
	id.Levels = make(map[string]string, len(levels))
	for level, status := range levels {
		id.Levels[level] = status
		valid := status == "Valid"
		switch level {
		case "expert":
			u.Expert = valid
		case "pvid":
			u.PVID = valid
		case "qes":
			u.QES = valid
		}
	}
	u.UpdatedAt = now
}

func (i *Identification) clone() Identification {
	c := *i
	c.ErrorReasons = slices.Clone(i.ErrorReasons)
	c.Levels = make(map[string]string, len(i.Levels))
	for k, v := range i.Levels {
		c.Levels[k] = v
	}
	return c
}
