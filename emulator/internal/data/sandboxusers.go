package data

import (
	"errors"
	"fmt"
	"slices"
)

// ErrLastUser is returned when deleting the last sandbox user.
var ErrLastUser = errors.New("the last sandbox user cannot be deleted")

// UpdateUser replaces what createSandboxUser set on a sandbox user (a demo
// or created one).
func (s *Store) UpdateUser(id string, in NewUser) (User, error) {
	now := s.now().UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.userByID[id]
	if !ok || u.Status == "Deactivated" {
		return User{}, fmt.Errorf("sandbox user %s: %w", id, ErrNotFound)
	}
	u.FirstName, u.LastName, u.BirthDate = in.FirstName, in.LastName, in.BirthDate
	u.BirthCountry, u.Nationality, u.AutoConsent = in.BirthCountry, in.Nationality, in.AutoConsent
	u.UpdatedAt = now
	return *u, nil
}

// DeleteUser deletes a sandbox user: it can no longer sign in, and the
// users who endorsed it act as themselves again. The last one stays.
func (s *Store) DeleteUser(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.userByID[id]
	if !ok {
		return fmt.Errorf("sandbox user %s: %w", id, ErrNotFound)
	}
	if len(s.users) == 1 {
		return fmt.Errorf("sandbox user %s: %w", id, ErrLastUser)
	}
	s.users = slices.DeleteFunc(s.users, func(x *User) bool { return x == u })
	delete(s.userByID, id)
	if u.Phone != "" {
		delete(s.userPhone, u.Phone)
	}
	for who, target := range s.endorsed {
		if target == id || who == id {
			delete(s.endorsed, who)
		}
	}
	return nil
}
